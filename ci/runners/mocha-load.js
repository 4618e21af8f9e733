// mocha-load.js: how mocha-ordered.js finds and loads a project's mocha, its configuration,
// its spec files and its tests, as the project's own mocha would, on mocha 5 and later.
//
// Versions differ: mocha 6 and later read .mocharc.* and package.json's "mocha" with
// lib/cli/options.js (loadOptions) and choose the files with lib/cli/collect-files.js;
// mocha 5 reads test/mocha.opts in bin/_mocha and has utils.lookupFiles. Each is used when
// it is there (feature detection, not version numbers).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');
const { pathToFileURL, fileURLToPath } = require('node:url');

// A problem with the project's mocha, said without a stack.
class MochaError extends Error {}

const asList = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const toPosix = (p) => p.split(path.sep).join('/');

// What mocha-ordered needs of mocha's API; the first missing one is named with the
// version found, so that an old mocha says what it lacks.
const NEEDS = [
  ['Mocha.Suite', (M) => typeof M.Suite === 'function'],
  ['Mocha.Runner', (M) => typeof M.Runner === 'function'],
  ['Suite#addTest', (M) => typeof M.Suite.prototype.addTest === 'function'],
  ['Mocha#loadFiles', (M) => typeof M.prototype.loadFiles === 'function'],
  ['Mocha#run', (M) => typeof M.prototype.run === 'function'],
  ['Runner#abort', (M) => typeof M.Runner.prototype.abort === 'function'],
  ['Suite#fullTitle', (M) => typeof M.Suite.prototype.fullTitle === 'function'],
];

// The project's mocha, resolved from the spec root, then from the cwd (never from here).
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
    throw new MochaError(`cannot find mocha from ${[...new Set(bases)].join(' or ')}: ` +
      'run npm install in the project (mocha-ordered needs mocha 5 or later)');
  }
  let dir = path.dirname(resolved);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
  }
  let version = '?';
  try {
    version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  } catch (_) { /* unknown */ }
  let mod;
  try {
    mod = require(resolved);
  } catch (err) {
    if (!err || (err.code !== 'ERR_REQUIRE_ESM' && err.code !== 'ERR_REQUIRE_ASYNC_MODULE')) throw err;
    mod = await import(pathToFileURL(resolved).href);
  }
  const Mocha = mod && (mod.default || mod);
  if (typeof Mocha !== 'function') throw new MochaError(`${resolved} does not look like mocha`);
  for (const [what, ok] of NEEDS) {
    if (!ok(Mocha)) {
      throw new MochaError(`mocha ${version} at ${dir} has no ${what}: mocha-ordered needs mocha 5 or later`);
    }
  }
  return { Mocha, main: resolved, dir, version };
}

// One of mocha's own CommonJS modules (lib/cli/options), .js up to mocha 11, .cjs in
// mocha 12; null when this mocha has none (mocha 5's lib/cli).
function mochaFile(loaded, rel) {
  const req = createRequire(loaded.main);
  for (const ext of ['.js', '.cjs']) {
    const file = path.join(loaded.dir, ...rel.split('/')) + ext;
    if (fs.existsSync(file)) return req(file);
  }
  return null;
}

// mocha 5's test/mocha.opts, read as bin/_mocha reads it, and its options as its
// commander definitions take them (the ones that choose and load the specs).
function mochaOpts(specRoot, extraSpecs) {
  const cfg = { spec: [], require: [], file: [], ignore: [], extension: ['js'] };
  let words = [];
  try {
    words = fs.readFileSync(path.join(specRoot, 'test', 'mocha.opts'), 'utf8')
      .replace(/^#.*$/gm, '').replace(/\\\s/g, '%20').split(/\s/).filter(Boolean)
      .map((w) => w.replace(/%20/g, ' '));
  } catch (_) { /* no mocha.opts */ }
  const withValue = {
    '-r': 'require', '--require': 'require', '-u': 'ui', '--ui': 'ui', '-t': 'timeout',
    '--timeout': 'timeout', '--file': 'file', '--exclude': 'ignore', '--compilers': 'compilers',
    '-R': null, '--reporter': null, '-O': null, '--reporter-options': null, '-g': null,
    '--grep': null, '-f': null, '--fgrep': null, '-s': null, '--slow': null, '--retries': null,
    '--opts': null, '--watch-extensions': null, '--globals': null, '--inspect-brk': null,
  };
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    let inline = null;
    const eq = w.startsWith('--') ? w.indexOf('=') : -1;
    if (eq > 0) { inline = w.slice(eq + 1); w = w.slice(0, eq); }
    if (w in withValue) {
      const v = inline !== null ? inline : words[++i];
      const key = withValue[w];
      if (key === 'ui' || key === 'timeout') cfg[key] = v;
      else if (key === 'compilers') {
        // ext:module: the module is required and its extension read
        const k = v.indexOf(':');
        cfg.extension.push(v.slice(0, k));
        cfg.require.push(v.slice(k + 1));
      } else if (key) cfg[key].push(v);
    } else if (w === '--recursive') cfg.recursive = true;
    else if (w === '-S' || w === '--sort') cfg.sort = true;
    else if (!w.startsWith('-')) cfg.spec.push(w);
  }
  cfg.spec.push(...extraSpecs);
  cfg.source = 'test/mocha.opts';
  return cfg;
}

