#!/usr/bin/env bash
# Builds octile's runtime core (no default features) for wasm32-unknown-unknown and runs its
# smoke test under node: tests/wasm-smoke is a cdylib that generates two small dungeons (a
# maze and a room graph) and runs A*, a Dijkstra map and a field of view on them; node
# checks its numbers against tests/wasm-smoke/expected.json, which tests/wasm_smoke.rs
# checks natively. Exit 0 only when the module builds and every number agrees.
#
# rustup cannot add the wasm32 target here, so the wasm32 std is built from source:
# Debian's rustc-web (1.85) with its rust-web-src and cargo-web, `-Zbuild-std` (allowed on
# a stable compiler by RUSTC_BOOTSTRAP=1), linked by rust-lld. Overrides: RUSTC_WEB,
# CARGO_WEB (Debian's rustc and cargo), WASM_LD (the linker), NODE.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'wasm-smoke: error: %s\n' "$*" >&2; exit 1; }

rustc_web=${RUSTC_WEB:-/usr/bin/rustc}
cargo_web=${CARGO_WEB:-/usr/bin/cargo}
node=${NODE:-node}
[ -x "$rustc_web" ] || die "$rustc_web not found: install Debian's rustc-web (apt-get install rustc-web rust-web-src cargo-web)"
[ -x "$cargo_web" ] || die "$cargo_web not found: install Debian's cargo-web"
sysroot="$("$rustc_web" --print sysroot)"
[ -d "$sysroot/lib/rustlib/src/rust/library/std" ] ||
  die "no std sources under $sysroot/lib/rustlib/src/rust: install Debian's rust-web-src"
"$rustc_web" --print target-list | grep -qx wasm32-unknown-unknown ||
  die "$rustc_web has no wasm32-unknown-unknown target"
command -v "$node" >/dev/null || die "node not found: install nodejs"

# The linker: rust-lld from the rustup toolchain, else LLVM's wasm-ld.
linker=${WASM_LD:-}
if [ -z "$linker" ] && command -v rustup >/dev/null; then
  candidate="$(rustup run stable rustc --print sysroot 2>/dev/null || true)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
  [ -x "$candidate" ] && linker=$candidate
fi
if [ -z "$linker" ]; then
  for name in wasm-ld wasm-ld-19 wasm-ld-16 wasm-ld-15; do
    command -v "$name" >/dev/null && { linker=$(command -v "$name"); break; }
  done
fi
[ -n "$linker" ] || die "no wasm linker: neither rustup's rust-lld nor wasm-ld (apt-get install lld-19); set WASM_LD"
[ -x "$linker" ] || die "the wasm linker $linker is not an executable file"

printf 'wasm-smoke: %s, %s, linker %s\n' "$("$rustc_web" --version)" "$("$cargo_web" --version)" "$linker"
target_dir=target/wasm-smoke
# octile's own code uses let chains (stable since 1.88, edition 2024): Rust 1.85 has them
# behind a feature, turned on for the octile crate alone (std declares it itself).
octile_flags='["-Zcrate-attr=feature(let_chains)"]'
# RUSTFLAGS and rustup's toolchain choice are the native build's, not this one's.
env -u RUSTFLAGS -u RUSTUP_TOOLCHAIN \
  RUSTC="$rustc_web" RUSTDOC="$(dirname "$rustc_web")/rustdoc" RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker" \
  "$cargo_web" build --manifest-path tests/wasm-smoke/Cargo.toml --release --locked \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --target-dir "$target_dir" \
  -Zprofile-rustflags --config "profile.release.package.octile.rustflags = $octile_flags" ||
  die "the wasm32 build of the runtime core failed (above)"

module=$target_dir/wasm32-unknown-unknown/release/octile_wasm_smoke.wasm
[ -f "$module" ] || die "the build gave no $module"
printf 'wasm-smoke: %s, %s bytes\n' "$module" "$(wc -c <"$module")"
"$node" tests/wasm-smoke/smoke.mjs "$module" tests/wasm-smoke/expected.json ||
  die "the wasm32 module's numbers differ from the native ones (above)"
printf 'wasm-smoke: ok\n'
