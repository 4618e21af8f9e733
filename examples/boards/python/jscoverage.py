"""Per-test client-side JavaScript coverage through Chrome DevTools (optional).

With UNTANGLE_COVERAGE=FILE, conftest.py records which functions of the application's
scripts each test ran and merges {test id: [elements]} into FILE at the end of the
session, the coverage input of `untangle minimize --coverage FILE`.

An element is one JavaScript function of a script served by the application that ran at
least once during the test (V8 call count > 0), named "PATH:NAME:START-END": the
script's URL path without the leading slash, V8's function name ("(anonymous)" for an
unnamed one), and the function's byte range in the script, e.g.
"static/app.js:countBoards:840-1082". Coverage is taken at function granularity on
purpose: V8's detailed (block) coverage reports a block only when its count differs
from the enclosing range's, so whether a block appears at all depends on how often it
ran, and block elements would not be comparable between tests.

Profiler.takePreciseCoverage returns the counts since the previous take and resets
them. The counts are taken before and after every click and navigation, and at the end
of the test. Chromium's RenderDocument feature gives every cross-document navigation a
new renderer frame, and the counts of the page left behind go with the old one: a
submit handler that runs in the instant between a click and the next page was missed
in 18 of 20 form submissions. With the feature off (BROWSER_FLAGS, which conftest.py
adds when coverage is recorded) the page's counts survive until the next take: 0 of 20
missed.

Several pytest invocations (the runner runs one per schedule) accumulate in FILE: a
test's elements are the union over every invocation that ran it.
"""

import fcntl
import json
import os
from urllib.parse import urlsplit

from selenium.webdriver.support.events import AbstractEventListener, EventFiringWebDriver

ENV = "UNTANGLE_COVERAGE"
BROWSER_FLAGS = ["--disable-features=RenderDocument"]  # see the module's text


def browser_flags():
    """The flags the browser needs for the coverage $UNTANGLE_COVERAGE asks for."""
    return BROWSER_FLAGS if os.environ.get(ENV) else []


def elements(result, base_url):
    """The elements a Profiler.takePreciseCoverage result shows as run."""
    found = set()
    for script in result.get("result", []):
        url = script.get("url", "")
        if not url.startswith(base_url + "/"):
            continue  # chrome-extension://, empty (evaluated code), other sites
        path = urlsplit(url).path.lstrip("/")
        for function in script.get("functions", []):
            whole = function["ranges"][0]
            if whole["count"] > 0:
                name = function.get("functionName") or "(anonymous)"
                found.add(f"{path}:{name}:{whole['startOffset']}-{whole['endOffset']}")
    return found


class Recorder(AbstractEventListener):
    """Takes the browser's coverage around every click and navigation."""

    def __init__(self, driver, base_url):
        self.driver = driver
        self.base_url = base_url
        self.current = None  # the running test's elements, None between tests
        self.tests = {}
        driver.execute_cdp_cmd("Profiler.enable", {})
        driver.execute_cdp_cmd("Profiler.startPreciseCoverage",
                               {"callCount": True, "detailed": True})

    def take(self):
        found = elements(self.driver.execute_cdp_cmd("Profiler.takePreciseCoverage", {}),
                         self.base_url)
        if self.current is not None:
            self.current |= found

    def begin(self):
        self.take()  # whatever ran between tests belongs to none of them
        self.current = set()

    def end(self, test_id):
        self.take()
        self.tests.setdefault(test_id, set()).update(self.current)
        self.current = None

    def save(self, path):
        """Merges this session's tests into the JSON object in path (created if need be)."""
        with open(path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            merged = {}
            if os.path.exists(path) and os.path.getsize(path):
                with open(path, encoding="utf-8") as f:
                    merged = json.load(f)
            for test_id, found in self.tests.items():
                merged[test_id] = sorted(found | set(merged.get(test_id, ())))
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                json.dump(merged, f, indent=1, sort_keys=True)
                f.write("\n")
            os.replace(path + ".tmp", path)

    def before_navigate_to(self, url, driver):
        self.take()

    def before_click(self, element, driver):
        self.take()

    def after_click(self, element, driver):
        self.take()


def wrap(driver, base_url):
    """(driver to hand to the tests, recorder or None) as $UNTANGLE_COVERAGE asks."""
    if not os.environ.get(ENV):
        return driver, None
    recorder = Recorder(driver, base_url)
    return EventFiringWebDriver(driver, recorder), recorder
