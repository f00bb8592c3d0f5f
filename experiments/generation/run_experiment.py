#!/usr/bin/python3
"""The research paper's scenario-generation experiment on this farm: each method searches the
research workload (60 m landscape, up to 6 trees + 6 bushes, start (10, 10) yaw 45, goal (50, 50)
r 5, timeouts 17 / 5 / 5 s, collisions allowed, the built-in planner as the stack under test) for
a budget of scenarios, several trials with different seeds, through `asg-client run`. It reports,
per method and regret threshold (0.375, 0.5, 0.75, 1.0): the count and fraction of scenarios at
or above it, how many trials reach it and after how many iterations, the maximum regret and the
failure rate, each as mean and spread over trials; and plots regret against iteration with the
running maximum (Debian's python3-matplotlib, installed with
`apt-get install --no-install-recommends python3-matplotlib python3-munkres`: python3-munkres
satisfies python3-fonttools' alternative dependency, which apt would otherwise meet with
python3-scipy, whose python3-pythran pulls libboost-dev 1.74, in conflict with libboost1.81-dev).

With `--system stack` the stack under test is the example node stack instead: every worker's
vehicle is driven by an `asg-node-stack` process (camera-driven mapper, A* planner, follower;
nodes/examples/) in lock-step, with the sensors of configs/batches/stack_demo.json; the plots
and experiment.json then carry a "stack" prefix.

Usage: experiments/generation/run_experiment.py [--build DIR] [--out DIR]
           [--budget N] [--trials N] [--workers N] [--methods random,ga-12,bacre,...]
           [--system planner|stack] [--plots DIR] [--reuse]
(run by Debian's /usr/bin/python3, which sees Debian's matplotlib)
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
THRESHOLDS = [0.375, 0.5, 0.75, 1.0]

# Method name -> (strategy, strategy_settings). The research's seven groups: random, the GA with
# 6 and with 12 obstacles, BACRE, its annealing and 3-mutation variants; plus bacre-novelty.
METHODS = {
    "random": ("random", {}),
    "ga-6": ("ga", {"obstacle_count": 6, "generations": 0}),
    "ga-12": ("ga", {"obstacle_count": 12, "generations": 0}),
    "bacre": ("bacre", {}),
    "bacre-annealing": ("bacre", {"annealing": True}),
    "bacre-3mut": ("bacre", {"mutations_per_child": 3}),
    "bacre-novelty": ("bacre-novelty", {}),
}


def batch_for(method, trial_seed, budget, system="planner"):
    """The search batch of one trial: the shipped search demo with this method and seed; for the
    stack system, with the vehicle nodes (one per worker) and sensors of the stack demo."""
    with open(os.path.join(ROOT, "configs", "batches", "search_demo.json")) as f:
        batch = json.load(f)
    if system == "stack":
        with open(os.path.join(ROOT, "configs", "batches", "stack_demo.json")) as f:
            batch["vehicle_nodes"] = json.load(f)["vehicle_nodes"]
    strategy, settings = METHODS[method]
    batch["name"] = "%s-seed%d" % (method, trial_seed)
    batch["seed"] = trial_seed
    batch["search"]["strategy"] = strategy
    batch["search"]["seed"] = trial_seed
    batch["search"]["budget"] = {"scenarios": budget}
    batch["search"]["strategy_settings"] = settings
    return batch


def wait_for_text(path, needle, timeout, process):
    """Waits until `needle` is in the file at `path`; False after `timeout` s or when `process`
    has exited."""
    deadline = time.time() + timeout
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                if needle in f.read():
                    return True
        time.sleep(0.05)
    return False


def run_with_stack(build, batch_file, folder, workers):
    """asg-client on `batch_file` with `workers` local workers, each driven by an asg-node-stack
    process that connects once the client has launched the workers; returns the client's
    CompletedProcess-like outcome (returncode, stderr)."""
    client = subprocess.Popen([os.path.join(build, "bin", "asg-client"), "run", batch_file,
                               "--out", folder, "--workers", str(workers), "--listen",
                               "127.0.0.1:0", "-q"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = os.path.join(folder, "asg_log.txt")
    nodes = []
    if wait_for_text(log, "launched worker %d" % workers, 60, client):
        with open(log) as f:
            port = f.read().split("listening on 127.0.0.1:")[1].split()[0].rstrip(",")
        for worker in range(1, workers + 1):
            nodes.append(subprocess.Popen(
                [os.path.join(build, "bin", "asg-node-stack"), "--connect", "127.0.0.1:" + port,
                 "--worker-id", str(worker), "--name", "stack"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    _, stderr = client.communicate()
    for node in nodes:
        try:
            node.wait(timeout=15)
        except subprocess.TimeoutExpired:
            node.kill()
    return subprocess.CompletedProcess(client.args, client.returncode, "", stderr)


def read_trial(folder):
    """Per scenario, in iteration order: (regret, failed)."""
    rows = []
    with open(os.path.join(folder, "summary.csv")) as f:
        for row in csv.DictReader(f):
            if row["status"] != "done" or row["regret"] == "":
                continue
            rows.append((int(row["scenario_number"]), float(row["regret"]),
                         row["termination_reason_name"] != "REASON_SUCCESS"))
    rows.sort()
    return [(r, failed) for _, r, failed in rows]


def trial_metrics(runs):
    regrets = [r for r, _ in runs]
    metrics = {"scenarios": len(runs), "max_regret": max(regrets) if regrets else 0.0,
               "failure_rate": sum(1 for _, f in runs if f) / len(runs) if runs else 0.0}
    for t in THRESHOLDS:
        count = sum(1 for r in regrets if r >= t)
        first = next((i + 1 for i, r in enumerate(regrets) if r >= t), None)
        metrics["count_%g" % t] = count
        metrics["fraction_%g" % t] = count / len(regrets) if regrets else 0.0
        metrics["first_%g" % t] = first
    return metrics


def summarize(trials):
    def mean_sd(values):
        values = [v for v in values if v is not None]
        if not values:
            return None, None
        return statistics.mean(values), (statistics.stdev(values) if len(values) > 1 else 0.0)
    out = {"trials": len(trials)}
    for key in ["max_regret", "failure_rate"] + ["%s_%g" % (k, t) for t in THRESHOLDS
                                                 for k in ("count", "fraction", "first")]:
        out[key] = mean_sd([m[key] for m in trials])
    for t in THRESHOLDS:
        out["reached_%g" % t] = sum(1 for m in trials if m["first_%g" % t] is not None)
    return out


def plot(results, runs_by_method, folder, prefix="generation_", system="planner"):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plots skipped: python3-matplotlib is not installed (apt-get install "
              "--no-install-recommends python3-matplotlib python3-munkres)")
        return []
    os.makedirs(folder, exist_ok=True)
    # Okabe-Ito colours, readable in print and for colour-blind readers.
    colours = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
               "#CC79A7"]
    written = []
    fig, ax = plt.subplots(figsize=(9, 5))
    for i, (method, trials) in enumerate(runs_by_method.items()):
        runs = trials[0]
        regrets = [r for r, _ in runs]
        running, best = [], 0.0
        for r in regrets:
            best = max(best, r)
            running.append(best)
        x = range(1, len(regrets) + 1)
        ax.scatter(x, regrets, s=2, color=colours[i % len(colours)], alpha=0.25)
        ax.plot(x, running, color=colours[i % len(colours)], label=method + " (running max)")
    for t in THRESHOLDS:
        ax.axhline(t, color="grey", linewidth=0.5, linestyle=":")
    ax.set_xlabel("iteration (scenarios run)")
    ax.set_ylabel("regret (dimensionless)")
    ax.set_title("Regret against iteration, first trial of each method" +
                 (" (example node stack)" if system == "stack" else ""))
    ax.legend(loc="lower right", fontsize=8)
    path = os.path.join(folder, prefix + "regret_vs_iteration.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    written.append(path)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(1, len(results))
    for i, (method, summary) in enumerate(results.items()):
        means = [summary["count_%g" % t][0] or 0 for t in THRESHOLDS]
        spreads = [summary["count_%g" % t][1] or 0 for t in THRESHOLDS]
        xs = [j + i * width for j in range(len(THRESHOLDS))]
        ax.bar(xs, means, width, yerr=spreads, color=colours[i % len(colours)], label=method,
               capsize=2)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(THRESHOLDS))])
    ax.set_xticklabels(["regret >= %g" % t for t in THRESHOLDS])
    ax.set_ylabel("scenarios per trial (mean, bar = sd)")
    ax.set_title("High-regret scenarios found per trial" +
                 (" (example node stack)" if system == "stack" else ""))
    ax.legend(fontsize=8)
    path = os.path.join(folder, prefix + "counts.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    written.append(path)
    plt.close(fig)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "generation"))
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--plots", default=os.path.join(ROOT, "docs", "gallery"))
    parser.add_argument("--system", choices=["planner", "stack"], default="planner",
                        help="the stack under test: the built-in planner or asg-node-stack")
    parser.add_argument("--reuse", action="store_true",
                        help="read trials already in --out instead of running them again")
    args = parser.parse_args()
    prefix = "generation_" if args.system == "planner" else "generation_stack_"
    client = os.path.join(args.build, "bin", "asg-client")
    methods = [m for m in args.methods.split(",") if m]
    for m in methods:
        if m not in METHODS:
            sys.exit("unknown method %r; known: %s" % (m, ", ".join(METHODS)))
    os.makedirs(args.out, exist_ok=True)
    results, runs_by_method, walls = {}, {}, []
    for method in methods:
        trials = []
        for trial in range(args.trials):
            seed = 1000 + trial
            folder = os.path.join(args.out, "%s-seed%d" % (method, seed))
            batch_file = folder + ".json"
            with open(batch_file, "w") as f:
                json.dump(batch_for(method, seed, args.budget, args.system), f, indent=1)
            started = time.time()
            if args.reuse and os.path.exists(os.path.join(folder, "summary.csv")):
                trials.append(read_trial(folder))
                continue
            subprocess.run(["rm", "-rf", folder])
            if args.system == "stack":
                done = run_with_stack(args.build, batch_file, folder, args.workers)
            else:
                done = subprocess.run([client, "run", batch_file, "--out", folder, "--workers",
                                       str(args.workers)], capture_output=True, text=True)
            wall = time.time() - started
            walls.append(wall)
            if done.returncode not in (0, 1):
                sys.exit("%s failed (%d): %s" % (batch_file, done.returncode, done.stderr[-2000:]))
            trials.append(read_trial(folder))
            print("%-16s seed %d: %5d scenarios in %6.1f s, max regret %.3f" %
                  (method, seed, len(trials[-1]), wall, max(r for r, _ in trials[-1])), flush=True)
        runs_by_method[method] = trials
        results[method] = summarize([trial_metrics(t) for t in trials])
    report = {"budget": args.budget, "trials": args.trials, "workers": args.workers,
              "wall_s_per_trial_mean": statistics.mean(walls) if walls else None,
              "methods": results}
    report["system"] = args.system
    with open(os.path.join(args.out, prefix + "experiment.json"), "w") as f:
        json.dump(report, f, indent=2)
    print("\nmethod            max regret      failure rate  " +
          "  ".join("n>=%g (frac, trials, first)" % t for t in THRESHOLDS))
    for method, s in results.items():
        cells = []
        for t in THRESHOLDS:
            c, cs = s["count_%g" % t]
            fr = s["fraction_%g" % t][0]
            first = s["first_%g" % t][0]
            cells.append("%.0f+-%.0f (%.3f, %d/%d, %s)" % (c, cs, fr, s["reached_%g" % t],
                                                          s["trials"],
                                                          "-" if first is None else "%.0f" % first))
        print("%-16s %.3f+-%.3f  %.3f+-%.3f  %s" % (method, s["max_regret"][0], s["max_regret"][1],
                                                    s["failure_rate"][0], s["failure_rate"][1],
                                                    "  ".join(cells)))
    if walls:
        print("wall time per trial: %.1f s (mean)" % report["wall_s_per_trial_mean"])
    for path in plot(results, runs_by_method, args.plots, prefix, args.system):
        print("plot:", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