// The project's mocha configuration as its own mocha reads it from the spec root:
// spec, extension, recursive, ignore, sort, file, require, ui, timeout. `specs` are spec
// arguments given on our command line (as mocha's positional arguments).
function projectConfig(loaded, specRoot, specs) {
  const cwd = process.cwd();
  const options = mochaFile(loaded, 'lib/cli/options'); // mocha 5: none
  const loadOptions = options && options.loadOptions;
  if (typeof loadOptions !== 'function') return mochaOpts(specRoot, specs);
  try {
    process.chdir(specRoot);
    const o = loadOptions(specs.slice()) || {};
    const spec = [...asList(o.spec), ...asList(o._)].map(String);
    return {
      spec: [...new Set(spec)], extension: asList(o.extension), recursive: !!o.recursive,
      ignore: asList(o.ignore || o.exclude), sort: !!o.sort, file: asList(o.file),
      require: asList(o.require), ui: o.ui, timeout: o.timeout, source: 'mocha configuration',
    };
  } finally {
    process.chdir(cwd);
  }
}

const NO_FILES = new MochaError('no test files found');

// The spec files mocha would load, in its order (--file ones first), absolute; and the
// patterns that matched nothing. Paths are taken from the spec root, as mocha from its cwd.
function specFiles(loaded, specRoot, cfg) {
  const req = createRequire(loaded.main);
  const spec = cfg.spec.length ? cfg.spec : ['./test'];
  const cwd = process.cwd();
  const exit = process.exit;
  const warn = console.warn;
  const error = console.error;
  const said = [];
  const collect = mochaFile(loaded, 'lib/cli/collect-files'); // mocha 5: none
  try {
    process.chdir(specRoot);
    // mocha 6 and 7 exit when nothing matches, and print what did not match
    process.exit = () => { throw NO_FILES; };
    console.warn = console.error = (...a) => said.push(a.join(' ')
      .replace(/\x1b\[[0-9;]*m/g, '').replace(/^(Error|Warning): /, 'mocha: '));
    let files;
    if (typeof collect === 'function') {
      let got;
      try {
        got = collect({ ignore: cfg.ignore, extension: cfg.extension, file: cfg.file,
          recursive: cfg.recursive, sort: cfg.sort, spec });
      } catch (err) {
        if (err !== NO_FILES) throw err;
        got = []; // mocha stops there; the list is empty, and says why
      }
      files = Array.isArray(got) ? got : got.files;
      if (!Array.isArray(got) && got.unmatchedFiles) {
        for (const u of got.unmatchedFiles) said.push(`--file ${u.pattern} matches no file`);
      }
    } else {
      files = lookupFiles5(req, loaded.dir, spec, cfg, said);
    }
    return { files: files.map((f) => path.resolve(specRoot, f)), said };
  } finally {
    process.chdir(cwd);
    process.exit = exit;
    console.warn = warn;
    console.error = error;
  }
}

// mocha 5's bin/_mocha: lookupFiles per spec, --exclude, --sort, --file first.
function lookupFiles5(req, dir, spec, cfg, said) {
  const utils = req(path.join(dir, 'lib', 'utils.js'));
  let minimatch = null;
  try { minimatch = req('minimatch'); } catch (_) { /* no excludes then */ }
  let files = [];
  for (const arg of spec) {
    let found;
    try {
      found = utils.lookupFiles(arg, cfg.extension, cfg.recursive);
    } catch (err) {
      if (String(err.message).indexOf('cannot resolve path') === 0) {
        said.push(`mocha: Could not find any test files matching pattern: ${arg}`);
        continue;
      }
      throw err;
    }
    found = asList(found);
    if (minimatch) found = found.filter((f) => cfg.ignore.every((p) => !minimatch(f, p)));
    files = files.concat(found);
  }
  files = files.map((f) => path.resolve(f));
  if (cfg.sort) files.sort();
  return [...cfg.file.map((f) => path.resolve(f)), ...files];
}

// Where a test was registered: the frames of a stack captured in Suite#addTest, the first
// one outside node_modules, node's internals and these helpers; and the first one in the
// spec file being loaded.
const HERE = __dirname;
function frames(stack) {
  const out = [];
  for (const raw of String(stack).split('\n').slice(1)) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    let loc = line.slice(3);
    const open = loc.lastIndexOf('(');
    if (loc.endsWith(')') && open >= 0) loc = loc.slice(open + 1, -1);
    const m = /^(.*):(\d+):(\d+)$/.exec(loc);
    if (!m) continue;
    let file = m[1];
    if (file.startsWith('file://')) {
      try { file = fileURLToPath(file); } catch (_) { continue; }
    }
    if (!path.isAbsolute(file)) continue;
    out.push({ file, line: Number(m[2]) });
  }
  return out;
}

