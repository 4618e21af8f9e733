"""tests/bench/simbench.py: what the benchmarks that run `untangle detect` against the
simulated runner share (tests/bench/detect/run, tests/bench/real/run). Not a benchmark
itself; each run script puts this folder on sys.path and imports from here.

  HarnessError        something the benchmark itself needs went wrong (the scripts exit 2)
  env_int, env_float  a number from the environment, or the default; a bad value is a
                      HarnessError naming the variable
  say                 a progress line on stderr
  build_untangle      UT_BIN, or build-rel built in Release (cmake, -DUT_TESTS=OFF)
  compile_simrun      the simulated runner (tests/sim/simrun.c and sim.c, the behaviour the
                      detect unit tests share) compiled with cc -O2 into a folder
                      (tests/sim/simsuite.py's compile)
  read_suite          suite.tsv: order, durations, true prerequisites, non-monotone pairs,
                      index by id
  sim_fails_at        the first test of a schedule that fails in the simulator's truth
  stop, run_detect    `untangle detect -C DIR --strategy S --workers W --quiet --json` in
                      its own session, stopped (SIGTERM to its group, then SIGKILL) after
                      a wall-time budget; stdout and stderr go to DIR/detect.out, .err
  journal_figures     schedules, executions and simulated walls (1 and SIM_WORKERS workers,
                      or any list of worker counts) of a .untangle/journal.jsonl, and its
                      batches: the rounds of the search with unlimited workers
  closures            transitive prerequisites of every test for a direct-prerequisite map
  hours               seconds as "N.N min" or "N.N h"
"""
import heapq
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "sim"))
import simsuite  # noqa: E402
import ujournal  # noqa: E402

BENCH = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(BENCH))
SIM_WORKERS = 4


class HarnessError(Exception):
    """Something the benchmark itself needs went wrong: exit 2."""


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        raise HarnessError(f"{name}: expected a whole number, got '{os.environ[name]}'")


