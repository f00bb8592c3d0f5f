#!/usr/bin/python3
"""The research paper's scenario-generation experiment on this farm, measured by distinct and
reliable failures (docs/failures.md): each method searches the research workload (60 m landscape,
up to 6 trees + 6 bushes, start (10, 10) yaw 45, goal (50, 50) r 5, timeouts 17 / 5 / 5 s,
collisions allowed, the built-in planner as the stack under test) for a budget of scenarios,
several trials with different seeds (1000, 1001, ...), through `asg-client run`.

Per trial and method it reports (trial_measures.py): the distinct failures and the reliable
distinct failures (reproduced in at least ceil(0.6 K) of K = failures.reproduce runs) at regret
>= 0.375 and >= 0.75, the scenario number of the first distinct (and first reliable) failure,
the raw counts of the paper (scenarios at or above 0.375, 0.5, 0.75, 1.0, max regret, failure
rate) and the wall time; the same failures among the scenarios each trial finished within W
seconds (equal wall time: W is the search time of the cheapest method's trial with the same
seed, or --equal-wall-s); means and sds over trials; and the paired comparison of the best
method with BACRE at 0.75 (the goal: at least 2x in every trial). Each trial runs twice
(trial_runner.py): the search at failures.regret_threshold 0.75, then --resume at 0.375, which
runs nothing of the search again, only the reproduction runs of the distinct failures at 0.375.

Writes the experiment's JSON (--json; per method the mean and sd of every measure under its key
and the trials under per_trial), prints the Markdown tables of experiment_tables.py, and plots
(experiment_plots.py) regret and distinct failures against iteration, the raw counts and one
map-elites archive. Plots need Debian's python3-matplotlib, installed with
`apt-get install --no-install-recommends python3-matplotlib python3-munkres` (python3-munkres
satisfies python3-fonttools' alternative dependency, which apt would otherwise meet with
python3-scipy, whose python3-pythran pulls libboost-dev 1.74, in conflict with libboost1.81-dev).

With `--system stack` the stack under test is the example node stack instead: every worker's
vehicle is driven by an `asg-node-stack` process (camera-driven mapper, A* planner, follower;
nodes/examples/) in lock-step, with the sensors of configs/batches/stack_demo.json; the plots and
the JSON then carry a "stack" prefix.

Usage: experiments/generation/run_experiment.py [--build DIR] [--out DIR] [--json FILE]
           [--budget N] [--trials N] [--workers N] [--methods random,ga-12,bacre,...]
           [--runs-per-scenario K] [--reproduce K] [--equal-wall-s W]
           [--system planner|stack] [--plots DIR] [--reuse]
(run by Debian's /usr/bin/python3, which sees Debian's matplotlib)
"""
import argparse
import json
import os
import statistics
import sys

import experiment_plots
import experiment_summary
import experiment_tables
from trial_measures import FAILURE_THRESHOLDS, failure_metrics, raw_metrics, read_candidates, \
    read_distinct_curve, read_failures, read_finish_times, read_runs, threshold_name
from trial_runner import run_trial

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUTTERED = "cluttered"  # settings marker: as many obstacles as the space allows

# Method name -> (strategy, strategy_settings). The default methods come first; the research's
# other groups (the GA with 6 obstacles, BACRE's annealing and 3-mutation variants) and
# bacre-novelty with layout novelty stay available by name.
METHODS = {
    "random": ("random", {}),
    "random-cluttered": ("random", CLUTTERED),
    "ga-12": ("ga", {"obstacle_count": 12, "generations": 0}),
    "bacre": ("bacre", {}),
    "bacre-novelty": ("bacre-novelty", {}),
    "map-elites": ("map-elites", {}),
    "ga-6": ("ga", {"obstacle_count": 6, "generations": 0}),
    "bacre-annealing": ("bacre", {"annealing": True}),
    "bacre-3mut": ("bacre", {"mutations_per_child": 3}),
    "bacre-novelty-layout": ("bacre-novelty", {"failure_novelty": False}),
}
DEFAULT_METHODS = ["random", "random-cluttered", "ga-12", "bacre", "bacre-novelty", "map-elites"]
TRIAL_RECORD = "experiment_trial.json"  # a trial folder's walls, kept for --reuse


def demo_batch():
    """configs/batches/search_demo.json, the research workload every trial's batch starts from."""
    with open(os.path.join(ROOT, "configs", "batches", "search_demo.json")) as f:
        return json.load(f)


