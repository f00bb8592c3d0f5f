"""Tests for experiments/generation/ (trial_measures.py, experiment_summary.py,
experiment_tables.py, experiment_plots.py's step_values, run_experiment.py's batches): the
generation experiment's measures on hand-made trial files, distinct and reliable failures (also
among the scenarios finished within a wall time), finish times from a client log, the summary
over trials, the paired comparison with BACRE, the tables and the trials' batches.

Usage: generation_experiment_test.py REPOSITORY_ROOT
"""
import argparse
import os
import sys
import tempfile
import unittest

ROOT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "experiments", "generation"))

import experiment_plots  # noqa: E402
import experiment_summary  # noqa: E402
import experiment_tables  # noqa: E402
import run_experiment  # noqa: E402
import trial_measures  # noqa: E402


def failures_file(threshold, rows, reproduce=5):
    """A failures.json as the farm writes it, with the keys the measures read."""
    return {"regret_threshold": threshold, "reproduce": reproduce, "failures": rows}


def row(members, reproduced=None, runs=5):
    out = {"member_scenarios": members, "first_found": members[0]}
    if reproduced is not None:
        out.update(reproduced=reproduced, runs=runs)
    return out


# Three distinct failures: members 3 and 9 reproduced 3 of 5 (reliable), 5 reproduced 2 of 5,
# and 12 and 20 not judged.
ROWS = [row([3, 9], 3), row([5], 2), row([12, 20])]


class FailureMeasures(unittest.TestCase):
    def test_reliable_is_ceil_of_three_fifths(self):
        self.assertEqual([trial_measures.reliable_minimum(k) for k in (0, 1, 3, 5, 10)],
                         [0, 1, 2, 3, 6])

    def test_distinct_and_reliable_over_every_scenario(self):
        m = trial_measures.failure_metrics(failures_file(0.75, ROWS), 0.75)
        self.assertEqual((m["distinct_0.75"], m["reliable_0.75"], m["failing_0.75"]), (3, 1, 5))
        self.assertEqual((m["first_distinct_0.75"], m["first_reliable_0.75"]), (3, 3))

    def test_only_the_members_within_count(self):
        m = trial_measures.failure_metrics(failures_file(0.375, ROWS), 0.375, within={5, 9})
        self.assertEqual((m["distinct_0.375"], m["reliable_0.375"], m["failing_0.375"]), (2, 1, 2))
        self.assertEqual((m["first_distinct_0.375"], m["first_reliable_0.375"]), (5, 9))

    def test_no_reproduction_runs_no_reliable_failure(self):
        m = trial_measures.failure_metrics(failures_file(0.75, ROWS, reproduce=0), 0.75)
        self.assertEqual(m["reliable_0.75"], 0)

    def test_a_file_of_another_threshold_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "failures_0.75.json"), "w") as f:
                f.write('{"regret_threshold": 0.375, "failures": []}')
            with self.assertRaisesRegex(ValueError, "judged at regret_threshold 0.375"):
                trial_measures.read_failures(folder, 0.75)


class FinishTimes(unittest.TestCase):
    def test_seconds_since_the_first_line_for_search_scenarios_only(self):
        lines = ["[2026-01-02 10:00:00.000000] [INFO] batch \"b\" from b.json",
                 "[2026-01-02 10:00:01.500000] [INFO] scenario 1 done on worker 2: "
                 "REASON_SUCCESS, sim 10.90 s, wall 0.09 s",
                 "[2026-01-02 10:00:02.250000] [INFO] scenario 2 sent to worker 1 (pid 7)",
                 "[2026-01-02 10:00:03.000000] [INFO] scenario 2 done on worker 1: x",
                 "[2026-01-02 10:00:04.000000] [INFO] scenario 3 done on worker 1: x",
                 "[2026-01-02 10:00:05.000000] [INFO] summary written"]
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "asg_log.txt")
            with open(log, "w") as f:
                f.write("\n".join(lines) + "\n")
            finished, end_s = trial_measures.read_finish_times(log, {1, 2})
        self.assertEqual(finished, {1: 1.5, 2: 3.0})  # 3 is a reproduction run
        self.assertEqual(end_s, 5.0)


