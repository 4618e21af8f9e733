/* parse.c: the parse stage's driver: finds the source files, parses and indexes them,
 * lets each language discover its tests, and applies an order file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/internal.h"
#include "parse/mocharc.h"
#include "parse/parse.h"
#include "parse/pytest_ini.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define UT_DEFAULT_MAX_FILE (16u << 20)

static bool accept_source(const char *name)
{
	return ut_lang_of_path(name) != UT_LANG_NONE;
}

typedef struct {
	up_index ix;
	ut_arena temp; /* ix.temp */
	up_ctx ctx;    /* ix.ctx: discovery's, keeping no field types */
	ut_ts *ts;
	unsigned jobs; /* threads for reading and parsing */
	ut_diags *diags;
	size_t parsed;
} driver;

typedef UT_VEC(up_load) ut_loads;

static void driver_dispose(driver *dr)
{
	size_t i;

	for (i = 0; i < dr->ix.files.n; i++) {
		up_file *f = dr->ix.files.v[i];

		up_syn_tree_free(f->tree);
		ut_buf_dispose(&f->src);
		ut_map_dispose(&f->constants);
		ut_map_dispose(&f->assigned);
		free(f->path);
		free(f);
	}
	for (i = 0; i < dr->ix.all_classes.n; i++) {
		ut_map_dispose(&dr->ix.all_classes.v[i]->constants);
		ut_map_dispose(&dr->ix.all_classes.v[i]->fields);
	}
	ut_vec_free(&dr->ix.all_classes);
	ut_vec_free(&dr->ix.files);
	ut_map_dispose(&dr->ix.fns);
	ut_map_dispose(&dr->ix.classes);
	ut_map_dispose(&dr->ix.globals);
	ut_arena_dispose(&dr->ix.scratch);
	ut_arena_dispose(&dr->temp);
	up_ts_free(dr->ts);
}

static void file_free(up_file *f)
{
	if (!f)
		return;
	up_syn_tree_free(f->tree);
	ut_buf_dispose(&f->src);
	free(f->path);
	free(f);
}

/* A job for one file, its data given or read from path. */
static int add_job(driver *dr, ut_loads *jobs, const char *path, const char *rel,
		   ut_lang lang, bool test_file, const char *data, size_t len, size_t max)
{
	up_load job;
	up_file *f = calloc(1, sizeof(*f));

	memset(&job, 0, sizeof(job));
	ut_diags_init(&job.diags);
	job.f = f;
	job.read = !data;
	job.max = max;
	if (!f || !(f->path = strdup(path)))
		goto nomem;
	f->lang = lang;
	f->test_file = test_file;
	f->rel = ut_arena_strdup(dr->ix.arena, rel);
	if (!f->rel)
		goto nomem;
	ut_buf_init(&f->src, 0);
	if ((data && ut_buf_put(&f->src, data, len) < 0) || ut_vec_push(jobs, job) < 0)
		goto nomem;
	return 0;
nomem:
	file_free(f);
	return ut_error_set(UT_ENOMEM, "out of memory");
}

/* Loads the files of the jobs, then, in their order, passes their warnings on and
 * indexes those that were parsed. */
static int load_all(driver *dr, ut_loads *jobs)
{
	size_t i, k;
	int rc = 0;

	up_load_files(jobs->v, jobs->n, dr->jobs, dr->ts);
	for (i = 0; i < jobs->n; i++) {
		up_load *job = &jobs->v[i];

		for (k = 0; rc == 0 && k < job->diags.items.n; k++)
			ut_diags_copy(dr->diags, &job->diags.items.v[k]);
		ut_diags_dispose(&job->diags);
		if (rc == 0 && job->rc < 0)
			rc = ut_error_set(job->rc, "%s", job->error);
		if (rc == 0 && job->rc > 0) {
			/* the index holds the file from here on, even when it fails */
			rc = up_index_add_file(&dr->ix, job->f);
			job->f = NULL;
			dr->parsed++;
		}
		file_free(job->f);
		job->f = NULL;
	}
	return rc;
}