def strategy_settings(method, space):
    """The strategy and settings of `method` on the search `space`: the cluttered random
    baseline draws exactly as many obstacles as the space's classes allow (the sum of their
    max_count) in every candidate."""
    strategy, settings = METHODS[method]
    if settings == CLUTTERED:
        most = sum(c["max_count"] for c in space["classes"])
        settings = {"min_obstacles": most, "max_obstacles": most}
    return strategy, settings


def batch_for(method, trial_seed, args):
    """The search batch of one trial: the shipped search demo with this method, seed, budget,
    runs per scenario and reproduction runs; for the stack system, with the vehicle nodes (one
    per worker) and sensors of the stack demo."""
    batch = demo_batch()
    if args.system == "stack":
        with open(os.path.join(ROOT, "configs", "batches", "stack_demo.json")) as f:
            batch["vehicle_nodes"] = json.load(f)["vehicle_nodes"]
    strategy, settings = strategy_settings(method, batch["search"]["space"])
    batch["name"] = trial_name(method, trial_seed, args)
    batch["seed"] = trial_seed
    batch["failures"] = {"reproduce": args.reproduce}
    search = batch["search"]
    search.update({"strategy": strategy, "seed": trial_seed, "budget": {"scenarios": args.budget},
                   "runs_per_scenario": args.runs_per_scenario, "strategy_settings": settings})
    return batch


def trial_name(method, seed, args):
    suffix = "-runs%d" % args.runs_per_scenario if args.runs_per_scenario > 1 else ""
    return "%s-seed%d%s" % (method, seed, suffix)


def measure_trial(folder, record, seed, runs_per_scenario):
    """The per-trial measures of a finished trial folder (trial_measures.py) with the walls of
    `record` (run_trial's); also the runs, finish times and failures the equal-wall measures
    need."""
    runs = read_runs(folder)
    metrics = {"seed": seed, "runs_per_scenario": runs_per_scenario}
    metrics.update(raw_metrics(runs))
    if metrics["runs_per_scenario"] > 1:
        metrics.update(raw_metrics(read_candidates(folder), "candidate_"))
    failures = {t: read_failures(folder, t) for t in FAILURE_THRESHOLDS}
    for t in FAILURE_THRESHOLDS:
        metrics.update(failure_metrics(failures[t], t))
        metrics["reproduction_runs_" + threshold_name(t)] = failures[t].get("reproduction_runs", 0)
    finished, log_end_s = read_finish_times(os.path.join(folder, "asg_log_search.txt"),
                                            {number for number, _, _ in runs})
    search_s = max(finished.values(), default=0.0)
    metrics.update({"wall_s": record["pass_wall_s"], "search_s": search_s,
                    "reproduction_s": log_end_s - search_s,
                    "lower_pass_wall_s": record["lower_pass_wall_s"],
                    "wall_s_per_scenario": search_s / len(runs) if runs else None,
                    "replay_same_search_log": record["replay_same_search_log"],
                    "replay_same_archive": record["replay_same_archive"],
                    "distinct_curve_0.75": read_distinct_curve(folder)})
    return metrics, runs, finished, failures


def run_or_reuse(method, seed, args):
    """Runs the trial (or with --reuse reads a finished one) and measures it."""
    name = trial_name(method, seed, args)
    folder = os.path.join(args.out, name)
    record_path = os.path.join(folder, TRIAL_RECORD)
    if not (args.reuse and os.path.exists(record_path)):
        record = run_trial(args.build, batch_for(method, seed, args), folder, args.workers,
                           args.system)
        with open(record_path, "w") as f:
            json.dump(record, f, indent=1)
    with open(record_path) as f:
        record = json.load(f)
    measured = measure_trial(folder, record, seed, args.runs_per_scenario)
    m = measured[0]
    print("%-16s seed %d: %5d scenarios, search %6.1f s (%.3f s/scenario), pass %6.1f s + %5.1f s;"
          " distinct/reliable 0.375 %d/%d, 0.75 %d/%d" %
          (method, seed, m["scenarios"], m["search_s"], m["wall_s_per_scenario"] or 0, m["wall_s"],
           m["lower_pass_wall_s"], m["distinct_0.375"], m["reliable_0.375"], m["distinct_0.75"],
           m["reliable_0.75"]), flush=True)
    return folder, measured


