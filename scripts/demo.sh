#!/usr/bin/env bash
# The ASG Farm demo: installs what is missing, builds (Release), then runs configs/demo.json
# (50 scenarios of the reference workload, planner driver) on a pool of local workers and prints
# the outcome table and where the results are. Results go to out/demo (or $ASG_DEMO_OUT).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASG_BUILD_DIR:-$root/build}
out=${ASG_DEMO_OUT:-$root/out/demo}

bash "$root/scripts/build.sh"

# A fresh folder, so the summary describes this run only.
rm -rf "$out"
echo "demo: running configs/demo.json into $out"
status=0
"$build/bin/asg-client" run "$root/configs/demo.json" --out "$out" || status=$?
echo "demo: per-scenario folders in $out/scenario_NNNN, log in $out/asg_log.txt"
exit "$status"