static int discover(driver *dr, ut_suite *suite, const ut_parse_opts *opts,
		    const ut_pytest_ini *pytest)
{
	up_discover d;
	int rc;

	d.ix = &dr->ix;
	d.suite = suite;
	d.diags = dr->diags;
	d.framework = opts ? opts->framework : NULL;
	d.keep_all = opts && opts->order_file;
	d.testng_xml = opts ? opts->testng_xml : NULL;
	d.pytest = pytest;
	d.jobs = dr->jobs;
	memset(&d.ids, 0, sizeof(d.ids));
	memset(&d.plans, 0, sizeof(d.plans));
	ut_arena_init(&d.walk_arena);
	rc = up_java_discover(&d);
	if (rc == 0)
		rc = up_python_discover(&d);
	if (rc == 0)
		rc = up_js_discover(&d);
	up_walks_dispose(&d); /* what a failed discovery recorded */
	ut_map_dispose(&d.ids);
	return rc;
}

/* The error for a suite in which nothing registers a test: what was read (test files per
 * language, the frameworks their imports name) and what to configure. */
static int nothing_found(const driver *dr, const ut_parse_opts *opts)
{
	size_t count[UT_LANG__COUNT] = {0}, total = 0, i, k, nfw = 0;
	const char *fw[8];
	char langs[160] = "", frameworks[160] = "";
	size_t used = 0;

	for (i = 0; i < dr->ix.files.n; i++) {
		const up_file *f = dr->ix.files.v[i];

		if (!f->test_file)
			continue;
		count[f->lang]++;
		total++;
		for (k = 0; k < nfw && f->framework && strcmp(fw[k], f->framework) != 0; k++)
			;
		if (f->framework && k == nfw && nfw < sizeof(fw) / sizeof(fw[0]))
			fw[nfw++] = f->framework;
	}
	for (i = 0; i < UT_LANG__COUNT; i++)
		if (count[i] && used < sizeof(langs))
			used +=
			    (size_t)snprintf(langs + used, sizeof(langs) - used, "%s%s %zu",
					     used ? ", " : "", ut_lang_name((ut_lang)i), count[i]);
	for (used = 0, k = 0; k < nfw && used < sizeof(frameworks); k++)
		used += (size_t)snprintf(frameworks + used, sizeof(frameworks) - used, "%s%s",
					 used ? ", " : "", fw[k]);
	return ut_error_set(
	    UT_EINPUT,
	    "no tests found below '%s': test sources read: %zu (%s), frameworks seen: %s; no "
	    "function, method or call there registers a test as pytest, unittest, JUnit, "
	    "TestNG, mocha or jest would. Point 'suite.paths' in untangle.json (or the "
	    "PATH arguments) at the tests (Python test files are named test_*.py or "
	    "*_test.py), and set 'runner.preset' when the framework is not the one its "
	    "imports suggest",
	    opts->npaths ? opts->paths[0] : opts->root, total, langs[0] ? langs : "none",
	    nfw ? frameworks : "none");
}

/* What chooses the test files: the paths, for Python pytest's options, and for JavaScript
 * the project's mocha configuration when it names the spec files. */
typedef struct {
	const ut_parse_opts *opts;
	ut_pytest_ini ini;
	bool python;             /* ini was read */
	const ut_mocharc *specs; /* mocha's spec patterns in force, or NULL */
} selection;

/* -1 when the file holds no tests; else the index of the path that collects it (pytest
 * collects its arguments in order), 0 for the other languages. */
static int test_file_key(const char *path, ut_lang lang, const selection *sel)
{
	const ut_parse_opts *opts = sel->opts;
	size_t i;
	bool inside = opts->npaths == 0;

	if (lang == UT_LANG_PYTHON && sel->python)
		return ut_pytest_ini_arg_of(&sel->ini, path);
	for (i = 0; i < opts->npaths && !inside; i++)
		inside = ut_path_under(path, opts->paths[i]);
	if (!inside)
		return -1;
	if (sel->specs && ut_lang_is_js(lang))
		return ut_mocharc_is_spec(sel->specs, ut_path_relative(path, opts->root)) ? 0 : -1;
	return 0;
}

