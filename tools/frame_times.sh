#!/usr/bin/env bash
# Viewer frame times, one binary against another, on the generated 12x12x3 and 32x32x4
# dungeons: CPU milliseconds per offscreen frame, (cpu(61 frames) - cpu(1 frame)) / 60, of
#     octile view F.json --camera C --screenshot o.png --frames N
# The two binaries run alternately, RUNS times each; the table shows the medians.
#
# Usage: tools/frame_times.sh BASE_OCTILE NEW_OCTILE [RUNS] [extra view flags...]
#   e.g. tools/frame_times.sh /work/tgt/base/debug/octile target/debug/octile 5
# BASE_FLAGS and NEW_FLAGS (environment, split on spaces) add flags to one side only, so one
# binary can be timed against itself with a feature on:
#   NEW_FLAGS=--textures tools/frame_times.sh target/debug/octile target/debug/octile 3
# Needs /usr/bin/time (GNU time) and a Vulkan adapter (lavapipe is fine).
set -euo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
base=$1
new=$2
runs=${3:-5}
shift $(($# < 3 ? $# : 3))
extra=("$@")
read -r -a base_flags <<<"${BASE_FLAGS:-}"
read -r -a new_flags <<<"${NEW_FLAGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$work}

"$new" generate --seed 7 --octagons 12x12 --levels 3 -o "$work/12x12x3.json" >/dev/null 2>&1
"$new" generate --seed 7 --octagons 32x32 --levels 4 -o "$work/32x32x4.json" >/dev/null 2>&1

# CPU seconds (user + system) of one run of SIDE (base or new).
cpu() {
  local side=$1 file=$2 camera=$3 frames=$4
  local bin=${!side} flags
  if [[ $side == base ]]; then flags=("${base_flags[@]}"); else flags=("${new_flags[@]}"); fi
  /usr/bin/time -f '%U %S' -o "$work/time" "$bin" view "$file" --camera "$camera" \
    --screenshot "$work/o.png" --frames "$frames" "${extra[@]}" "${flags[@]}" >/dev/null 2>&1
  awk '{ printf "%.3f\n", $1 + $2 }' "$work/time"
}

# Median of the numbers on stdin.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

printf '| dungeon | camera | base ms | new ms | change |\n'
printf '|---------|--------|---------|--------|--------|\n'
for dungeon in 12x12x3 32x32x4; do
  for camera in walk orbit top; do
    : >"$work/base" && : >"$work/new"
    for _ in $(seq "$runs"); do
      for side in base new; do
        one=$(cpu "$side" "$work/$dungeon.json" "$camera" 1)
        many=$(cpu "$side" "$work/$dungeon.json" "$camera" 61)
        awk -v a="$many" -v b="$one" 'BEGIN { printf "%.2f\n", (a - b) / 60 * 1000 }' >>"$work/$side"
      done
    done
    b=$(median <"$work/base")
    n=$(median <"$work/new")
    awk -v d="$dungeon" -v c="$camera" -v b="$b" -v n="$n" \
      'BEGIN { printf "| %s | %s | %.1f | %.1f | %+.0f%% |\n", d, c, b, n, (n / b - 1) * 100 }'
  done
done