def env_float(name, default):
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        raise HarnessError(f"{name}: expected a number, got '{os.environ[name]}'")


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def build_untangle():
    if os.environ.get("UT_BIN"):
        binary = os.path.abspath(os.environ["UT_BIN"])
    else:
        build = os.path.join(ROOT, "build-rel")
        say(f"bench: building {build} (Release)")
        for cmd in (["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DUT_TESTS=OFF"], ["cmake", "--build", build, "-j2"]):
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode:
                raise HarnessError(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
        binary = os.path.join(build, "untangle")
    if not os.access(binary, os.X_OK):
        raise HarnessError(f"'{binary}' is not executable")
    return binary


def compile_simrun(work):
    try:
        return simsuite.compile(work)
    except RuntimeError as e:
        raise HarnessError(str(e))


def read_suite(path):
    """suite.tsv: order, durations and true prerequisites by id, and the non-monotone
    pairs (broken[t] = (X, Y or None): t fails after X unless Y ran too; tests/sim/sim.h)."""
    order, duration, prereqs, broken = [], {}, {}, {}
    lineno = 0
    try:
        with open(path) as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t") + ["", "", "", "", ""]
                order.append(fields[0])
                duration[fields[0]] = float(fields[1])
                prereqs[fields[0]] = [p for p in fields[2].split(",") if p]
                if fields[5]:
                    broken[fields[0]] = (fields[5], fields[6] or None)
    except (OSError, ValueError, IndexError) as e:
        raise HarnessError(f"{path}:{lineno}: {e}")
    return {"order": order, "duration": duration, "prereqs": prereqs, "broken": broken,
            "index": {t: i for i, t in enumerate(order)}}


def sim_fails_at(suite, sched):
    """The first test of sched (in order) that fails in the simulated runner's truth
    (a true prerequisite not before it, or a breaker before it without its rescuer;
    flaky and intermittent turns aside), or None when the schedule passes."""
    seen = set()
    for t in sched:
        x, y = suite.get("broken", {}).get(t, (None, None))
        if any(p not in seen for p in suite["prereqs"].get(t, ())) or \
                (x in seen and (y is None or y not in seen)):
            return t
        seen.add(t)
    return None


def stop(p):
    """Stops the detect process p and its children (its session, by process group id):
    untangle kills its runner's process group on SIGTERM and keeps the journal."""
    os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def run_detect(untangle, project, strategy, workers, budget):
    """Runs detect; returns (exit code or None when stopped, wall s, stdout, stderr)."""
    cmd = [untangle, "detect", "-C", project, "--strategy", strategy, "--workers",
           str(workers), "--quiet", "--json"]
    t0 = time.monotonic()
    with open(os.path.join(project, "detect.out"), "w+") as out, \
            open(os.path.join(project, "detect.err"), "w+") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
        try:
            rc = p.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            rc = None
            stop(p)
        except BaseException:
            stop(p)         # its own session: Ctrl-C does not reach it
            raise
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return rc, wall, out.read(), err.read()


def journal_figures(path, suite, reset_s, fail_factor=1.0, workers=()):
    """Schedules, executions and simulated wall times from a journal, read as a stream
    (tedd on 1,000 tests writes hundreds of megabytes). A failing execution costs
    fail_factor times its test's duration (SIMRUN_FAIL_FACTOR of the simulated runner).

    wall1 and wall4 are the simulated walls with 1 and SIM_WORKERS workers; walls maps each
    count of workers (SIM_WORKERS and those given) to its wall. batches is the number of
    batches, which run one after another whatever the workers: the critical path of the
    search, in rounds; wall_unlimited its wall with as many workers as any batch has runs
    (the longest run of each batch)."""
    runs = execs = 0
    wall1 = 0.0
    batches = {}        # batch key -> list of run costs, in journal order
    order = []          # batch keys in order of first appearance
    try:
        fh = open(path)
    except OSError as e:
        raise HarnessError(f"{path}: {e.strerror}")
    with fh:
        header = fh.readline()
        if not header.startswith("{"):
            raise HarnessError(f"{path}:1: no journal header")
        ids = json.loads(header).get("ids") or []
        for lineno, line in enumerate(fh, 2):
            if not line.endswith("\n"):
                break               # a line cut by the stop: not a finished run
            try:
                rec = json.loads(line)
                if rec.get("finished"):
                    continue
                ids_run = [ids[i] for i in ujournal.indices(rec["t"])]
                outcomes = [ujournal.OUTCOMES[c] for c in rec["o"]]
            except (ValueError, KeyError, IndexError) as e:
                raise HarnessError(f"{path}:{lineno}: {e}")
            cost = reset_s + sum(suite["duration"].get(t, 0.0)
                                 * (fail_factor if o in ("fail", "error") else 1.0)
                                 for t, o in zip(ids_run, outcomes) if o != "not-run")
            runs += 1
            execs += len(ids_run)
            wall1 += cost
            key = ("batch", rec["batch"]) if rec.get("batch") is not None else ("run", runs)
            if key not in batches:
                batches[key] = []
                order.append(key)
            batches[key].append(cost)
    walls = {w: 0.0 for w in sorted({SIM_WORKERS, *workers})}
    for key in order:
        # Longest first, as untangle's dispatcher hands them out (by the durations it
        # knows); journal order is the order runs happened to end in.
        costs = sorted(batches[key], reverse=True)
        for w in walls:
            free = [0.0] * w
            for cost in costs:
                heapq.heappush(free, heapq.heappop(free) + cost)
            walls[w] += max(free)
    return {"runs": runs, "execs": execs, "wall1": wall1, "wall4": walls[SIM_WORKERS],
            "walls": walls, "batches": len(order),
            "wall_unlimited": sum(max(batches[key]) for key in order)}


def closures(tests, direct):
    """The transitive prerequisites of every test (memoised depth-first search)."""
    memo = {}

    def closure(t, stack=()):
        if t in memo:
            return memo[t]
        if t in stack:
            raise HarnessError(f"the output graph has a cycle through '{t}'")
        out = set()
        for p in direct.get(t, ()):
            out.add(p)
            out |= closure(p, stack + (t,))
        memo[t] = out
        return out

    sys.setrecursionlimit(max(10000, 4 * len(tests)))
    return {t: closure(t) for t in tests}


def hours(s):
    return f"{s / 60:.1f} min" if s < 3600 else f"{s / 3600:.1f} h"
