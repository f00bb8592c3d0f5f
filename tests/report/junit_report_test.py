#!/usr/bin/env python3
"""results.junit.xml of a real batch: the JUnit XML shape CI servers read, and the batch's facts.

The shape is that of the JUnit XML schema Jenkins and GitLab read (testsuites > testsuite >
testcase, with failure / error / skipped and properties): only its elements and attributes,
the counts in the attributes equal to the elements, times as decimal seconds. The facts come
from the batch's own result.json and summary.json files.

Usage: junit_report_test.py ASG_CLIENT REPOSITORY_ROOT
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

CLIENT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None
ROOT = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None

# Elements and attributes of the JUnit XML schema (jenkins junit-10.xsd and its common subset).
ATTRIBUTES = {
    "testsuites": {"name", "tests", "failures", "errors", "skipped", "disabled", "time"},
    "testsuite": {"name", "tests", "failures", "errors", "skipped", "disabled", "time",
                  "timestamp", "hostname", "id", "package", "file", "log", "url", "version",
                  "group"},
    "properties": set(),
    "property": {"name", "value"},
    "testcase": {"name", "classname", "time", "assertions", "status", "file", "line", "group"},
    "failure": {"message", "type"},
    "error": {"message", "type"},
    "skipped": {"message"},
    "system-out": set(),
    "system-err": set(),
}
CHILDREN = {
    "testsuites": {"testsuite"},
    "testsuite": {"properties", "testcase", "system-out", "system-err"},
    "properties": {"property"},
    "property": set(),
    "testcase": {"properties", "failure", "error", "skipped", "system-out", "system-err"},
    "failure": set(), "error": set(), "skipped": set(), "system-out": set(), "system-err": set(),
}


def check_shape(test, element):
    test.assertIn(element.tag, ATTRIBUTES, element.tag)
    test.assertLessEqual(set(element.attrib), ATTRIBUTES[element.tag], element.tag)
    for child in element:
        test.assertIn(child.tag, CHILDREN[element.tag], f"{child.tag} in {element.tag}")
        check_shape(test, child)
    if "time" in element.attrib:
        test.assertGreaterEqual(float(element.attrib["time"]), 0.0)


class JunitReportTest(unittest.TestCase):
    def test_a_mixed_batch_as_a_junit_report(self):
        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder) / "out"
            subprocess.run([str(CLIENT), "run", str(ROOT / "configs/batches/mixed.json"), "--out",
                            str(out), "--workers", "2", "-q", "--allow-invalid"], check=True,
                           capture_output=True)
            root = ElementTree.parse(out / "results.junit.xml").getroot()
            summary = json.loads((out / "summary.json").read_text())

            self.assertEqual(root.tag, "testsuites")
            check_shape(self, root)
            suites = root.findall("testsuite")
            self.assertEqual(len(suites), 1)
            suite = suites[0]
            self.assertEqual(suite.get("name"), summary["batch"])
            cases = suite.findall("testcase")
            self.assertEqual(int(suite.get("tests")), summary["total"])
            self.assertEqual(len(cases), summary["total"])
            counts = summary["status_counts"]
            not_success = counts["done"] - summary["reason_counts"].get("REASON_SUCCESS", 0)
            self.assertGreater(not_success, 0)
            self.assertGreater(counts["invalid"], 0)
            for element in (root, suite):
                self.assertEqual(int(element.get("failures")), not_success)
                self.assertEqual(int(element.get("errors")), counts["failed"])
                self.assertEqual(int(element.get("skipped")), counts["invalid"])
            self.assertEqual(len(suite.findall("testcase/failure")), not_success)
            self.assertEqual(len(suite.findall("testcase/skipped")), counts["invalid"])

            for case in cases:
                folder_name = case.get("name")
                result = json.loads((out / folder_name / "result.json").read_text())
                properties = {p.get("name"): p.get("value")
                              for p in case.findall("properties/property")}
                self.assertEqual(int(properties["seed"]), result["seed"], folder_name)
                failure = case.find("failure")
                if result["status"] == "done":
                    reason = result["termination_reason_name"]
                    if reason == "REASON_SUCCESS":
                        self.assertIsNone(failure, folder_name)
                    else:
                        self.assertEqual(failure.get("type"), reason, folder_name)
                        self.assertIn(f"{result['vehicle_sim_time']:.3f} s", failure.get("message"))
                    if "regret" in result:
                        self.assertAlmostEqual(float(properties["regret"]),
                                               result["regret"]["regret"], places=9)
                elif result["status"] == "invalid":
                    self.assertEqual(case.find("skipped").get("message"),
                                     "invalid: " + result["error"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
