#!/usr/bin/env bash
# Installs a build under a fresh prefix and checks that the installed tree works on its own:
# asg-worker finds its catalog next to itself (not at a build-machine path), and the installed
# asg-client runs a small batch with the installed asg-worker.
# Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
prefix=$(mktemp -d /tmp/asg_install.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for file in bin/asg-client bin/asg-worker bin/asg-node-stack share/asg-farm/actors.json \
  share/asg-farm/batches/search_demo.json share/asg-farm/python/asg_node/generator.py \
  share/asg-farm/python/examples/random_generator.py; do
  [[ -e "$prefix/$file" ]] || { echo "check-install: $file was not installed"; exit 1; }
done
help=$("$prefix/bin/asg-worker" --help)
if grep -q "$build\|$(dirname "$build")/configs" <<<"$help"; then
  echo "check-install: asg-worker --help names a build-machine path:"
  grep -- "--catalog" -A2 <<<"$help"
  exit 1
fi
grep -q "share/asg-farm/actors.json" <<<"$help" ||
  { echo "check-install: asg-worker --help does not say where the catalog is"; exit 1; }
cat >"$prefix/batch.json" <<'JSON'
{"name": "installed", "seed": 3,
 "defaults": {"sim_timeout_period": 10, "vehicle_start_location": {"x": 8, "y": 8, "z": 0},
              "vehicle_start_yaw": 45, "vehicle_goal_location": {"x": 30, "y": 30, "z": 0},
              "scene_description": {"landscape": {"nominal_size": 40, "subdivisions": 4},
                                    "ssa_array": [{"path_name": "tree", "num_instances": 1,
                                                   "visible": [true], "cast_shadow": [true],
                                                   "x": [30], "y": [8], "yaw": [0],
                                                   "scale": [1]}]},
              "driver": {"type": "straight", "speed": 5}},
 "scenarios": [{}, {}]}
JSON
(cd / && "$prefix/bin/asg-client" run "$prefix/batch.json" --out "$prefix/out" --workers 1 -q) \
  >"$prefix/client.txt" 2>&1 || { cat "$prefix/client.txt"; exit 1; }
grep -q '"status": "done"' "$prefix/out/scenario_0002/result.json" ||
  { echo "check-install: the installed farm did not run the batch"; exit 1; }
echo "check-install: installed under a fresh prefix; the installed farm ran 2 of 2 scenarios"
