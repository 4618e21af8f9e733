/* init.c: the survey behind `untangle init` and the configuration it proposes. */
#include "init/init.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "init/classpath.h"
#include "extract/extract.h"
#include "json/json.h"
#include "parse/parse.h"
#include "proc/process.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/buf.h"
#include "util/vec.h"
#include "util/banned.h"

/* The interpreter named (runner.python) when the python3 first on PATH lacks pytest (a
 * pyenv or virtualenv interpreter) and Debian's has it. */
#define UT_SYSTEM_PYTHON "/usr/bin/python3"

/* Whether `python` imports pytest (a child process, 30 s at most). */
static bool imports_pytest(const char *python, const char *const *env)
{
	const char *argv[] = {python, "-c", "import pytest", NULL};
	ut_proc_opts po;
	ut_proc_result res;
	bool ok;

	memset(&po, 0, sizeof(po));
	po.argv = argv;
	po.env = env;
	po.timeout_s = 30;
	po.tail_max = 4096;
	ok = ut_proc_run(&res, &po) == 0 && res.state == UT_PROC_EXITED && res.exit_code == 0;
	ut_proc_result_dispose(&res);
	return ok;
}

/* The folder a test's sources start from: for Java the source root its package folders
 * hang off (src/test/java for src/test/java/shop/cart/PayTest.java in package shop.cart),
 * where a root suite in another package folder is found too; else the test file's folder.
 * "" for the root. */
static const char *source_folder(ut_arena *a, const ut_test *t)
{
	const char *slash = strrchr(t->file, '/'), *hash = strchr(t->id, '#');
	size_t dir = slash ? (size_t)(slash - t->file) : 0, pkg = 0, i;
	const char *dot = NULL;

	for (i = 0; t->language == UT_LANG_JAVA && hash && t->id + i < hash; i++)
		if (t->id[i] == '.')
			dot = t->id + i;
	pkg = dot ? (size_t)(dot - t->id) : 0;
	/* the folder ends with the package's path: cut it */
	if (pkg && pkg <= dir && (pkg == dir || t->file[dir - pkg - 1] == '/')) {
		for (i = 0; i < pkg; i++)
			if (t->file[dir - pkg + i] != (t->id[i] == '.' ? '/' : t->id[i]))
				break;
		if (i == pkg)
			dir = pkg == dir ? 0 : dir - pkg - 1;
	}
	return ut_arena_strndup(a, t->file, dir);
}

/* The length of the longest common folder of a[0, n) and b: whole folder names only. */
static size_t common_prefix(const char *a, size_t n, const char *b)
{
	size_t k = 0, lb = strlen(b);

	while (k < n && k < lb && a[k] == b[k])
		k++;
	if ((k == n && (k == lb || b[k] == '/')) || (k == lb && (k == n || a[k] == '/')))
		return k; /* one is a folder of the other */
	while (k && a[k] != '/')
		k--;
	return k;
}

/* The folder all the tests' sources are in (the longest common folder of their
 * source_folder), or NULL for the root. */
static const char *common_folder(ut_arena *a, const ut_suite *s)
{
	const char *first = source_folder(a, &s->tests.v[0]);
	size_t n = first ? strlen(first) : 0, i;

	for (i = 1; i < s->tests.n && n; i++) {
		const char *f = source_folder(a, &s->tests.v[i]);

		n = f ? common_prefix(first, n, f) : 0;
	}
	return n ? ut_arena_strndup(a, first, n) : NULL;
}

static int describe_languages(ut_init *in, const ut_suite *s)
{
	bool seen[UT_LANG__COUNT] = {false};
	ut_buf b = UT_BUF_INIT;
	size_t i, kinds = 0;
	int rc = 0;

	for (i = 0; i < s->tests.n; i++)
		if (s->tests.v[i].language != UT_LANG_NONE)
			seen[s->tests.v[i].language] = true;
	for (i = 0; i < UT_LANG__COUNT && rc == 0; i++) {
		if (!seen[i] || (i == UT_LANG_TSX && seen[UT_LANG_TYPESCRIPT]))
			continue;
		rc = ut_buf_printf(&b, "%s%s", kinds ? ", " : "", ut_lang_name((ut_lang)i));
		kinds++;
		in->language = ut_lang_name((ut_lang)i);
	}
	if (rc == 0)
		in->languages = ut_arena_strdup(&in->arena, b.ptr ? b.ptr : "");
	if (kinds != 1)
		in->language = NULL;
	ut_buf_dispose(&b);
	return rc == 0 && in->languages ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

/* The values extract's rule proposes (dropped by the value filter by itself, and
 * submitted by some test): written out so that the user sees and edits them. */
static int propose_values(ut_init *in, const ut_suite *s)
{
	ut_value_stats st;
	size_t i, n = 0;
	int rc = ut_value_stats_build(&st, s, NULL, 0);

	if (rc < 0)
		return rc;
	in->values = ut_arena_alloc(&in->arena, (st.n ? st.n : 1) * sizeof(*in->values));
	if (!in->values)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < st.n; i++) {
		const ut_value_stat *v = &st.v[i];

		/* "" (a field cleared) is no value a test could share with another */
		if (!ut_value_proposed(v, st.ntests) || !v->value[strspn(v->value, " \t\r\n")])
			continue;
		in->values[n].value = ut_arena_strdup(&in->arena, v->value);
		in->values[n].submitters = v->submitters;
		in->values[n].users = v->users;
		if (!in->values[n].value)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		n++;
	}
	in->nvalues = n;
	ut_value_stats_dispose(&st);
	return rc;
}