static bool is_test_file(const char *path, ut_lang lang, const selection *sel)
{
	return test_file_key(path, lang, sel) >= 0;
}

typedef struct {
	int key;
	size_t i;
} file_key;

static int cmp_file_key(const void *a, const void *b)
{
	const file_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Python test files in pytest's order: those of its first argument first (testpaths or
 * suite.paths in their order), each argument's in the walk's order; the other files stay
 * in place. */
static int order_files(ut_pathlist *files, const selection *sel)
{
	file_key *k;
	char **copy;
	size_t i;

	if (!sel->python || sel->ini.args.n < 2 || files->n < 2)
		return 0;
	k = malloc(files->n * sizeof(*k));
	copy = malloc(files->n * sizeof(*copy));
	if (!k || !copy) {
		free(k);
		free(copy);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < files->n; i++) {
		ut_lang l = ut_lang_of_path(files->paths[i]);

		k[i].key = l == UT_LANG_PYTHON ? test_file_key(files->paths[i], l, sel) : -1;
		k[i].i = i;
		copy[i] = files->paths[i];
	}
	qsort(k, files->n, sizeof(*k), cmp_file_key);
	for (i = 0; i < files->n; i++)
		files->paths[i] = copy[k[i].i];
	free(k);
	free(copy);
	return 0;
}

/* The project's mocha configuration, when it names spec files and some JavaScript files
 * of the suite are among them (warned when none is). */
static const ut_mocharc *mocha_specs(ut_mocharc *rc, const ut_pathlist *files,
				     const selection *sel, ut_diags *diags)
{
	selection all = *sel, only = *sel;
	size_t i, js = 0;

	if (!rc->spec.n)
		return NULL;
	all.specs = NULL;
	only.specs = rc;
	for (i = 0; i < files->n; i++) {
		ut_lang l = ut_lang_of_path(files->paths[i]);

		if (!ut_lang_is_js(l) || !is_test_file(files->paths[i], l, &all))
			continue;
		js++;
		if (is_test_file(files->paths[i], l, &only))
			return rc;
	}
	if (js)
		ut_diags_add(diags, UT_DIAG_WARNING, rc->source, 0,
			     "mocha's spec (%s%s) matches none of the suite's JavaScript files: "
			     "all of them are read as specs",
			     rc->spec.v[0], rc->spec.n > 1 ? ", ..." : "");
	return NULL;
}

