#!/usr/bin/python3
"""gen.py: a generated end-to-end suite for the detect benchmark (tests/bench/detect/run).

    gen.py --tests N --out DIR --simrun PATH [--seed S] [--reset-s 5]

Writes a project folder that `untangle detect -C DIR` can run:

  tests/test_partNN.py  pytest + Selenium sources in original order (file order, then
                        definition order). Every test logs in with the same e-mail and
                        password; a test submits values with send_keys("...") and uses
                        values with `assert "..." in driver.page_source`.
  suite.tsv             what tests/sim/simrun runs: id, duration, true
                        prerequisites (transitively reduced), flaky period (empty)
  truth.json            the true edges [[dependent_id, dependee_id], ...]
  untangle.json         runner.command = simrun on suite.tsv, reset `true`, reruns 0
  bench.json            the generator's parameters and the shape of what it made

Shapes, seeded and deterministic for a given (N, seed):
  - independent tests (about half of the suite);
  - chains create -> edit -> ... -> delete of 2 to 4 tests, each step needing the one
    before it (it finds the entity by the name the step before gave it);
  - fans: one creator and 2 to 5 users of what it created;
  - some users also need a creator far back (a card on a board made in another file);
  - 5 to 10% of the edges cannot be seen by string analysis: the user asserts a count or
    a derived text and shares no literal with its creator (within 12 tests of it);
  - false candidates: search tests typing an earlier test's value, and a few values that
    several unrelated tests type (comments, dates);
  - about a quarter of the tests have crawler names (test1, test2, ...).
Dependencies always point backward, so every test passes in the original order, and the
true prerequisites are transitively reduced, so each true edge is necessary: the
dependent fails when it runs with all its other prerequisites but not that one.
"""
import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
import gen_suite  # noqa: E402  (the page object and fixture of --real-shape)

LOGIN_EMAIL = "admin@example.com"
LOGIN_PASSWORD = "s3cret-Passw0rd"

ENTITIES = ["board", "list", "card", "user", "team", "label", "comment", "project",
            "ticket", "invoice", "product", "order", "page", "folder", "report", "tag"]
WORDS = ["Groceries", "Roadmap", "Holiday", "Backlog", "Budget", "Garden", "Launch",
         "Recipes", "Sprint", "Archive", "Marketing", "Hiring", "Travel", "Reading"]
CREATE = ["add", "create", "new"]
EDIT = ["rename", "edit", "update", "move"]
DELETE = ["delete", "remove", "archive"]
READ = ["view", "open", "show", "search", "export", "share", "print"]
COUNT = ["count", "check_total", "verify_summary"]
STATIC = ["home_page", "help_page", "about_page", "settings", "profile", "dashboard",
          "search_empty", "language_switch", "dark_mode", "footer_links", "sitemap"]

# Groups, drawn from a deck of 8: 5 single independent tests, 1 chain, 2 fans (about
# half of the tests are independent).
GROUP_MIX = ["independent"] * 5 + ["chain"] + ["fan"] * 2
FAR_EVERY = 7           # one dependent in 7 also needs a creator far back
P_INVISIBLE = 0.07      # of the true edges
NEAR_INVISIBLE = 12     # an invisible edge spans at most this many tests
P_CRAWLER_NAME = 0.25   # of the tests
P_SEARCH_FALSE = 0.25   # of independent tests: type an earlier test's value (false edge)


class Test:
    def __init__(self, kind, entity=None, k=None):
        self.kind = kind            # independent, create, edit, delete, user
        self.entity, self.k = entity, k
        self.prereqs = set()        # indices of true prerequisites
        self.submits, self.uses = [], []
        self.verb = None
        self.name = None
        self.duration = 0.0
        self.value = None           # the entity name this test leaves behind


class Deck:
    """Draws from a shuffled multiset, refilled when empty, so that a 40-test suite has the
    mix of a 1,000-test one (independent draws would make small suites lighter or heavier
    by chance, and the sizes would not compare)."""

    def __init__(self, rng, items):
        self.rng, self.items, self.left = rng, list(items), []

    def draw(self):
        if not self.left:
            self.left = self.items[:]
            self.rng.shuffle(self.left)
        return self.left.pop()