function callSite(stack, loading) {
  const own = (f) => f.file.split(path.sep).includes('node_modules') ||
    path.dirname(f.file) === HERE;
  const all = frames(stack);
  const src = all.find((f) => !own(f)) || null;
  const inSpec = loading ? all.find((f) => path.resolve(f.file) === loading) : null;
  return { src, line: inSpec ? inSpec.line : 0 };
}

// Loads the spec files one at a time, without running anything: for each test added, the
// spec file being loaded (mocha's test.file may name another: selenium-webdriver 3's
// testing module files every test under the first spec that required it) and where it was
// registered. A file that fails to load is one error, its tests taken back; the others
// still load. Returns { origins: Map test -> {file, src, line}, errors: [{file, error}] }.
async function loadSpecs(mocha, Mocha, files, { keepGoing }) {
  const origins = new Map();
  const errors = [];
  let loading = null;
  const proto = Mocha.Suite.prototype;
  const addTest = proto.addTest;
  proto.addTest = function (test) {
    const saved = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    const stack = new Error().stack;
    Error.stackTraceLimit = saved;
    const site = callSite(stack, loading);
    origins.set(test, { file: loading || (test.file && path.resolve(test.file)), src: site.src,
      line: site.line });
    return addTest.apply(this, arguments);
  };
  const root = mocha.suite;
  const async = typeof mocha.loadFilesAsync === 'function';
  try {
    for (const file of files) {
      loading = path.resolve(file);
      const nTests = root.tests.length;
      const nSuites = root.suites.length;
      mocha.files = [loading];
      try {
        if (async) await mocha.loadFilesAsync();
        else mocha.loadFiles();
      } catch (err) {
        if (!keepGoing) throw err;
        root.tests.splice(nTests);
        root.suites.splice(nSuites);
        errors.push({ file: loading, error: err });
      }
    }
    loading = null;
    // registrations that a file's promise made after it loaded (mocha awaits its imports)
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    mocha.files = []; // loaded: mocha 5's run() would load them again
    proto.addTest = addTest;
  }
  return { origins, errors };
}

// mocha's .only rules (Suite#hasOnly/#filterOnly, in mocha 5 and 6 the runner's).
function hasOnly(suite) {
  return suite._onlyTests.length > 0 || suite._onlySuites.length > 0 || suite.suites.some(hasOnly);
}
function filterOnly(suite) {
  if (suite._onlyTests.length) {
    suite.tests = suite._onlyTests;
    suite.suites = [];
  } else {
    suite.tests = [];
    for (const s of suite._onlySuites) if (hasOnly(s)) filterOnly(s);
    suite.suites = suite.suites.filter((s) => suite._onlySuites.indexOf(s) !== -1 || filterOnly(s));
  }
  return suite.tests.length > 0 || suite.suites.length > 0;
}

// All tests of a suite tree in mocha's run order: a suite's tests, then its suites.
function collectTests(suite, out) {
  for (const t of suite.tests) out.push(t);
  for (const s of suite.suites) collectTests(s, out);
  return out;
}

// The id of every test, in run order: spec path (from the spec root) :: full title; the
// k-th test with the same full title in a file gets " #k", running tests first in mocha's
// order, then pending ones (a pending test keeps its plain title when no running test
// has it). Returns [{test, file (absolute), id, pending}].
function identify(root, origins, specRoot) {
  const all = collectTests(root, []);
  const taken = new Set();
  const byTest = new Map();
  const fileOf = (t) => {
    const o = origins.get(t);
    return (o && o.file) || (t.file ? path.resolve(t.file) : null);
  };
  for (const pending of [false, true]) {
    for (const t of all) {
      const file = fileOf(t);
      if (!file || !!t.isPending() !== pending) continue;
      const base = `${toPosix(path.relative(specRoot, file))}::${t.fullTitle()}`;
      let id = base;
      for (let k = 2; taken.has(id); k++) id = `${base} #${k}`;
      taken.add(id);
      byTest.set(t, { test: t, file, id, pending });
    }
  }
  return all.filter((t) => byTest.has(t)).map((t) => byTest.get(t));
}

async function loadRequire(mod, specRoot, mocha) {
  // Relative paths are taken from the spec root, bare names from its node_modules.
  const req = createRequire(path.join(specRoot, '__mocha_ordered__.js'));
  const local = mod.startsWith('.') || path.isAbsolute(mod) || fs.existsSync(path.resolve(specRoot, mod)) ||
    fs.existsSync(path.resolve(specRoot, mod) + '.js');
  const target = local ? path.resolve(specRoot, mod) : mod;
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
  // Root hook plugins, as mocha's --require supports them (mocha 8 and later).
  let hooks = exported && (exported.mochaHooks || (exported.default && exported.default.mochaHooks));
  if (typeof hooks === 'function') hooks = await hooks();
  if (hooks && typeof mocha.rootHooks === 'function') mocha.rootHooks(hooks);
}

module.exports = {
  MochaError, asList, toPosix, loadMocha, projectConfig, specFiles, loadSpecs, hasOnly, filterOnly,
  collectTests, identify, loadRequire,
};