/* Moves the tests named in the order file to the front, in its order. */
static int apply_order(ut_suite *suite, const char *path, ut_diags *diags)
{
	ut_buf text = UT_BUF_INIT;
	UT_VEC(ut_test) ordered = {0};
	bool *taken = NULL;
	size_t i, pos = 0;
	unsigned line = 0;
	int rc;

	rc = ut_fs_read(&text, path, 64u << 20);
	if (rc < 0)
		goto done;
	taken = calloc(suite->tests.n + 1, sizeof(bool));
	if (!taken) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	while (pos < text.len) {
		size_t end = pos, len;
		const char *s = text.ptr + pos;

		while (end < text.len && text.ptr[end] != '\n')
			end++;
		len = end - pos;
		line++;
		pos = end + 1;
		while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		if (!len || *s == '#')
			continue;
		for (i = 0; i < suite->tests.n; i++)
			if (strlen(suite->tests.v[i].id) == len &&
			    memcmp(suite->tests.v[i].id, s, len) == 0)
				break;
		if (i == suite->tests.n) {
			ut_diags_add(diags, UT_DIAG_WARNING, path, line, "unknown test '%.*s'",
				     (int)(len > 200 ? 200 : len), s);
			continue;
		}
		if (taken[i]) {
			ut_diags_add(diags, UT_DIAG_WARNING, path, line, "test '%.*s' listed twice",
				     (int)(len > 200 ? 200 : len), s);
			continue;
		}
		taken[i] = true;
		if (ut_vec_push(&ordered, suite->tests.v[i]) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < suite->tests.n; i++) {
		if (taken[i])
			continue;
		ut_diags_add(diags, UT_DIAG_WARNING, path, 0,
			     "test '%s' is not in the order file; it runs after the listed ones",
			     suite->tests.v[i].id);
		if (ut_vec_push(&ordered, suite->tests.v[i]) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < ordered.n; i++) {
		ordered.v[i].index = i;
		suite->tests.v[i] = ordered.v[i];
	}
done:
	free(taken);
	ut_vec_free(&ordered);
	ut_buf_dispose(&text);
	return rc;
}

static int driver_init(driver *dr, ut_suite *suite, ut_diags *diags, const char *root)
{
	memset(dr, 0, sizeof(*dr));
	dr->diags = diags;
	dr->ix.arena = &suite->arena;
	dr->ix.diags = diags;
	dr->ix.root = root;
	ut_arena_init(&dr->ix.scratch);
	ut_arena_init(&dr->temp);
	dr->ix.temp = &dr->temp;
	up_ctx_init(&dr->ctx, NULL);
	dr->ix.ctx = &dr->ctx;
	return up_ts_new(&dr->ts);
}

int ut_parse_source_files(ut_pathlist *out, const ut_parse_opts *opts)
{
	size_t i;
	/* every source below the root is indexed (helpers, page objects, conftest.py);
	 * tests come only from the given paths */
	int rc = ut_fs_walk(out, opts->root, accept_source);

	for (i = 0; i < opts->npaths && rc == 0; i++)
		if (!ut_path_under(opts->paths[i], opts->root))
			rc = ut_fs_walk(out, opts->paths[i], accept_source);
	return rc;
}

/* The source files below the root and the given paths, in the order they are read, and
 * what selects the tests among them: pytest's ini file (its warnings in ini_diags, given
 * only when there are Python tests) and mocha's spec patterns. */
static int select_sources(ut_pathlist *files, selection *sel, ut_mocharc *mrc, ut_diags *ini_diags,
			  ut_diags *diags)
{
	const ut_parse_opts *opts = sel->opts;
	size_t i;
	int rc;

	for (i = 0; i < opts->npaths; i++)
		if (!ut_fs_exists(opts->paths[i]))
			return ut_error_set(UT_ENOTFOUND, "'%s' does not exist", opts->paths[i]);
	rc = ut_parse_source_files(files, opts);
	if (rc == 0 && (opts->language == UT_LANG_NONE || opts->language == UT_LANG_PYTHON)) {
		/* pytest's ini file: which files, classes and functions are tests */
		rc = ut_pytest_ini_load(&sel->ini, opts->root, ini_diags);
		sel->python = true;
		if (rc == 0)
			rc = ut_pytest_ini_args(&sel->ini, opts->root, opts->paths, opts->npaths);
	}
	if (rc == 0)
		rc = order_files(files, sel);
	if (rc == 0 && opts->root)
		rc = ut_mocharc_read(mrc, opts->root);
	if (rc < 0)
		return rc;
	sel->specs = mocha_specs(mrc, files, sel, diags);
	return 0;
}

/* Whether l's sources are indexed: the languages the tests are written in (seen), within
 * the one asked for; the JavaScript family counts as one. */
static bool indexed_lang(ut_lang l, const ut_parse_opts *opts, const bool *seen)
{
	if (l == UT_LANG_NONE ||
	    (opts->language != UT_LANG_NONE &&
	     !(opts->language == l || (ut_lang_is_js(l) && ut_lang_is_js(opts->language)))))
		return false;
	return seen[l] || (ut_lang_is_js(l) && (seen[UT_LANG_JAVASCRIPT] ||
						seen[UT_LANG_TYPESCRIPT] || seen[UT_LANG_TSX]));
}

/* One load job for each file of a language the tests are written in; pytest.ini's
 * warnings go to the run's when there are Python tests. */
static int queue_sources(driver *dr, ut_loads *jobs, const ut_pathlist *files, const selection *sel,
			 const ut_diags *ini_diags)
{
	const ut_parse_opts *opts = sel->opts;
	size_t i, max = opts->max_file_size ? opts->max_file_size : UT_DEFAULT_MAX_FILE;
	bool seen[UT_LANG__COUNT] = {false};
	int rc = 0;

	for (i = 0; i < files->n; i++) {
		ut_lang l = ut_lang_of_path(files->paths[i]);

		if (is_test_file(files->paths[i], l, sel))
			seen[l] = true;
	}
	for (i = 0; seen[UT_LANG_PYTHON] && i < ini_diags->items.n; i++)
		ut_diags_copy(dr->diags, &ini_diags->items.v[i]);
	for (i = 0; i < files->n && rc == 0; i++) {
		const char *path = files->paths[i];
		ut_lang l = ut_lang_of_path(path);

		if (indexed_lang(l, opts, seen))
			rc = add_job(dr, jobs, path, ut_path_relative(path, opts->root), l,
				     is_test_file(path, l, sel), NULL, 0, max);
	}
	return rc;
}

int ut_parse_suite(ut_suite **out, const ut_parse_opts *opts, ut_diags *diags)
{
	ut_suite *suite = NULL;
	ut_pathlist files = {0};
	ut_loads jobs = {0};
	driver dr;
	size_t i;
	selection sel;
	ut_diags ini_diags;
	ut_mocharc mrc;
	int rc;

	*out = NULL;
	memset(&dr, 0, sizeof(dr));
	memset(&sel, 0, sizeof(sel));
	memset(&mrc, 0, sizeof(mrc));
	sel.opts = opts;
	ut_diags_init(&ini_diags);
	rc = ut_suite_new(&suite);
	if (rc < 0)
		return rc;
	rc = driver_init(&dr, suite, diags, opts->root);
	if (rc < 0)
		goto done;
	dr.jobs = opts->jobs;
	rc = select_sources(&files, &sel, &mrc, &ini_diags, diags);
	if (rc == 0)
		rc = queue_sources(&dr, &jobs, &files, &sel, &ini_diags);
	if (rc == 0)
		rc = load_all(&dr, &jobs);
	if (rc < 0)
		goto done;
	if (!dr.parsed) {
		rc = ut_error_set(UT_EINPUT, "no test source could be read below '%s'",
				  opts->npaths ? opts->paths[0] : opts->root);
		goto done;
	}
	rc = discover(&dr, suite, opts, sel.python ? &sel.ini : NULL);
	if (rc == 0 && suite->tests.n == 0)
		rc = nothing_found(&dr, opts);
	if (rc == 0 && opts->order_file)
		rc = apply_order(suite, opts->order_file, diags);
done:
	for (i = 0; i < jobs.n; i++) {
		ut_diags_dispose(&jobs.v[i].diags);
		file_free(jobs.v[i].f);
	}
	ut_vec_free(&jobs);
	driver_dispose(&dr);
	ut_pathlist_dispose(&files);
	if (sel.python)
		ut_pytest_ini_dispose(&sel.ini);
	ut_mocharc_dispose(&mrc);
	ut_diags_dispose(&ini_diags);
	if (rc < 0)
		ut_suite_free(suite);
	else
		*out = suite;
	return rc;
}

int ut_parse_buffer(ut_suite **out, ut_lang lang, const char *name, const char *data,
		    size_t len, ut_diags *diags)
{
	ut_suite *suite = NULL;
	ut_loads jobs = {0};
	driver dr;
	int rc;

	*out = NULL;
	rc = ut_suite_new(&suite);
	if (rc < 0)
		return rc;
	rc = driver_init(&dr, suite, diags, ".");
	if (rc == 0)
		rc = add_job(&dr, &jobs, name, name, lang, true, data, len, UT_DEFAULT_MAX_FILE);
	if (rc == 0)
		rc = load_all(&dr, &jobs);
	ut_vec_free(&jobs);
	if (rc == 0 && !dr.parsed)
		rc = ut_error_set(UT_EINPUT, "'%s' could not be parsed", name);
	if (rc == 0)
		rc = discover(&dr, suite, NULL, NULL);
	driver_dispose(&dr);
	if (rc < 0)
		ut_suite_free(suite);
	else
		*out = suite;
	return rc;
}
