#!/usr/bin/env python3
"""The project's layering, checked from the sources.

cmake/Modules.cmake is the one table of the modules, lowest first, and what each may use. This
test fails, naming the file and the line, when:
  - a source of a module includes a header of a module its row does not list (tests/<module>/
    may include what <module> may, plus tests/ helpers; experiments/ may include anything);
  - a module's row lists a module that comes after it in the table (dependencies point down);
  - a module's CMakeLists.txt links an asg:: library its row does not list;
  - the module map of docs/development.md differs from the table.
Usage: layering_test.py SOURCE_DIR
"""
import os
import re
import sys

ROW = re.compile(r'^asg_module\(([\w/]+)((?:\s+[\w/]+)*)\s*\)\s*$')
TEST_ROW = re.compile(r'^asg_tests_may_also_use\(([\w/]+)((?:\s+[\w/]+)*)\s*\)')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SKIP_DIRS = {'.git', 'node_modules', '__pycache__'}
SOURCE_ENDINGS = ('.h', '.cpp', '.cc', '.hpp')
MODULE_MAP = 'docs/development.md'  # the document whose table must match the layering


def read_table(root):
    """[(module, [allowed...], line)] in table order, and {module: [more allowed in its tests]}."""
    rows = []
    test_extras = {}
    path = os.path.join(root, 'cmake', 'Modules.cmake')
    with open(path) as f:
        for number, line in enumerate(f, 1):
            m = ROW.match(line)
            if m:
                rows.append((m.group(1), m.group(2).split(), number))
            m = TEST_ROW.match(line)
            if m:
                test_extras.setdefault(m.group(1), []).extend(m.group(2).split())
    return rows, test_extras


def module_of(path, modules):
    """The longest module whose folder holds `path` (a repository-relative path), or None."""
    best = None
    for module in modules:
        if path == module or path.startswith(module + '/'):
            if best is None or len(module) > len(best):
                best = module
    return best


def source_files(root):
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        top = rel.split(os.sep)[0]
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not
                         (rel == '.' and (d.startswith('build') or d.startswith('out'))))
        if top.startswith('build') or top.startswith('out'):
            continue
        for name in sorted(files):
            if name.endswith(SOURCE_ENDINGS):
                yield os.path.normpath(os.path.join(rel, name))


def check_table(rows):
    errors = []
    position = {}
    for index, (module, allowed, line) in enumerate(rows):
        if module in position:
            errors.append(f'cmake/Modules.cmake:{line}: {module} is listed twice')
        position[module] = index
        for used in allowed:
            if used not in position:
                errors.append(f'cmake/Modules.cmake:{line}: {module} may use {used}, which is not '
                              f'a module listed before it (dependencies point down the table)')
    return errors


def check_includes(root, rows, test_extras):
    allowed = {module: set(uses) for module, uses, _ in rows}
    modules = list(allowed)
    errors = []
    for path in source_files(root):
        top = path.split('/')[0]
        if top == 'experiments':
            continue
        in_tests = top == 'tests'
        owner = module_of(path[len('tests/'):] if in_tests else path, modules)
        if owner is None:
            continue
        with open(os.path.join(root, path), errors='replace') as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                if target.startswith('tests/'):
                    if not in_tests:
                        errors.append(f'{path}:{number}: includes the test helper {target}')
                    continue
                used = module_of(target, modules)
                if used is None or used == owner or used in allowed[owner]:
                    continue
                if in_tests and used in test_extras.get(owner, []):
                    continue
                errors.append(f'{path}:{number}: {owner} includes {target} of {used}, which '
                              f'{owner} may not use (cmake/Modules.cmake: {owner} may use '
                              f'{" ".join(sorted(allowed[owner])) or "nothing"})')
    return errors


def check_link_deps(root, rows):
    allowed = {module: set(uses) for module, uses, _ in rows}
    errors = []
    for module in allowed:
        path = os.path.join(root, module, 'CMakeLists.txt')
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
        # Only the module's own library call is read: sub-folders have their own file.
        for m in re.finditer(r'asg::(\w+)', text):
            used = m.group(1).replace('_', '/', 1) if m.group(1).startswith('client_') else m.group(1)
            if used == module or used not in allowed:
                continue
            if used not in allowed[module]:
                line = text[:m.start()].count('\n') + 1
                errors.append(f'{module}/CMakeLists.txt:{line}: links asg::{m.group(1)}, which '
                              f'{module} may not use')
    return errors


def check_module_map(root, rows):
    """The module map of MODULE_MAP: a table row per module, `| `module/` | owns | may use |`."""
    path = os.path.join(root, MODULE_MAP)
    with open(path) as f:
        lines = f.read().split('\n')
    found = {}
    for number, line in enumerate(lines, 1):
        m = re.match(r'^\|\s*`([\w/]+)/`\s*\|[^|]*\|([^|]*)\|\s*$', line)
        if m:
            uses = re.findall(r'`([\w/]+)/?`', m.group(2))
            found[m.group(1)] = (sorted(u.rstrip('/') for u in uses), number)
    errors = []
    for module, allowed, _ in rows:
        if module not in found:
            errors.append(f'{MODULE_MAP}: the module map has no row for `{module}/`')
        elif found[module][0] != sorted(allowed):
            errors.append(f'{MODULE_MAP}:{found[module][1]}: `{module}/` may use '
                          f'{" ".join(found[module][0]) or "nothing"} in the module map, but '
                          f'{" ".join(sorted(allowed)) or "nothing"} in cmake/Modules.cmake')
    for module, (_, number) in found.items():
        if module not in dict((r[0], 1) for r in rows):
            errors.append(f'{MODULE_MAP}:{number}: the module map lists `{module}/`, which '
                          f'cmake/Modules.cmake does not')
    return errors


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    rows, test_extras = read_table(root)
    if not rows:
        print('layering: no asg_module rows in cmake/Modules.cmake')
        return 1
    errors = (check_table(rows) + check_includes(root, rows, test_extras) + check_link_deps(root, rows) +
              check_module_map(root, rows))
    for error in errors:
        print(error)
    print(f'layering: {len(rows)} modules, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