/* "v20.9.1" or "20.9.1" into v[3]; false when it is not a version. */
static bool version3(const char *s, long v[3])
{
	char *end;
	int i;

	while (*s == ' ' || *s == 'v' || *s == '=')
		s++;
	for (i = 0; i < 3; i++) {
		if (i && *s++ != '.') {
			v[i] = *s == 'x' || *s == '*' ? -1 : 0; /* "18.x", "18" */
			for (; i < 3; i++)
				v[i] = v[i] < 0 ? -1 : 0;
			return true;
		}
		if (*s == 'x' || *s == '*') {
			for (; i < 3; i++)
				v[i] = -1;
			return true;
		}
		v[i] = strtol(s, &end, 10);
		if (end == s)
			return false;
		s = end;
	}
	return true;
}

static int vcmp(const long a[3], const long b[3])
{
	for (int i = 0; i < 3; i++)
		if (b[i] >= 0 && a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Whether version have satisfies one comparator ("^18.18.0", ">=21.1.0", "<22", "18.x"). */
static bool satisfies_one(const long have[3], const char *c)
{
	long want[3];
	const char *op = c;

	while (*c == '^' || *c == '~' || *c == '>' || *c == '<' || *c == '=')
		c++;
	if (!version3(c, want))
		return true; /* not understood: not a reason to warn */
	if (*op == '^')
		return have[0] == want[0] && vcmp(have, want) >= 0;
	if (*op == '~')
		return have[0] == want[0] && have[1] == want[1] && vcmp(have, want) >= 0;
	if (op[0] == '>' && op[1] == '=')
		return vcmp(have, want) >= 0;
	if (op[0] == '>')
		return vcmp(have, want) > 0;
	if (op[0] == '<' && op[1] == '=')
		return vcmp(have, want) <= 0;
	if (op[0] == '<')
		return vcmp(have, want) < 0;
	return vcmp(have, want) == 0;
}

/* An npm engines range ("^18.18.0 || ^20.9.0 || >=21.1.0"; space-separated comparators
 * within an alternative all hold): whether version satisfies it. */
bool ut_init_node_satisfies(const char *version, const char *range)
{
	long have[3];
	char alt[128], *save = NULL, *tok;
	const char *p = range, *bar;

	if (!version3(version, have) || !range)
		return true;
	for (;; p = bar + 2) {
		bool all = true;

		bar = strstr(p, "||");
		snprintf(alt, sizeof(alt), "%.*s", (int)(bar ? bar - p : (long)strlen(p)), p);
		for (tok = strtok_r(alt, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if ((tok[0] == '>' || tok[0] == '<') && !tok[tok[1] == '=' ? 2 : 1]) {
				char *next = strtok_r(NULL, " ", &save); /* ">= 14" */
				char both[64];

				snprintf(both, sizeof(both), "%s%s", tok, next ? next : "");
				all &= satisfies_one(have, both);
				continue;
			}
			all &= satisfies_one(have, tok);
		}
		if (all)
			return true;
		if (!bar)
			return false;
	}
}

/* `node --version`, or "" when node does not answer (30 s at most). */
static void node_version(char *out, size_t size)
{
	const char *argv[] = {"node", "--version", NULL};
	ut_proc_opts po;
	ut_proc_result res;

	memset(&po, 0, sizeof(po));
	po.argv = argv;
	po.timeout_s = 30;
	po.tail_max = 256;
	out[0] = '\0';
	if (ut_proc_run(&res, &po) == 0 && res.state == UT_PROC_EXITED && res.exit_code == 0)
		snprintf(out, size, "%.*s", (int)strcspn(res.tail, "\r\n"), res.tail);
	ut_proc_result_dispose(&res);
}

/* The mocha preset's helper (ci/runners/mocha-ordered.js) runs the project's own mocha,
 * 5 or later, found as node finds it from here: said when there is none or an older one. */
static void check_mocha(ut_diags *diags)
{
	static const char *const up[] = {"", "../", "../../", "../../../", NULL};
	ut_buf path = UT_BUF_INIT, text = UT_BUF_INIT;
	const char *const *u;
	const char *version = NULL;
	ut_json *doc = NULL;

	for (u = up; *u && !doc; u++) {
		path.len = 0;
		text.len = 0;
		if (ut_buf_printf(&path, "%snode_modules/mocha/package.json", *u) < 0 ||
		    !ut_fs_exists(path.ptr))
			continue;
		if (ut_fs_read(&text, path.ptr, 1u << 20) < 0 ||
		    ut_json_parse(&doc, text.ptr, text.len, path.ptr) < 0)
			doc = NULL;
		ut_error_clear();
		break;
	}
	version = doc ? ut_json_string(ut_json_get(doc, "version")) : NULL;
	if (!*u)
		ut_diags_add(diags, UT_DIAG_WARNING, "package.json", 0,
			     "no node_modules/mocha here: install the project's packages (npm ci) "
			     "before untangle runs it; the mocha preset needs mocha 5 or later");
	else if (version && strtol(version, NULL, 10) < 5)
		ut_diags_add(diags, UT_DIAG_WARNING, path.ptr, 0,
			     "mocha %s: the mocha preset's runner needs mocha 5 or later", version);
	if (*u && doc) {
		const char *range = ut_json_string(ut_json_get(ut_json_get(doc, "engines"), "node"));
		char node[64];

		node_version(node, sizeof(node));
		if (!*node)
			ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
				     "node does not answer 'node --version': the mocha preset runs "
				     "the tests with node (install Node.js, or put it on PATH)");
		else if (range && !ut_init_node_satisfies(node, range))
			ut_diags_add(diags, UT_DIAG_WARNING, path.ptr, 0,
				     "mocha %s needs node %s (its engines), this node is %s: use a "
				     "node it supports, or a mocha that supports this node",
				     version ? version : "?", range, node);
	}
	ut_json_free(doc);
	ut_buf_dispose(&path);
	ut_buf_dispose(&text);
}

/* The Java presets need CLASSPATH: proposed from what the build left in the project. */
static int java_classpath(ut_init *in, const ut_suite *suite, ut_diags *diags)
{
	ut_init_classpath cp;
	int rc = ut_init_find_classpath(&cp, suite, in->preset);

	if (rc < 0)
		return rc;
	if (cp.found_classes == 0 && cp.test_classes)
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
			     "no compiled test classes below this folder (%s, say): compile the "
			     "tests (mvn test-compile, gradle testClasses, or the project's build), "
			     "then run 'untangle init' again, or set CLASSPATH in runner.env",
			     cp.first_class);
	else if (cp.found_classes < cp.test_classes)
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
			     "%zu of %zu test classes have no compiled class below this folder: "
			     "the build is older than the sources, or puts them elsewhere",
			     cp.test_classes - cp.found_classes, cp.test_classes);
	if (cp.missing_framework[0])
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0, "%s", cp.missing_framework);
	if (!cp.selenium)
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
			     "no Selenium client jar in the project (selenium-java, or the "
			     "selenium-server-standalone jar): add it to CLASSPATH in runner.env, "
			     "e.g. from 'mvn dependency:build-classpath'");
	if (cp.found_classes && cp.value) {
		in->classpath = ut_arena_strdup(&in->arena, cp.value);
		in->class_roots = cp.roots.n;
		in->project_jars = cp.project_jars;
		in->system_jars = cp.system_jars;
		if (!in->classpath)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	ut_init_classpath_dispose(&cp);
	return rc;
}