def structure(n, rng):
    """The tests in original order with their (not yet reduced) true prerequisites."""
    tests, creators, counter = [], [], {}
    groups = Deck(rng, GROUP_MIX)
    chain_lengths, fan_users = Deck(rng, [2, 3, 4]), Deck(rng, [2, 3, 4, 5])
    far_links = Deck(rng, [True] + [False] * (FAR_EVERY - 1))
    while len(tests) < n:
        left = n - len(tests)
        kind = groups.draw()
        entity = rng.choice(ENTITIES)
        counter[entity] = counter.get(entity, 0) + 1
        k = counter[entity]
        if kind == "independent" or left < 2:
            tests.append(Test("independent", entity, k))
            continue
        if kind == "chain":
            length = min(chain_lengths.draw(), left)
            kinds = ["create"] + ["edit"] * (length - 2) + ["delete"]
            for i, kind in enumerate(kinds):
                t = Test(kind, entity, k)
                if i:
                    t.prereqs.add(len(tests) - 1)
                tests.append(t)
            creators.append(len(tests) - length)
            continue
        users = min(fan_users.draw(), left - 1)
        creator = len(tests)
        tests.append(Test("create", entity, k))
        for _ in range(users):
            t = Test("user", entity, k)
            t.prereqs.add(creator)
            tests.append(t)
        creators.append(creator)
    # Far prerequisites: a creator at least 20 tests back, any group.
    for i, t in enumerate(tests):
        if not t.prereqs or not far_links.draw():
            continue
        far = [c for c in creators if c < i - 20 and tests[c].entity != t.entity]
        if far:
            t.prereqs.add(rng.choice(far))
    return tests


def reduce_transitively(tests):
    """Drops each prerequisite that another prerequisite already needs (edges point back,
    so one pass in original order computes every closure)."""
    closure = []
    for t in tests:
        reach = set()
        for p in t.prereqs:
            reach |= closure[p] | {p}
        implied = set()
        for p in t.prereqs:
            implied |= closure[p]
        t.prereqs = {p for p in t.prereqs if p not in implied}
        closure.append(reach)


def lognormal_duration(rng):
    """0.5 to 8 s, median 2 s, a long right tail."""
    return round(min(8.0, max(0.5, math.exp(rng.gauss(math.log(2.0), 0.6)))), 1)


