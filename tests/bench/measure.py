#!/usr/bin/python3
"""measure.py: times `untangle tests` on one generated suite and checks it against the targets.

    measure.py --bin UNTANGLE --dir SUITE --lang NAME --tests N --files F --bytes B
               [--runs R] [--cpu C] [--cores LIST] [--min-rate 20000] [--max-mb 300]

Runs `untangle tests --json -C SUITE` and `untangle tests --actions -C SUITE` R times each (output
to /dev/null), pinned to CPU C with taskset when it is available, and takes each run's
wall time and peak RSS from wait4(). First checks that the JSON output holds exactly N
tests. Prints one line per output mode; exits 1 when a target is missed or the count is
wrong, 2 when untangle fails.

With --cores LIST (taskset's form, e.g. 0-1), `untangle tests --json` is then run R times
pinned to those cores with its default --jobs (one thread per core it may use), each run
right after a one-core run, and its best wall time is compared with the one-core best (of
all one-core JSON runs): the target is at most 60% of it. The median of the pairs'
ratios is printed beside it: the figure a machine whose speed varies distorts least.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run_once(argv, stdout, stderr=subprocess.DEVNULL):
    """(wall seconds, cpu seconds, peak RSS in MB, exit status) of one run."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in KiB on Linux
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, proc.returncode


def count_tests(binary, suite):
    """(tests in the JSON output, exit status). The JSON is read by a separate Python: a
    child inherits the RSS its parent had when it forked in ru_maxrss, and this process
    would be hundreds of MB after loading the output of 10,000 tests."""
    with tempfile.TemporaryFile() as err:
        prog = subprocess.Popen([binary, "tests", "--json", "-C", suite],
                                stdout=subprocess.PIPE, stderr=err)
        counter = subprocess.run(
            [sys.executable, "-c", "import json, sys; print(len(json.load(sys.stdin)['tests']))"],
            stdin=prog.stdout, stdout=subprocess.PIPE, check=False)
        prog.stdout.close()
        if prog.wait() != 0:
            err.seek(0)
            sys.stderr.write(err.read().decode("utf-8", "replace"))
            return None, prog.returncode
    if counter.returncode != 0:
        return None, 2
    return int(counter.stdout), 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--lang", required=True)
    ap.add_argument("--tests", required=True, type=int)
    ap.add_argument("--files", required=True, type=int)
    ap.add_argument("--bytes", required=True, type=int)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu", default="0")
    ap.add_argument("--cores", default="")
    ap.add_argument("--min-rate", type=float, default=20000.0)
    ap.add_argument("--max-mb", type=float, default=300.0)
    args = ap.parse_args()

    found, rc = count_tests(args.bin, args.dir)
    if found is None:
        print("%-10s untangle failed (exit %d)" % (args.lang, rc))
        return 2
    ok = True
    if found != args.tests:
        print("%-10s FAIL: %d tests parsed, %d generated" % (args.lang, found, args.tests))
        ok = False

    pin = ["taskset", "-c", args.cpu] if shutil.which("taskset") else []
    one_core = {}
    with open(os.devnull, "wb") as null:
        for mode, extra in (("json", ["--json"]), ("text", ["--actions"])):
            argv = pin + [args.bin, "tests"] + extra + ["-C", args.dir]
            runs = []
            for _ in range(args.runs):
                wall, cpu, mb, code = run_once(argv, null)
                if code != 0:
                    print("%-10s %s: untangle exited %d" % (args.lang, mode, code))
                    return 2
                runs.append((wall, cpu, mb))
            wall = min(r[0] for r in runs)
            cpu = min(r[1] for r in runs)
            mb = max(r[2] for r in runs)
            one_core[mode] = wall
            rate = args.tests / wall
            good = rate >= args.min_rate and mb < args.max_mb
            ok = ok and good
            print("%-10s %-4s %6d tests %5d files %6.1f MB src | wall %6.2f s  cpu %6.2f s | "
                  "%7.0f tests/s (cpu %7.0f) | peak %6.1f MB | %s"
                  % (args.lang, mode, found, args.files, args.bytes / 1e6, wall, cpu, rate,
                     args.tests / cpu if cpu else 0.0, mb,
                     "PASS" if good else "FAIL"))
        if args.cores and pin:
            # one-core and several-core runs alternate, so that both meet the same load on a
            # shared machine; the one-core runs join those above
            one = pin + [args.bin, "tests", "--json", "-C", args.dir]
            several = ["taskset", "-c", args.cores, args.bin, "tests", "--json", "-C", args.dir]
            runs, ratios = [], []
            for _ in range(args.runs):
                w1, _, _, code1 = run_once(one, null)
                wall, cpu, mb, code = run_once(several, null)
                if code1 != 0 or code != 0:
                    print("%-10s cores %s: untangle exited %d" % (args.lang, args.cores,
                                                                  code or code1))
                    return 2
                one_core["json"] = min(one_core["json"], w1)
                runs.append((wall, cpu, mb))
                ratios.append(wall / w1)
            wall = min(r[0] for r in runs)
            share = wall / one_core["json"]
            ratios.sort()
            good = share <= 0.60
            ok = ok and good
            print("%-10s json on cores %s: wall %6.2f s  cpu %6.2f s | %7.0f tests/s | "
                  "%3.0f%% of one core's best wall %.2f s (pairs run in turn: median %.0f%%) "
                  "| peak %6.1f MB | %s"
                  % (args.lang, args.cores, wall, min(r[1] for r in runs), args.tests / wall,
                     100 * share, one_core["json"], 100 * ratios[len(ratios) // 2],
                     max(r[2] for r in runs), "PASS" if good else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