class Summary(unittest.TestCase):
    def test_means_skip_trials_without_a_value(self):
        trials = [{"seed": 1000, "distinct_0.75": 2, "first_distinct_0.75": None, "first_0.75": 7},
                  {"seed": 1001, "distinct_0.75": 4, "first_distinct_0.75": 30, "first_0.75": None}]
        s = experiment_summary.summarize(trials)
        self.assertEqual(s["distinct_0.75"][0], 3)
        self.assertAlmostEqual(s["distinct_0.75"][1], 2 ** 0.5)
        self.assertEqual(s["first_distinct_0.75"], (30, 0.0))
        self.assertEqual(s["reached_0.75"], 1)
        self.assertNotIn("seed", s)

    def test_equal_wall_counts_what_finished_within_w(self):
        failures = {0.375: failures_file(0.375, ROWS), 0.75: failures_file(0.75, ROWS[:1])}
        finished = {3: 1.0, 5: 2.0, 9: 2.5, 12: 4.0, 20: 5.0}
        runs = [(3, 0.8, True), (5, 0.4, False), (9, 0.9, True), (12, 1.2, True), (20, 0.5, True)]
        m = experiment_summary.equal_wall_metrics(finished, failures, runs, 2.0)
        self.assertEqual(m["scenarios"], 2)
        self.assertEqual((m["distinct_0.375"], m["reliable_0.375"]), (2, 1))
        self.assertEqual((m["distinct_0.75"], m["reliable_0.75"], m["count_0.75"]), (1, 1, 1))

    def test_paired_comparison_of_the_best_method_with_bacre(self):
        def trials(first, second):
            return [{"seed": 1000, "reliable_0.75": first}, {"seed": 1001, "reliable_0.75": second}]
        per_trial = {"bacre": trials(2, 0), "map-elites": trials(5, 1), "random": trials(0, 0)}
        results = {m: experiment_summary.summarize(t) for m, t in per_trial.items()}
        paired = experiment_summary.paired_comparison(per_trial, results)
        self.assertEqual(paired["best"], "map-elites")
        self.assertEqual([p["ratio"] for p in paired["pairs"]], [2.5, None])
        self.assertEqual([p["at_least_goal"] for p in paired["pairs"]], [True, True])
        self.assertEqual(paired["met"], 2)
        table = experiment_tables.paired_table(paired)
        self.assertIn("| 1000 | 5 | 2 | 2.50 | yes |", table)
        self.assertIn("| 1001 | 1 | 0 | inf | yes |", table)


class Tables(unittest.TestCase):
    def test_a_cell_gives_the_mean_and_sd_and_every_trial(self):
        trials = [{"distinct_0.75": 0}, {"distinct_0.75": 1}]
        summary = experiment_summary.summarize(trials)
        self.assertEqual(experiment_tables.cell(summary, trials, "distinct_0.75"),
                         "0.5 +- 0.7 (0, 1)")


class Plots(unittest.TestCase):
    def test_distinct_curves_are_step_functions(self):
        curve = [(50, 1), (100, 3), (150, 3)]
        self.assertEqual(experiment_plots.step_values(curve, [10, 50, 99, 100, 200]),
                         [0, 1, 1, 3, 3])


class Batches(unittest.TestCase):
    def test_a_trial_batch_carries_the_method_seed_runs_and_reproduction(self):
        args = argparse.Namespace(system="planner", budget=200, runs_per_scenario=3, reproduce=4)
        batch = run_experiment.batch_for("random-cluttered", 1001, args)
        search = batch["search"]
        self.assertEqual(search["strategy"], "random")
        self.assertEqual(search["strategy_settings"], {"min_obstacles": 12, "max_obstacles": 12})
        self.assertEqual((search["seed"], batch["seed"]), (1001, 1001))
        self.assertEqual(search["budget"], {"scenarios": 200})
        self.assertEqual(search["runs_per_scenario"], 3)
        self.assertEqual(batch["failures"], {"reproduce": 4})
        self.assertEqual(batch["name"], "random-cluttered-seed1001-runs3")

    def test_the_old_methods_stay_available_but_not_by_default(self):
        for method in ("ga-6", "bacre-annealing", "bacre-3mut"):
            self.assertIn(method, run_experiment.METHODS)
            self.assertNotIn(method, run_experiment.DEFAULT_METHODS)
        self.assertEqual(run_experiment.DEFAULT_METHODS,
                         ["random", "random-cluttered", "ga-12", "bacre", "bacre-novelty",
                          "map-elites"])


if __name__ == "__main__":
    unittest.main()
