"""What one trial of the generation experiment measured, read back from its folder alone.

A trial folder is an `asg-client run` folder of one search (run_experiment.py) plus the files
trial_runner.py saved from each of its passes:
- failures_<t>.csv / failures_<t>.json: the distinct failures at failures.regret_threshold t,
  with their reproduction runs judged at t (failures.json: regret_threshold, reproduce, and per
  row member_scenarios, first_found, reproduced, runs);
- asg_log_search.txt: the client's log of the search pass, whose timestamped lines
  "scenario N done on worker W: ..." give each scenario's finish time;
- search_search.csv: search.csv of the search pass (distinct_failures_<t> per generation).
"""
import csv
import datetime
import json
import os
import re

# The paper's raw thresholds (counts of scenarios by regret, summary.csv) and the thresholds of
# the distinct-failure measures (one failures pass each).
RAW_THRESHOLDS = [0.375, 0.5, 0.75, 1.0]
FAILURE_THRESHOLDS = [0.375, 0.75]
SEARCH_THRESHOLD = 0.75  # the goal's threshold: the search pass runs at it

_LOG_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\] \[\w+\] (.*)$")
_DONE = re.compile(r"^scenario (\d+) done on worker")


def threshold_name(threshold):
    """0.75 -> "0.75", 1.0 -> "1": the suffix of the saved files and of the JSON keys."""
    return "%g" % threshold


def reliable_minimum(reproduce):
    """The fewest reproducing runs of `reproduce` that make a failure reliable: ceil(0.6 K), as
    client/failures/reproduction.h's ReliableMinimum."""
    return (3 * reproduce + 4) // 5


def read_runs(folder):
    """Per done scenario of the batch, in scenario order: (number, regret, failed); failed is an
    end other than REASON_SUCCESS (summary.csv)."""
    rows = []
    with open(os.path.join(folder, "summary.csv")) as f:
        for row in csv.DictReader(f):
            if row["status"] != "done" or row["regret"] == "":
                continue
            rows.append((int(row["scenario_number"]), float(row["regret"]),
                         row["termination_reason_name"] != "REASON_SUCCESS"))
    rows.sort()
    return rows


def read_candidates(folder):
    """Per candidate of the search, in id order: (its first scenario number, its mean regret over
    its runs, whether a run failed) (search_candidates.csv): with runs_per_scenario K > 1 the
    paper's scored scenarios."""
    rows = []
    with open(os.path.join(folder, "search_candidates.csv")) as f:
        for row in csv.DictReader(f):
            rows.append((int(row["scenarios"].split()[0]), float(row["mean_regret"]),
                         int(row["failures"]) > 0))
    return rows


def raw_metrics(runs, prefix=""):
    """The paper's raw counts over `runs` (read_runs): max regret, failure rate, and per raw
    threshold the count and fraction of scenarios at or above it and the first iteration (1-based
    position in scenario order) that reached it."""
    regrets = [r for _, r, _ in runs]
    metrics = {"scenarios": len(runs), "max_regret": max(regrets) if regrets else 0.0,
               "failure_rate": sum(1 for _, _, f in runs if f) / len(runs) if runs else 0.0}
    for t in RAW_THRESHOLDS:
        count = sum(1 for r in regrets if r >= t)
        metrics["count_%g" % t] = count
        metrics["fraction_%g" % t] = count / len(regrets) if regrets else 0.0
        metrics["first_%g" % t] = next((i + 1 for i, r in enumerate(regrets) if r >= t), None)
    return {prefix + key: value for key, value in metrics.items()}


def read_failures(folder, threshold):
    """failures_<t>.json of the trial, checked to be judged at `threshold`."""
    path = os.path.join(folder, "failures_%s.json" % threshold_name(threshold))
    with open(path) as f:
        data = json.load(f)
    if abs(data["regret_threshold"] - threshold) > 1e-9:
        raise ValueError("%s: judged at regret_threshold %g, not %g" %
                         (path, data["regret_threshold"], threshold))
    return data


def is_reliable(row, reproduce):
    """Whether a failures.json row is reliable: judged, and reproduced in at least ceil(0.6 K) of
    K = reproduce runs (K > 0)."""
    return reproduce > 0 and row.get("reproduced") is not None and \
        row["reproduced"] >= reliable_minimum(reproduce)


def failure_metrics(data, threshold, within=None):
    """Keyed by threshold: the distinct and reliable distinct failures of failures.json `data`,
    the failing scenarios, and the scenario numbers at which the first distinct and the first
    reliable distinct failure were found (None: none). With `within` (a set of scenario numbers)
    only members among them count: a distinct failure counts when one of its members does, and
    is reliable as its representative's reproduction runs judged it."""
    reproduce = data.get("reproduce", 0)
    members = [[m for m in row["member_scenarios"] if within is None or m in within]
               for row in data["failures"]]
    found = [(row, kept) for row, kept in zip(data["failures"], members) if kept]
    reliable = [(row, kept) for row, kept in found if is_reliable(row, reproduce)]
    t = threshold_name(threshold)
    return {"distinct_" + t: len(found), "reliable_" + t: len(reliable),
            "failing_" + t: sum(len(kept) for _, kept in found),
            "first_distinct_" + t: min((kept[0] for _, kept in found), default=None),
            "first_reliable_" + t: min((kept[0] for _, kept in reliable), default=None),
            "reproduce": reproduce}


def read_finish_times(log_path, search_numbers):
    """[s] Per scenario of `search_numbers` done in the log at `log_path`: its finish time since
    the log's first line (the client's start), from its "scenario N done on worker" line. Also
    the time of the log's last line (the run's end, reproduction runs included)."""
    start, last, finished = None, None, {}
    with open(log_path, errors="replace") as f:
        for line in f:
            match = _LOG_LINE.match(line.rstrip("\n"))
            if not match:
                continue
            stamp = datetime.datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S.%f")
            if start is None:
                start = stamp
            last = stamp
            done = _DONE.match(match.group(2))
            if done and int(done.group(1)) in search_numbers:
                finished[int(done.group(1))] = (stamp - start).total_seconds()
    return finished, (last - start).total_seconds() if start else 0.0


def read_distinct_curve(folder, threshold=SEARCH_THRESHOLD):
    """search_search.csv's distinct failures at `threshold` per generation: a list of
    (last scenario number of the generation, distinct failures among the runs so far)."""
    path = os.path.join(folder, "search_search.csv")
    column = "distinct_failures_%g" % threshold
    with open(path) as f:
        return [(int(row["last_scenario"]), int(row[column])) for row in csv.DictReader(f)]
