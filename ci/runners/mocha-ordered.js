#!/usr/bin/env node
// mocha-ordered: run an explicit list of mocha tests in exactly the given order.
//
//   node mocha-ordered.js --report FILE [--spec-root DIR] [--require MOD]...
//                         [--timeout MS] [--ui bdd|tdd] ID...
//
// ID = <spec path relative to --spec-root (default: cwd)>::<test fullTitle>
// (fullTitle = enclosing describe titles and the it title joined by one space),
// e.g. "test/boards.spec.js::Boards adds a user". A second test with the same fullTitle
// in that file is "<fullTitle> #2", a third "#3", in mocha's order (pending tests are
// counted after the running ones), as untangle names them.
//
// mocha itself cannot run tests in an arbitrary order: it runs a describe's own
// tests before its nested describes, and describes in definition order. This
// helper loads the spec files with mocha's programmatic API and rebuilds the
// suite tree as a sequence of "entries": each maximal run of consecutive ids
// that can share a describe enters that describe once. Interleaving tests of two
// describes (A1 B1 A2) therefore enters A, B, A again. Hooks:
//   - beforeEach / afterEach of every enclosing describe run around every test,
//     as in mocha;
//   - before (beforeAll) of a describe runs once, on its first entry; after
//     (afterAll) runs once, on its last entry. So each describe's before/after
//     run exactly as often as in a plain mocha run, and the describe's state
//     lives from its first to its last selected test.
//   - a failing before/beforeEach/afterEach hook skips the rest of that describe
//     (its later entries too), as mocha does: those tests are absent from the
//     report (not run).
// Root-level hooks (outside any describe, or from --require root hook plugins)
// run once around the whole run.
//
// The JUnit XML report lists the tests in execution order; for each test
// classname = spec path as given in the id, name = fullTitle, so
// classname + "::" + name is the id. Failures of hooks are reported as extra
// testcases named after the hook (they match no id). The report is rewritten
// after every test, so a killed run still leaves the finished tests.
//
// Exit status: 0 all selected tests passed, 1 some failed, 2 usage error or
// unknown ids (listed on stderr, nothing run), 3 could not load mocha or specs.
// mocha is resolved from --spec-root, then from the cwd (the project's
// node_modules); mocha 5 to 12 (CommonJS or ESM builds) are supported. The project's
// mocha configuration (.mocharc.*, package.json, mocha 5's test/mocha.opts) gives ui,
// require, timeout and file, as in a plain mocha run; --ui, --require and --timeout add to
// it or override it.
//
//   node mocha-ordered.js --list FILE [--spec-root DIR] [SPEC...]
//
// writes the tests mocha would run, without running anything, one JSON object a line in
// mocha's order (docs/collection.md): {"id", "file", "line", "name", "src", "src_line",
// "pending"}; the spec files are those the project's mocha configuration names (spec,
// extension, recursive, ignore, file; default ./test), or the SPEC arguments added to it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const load = require('./mocha-load.js');

const USAGE =
  'usage: node mocha-ordered.js --report FILE [--spec-root DIR] [--require MOD]... ' +
  '[--timeout MS] [--ui bdd|tdd] ID...\n' +
  '       node mocha-ordered.js --list FILE [--spec-root DIR] [--require MOD]... ' +
  '[--ui bdd|tdd] [SPEC...]\n' +
  '  ID = path/to/spec.js::<describe titles and it title joined by a space>\n';

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { report: null, list: null, specRoot: null, requires: [], timeout: null, ui: null,
    ids: [] };
  let i = 0;
  const value = (name) => {
    if (i + 1 >= argv.length) throw new UsageError(`${name} needs a value`);
    return argv[++i];
  };
  let onlyIds = false;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (onlyIds || !a.startsWith('--')) { opts.ids.push(a); continue; }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : null;
    const get = () => (inline !== null ? inline : value(name));
    switch (name) {
      case '--': onlyIds = true; break;
      case '--report': opts.report = get(); break;
      case '--list': opts.list = get(); break;
      case '--spec-root': opts.specRoot = get(); break;
      case '--require': opts.requires.push(get()); break;
      case '--ui': opts.ui = get(); break;
      case '--timeout': {
        const v = get();
        if (!/^\d+$/.test(v)) throw new UsageError(`--timeout wants milliseconds, got ${v}`);
        opts.timeout = Number(v);
        break;
      }
      case '--help': process.stdout.write(USAGE); process.exit(0); break;
      default: throw new UsageError(`unknown option ${a}`);
    }
  }
  if (opts.list && opts.report) throw new UsageError('--list and --report are two modes: give one');
  if (opts.list) return opts;
  if (!opts.report) throw new UsageError('--report FILE (run) or --list FILE is required');
  if (opts.ids.length === 0) throw new UsageError('no test ids given');
  return opts;
}

