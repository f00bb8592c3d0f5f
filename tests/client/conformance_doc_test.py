#!/usr/bin/env python3
"""docs/conformance.md agrees with the decoders, field by field and constant by constant.

The doc has one level-2 section per specification and, inside, one `### Name (kind)` heading per
upstream message, service, action or command, each followed by one table with the columns
Upstream | Farm | Status | Notes. This test reads the schemas the programs write from their
decoders' field lists:

  asg-client schema worker           every frame between client and worker, and "constants"
  asg-client schema nodes            every frame of a vehicle node
  asg-worker --print-service-schemas every interactive service with its request body's schema

and maps each table to the definition it describes (DEFINITIONS below, for the worker protocol
and the vehicle nodes; a served service's request body for the interactive families; a sensor
type's keys for scenario_simulator_v2's sensor configurations). It fails when

  - a section heading is not one of SECTIONS, or out of their order, or a table is malformed
    (not exactly one table, other columns, a Status other than same / differs / absent /
    extension, an extension with an Upstream name, an absent row without Notes);
  - a property of a mapped definition is not in its table's Farm column (with the request. /
    response. / goal. prefix of its side);
  - a Farm name of a same / differs / extension row is not a property of its definition;
  - an absent row names a Farm field that exists;
  - a table's Farm constant `NAME = VALUE` (or `NAME` alone, for an enum that travels by name)
    differs from the project's or is not one, or a project constant of the definition has no
    row (`asg-client schema worker`'s "constants" for AutoSceneGen's tables; for the
    interactive families' tables, message or service, mapped or not, --print-service-schemas'
    "constants": {FAMILY: {"Name (kind)": {CONSTANT: value}}}, the constants the worker's
    services use); a heading there without its table in the family's section fails too;
  - a message of the worker protocol or of the vehicle nodes' control plane has no table, or a
    service that ListServices lists (asg-worker --print-service-schemas lists the same table) has
    no table in its family's section, except the families in FAMILIES_WITHOUT_SECTIONS_YET, and
    the farm's own services (family "asg"), which follow no specification.

Usage: conformance_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT
"""
import json
import pathlib
import re
import subprocess
import sys
import unittest

# The interactive families whose sections are still to be written: their services are not yet
# required to have tables. Empty it when docs/conformance.md has their sections; the test fails
# while a family listed here has its section, so that the list cannot outlive its reason.
FAMILIES_WITHOUT_SECTIONS_YET = set()

