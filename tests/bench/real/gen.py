#!/usr/bin/python3
"""gen.py: one real subject of tests/data/real rebuilt as a suite for the simulated runner.

    gen.py --subject FILE.json --out DIR --simrun PATH [--untangle BIN] [--readme README]
           [--ignore-rule RULE] [--nonmono]

FILE.json is one of the six TEDD subjects (tests/data/real/README.md: `order`, `truth`,
`tests` with the actions `untangle tests --json` read from the real sources). Writes a
project folder that `untangle detect -C DIR` runs end to end:

  src/tests/*.java   one JUnit 4 class per test, in package `tests`, and AllTests with
                     @RunWith(Suite.class) @SuiteClasses in the subject's order. For the
                     subjects of OUTSIDE, also a test class no suite lists (as the real
                     sources have: work in progress, helpers named *Test), which JUnit's
                     run of AllTests leaves out and untangle must too. Each test
                     method performs the subject's actions in order, one statement per
                     action, with the same kinds and string values (setup actions in an
                     @Before method), so that the candidates come out as from the real
                     sources. Nothing of the real sources is copied: only the values.
  suite.tsv          what simrun runs: id, duration, true prerequisites (the truth graph),
                     and with --nonmono the triple's broken_by and unless
  truth.json         the truth's [dependent, dependee] pairs (with --nonmono, T -> Y too)
  untangle.json      runner.command = simrun on suite.tsv, reset `true`; everything else
                     is untangle's default configuration
  bench.json         the subject, its size and the lower bound of its README, the values
                     --ignore-rule put in values.ignore, and the --nonmono triple

Durations are not published per test: each test is given 1 s plus 0.1 s per action it
takes outside setup (the subjects' tests take 2 to 10 s that way).

With --untangle, the folder is read back with `untangle tests --json`: the ids must be
exactly the subject's `order`, the class outside the suite named in a warning, and every
test's actions must equal the subject's (kind, values, setup); a difference is an error
(exit 2), since the candidates would then not be those of the real sources.

With --nonmono, one non-monotone triple (issue 32; tests/sim/sim.h): a test T that fails
when X ran and passed earlier, unless Y ran too (the shop example's archive, restore and
count). It is chosen from the truth so that it matters: X is earlier than T and in the
transitive prerequisites of T, or of a test that depends on T, so that an output schedule
holds X and T; Y is a test between X and T in the order, none of T's prerequisites, left
out of such a schedule. A dependent's closure is preferred to T's own (there T's own
schedule passes without Y, and only a dependent's fails). The first such T in the order,
then the first X, then the first Y. The original order still passes (Y runs between X and
T). The truth then gains T -> Y while a schedule holds X and T (rescued_truth): every
schedule of the truth passes, and that is the graph detection must give. The lower bound
is computed on that truth. Without --nonmono the suite is as before.

With --readme, the subject's row of that README's table (tests/data/real/README.md) must
give the file's number of tests, of truth edges and its lower bound (exit 1 otherwise).

With --ignore-rule (and --untangle), the values `untangle values --json --all` counts on
the folder are selected by RULE and written to untangle.json's values.ignore, on top of
untangle's own automatic rule. RULE is conditions separated by commas, all of which a
value must meet, each FIELD>=N (N tests) or FIELD>=P% (P percent of the tests, rounded
up), FIELD being `users` (tests that use the value anywhere) or `submitters` (tests that
submit it): "users>=90%" ignores the values 90% of the tests use; "users>=90%,
submitters>=2" leaves out those only one test submits (a creator); "" ignores nothing.
"""
import argparse
import json
import math
import re
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from suite_json import test_actions  # noqa: E402

BASE_S = 1.0
PER_ACTION_S = 0.1
# Subjects given a test class outside their @SuiteClasses, and its name.
OUTSIDE = ("claroline", "mantisbt")
OUTSIDE_CLASS = "OutsideSuiteTest"