def fill(tests, rng):
    """Names, values and durations; returns the invisible edges as a set of (d, e)."""
    edges = [(i, p) for i, t in enumerate(tests) for p in sorted(t.prereqs)]
    # Invisible edges are drawn from the near ones (a count checked in the same feature
    # area, a few tests after the creator): one far back is found only by bisecting every
    # test in between, which costs any search a number of executions proportional to the
    # distance (docs/detection.md, "Strategy fast").
    near = [(i, p) for i, p in edges if i - p <= NEAR_INVISIBLE]
    invisible = set(rng.sample(near, min(len(near), round(P_INVISIBLE * len(edges)))))
    used_names, crawler = set(), 0
    common = [f"Lorem ipsum comment {j}" for j in range(max(2, len(tests) // 40))]
    for i, t in enumerate(tests):
        ent, k = t.entity, t.k
        t.duration = lognormal_duration(rng)
        t.submits = [LOGIN_EMAIL, LOGIN_PASSWORD]
        word = WORDS[(k * 7 + len(ent)) % len(WORDS)]
        if t.kind == "independent":
            t.verb = rng.choice(["view", "open", "check"])
            subject = rng.choice(STATIC)
            t.submits.append(f"Note {i} {word}")
            t.uses.append(f"Welcome to {subject.replace('_', ' ')}")
            if i and rng.random() < P_SEARCH_FALSE:
                # Typing an earlier test's value into a search box needs nothing from it.
                earlier = [tests[j].value for j in range(i) if tests[j].value]
                if earlier:
                    t.verb, subject = "search", f"{ent}s"
                    t.submits.append(rng.choice(earlier))
            desc = f"test_{t.verb}_{subject}_{i}"
        elif t.kind == "create":
            t.verb = rng.choice(CREATE)
            t.value = f"{ent.capitalize()} {k} {word}"
            t.submits.append(t.value)
            t.uses.append(t.value)
            desc = f"test_{t.verb}_{ent}_{k}"
        elif t.kind in ("edit", "delete"):
            prev = tests[i - 1]
            t.verb = rng.choice(EDIT if t.kind == "edit" else DELETE)
            if t.kind == "edit":
                t.value = f"{prev.value} v{i}"
                t.submits.append(t.value)
            desc = f"test_{t.verb}_{ent}_{k}"
        else:
            t.verb = rng.choice(READ)
            desc = f"test_{t.verb}_{ent}_{k}_{i}"
        for p in sorted(t.prereqs):
            if (i, p) in invisible:
                # A count or a derived text: nothing in common with what p typed.
                t.uses.append(f"{rng.randint(2, 40)} {tests[p].entity}s in total")
                if t.kind == "user":
                    t.verb = rng.choice(COUNT)
                    desc = f"test_{t.verb}_{ent}s_{k}_{i}"
            else:
                t.uses.append(tests[p].value)      # finds it by the name p gave it
        if rng.random() < 0.08:
            t.submits.append(rng.choice(common))   # a value unrelated tests share
        if rng.random() < P_CRAWLER_NAME:
            crawler += 1
            t.name = f"test{crawler}"
        else:
            t.name = desc if desc not in used_names else f"{desc}_{i}"
        assert t.name not in used_names, t.name
        used_names.add(t.name)
    return invisible


def split_files(n, rng):
    """File sizes: a few files, 20 to 120 tests each, no file cut below 10."""
    files = max(2, round(n / 90))
    cuts = sorted(rng.sample(range(10, n - 9), files - 1)) if n >= 20 * files else \
        [n * (j + 1) // files for j in range(files - 1)]
    return [b - a for a, b in zip([0] + cuts, cuts + [n])]


# --real-shape: what real suites add around the same tests, as the parse benchmark's
# generator writes them (tests/bench/gen_suite.py): a LoginPage page object signs in with
# the module's login constants, and a pytest fixture in conftest.py opens the application
# and clears its cookies before every test (a hook repeated into each test).
REAL_HEADER = ["from pages import LoginPage", "",
               f'LOGIN_EMAIL = "{LOGIN_EMAIL}"', f'LOGIN_PASSWORD = "{LOGIN_PASSWORD}"']


def render(t, real_shape=False):
    if real_shape:
        lines = [f"def {t.name}(driver):",
                 "    login_page = LoginPage(driver)",
                 "    login_page.login(LOGIN_EMAIL, LOGIN_PASSWORD)"]
    else:
        lines = [f"def {t.name}(driver):",
                 '    driver.get("http://localhost:8080/login")',
                 f'    driver.find_element(By.ID, "email").send_keys("{t.submits[0]}")',
                 f'    driver.find_element(By.ID, "password").send_keys("{t.submits[1]}")',
                 '    driver.find_element(By.ID, "sign-in").click()']
    for v in t.submits[2:]:
        lines.append(f'    driver.find_element(By.NAME, "{t.entity or "field"}").send_keys("{v}")')
        lines.append('    driver.find_element(By.ID, "save").click()')
    for v in t.uses:
        lines.append(f'    assert "{v}" in driver.page_source')
    if real_shape:
        lines.append("    login_page.logout()")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tests", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--simrun", required=True, help="the compiled simrun binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reset-s", type=float, default=5.0, help="simulated reset cost")
    ap.add_argument("--real-shape", action="store_true",
                    help="sign in through a page object, a conftest.py fixture per test")
    args = ap.parse_args()
    if args.tests < 4:
        sys.exit("gen.py: --tests must be at least 4")
    rng = random.Random(f"{args.seed}/{args.tests}")
    tests = structure(args.tests, rng)
    reduce_transitively(tests)
    invisible = fill(tests, rng)

    os.makedirs(os.path.join(args.out, "tests"), exist_ok=True)
    if args.real_shape:
        for rel, text in (("tests/conftest.py", gen_suite.PY_CONFTEST),
                          ("pages.py", gen_suite.PY_PAGES)):
            with open(os.path.join(args.out, rel), "w") as fh:
                fh.write(text)
    ids, pos = [], 0
    sizes = split_files(len(tests), rng)
    width = max(2, len(str(len(sizes))))    # file order is name order past 99 files too
    for f, size in enumerate(sizes):
        rel = f"tests/test_part{f + 1:0{width}d}.py"
        body = [f'"""Generated by tests/bench/detect/gen.py (part {f + 1})."""',
                "from selenium.webdriver.common.by import By"]
        body += ([""] + REAL_HEADER if args.real_shape else []) + ["", ""]
        for t in tests[pos:pos + size]:
            body.append(render(t, args.real_shape))
            body.append("")
            ids.append(f"{rel}::{t.name}")
        pos += size
        with open(os.path.join(args.out, rel), "w") as fh:
            fh.write("\n".join(body).rstrip("\n") + "\n")

    with open(os.path.join(args.out, "suite.tsv"), "w") as fh:
        fh.write("# id\tduration_s\tprereqs\tflaky\n")
        for i, t in enumerate(tests):
            fh.write(f"{ids[i]}\t{t.duration}\t{','.join(ids[p] for p in sorted(t.prereqs))}\t\n")
    truth = [[ids[i], ids[p]] for i, t in enumerate(tests) for p in sorted(t.prereqs)]
    with open(os.path.join(args.out, "truth.json"), "w") as fh:
        json.dump(truth, fh, indent=0)
    config = {
        "suite": {"paths": ["tests"], "language": "python"},
        "runner": {"command": [os.path.abspath(args.simrun), "--suite", "suite.tsv",
                               "--state", "state", "--report", "{report}", "{tests}"],
                   "reset": ["true"], "timeout_s": 60,
                   # the bench sets the simulated runner's knobs in untangle's environment
                   "pass_env": ["SIMRUN_*"]},
        "detect": {"reruns": 0},
    }
    with open(os.path.join(args.out, "untangle.json"), "w") as fh:
        json.dump(config, fh, indent=1)
    independent = sum(1 for t in tests if not t.prereqs and
                      not any(i in u.prereqs for u in tests))
    meta = {"tests": len(tests), "seed": args.seed, "reset_s": args.reset_s,
            "edges": len(truth), "invisible_edges": len(invisible),
            "independent_tests": independent,
            "crawler_names": sum(1 for t in tests if t.name[4:].isdigit()),
            "real_shape": args.real_shape,
            "suite_s": round(sum(t.duration for t in tests), 1)}
    with open(os.path.join(args.out, "bench.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
