#!/usr/bin/env python3
"""pytest-list.py: the tests pytest collects, in pytest's order, as JSON Lines (the list
contract of docs/collection.md).

usage: python3 pytest-list.py --list FILE [-- PYTEST_ARGS...]

Runs pytest's own collection (`--collect-only`, the project's ini file, conftest.py files
and plugins applied) in the current folder, the project, and writes one line per item:
{"id", "file", "line", "name"}, the id relative to the current folder even when pytest's
rootdir is a parent. A module pytest cannot collect is an {"error", "file", "line"} line and
the others are still listed. Exit 0 when the list is written (also empty), 2 on a usage
error, 3 when pytest cannot be imported or cannot start (its output says why).
"""
import json
import os
import re
import sys

# pytest's own options first; the project's (PYTEST_ARGS) may add to them
BASE_ARGS = ["--collect-only", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]


def usage(msg):
    sys.stderr.write(f"pytest-list.py: {msg}\n{__doc__.split(chr(10) + chr(10))[1]}\n")
    return 2


def slash(path):
    return path.replace(os.sep, "/") if os.sep != "/" else path


def rebase_path(part, root, cwd):
    """A path as pytest's node ids write it (relative to the rootdir, '/'-separated, or
    absolute) made relative to cwd."""
    if root == cwd and not os.path.isabs(part):
        return part
    full = part if os.path.isabs(part) else os.path.join(root, part)
    return slash(os.path.relpath(os.path.normpath(full), cwd))


def rebase_id(nodeid, root, cwd):
    head, sep, rest = nodeid.partition("::")
    if not head:
        return nodeid
    return rebase_path(head, root, cwd) + sep + rest


def item_path(item):
    """The item's file: item.path (pytest 7+) or item.fspath (older)."""
    p = getattr(item, "path", None)
    if p is None:
        p = getattr(item, "fspath", None)
    return None if p is None else str(p)


def item_where(item):
    """Where the item is defined: (path as pytest's location gives it, relative to the
    rootdir or absolute, or None; 1-based line, 0 when unknown), from item.location, else
    reportinfo()."""
    try:
        loc = item.location
        if loc and loc[1] is not None:
            return loc[0], int(loc[1]) + 1
    except Exception:  # a plugin's item may fail here: the line is optional
        pass
    try:
        info = item.reportinfo()
        if info and info[1] is not None:
            return str(info[0]), int(info[1]) + 1
    except Exception:
        pass
    return None, 0


def first_line(text, limit=400):
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    # the exception line ("E   ModuleNotFoundError: ...") says most; else the first line
    for ln in reversed(lines):
        if ln.startswith("E ") and len(ln) > 2:
            return ln[1:].strip()[:limit]
    return (lines[0] if lines else "cannot be collected")[:limit]


class Lister:
    """The plugin: keeps the final items and the collection errors."""

    def __init__(self, cwd):
        self.cwd = cwd
        self.root = cwd
        self.items = None
        self.errors = []
        self.deselected = 0
        self.parallel = None

    def pytest_configure(self, config):
        root = getattr(config, "rootpath", None)  # pytest 6.1+
        if root is None:
            root = config.rootdir
        self.root = os.path.normpath(str(root))
        try:  # pytest-xdist's -n from the project's addopts: runs would not keep the order
            n = config.getoption("numprocesses", None)
        except (ValueError, AttributeError):
            n = None
        if n not in (None, 0, "0"):
            self.parallel = n
        inv = getattr(config, "invocation_params", None)
        if inv is not None and getattr(inv, "dir", None) is not None:
            self.cwd = os.path.normpath(str(inv.dir))

    def pytest_deselected(self, items):
        self.deselected += len(items)

    def pytest_collectreport(self, report):
        if not report.failed:
            return
        text = str(report.longrepr)
        path = report.nodeid.partition("::")[0]
        fspath = getattr(report, "fspath", None)
        where = rebase_path(path, self.root, self.cwd) if path else ""
        if not where and fspath:
            where = rebase_path(str(fspath), self.root, self.cwd)
        line = 0
        if where:
            # the module's own line in the traceback: "tests/test_x.py:3: in <module>"
            base = re.escape(os.path.basename(where))
            m = re.search(r"(?:^|[\s/\"])" + base + r"\"?(?:, line |:)(\d+)", text, re.M)
            if m:
                line = int(m.group(1))
        self.errors.append({"error": first_line(text), "file": where, "line": line})

    def pytest_collection_finish(self, session):
        self.items = list(session.items)

    def records(self):
        for item in self.items or []:
            path = item_path(item)
            rec = {"id": rebase_id(item.nodeid, self.root, self.cwd)}
            if path:
                rec["file"] = slash(os.path.relpath(path, self.cwd))
            where, line = item_where(item)
            src = rebase_path(slash(where), self.root, self.cwd) if where else None
            if src and path and src != rec["file"]:
                # defined in another module (a test function or class imported into the
                # module the id names): that one is src
                rec["line"] = 0
                rec["name"] = item.name
                rec["src"], rec["src_line"] = src, line
            else:
                rec["line"] = line
                rec["name"] = item.name
            yield rec
        for err in self.errors:
            yield err
        if self.parallel is not None:
            yield {"note": f"the project's pytest options run tests in parallel (-n "
                           f"{self.parallel}, pytest-xdist): untangle's runs need one process "
                           "in the given order (add -n 0 to runner.command)"}
        if self.deselected:
            yield {"note": f"pytest deselects {self.deselected} tests (-k, -m or a plugin "
                           "in the project's options): they are not listed"}


def main(argv):
    out = None
    extra = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--list" and i + 1 < len(argv):
            out = argv[i + 1]
            i += 2
        elif a.startswith("--list="):
            out = a[len("--list="):]
            i += 1
        elif a == "--":
            extra = argv[i + 1:]
            break
        elif a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        else:
            return usage(f"unknown argument '{a}'")
    if not out:
        return usage("--list FILE is required")
    try:
        import pytest
    except ImportError as e:
        sys.stderr.write(f"pytest-list.py: {sys.executable} cannot import pytest: {e}\n")
        return 3
    sys.dont_write_bytecode = True  # listing leaves no __pycache__ in the project
    lister = Lister(os.getcwd())
    try:
        rc = pytest.main(BASE_ARGS + extra, plugins=[lister])
    except SystemExit as e:  # a plugin or conftest.py that exits
        rc = e.code
    except Exception as e:  # pytest's own error in a conftest.py or a plugin at startup
        import traceback
        traceback.print_exc()
        sys.stderr.write(f"pytest-list.py: pytest could not start: {e}\n")
        return 3
    rc = int(rc) if isinstance(rc, int) or hasattr(rc, "__int__") else 3
    # 0 collected, 5 nothing collected, 2 interrupted by collection errors (listed), 1
    # failures (a plugin's); 3 internal error and 4 usage error: pytest did not collect
    if lister.items is None or rc not in (0, 1, 2, 5):
        sys.stderr.write(f"pytest-list.py: pytest could not collect (exit {rc})\n")
        return 3
    try:
        with open(out, "w", encoding="utf-8") as f:
            for rec in lister.records():
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    except OSError as e:
        sys.stderr.write(f"pytest-list.py: cannot write '{out}': {e}\n")
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