BIN = pathlib.Path(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else None
ROOT = (pathlib.Path(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2
        else pathlib.Path(__file__).resolve().parents[2])
DOC = "docs/conformance.md"
RUN_TIMEOUT = 30  # [s] per schema printed

ASG = "AutoSceneGen (auto_scene_gen_msgs)"
SIMIF = "simulation_interfaces 2.1.0"
MONODRIVE = "monoDrive (control channel)"
SSE = "RoadRunner Scenario Simulation Engine (SSE)"
SS2 = "scenario_simulator_v2 (simulation_api_schema.proto)"
# The level-2 sections in their order, and the interactive family each one documents.
SECTIONS = {ASG: None, SIMIF: "simulation_interfaces", MONODRIVE: "monodrive",
            SSE: "roadrunner_sse", SS2: None}
# The interactive services of no specification (docs/interactive.md describes them).
FARM_OWN_FAMILIES = {"asg"}

STATUSES = {"same", "differs", "absent", "extension"}
COLUMNS = ["Upstream", "Farm", "Status", "Notes"]
NONE = "—"
KINDS = {"msg", "srv", "action", "command"}
# Each side of a table and the prefix of its names.
PREFIX = {"": "", "request": "request.", "response": "response.", "goal": "goal.",
          "result": "result.", "feedback": "feedback."}

# AutoSceneGen's section: each table's definitions in the worker ("w") or node ("n") schema, by
# side. A (msg) is its definition; a (srv) its request and response.
DEFINITIONS = {
    "LandscapeDescription (msg)": {"": "LandscapeDescription"},
    "OdometryWithoutCovariance (msg)": {"": "OdometryWithoutCovariance"},
    "PhysXControl (msg)": {"": "PhysXControl"},
    "SceneCaptureSettings (msg)": {"": "SceneCaptureSettings"},
    "SceneDescription (msg)": {"": "SceneDescription"},
    "StatusCode (msg)": {"": "StatusCode"},
    "StructuralSceneActorLayout (msg)": {"": "StructuralSceneActorLayout"},
    "VehicleNodeOperatingInfo (msg)": {"": "NodeOperatingInfo"},
    "VehicleStatus (msg)": {"": "VehicleStatus"},
    "AnalyzeScenario (srv)": {"request": "AnalyzeScenarioRequest",
                              "response": "AnalyzeScenarioResponse"},
    "NotifyReady (srv)": {"request": "NotifyReadyRequest", "response": "NotifyReadyResponse"},
    "RegisterVehicleNode (srv)": {"request": "NodeRegistration",
                                  "response": "RegisterVehicleNodeResponse"},
    "RunScenario (srv)": {"request": "RunScenarioRequest", "response": "RunScenarioResponse"},
    "WorkerIssueNotification (srv)": {"request": "WorkerIssueNotificationRequest",
                                      "response": "WorkerIssueNotificationResponse"},
    # The farm's own messages beside AutoSceneGen's (every row an extension).
    "RegisterWorker (srv)": {"request": "RegisterWorkerRequest",
                             "response": "RegisterWorkerResponse"},
    "RunPreempted (msg)": {"": "RunPreemptedRequest"},
    "SaveNodeFile (srv)": {"request": "SaveNodeFileRequest", "response": "SaveNodeFileResponse"},
    "UnregisterVehicleNode (srv)": {"request": "UnregisterVehicleNodeRequest",
                                    "response": "UnregisterVehicleNodeResponse"},
}
# scenario_simulator_v2's sensor configurations: the farm's SensorSpec type with their keys.
SENSOR_TYPES = {
    "LidarConfiguration (msg)": "lidar",
    "DetectionSensorConfiguration (msg)": "detection",
    "OccupancyGridSensorConfiguration (msg)": "occupancy_grid",
    "ImuSensorConfiguration (msg)": "imu",
}
# The interactive families' messages that requests carry inside them: each table's heading, by
# family, and where the message sits in a service's request body ("[]" steps into an array's
# elements). Checked when the heading exists; a message not listed is checked for form only.
NESTED_MESSAGES = {
    "simulation_interfaces": {
        "EntityState (msg)": ("SetEntityState", "state"),
        "EntityFilters (msg)": ("GetEntities", "filters"),
        "EntityCategory (msg)": ("GetEntities", "filters.categories[]"),
        "TagsFilter (msg)": ("GetEntities", "filters.tags"),
        "Bounds (msg)": ("GetEntities", "filters.bounds"),
        "SimulationState (msg)": ("SetSimulationState", "state"),
        "SpawnEntity (msg)": ("SpawnEntities", "spawn_requests[]"),
        "Resource (msg)": ("SpawnEntity", "entity_resource"),
    },
    "roadrunner_sse": {},
}
# A body that is a whole project message (a "$ref") is one row: its Farm name is the side alone
# (`request`), and the message has its own table elsewhere.
WHOLE_BODY_ROW = "whole body"
# The kinds of heading that name a service (a request the farm decodes) rather than a message.
SERVICE_KINDS = ("srv", "action", "command")
# A Farm name for a service or message the farm has as a whole, with no fields of its own.
WHOLE = "(all)"


def run(*args):
    done = subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=RUN_TIMEOUT)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


def parse_doc(text):
    """[(section, [(heading, rows, problems)])]: each `## ` section with its `### ` tables;
    a row is a dict of the four columns, a problem a string about the table's form."""
    sections = []
    current = None
    in_code = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
            current = None
        elif line.startswith("### "):
            if not sections:
                raise AssertionError(f"{DOC}:{number}: a ### heading before any ## section")
            current = {"heading": line[4:].strip(), "tables": [], "line": number}
            sections[-1][1].append(current)
        elif line.startswith("|") and current is not None:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not current["tables"] or current.get("ended"):
                current["tables"].append([])
                current["ended"] = False
            current["tables"][-1].append((number, cells))
        elif current is not None and current["tables"]:
            current["ended"] = True
    return [(title, [table_of(entry) for entry in entries]) for title, entries in sections]


def table_of(entry):
    """(heading, rows, problems) of one `### ` entry."""
    heading = entry["heading"]
    where = f"{DOC}:{entry['line']} `### {heading}`"
    problems = []
    if not re.fullmatch(r"\S+ \((msg|srv|action|command)\)", heading):
        problems.append(f"{where}: a heading is `### Name (msg|srv|action|command)`")
    if len(entry["tables"]) != 1:
        return heading, [], problems + [f"{where}: has {len(entry['tables'])} tables, not 1"]
    lines = entry["tables"][0]
    if len(lines) < 3 or lines[0][1] != COLUMNS or not all(
            re.fullmatch(r":?-+:?", cell) for cell in lines[1][1]):
        return heading, [], problems + [f"{where}: the table's header is not "
                                        f"| {' | '.join(COLUMNS)} | with its rule"]
    rows = []
    for number, cells in lines[2:]:
        if len(cells) != len(COLUMNS):
            problems.append(f"{DOC}:{number}: {len(cells)} cells, not {len(COLUMNS)}")
            continue
        row = dict(zip(COLUMNS, cells))
        row["line"] = number
        rows.append(row)
    return heading, rows, problems


def names(cell):
    """The backticked names of a cell (`—` or empty: none)."""
    return re.findall(r"`([^`]+)`", cell)


def split_constant(name):
    """(NAME, value) of `NAME = VALUE` (an optional side prefix dropped), (NAME, "NAME") of a
    bare `NAME` (an enum value that travels by name: fields are lower case), else None."""
    match = re.fullmatch(r"(?:\w+\.)?([A-Z][A-Z0-9_]*) = (-?[0-9]+)", name)
    if match:
        return match.group(1), int(match.group(2))
    return (name, name) if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) else None


