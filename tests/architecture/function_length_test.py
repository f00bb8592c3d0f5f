#!/usr/bin/env python3
"""Short functions, checked from the sources.

Fails, naming the file, the line and the length, when a function defined at the top level of a
C++ source (a free function, a member function defined outside its class, a TEST body) spans more
than MAX_LINES lines, from the line of its name to its closing brace. Comments, string and
character literals (raw strings too) are read past, so braces in them do not count.
Usage: function_length_test.py SOURCE_DIR
"""
import os
import re
import sys

MAX_LINES = 80
SKIP_DIRS = {'.git', 'node_modules', '__pycache__'}
SOURCE_ENDINGS = ('.h', '.cpp', '.cc', '.hpp')
RAW_STRING = re.compile(r'R"([^(\s]{0,16})\(')
MACRO_CALL = re.compile(r'^[A-Z][A-Z0-9_]*\(')


def source_files(root):
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not
                         (rel == '.' and (d.startswith('build') or d.startswith('out'))))
        for name in sorted(files):
            if name.endswith(SOURCE_ENDINGS):
                yield os.path.normpath(os.path.join(rel, name))


def skip_literal(text, i):
    """The index past the comment or literal that starts at i, or None when none starts there."""
    if text.startswith('//', i):
        end = text.find('\n', i)
        return len(text) if end < 0 else end
    if text.startswith('/*', i):
        end = text.find('*/', i)
        return len(text) if end < 0 else end + 2
    raw = RAW_STRING.match(text, i)
    if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
        closing = ')' + raw.group(1) + '"'
        end = text.find(closing, raw.end())
        return len(text) if end < 0 else end + len(closing)
    quote = text[i]
    if quote == '"' or (quote == "'" and not (i > 0 and text[i - 1].isalnum())):
        j = i + 1
        while j < len(text) and text[j] != quote and text[j] != '\n':
            j += 2 if text[j] == '\\' else 1
        return j + 1
    return None


def code_only(text):
    """The text with comments and literals blanked out; the line breaks stay."""
    out = []
    i = 0
    while i < len(text):
        end = skip_literal(text, i)
        if end is None:
            out.append(text[i])
            i += 1
        else:
            out.append('""' + '\n' * text.count('\n', i, end))
            i = end
    return ''.join(out)


def starts_function(lines, i):
    """Whether line i (unindented) opens a function definition: a name and '(' not ending in ';'."""
    line = lines[i]
    if not line or line[0].isspace() or '(' not in line:
        return False
    if line.startswith(('#', 'namespace', '}', 'struct', 'class', 'using', 'enum')):
        return False
    if MACRO_CALL.match(line) and line.rstrip().endswith(')'):
        return False  # a macro that defines things (ASG_DEFINE_JSON(T)), not a body
    return not line.rstrip().endswith(';')


def long_functions(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = code_only(f.read()).split('\n')
    i = 0
    while i < len(lines):
        if not starts_function(lines, i):
            i += 1
            continue
        j = i
        while j < len(lines) and '{' not in lines[j] and not lines[j].rstrip().endswith(';'):
            j += 1
        if j == len(lines) or '{' not in lines[j]:
            i = j + 1
            continue
        depth = 0
        k = j
        while k < len(lines):
            depth += lines[k].count('{') - lines[k].count('}')
            if depth <= 0:
                break
            k += 1
        if k - i + 1 > MAX_LINES:
            yield i + 1, k - i + 1, lines[i].strip()
        i = k + 1


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    problems = []
    for rel in source_files(root):
        for line, length, head in long_functions(os.path.join(root, rel)):
            problems.append(f'{rel}:{line}: {length} lines (at most {MAX_LINES}): {head[:80]}')
    for problem in problems:
        print(problem)
    print(f'function length: {len(problems)} function(s) over {MAX_LINES} lines')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
