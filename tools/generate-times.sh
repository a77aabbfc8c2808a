#!/usr/bin/env bash
# End-to-end times of `octile generate --seed 1 --levels 4 --octagons NxN -o x.glb`, one
# binary against another: the two run alternately, RUNS times each, and the table shows
# the medians of wall milliseconds (from the clock around each run), of wall, user and
# system seconds and of minor page faults (GNU time, to 10 ms), then whether the two files
# are byte-identical.
#
# Usage: tools/generate-times.sh BASE_OCTILE NEW_OCTILE [RUNS] [N]
#   e.g. tools/generate-times.sh /tmp/octile-before target/release/octile 9 64
# Build both with `cargo build --release --no-default-features --features cli`.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
base=$1
new=$2
runs=${3:-9}
n=${4:-64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for _ in $(seq "$runs"); do
  for side in base new; do
    start=$(date +%s%N)
    /usr/bin/time -f "%e %U %S %R" -o "$work/time" "${!side}" generate --seed 1 --levels 4 \
      --octagons "${n}x${n}" -o "$work/$side.glb" >/dev/null 2>&1
    end=$(date +%s%N)
    echo "$side $(cat "$work/time") $(((end - start) / 1000000))" >>"$work/all"
  done
done

# The median of column COL (2: wall, 3: user, 4: system, 5: faults, 6: wall ms) of SIDE's
# runs.
median() {
  awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$work/all" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "| ${n}x${n}x4, $runs runs each | wall ms | wall s | user s | system s | page faults |"
echo "|---|---|---|---|---|---|"
for side in base new; do
  echo "| $side (${!side}) | $(median "$side" 6) | $(median "$side" 2) | $(median "$side" 3) | $(median "$side" 4) | $(median "$side" 5) |"
done
if cmp -s "$work/base.glb" "$work/new.glb"; then
  echo "The two .glb files are byte-identical."
else
  echo "The two .glb files differ."
fi
