#!/usr/bin/env bash
# Lock-step and interactive round trips over the same-host Unix socket against TCP, and against
# an older build, in interleaved rounds (docs/performance.md):
#
#   experiments/worker/compare_local_channel.sh OLD_BUILD NEW_BUILD [ROUNDS]
#
# OLD_BUILD: a build of a commit before the same-host channel (its benchmarks take one argument
# fewer, and its nodes always use TCP); NEW_BUILD: this one. Each round runs the old benchmarks,
# then the new ones, with the load average printed first. Compare the reference workload's
# BM_ReferenceWorkloadNodeSync/1/0[/CHANNEL] with BM_ReferenceWorkloadBuiltIn (their ratio is the
# lock-step cost), and StepRoundTrip's steps_per_s.
set -euo pipefail
old=${1:?usage: $0 OLD_BUILD NEW_BUILD [ROUNDS]}
new=${2:?usage: $0 OLD_BUILD NEW_BUILD [ROUNDS]}
rounds=${3:-3}
run() {  # LABEL BUILD BENCH FILTER
  "$2/experiments/worker/$3" --benchmark_min_time=2 --benchmark_filter="$4" 2>/dev/null |
    grep -E '^(BM_|Step)' | sed "s|^|$1 |"
}
for round in $(seq "$rounds"); do
  echo "round $round, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  run old "$old" bench_lockstep 'BuiltIn|NodeSync/1/0/real'
  run new "$new" bench_lockstep 'BuiltIn|NodeSync/1/0/[01]/real'
  run old "$old" bench_serve 'StepRoundTrip'
  run new "$new" bench_serve 'StepRoundTrip'
done
