#!/usr/bin/env bash
# MCAP recordings read back by other people's code (npm: @mcap/core, @foxglove/schemas, ajv,
# fzstd, pinned in tests/recording/npm/package-lock.json), end to end with the real executables:
#
#   tests/recording/mcap_readback_test.sh BUILD_DIR
#
# Runs a small batch (two runs and one invalid scenario), exports every recording of the batch
# and one with --out, runs it again with record.mcap (results byte-identical, recordings equal
# to the exported ones), checks each with npm/mcap_readback_test.mjs against its scenario folder
# and the channel table of docs/recordings.md,
# and checks the refusals: a folder without trajectory.csv, a scenario that did not run, an
# unwritable --out (exit 2 naming the file, nothing left behind). The npm packages are installed
# with `npm ci` into BUILD_DIR/npm/recording the first time (and when the lock file changes).
set -euo pipefail
source_dir=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: mcap_readback_test.sh BUILD_DIR}" && pwd)
client=$build/bin/asg-client
fail() { echo "mcap_readback_test: $*" >&2; exit 1; }
npm_dir=$build/npm/recording
bash "$source_dir/../npm_ci.sh" "$source_dir/npm" "$npm_dir" || fail "the npm packages are missing"
cp "$source_dir/npm/mcap_readback_test.mjs" "$npm_dir/"
root=$(cd "$source_dir/../.." && pwd)
check() { node "$npm_dir/mcap_readback_test.mjs" "$root/docs/recordings.md" "$@"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/batch.json" <<'JSON'
{"name": "recordings", "seed": 7,
 "defaults": {"sim_timeout_period": 17, "vehicle_stuck_timeout_period": 5,
              "vehicle_idling_timeout_period": 5,
              "vehicle_start_location": {"x": 10, "y": 10, "z": 0}, "vehicle_start_yaw": 45,
              "vehicle_goal_location": {"x": 50, "y": 50, "z": 0}, "goal_radius": 5,
              "scene_description": {"landscape": {"nominal_size": 60, "relief": [
                {"type": "hill", "x": 35, "y": 25, "radius": 10, "height": 2}]}}},
 "scenarios": [{"goal_radius": -1}],
 "generate": {"count": 2, "actors": [{"path_name": "tree", "count": 6, "x": [0, 60], "y": [0, 60]},
                                     {"path_name": "rock", "count": 3, "x": [0, 60], "y": [0, 60]}],
              "start_clearance": 10, "goal_clearance": 10}}
JSON
"$client" run "$work/batch.json" --out "$work/out" --workers 1 --allow-invalid --quiet \
  > "$work/run.txt" || fail "the batch did not run: $(cat "$work/run.txt")"

# Every scenario of the batch that ran, into its folder; the invalid one skipped.
"$client" export mcap "$work/out" > "$work/export.txt" || fail "export of the batch failed"
grep -q "2 recording(s)" "$work/export.txt" || fail "batch export: $(cat "$work/export.txt")"
grep -q "scenario_0001: skipped (status invalid)" "$work/export.txt" ||
  fail "batch export did not skip the invalid scenario: $(cat "$work/export.txt")"
[[ ! -e $work/out/scenario_0001/run.mcap ]] || fail "an invalid scenario got a recording"
check "$work/out/scenario_0002"
check "$work/out/scenario_0003"
# One scenario to a file of its own: the same bytes as the batch export wrote.
"$client" export mcap "$work/out/scenario_0002" --out "$work/one.mcap" > /dev/null
check "$work/out/scenario_0002" "$work/one.mcap"
cmp -s "$work/one.mcap" "$work/out/scenario_0002/run.mcap" || fail "two exports differ"

# The same batch with record.mcap: each run recorded as its folder is written, with the bytes
# export gives, and the results byte-identical with and without it.
sed 's/"name": "recordings",/"name": "recordings", "record": {"mcap": true},/' \
  "$work/batch.json" > "$work/recorded.json"
"$client" run "$work/recorded.json" --out "$work/recorded" --workers 1 --allow-invalid --quiet \
  > "$work/run.txt" || fail "the recorded batch did not run: $(cat "$work/run.txt")"
for scenario in scenario_0001 scenario_0002 scenario_0003; do
  for file in request.json result.json trajectory.csv; do
    [[ ! -e $work/out/$scenario/$file ]] ||
      cmp -s "$work/out/$scenario/$file" "$work/recorded/$scenario/$file" ||
      fail "$scenario/$file differs with record.mcap"
  done
done
[[ ! -e $work/recorded/scenario_0001/run.mcap ]] || fail "an invalid scenario was recorded"
cmp -s "$work/recorded/scenario_0002/run.mcap" "$work/out/scenario_0002/run.mcap" ||
  fail "the recording written with the folder differs from the exported one"
check "$work/recorded/scenario_0003"

# Refusals: exit 2 naming the file.
refused() {  # refused WHAT EXPECTED_TEXT ARGS...
  local what=$1 expected=$2
  shift 2
  local status=0
  "$client" export mcap "$@" > /dev/null 2> "$work/err.txt" || status=$?
  [[ $status -eq 2 ]] || fail "$what: exit $status, expected 2"
  grep -qF -- "$expected" "$work/err.txt" || fail "$what: $(cat "$work/err.txt")"
}
cp -r "$work/out/scenario_0002" "$work/no_trajectory"
rm "$work/no_trajectory/trajectory.csv" "$work/no_trajectory/run.mcap"
refused "no trajectory" "$work/no_trajectory/trajectory.csv: missing" "$work/no_trajectory"
[[ ! -e $work/no_trajectory/run.mcap ]] || fail "a recording was left without a trajectory"
refused "invalid scenario" "$work/out/scenario_0001/result.json: the scenario did not run" \
  "$work/out/scenario_0001"
refused "unwritable --out" "$work/missing/run.mcap" "$work/out/scenario_0002" \
  --out "$work/missing/run.mcap"
refused "not a run folder" "$work/batch.json" "$work/batch.json"
echo "mcap_readback_test: ok"
