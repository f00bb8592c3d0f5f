#!/usr/bin/env python3
"""Benchmark of the batch HTML report (report/report.h) at 10,000 scenarios.

Usage: bench_report.py BIN_DIR [--scenarios N]

Writes N fake scenario folders (minimal result.json, timing.json, request.json and a 50-row
trajectory.csv, mixed outcomes), builds their report with `asg-client report`, then opens
index.html#sort=sim_time&dir=desc in headless Chromium and prints the time from navigation start
until the table is sorted and drawn (the page's data-ready-ms, performance.now()), and the
wall time of `asg-client report`.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

REASONS = ["REASON_SUCCESS", "REASON_VEHICLE_COLLISION", "REASON_SIM_TIMEOUT",
           "REASON_VEHICLE_STUCK_TIMEOUT"]


def write_folder(out, number):
    folder = os.path.join(out, f"scenario_{number:04d}")
    os.makedirs(folder)
    reason = REASONS[number % len(REASONS)]
    sim_time = 2.0 + (number * 7919 % 1500) / 100.0
    result = {"scenario_number": number, "status": "done", "seed": number, "reruns": [],
              "captures": [], "termination_reason": REASONS.index(reason),
              "termination_reason_name": reason, "vehicle_sim_time": sim_time,
              "counters": {"max_abs_roll": 1.0, "max_abs_pitch": 2.0,
                           "distance_travelled": sim_time * 4.5},
              "regret": {"computed": True, "regret": (number * 104729 % 1000) / 1000.0}}
    timing = {"worker_id": 1, "wall_time_s": 0.01, "attempts": [{"attempt": 1}]}
    request = {"scene_description": {"landscape": {"nominal_size": 60.0}, "ssa_array": []},
               "vehicle_start_location": {"x": 10.0, "y": 10.0, "z": 0.0},
               "vehicle_goal_location": {"x": 50.0, "y": 50.0, "z": 0.0}, "goal_radius": 5.0}
    rows = ["t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz,vx_world,vy_world,vz_world"]
    end = (number * 31 % 40) / 50.0
    for i in range(50):
        f = i / 49.0 * (0.2 + end)
        rows.append(f"{i * 0.05:.2f},{10 + 40 * f},{10 + 40 * f},0,0,0,45,5,0,0,0,0,0,3.5,3.5,0")
    for name, text in (("result.json", json.dumps(result, indent=2)),
                       ("timing.json", json.dumps(timing, indent=2)),
                       ("request.json", json.dumps(request, indent=2)),
                       ("trajectory.csv", "\n".join(rows) + "\n")):
        with open(os.path.join(folder, name), "w") as file:
            file.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("--scenarios", type=int, default=10000)
    args = parser.parse_args()
    out = tempfile.mkdtemp(prefix="asg_report_bench_")
    try:
        with open(os.path.join(out, "batch_identity.json"), "w") as file:
            json.dump({"batch": "bench", "file": "", "identity": "0", "scenarios": args.scenarios,
                       "search": ""}, file)
        for number in range(1, args.scenarios + 1):
            write_folder(out, number)
        start = time.perf_counter()
        subprocess.run([os.path.join(args.bin_dir, "asg-client"), "report", out], check=True,
                       stdout=subprocess.DEVNULL)
        report_s = time.perf_counter() - start
        data_mb = os.path.getsize(os.path.join(out, "report", "data.js")) / 1e6
        url = "file://" + os.path.join(out, "index.html") + "#sort=sim_time&dir=desc"
        start = time.perf_counter()
        dom = subprocess.run(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                              "--dump-dom", url], capture_output=True, text=True, check=True).stdout
        browser_s = time.perf_counter() - start
        ready = re.search(r'data-ready-ms="(\d+)"', dom)
        errors = re.search(r'data-errors="([^"]*)"', dom)
        rows = len(re.findall(r"<tr data-folder=", dom))
        if not ready or errors or rows != min(100, args.scenarios):
            raise SystemExit(f"page not ready: errors {errors and errors.group(1)}, rows {rows}")
        print(f"{args.scenarios} scenarios: asg-client report {report_s:.2f} s, data.js "
              f"{data_mb:.1f} MB; index opened and sorted by sim time in {int(ready.group(1))} ms "
              f"(navigation start to table drawn); chromium --dump-dom {browser_s:.2f} s in all")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
