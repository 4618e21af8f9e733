"""ujournal: reads untangle's .untangle/journal.jsonl (format 2) for the tests and benches.

    header, runs = read(path)          # runs: dicts as format 1 had them
    for header, run in stream(path)    # a line at a time (journals of hundreds of MB)

Each run comes back with "tests" (ids, from the header's list), "outcomes" (names),
"durations" (seconds, -1 unknown) beside the line's own keys; the finished marker and a
last line cut short are skipped."""
import json

OUTCOMES = {"p": "pass", "f": "fail", "e": "error", "s": "skipped", "n": "not-run"}


def indices(spec):
    out = []
    for part in spec.split(",") if spec else []:
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def decode(header, rec):
    ids = header.get("ids") or []
    idx = indices(rec["t"])
    rec["indices"] = idx
    rec["tests"] = [ids[i] if i < len(ids) else str(i) for i in idx]
    rec["outcomes"] = [OUTCOMES[c] for c in rec["o"]]
    rec["durations"] = [d / 1000.0 if d >= 0 else -1 for d in rec.get("d", [])]
    rec.setdefault("error", False)
    rec.setdefault("attempts", 1)
    return rec


def stream(path):
    with open(path) as fh:
        header = json.loads(fh.readline())
        for line in fh:
            if not line.endswith("\n"):
                break
            rec = json.loads(line)
            if rec.get("finished"):
                continue
            yield header, decode(header, rec)


def read(path):
    header, runs = None, []
    with open(path) as fh:
        header = json.loads(fh.readline())
    for _, rec in stream(path):
        runs.append(rec)
    return header, runs
