#!/usr/bin/env bash
# The live view of the interactive worker (asg-worker --serve --foxglove) checked by other
# people's code (npm: @foxglove/ws-protocol, ws, @foxglove/schemas, ajv, pinned in
# tests/worker/serve/npm/package-lock.json), end to end with the real executables:
#
#   tests/worker/serve/live_view_test.sh BUILD_DIR
#
# Runs one small scenario with asg-client, opens its folder in a `--serve --foxglove` worker and
# runs npm/live_view_test.mjs against it (channels, subscriptions, messages valid against their
# schemas, StepSimulation through the protocol). Then the token: a worker with --token refuses a
# viewer without it or with a wrong one (HTTP 401) and admits one with ?token=T, and --foxglove on
# an address other than loopback without a token is a usage error (exit 2). The npm packages are
# installed with `npm ci` into BUILD_DIR/npm/live_view the first time (and when the lock changes).
set -euo pipefail
source_dir=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: live_view_test.sh BUILD_DIR}" && pwd)
fail() { echo "live_view_test: $*" >&2; exit 1; }
npm_dir=$build/npm/live_view
bash "$source_dir/../../npm_ci.sh" "$source_dir/npm" "$npm_dir" || fail "the npm packages are missing"
cp "$source_dir/npm/live_view_test.mjs" "$npm_dir/"
check() { node "$npm_dir/live_view_test.mjs" "$@"; }

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# One run of about 6 s on a bare 50 m landscape.
cat > "$work/batch.json" <<'JSON'
{"name": "live", "seed": 3,
 "scenarios": [{"sim_timeout_period": 6, "goal_radius": 4,
                "vehicle_start_location": {"x": 8, "y": 8, "z": 0},
                "vehicle_goal_location": {"x": 40, "y": 40, "z": 0},
                "scene_description": {"landscape": {"nominal_size": 50}}}]}
JSON
"$build/bin/asg-client" run "$work/batch.json" --out "$work/out" --workers 1 --quiet \
  > "$work/run.txt" || fail "the batch did not run: $(cat "$work/run.txt")"

# serve NAME ARGS...: starts a worker, waits for its "foxglove ws://HOST:PORT" line, sets $url.
serve() {
  local name=$1
  shift
  "$build/bin/asg-worker" --serve 127.0.0.1:0 --foxglove 127.0.0.1:0 "$@" \
    > "$work/$name.out" 2> "$work/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do
    url=$(sed -n 's/^foxglove \(ws:.*\)$/\1/p' "$work/$name.out")
    [[ -n $url ]] && return 0
    sleep 0.1
  done
  fail "$name: no foxglove line: $(cat "$work/$name.out" "$work/$name.err")"
}

serve open --open "$work/out/scenario_0001"
check view "$url" || fail "the live view: $(tail -5 "$work/open.err")"

serve token --open "$work/out/scenario_0001" --token s3cret
check refused "$url" || fail "a viewer without the token was not refused"
check refused "$url/?token=wrong" || fail "a viewer with a wrong token was not refused"
check view "$url/?token=s3cret" || fail "a viewer with the token: $(tail -5 "$work/token.err")"
grep -q "refused" "$work/token.err" || fail "the refusals are not logged"

status=0
"$build/bin/asg-worker" --serve 127.0.0.1:0 --foxglove 0.0.0.0:0 > /dev/null 2> "$work/usage.err" ||
  status=$?
[[ $status -eq 2 ]] || fail "--foxglove 0.0.0.0 without a token: exit $status, expected 2"
grep -q -- "--foxglove 0.0.0.0 accepts viewers from other hosts" "$work/usage.err" ||
  fail "usage error: $(cat "$work/usage.err")"
echo "live_view_test: ok"
