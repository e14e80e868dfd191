#!/usr/bin/env bash
# Compares builds of blendlab on the crowd benchmark on a machine whose speed drifts.
#
#   tools/crowd-ab.sh ROUNDS BINARY... [-- BENCH-ARGS...]
#
# Each round runs every binary once (`bench crowd --runs 1`, a process per run), in turn and
# pinned to the last core, so that drift hits all builds alike. Per binary it prints the
# median, lower quartile and least engine ns per character-frame and the median engine/floor
# ratio, over all runs and over the quiet ones: runs whose floor (the same arithmetic by hand,
# run in the same process) took at most 7% more than the least floor seen. Example:
#
#   tools/crowd-ab.sh 100 /tmp/blendlab-before target/release/blendlab
#   tools/crowd-ab.sh 50 /tmp/blendlab-before target/release/blendlab -- --actors 1000 --frames 6000
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '4p' "$0"
  exit 2
fi
rounds=$1
shift
binaries=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  binaries+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
core=$(($(nproc) - 1))
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
for _ in $(seq "$rounds"); do
  for b in "${!binaries[@]}"; do
    out=$(taskset -c "$core" "${binaries[$b]}" bench crowd "$@" --runs 1)
    ns() { echo "$out" | grep "^$1 " | grep -o 'ns_per_char_frame=[0-9.]*' | cut -d= -f2; }
    echo "$b $(ns blendlab) $(ns floor)" >>"$runs"
  done
done
least_floor=$(awk '{print $3}' "$runs" | sort -g | head -1)
summary() { # binary index, floor limit
  awk -v b="$1" -v limit="$2" '$1 == b && $3 <= limit {print $2, $2 / $3}' "$runs" >"$runs.$1"
  local n
  n=$(wc -l <"$runs.$1")
  if [ "$n" -eq 0 ]; then echo "no runs"; rm -f "$runs.$1"; return; fi
  local e q
  e=$(cut -d' ' -f1 "$runs.$1" | sort -g)
  q=$(cut -d' ' -f2 "$runs.$1" | sort -g)
  printf 'n=%d engine median %s lq %s min %s, ratio median %.2f\n' "$n" \
    "$(echo "$e" | sed -n "$(((n + 1) / 2))p")" "$(echo "$e" | sed -n "$((n / 4 + 1))p")" \
    "$(echo "$e" | head -1)" "$(echo "$q" | sed -n "$(((n + 1) / 2))p")"
  rm -f "$runs.$1"
}
for b in "${!binaries[@]}"; do
  echo "${binaries[$b]}"
  echo "  all:   $(summary "$b" 1e300)"
  echo "  quiet: $(summary "$b" "$(awk -v f="$least_floor" 'BEGIN {print f * 1.07}')")"
done
