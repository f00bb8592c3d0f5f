#!/usr/bin/env python3
"""Tests for report/report.h: the batch HTML report of real batches, checked in headless Chromium.

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
    for path in ["index.html"] + [os.path.join("report", f) for f in os.listdir(os.path.join(out, "report"))]:
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
        self.assertEqual(len(first), 5 + 1 + 5)  # index, 5 assets, 5 scenario pages

    def test_report_of_a_folder_that_is_not_a_batch(self):
        result = subprocess.run([os.path.join(BIN_DIR, "asg-client"), "report", self.tmp],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn(self.tmp, result.stderr)
        self.assertIn("not a batch folder", result.stderr)


if __name__ == "__main__":
    BIN_DIR, REPO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
