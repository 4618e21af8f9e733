#!/usr/bin/python3
"""gen.py: a generated minimisation instance for tests/bench/minimize/run.

    gen.py --tests N --elements E --out DIR [--seed S]

Writes a project folder that `untangle minimize -C DIR --coverage coverage.json` reads:

  untangle.json        {} (defaults: the graph is .untangle/graph.json)
  .untangle/graph.json N tests (tests/test_partNN.py::test_K) with durations 0.5-10 s
                       and manifest edges, every one to an earlier test
  coverage.json        test id -> covered elements ("src/mod_M.js:L")
  bench.json           the generator's parameters and the shape of what it made

Shape, seeded and deterministic for a given (N, E, seed), modelled on a web app's line
coverage:
  - the elements fall into features (modules of 10 to 60 lines); 300 common lines
    (start-up, login, layout; at most 2% of the elements) are covered by nearly every test;
  - each test exercises 1 to 4 features, drawn with Zipf-like popularity (rank^-0.8), so
    a handful of features are exercised by hundreds of tests and many by one or two;
    in each it covers the module's first third (its entry path) and a random
    20-90% of the other lines (branches it took);
  - every element is covered by at least one test: lines no test reached are given to a
    test of that feature, so some elements have exactly one coverer;
  - a third of the tests depend on 1 or 2 earlier tests, 80% of them within the 20 tests
    before (a create/edit chain), the rest anywhere earlier (shared set-up data).
Durations: 0.5 s plus a gamma-distributed rest, capped at 10 s (most tests are short).
"""
import argparse
import json
import os
import random

COMMON = 300            # elements covered by nearly every test (at most 2%)
P_COMMON = 0.95         # a test covers a common line with this chance
P_DEPENDENT = 1 / 3
P_NEAR = 0.8
NEAR = 20
FILES = 100             # test files the tests are spread over


def features(rng, first, last):
    """Splits element numbers [first, last) into modules of 10 to 60 lines."""
    out, at = [], first
    while at < last:
        size = min(rng.randint(10, 60), last - at)
        out.append(range(at, at + size))
        at += size
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", type=int, required=True)
    ap.add_argument("--elements", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(f"{a.seed}:{a.tests}:{a.elements}")
    n, ne = a.tests, a.elements
    ncommon = max(1, min(COMMON, ne // 50))
    mods = features(rng, ncommon, ne)
    weights = [(r + 1) ** -0.8 for r in range(len(mods))]
    rng.shuffle(weights)  # popularity does not follow element numbering
    per_file = max(1, (n + FILES - 1) // FILES)
    ids = [f"tests/test_part{t // per_file:02d}.py::test_{t + 1}" for t in range(n)]

    covered = [set() for _ in range(n)]
    users = [[] for _ in mods]
    for t in range(n):
        for e in range(ncommon):
            if rng.random() < P_COMMON:
                covered[t].add(e)
        for m in set(rng.choices(range(len(mods)), weights, k=rng.randint(1, 4))):
            users[m].append(t)
            core = mods[m][:max(1, len(mods[m]) // 3)]
            share = rng.uniform(0.2, 0.9)
            covered[t].update(core)
            covered[t].update(e for e in mods[m] if rng.random() < share)
    reached = set().union(*covered)
    for m, mod in enumerate(mods):
        for e in mod:
            if e not in reached:
                covered[rng.choice(users[m]) if users[m] else rng.randrange(n)].add(e)
    for e in range(ncommon):
        if e not in reached:
            covered[rng.randrange(n)].add(e)

    edges = []
    for t in range(1, n):
        if rng.random() >= P_DEPENDENT:
            continue
        for d in set(rng.randrange(max(0, t - NEAR), t) if rng.random() < P_NEAR
                     else rng.randrange(t) for _ in range(rng.randint(1, 2))):
            edges.append((t, d))
    durations = [round(min(10.0, 0.5 + rng.gammavariate(1.5, 1.5)), 3) for _ in range(n)]

    os.makedirs(os.path.join(a.out, ".untangle"), exist_ok=True)
    graph = {
        "version": 1, "commit": None,
        "tests": [{"id": ids[t], "name": f"test_{t + 1}", "file": ids[t].split("::")[0],
                   "line": 1 + 10 * (t % per_file), "index": t, "duration_s": durations[t]}
                  for t in range(n)],
        "edges": [{"dependent": ids[t], "dependee": ids[d], "status": "manifest",
                   "origin": "string-analysis", "values": [], "evidence": []}
                  for t, d in edges],
    }
    with open(os.path.join(a.out, "untangle.json"), "w") as f:
        f.write("{}\n")
    with open(os.path.join(a.out, ".untangle", "graph.json"), "w") as f:
        json.dump(graph, f)
    with open(os.path.join(a.out, "coverage.json"), "w") as f:
        json.dump({ids[t]: [f"e{e}" for e in sorted(covered[t])] for t in range(n)}, f)
    coverers = [0] * ne
    for c in covered:
        for e in c:
            coverers[e] += 1
    shape = {"tests": n, "elements": ne, "edges": len(edges), "seed": a.seed,
             "pairs": sum(len(c) for c in covered),
             "single_coverer": sum(1 for c in coverers if c == 1),
             "duration_s": round(sum(durations), 3)}
    with open(os.path.join(a.out, "bench.json"), "w") as f:
        json.dump(shape, f)
    print(json.dumps(shape))


if __name__ == "__main__":
    main()
