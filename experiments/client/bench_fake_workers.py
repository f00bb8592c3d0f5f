#!/usr/bin/env python3
"""Client load benchmark: asg-client --launcher none against N fake workers (fake_workers, one
process holding N connections that speak the farm protocol and answer every RunScenario at once),
on a generated batch of trivial scenarios. Reports what the client sustains with that many
workers connected: connections served, results per second with every folder written, its peak
memory and memory per connected worker, heartbeat drops, and that every folder is complete.

Each measurement runs the same batch twice: once with --baseline-workers (default 1) fake worker,
once with --workers; memory per connected worker is the difference of the two peak RSS (the
client's ru_maxrss from wait4) divided by the difference of the worker counts.

Rates, all from the client's own records:
  sustained_results_per_s  scenarios / (the last file of a scenario folder written, its
                           ctime, minus the first "sent to" line of asg_log.txt): results
                           through the client with their folders written
  loop_results_per_s       scenarios / (last "done on" line minus first "sent to" line)
  summary_results_per_s    summary.json scenarios_per_s (includes waiting for the connections)

Runs write into new folders; the temporary one (without --out) is removed at the end. Deleting
tens of thousands of files slows ext4's inode allocation for minutes after (its allocator skips
recently deleted inodes), so back-to-back invocations measure the file system, not the client:
leave a few minutes between them, or keep the results (--out).

Usage: experiments/client/bench_fake_workers.py [--build DIR] [--workers 1000]
           [--scenarios 10000] [--delay-ms 0] [--threads 1] [--baseline-workers 1] [--out DIR]
Exit codes: 0 every run complete and clean (the targets are reported, not enforced), 1 a run
incomplete, a connection lost or a heartbeat dropped, 2 usage.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDER_FILES = ("request.json", "result.json", "timing.json", "trajectory.csv")
# Log lines that tell of a connection lost, a worker dropped or a heartbeat missed.
TROUBLE = re.compile(r"\[(WARNING|ERROR)\]|dropp|heartbeat|silent|lost|closed", re.IGNORECASE)
LOG_TIME = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\]")
TARGET_RESULTS_PER_S = 5000.0
TARGET_KIB_PER_WORKER = 100.0


def batch_json(scenarios):
    """A batch of `scenarios` generated scenarios: flat 60 m landscape, no actors, straight
    driver (the fake workers simulate nothing, so the content only has to be valid)."""
    return {
        "name": "fake_load",
        "seed": 1,
        "max_attempts": 3,
        "scenario_timeout_s": 60,
        "defaults": {
            "sim_timeout_period": 20,
            "vehicle_start_location": {"x": 10, "y": 10, "z": 0},
            "vehicle_start_yaw": 45,
            "vehicle_goal_location": {"x": 50, "y": 50, "z": 0},
            "goal_radius": 5,
            "driver": {"type": "straight", "speed": 5},
        },
        "generate": {"count": scenarios},
    }


def log_seconds(line):
    """The UTC time stamp of an asg_log.txt line as seconds since the epoch, or None."""
    match = LOG_TIME.match(line)
    if not match:
        return None
    stamp = datetime.datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S.%f")
    return stamp.replace(tzinfo=datetime.timezone.utc).timestamp()


def check_folders(out, scenarios):
    """(complete folders, first problem or None, when the last result file was written). The
    folder's own times are no use: the HTML report writes index.html into it later."""
    complete, problem, latest = 0, None, 0.0
    for number in range(1, scenarios + 1):
        folder = os.path.join(out, "scenario_%04d" % number)
        try:
            missing = [name for name in FOLDER_FILES
                       if not os.path.isfile(os.path.join(folder, name))]
            if missing:
                raise ValueError("missing " + ", ".join(missing))
            latest = max([latest] + [os.stat(os.path.join(folder, name)).st_ctime
                                     for name in FOLDER_FILES])
            with open(os.path.join(folder, "result.json")) as file:
                result = json.load(file)
            if result.get("scenario_number") != number or result.get("status") != "done":
                raise ValueError("result.json has scenario %s status %s" %
                                 (result.get("scenario_number"), result.get("status")))
            complete += 1
        except (OSError, ValueError) as error:
            problem = problem or "%s: %s" % (folder, error)
    return complete, problem, latest


