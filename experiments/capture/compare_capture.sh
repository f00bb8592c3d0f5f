#!/usr/bin/env bash
# Compares two builds' capture benchmarks in interleaved runs on one machine, as docs/performance.md
# reports them: CPU per view in the 16-view set and in the full 44-image set, and the PNG encoding
# of one 512 px image, each with one llvmpipe thread.
#
#   experiments/capture/compare_capture.sh OLD_BUILD NEW_BUILD [ROUNDS]
#
# OLD_BUILD and NEW_BUILD are build folders holding experiments/capture/bench_capture (for the
# old one: check out the old commit in a second worktree and build bench_capture there). Prints
# one line per run and benchmark, then the medians; the load average at start and end tells how
# busy the machine was.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OLD_BUILD NEW_BUILD [ROUNDS]" >&2
  exit 2
fi
old=$1/experiments/capture/bench_capture
new=$2/experiments/capture/bench_capture
rounds=${3:-5}
for bench in "$old" "$new"; do
  [[ -x $bench ]] || { echo "$bench: no such executable" >&2; exit 2; }
done
filter='PerViewIn16ViewSet512|FullCaptureSet512|EncodePng512'
results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((round = 1; round <= rounds; ++round)); do
  for side in old new; do
    bench=$old
    [[ $side == new ]] && bench=$new
    # Each benchmark's CPU per view (the cpu_ms_per_view counter, or the CPU column for the PNG).
    LP_NUM_THREADS=1 "$bench" --benchmark_filter="$filter" --benchmark_min_time=2 2>/dev/null |
      awk -v side="$side" -v round="$round" '
        /^BM_/ {
          name = $1; sub(/\/.*/, "", name); value = $4
          for (i = 1; i <= NF; ++i) if ($i ~ /^cpu_ms_per_view=/) { value = $i; sub(/.*=/, "", value) }
          printf "%s %s %s %s\n", side, round, name, value
        }' | tee -a "$results"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians [ms CPU per view or image]:"
for name in BM_PerViewIn16ViewSet512 BM_FullCaptureSet512 BM_EncodePng512; do
  line="$name"
  for side in old new; do
    median=$(awk -v side="$side" -v name="$name" '$1 == side && $3 == name { print $4 }' "$results" |
      sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    line="$line $side=$median"
  done
  echo "$line"
done
