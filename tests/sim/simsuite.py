"""simsuite: the simulated runner (tests/sim/simrun.c, the behaviour of sim.h) for the
Python test scripts and benchmarks, which put tests/sim on sys.path and import this.

    simrun()                   the executable: UT_SIMRUN (ctest sets it to the build's target
                               simrun), else compiled once by compile() into a temporary
                               folder removed at exit
    compile(folder)            cc -O2 of simrun.c and sim.c into folder/simrun; its path.
                               RuntimeError with cc's message when it fails
    write(path, tests, **run)  a suite file for simrun --suite. tests: dicts with "id" and
                               any of "duration" (s, default 0.1), "prereqs" (ids),
                               "flaky" (k), "intermittent" (n), "broken_by" and "unless"
                               (ids), "hang", "crash" (true), "outcome" ("error",
                               "skipped", "absent"), "message". run: the faults of whole
                               runs, sleep=S, no_report, corrupt_report, fail_all (true),
                               no_report_runs, hang_runs (lists of invocation numbers)
    read(path)                 (tests, run) of a suite file that write() wrote, to be
                               changed and written again
    set_run(path, **run)       the faults of whole runs changed in a suite file, the tests
                               kept (a false or empty value removes one)

simrun.c's usage text says what each of them does."""
import atexit
import os
import shutil
import subprocess
import tempfile

SIM = os.path.dirname(os.path.realpath(__file__))
COLUMNS = ("flaky", "intermittent", "broken_by", "unless")
FAULTS = ("hang", "crash", "outcome", "message")
RUN = ("sleep", "no_report", "corrupt_report", "fail_all", "no_report_runs", "hang_runs")
_built = []


def compile(folder):
    out = os.path.join(folder, "simrun")
    r = subprocess.run(["cc", "-O2", "-std=c11", "-Wall", "-Wextra", "-o", out,
                        os.path.join(SIM, "simrun.c"), os.path.join(SIM, "sim.c")],
                       stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise RuntimeError(f"{SIM}/simrun.c: cc failed:\n{r.stderr}")
    return out


def simrun():
    if os.environ.get("UT_SIMRUN"):
        return os.path.abspath(os.environ["UT_SIMRUN"])
    if not _built:
        folder = tempfile.mkdtemp(prefix="ut-simrun-")
        os.chmod(folder, 0o755)  # a test may run untangle as another user
        atexit.register(shutil.rmtree, folder, True)
        _built.append(compile(folder))
    return _built[0]


def _line(t):
    unknown = set(t) - {"id", "duration", "prereqs", *COLUMNS, *FAULTS}
    if unknown:
        raise ValueError(f"simsuite: {t['id']}: unknown keys {sorted(unknown)}")
    fields = [t["id"], str(t.get("duration", 0.1)), ",".join(t.get("prereqs") or [])]
    fields += [str(t.get(k) or "") for k in COLUMNS]
    fields += [k for k in ("hang", "crash") if t.get(k)]
    fields += [f"{k}={t[k]}" for k in ("outcome", "message") if t.get(k)]
    if any("\t" in f or "\n" in f for f in fields):
        raise ValueError(f"simsuite: {t['id']}: a tab or newline in a field")
    return "\t".join(fields).rstrip("\t")


def _directives(run):
    unknown = set(run) - set(RUN)
    if unknown:
        raise ValueError(f"simsuite: unknown faults of whole runs {sorted(unknown)}")
    out = []
    for k in RUN:
        v = run.get(k)
        if not v:
            continue
        if k == "sleep":
            out.append(f"%sleep {v}")
        elif k.endswith("_runs"):
            out.append(f"%{k} {','.join(str(n) for n in v)}")
        else:
            out.append(f"%{k}")
    return out


def write(path, tests, **run):
    lines = ["# id, duration_s, prereqs, flaky, intermittent, broken_by, unless, faults "
             "(tests/sim/simrun.c)"]
    lines += _directives(run) + [_line(t) for t in tests]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def read(path):
    tests, run = [], {}
    with open(path) as f:
        for ln in f.read().splitlines():
            if ln.startswith("%"):
                k, _, v = ln[1:].partition(" ")
                run[k] = (float(v) if k == "sleep" else
                          [int(n) for n in v.split(",")] if k.endswith("_runs") else True)
            elif ln and not ln.startswith("#"):
                tests.append(_test(ln.split("\t")))
    return tests, run


def _test(fields):
    fields += [""] * (7 - len(fields))
    t = {"id": fields[0], "duration": float(fields[1]),
         "prereqs": [p for p in fields[2].split(",") if p]}
    for k, v in zip(COLUMNS, fields[3:7]):
        if v:
            t[k] = int(v) if k in ("flaky", "intermittent") else v
    for f in fields[7:]:
        k, eq, v = f.partition("=")
        t[k] = v if eq else True
    return t


def set_run(path, **run):
    tests, old = read(path)
    old.update(run)
    write(path, tests, **old)