function splitId(id) {
  const k = id.indexOf('::');
  if (k <= 0 || k + 2 >= id.length) return null;
  return { file: id.slice(0, k), title: id.slice(k + 2) };
}

// Chain of suites from the root (exclusive) down to the test's suite (inclusive).
function suiteChain(test) {
  const chain = [];
  for (let s = test.parent; s && !s.root; s = s.parent) chain.unshift(s);
  return chain;
}

// Rebuild the root suite so that the runner executes `tests` in exactly that order.
function buildPlan(root, tests) {
  const ORIG = Symbol('original');
  const entries = new Map(); // original suite -> clones, in order
  const makeClone = (orig, parentClone) => {
    // The clone shares everything with the original suite (title, hooks, ctx, timeout,
    // file, pending, ...) except its place in the tree and its selected children.
    const clone = Object.create(orig);
    clone.parent = parentClone;
    clone.root = false;
    clone.tests = [];
    clone.suites = [];
    clone._onlyTests = [];
    clone._onlySuites = [];
    clone[ORIG] = orig;
    parentClone.suites.push(clone);
    if (!entries.has(orig)) entries.set(orig, []);
    entries.get(orig).push(clone);
    return clone;
  };

  root.tests = [];
  root.suites = [];
  root._onlyTests = [];
  root._onlySuites = [];

  // stack[k] = clone of chain[k - 1]; stack[0] = root.
  let stack = [root];
  let openChain = [];
  for (const test of tests) {
    const chain = suiteChain(test);
    let common = 0;
    while (common < chain.length && common < openChain.length && chain[common] === openChain[common]) common++;
    // mocha runs a suite's own tests before its child suites: a test that belongs
    // directly to an open suite which already has child entries needs a new entry.
    if (common === chain.length && stack[common].suites.length > 0) common--;
    stack = stack.slice(0, common + 1);
    openChain = openChain.slice(0, common);
    for (let k = common; k < chain.length; k++) {
      stack.push(makeClone(chain[k], stack[stack.length - 1]));
      openChain.push(chain[k]);
    }
    const top = stack[stack.length - 1];
    top.tests.push(test);
  }

  // before/after hooks: once per original describe (first / last entry).
  for (const clones of entries.values()) {
    clones.forEach((clone, k) => {
      if (k > 0) clone._beforeAll = [];
      if (k < clones.length - 1) clone._afterAll = [];
    });
  }
  return { original: (clone) => clone[ORIG] || clone };
}

const xmlEscape = (s) =>
  String(s)
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function writeReport(file, cases, startedAt) {
  const count = (kind) => cases.filter((c) => c.kind === kind).length;
  const total = cases.reduce((t, c) => t + c.time, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mocha-ordered" tests="${cases.length}" failures="${count('failed')}" ` +
      `errors="0" skipped="${count('skipped')}" time="${total.toFixed(3)}">`,
    `  <testsuite name="mocha-ordered" tests="${cases.length}" failures="${count('failed')}" ` +
      `errors="0" skipped="${count('skipped')}" time="${total.toFixed(3)}" ` +
      `timestamp="${startedAt.toISOString().replace(/\.\d+Z$/, '')}">`,
  ];
  for (const c of cases) {
    const head = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}" ` +
      `time="${c.time.toFixed(3)}"` + (c.file ? ` file="${xmlEscape(c.file)}"` : '');
    if (c.kind === 'passed') {
      lines.push(head + '/>');
    } else if (c.kind === 'skipped') {
      lines.push(head + '>', '      <skipped/>', '    </testcase>');
    } else {
      lines.push(head + '>',
        `      <failure message="${xmlEscape(c.message)}" type="${xmlEscape(c.type)}">` +
          `${xmlEscape(c.stack)}</failure>`,
        '    </testcase>');
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, lines.join('\n'));
  fs.renameSync(tmp, file);
}