def java_string(s):
    """A Java string literal for s."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class Unresolved:
    """Unresolvable expressions: a field of an object the suite does not define (its name
    says which unresolved text of the subject it stands for)."""

    def __init__(self):
        self.n = 0

    def next(self):
        self.n += 1
        return f"Env.value{self.n}"


def statement(action, unres):
    """One Java statement performing the action."""
    kind, values = action["kind"], [java_string(v) for v in action["values"]]
    extra = [unres.next() for _ in action.get("unresolved", [])]
    if kind == "locate":
        if len(values) != 1 or extra:
            raise ValueError(f"a locate with {len(values)} values")
        return f"driver.findElement(By.xpath({values[0]}));"
    if kind == "submit":
        args = extra + values
        return f"field.sendKeys({', '.join(args)});" if args else "field.sendKeys();"
    if kind == "assert":
        if len(values) == 1 and not extra:
            return f"assertEquals({values[0]}, field.getText());"
        if len(values) == 2 and not extra:
            return f"assertEquals({values[0]}, field.getAttribute({values[1]}));"
        raise ValueError(f"an assert with {len(values)} values")
    if kind == "navigate":
        args = extra + values
        if len(args) != 1:
            raise ValueError("a navigation to more than one place")
        return f"driver.get({args[0]});"
    if kind == "other":
        if extra:
            raise ValueError("an unresolved value in another action")
        return f"options.addArguments({', '.join(values)});"
    if kind == "click":
        return "field.click();"
    raise ValueError(f"unknown action kind '{kind}'")


def render(test, unres):
    setup = [a for a in test["actions"] if a.get("setup")]
    body = [a for a in test["actions"] if not a.get("setup")]
    lines = [
        "package tests;",
        "",
        "import static org.junit.Assert.assertEquals;",
        "",
        "import org.junit.Before;",
        "import org.junit.Test;",
        "import org.openqa.selenium.By;",
        "import org.openqa.selenium.WebDriver;",
        "import org.openqa.selenium.WebElement;",
        "import org.openqa.selenium.chrome.ChromeOptions;",
        "",
        "/* Generated by tests/bench/real/gen.py: the actions and values of a real test. */",
        f"public class {test['class']} {{",
        "    private WebDriver driver;",
        "    private WebElement field;",
        "    private ChromeOptions options;",
        "",
        "    @Before",
        "    public void setUp() {",
    ]
    lines += ["        " + statement(a, unres) for a in setup]
    lines += ["    }", "", "    @Test", f"    public void {test['name']}() {{"]
    lines += ["        " + statement(a, unres) for a in body]
    lines += ["    }", "}", ""]
    return "\n".join(lines)


def duration(test):
    return round(BASE_S + PER_ACTION_S * sum(1 for a in test["actions"] if not a.get("setup")), 2)


def lower_bound(order, truth):
    """The README's lower bound: the original order once, each sink's schedule once, and
    each truth edge seen failing once (the dependent's transitive prerequisites less that
    one, and the dependent)."""
    anc = closures_of(order, truth)
    needed = set().union(*anc.values()) if anc else set()
    sinks = [t for t in order if t not in needed]
    return len(order) + sum(len(anc[s]) + 1 for s in sinks) + sum(len(anc[d]) for d, _ in truth)


def closures_of(order, truth):
    """{test: its transitive prerequisites} of the truth edges."""
    index = {t: i for i, t in enumerate(order)}
    pre = {t: set() for t in order}
    for d, e in truth:
        pre[d].add(e)
    anc = {}
    for t in sorted(order, key=index.get):
        a = set()
        for p in pre[t]:
            a |= {p} | anc[p]
        anc[t] = a
    return anc


def schedules_of(order, truth):
    """The truth's output schedules: each test nothing depends on, with its closure."""
    anc = closures_of(order, truth)
    needed = set().union(*anc.values()) if anc else set()
    return [anc[t] | {t} for t in order if t not in needed]


def rescued_truth(order, truth, triple):
    """The truth with the triple (T, X, Y): T -> Y while a schedule holds X and T."""
    t, x, y = triple
    edges = list(truth)
    while (t, y) not in edges and any(x in s and t in s for s in schedules_of(order, edges)):
        edges.append((t, y))
    return edges


def pick_triple(order, truth):
    """(T, X, Y, where) of --nonmono (see the docstring), or None when none matters."""
    index = {t: i for i, t in enumerate(order)}
    anc = closures_of(order, truth)
    scheds = schedules_of(order, truth)
    for own in (False, True):
        for t in order:
            for x in order[:index[t]]:
                if (x in anc[t]) != own:
                    continue
                for y in order[index[x] + 1:index[t]]:
                    if y not in anc[t] and any(x in s and t in s and y not in s
                                               for s in scheds):
                        return t, x, y, "its own closure" if own else "a dependent's closure"
    return None