def add_equal_wall(measured, seeds, fixed_w_s):
    """Adds each trial's equal_wall measures (experiment_summary.equal_wall_metrics); returns
    the rule and the W used per seed."""
    w_by_seed = {}
    for seed in seeds:
        trials = [by_seed[seed] for by_seed in measured.values() if seed in by_seed]
        w_by_seed[seed] = fixed_w_s if fixed_w_s else min(t[0]["search_s"] for t in trials)
        for metrics, runs, finished, failures in trials:
            metrics["equal_wall"] = experiment_summary.equal_wall_metrics(
                finished, failures, runs, w_by_seed[seed])
    rule = ("W = %g s for every trial" % fixed_w_s if fixed_w_s else
            "W = the search time of the cheapest method's trial with the same seed; finish "
            "times from the timestamped 'scenario N done' lines of the search pass's log, since "
            "its first line")
    return {"rule": rule, "w_s_by_seed": {str(s): w for s, w in w_by_seed.items()}}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "generation"))
    parser.add_argument("--json", help="the experiment's JSON (default: in --out)")
    parser.add_argument("--budget", type=int, default=5000, help="candidates per trial")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--methods", default=",".join(DEFAULT_METHODS),
                        help="known: " + ", ".join(METHODS))
    parser.add_argument("--runs-per-scenario", type=int, default=1,
                        help="runs of each candidate, scored by their mean (the paper: 3)")
    parser.add_argument("--reproduce", type=int, default=5,
                        help="failures.reproduce: reproduction runs per distinct failure")
    parser.add_argument("--equal-wall-s", type=float, default=0.0,
                        help="W [s] of the equal-wall measures (0: the cheapest method's)")
    parser.add_argument("--plots", default=os.path.join(ROOT, "docs", "gallery"))
    parser.add_argument("--system", choices=["planner", "stack"], default="planner",
                        help="the stack under test: the built-in planner or asg-node-stack")
    parser.add_argument("--reuse", action="store_true",
                        help="read trials already in --out instead of running them again")
    args = parser.parse_args()
    args.methods = [m for m in args.methods.split(",") if m]
    for m in args.methods:
        if m not in METHODS:
            sys.exit("unknown method %r; known: %s" % (m, ", ".join(METHODS)))
    return args


def build_report(args, per_trial, equal_wall):
    """The experiment's JSON: the settings, the equal-wall rule, the paired comparison and per
    method its strategy, the mean and sd of every measure and the trials (per_trial)."""
    results = {m: experiment_summary.summarize(trials) for m, trials in per_trial.items()}
    report = {"system": args.system, "budget": args.budget, "trials": args.trials,
              "workers": args.workers, "runs_per_scenario": args.runs_per_scenario,
              "reproduce": args.reproduce, "failure_thresholds": FAILURE_THRESHOLDS,
              "wall_s_per_trial_mean": statistics.mean(
                  t["wall_s"] for trials in per_trial.values() for t in trials),
              "equal_wall": equal_wall,
              "paired": experiment_summary.paired_comparison(per_trial, results),
              "methods": {}}
    space = demo_batch()["search"]["space"]
    for method, trials in per_trial.items():
        strategy, settings = strategy_settings(method, space)
        report["methods"][method] = dict(results[method], strategy=strategy,
                                         strategy_settings=settings, per_trial=trials)
    return report


def main():
    args = parse_args()
    prefix = "generation_" if args.system == "planner" else "generation_stack_"
    os.makedirs(args.out, exist_ok=True)
    seeds = [1000 + trial for trial in range(args.trials)]
    measured, folders = {}, {}
    for method in args.methods:
        measured[method] = {}
        for seed in seeds:
            folders[(method, seed)], measured[method][seed] = run_or_reuse(method, seed, args)
    equal_wall = add_equal_wall(measured, seeds, args.equal_wall_s)
    per_trial = {m: [measured[m][s][0] for s in seeds] for m in args.methods}
    report = build_report(args, per_trial, equal_wall)
    json_path = args.json or os.path.join(args.out, prefix + "experiment.json")
    with open(json_path, "w") as f:
        json.dump(report, f, indent=1)
    print("\n" + experiment_tables.tables(report) + "\n\nexperiment: " + json_path)
    archive = next((folders[("map-elites", s)] for s in seeds if ("map-elites", s) in folders),
                   None)
    for path in experiment_plots.plot_all(
            args.plots, prefix, " (example node stack)" if args.system == "stack" else "",
            report["methods"], {m: [measured[m][s][1] for s in seeds] for m in args.methods},
            {m: [t["distinct_curve_0.75"] for t in per_trial[m]] for m in args.methods}, archive,
            landscape_size()):
        print("plot:", os.path.relpath(path, ROOT))


def landscape_size():
    """[m] The searched landscape's nominal size (the archive map's extent)."""
    return demo_batch()["defaults"]["scene_description"]["landscape"]["nominal_size"]


if __name__ == "__main__":
    main()
