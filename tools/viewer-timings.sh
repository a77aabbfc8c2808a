#!/usr/bin/env bash
# Viewer timings: frame time, start-up and memory of `octile view --screenshot` on whatever
# adapter wgpu picks (Mesa lavapipe on a machine without a GPU), each case drawn with the
# chunk policies side by side (OCTILE_VIEW_CHUNKS: `culled` = every chunk in the frustum at
# full detail, as before the level of detail; `detail` = the default: far chunks coarse,
# outlines only where they show). Prints a Markdown table.
#
# Usage: tools/viewer-timings.sh [--octile BIN] [--frames N] [--size WxH] [--big | --big-only]
#   --octile BIN  the binary to time (default: target/release/octile, then target/debug/octile)
#   --frames N    frames timed per case (default 20; the median is printed)
#   --big         also a 200x200x3 generated dungeon (start-up and memory of a big level)
#   --big-only    only the 200x200x3 dungeon
#
# Columns: triangles and draw calls of the captured frame; chunks built at full detail of
# all chunks (meshed on demand; "-" for a binary that meshes everything up front); the
# median wall time per frame
# the viewer prints; CPU ms per frame = (CPU(N frames) - CPU(1 frame)) / (N - 1), the figure
# to trust on a loaded machine (lavapipe's threads included); start-up = wall seconds and
# peak resident memory (/usr/bin/time -v) of the 1-frame run: load, mesh, upload, one frame.
set -euo pipefail

octile=""
frames=20
size=1280x720
big=0
only_big=0
while [ $# -gt 0 ]; do
    case "$1" in
        --octile) octile=$2; shift 2 ;;
        --frames) frames=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --big) big=1; shift ;;
        --big-only) big=1; only_big=1; shift ;;
        *) echo "unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
if [ -z "$octile" ]; then
    for candidate in target/release/octile target/debug/octile; do
        if [ -x "$candidate" ]; then octile=$candidate; break; fi
    done
fi
[ -x "$octile" ] || { echo "no octile binary: build it or pass --octile BIN" >&2; exit 2; }
[ "$frames" -ge 2 ] || { echo "--frames must be at least 2" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$dir}

cases=""
if [ "$only_big" = 0 ]; then
    "$octile" generate --seed 7 --octagons 12x12 --levels 3 -o "$dir/gen12x12x3.json" >/dev/null
    "$octile" generate --seed 7 --octagons 32x32 --levels 4 -o "$dir/gen32x32x4.json" >/dev/null
    "$octile" generate --seed 1 --octagons 64x64 --levels 4 -o "$dir/gen64x64x4.json" >/dev/null
    "$octile" new --octagons 64x64 --levels 4 --fill floor -o "$dir/floor64x64x4.json" >/dev/null
    cases="gen12x12x3:walk gen12x12x3:orbit gen32x32x4:walk gen32x32x4:orbit gen32x32x4:top gen64x64x4:walk gen64x64x4:orbit gen64x64x4:top floor64x64x4:orbit"
fi
if [ "$big" = 1 ]; then
    "$octile" generate --seed 1 --octagons 200x200 --levels 3 -o "$dir/gen200x200x3.json" >/dev/null
    cases="$cases gen200x200x3:orbit gen200x200x3:walk"
fi

# run POLICY FILE CAMERA N: sets out (viewer output), cpu (s), wall (s), rss (KB).
run() {
    OCTILE_VIEW_CHUNKS=$1 /usr/bin/time -v -o "$dir/time" "$octile" view "$2" --camera "$3" \
        --screenshot "$dir/shot.png" --size "$size" --frames "$4" >"$dir/out" 2>&1
    out=$(cat "$dir/out")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$dir/time")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$dir/time")
    rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$dir/time")
}

echo "octile: $octile ($size, $frames frames per case)"
echo
echo "| dungeon | camera | chunks | triangles | draw calls | built | median ms/frame | CPU ms/frame | start-up s | max RSS MB |"
echo "|---------|--------|--------|-----------|------------|-------|-----------------|--------------|------------|------------|"
for case in $cases; do
    name=${case%%:*}
    camera=${case##*:}
    for policy in culled detail; do
        run "$policy" "$dir/$name.json" "$camera" 1
        cpu1=$cpu; wall1=$wall; rss1=$rss
        run "$policy" "$dir/$name.json" "$camera" "$frames"
        median=$(sed -n 's/.*median frame time \([0-9.]*\) ms.*/\1/p' <<<"$out")
        draws=$(sed -n 's/.*, \([0-9]*\) draw calls, \([0-9]*\) triangles).*/\1/p' <<<"$out")
        triangles=$(sed -n 's/.*, \([0-9]*\) draw calls, \([0-9]*\) triangles).*/\2/p' <<<"$out")
        built=$(sed -n 's/^chunks: \([0-9]*\) of \([0-9]*\) built.*/\1 of \2/p' <<<"$out")
        per_frame=$(awk -v a="$cpu" -v b="$cpu1" -v n="$frames" 'BEGIN { printf "%.1f", (a - b) * 1000 / (n - 1) }')
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %d |\n' "$name" "$camera" "$policy" \
            "$triangles" "$draws" "${built:--}" "$median" "$per_frame" "$wall1" "$((rss1 / 1024))"
    done
done
