#!/usr/bin/python3
"""Markdown tables of a generation experiment's JSON (run_experiment.py writes it; the tables of
docs/performance.md are printed by this): per method the distinct and reliable distinct failures
at regret >= 0.375 and >= 0.75, the first find, the raw count at >= 0.75 and the wall time per
trial; the same at equal wall time; the paired comparison of the best method with BACRE; and the
paper's raw counts (docs/search-strategies.md keeps them).

Usage: experiments/generation/experiment_tables.py [docs/generation_experiment.json]
"""
import json
import os
import sys

from trial_measures import FAILURE_THRESHOLDS, RAW_THRESHOLDS, threshold_name


def number(value, digits=0):
    return "-" if value is None else "%.*f" % (digits, value)


def cell(summary, trials, key, digits=0):
    """"mean +- sd (trial 1, trial 2, ...)" of `key`, the trials with `digits` decimals and the
    mean and sd with one more; "-" for a trial without a value."""
    mean, sd = summary.get(key, (None, None))
    per_trial = ", ".join(number(t.get(key), digits) for t in trials)
    if mean is None:
        return "- (%s)" % per_trial
    return "%s +- %s (%s)" % (number(mean, digits + 1), number(sd, digits + 1), per_trial)


def first_cell(summary, trials, key):
    """The mean first find over the trials that found one, and how many did."""
    found = sum(1 for t in trials if t.get(key) is not None)
    mean = summary.get(key, (None, None))[0]
    return "%s (%d/%d)" % (number(mean), found, len(trials))


def main_table(methods):
    header = ["method"]
    for t in FAILURE_THRESHOLDS:
        header += ["distinct >= %g" % t, "reliable >= %g" % t]
    header += ["first find 0.375 / 0.75", "raw >= 0.75", "wall s / trial", "wall s / scenario"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for method, data in methods.items():
        summary, trials = data, data.get("per_trial", [])
        row = [method]
        for t in FAILURE_THRESHOLDS:
            row += [cell(summary, trials, "distinct_" + threshold_name(t)),
                    cell(summary, trials, "reliable_" + threshold_name(t))]
        row += [first_cell(summary, trials, "first_distinct_0.375") + " / " +
                first_cell(summary, trials, "first_distinct_0.75"),
                cell(summary, trials, "count_0.75"), cell(summary, trials, "wall_s", 1),
                cell(summary, trials, "wall_s_per_scenario", 3)]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def equal_wall_table(methods):
    header = ["method", "W s", "scenarios within W"]
    for t in FAILURE_THRESHOLDS:
        header += ["distinct >= %g" % t, "reliable >= %g" % t]
    header += ["raw >= 0.75"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for method, data in methods.items():
        trials = [t["equal_wall"] for t in data.get("per_trial", []) if "equal_wall" in t]
        summary = data.get("equal_wall", {})
        row = [method, cell(summary, trials, "w_s", 1), cell(summary, trials, "scenarios")]
        for t in FAILURE_THRESHOLDS:
            row += [cell(summary, trials, "distinct_" + threshold_name(t)),
                    cell(summary, trials, "reliable_" + threshold_name(t))]
        row.append(cell(summary, trials, "count_0.75"))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def raw_table(methods):
    """The paper's raw counts, as docs/search-strategies.md keeps them: max regret, failure rate
    and the scenarios at or above each raw threshold, copies included (mean +- sd), with the
    trials that reached it and the mean iteration at which they first did."""
    lines = ["| method | max regret | failure rate | " +
             " | ".join(">= %g" % t for t in RAW_THRESHOLDS) + " |",
             "|" + "---|" * (3 + len(RAW_THRESHOLDS))]
    for method, s in methods.items():
        row = [method, "%.2f +- %.2f" % tuple(s["max_regret"]),
               "%.3f +- %.3f" % tuple(s["failure_rate"])]
        for t in RAW_THRESHOLDS:
            first = s.get("first_%g" % t, (None, None))[0]
            row.append("%.0f +- %.0f (%d/%d trials, at %s)" %
                       (s["count_%g" % t][0], s["count_%g" % t][1], s["reached_%g" % t],
                        s["trials"], number(first)))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def paired_table(paired):
    if not paired:
        return "(no paired comparison: BACRE or another method is missing)"
    lines = ["| seed | %s reliable >= %g | %s reliable >= %g | ratio | >= %gx |" %
             (paired["best"], paired["threshold"], paired["baseline"], paired["threshold"],
              paired["goal_ratio"]),
             "|---|---|---|---|---|"]
    for p in paired["pairs"]:
        ratio = "%.2f" % p["ratio"] if p["ratio"] is not None else "inf" if p["best"] else "-"
        lines.append("| %d | %d | %d | %s | %s |" % (p["seed"], p["best"], p["baseline"], ratio,
                                                  "yes" if p["at_least_goal"] else "no"))
    lines.append("\n%s reaches %gx %s's reliable distinct failures at regret >= %g in %d of %d "
                 "paired trials." % (paired["best"], paired["goal_ratio"], paired["baseline"],
                                     paired["threshold"], paired["met"], len(paired["pairs"])))
    return "\n".join(lines)


def tables(report):
    """The three tables of `report` (the experiment's JSON) as Markdown, with their captions."""
    methods = report["methods"]
    equal = report.get("equal_wall", {})
    return "\n\n".join([
        main_table(methods),
        "Per %d-scenario trial (budget %d candidates x %d runs), mean +- sd over trials and each "
        "trial in seed order; reliable: reproduced in at least ceil(0.6 K) of K = %d runs; first "
        "find: mean scenario number of the first distinct failure (trials that found one)." %
        (report["budget"] * report.get("runs_per_scenario", 1), report["budget"],
         report.get("runs_per_scenario", 1), report.get("reproduce", 5)),
        equal_wall_table(methods),
        "At equal wall time: the scenarios each trial finished within W seconds of its start (%s)."
        % equal.get("rule", "-"),
        paired_table(report.get("paired")),
        raw_table(methods),
        "Raw counts: scenarios per trial at or above each regret threshold, copies of one failure "
        "included (mean +- sd), the trials that reached it and the mean iteration of the first."])


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
        "generation_experiment.json")
    with open(path) as f:
        print(tables(json.load(f)))


if __name__ == "__main__":
    main()