static bool java_preset(const char *preset)
{
	return preset && (!strcmp(preset, "junit4") || !strcmp(preset, "junit5") ||
			  !strcmp(preset, "testng"));
}

int ut_init_survey(ut_init **out, const ut_init_opts *opts, ut_diags *diags)
{
	ut_suite *suite = NULL;
	ut_parse_opts po;
	ut_init *in = calloc(1, sizeof(*in));
	int rc;

	*out = NULL;
	if (!in)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ut_arena_init(&in->arena);
	memset(&po, 0, sizeof(po));
	po.root = ".";
	po.language = UT_LANG_NONE;
	po.jobs = opts->jobs;
	rc = ut_parse_suite(&suite, &po, diags);
	if (rc < 0)
		goto done;
	in->ntests = suite->tests.n;
	in->nfiles = ut_suite_count_files(suite);
	in->framework = ut_suite_main_framework(suite);
	in->framework = in->framework ? ut_arena_strdup(&in->arena, in->framework) : NULL;
	in->preset = ut_config_preset_for(in->framework);
	in->path = common_folder(&in->arena, suite);
	in->reset = opts->reset;
	in->nreset = opts->nreset;
	rc = describe_languages(in, suite);
	if (rc == 0)
		rc = propose_values(in, suite);
	/* probe_python: off in unit tests, where no project is installed */
	if (rc == 0 && opts->probe_python && in->preset && strcmp(in->preset, "mocha") == 0)
		check_mocha(diags);
	if (rc == 0 && opts->probe_python && in->preset && strcmp(in->preset, "pytest") == 0 &&
	    !imports_pytest("python3", NULL)) {
		if (imports_pytest(UT_SYSTEM_PYTHON, NULL))
			in->python = UT_SYSTEM_PYTHON;
		else
			ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
				     "neither the python3 first on PATH nor %s imports pytest: "
				     "install it, or name an interpreter that has it in "
				     "runner.python", UT_SYSTEM_PYTHON);
	}
	if (rc == 0 && opts->probe_python && java_preset(in->preset))
		rc = java_classpath(in, suite, diags);
