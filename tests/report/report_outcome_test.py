#!/usr/bin/env python3
"""Tests for report/report.h: what went wrong, in the batch report of real batches.

Checked in headless Chromium (report_test.py's mechanism): the table's regret, collisions and
failure kind; a scenario page's header, its reference path, first contact and obstacle hit on the
trajectory map and over the ortho aerial; the thumbnails' zoom; a searched scenario's candidate;
a replay batch's family trees and source links; a person's interventions ("edited", a teleport's
gap, the list, the interactive run's link and report); and a resumed batch's own wall time
beside the resumed run's (report/summary.h).

Usage: report_outcome_test.py BIN_DIR REPO_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import report_test
from report_test import load, read, run_batch


def client(*args, check=True):
    return subprocess.run([os.path.join(report_test.BIN_DIR, "asg-client"), *args], check=check,
                          capture_output=True, text=True, timeout=120)


def rows_of(dom):
    return {a["data-folder"]: a for a in dom.all("tr") if "data-folder" in a}


def points(polyline):
    return len(polyline["points"].split())


@unittest.skipIf(report_test.CHROMIUM is None, "chromium is not installed and cannot be installed here")
class ReportOutcomeTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="asg_report_outcome_test_")
        cls.failing = report_test.run_reproducing_batch(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def url(self, out, page, fragment=""):
        return "file://" + os.path.join(out, page) + fragment

    def check_page(self, dom, what):
        root = dom.root()
        self.assertEqual(root.get("data-errors"), None, f"{what}: errors {root.get('data-errors')}")
        self.assertEqual(root.get("data-ready"), "1", f"{what}: the script did not finish")

    def result(self, out, folder):
        return json.loads(read(os.path.join(out, folder, "result.json")))

    def test_table_shows_regret_collisions_and_failure_kind(self):
        failures = json.loads(read(os.path.join(self.failing, "failures.json")))
        kinds = {m: f["kind"] for f in failures["failures"] for m in f["member_scenarios"]}
        dom = load(self.url(self.failing, "index.html"))
        self.check_page(dom, "index.html")
        keys = [a["data-key"] for a in dom.all("th")]
        self.assertIn("collisions", keys)
        self.assertIn("failure_kind", keys)
        self.assertIn("regret", keys)
        rows = rows_of(dom)
        self.assertEqual(len(rows), 3)
        for folder, row in rows.items():
            result = self.result(self.failing, folder)
            self.assertEqual(int(row["data-collisions"]), result["counters"]["collisions_touched"])
            self.assertAlmostEqual(float(row["data-regret"]), result["regret"]["regret"])
            self.assertEqual(row["data-failure-kind"], kinds.get(result["scenario_number"], ""))
        self.assertEqual(rows["scenario_0001"]["data-failure-kind"], "collision")
        self.assertEqual(rows["scenario_0001"]["data-collisions"], "1")

    def test_scenario_header_reference_path_contact_and_hit(self):
        result = self.result(self.failing, "scenario_0001")
        contact = result["counters"]["first_contact"]
        dom = load(self.url(self.failing, "scenario_0001/index.html"))
        self.check_page(dom, "scenario_0001")
        outcome = dom.all("div", id="outcome")[0]
        self.assertAlmostEqual(float(outcome["data-regret"]), result["regret"]["regret"])
        self.assertEqual(outcome["data-collisions"], "1")
        self.assertEqual(outcome["data-failure-kind"], "collision")
        facts = {a["data-fact"] for a in dom.all("dd") if "data-fact" in a}
        self.assertTrue({"reason", "sim-time", "regret", "collisions", "failure-kind"} <= facts)
        # On the trajectory map and over both ortho aerials (plain and annotated).
        references = dom.all("polyline", **{"class": "reference"})
        self.assertEqual(len(references), 3)
        self.assertEqual(int(references[0]["data-vertices"]), len(result["regret"]["reference_path"]))
        self.assertTrue(all(points(r) == len(result["regret"]["reference_path"]) for r in references))
        overlays = [a["data-capture"] for a in dom.all("svg", **{"class": "capture-overlay"})]
        self.assertEqual(sorted(overlays), sorted(result["captures"]))
        marks = dom.all("path", **{"class": "contact-point"})
        self.assertEqual(len(marks), 3)
        self.assertAlmostEqual(float(marks[0]["data-t"]), contact["t"])
        hits = dom.all("circle", **{"class": "obstacle-hit"})
        self.assertEqual(len(hits), 3)
        self.assertTrue(all(int(h["data-actor-index"]) == contact["actor_index"] for h in hits))
        text = report_test.dump_dom(self.url(self.failing, "scenario_0001/index.html"))
        self.assertIn("reference path (dashed)", text)
        self.assertIn("obstacle hit: BP_SSA_Tree_Juniper", text)
        # A run that touched nothing has no marks.
        clean = load(self.url(self.failing, "scenario_0003/index.html"))
        self.assertEqual(clean.all("path", **{"class": "contact-point"}), [])
        self.assertEqual(len(clean.all("polyline", **{"class": "reference"})), 1)

    def test_thumbnails_are_large_and_zoom_to_full_resolution(self):
        dom = load(self.url(self.failing, "index.html"))
        thumb = dom.all("img", **{"class": "thumb"})[0]
        self.assertGreaterEqual(int(thumb["width"]), 192)
        self.assertIn("hidden", dom.all("div", id="lightbox")[0])
        zoomed = load(self.url(self.failing, "index.html", "#zoom=scenario_0001"))
        self.check_page(zoomed, "zoom")
        self.assertNotIn("hidden", zoomed.all("div", id="lightbox")[0])
        image = zoomed.all("img", **{"class": "zoomed"})[0]
        self.assertEqual(image["src"], "scenario_0001/captures/ortho_aerial_pad5_annotated.png")
        self.assertEqual(int(image["data-natural-width"]), 128)  # the capture's own size

    def test_replay_batch_shows_family_trees_and_sources(self):
        replay = os.path.join(self.tmp, "replay")
        client("replay", self.failing, "--top", "1", "--runs", "1", "--captures", "--out", replay,
               "--quiet", check=False)
        self.assertTrue(os.path.isfile(os.path.join(replay, "family_trees.png")))
        dom = load(self.url(replay, "index.html"))
        self.check_page(dom, "replay index.html")
        trees = dom.all("img", **{"class": "family-trees"})
        self.assertEqual(len(trees), 1)
        self.assertGreater(int(trees[0]["data-natural-width"]), 0)
        sources = json.loads(read(os.path.join(replay, "replay.json")))["scenarios"]
        rows = rows_of(dom)
        self.assertEqual(len(rows), len(sources))
        for entry in sources:
            folder = "scenario_%04d" % entry["scenario_number"]
            self.assertEqual(rows[folder]["data-source"], "scenario_%04d" % entry["source_scenario"])
        links = [a["href"] for a in dom.all("a", **{"class": "source"})]
        expected = "file://" + os.path.join(self.failing, "scenario_%04d" % sources[0]["source_scenario"],
                                            "index.html")
        self.assertEqual(links[0], expected)
        page = load(self.url(replay, "scenario_0001/index.html"))
        self.assertEqual(page.all("a", id="source-link")[0]["href"], expected)

    def edited_batch(self):
        """A copy of the batch whose scenario 3 a person edited: a teleport half-way."""
        out = os.path.join(self.tmp, "edited")
        shutil.copytree(self.failing, out)
        result_file = os.path.join(out, "scenario_0003", "result.json")
        result = json.loads(read(result_file))
        rows = read(os.path.join(out, "scenario_0003", "trajectory.csv")).splitlines()[1:]
        cut = float(rows[len(rows) // 2].split(",")[0])
        result["interventions"] = [
            {"sim_time_s": 0.5, "service": "SetEntityState", "entity": "tree_0_0",
             "kind": "entity_moved"},
            {"sim_time_s": cut, "service": "SetEntityState", "entity": "vehicle", "kind": "teleport",
             "from": [20.0, 20.0, 0.0], "to": [25.0, 25.0, 0.0]}]
        with open(result_file, "w") as file:
            json.dump(result, file, indent=2)
        return out, len(rows)

    def test_edited_result_is_labelled_listed_and_its_teleport_is_a_gap(self):
        out, count = self.edited_batch()
        client("report", out)
        dom = load(self.url(out, "index.html"))
        self.check_page(dom, "edited index.html")
        rows = rows_of(dom)
        self.assertEqual(rows["scenario_0003"].get("data-edited"), "1")
        self.assertNotIn("data-edited", rows["scenario_0001"])
        self.assertEqual(len(dom.all("span", **{"class": "edited"})), 1)
        page = load(self.url(out, "scenario_0003/index.html"))
        self.check_page(page, "edited scenario_0003")
        self.assertEqual(page.all("div", id="outcome")[0]["data-edited"], "1")
        segments = page.all("polyline", **{"class": "trajectory"})
        self.assertEqual(len(segments), 2)
        self.assertEqual(sum(int(s["data-rows"]) for s in segments), count)
        listed = [a["data-kind"] for a in page.all("tr") if "data-kind" in a]
        self.assertEqual(listed, ["entity_moved", "teleport"])
        # The unedited page has one line and no list.
        plain = load(self.url(out, "scenario_0001/index.html"))
        self.assertEqual(len(plain.all("polyline", **{"class": "trajectory"})), 1)
        self.assertIn("hidden", plain.all("section", id="interventions")[0])

    def test_interactive_run_is_linked_and_reported(self):
        out = os.path.join(self.tmp, "interactive")
        shutil.copytree(self.failing, out)
        run = os.path.join(out, "scenario_0002", "interactive", "scenario_0002")
        shutil.copytree(os.path.join(out, "scenario_0002"), run,
                        ignore=shutil.ignore_patterns("interactive", "index.html"))
        client("report", out)
        dom = load(self.url(out, "scenario_0002/index.html"))
        self.check_page(dom, "scenario_0002")
        links = [a["href"] for a in dom.all("a", **{"class": "interactive-link"})]
        self.assertEqual(links, ["interactive/scenario_0002/result.json"])
        written = client("report", os.path.join(out, "scenario_0002", "interactive"))
        self.assertIn("index.html", written.stdout)
        inner = load(self.url(out, "scenario_0002/interactive/index.html"))
        self.check_page(inner, "interactive index.html")
        self.assertEqual(list(rows_of(inner)), ["scenario_0002"])
        client("report", out)
        dom = load(self.url(out, "scenario_0002/index.html"))
        links = [a["href"] for a in dom.all("a", **{"class": "interactive-link"})]
        self.assertEqual(links, ["interactive/scenario_0002/index.html"])
        page = load(self.url(out, "scenario_0002/interactive/scenario_0002/index.html"))
        self.check_page(page, "interactive scenario page")
        # A folder of scenario folders that is no scenario's interactive/ folder is refused.
        refused = client("report", os.path.join(out, "reproduce"), check=False)
        self.assertEqual(refused.returncode, 2)

    def test_a_no_op_resume_keeps_the_batch_wall_time_and_throughput(self):
        out = os.path.join(self.tmp, "resumed")
        shutil.copytree(self.failing, out)
        before = json.loads(read(os.path.join(out, "summary.json")))
        self.assertNotIn("resumed_run", before)
        client("run", os.path.join(self.tmp, "reproduce.json"), "--out", out, "--resume", "--quiet",
               check=False)
        after = json.loads(read(os.path.join(out, "summary.json")))
        resumed = after["resumed_run"]
        self.assertEqual(resumed["scenarios_run"], 0)
        self.assertEqual(resumed["scenarios_per_s"], 0.0)
        self.assertAlmostEqual(after["wall_time_s"], before["wall_time_s"] + resumed["wall_time_s"])
        self.assertAlmostEqual(after["scenarios_per_s"], 3 / after["wall_time_s"])
        self.assertGreater(after["scenarios_per_s"], 0.0)
        dom = load(self.url(out, "index.html"))
        self.check_page(dom, "resumed index.html")
        text = report_test.dump_dom(self.url(out, "index.html"))
        self.assertIn("%.3f s</dd>" % after["wall_time_s"], text)
        self.assertIn("%.2f scenarios/s</dd>" % after["scenarios_per_s"], text)
        fact = dom.all("dd", **{"data-fact": "resumed run"})[0]
        self.assertEqual(fact["data-scenarios-run"], "0")
        self.assertAlmostEqual(float(fact["data-wall-time-s"]), resumed["wall_time_s"])


@unittest.skipIf(report_test.CHROMIUM is None, "chromium is not installed and cannot be installed here")
class SearchedScenarioTest(unittest.TestCase):
    """A searched scenario's candidate and its parents' candidates; origin and generation in the
    table."""

    def test_candidate_parents_origin_and_generation(self):
        tmp = tempfile.mkdtemp(prefix="asg_report_search_test_")
        try:
            search = json.loads(read(os.path.join(report_test.REPO, "configs/batches/search_demo.json")))
            search["search"].update({"strategy": "map-elites", "budget": {"scenarios": 30},
                                     "generation_size": 10,
                                     "strategy_settings": {"seed_count": 10}})
            batch = os.path.join(tmp, "search.json")
            with open(batch, "w") as file:
                json.dump(search, file)
            out = os.path.join(tmp, "search")
            run_batch(batch, out, "--workers", "2")
            children = []
            for name in sorted(os.listdir(out)):
                if name.startswith("scenario_"):
                    record = json.loads(read(os.path.join(out, name, "search.json")))
                    if record["parents"]:
                        children.append((name, record))
            self.assertGreater(len(children), 0)
            name, record = children[0]
            text = read(os.path.join(out, name, "index.html"))
            self.assertIn('<dd id="search-candidate">%d</dd>' % record["candidate_id"], text)
            self.assertIn("(candidate" + ("s " if len(record["parent_ids"]) > 1 else " ") +
                          ", ".join(str(i) for i in record["parent_ids"]) + ")", text)
            dom = load("file://" + os.path.join(out, "index.html"))
            keys = [a["data-key"] for a in dom.all("th")]
            self.assertIn("origin", keys)
            self.assertIn("generation", keys)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    report_test.BIN_DIR = os.path.abspath(sys.argv[1])
    report_test.REPO = os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