def outside_class():
    """A test class no suite lists."""
    return "\n".join([
        "package tests;",
        "",
        "import org.junit.Test;",
        "import org.openqa.selenium.WebDriver;",
        "",
        "/* Generated by tests/bench/real/gen.py: a test class outside the suite. */",
        f"public class {OUTSIDE_CLASS} {{",
        "    private WebDriver driver;",
        "",
        "    @Test",
        "    public void notInTheSuite() {",
        '        driver.get("http://localhost/outside");',
        "    }",
        "}",
        "",
    ])


def compare(untangle, out, subject):
    r = subprocess.run([untangle, "tests", "--json", "--actions", "--quiet", "-C", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit(f"gen.py: untangle tests -C {out}: exit {r.returncode}: {r.stderr.strip()}")
    doc = json.loads(r.stdout)
    got = doc["tests"]
    if [t["id"] for t in got] != subject["order"]:
        sys.exit(f"gen.py: {out}: untangle reads another test order than the subject's")
    warned = any(f"tests.{OUTSIDE_CLASS}" in w["message"] and "outside the root suite" in
                 w["message"] for w in doc["warnings"])
    if warned != (subject["subject"] in OUTSIDE):
        sys.exit(f"gen.py: {out}: the class outside the suite is "
                 f"{'not ' if not warned else ''}named in a warning")

    def key(a):
        return (a["kind"], tuple(a["values"]), bool(a.get("setup")))

    for want, have in zip(subject["tests"], got):
        w = [key(a) for a in want["actions"]]
        h = [key(a) for a in test_actions(doc, have)]
        if w != h:
            for i, (x, y) in enumerate(zip(w + [None] * len(h), h + [None] * len(w))):
                if x != y:
                    sys.exit(f"gen.py: {want['id']}: action {i} read back as {y}, "
                             f"the subject has {x}")


def parse_rule(text):
    """[(field, minimum count as a function of the number of tests)] for a RULE."""
    conds = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        m = re.fullmatch(r"(users|submitters)>=(\d+(?:\.\d+)?)(%?)", word)
        if not m:
            raise ValueError(f"'{word}' is not users>=N, users>=P%, submitters>=N or "
                             f"submitters>=P%")
        field, num, pct = m.group(1), float(m.group(2)), m.group(3) == "%"
        conds.append((field, num, pct))
    return conds


def rule_selects(conds, value, ntests):
    """Whether a value of `untangle values --json` meets every condition."""
    for field, num, pct in conds:
        need = math.ceil(num * ntests / 100 - 1e-9) if pct else num
        if value[field] < need:
            return False
    return bool(conds)


def ignore_by_rule(untangle, out, rule):
    """The values of the folder RULE selects, written to its untangle.json."""
    conds = parse_rule(rule)
    r = subprocess.run([untangle, "values", "--json", "--all", "--quiet", "-C", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit(f"gen.py: untangle values -C {out}: exit {r.returncode}: {r.stderr.strip()}")
    doc = json.loads(r.stdout)
    chosen = [v["value"] for v in doc["values"] if rule_selects(conds, v, doc["tests"])]
    path = os.path.join(out, "untangle.json")
    with open(path) as fh:
        config = json.load(fh)
    if chosen:
        config["values"] = {"ignore": chosen}
    with open(path, "w") as fh:
        json.dump(config, fh, indent=1)
    return chosen


def check_readme(readme, meta):
    """The subject's row of the data folder's README table (file, application, tests,
    validated edges, lower bound) must hold the figures computed from the file."""
    name = f"`{meta['subject']}.json`"
    with open(readme, encoding="utf-8") as fh:
        rows = [[c.strip() for c in line.strip().strip("|").split("|")]
                for line in fh if line.startswith("| " + name)]
    if len(rows) != 1:
        sys.exit(f"gen.py: {readme}: {len(rows)} table rows for {name}, expected one")
    want = [str(meta["tests"]), str(meta["edges"]), str(meta["lower_bound"])]
    if rows[0][2:5] != want:
        sys.exit(f"gen.py: {readme}: {name}'s row says tests, edges, lower bound "
                 f"{', '.join(rows[0][2:5])}; the file gives {', '.join(want)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--subject", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--simrun", required=True, help="the compiled simrun binary")
    ap.add_argument("--untangle", help="check the actions read back by this binary")
    ap.add_argument("--readme", help="check the subject's row of this README's table")
    ap.add_argument("--ignore-rule", default="",
                    help="values.ignore: the values RULE selects (see the docstring)")
    ap.add_argument("--nonmono", action="store_true",
                    help="one non-monotone triple that matters (see the docstring)")
    args = ap.parse_args()
    try:
        parse_rule(args.ignore_rule)
    except ValueError as e:
        sys.exit(f"gen.py: --ignore-rule: {e}")
    if args.readme and args.nonmono:
        sys.exit("gen.py: --readme checks the subject's own truth: not with --nonmono")
    if args.ignore_rule and not args.untangle:
        sys.exit("gen.py: --ignore-rule needs --untangle (the values are counted by it)")
    with open(args.subject) as fh:
        subject = json.load(fh)
    order, truth = subject["order"], [tuple(p) for p in subject["truth"]]
    if [t["id"] for t in subject["tests"]] != order:
        sys.exit(f"gen.py: {args.subject}: `tests` is not in `order`")
    src = os.path.join(args.out, "src", "tests")
    os.makedirs(src, exist_ok=True)
    unres = Unresolved()
    for t in subject["tests"]:
        if t["id"] != f"tests.{t['class']}#{t['name']}":
            sys.exit(f"gen.py: {args.subject}: id '{t['id']}' is not tests.Class#method")
        try:
            text = render(t, unres)
        except ValueError as e:
            sys.exit(f"gen.py: {args.subject}: {t['id']}: {e}")
        with open(os.path.join(src, t["class"] + ".java"), "w") as fh:
            fh.write(text)
    if subject["subject"] in OUTSIDE:
        with open(os.path.join(src, OUTSIDE_CLASS + ".java"), "w") as fh:
            fh.write(outside_class())
    classes = ",\n    ".join(f"{t['class']}.class" for t in subject["tests"])
    with open(os.path.join(src, "AllTests.java"), "w") as fh:
        fh.write("package tests;\n\nimport org.junit.runner.RunWith;\n"
                 "import org.junit.runners.Suite;\n\n@RunWith(Suite.class)\n"
                 f"@Suite.SuiteClasses({{\n    {classes}\n}})\npublic class AllTests {{}}\n")
    prereqs = {t: [] for t in order}
    for d, e in truth:
        prereqs[d].append(e)
    triple = pick_triple(order, truth) if args.nonmono else None
    if args.nonmono and not triple:
        sys.exit(f"gen.py: {args.subject}: no non-monotone triple would matter")
    broken = {triple[0]: (triple[1], triple[2])} if triple else {}
    with open(os.path.join(args.out, "suite.tsv"), "w") as fh:
        fh.write("# id\tduration_s\tprereqs\tflaky\tintermittent\tbroken_by\tunless\n")
        for t in subject["tests"]:
            x, y = broken.get(t["id"], ("", ""))
            fh.write(f"{t['id']}\t{duration(t)}\t{','.join(prereqs[t['id']])}\t\t\t{x}\t"
                     f"{y}\n")
    if triple:
        truth = rescued_truth(order, truth, triple[:3])
    with open(os.path.join(args.out, "truth.json"), "w") as fh:
        json.dump([list(p) for p in truth], fh, indent=0)
    config = {
        "suite": {"paths": ["src"], "language": "java"},
        "runner": {"command": [os.path.abspath(args.simrun), "--suite", "suite.tsv",
                               "--state", "state", "--report", "{report}", "{tests}"],
                   "reset": ["true"], "timeout_s": 60,
                   # the bench sets the simulated runner's knobs in untangle's environment
                   "pass_env": ["SIMRUN_*"]},
    }
    with open(os.path.join(args.out, "untangle.json"), "w") as fh:
        json.dump(config, fh, indent=1)
    meta = {"subject": subject["subject"], "tests": len(order), "edges": len(truth),
            "lower_bound": lower_bound(order, truth)}
    if triple:
        meta["nonmono"] = {"test": triple[0], "breaker": triple[1], "rescuer": triple[2],
                           "breaker_in": triple[3]}
    with open(os.path.join(args.out, "bench.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    if args.readme:
        check_readme(args.readme, meta)
    if args.untangle:
        compare(args.untangle, args.out, subject)
    if args.ignore_rule:
        meta["ignore_rule"] = args.ignore_rule
        meta["ignored"] = ignore_by_rule(args.untangle, args.out, args.ignore_rule)
        with open(os.path.join(args.out, "bench.json"), "w") as fh:
            json.dump(meta, fh, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