done:
	ut_suite_free(suite);
	if (rc < 0)
		ut_init_free(in);
	else
		*out = in;
	return rc;
}

int ut_init_config_json(const ut_init *in, ut_buf *out)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	if (in->path || in->language) {
		ut_jsonw_key(&w, "suite");
		ut_jsonw_obj_begin(&w);
		if (in->path) {
			ut_jsonw_key(&w, "paths");
			ut_jsonw_strs(&w, &in->path, 1);
		}
		if (in->language) {
			ut_jsonw_kstr(&w, "language", in->language);
		}
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_key(&w, "runner");
	ut_jsonw_obj_begin(&w);
	if (in->preset) {
		ut_jsonw_kstr(&w, "preset", in->preset);
	} else {
		/* nothing runs these tests in a given order yet: the user writes the command */
		ut_jsonw_key(&w, "command");
		ut_jsonw_strs(&w, NULL, 0);
	}
	if (in->nreset) {
		ut_jsonw_key(&w, "reset");
		ut_jsonw_strs(&w, in->reset, in->nreset);
	}
	if (in->python)
		ut_jsonw_kstr(&w, "python", in->python);
	if (in->classpath) {
		ut_jsonw_key(&w, "env");
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "CLASSPATH", in->classpath);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "values");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "ignore");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < in->nvalues; i++)
		ut_jsonw_str(&w, in->values[i].value);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

int ut_init_survey_json(const ut_init *in, ut_buf *out)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "tests", (long long)in->ntests);
	ut_jsonw_kint(&w, "files", (long long)in->nfiles);
	ut_jsonw_kstr(&w, "languages", in->languages);
	ut_jsonw_kstr(&w, "framework", in->framework);
	ut_jsonw_kstr(&w, "preset", in->preset);
	ut_jsonw_kstr(&w, "path", in->path);
	ut_jsonw_kstr(&w, "python", in->python);
	ut_jsonw_kstr(&w, "classpath", in->classpath);
	ut_jsonw_key(&w, "reset");
	ut_jsonw_strs(&w, in->reset, in->nreset);
	ut_jsonw_key(&w, "values_ignore");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < in->nvalues; i++) {
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "value", in->values[i].value);
		ut_jsonw_kint(&w, "submitters", (long long)in->values[i].submitters);
		ut_jsonw_kint(&w, "users", (long long)in->values[i].users);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

typedef UT_VEC(ut_init_change) change_vec;

/* v as compact JSON (what a difference shows). */
static void write_value(ut_jsonw *w, const ut_json *v)
{
	const ut_json *it;
	long n;

	if (ut_json_is_object(v)) {
		ut_jsonw_obj_begin(w);
		for (it = ut_json_first(v); it; it = ut_json_next(it)) {
			ut_jsonw_key(w, ut_json_key(it));
			write_value(w, it);
		}
		ut_jsonw_obj_end(w);
	} else if (ut_json_is_array(v)) {
		ut_jsonw_arr_begin(w);
		for (it = ut_json_first(v); it; it = ut_json_next(it))
			write_value(w, it);
		ut_jsonw_arr_end(w);
	} else if (ut_json_is_string(v)) {
		ut_jsonw_str(w, ut_json_string(v));
	} else if (ut_json_whole(v, -(1L << 53), 1L << 53, &n)) {
		ut_jsonw_int(w, n);
	} else if (ut_json_is_number(v)) {
		ut_jsonw_double(w, ut_json_number(v));
	} else if (ut_json_is_null(v)) {
		ut_jsonw_null(w);
	} else {
		ut_jsonw_bool(w, ut_json_true(v));
	}
}

