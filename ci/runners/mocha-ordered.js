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
// not counted), as untangle names them.
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
// node_modules); mocha 10 to 12 (CommonJS or ESM builds) are supported. The project's
// mocha configuration (.mocharc.*, package.json) gives ui, require, timeout and file,
// as in a plain mocha run; --ui, --require and --timeout add to it or override it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');

const USAGE =
  'usage: node mocha-ordered.js --report FILE [--spec-root DIR] [--require MOD]... ' +
  '[--timeout MS] [--ui bdd|tdd] ID...\n' +
  '  ID = path/to/spec.js::<describe titles and it title joined by a space>\n';

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { report: null, specRoot: null, requires: [], timeout: null, ui: null, ids: [] };
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
  if (!opts.report) throw new UsageError('--report FILE is required');
  if (opts.ids.length === 0) throw new UsageError('no test ids given');
  return opts;
}

function splitId(id) {
  const k = id.indexOf('::');
  if (k <= 0 || k + 2 >= id.length) return null;
  return { file: id.slice(0, k), title: id.slice(k + 2) };
}

const toPosix = (p) => p.split(path.sep).join('/');

async function loadMocha(specRoot) {
  const bases = [specRoot, process.cwd()];
  let resolved = null;
  for (const base of bases) {
    try {
      resolved = createRequire(path.join(base, '__mocha_ordered__.js')).resolve('mocha');
      break;
    } catch (_) { /* next base */ }
  }
  if (!resolved) {
    throw new Error(`cannot find mocha from ${bases.join(' or ')}: run npm install in the project`);
  }
  const mod = await import(pathToFileURL(resolved).href);
  const Mocha = mod.default || mod;
  if (typeof Mocha !== 'function' || !Mocha.Suite) {
    throw new Error(`${resolved} does not look like mocha`);
  }
  return { Mocha, main: resolved };
}

// The project's own mocha configuration (.mocharc.*, package.json's "mocha"), read by
// mocha's own loader from the spec root: its ui, require, timeout and file (files loaded
// before the specs) apply as in a plain mocha run, under what is given here.
function projectOptions(mochaMain, specRoot) {
  const cwd = process.cwd();
  try {
    const { loadOptions } = createRequire(mochaMain)('./lib/cli/options.js');
    process.chdir(specRoot);
    return loadOptions([]) || {};
  } catch (err) {
    process.stderr.write(`mocha-ordered: mocha's configuration not read: ${err && err.message}\n`);
    return {};
  } finally {
    process.chdir(cwd);
  }
}

const asList = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

async function loadRequire(mod, specRoot, mocha) {
  // Relative paths are taken from the spec root, bare names from its node_modules.
  const req = createRequire(path.join(specRoot, '__mocha_ordered__.js'));
  const target = mod.startsWith('.') || path.isAbsolute(mod) ? path.resolve(specRoot, mod) : mod;
  let exported;
  try {
    exported = req(target);
  } catch (err) {
    if (err && (err.code === 'ERR_REQUIRE_ESM' || err.code === 'ERR_REQUIRE_ASYNC_MODULE')) {
      exported = await import(pathToFileURL(req.resolve(target)).href);
    } else {
      throw err;
    }
  }
  // Root hook plugins, as mocha's --require supports them.
  let hooks = exported && (exported.mochaHooks || (exported.default && exported.default.mochaHooks));
  if (typeof hooks === 'function') hooks = await hooks();
  if (hooks) mocha.rootHooks(hooks);
}

// All tests of a suite tree, depth first in definition order.
function collectTests(suite, out) {
  for (const t of suite.tests) out.push(t);
  for (const s of suite.suites) collectTests(s, out);
  return out;
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

  let Mocha, mocha;
  try {
    const loaded = await loadMocha(specRoot);
    Mocha = loaded.Mocha;
    const rc = projectOptions(loaded.main, specRoot);
    mocha = new Mocha({ reporter: Mocha.reporters.Base, color: false,
      ui: opts.ui || rc.ui || 'bdd' });
    mocha.cleanReferencesAfterRun(false); // hooks are shared between entries
    if (opts.timeout !== null) mocha.timeout(opts.timeout);
    else if (rc.timeout !== undefined) mocha.timeout(rc.timeout);
    for (const r of [...asList(rc.require), ...opts.requires]) await loadRequire(r, specRoot, mocha);
    for (const f of asList(rc.file)) mocha.addFile(path.resolve(specRoot, f));
    for (const abs of new Set(files.values())) mocha.addFile(abs);
    await mocha.loadFilesAsync();
  } catch (err) {
    process.stderr.write(`mocha-ordered: cannot load: ${err && err.stack ? err.stack : err}\n`);
    return 3;
  }

  // Index the loaded tests by id. Tests with the same full title in one file all run in
  // mocha: the second is "<full title> #2", the third " #3", in mocha's order, pending
  // tests and those .only leaves out not counted (untangle numbers them the same way). A pending test answers only
  // its plain title, when no running test has it.
  const byKey = new Map();
  const byTitle = new Map(); // full title -> running tests of any file
  // What mocha itself would run: with .only in the loaded files, only that (as untangle
  // lists them), so that duplicates are numbered among the same tests.
  if (mocha.suite.hasOnly()) mocha.suite.filterOnly();
  const all = collectTests(mocha.suite, []);
  for (const t of all) {
    if (!t.file || t.isPending()) continue;
    const base = `${path.resolve(t.file)}\u0000${t.fullTitle()}`;
    let key = base;
    for (let k = 2; byKey.has(key); k++) key = `${base} #${k}`;
    byKey.set(key, t);
    if (!byTitle.has(t.fullTitle())) byTitle.set(t.fullTitle(), []);
    byTitle.get(t.fullTitle()).push(t);
  }
  for (const t of all) {
    const key = t.file ? `${path.resolve(t.file)}\u0000${t.fullTitle()}` : null;
    if (key && !byKey.has(key)) byKey.set(key, t);
  }
  const selected = [];
  const infoByTest = new Map();
  for (const p of parsed) {
    let t = byKey.get(`${p.abs}\u0000${p.title}`);
    // selenium-webdriver/testing (3.x) registers later files' tests with the file that
    // first required it: a full title that only one test has is that test.
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
  const relFile = (f) => (f ? toPosix(path.relative(specRoot, f)) : '');

  const isAborted = (suite) => {
    for (let s = suite; s; s = s.parent) if (aborted.has(plan.original(s))) return true;
    return false;
  };

  save(); // an empty report right away: nothing finished yet
  const failures = await new Promise((resolve) => {
    const runner = mocha.run(resolve);
    const C = Mocha.Runner.constants;
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
