"""Figures over the trials of the generation experiment: means and spreads per method, the
measures at equal wall time, and the paired comparison of the best method with BACRE."""
import statistics

from trial_measures import FAILURE_THRESHOLDS, RAW_THRESHOLDS, failure_metrics, raw_metrics, \
    threshold_name

GOAL_RATIO = 2.0  # the goal: the best method finds at least 2x BACRE's reliable distinct failures
GOAL_THRESHOLD = 0.75
NOT_SUMMARIZED = {"seed", "runs_per_scenario", "reproduce"}  # the same in every trial, or an id


def mean_sd(values):
    """(mean, sample standard deviation) of the values that are not None; (None, None) when none
    is; sd 0 for one value."""
    values = [v for v in values if v is not None]
    if not values:
        return None, None
    return statistics.mean(values), (statistics.stdev(values) if len(values) > 1 else 0.0)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def summarize(trials):
    """Mean and sd over `trials` (per-trial dicts) of every numeric key, under the same key (a
    trial whose value is None does not count: the mean of the first finds is over the trials
    that found one); a nested dict (equal_wall) is summarized the same way; each raw threshold
    also gets reached_<t>, the trials that reached it."""
    out = {"trials": len(trials)}
    keys = []
    for trial in trials:
        keys += [k for k in trial if k not in keys]
    for key in keys:
        if key in NOT_SUMMARIZED:
            continue
        values = [t.get(key) for t in trials]
        if any(is_number(v) for v in values):
            out[key] = mean_sd(values)
        elif any(isinstance(v, dict) for v in values):
            out[key] = summarize([v for v in values if isinstance(v, dict)])
    for t in RAW_THRESHOLDS:
        if ("first_%g" % t) in keys:
            out["reached_%g" % t] = sum(1 for m in trials if m.get("first_%g" % t) is not None)
    return out


def equal_wall_metrics(finished, failures_by_threshold, runs, w_s):
    """The measures of a trial over the scenarios finished within `w_s` seconds of its client's
    start (`finished`: scenario number -> finish time [s]): their count, distinct and reliable
    distinct failures at each failures threshold (a distinct failure counts when a member finished
    within w_s) and the raw count at or above 0.75."""
    within = {number for number, at_s in finished.items() if at_s <= w_s}
    metrics = {"w_s": w_s, "scenarios": len(within)}
    for threshold in FAILURE_THRESHOLDS:
        found = failure_metrics(failures_by_threshold[threshold], threshold, within)
        for key in ("distinct", "reliable"):
            name = "%s_%s" % (key, threshold_name(threshold))
            metrics[name] = found[name]
    raw = raw_metrics([run for run in runs if run[0] in within])
    metrics["count_0.75"] = raw["count_0.75"]
    return metrics


def best_method(results, baseline="bacre"):
    """The method other than `baseline` with the highest mean reliable distinct failures at the
    goal's threshold (the first of equals); None when there is none."""
    key = "reliable_" + threshold_name(GOAL_THRESHOLD)
    best, best_mean = None, None
    for method, summary in results.items():
        mean = summary.get(key, (None, None))[0]
        if method == baseline or mean is None:
            continue
        if best_mean is None or mean > best_mean:
            best, best_mean = method, mean
    return best


def paired_comparison(per_trial, results, baseline="bacre"):
    """Per seed both the best method and `baseline` ran: their reliable distinct failures at the
    goal's threshold, the ratio (None when the baseline found none) and whether the best found
    at least GOAL_RATIO times as many (and at least one). None without a baseline or a best."""
    best = best_method(results, baseline)
    if best is None or baseline not in per_trial:
        return None
    key = "reliable_" + threshold_name(GOAL_THRESHOLD)
    ours = {t["seed"]: t[key] for t in per_trial[best]}
    theirs = {t["seed"]: t[key] for t in per_trial[baseline]}
    pairs = []
    for seed in sorted(set(ours) & set(theirs)):
        a, b = ours[seed], theirs[seed]
        pairs.append({"seed": seed, "best": a, "baseline": b,
                      "ratio": a / b if b else None,
                      "at_least_goal": a > 0 and a >= GOAL_RATIO * b})
    return {"best": best, "baseline": baseline, "threshold": GOAL_THRESHOLD,
            "goal_ratio": GOAL_RATIO, "pairs": pairs,
            "met": sum(1 for p in pairs if p["at_least_goal"])}