/* Flattens a JSON value into key -> compact JSON text pairs (objects by dotted keys). */
static int flatten(ut_init *in, const ut_json *v, const char *key, change_vec *out, bool was)
{
	ut_buf b = UT_BUF_INIT;
	ut_jsonw w;
	const ut_json *it;
	int rc = 0;

	if (ut_json_is_object(v) && ut_json_first(v)) {
		for (it = ut_json_first(v); it && rc == 0; it = ut_json_next(it)) {
			const char *sub = *key ? ut_arena_printf(&in->arena, "%s.%s", key,
								 ut_json_key(it))
					       : ut_json_key(it);

			rc = sub ? flatten(in, it, sub, out, was) : ut_error_set(UT_ENOMEM, "oom");
		}
		return rc;
	}
	ut_jsonw_init(&w, &b, false);
	write_value(&w, v);
	if (!b.failed) {
		ut_init_change c = {ut_arena_strdup(&in->arena, key), NULL, NULL};
		const char *text = ut_arena_strndup(&in->arena, b.ptr, b.len);

		if (was)
			c.was = text;
		else
			c.then = text;
		if (!c.key || !text || ut_vec_push(out, c) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	} else {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	ut_buf_dispose(&b);
	return rc;
}

/* What writing the proposal would change in the existing file, key by key. */
static int diff(ut_init *in, const char *path, const ut_buf *proposal, const ut_init_change **out,
		size_t *n)
{
	change_vec was = {0}, then = {0}, changes = {0};
	ut_json *old = NULL, *neu = NULL;
	ut_buf text = UT_BUF_INIT;
	size_t i, k;
	int rc;

	rc = ut_fs_read(&text, path, 4u << 20);
	if (rc == 0)
		rc = ut_json_parse(&old, text.ptr, text.len, path);
	if (rc == 0)
		rc = ut_json_parse(&neu, proposal->ptr, proposal->len, "the proposal");
	if (rc == 0)
		rc = flatten(in, old, "", &was, true);
	if (rc == 0)
		rc = flatten(in, neu, "", &then, false);
	for (i = 0; rc == 0 && i < then.n; i++) {
		ut_init_change c = then.v[i];

		for (k = 0; k < was.n && strcmp(was.v[k].key, c.key); k++)
			;
		if (k < was.n) {
			c.was = was.v[k].was;
			was.v[k].key = "";
		}
		if ((!c.was || strcmp(c.was, c.then)) && ut_vec_push(&changes, c) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (k = 0; rc == 0 && k < was.n; k++)
		if (*was.v[k].key && ut_vec_push(&changes, was.v[k]) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	*n = 0;
	*out = NULL;
	if (rc == 0 && changes.n) {
		ut_init_change *copy = ut_arena_alloc(&in->arena, changes.n * sizeof(*copy));

		if (!copy) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		} else {
			memcpy(copy, changes.v, changes.n * sizeof(*copy));
			*out = copy;
			*n = changes.n;
		}
	}
	ut_vec_free(&was);
	ut_vec_free(&then);
	ut_vec_free(&changes);
	ut_json_free(old);
	ut_json_free(neu);
	ut_buf_dispose(&text);
	return rc;
}

int ut_init_project(ut_init **out, const ut_init_opts *opts, ut_diags *diags,
		    const ut_init_change **changes, size_t *nchanges, bool *written)
{
	ut_buf json = UT_BUF_INIT;
	bool exists = ut_fs_exists(opts->config_path);
	int rc;

	*out = NULL;
	*changes = NULL;
	*nchanges = 0;
	*written = false;
	rc = ut_init_survey(out, opts, diags);
	if (rc == 0)
		rc = ut_init_config_json(*out, &json);
	if (rc == 0 && json.failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && exists)
		rc = diff(*out, opts->config_path, &json, changes, nchanges);
	if (rc == 0 && (!exists || opts->force)) {
		rc = ut_fs_write_atomic(opts->config_path, json.ptr, json.len);
		*written = rc == 0;
	}
	ut_buf_dispose(&json);
	if (rc < 0) {
		ut_init_free(*out);
		*out = NULL;
	}
	return rc;
}

void ut_init_free(ut_init *in)
{
	if (!in)
		return;
	ut_arena_dispose(&in->arena);
	free(in);
}