def doc_constants(rows):
    """{NAME: (value, line)} of the constants in a table's Farm column."""
    found = {}
    for row in rows:
        for name in names(row["Farm"]):
            constant = split_constant(name)
            if constant:
                found[constant[0]] = (constant[1], row["line"])
    return found


def shown(name, value):
    """A constant as a Farm cell writes it: `NAME = VALUE`, or `NAME` for a value by name."""
    return name if value == name else f"{name} = {value}"


def constant_problems(heading, documented, constants):
    """Problems of a table's constants `documented` ({NAME: (value, line)}) against the
    project's {NAME: value}."""
    problems = []
    for name, value in sorted(constants.items()):
        if name not in documented:
            problems.append(f"{DOC} `### {heading}`: the project's constant "
                            f"`{shown(name, value)}` has no row")
    for name, (value, line) in sorted(documented.items()):
        if name not in constants:
            problems.append(f"{DOC}:{line}: `{shown(name, value)}` is not a constant of the "
                            f"project")
        elif constants[name] != value:
            problems.append(f"{DOC}:{line}: `{shown(name, value)}`, but the project's is "
                            f"{constants[name]}")
    return problems


def row_problems(row):
    """Problems of one row's form."""
    where = f"{DOC}:{row['line']}"
    status = row["Status"]
    problems = []
    if status not in STATUSES:
        problems.append(f"{where}: Status {status!r} is not one of {sorted(STATUSES)}")
    if status == "extension" and row["Upstream"] != NONE:
        problems.append(f"{where}: an extension's Upstream is {NONE}")
    if status != "extension" and not names(row["Upstream"]):
        problems.append(f"{where}: Upstream names no field (a farm-only field is an extension)")
    if status in ("same", "differs", "extension") and not names(row["Farm"]):
        problems.append(f"{where}: a {status} row names its Farm field")
    if status in ("differs", "absent", "extension") and not row["Notes"].strip():
        problems.append(f"{where}: a {status} row says how or why in Notes")
    return problems


class Definitions:
    """The definitions of the three schemas, and the constants of the worker protocol."""

    def __init__(self):
        worker = run("asg-client", "schema", "worker")
        nodes = run("asg-client", "schema", "nodes")
        self.services = run("asg-worker", "--print-service-schemas")
        self.defs = {}
        for schema in (worker, nodes, self.services):
            for name, definition in schema["$defs"].items():
                if name in self.defs and self.defs[name] != definition:
                    raise AssertionError(f"the schemas define {name} differently")
                self.defs[name] = definition
        self.constants = worker["constants"]
        self.worker_frames = frame_definitions(worker)
        self.control_frames = frame_definitions(nodes, "control plane")

    def properties(self, name):
        return set(self.defs[name]["properties"])

    def body(self, service):
        """The property names of a service's request body; WHOLE_BODY_ROW for a body that is a
        message with a table of its own in AutoSceneGen's section (RunScenario's request)."""
        request = self.services["services"][service]["request"]
        if request is None:
            raise AssertionError(f"asg-worker --print-service-schemas: {service} has no schema")
        if "$ref" not in request:
            return set(request["properties"])
        name = request["$ref"].rsplit("/", 1)[1]
        tabled = {name for sides in DEFINITIONS.values() for name in sides.values()}
        return WHOLE_BODY_ROW if name in tabled else self.properties(name)

    def service_constants(self, family):
        """{"Name (kind)": {NAME: value}} of the constants asg-worker --print-service-schemas
        gives for an interactive family's messages and services."""
        return self.services["constants"].get(family, {})

    def nested(self, service, path):
        """The property names of the object at `path` inside a service's request body."""
        schema = self.services["services"][service]["request"]
        for step in path.split("."):
            schema = schema["properties"][step.removesuffix("[]")]
            if step.endswith("[]"):
                schema = schema["items"]
        return set(schema["properties"])

    def sensor_keys(self, sensor_type):
        for clause in self.defs["SensorSpec"]["allOf"]:
            if clause["if"]["properties"]["type"]["const"] == sensor_type:
                return set(clause["then"]["propertyNames"]["enum"])
        raise AssertionError(f"SensorSpec has no type {sensor_type}")


