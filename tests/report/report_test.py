#!/usr/bin/env python3
"""Tests for report/report.h: the batch HTML report of real batches, checked in headless Chromium.

Also report/failures_page.h (the failures page of a batch whose failures reproduce differently,
and of a hand-made batch folder) and report/archive_map.h (a map-elites search's archive map),
with a searched scenario's origin, parents and generation.

Usage: report_test.py BIN_DIR REPO_ROOT

Chromium runs each page (--dump-dom, with a virtual time budget so that images load); the pages
record script and resource errors in the root element's data-errors attribute, mark loaded images
with data-natural-width and set data-ready when drawn, so the dumped DOM shows all of it.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BIN_DIR = REPO = None


def find_chromium():
    """Chromium's executable, installing Debian's package when missing and possible; None if not."""
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return shutil.which("chromium")
    return None


CHROMIUM = find_chromium()


def dump_dom(url):
    """The DOM of `url` after its scripts ran, as Chromium serializes it."""
    result = subprocess.run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
         "--dump-dom", url], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"chromium failed on {url}: {result.stderr[-2000:]}")
    return result.stdout


class Dom(html.parser.HTMLParser):
    """Every start tag of a page as (tag, attributes)."""

    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def all(self, tag, **wanted):
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in wanted.items())]

    def root(self):
        return self.all("html")[0]


def load(url):
    return Dom(dump_dom(url))


def read(path, mode="r"):
    with open(path, mode) as file:
        return file.read()


def run_batch(batch, out, *extra):
    subprocess.run([os.path.join(BIN_DIR, "asg-client"), "run", os.path.join(REPO, batch),
                    "--out", out, "--quiet", *extra], check=False, capture_output=True, timeout=120)
    if not os.path.isfile(os.path.join(out, "summary.json")):
        raise AssertionError(f"{batch} wrote no summary.json into {out}")


def report_files(out):
    """Every file the report writes under `out`, relative path -> bytes."""
    files = {}
    pages = ["index.html"] + (["failures.html"] if os.path.isfile(os.path.join(out, "failures.html")) else [])
    for path in pages + [os.path.join("report", f) for f in os.listdir(os.path.join(out, "report"))]:
        files[path] = read(os.path.join(out, path), "rb")
    for name in os.listdir(out):
        if name.startswith("scenario_"):
            path = os.path.join(name, "index.html")
            files[path] = read(os.path.join(out, path), "rb")
    return files


@unittest.skipIf(CHROMIUM is None, "chromium is not installed and cannot be installed here "
                 "(needs root and apt-get): the report is not checked in a browser")
class ReportTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="asg_report_test_")
        cls.demo = os.path.join(cls.tmp, "demo")
        cls.mixed = os.path.join(cls.tmp, "mixed")
        run_batch("configs/demo.json", cls.demo)
        run_batch("configs/batches/mixed.json", cls.mixed, "--allow-invalid")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def url(self, out, page="index.html", fragment=""):
        return "file://" + os.path.join(out, page) + fragment

    def check_page(self, dom, what):
        root = dom.root()
        self.assertEqual(root.get("data-errors"), None, f"{what}: errors {root.get('data-errors')}")
        self.assertEqual(root.get("data-ready"), "1", f"{what}: the script did not finish")

    def test_index_counts_equal_the_summary(self):
        for out in (self.demo, self.mixed):
            summary = json.loads(read(os.path.join(out, "summary.json")))
            dom = load(self.url(out))
            self.check_page(dom, out)
            shown = {(a["data-kind"], a["data-key"]): int(a["data-count"])
                     for a in dom.all("g") if "data-kind" in a}
            expected = {("status", k): v for k, v in summary["status_counts"].items()}
            expected.update({("reason", k): v for k, v in summary["reason_counts"].items()})
            self.assertEqual(shown, expected, out)
            self.assertEqual(len([a for a in dom.all("tr") if "data-folder" in a]), summary["total"])
            facts = {a.get("data-fact") for a in dom.all("dd")}
            self.assertTrue({"seed", "started", "workers", "wall time", "throughput"} <= facts,
                            facts)
            text = read(os.path.join(out, "report", "data.js"))
            batch = json.loads(text[text.index("{"):text.rindex("}") + 1])["batch"]
            workers = {json.loads(read(os.path.join(out, f, "timing.json"))).get("worker_id")
                       for f in os.listdir(out) if f.startswith("scenario_")} - {None}
            self.assertEqual(batch["workers"], len(workers))
            self.assertEqual(batch["started"], read(os.path.join(out, "asg_log.txt"))[1:20])

    def test_sort_by_sim_time_from_the_fragment(self):
        for out in (self.demo, self.mixed):
            dom = load(self.url(out, fragment="#sort=sim_time&dir=asc"))
            self.check_page(dom, out)
            times = [a["data-sim-time"] for a in dom.all("tr") if "data-folder" in a]
            numbers = [float(t) for t in times if t]
            self.assertGreater(len(numbers), 1)
            self.assertEqual(numbers, sorted(numbers), out)
            self.assertEqual(times[:len(numbers)], [t for t in times if t], "empty ones last")
            descending = load(self.url(out, fragment="#sort=sim_time&dir=desc"))
            numbers = [float(a["data-sim-time"]) for a in descending.all("tr")
                       if a.get("data-sim-time")]
            self.assertEqual(numbers, sorted(numbers, reverse=True), out)

    def test_filter_by_reason(self):
        summary = json.loads(read(os.path.join(self.mixed, "summary.json")))
        for reason, count in summary["reason_counts"].items():
            dom = load(self.url(self.mixed, fragment=f"#sort=number&dir=asc&reason={reason}"))
            self.check_page(dom, reason)
            rows = [a for a in dom.all("tr") if "data-folder" in a]
            self.assertEqual(len(rows), count, reason)
            self.assertTrue(all(a["data-reason"] == reason for a in rows), reason)
        dom = load(self.url(self.mixed, fragment="#status=invalid"))
        rows = [a for a in dom.all("tr") if "data-folder" in a]
        self.assertEqual(len(rows), summary["status_counts"]["invalid"])

    def test_thumbnails_load(self):
        dom = load(self.url(self.demo))
        thumbs = dom.all("img", **{"class": "thumb"})
        self.assertEqual(len(thumbs), 50)
        for img in thumbs:
            self.assertTrue(img["src"].endswith("_annotated.png"), img["src"])
            self.assertGreater(int(img.get("data-natural-width", "0")), 0, img["src"])

    def test_scenario_pages(self):
        for out, folder in ((self.demo, "scenario_0001"), (self.mixed, "scenario_0002")):
            dom = load(self.url(out, folder + "/index.html"))
            self.check_page(dom, folder)
            captures = sorted(os.listdir(os.path.join(out, folder, "captures"))) \
                if os.path.isdir(os.path.join(out, folder, "captures")) else []
            images = [a for a in dom.all("img") if a.get("src", "").startswith("captures/")]
            self.assertEqual(sorted(a["src"] for a in images), ["captures/" + c for c in captures])
            for img in images:
                self.assertGreater(int(img.get("data-natural-width", "0")), 0, img["src"])
            rows = read(os.path.join(out, folder, "trajectory.csv")).splitlines()[1:]
            polyline = dom.all("polyline", id="trajectory")
            self.assertEqual(len(polyline), 1)
            self.assertEqual(len(polyline[0]["points"].split()), len(rows), folder)
            self.assertGreater(len(rows), 10)
            self.assertEqual(len(dom.all("image")), 1 if captures else 0, "ortho aerial underlay")
        self.assertEqual(len(captures), 0)  # mixed: drawn over the obstacles instead
        self.assertGreater(len(dom.all("circle", **{"class": "obstacle"})), 0)

    def test_relief_contours_without_captures(self):
        """Without an ortho aerial, the relief is drawn as contour lines under the trajectory."""
        batch = {"name": "relief", "defaults": {
            "sim_timeout_period": 12, "driver": {"type": "straight"},
            "vehicle_start_location": {"x": 8, "y": 8, "z": 0},
            "vehicle_goal_location": {"x": 32, "y": 32, "z": 0},
            "scene_description": {"landscape": {
                "nominal_size": 40, "subdivisions": 5,
                "relief": [{"type": "hill", "x": 20, "y": 12, "radius": 8, "height": 2}]}}},
            "scenarios": [{}, {"scene_description": {"landscape": {"relief": []}}}]}
        path = os.path.join(self.tmp, "relief.json")
        with open(path, "w") as file:
            json.dump(batch, file)
        out = os.path.join(self.tmp, "relief")
        run_batch(path, out)
        hilly = load(self.url(out, "scenario_0001/index.html"))
        self.check_page(hilly, "relief")
        contours = hilly.all("path", **{"class": "contours"})
        self.assertEqual(len(contours), 1)
        self.assertGreater(contours[0]["d"].count("M"), 20)
        flat = load(self.url(out, "scenario_0002/index.html"))
        self.assertEqual(flat.all("path", **{"class": "contours"}), [])

    def test_report_twice_gives_the_same_bytes(self):
        client = os.path.join(BIN_DIR, "asg-client")
        written_by_run = report_files(self.mixed)
        subprocess.run([client, "report", self.mixed], check=True, capture_output=True)
        first = report_files(self.mixed)
        subprocess.run([client, "report", self.mixed], check=True, capture_output=True)
        self.assertEqual(first, report_files(self.mixed))
        self.assertEqual(written_by_run, first)
        # index and failures pages, 5 assets and data.js, 5 scenario pages
        self.assertEqual(len(first), 2 + 6 + 5)

    def test_report_of_a_folder_that_is_not_a_batch(self):
        result = subprocess.run([os.path.join(BIN_DIR, "asg-client"), "report", self.tmp],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn(self.tmp, result.stderr)
        self.assertIn("not a batch folder", result.stderr)


TREE = "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop"


def trees(xs, ys):
    """An ssa_array entry of trees at (xs[i], ys[i])."""
    n = len(xs)
    return {"path_name": TREE, "num_instances": n, "visible": [True] * n,
            "cast_shadow": [True] * n, "x": xs, "y": ys, "yaw": [0.0] * n, "scale": [1.0] * n}


def reproducing_batch():
    """The straight driver from (8, 8) to (32, 32): scenario 1 into a wall of nine trees (its
    failure reproduces 5 of 5; it takes an annotated ortho aerial), scenario 2 grazing a tree 1.095 m
    beside its path (reproduces in some of the jittered runs; no captures: its card draws a map),
    scenario 3 on open ground (tests/client/failures/e2e_reproduce_test.cpp's batch)."""
    side = 1.095 / 2 ** 0.5
    captures = {"image_size": 128, "draw_annotations": True, "ortho_aerial": True,
                "perspective_aerial": False, "aerial_padding": [5], "front_aerial": False,
                "left_front_aerial": False, "left_aerial": False, "left_rear_aerial": False,
                "rear_aerial": False, "right_rear_aerial": False, "right_aerial": False,
                "right_front_aerial": False, "vehicle_start_pov": False,
                "vehicle_start_rear_aerial": False}
    wall = {"take_scene_capture": True, "scene_capture_settings": captures,
            "scene_description": {"ssa_array": [trees([16.0 + i for i in range(9)],
                                                      [24.0 - i for i in range(9)])]}}
    graze = {"scene_description": {"ssa_array": [trees([20.0 + side], [20.0 - side])]}}
    return {"name": "reproduce", "seed": 7, "max_attempts": 3, "scenario_timeout_s": 60,
            "failures": {"reproduce": 5},
            "defaults": {"sim_timeout_period": 12.0, "vehicle_idling_timeout_period": 3.0,
                         "vehicle_stuck_timeout_period": 3.0, "allow_collisions": False,
                         "vehicle_start_location": {"x": 8.0, "y": 8.0, "z": 0.0},
                         "vehicle_start_yaw": 45.0,
                         "vehicle_goal_location": {"x": 32.0, "y": 32.0, "z": 0.0},
                         "goal_radius": 4.0,
                         "scene_description": {"landscape": {"nominal_size": 40.0, "subdivisions": 4},
                                               "sunlight_inclination": 30.0,
                                               "sunlight_yaw_angle": 0.0, "ssa_array": []},
                         "driver": {"type": "straight", "speed": 5.0}},
            "scenarios": [wall, graze, {}]}


def run_reproducing_batch(tmp):
    """Runs reproducing_batch() from `tmp`/reproduce.json into `tmp`/failing; returns that folder."""
    batch = os.path.join(tmp, "reproduce.json")
    with open(batch, "w") as file:
        json.dump(reproducing_batch(), file)
    out = os.path.join(tmp, "failing")
    run_batch(batch, out, "--workers", "2")
    return out


def page_order(failures):
    """failures.json's rows in the failures page's order."""
    def key(f):
        judged = bool(f.get("runs"))
        share = f["reproduced"] / f["runs"] if judged else -1.0
        regret = f.get("max_regret")
        return (-share, 0 if regret is not None else 1, -(regret or 0.0), f["failure_id"])
    return [f["failure_id"] for f in sorted(failures, key=key)]


def card_ids(dom):
    return [int(a["data-failure-id"]) for a in dom.all("article") if "data-failure-id" in a]


def hrefs_resolve(test, out, page, dom):
    """Every relative link of `page` (a page under `out`) names a file or folder that exists."""
    base = os.path.dirname(os.path.join(out, page))
    links = [a["href"].split("#")[0] for a in dom.all("a") if "href" in a]
    links = [link for link in links if link and "://" not in link]
    test.assertGreater(len(links), 0)
    for link in links:
        test.assertTrue(os.path.exists(os.path.normpath(os.path.join(base, link))), f"{page}: {link}")


@unittest.skipIf(CHROMIUM is None, "chromium is not installed and cannot be installed here")
class FailuresReportTest(unittest.TestCase):
    """The failures page, the index's failure counts, a search's scenario pages and archive map."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="asg_failures_report_test_")
        cls.failing = run_reproducing_batch(cls.tmp)
        search = json.loads(read(os.path.join(REPO, "configs/batches/search_demo.json")))
        search["search"].update({"strategy": "map-elites", "budget": {"scenarios": 60},
                                 "generation_size": 20, "strategy_settings": {"seed_count": 20}})
        batch = os.path.join(cls.tmp, "map_elites.json")
        with open(batch, "w") as file:
            json.dump(search, file)
        cls.search = os.path.join(cls.tmp, "search")
        run_batch(batch, cls.search, "--workers", "2")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def url(self, out, page):
        return "file://" + os.path.join(out, page)

    def check_page(self, dom, what):
        root = dom.root()
        self.assertEqual(root.get("data-errors"), None, f"{what}: errors {root.get('data-errors')}")
        self.assertEqual(root.get("data-ready"), "1", f"{what}: the script did not finish")

    def test_cards_most_reproducible_first_with_aerial_or_map(self):
        failures = json.loads(read(os.path.join(self.failing, "failures.json")))
        self.assertEqual(len(failures["failures"]), 2, failures)
        dom = load(self.url(self.failing, "failures.html"))
        self.check_page(dom, "failures.html")
        self.assertEqual(card_ids(dom), page_order(failures["failures"]))
        # The wall's card shows its annotated aerial; the grazed tree's, its map with the point.
        aerials = dom.all("img", **{"class": "aerial"})
        self.assertEqual([a["src"] for a in aerials],
                         ["scenario_0001/captures/ortho_aerial_pad5_annotated.png"])
        self.assertGreater(int(aerials[0].get("data-natural-width", "0")), 0)
        self.assertEqual(len(dom.all("polyline", **{"class": "trajectory"})), 1)
        self.assertEqual(len(dom.all("path", **{"class": "failure-point"})), 1)
        runs = [a["href"] for a in dom.all("a", **{"class": "run"})]
        self.assertEqual(len(runs), sum(f["runs"] for f in failures["failures"]))
        hrefs_resolve(self, self.failing, "failures.html", dom)
        counts = dom.all("p", id="failure-counts")[0]
        self.assertEqual(int(counts["data-distinct"]), 2)
        self.assertEqual(int(counts["data-failing"]), failures["failing_scenarios"])

    def test_index_shows_distinct_failures_beside_the_raw_count(self):
        summary = json.loads(read(os.path.join(self.failing, "summary.json")))
        dom = load(self.url(self.failing, "index.html"))
        self.check_page(dom, "index.html")
        fact = dom.all("dd", **{"data-fact": "failures"})[0]
        self.assertEqual(int(fact["data-failing-scenarios"]), summary["failing_scenarios"])
        self.assertEqual(int(fact["data-distinct-failures"]), summary["distinct_failures"])
        self.assertEqual(int(fact["data-reliable-failures"]), summary["reliable_failures"])
        self.assertEqual(int(fact["data-contacts"]), summary["contacts"])
        self.assertEqual(dom.all("a", id="failures-link")[0]["href"], "failures.html")
        # A failing scenario's page links to its card.
        page = load(self.url(self.failing, "scenario_0002/index.html"))
        links = [a["href"] for a in page.all("a") if "failures.html#failure-" in a.get("href", "")]
        self.assertEqual(links, ["../failures.html#failure-2"])

    def test_failures_and_report_commands_rewrite_the_same_page(self):
        client = os.path.join(BIN_DIR, "asg-client")
        written = read(os.path.join(self.failing, "failures.html"), "rb")
        os.remove(os.path.join(self.failing, "failures.html"))
        subprocess.run([client, "failures", self.failing], check=True, capture_output=True)
        self.assertEqual(read(os.path.join(self.failing, "failures.html"), "rb"), written)
        os.remove(os.path.join(self.failing, "failures.html"))
        subprocess.run([client, "report", self.failing], check=True, capture_output=True)
        self.assertEqual(read(os.path.join(self.failing, "failures.html"), "rb"), written)

    def test_cards_sorted_on_a_hand_made_batch(self):
        out = os.path.join(self.tmp, "hand_made")
        os.makedirs(out)
        with open(os.path.join(out, "batch_identity.json"), "w") as file:
            json.dump({"batch": "hand-made", "identity": "x"}, file)
        for number in range(1, 10):
            folder = os.path.join(out, "scenario_%04d" % number)
            os.makedirs(folder)
            with open(os.path.join(folder, "result.json"), "w") as file:
                json.dump({"scenario_number": number, "status": "done", "seed": 0, "reruns": [],
                           "captures": [], "termination_reason": 2,
                           "termination_reason_name": "REASON_VEHICLE_COLLISION",
                           "vehicle_sim_time": 3.0, "counters": {}}, file)
        # (id, reproduced, runs, max_regret): shares 1/5, 5/5, 5/5, 3/5, 6/10, none judged.
        specs = [(1, 1, 5, 2.0), (2, 5, 5, 1.0), (3, 5, 5, 1.5), (4, 3, 5, 1.0), (5, 6, 10, 1.0),
                 (6, None, None, 3.0)]
        rows = []
        for failure_id, reproduced, runs, regret in specs:
            row = {"failure_id": failure_id, "kind": "collision", "representative": failure_id,
                   "members": 1, "first_found": failure_id, "x": 1.0, "y": 2.0,
                   "max_regret": regret, "member_scenarios": [failure_id]}
            if runs:
                row.update({"reproduced": reproduced, "runs": runs, "reproduction_folders": [
                    "reproduce/scenario_%04d_run_%d" % (failure_id, k) for k in range(1, runs + 1)]})
            rows.append(row)
        with open(os.path.join(out, "failures.json"), "w") as file:
            json.dump({"regret_threshold": 0.75, "reproduce": 10, "failing_scenarios": 6,
                       "distinct_failures": 6, "failures": rows, "contacts": 2,
                       "contact_scenarios": [7, 9]}, file)
        subprocess.run([os.path.join(BIN_DIR, "asg-client"), "report", out], check=True,
                       capture_output=True)
        dom = load(self.url(out, "failures.html"))
        self.check_page(dom, "hand-made failures.html")
        self.assertEqual(card_ids(dom), [3, 2, 4, 5, 1, 6])
        self.assertEqual(card_ids(dom), page_order(rows))
        near = dom.all("section", id="near-misses")[0]
        self.assertEqual(near["data-count"], "2")
        self.assertIn("scenario_0009/index.html", [a.get("href") for a in dom.all("a")])

    def test_a_batch_without_failures_says_so(self):
        batch = reproducing_batch()
        batch["scenarios"] = [{}, {}]  # open ground: both reach the goal
        path = os.path.join(self.tmp, "plain.json")
        with open(path, "w") as file:
            json.dump(batch, file)
        out = os.path.join(self.tmp, "plain")
        run_batch(path, out)
        self.assertEqual(json.loads(read(os.path.join(out, "summary.json")))["distinct_failures"], 0)
        dom = load(self.url(out, "failures.html"))
        self.check_page(dom, "plain failures.html")
        self.assertEqual(card_ids(dom), [])
        self.assertIn("No failures", read(os.path.join(out, "failures.html")))

    def test_searched_scenario_shows_origin_parents_and_generation(self):
        children = []
        for name in sorted(os.listdir(self.search)):
            if name.startswith("scenario_"):
                record = json.loads(read(os.path.join(self.search, name, "search.json")))
                if record["parents"]:
                    children.append((name, record))
        self.assertGreater(len(children), 0)
        name, record = children[0]
        dom = load(self.url(self.search, name + "/index.html"))
        self.check_page(dom, name)
        parents = [a["href"] for a in dom.all("a", **{"class": "parent"})]
        self.assertEqual(parents, ["../scenario_%04d/index.html" % p for p in record["parents"]])
        hrefs_resolve(self, self.search, name + "/index.html", dom)
        text = read(os.path.join(self.search, name, "index.html"))
        self.assertIn('<dd id="search-origin">%s</dd>' % record["origin"], text)
        self.assertIn('<dd id="search-generation">%d ' % record["generation"], text)
        seed = load(self.url(self.search, "scenario_0001/index.html"))
        self.assertEqual(seed.all("a", **{"class": "parent"}), [])

    def test_archive_map(self):
        lines = read(os.path.join(self.search, "archive.csv")).splitlines()[1:]
        last = max(int(line.split(",")[0]) for line in lines)
        cells = [line.split(",") for line in lines if int(line.split(",")[0]) == last]
        dom = load(self.url(self.search, "index.html"))
        self.check_page(dom, "search index.html")
        images = [a for a in dom.all("image") if a.get("href") == "report/archive_map.png"]
        self.assertEqual(len(images), 1)
        labels = {a["data-outcome"]: int(a["data-cells"]) for a in dom.all("text")
                  if "data-outcome" in a}
        self.assertEqual(len(labels), 8)
        self.assertEqual(sum(labels.values()), len(cells))
        for outcome in {c[3] for c in cells}:
            self.assertEqual(labels[outcome], sum(1 for c in cells if c[3] == outcome))
        png = read(os.path.join(self.search, "report", "archive_map.png"), "rb")
        self.assertTrue(png.startswith(b"\x89PNG"))
        subprocess.run([os.path.join(BIN_DIR, "asg-client"), "report", self.search], check=True,
                       capture_output=True)
        self.assertEqual(read(os.path.join(self.search, "report", "archive_map.png"), "rb"), png)


if __name__ == "__main__":
    BIN_DIR, REPO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