// Runner events: named constants from mocha 6 on, plain strings before.
function events(Mocha) {
  return (Mocha.Runner && Mocha.Runner.constants) || {
    EVENT_SUITE_BEGIN: 'suite', EVENT_TEST_BEGIN: 'test', EVENT_TEST_PASS: 'pass',
    EVENT_TEST_END: 'test end', EVENT_TEST_FAIL: 'fail',
  };
}

// A Mocha for the project: its configuration's ui and timeout under ours, its requires
// (and ours) loaded. Throws what mocha would stop on.
async function newMocha(loaded, rc, opts, specRoot) {
  const { Mocha } = loaded;
  const mocha = new Mocha({ reporter: Mocha.reporters.Base, color: false,
    ui: opts.ui || rc.ui || 'bdd' });
  // hooks are shared between entries (mocha 7.2 and later clean them after a run)
  if (typeof mocha.cleanReferencesAfterRun === 'function') mocha.cleanReferencesAfterRun(false);
  if (opts.timeout !== null) mocha.timeout(opts.timeout);
  else if (rc.timeout !== undefined) mocha.timeout(rc.timeout);
  for (const r of [...load.asList(rc.require), ...opts.requires]) {
    await load.loadRequire(r, specRoot, mocha);
  }
  return mocha;
}

const firstLine = (err) => String((err && err.message) || err).split('\n')[0];

