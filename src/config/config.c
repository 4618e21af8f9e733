/* config.c: loading and validating untangle.json. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "config/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

typedef struct {
	ut_config *cfg;
	const char *path;
	const char *text;
	size_t len;
} loader;

static const char *const presets[] = {"pytest", "mocha", "junit4", "junit5", "testng", NULL};
static const char *const extracts[] = {"string-analysis", "original-order", NULL};
static const char *const filters[] = {"none", "values", "verb", "dobj", "noun", NULL};
static const char *const strategies[] = {"tedd", "fast", NULL};
static const char *const collects[] = {"auto", "runner", "static", NULL};
static const char *const languages[] = {"java", "python", "javascript", "typescript", NULL};

void ut_config_init(ut_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	ut_arena_init(&cfg->arena);
	cfg->suite.collect = "auto";
	cfg->runner.python = "python3";
	cfg->runner.timeout_s = 900;
	cfg->runner.preflight_s = 20;
	cfg->detect.extract = "string-analysis";
	cfg->detect.filter = "verb"; /* noun and dobj drop true edges whose names do not name the shared entity */
	cfg->detect.strategy = "fast";
	cfg->detect.workers = 1;
	cfg->detect.reruns = 1;
	cfg->store.graph = ".untangle/graph.json";
	cfg->store.notes_ref = "refs/notes/untangle";
}

void ut_config_dispose(ut_config *cfg)
{
	if (cfg)
		ut_arena_dispose(&cfg->arena);
}

static int fail(loader *l, const char *key, const char *fmt, const char *what)
{
	const char *leaf = strrchr(key, '.');

	return ut_error_set(UT_EINPUT, "%s:%u: '%s': %s%s", l->path,
			    ut_json_key_line(l->text, l->len, leaf ? leaf + 1 : key), key, fmt,
			    what ? what : "");
}