def frame_definitions(schema, direction=""):
    """The definition names of the frames whose description starts with `direction`."""
    found = set()
    for frame in schema["oneOf"]:
        ref = frame["properties"]["message"].get("$ref")
        if ref and frame["description"].startswith(direction):
            found.add(ref.rsplit("/", 1)[1])
    return found


def check_table(heading, rows, sides, constants):
    """Problems of one mapped table: `sides` maps a side ("", "request", ...) to its property
    names, WHOLE_BODY_ROW, or None for a side no decoder reads (a reply the farm writes: its
    rows are not checked); `constants` is {NAME: value} of the project, {} when it has none, or
    None when the project does not print them (the doc's constants are then not checked)."""
    where = f"{DOC} `### {heading}`"
    problems = []
    given = []  # (farm name, status, line) of each row's farm names
    for row in rows:
        for name in names(row["Farm"]):
            if not split_constant(name):
                given.append((name, row["Status"], row["line"]))
    present = {name for name, status, _ in given if status != "absent"}
    known = set()
    for side, properties in sides.items():
        prefix = PREFIX[side]
        if properties is None:
            continue
        if properties == WHOLE_BODY_ROW:
            known.add(side)
            if side not in present:
                problems.append(f"{where}: no row for `{side}` (the whole body, a message)")
            continue
        for name in sorted(properties):
            known.add(prefix + name)
            if prefix + name not in present:
                problems.append(f"{where}: the decoder's `{prefix + name}` has no row")
    for name, status, line in given:
        if name == WHOLE:
            continue  # a field the decoder has still needs its own row (above)
        side = name.split(".", 1)[0]
        if side in sides and sides[side] is None:
            continue  # a reply's field (or the whole reply), which no decoder reads
        if sides.get(name) == WHOLE_BODY_ROW:
            continue
        if "." not in name and "" in sides:
            side = ""
        if side not in sides and "" not in sides:
            problems.append(f"{DOC}:{line}: `{name}`: this table has no side {side!r}")
        elif status == "absent" and name in known:
            problems.append(f"{DOC}:{line}: `{name}` is marked absent but the decoder has it")
        elif status != "absent" and name not in known:
            problems.append(f"{DOC}:{line}: `{name}` ({status}) is not a field of the decoder")
    if constants is None:
        return problems
    return problems + constant_problems(heading, doc_constants(rows), constants)


def unmapped_problems(heading, rows):
    """A table no decoder stands behind: each of its rows is absent with Farm `—`."""
    problems = []
    for row in rows:
        if row["Status"] != "absent" or row["Farm"] != NONE:
            problems.append(f"{DOC}:{row['line']}: `### {heading}` has no decoder in the farm: "
                            f"its rows are absent with Farm {NONE}")
    return problems


class ConformanceDocTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if BIN is None:
            raise unittest.SkipTest("usage: conformance_doc_test.py BUILD_BIN_DIR REPOSITORY_ROOT")
        cls.sections = parse_doc((ROOT / DOC).read_text())
        cls.defs = Definitions()

    def section(self, title):
        for name, tables in self.sections:
            if name == title:
                return tables
        return None

    def test_sections_and_tables_have_the_format(self):
        titles = [title for title, _ in self.sections if title in SECTIONS]
        problems = [f"{DOC}: `## {title}` is not one of the specifications' sections"
                    for title, _ in self.sections if title not in SECTIONS]
        if titles != [title for title in SECTIONS if title in titles]:
            problems.append(f"{DOC}: the sections are not in the order {list(SECTIONS)}")
        for title, tables in self.sections:
            seen = set()
            for heading, rows, table_problems in tables:
                problems += table_problems
                if heading in seen:
                    problems.append(f"{DOC}: `### {heading}` twice in `## {title}`")
                seen.add(heading)
                for row in rows:
                    problems += row_problems(row)
        self.assertFalse(problems, "\n".join(problems))

    def test_autoscenegen_tables_match_the_decoders(self):
        tables = self.section(ASG)
        self.assertIsNotNone(tables, f"{DOC} has no `## {ASG}`")
        problems = []
        mapped = set()
        for heading, rows, _ in tables:
            if heading not in DEFINITIONS:
                problems += unmapped_problems(heading, rows)
                continue
            sides = {side: self.defs.properties(name)
                     for side, name in DEFINITIONS[heading].items()}
            constants = {}
            for name in DEFINITIONS[heading].values():
                mapped.add(name)
                constants.update(self.defs.constants.get(name, {}))
            problems += check_table(heading, rows, sides, constants)
        headings = {heading for heading, _, _ in tables}
        for heading in sorted(set(DEFINITIONS) - headings):
            problems.append(f"{DOC}: `## {ASG}` has no `### {heading}`")
        for name in sorted((self.defs.worker_frames | self.defs.control_frames) - mapped):
            problems.append(f"the protocol's message {name} has no table in `## {ASG}` "
                            f"(add it, and its mapping to DEFINITIONS)")
        self.assertFalse(problems, "\n".join(problems))

    def test_services_have_tables_matching_their_request_bodies(self):
        services = self.defs.services["services"]
        problems = []
        for title, family in SECTIONS.items():
            if family is None:
                continue
            tables = self.section(title)
            if family in FAMILIES_WITHOUT_SECTIONS_YET:
                if tables is not None:
                    problems.append(f"{DOC} has `## {title}`: remove {family!r} from "
                                    f"FAMILIES_WITHOUT_SECTIONS_YET")
                continue
            if tables is None:
                problems.append(f"{DOC} has no `## {title}`")
                continue
            served = {name for name, entry in services.items() if entry["family"] == family}
            # Every table's constants are held to the project's (none: a constant row fails).
            constants = self.defs.service_constants(family)
            headings = set()
            for heading, rows, _ in tables:
                name, _, kind = heading.partition(" (")
                kind = kind.rstrip(")")
                if kind in SERVICE_KINDS:
                    headings.add(name)
                known = constants.get(heading, {})
                # A service may be written in another family's section under its own name (SSE's
                # StepSimulation is simulation_interfaces' StepSimulation).
                if kind in SERVICE_KINDS and name in services:
                    side = "goal" if kind == "action" else "request"
                    sides = {"response": None, "result": None, "feedback": None}
                    sides[side] = self.defs.body(name)
                    problems += check_table(heading, rows, sides, known)
                elif heading in NESTED_MESSAGES.get(family, {}):
                    service, path = NESTED_MESSAGES[family][heading]
                    problems += check_table(heading, rows,
                                            {"": self.defs.nested(service, path)}, known)
                else:
                    if kind in SERVICE_KINDS:
                        problems += unmapped_problems(heading, rows)
                    problems += constant_problems(heading, doc_constants(rows), known)
            for name in sorted(served - headings):
                problems.append(f"{DOC}: the {family} service {name} has no table in "
                                f"`## {title}`")
            tabled = {heading for heading, _, _ in tables}
            for heading in sorted(set(constants) - tabled):
                problems.append(f"{DOC}: the {family} constants of `{heading}` (asg-worker "
                                f"--print-service-schemas) have no table in `## {title}`")
        for name, entry in sorted(services.items()):
            family = entry["family"]
            if family not in FARM_OWN_FAMILIES and family not in SECTIONS.values():
                problems.append(f"the service {name}'s family {family!r} has no section")
        self.assertFalse(problems, "\n".join(problems))

    def test_sensor_configurations_match_the_sensor_keys(self):
        tables = self.section(SS2)
        self.assertIsNotNone(tables, f"{DOC} has no `## {SS2}`")
        problems = []
        headings = {heading for heading, _, _ in tables}
        for heading, rows, _ in tables:
            if heading in SENSOR_TYPES:
                problems += check_table(heading, rows,
                                        {"": self.defs.sensor_keys(SENSOR_TYPES[heading])}, {})
            else:
                problems += unmapped_problems(heading, rows)
        for heading in sorted(set(SENSOR_TYPES) - headings):
            problems.append(f"{DOC}: `## {SS2}` has no `### {heading}`")
        self.assertFalse(problems, "\n".join(problems))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