// --list: the tests mocha would run, without running anything (no hooks, no tests).
async function listMain(opts, specRoot) {
  const out = [];
  let loaded, mocha, rc, found;
  try {
    loaded = await load.loadMocha(specRoot);
    rc = load.projectConfig(loaded, specRoot, opts.ids);
    found = load.specFiles(loaded, specRoot, rc);
    mocha = await newMocha(loaded, rc, opts, specRoot);
  } catch (err) {
    const text = err instanceof load.MochaError ? err.message : err && err.stack ? err.stack : err;
    process.stderr.write(`mocha-ordered: cannot load: ${text}\n`);
    return 3;
  }
  for (const said of found.said) out.push({ note: said });
  const rel = (f) => load.toPosix(path.relative(specRoot, f));
  const { origins, errors } = await load.loadSpecs(mocha, loaded.Mocha, found.files,
    { keepGoing: true });
  for (const e of errors) {
    // the line: the first place in the file that its stack (or a SyntaxError's head) names
    const esc = e.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const at = new RegExp(`${esc}:(\\d+)`).exec(String(e.error && e.error.stack));
    out.push({ error: firstLine(e.error), file: rel(e.file), ...(at ? { line: Number(at[1]) } : {}) });
    process.stderr.write(`mocha-ordered: ${rel(e.file)} not loaded: ${firstLine(e.error)}\n`);
  }
  if (load.hasOnly(mocha.suite)) load.filterOnly(mocha.suite);
  let n = 0;
  for (const t of load.identify(mocha.suite, origins, specRoot)) {
    const o = origins.get(t.test) || {};
    const rec = { id: t.id, file: rel(t.file), line: o.line || 0, name: t.test.title };
    // src: where the it() call is; line: that place when it is in the spec, else where
    // the spec called what registered it (a factory in another module)
    if (o.src && path.resolve(o.src.file) === t.file) rec.line = o.src.line;
    else if (o.src) {
      rec.src = rel(o.src.file);
      rec.src_line = o.src.line;
    }
    if (t.pending) rec.pending = true;
    out.push(rec);
    n++;
  }
  const text = out.map((r) => JSON.stringify(r) + '\n').join('');
  try {
    fs.mkdirSync(path.dirname(path.resolve(opts.list)), { recursive: true });
    fs.writeFileSync(opts.list, text);
  } catch (err) {
    process.stderr.write(`mocha-ordered: cannot write ${opts.list}: ${err.message}\n`);
    return 1;
  }
  process.stderr.write(`mocha-ordered: mocha ${loaded.version}, ${found.files.length} spec ` +
    `file(s), ${n} test(s)` + (errors.length ? `, ${errors.length} not loaded` : '') +
    `; list ${opts.list}\n`);
  return 0;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`mocha-ordered: ${err.message}\n${USAGE}`);
    return 2;
  }
  const specRoot = path.resolve(opts.specRoot || process.cwd());
  if (opts.list) return listMain(opts, specRoot);

  // Parse ids; the spec files to load are the distinct paths, in first-use order.
  const parsed = [];
  const bad = [];
  const files = new Map(); // given path -> absolute path
  const seen = new Set();
  for (const id of opts.ids) {
    const p = splitId(id);
    if (!p) { bad.push(`${id}: not of the form path/to/spec.js::full title`); continue; }
    if (seen.has(id)) { bad.push(`${id}: listed twice`); continue; }
    seen.add(id);
    const abs = path.resolve(specRoot, p.file);
    if (!fs.existsSync(abs)) { bad.push(`${id}: no such spec file ${abs}`); continue; }
    files.set(p.file, abs);
    parsed.push({ id, file: p.file, abs, title: p.title });
  }
  if (bad.length) {
    for (const b of bad) process.stderr.write(`mocha-ordered: unknown test id ${b}\n`);
    return 2;
  }

  let Mocha, mocha, origins;
  try {
    const loaded = await load.loadMocha(specRoot);
    Mocha = loaded.Mocha;
    const rc = load.projectConfig(loaded, specRoot, []);
    mocha = await newMocha(loaded, rc, opts, specRoot);
    const toLoad = [...load.asList(rc.file).map((f) => path.resolve(specRoot, f)),
      ...new Set(files.values())];
    ({ origins } = await load.loadSpecs(mocha, Mocha, [...new Set(toLoad)], { keepGoing: false }));
  } catch (err) {
    const text = err instanceof load.MochaError ? err.message : err && err.stack ? err.stack : err;
    process.stderr.write(`mocha-ordered: cannot load: ${text}\n`);
    return 3;
  }

  // What mocha itself would run: with .only in the loaded files, only that (as untangle
  // lists them), so that duplicates are numbered among the same tests. Ids as --list
  // gives them: the spec file loaded and the full title, " #k" for the k-th of a title.
  if (load.hasOnly(mocha.suite)) load.filterOnly(mocha.suite);
  const byId = new Map();
  const byTitle = new Map(); // full title -> running tests of any file
  for (const t of load.identify(mocha.suite, origins, specRoot)) {
    byId.set(`${t.file}\u0000${t.id.slice(t.id.indexOf('::') + 2)}`, t.test);
    if (t.pending) continue;
    if (!byTitle.has(t.test.fullTitle())) byTitle.set(t.test.fullTitle(), []);
    byTitle.get(t.test.fullTitle()).push(t.test);
  }
  const selected = [];
  const infoByTest = new Map();
  for (const p of parsed) {
    let t = byId.get(`${p.abs}\u0000${p.title}`);
    // a full title that only one test has is that test (a test another spec registered)
    const same = byTitle.get(p.title);
    if (!t && same && same.length === 1) t = same[0];
    if (!t || infoByTest.has(t)) { bad.push(`${p.id}: no test with that full title in ${p.file}`); continue; }
    selected.push(t);
    infoByTest.set(t, p);
  }
  // By the original test: mocha runs retries on clones of it.
  const info = (test) =>
    infoByTest.get((typeof test.retriedTest === 'function' && test.retriedTest()) || test);
  if (bad.length) {
    for (const b of bad) process.stderr.write(`mocha-ordered: unknown test id ${b}\n`);
    return 2;
  }

  const plan = buildPlan(mocha.suite, selected);
  const aborted = new Set(); // original suites whose remaining tests mocha would skip
  const cases = [];
  const startedAt = new Date();
  const save = () => writeReport(opts.report, cases, startedAt);
  const relFile = (f) => (f ? load.toPosix(path.relative(specRoot, f)) : '');

  const isAborted = (suite) => {
    for (let s = suite; s; s = s.parent) if (aborted.has(plan.original(s))) return true;
    return false;
  };

  save(); // an empty report right away: nothing finished yet
  const failures = await new Promise((resolve) => {
    const runner = mocha.run(resolve);
    const C = events(Mocha);
    let testStart = 0;
    runner.on(C.EVENT_SUITE_BEGIN, (suite) => {
      // A later entry of a describe that a failed hook already ended: mocha would not
      // run its remaining tests, so neither do we.
      if (!suite.root && isAborted(suite)) {
        suite.tests = [];
        suite.suites = [];
        suite._beforeAll = [];
        suite._afterAll = [];
      }
    });
    runner.on(C.EVENT_TEST_BEGIN, () => { testStart = Date.now(); });
    runner.on(C.EVENT_TEST_PASS, (test) => {
      const p = info(test);
      process.stderr.write(`  ok   ${p ? p.id : test.fullTitle()}\n`);
    });
    runner.on(C.EVENT_TEST_END, (test) => {
      const p = info(test);
      if (!p) return;
      const time = (test.duration != null ? test.duration : Date.now() - testStart) / 1000;
      if (test.state === 'passed') {
        cases.push({ kind: 'passed', classname: p.file, name: p.title, file: p.file, time });
      } else if (test.state === 'failed') {
        const err = test.err || {};
        cases.push({
          kind: 'failed', classname: p.file, name: p.title, file: p.file, time,
          message: err.message || String(err), type: err.name || 'Error',
          stack: err.stack || String(err),
        });
      } else if (test.state === 'pending' || test.isPending()) {
        process.stderr.write(`  skip ${p.id}\n`);
        cases.push({ kind: 'skipped', classname: p.file, name: p.title, file: p.file, time: 0 });
      }
      save();
    });
    runner.on(C.EVENT_TEST_FAIL, (runnable, err) => {
      if (runnable.type === 'hook') {
        const parent = runnable.parent;
        if (!/"after all" hook/.test(runnable.title) && parent) aborted.add(plan.original(parent));
        process.stderr.write(`  FAIL hook ${runnable.fullTitle()}: ${err && err.message}\n`);
        cases.push({
          hook: true, kind: 'failed', classname: relFile(runnable.file || (parent && parent.file)),
          name: runnable.fullTitle(), file: relFile(runnable.file), time: 0,
          message: (err && err.message) || String(err), type: (err && err.name) || 'Error',
          stack: (err && err.stack) || String(err),
        });
        save();
        return;
      }
      const p = info(runnable);
      process.stderr.write(`  FAIL ${p ? p.id : runnable.fullTitle()}: ${err && err.message}\n`);
      if (!p) return;
      runnable.err = err;
    });
    // First SIGINT/SIGTERM: stop after the current test and run the after hooks (they
    // close browsers); a second one exits at once.
    let signalled = false;
    for (const sig of ['SIGINT', 'SIGTERM']) {
      process.on(sig, () => {
        if (signalled) process.exit(130);
        signalled = true;
        process.stderr.write(`mocha-ordered: ${sig}, stopping after the current test\n`);
        runner.abort();
      });
    }
  });
  save();
  const ran = cases.filter((c) => !c.hook).length;
  process.stderr.write(`mocha-ordered: ${selected.length} selected, ${ran} run, ` +
    `${failures} failure(s); report ${opts.report}\n`);
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`mocha-ordered: ${err && err.stack ? err.stack : err}\n`);
    process.exit(3);
  },
);