static int get_string(loader *l, const ut_json *v, const char *key, const char *const *allowed,
		      const char **out)
{
	const char *s = ut_json_string(v);
	size_t i;

	if (ut_json_is_null(v)) {
		*out = NULL;
		return 0;
	}
	if (!s)
		return fail(l, key, "expected a string", NULL);
	for (i = 0; allowed && allowed[i]; i++)
		if (strcmp(s, allowed[i]) == 0)
			break;
	if (allowed && !allowed[i])
		return fail(l, key, "unknown value ", s);
	*out = ut_arena_strdup(&l->cfg->arena, s);
	return *out ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

static int get_list(loader *l, const ut_json *v, const char *key, ut_strlist *out)
{
	const ut_json *it;
	size_t n = 0;

	if (!ut_json_is_array(v))
		return fail(l, key, "expected an array of strings", NULL);
	for (it = ut_json_first(v); it; it = ut_json_next(it)) {
		if (!ut_json_is_string(it))
			return fail(l, key, "expected an array of strings", NULL);
		n++;
	}
	out->items = ut_arena_alloc(&l->cfg->arena, (n + 1) * sizeof(char *));
	if (!out->items)
		return ut_error_set(UT_ENOMEM, "out of memory");
	out->n = 0;
	for (it = ut_json_first(v); it; it = ut_json_next(it))
		if (!(out->items[out->n++] = ut_arena_strdup(&l->cfg->arena, ut_json_string(it))))
			return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static int get_int(loader *l, const ut_json *v, const char *key, int lo, int hi, int *out)
{
	long n;

	if (!ut_json_whole(v, lo, hi, &n))
		return fail(l, key, "expected a whole number in range", NULL);
	*out = (int)n;
	return 0;
}

static int get_bool(loader *l, const ut_json *v, const char *key, bool *out)
{
	if (!ut_json_is_bool(v))
		return fail(l, key, "expected true or false", NULL);
	*out = ut_json_true(v);
	return 0;
}

static int get_env(loader *l, const ut_json *v, const char *key)
{
	const ut_json *it;
	size_t n = 0;

	if (!ut_json_is_object(v))
		return fail(l, key, "expected an object of strings", NULL);
	for (it = ut_json_first(v); it; it = ut_json_next(it))
		n++;
	l->cfg->runner.env = ut_arena_alloc(&l->cfg->arena, (n + 1) * sizeof(ut_envvar));
	if (!l->cfg->runner.env)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (it = ut_json_first(v); it; it = ut_json_next(it)) {
		ut_envvar *e = &l->cfg->runner.env[l->cfg->runner.nenv++];

		if (!ut_json_is_string(it) && !ut_json_is_null(it))
			return fail(l, key, "expected an object of strings (or null: pass "
				    "untangle's own value)", NULL);
		e->name = ut_arena_strdup(&l->cfg->arena, ut_json_key(it));
		e->value = ut_json_is_null(it) ? NULL
					       : ut_arena_strdup(&l->cfg->arena, ut_json_string(it));
	}
	return 0;
}

/* One key of one section: returns 1 when the key is unknown. */
static int set_key(loader *l, const char *section, const char *name, const ut_json *v,
		   const char *full)
{
	ut_config *c = l->cfg;

#define IS(s, k) (strcmp(section, s) == 0 && strcmp(name, k) == 0)
	if (IS("suite", "paths"))
		return get_list(l, v, full, &c->suite.paths);
	if (IS("suite", "language"))
		return get_string(l, v, full, languages, &c->suite.language);
	if (IS("suite", "order_file"))
		return get_string(l, v, full, NULL, &c->suite.order_file);
	if (IS("suite", "testng_xml"))
		return get_string(l, v, full, NULL, &c->suite.testng_xml);
	if (IS("suite", "collect"))
		return get_string(l, v, full, collects, &c->suite.collect);
	if (IS("suite", "allow_outside"))
		return get_bool(l, v, full, &c->suite.allow_outside);
	if (IS("suite", "skip_unreadable"))
		return get_bool(l, v, full, &c->suite.skip_unreadable);
	if (IS("runner", "list"))
		return get_list(l, v, full, &c->runner.list);
	if (IS("runner", "python")) {
		int rc = get_string(l, v, full, NULL, &c->runner.python);

		if (rc == 0 && (!c->runner.python || !*c->runner.python))
			return fail(l, full, "expected the name or path of a Python interpreter", NULL);
		return rc;
	}
	if (IS("runner", "preset"))
		return get_string(l, v, full, presets, &c->runner.preset);
	if (IS("runner", "command"))
		return get_list(l, v, full, &c->runner.command);
	if (IS("runner", "reset"))
		return get_list(l, v, full, &c->runner.reset);
	if (IS("runner", "timeout_s")) {
		if (!ut_json_is_number(v) || ut_json_number(v) <= 0)
			return fail(l, full, "expected a positive number of seconds", NULL);
		c->runner.timeout_s = ut_json_number(v);
		return 0;
	}
	if (IS("runner", "preflight_s")) {
		if (!ut_json_is_number(v) || ut_json_number(v) < 0)
			return fail(l, full, "expected a number of seconds (0: no preflight)", NULL);
		c->runner.preflight_s = ut_json_number(v);
		return 0;
	}
	if (IS("runner", "env"))
		return get_env(l, v, full);
	if (IS("runner", "pass_env"))
		return get_list(l, v, full, &c->runner.pass_env);
	if (IS("detect", "extract"))
		return get_string(l, v, full, extracts, &c->detect.extract);
	if (IS("detect", "filter"))
		return get_string(l, v, full, filters, &c->detect.filter);
	if (IS("detect", "strategy"))
		return get_string(l, v, full, strategies, &c->detect.strategy);
	if (IS("detect", "workers"))
		return get_int(l, v, full, 1, 256, &c->detect.workers);
	if (IS("detect", "reruns"))
		return get_int(l, v, full, 0, 100, &c->detect.reruns);
	if (IS("values", "ignore"))
		return get_list(l, v, full, &c->values.ignore);
	if (IS("nlp", "read_verbs"))
		return get_list(l, v, full, &c->nlp.read_verbs);
	if (IS("nlp", "write_verbs"))
		return get_list(l, v, full, &c->nlp.write_verbs);
	if (IS("store", "graph"))
		return get_string(l, v, full, NULL, &c->store.graph);
	if (IS("store", "notes_ref"))
		return get_string(l, v, full, NULL, &c->store.notes_ref);
#undef IS
	return 1;
}

static int load_doc(loader *l, const ut_json *doc)
{
	static const char *const sections[] = {"suite", "runner", "detect", "values", "nlp",
					       "store", NULL};
	const ut_json *sec, *it;
	char full[256];
	size_t i;
	int rc;

	if (!ut_json_is_object(doc))
		return ut_error_set(UT_EINPUT, "%s:1: expected a JSON object", l->path);
	for (sec = ut_json_first(doc); sec; sec = ut_json_next(sec)) {
		for (i = 0; sections[i]; i++)
			if (strcmp(ut_json_key(sec), sections[i]) == 0)
				break;
		if (!sections[i])
			return fail(l, ut_json_key(sec), "unknown key", NULL);
		if (!ut_json_is_object(sec))
			return fail(l, ut_json_key(sec), "expected an object", NULL);
		for (it = ut_json_first(sec); it; it = ut_json_next(it)) {
			snprintf(full, sizeof(full), "%s.%s", ut_json_key(sec), ut_json_key(it));
			rc = set_key(l, ut_json_key(sec), ut_json_key(it), it, full);
			if (rc == 1)
				return fail(l, full, "unknown key", NULL);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* suite.paths inside the folder of the file (links resolved): a test read from elsewhere
 * would be run, and its actions reported, as the project's. A path that does not exist is
 * left to the parse, which says so. */
static int confine_paths(loader *l)
{
	const ut_strlist *paths = &l->cfg->suite.paths;
	const char *slash = strrchr(l->path, '/');
	char *dir = slash ? strndup(l->path, (size_t)(slash - l->path + 1)) : strdup("."),
	     *root = NULL, *full = NULL, *real = NULL;
	ut_buf why = UT_BUF_INIT;
	size_t i;
	int rc = 0;

	if (l->cfg->suite.allow_outside || !paths->n)
		goto done;
	root = dir ? realpath(dir, NULL) : NULL;
	if (!root) {
		rc = dir ? ut_error_set(UT_EENV, "cannot resolve the folder of '%s': %s", l->path,
					strerror(errno))
			 : ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < paths->n && rc == 0; i++) {
		full = ut_path_join(dir, paths->items[i]);
		real = full ? realpath(full, NULL) : NULL;
		if (real && !ut_path_under(real, root)) {
			ut_buf_printf(&why,
				      "'%s' is %s, outside the project folder %s; set "
				      "suite.allow_outside to true to read tests there",
				      paths->items[i], real, root);
			rc = why.failed ? ut_error_set(UT_ENOMEM, "out of memory")
					: fail(l, "suite.paths", why.ptr, NULL);
		} else if (!full) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
		free(full);
		free(real);
	}
done:
	ut_buf_dispose(&why);
	free(root);
	free(dir);
	return rc;
}

int ut_config_load(ut_config *cfg, const char *path, bool optional)
{
	ut_buf text = UT_BUF_INIT;
	ut_json *doc = NULL;
	loader l;
	int rc;

	rc = ut_fs_read(&text, path, 4u << 20);
	if (rc == UT_ENOTFOUND && optional) {
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	rc = ut_json_parse(&doc, text.ptr, text.len, path);
	if (rc < 0)
		goto done;
	l.cfg = cfg;
	l.path = path;
	l.text = text.ptr;
	l.len = text.len;
	rc = load_doc(&l, doc);
	if (rc == 0)
		rc = confine_paths(&l);
	if (rc == 0)
		cfg->path = ut_arena_strdup(&cfg->arena, path);
done:
	ut_json_free(doc);
	ut_buf_dispose(&text);
	return rc;
}

const char *ut_config_preset_for(const char *framework)
{
	size_t i;

	if (framework && strcmp(framework, "unittest") == 0)
		return "pytest";
	for (i = 0; framework && presets[i]; i++)
		if (strcmp(presets[i], framework) == 0)
			return presets[i];
	return NULL;
}

const char *ut_config_framework(const ut_config *cfg)
{
	return cfg->runner.preset;
}
