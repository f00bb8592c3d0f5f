#!/usr/bin/env python3
"""Farm efficiency, two builds side by side: how busy the client keeps its workers, and what the
client itself costs per scenario.

For each worker count N (--workers, default 1 and 2) it runs configs/batches/throughput_1000.json
with throughput.py on the --old and the --new build, interleaved (old, new, then new, old in the
next round, --rounds times), and reports for each run:
  efficiency        the workers' CPU time / (N x the client's wall time, start to exit)
  client_ms         the client's own CPU time per scenario [ms]
  idle_share        of the workers' time between their first and last scenario, the share spent
                    waiting between a scenario's end and the start of the next (worker logs)
and the median of each per build with the ratio new / old. With --fake-workers W (e.g. 1000) it
also runs experiments/client/bench_fake_workers.py (--launcher none, W fake workers answering at
once, --fake-scenarios trivial scenarios) on each build and reports the client's CPU per
scenario there.

Each run writes a new folder under --keep (default: a temporary folder, removed at the end):
deleting thousands of files slows ext4's inode allocation for minutes after, which would bias
the run that follows. The load average is printed before each run; the machine should be quiet.

Usage: experiments/farm/efficiency.py --old BUILD_DIR --new BUILD_DIR [--workers 1 2]
           [--rounds 3] [--fake-workers 1000] [--fake-scenarios 10000] [--keep DIR]
Each BUILD_DIR needs bin/asg-client, bin/asg-worker, share/asg-farm (and bin/fake_workers for
--fake-workers).
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log_time(line):
    """The seconds of a log line's "[YYYY-MM-DD HH:MM:SS.ffffff]" stamp."""
    stamp = datetime.datetime.strptime(line[1:27], "%Y-%m-%d %H:%M:%S.%f")
    return stamp.timestamp()


def idle_share(logs_dir):
    """Of the workers' time from their first scenario's start to their last one's end, the share
    spent between one scenario's end and the next one's start."""
    busy = idle = 0.0
    for name in sorted(os.listdir(logs_dir)):
        start = end = None
        with open(os.path.join(logs_dir, name)) as file:
            for line in file:
                if re.search(r"\] \[\w+\] running scenario \d+", line):
                    now = log_time(line)
                    if end is not None:
                        idle += now - end
                    start = now
                elif start is not None and re.search(r"\] \[\w+\] scenario \d+ ended", line):
                    end = log_time(line)
                    busy += end - start
    return idle / (busy + idle) if busy + idle > 0 else None


def farm_run(build, workers, out):
    """One throughput.py run; its facts."""
    command = [sys.executable, os.path.join(HERE, "throughput.py"), "--build", build,
               "--workers", str(workers), "--out", out]
    report = json.loads(subprocess.run(command, check=True, capture_output=True,
                                       text=True).stdout)
    scenarios = report["scenarios"]
    return {
        "wall_s": report["wall_s"],
        "efficiency": round(report["workers_cpu_s"] / (workers * report["wall_s"]), 3),
        "client_ms": round(1000.0 * report["client_cpu_s"] / scenarios, 3),
        "idle_share": round(idle_share(os.path.join(out, "logs")), 3),
    }


def fake_run(build, workers, scenarios, out):
    """One bench_fake_workers.py run with `workers` fake workers; the client's CPU per scenario."""
    command = [sys.executable, os.path.join(ROOT, "experiments", "client", "bench_fake_workers.py"),
               "--build", build, "--workers", str(workers), "--scenarios", str(scenarios),
               "--baseline-workers", "0", "--out", out]
    done = subprocess.run(command, capture_output=True, text=True)
    run = json.loads(done.stdout)["runs"][-1]
    return {
        "client_ms": round(1000.0 * run["client_cpu_s"] / scenarios, 3),
        "sustained_results_per_s": run["sustained_results_per_s"],
        "clean": done.returncode == 0,
    }


def medians(runs, key):
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="build folder of the old code")
    parser.add_argument("--new", required=True, help="build folder of the new code")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fake-workers", type=int, default=0, help="0: no fake-worker runs")
    parser.add_argument("--fake-scenarios", type=int, default=10000)
    parser.add_argument("--keep", help="folder for every run's results (default: temporary)")
    args = parser.parse_args()
    builds = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    work = args.keep or tempfile.mkdtemp(prefix="asg_efficiency_")
    os.makedirs(work, exist_ok=True)
    results = {}  # (kind, N, build) -> [run]
    for round_index in range(args.rounds):
        order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]
        for workers in args.workers:
            for name in order:
                out = tempfile.mkdtemp(dir=work, prefix="%s_n%d_" % (name, workers))
                shutil.rmtree(out)
                load = os.getloadavg()[0]
                run = farm_run(builds[name], workers, out)
                run["load"] = round(load, 2)
                results.setdefault(("farm", workers, name), []).append(run)
                print(json.dumps({"round": round_index, "workers": workers, "build": name, **run}),
                      flush=True)
        if args.fake_workers:
            for name in order:
                out = tempfile.mkdtemp(dir=work, prefix="%s_fake_" % name)
                load = os.getloadavg()[0]
                run = fake_run(builds[name], args.fake_workers, args.fake_scenarios, out)
                run["load"] = round(load, 2)
                results.setdefault(("fake", args.fake_workers, name), []).append(run)
                print(json.dumps({"round": round_index, "fake_workers": args.fake_workers,
                                  "build": name, **run}), flush=True)
    summary = []
    for (kind, workers, name), runs in sorted(results.items()):
        row = {"kind": kind, "workers": workers, "build": name, "runs": len(runs)}
        for key in ("wall_s", "efficiency", "client_ms", "idle_share", "sustained_results_per_s"):
            value = medians(runs, key)
            if value is not None:
                row["median_" + key] = value
        summary.append(row)
    print(json.dumps({"medians": summary}, indent=2))
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
