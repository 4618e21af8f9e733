/* coverage.c: per-test coverage elements, from a JSON file or from the suite's features. */
#include "minimize/coverage.h"

#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "minimize/internal.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define MAX_COVERAGE_FILE ((size_t)1 << 30)

int ut_coverage_init(ut_coverage *c, size_t ntests)
{
	memset(c, 0, sizeof(*c));
	ut_arena_init(&c->arena);
	c->ntests = ntests;
	c->of = calloc(ntests + 1, sizeof(*c->of));
	c->listed = calloc(ntests + 1, sizeof(*c->listed));
	if (!c->of || !c->listed)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

void ut_coverage_dispose(ut_coverage *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; c->of && i < c->ntests; i++)
		ut_vec_free(&c->of[i]);
	free(c->of);
	free(c->listed);
	ut_vec_free(&c->elements);
	ut_map_dispose(&c->index);
	ut_arena_dispose(&c->arena);
	memset(c, 0, sizeof(*c));
}

int ut_coverage_add(ut_coverage *c, size_t test, const char *element)
{
	size_t len = strlen(element), i;
	void *found = NULL;
	uint32_t e;
	ut_coverage_list *l = &c->of[test];

	c->listed[test] = true;
	if (ut_map_find(&c->index, element, len, &found)) {
		e = (uint32_t)((uintptr_t)found - 1);
	} else {
		char *copy = ut_arena_strndup(&c->arena, element, len);

		e = (uint32_t)c->elements.n;
		if (!copy || ut_vec_push(&c->elements, copy) < 0 ||
		    ut_map_put(&c->index, copy, len, (void *)(uintptr_t)(e + 1)) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < l->n; i++)
		if (l->v[i] == e)
			return 0;
	return ut_vec_push(l, e) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* UT_EINPUT "PATH:1: ..." when the text is JSON of another type than an object. */
static int parse_object(ut_json **out, const char *text, size_t len, const char *path)
{
	int rc = ut_json_parse(out, text, len, path);

	if (rc == 0 && !ut_json_is_object(*out)) {
		ut_json_free(*out);
		*out = NULL;
		rc = ut_error_set(UT_EINPUT,
				  "%s:1: coverage must be an object of test id -> array of strings",
				  path);
	}
	return rc;
}

int ut_coverage_read_json(ut_coverage *c, const ut_graph *g, const char *text, size_t len,
			  const char *path, ut_diags *warnings)
{
	ut_json *doc = NULL;
	const ut_json *item, *el;
	int rc;

	c->source = "file";
	rc = parse_object(&doc, text, len, path);
	if (rc < 0)
		goto done;
	for (item = ut_json_first(doc); item; item = ut_json_next(item)) {
		const char *id = ut_json_key(item);
		long t = ut_graph_test_index(g, id);

		/* ut_json_key_line scans the text: only for a message, or reading every
		 * key's line would be quadratic in the file's size. */
		if (!ut_json_is_array(item)) {
			rc = ut_error_set(UT_EINPUT, "%s:%u: '%s': expected an array of strings",
					  path, ut_json_key_line(text, len, id), id);
			goto done;
		}
		for (el = ut_json_first(item); el; el = ut_json_next(el)) {
			if (!ut_json_is_string(el)) {
				rc = ut_error_set(UT_EINPUT, "%s:%u: '%s': an element is not a string",
						  path, ut_json_key_line(text, len, id), id);
				goto done;
			}
			if (t >= 0) {
				rc = ut_coverage_add(c, (size_t)t, ut_json_string(el));
				if (rc < 0)
					goto done;
			}
		}
		if (t < 0)
			ut_diags_add(warnings, UT_DIAG_WARNING, path,
				     ut_json_key_line(text, len, id),
				     "'%s' is no test of the graph; its coverage is ignored", id);
		else
			c->listed[t] = true;
	}
	rc = 0;
done:
	ut_json_free(doc);
	return rc;
}

int ut_coverage_load(ut_coverage *c, const ut_graph *g, const char *path, ut_diags *warnings)
{
	ut_buf text = UT_BUF_INIT;
	int rc = ut_fs_read(&text, path, MAX_COVERAGE_FILE);

	if (rc == UT_ENOTFOUND)
		rc = ut_error_set(UT_ENOTFOUND, "%s: no such coverage file", path);
	else if (rc < 0)
		rc = ut_error_set(rc, "%s: cannot read the coverage file", path);
	else
		rc = ut_coverage_read_json(c, g, text.ptr, text.len, path, warnings);
	ut_buf_dispose(&text);
	return rc;
}

/* "http://localhost:18080/boards/1" -> "/boards/1"; a relative URL stays as it is. */
static const char *url_path(const char *url)
{
	const char *scheme = strstr(url, "://"), *slash;

	if (!scheme)
		return url;
	slash = strchr(scheme + 3, '/');
	return slash ? slash : "/";
}

static int add_action_features(ut_coverage *c, size_t t, const ut_test *test, ut_buf *tmp)
{
	size_t a, v;
	int rc = 0;

	for (a = 0; a < test->nactions && rc == 0; a++) {
		const ut_action *act = &test->actions[a];
		const char *prefix = act->kind == UT_ACT_NAVIGATE ? "page: "
				     : act->kind == UT_ACT_LOCATE || act->kind == UT_ACT_CLICK
					     ? "element: "
					     : NULL;

		if (act->setup || !prefix)
			continue;
		for (v = 0; v < act->nvalues && rc == 0; v++) {
			ut_buf_clear(tmp);
			ut_buf_puts(tmp, prefix);
			ut_buf_puts(tmp, act->kind == UT_ACT_NAVIGATE ? url_path(act->values[v])
								     : act->values[v]);
			rc = tmp->failed ? ut_error_set(UT_ENOMEM, "out of memory")
					 : ut_coverage_add(c, t, tmp->ptr);
		}
	}
	return rc;
}

int ut_coverage_features(ut_coverage *c, const ut_graph *g, const ut_suite *s, ut_nlp *nlp,
			 ut_diags *warnings)
{
	ut_map by_id = UT_MAP_INIT;
	ut_buf tmp = UT_BUF_INIT;
	const char **names = calloc(s->tests.n + 1, sizeof(*names));
	size_t i;
	int rc = UT_ENOMEM;

	c->source = "features";
	if (!names)
		goto done;
	for (i = 0; i < s->tests.n; i++) {
		names[i] = s->tests.v[i].name;
		if (ut_map_put(&by_id, s->tests.v[i].id, strlen(s->tests.v[i].id),
			       (void *)&s->tests.v[i]) < 0)
			goto done;
	}
	if (ut_nlp_set_suite_names(nlp, names, s->tests.n) < 0)
		goto done;
	for (i = 0; i < g->ntests; i++) {
		const char *id = g->tests[i].id;
		const ut_test *test = ut_map_get(&by_id, id, strlen(id));
		const ut_name_info *info = NULL;
		const char *object;

		if (!test) {
			ut_diags_add(warnings, UT_DIAG_WARNING, NULL, 0,
				     "'%s' is in the graph but not in the suite: no features", id);
			continue;
		}
		c->listed[i] = true;
		if (ut_nlp_analyze(nlp, test->name, &info) < 0)
			goto done;
		object = info->dobj ? info->dobj : info->nnouns ? info->nouns[0] : NULL;
		if (info->verb) {
			ut_buf_clear(&tmp);
			ut_buf_printf(&tmp, "feature: %s%s%s", info->verb, object ? " " : "",
				      object ? object : "");
			if (tmp.failed || ut_coverage_add(c, i, tmp.ptr) < 0)
				goto done;
		}
		if (add_action_features(c, i, test, &tmp) < 0)
			goto done;
	}
	rc = 0;
done:
	if (rc < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	free(names);
	ut_map_dispose(&by_id);
	ut_buf_dispose(&tmp);
	return rc;
}