def run_once(args, batch, workers, out):
    """Runs the batch with `workers` fake workers; returns the facts of the run."""
    client = os.path.join(args.build, "bin", "asg-client")
    fake = os.path.join(args.build, "bin", "fake_workers")
    # The client makes its folders durable with syncfs, which also writes back whatever else is
    # dirty on the file system (the last run's report): that is flushed first.
    os.sync()
    command = [client, "run", batch, "--out", out, "--launcher", "none",
               "--listen", "127.0.0.1:%d" % args.port, "--quiet", "--token", "bench"]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    address = None
    for line in process.stdout:
        match = re.match(r"waiting for workers on (\S+)", line)
        if match:
            address = match.group(1)
            break
    if address is None:
        process.wait()
        sys.exit("bench: asg-client exited with %d before listening" % process.returncode)
    faked = subprocess.run([fake, "--connect", address, "--workers", str(workers),
                            "--delay-ms", str(args.delay_ms), "--threads", str(args.threads),
                            "--token", "bench"], capture_output=True, text=True)
    rest = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    fake_summary = json.loads(faked.stdout.strip().splitlines()[-1]) if faked.stdout else {}

    with open(os.path.join(out, "asg_log.txt")) as file:
        log = file.read().splitlines()
    sent = [log_seconds(line) for line in log if " sent to worker " in line]
    done = [log_seconds(line) for line in log if " done on worker " in line]
    with open(os.path.join(out, "summary.json")) as file:
        summary = json.load(file)
    complete, problem, last_folder = check_folders(out, args.scenarios)
    usage_line = next((line for line in log if "resource usage:" in line), "")
    cpu = re.search(r"client cpu ([\d.]+) s", usage_line)
    first_sent = min(sent) if sent else 0.0
    return {
        "workers": workers,
        "client_exit": code,
        "client_output_tail": rest.strip().splitlines()[-1:] if rest else [],
        "fake_workers": fake_summary,
        "fake_workers_exit": faked.returncode,
        "registered_in_log": sum(1 for line in log if " connected from " in line),
        "trouble_lines": [line for line in log if TROUBLE.search(line)][:10],
        "trouble_count": sum(1 for line in log if TROUBLE.search(line)),
        "done_in_summary": summary["status_counts"]["done"],
        "folders_complete": complete,
        "first_incomplete": problem,
        "sustained_results_per_s":
            round(args.scenarios / (last_folder - first_sent), 1) if sent else 0.0,
        "loop_results_per_s": round(args.scenarios / (max(done) - first_sent), 1) if done else 0,
        "summary_results_per_s": round(summary["scenarios_per_s"], 1),
        "batch_s_first_sent_to_last_folder": round(last_folder - first_sent, 3) if sent else None,
        "client_wall_s": round(wall, 3),
        "client_cpu_s": float(cpu.group(1)) if cpu else None,
        "client_peak_rss_kib": usage.ru_maxrss,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="build folder")
    parser.add_argument("--workers", type=int, default=1000, help="fake workers, 1..65535")
    parser.add_argument("--scenarios", type=int, default=10000, help="batch size, 1..65535")
    parser.add_argument("--delay-ms", type=int, default=0, help="fake run time [ms]")
    parser.add_argument("--threads", type=int, default=1, help="fake_workers io threads")
    parser.add_argument("--baseline-workers", type=int, default=1,
                        help="workers of the reference run for memory per worker; 0: none")
    parser.add_argument("--port", type=int, default=0, help="client port, 0: any free one")
    parser.add_argument("--out", help="folder for the batch and results (default: temporary)")
    args = parser.parse_args()
    if not (1 <= args.workers <= 65535 and 1 <= args.scenarios <= 65535 and
            0 <= args.baseline_workers < args.workers):
        parser.error("need 1 <= workers <= 65535, 1 <= scenarios <= 65535, "
                     "0 <= baseline-workers < workers")
    for exe in ("asg-client", "fake_workers"):
        if not os.access(os.path.join(args.build, "bin", exe), os.X_OK):
            sys.exit("bench: %s/bin/%s not found; build the targets asg-client and fake_workers"
                     % (args.build, exe))

    work = args.out or tempfile.mkdtemp(prefix="asg_fake_load_")
    os.makedirs(work, exist_ok=True)
    batch = os.path.join(work, "batch.json")
    with open(batch, "w") as file:
        json.dump(batch_json(args.scenarios), file, indent=2)
    runs = []
    for workers in ([args.baseline_workers] if args.baseline_workers else []) + [args.workers]:
        # A new folder each run: ext4 allocates inodes slowly for a few minutes after many were
        # deleted (recently_deleted), so the results of an earlier run are removed only at the end.
        out = tempfile.mkdtemp(dir=work, prefix="out_%d_" % workers)
        runs.append(run_once(args, batch, workers, out))
    main_run = runs[-1]

    report = {"scenarios": args.scenarios, "delay_ms": args.delay_ms, "runs": runs}
    if len(runs) == 2:
        extra = main_run["client_peak_rss_kib"] - runs[0]["client_peak_rss_kib"]
        report["rss_kib_per_connected_worker"] = round(extra / (args.workers - runs[0]["workers"]),
                                                       1)
    clean = all(run["client_exit"] == 0 and run["fake_workers_exit"] == 0 and
                run["trouble_count"] == 0 and run["folders_complete"] == args.scenarios and
                run["done_in_summary"] == args.scenarios and
                run["registered_in_log"] == run["workers"] and
                run["fake_workers"].get("scenarios_answered") == args.scenarios for run in runs)
    report["targets"] = {
        "all_connected_and_served": main_run["registered_in_log"] == args.workers,
        "results_per_s_at_least_%d" % TARGET_RESULTS_PER_S:
            main_run["sustained_results_per_s"] >= TARGET_RESULTS_PER_S,
        "kib_per_worker_below_%d" % TARGET_KIB_PER_WORKER:
            report.get("rss_kib_per_connected_worker", 0.0) < TARGET_KIB_PER_WORKER,
        "no_heartbeat_drops": main_run["trouble_count"] == 0,
        "every_folder_complete": main_run["folders_complete"] == args.scenarios,
    }
    print(json.dumps(report, indent=2))
    if not args.out:
        shutil.rmtree(work)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
