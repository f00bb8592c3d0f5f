"""Tests for nodes/python/asg_node/message_types.py: its names match the C++ protocol headers.

Every frame type name of the Python table must be the `kType` of a message struct in
protocol/*.h (`static constexpr std::string_view kType = "Name";`) or a namespace-scope type
constant there (protocol/frame.h's kHeartbeatType and kErrorType, or a `kFooType = "Foo"` for a
message without a struct of its own); the C++ set may be larger. Replies are
the request type + protocol/frame.h's kResponseSuffix. No other module of the package spells a
type name as a string literal.
"""

from __future__ import annotations

import ast
import glob
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
PROTOCOL = os.path.join(ROOT, "protocol")
PACKAGE = os.path.join(ROOT, "nodes", "python", "asg_node")
sys.path.insert(0, os.path.join(ROOT, "nodes", "python"))
from asg_node import message_types  # noqa: E402

# `kType = "Name"` in a message struct; the declaration's type and qualifiers may vary.
K_TYPE = re.compile(r'\bkType\s*=\s*"([^"\\]+)"')
# A string constant at namespace scope: `inline constexpr std::string_view kName = "value";`.
STRING_CONSTANT = re.compile(
    r'\bconstexpr\s+(?:std::string_view|const\s+char\s*\*)\s+(k\w+)\s*=\s*"([^"\\]*)"')


def strip_comments(text: str) -> str:
    """C++ source without // and /* */ comments (so an example in a comment does not count)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def header_k_types() -> dict[str, str]:
    """Each kType value in protocol/*.h -> the header that declares it."""
    found: dict[str, str] = {}
    for path in sorted(glob.glob(os.path.join(PROTOCOL, "*.h"))):
        with open(path, encoding="utf-8") as file:
            for name in K_TYPE.findall(strip_comments(file.read())):
                found.setdefault(name, os.path.basename(path))
    return found


def type_constants() -> set[str]:
    """Values of the namespace-scope type constants (kHeartbeatType, kErrorType, k...Type) of
    protocol/*.h: names of messages that have no struct of their own."""
    found: set[str] = set()
    for path in sorted(glob.glob(os.path.join(PROTOCOL, "*.h"))):
        with open(path, encoding="utf-8") as file:
            found |= {value for name, value in STRING_CONSTANT.findall(
                strip_comments(file.read())) if name != "kType" and name.endswith("Type")}
    return found


def frame_constants() -> dict[str, str]:
    """The string constants of protocol/frame.h, constant name -> value."""
    with open(os.path.join(PROTOCOL, "frame.h"), encoding="utf-8") as file:
        return dict(STRING_CONSTANT.findall(strip_comments(file.read())))


class HeaderParsingTest(unittest.TestCase):
    def test_k_type_regex_reads_a_struct_constant(self) -> None:
        source = strip_comments('struct FooRequest {\n'
                                '  static constexpr std::string_view kType = "Foo";\n'
                                '  // static constexpr std::string_view kType = "Commented";\n'
                                '  int x = 0;\n};\n'
                                'struct Bar { static constexpr auto kType="Bar"; };\n')
        self.assertEqual(K_TYPE.findall(source), ["Foo", "Bar"])

    def test_frame_h_defines_the_frame_level_names(self) -> None:
        constants = frame_constants()
        self.assertEqual(constants.get("kHeartbeatType"), message_types.HEARTBEAT)
        self.assertEqual(constants.get("kErrorType"), message_types.ERROR)
        self.assertEqual(constants.get("kResponseSuffix"), message_types.RESPONSE_SUFFIX)


class MessageTypesTest(unittest.TestCase):
    def test_every_name_is_declared_in_the_protocol_headers(self) -> None:
        k_types = header_k_types()
        constants = type_constants()
        missing = [f"message_types.{constant} = {value!r}"
                   for constant, value in message_types.MESSAGE_TYPES.items()
                   if value not in k_types and value not in constants]
        self.assertEqual(missing, [], "not a kType nor a k...Type constant in protocol/*.h; "
                         f"kType values found: {sorted(k_types)}, "
                         f"k...Type constants found: {sorted(constants)}")

    def test_every_reply_is_declared_in_the_protocol_headers(self) -> None:
        k_types = header_k_types()
        missing = sorted(message_types.response_type(name)
                         for name in message_types.REQUEST_TYPES
                         if message_types.response_type(name) not in k_types)
        self.assertEqual(missing, [], "replies of message_types.REQUEST_TYPES that are not a "
                         f"kType in protocol/*.h; kType values found: {sorted(k_types)}")

    def test_frame_level_names_come_from_frame_h(self) -> None:
        frame_level = {value for name, value in frame_constants().items()
                       if name.endswith("Type")}
        self.assertLessEqual(set(message_types.FRAME_LEVEL_TYPES), frame_level)

    def test_table_is_complete_and_unique(self) -> None:
        values = list(message_types.MESSAGE_TYPES.values())
        self.assertEqual(len(values), len(set(values)), f"duplicate names in {values}")
        for constant, value in message_types.MESSAGE_TYPES.items():
            self.assertEqual(getattr(message_types, constant), value, constant)
        self.assertLessEqual(set(message_types.REQUEST_TYPES), set(values))
        self.assertLessEqual(set(message_types.FRAME_LEVEL_TYPES), set(values))

    def test_replies_follow_the_response_convention(self) -> None:
        self.assertEqual(message_types.response_type("NotifyReady"), "NotifyReadyResponse")
        self.assertTrue(message_types.is_reply_type("StepResponse"))
        self.assertTrue(message_types.is_reply_type(message_types.ERROR))
        self.assertFalse(message_types.is_reply_type(message_types.STEP))
        self.assertFalse(message_types.is_reply_type(message_types.HEARTBEAT))


class NoLiteralTypeNamesTest(unittest.TestCase):
    def test_other_modules_use_the_table(self) -> None:
        names = set(message_types.MESSAGE_TYPES.values())
        names |= {message_types.response_type(name) for name in message_types.REQUEST_TYPES}
        names.add(message_types.RESPONSE_SUFFIX)
        word = re.compile(r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
        offenders = []
        for path in sorted(glob.glob(os.path.join(PACKAGE, "*.py"))):
            if os.path.basename(path) == "message_types.py":
                continue
            with open(path, encoding="utf-8") as file:
                tree = ast.parse(file.read(), path)
            # Docstrings and __all__ (Python names such as the class Step) are not frame types.
            skipped = {id(node.body[0].value) for node in ast.walk(tree)
                       if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                       and node.body and isinstance(node.body[0], ast.Expr)
                       and isinstance(node.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and any(
                        isinstance(target, ast.Name) and target.id == "__all__"
                        for target in node.targets):
                    skipped |= {id(child) for child in ast.walk(node.value)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and id(node) not in skipped and word.search(node.value):
                    offenders.append(f"{os.path.basename(path)}:{node.lineno}: {node.value!r}")
        self.assertEqual(offenders, [], "type names spelled outside message_types.py")


if __name__ == "__main__":
    unittest.main()
