#!/usr/bin/env python3
"""Farm throughput benchmark: runs a batch (by default configs/batches/throughput_1000.json, 1000
scenarios of the reference workload, planner driver, no captures) with asg-client on N local
workers and reports wall time, scenarios per second and the CPU time of the client process
against that of its workers.

The client's own CPU time is read from the "resource usage" line it logs at the end
(getrusage(RUSAGE_SELF) and RUSAGE_CHILDREN); the total is cross-checked with wait4() on the
client process, which covers the client and every worker it reaped.

Usage: experiments/farm/throughput.py [--build DIR] [--batch FILE] [--workers N] [--out DIR]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="build folder")
    parser.add_argument("--batch", default=os.path.join(ROOT, "configs", "batches",
                                                        "throughput_1000.json"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="result folder (default: a temporary one, removed)")
    args = parser.parse_args()

    client = os.path.join(args.build, "bin", "asg-client")
    if not os.access(client, os.X_OK):
        sys.exit(f"throughput: {client} not found; build first (scripts/build.sh)")
    out = args.out or tempfile.mkdtemp(prefix="asg_throughput_")
    if os.path.exists(out):
        shutil.rmtree(out)

    command = [client, "run", args.batch, "--out", out, "--workers", str(args.workers), "-q"]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)

    summary = json.load(open(os.path.join(out, "summary.json")))
    log = open(os.path.join(out, "asg_log.txt")).read()
    match = re.search(r"resource usage: wall ([\d.]+) s, client cpu ([\d.]+) s, "
                      r"local workers cpu ([\d.]+) s", log)
    if code != 0 or match is None:
        sys.exit(f"throughput: asg-client exited with {code}; see {out}/asg_log.txt")
    client_cpu, workers_cpu = float(match.group(2)), float(match.group(3))
    total_cpu = usage.ru_utime + usage.ru_stime
    scenarios = summary["total"]
    report = {
        "batch": os.path.relpath(args.batch, ROOT),
        "scenarios": scenarios,
        "workers": args.workers,
        "status_counts": summary["status_counts"],
        "wall_s": round(wall, 2),
        "scenarios_per_s": round(scenarios / wall, 1),
        "client_cpu_s": round(client_cpu, 2),
        "workers_cpu_s": round(workers_cpu, 2),
        "total_cpu_s_wait4": round(total_cpu, 2),
        "client_cpu_share_percent": round(100.0 * client_cpu / (client_cpu + workers_cpu), 2),
    }
    print(json.dumps(report, indent=2))
    if not args.out:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
