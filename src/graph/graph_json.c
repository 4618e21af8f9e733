/* graph_json.c: graph.json, written with util/jsonw and read with the cJSON adapter. */
#include "graph/graph_json.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "json/json.h"
#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

#define GRAPH_VERSION 1

static void write_test(ut_jsonw *w, const ut_graph *g, size_t i)
{
	const ut_graph_test *t = &g->tests[i];

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "id", t->id);
	ut_jsonw_kstr(w, "name", t->name);
	ut_jsonw_kstr(w, "file", t->file);
	ut_jsonw_kint(w, "line", t->line);
	ut_jsonw_kint(w, "index", (long long)i);
	ut_jsonw_key(w, "duration_s");
	if (t->duration_s >= 0)
		ut_jsonw_double(w, t->duration_s);
	else
		ut_jsonw_null(w);
	if (t->flaky) {
		ut_jsonw_kbool(w, "flaky", true);
	}
	if (t->failing) {
		ut_jsonw_kbool(w, "failing", true);
	}
	if (t->failing && t->needs_left_out)
		ut_jsonw_kbool(w, "needs_left_out", true);
	if (t->pass_run > 0)
		ut_jsonw_kint(w, "passed_in", t->pass_run);
	ut_jsonw_obj_end(w);
}

static void write_edge(ut_jsonw *w, const ut_graph *g, const ut_edge *e)
{
	uint32_t k;
	size_t i;
	bool any_setup = false;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "dependent", g->tests[e->dependent].id);
	ut_jsonw_kstr(w, "dependee", g->tests[e->dependee].id);
	ut_jsonw_kstr(w, "status", ut_edge_status_name(e->status));
	ut_jsonw_kstr(w, "origin", ut_edge_origin_name(e->origin));
	ut_jsonw_key(w, "values");
	ut_jsonw_arr_begin(w);
	for (k = 0; k < e->nvalues; k++) {
		ut_jsonw_str(w, e->values[k].value);
		any_setup = any_setup || e->values[k].setup;
	}
	ut_jsonw_arr_end(w);
	if (any_setup) {
		ut_jsonw_key(w, "setup_values");
		ut_jsonw_arr_begin(w);
		for (k = 0; k < e->nvalues; k++) {
			if (e->values[k].setup)
				ut_jsonw_str(w, e->values[k].value);
		}
		ut_jsonw_arr_end(w);
	}
	if (e->filtered_by) {
		ut_jsonw_kstr(w, "filtered_by", e->filtered_by);
	}
	if (e->reason) {
		ut_jsonw_kstr(w, "reason", e->reason);
	}
	ut_jsonw_key(w, "evidence");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < e->evidence.n; i++)
		ut_jsonw_int(w, e->evidence.v[i]);
	ut_jsonw_arr_end(w);
	ut_jsonw_obj_end(w);
}

bool ut_graph_edge_stored(const ut_edge *e)
{
	return e->status == UT_EDGE_MANIFEST || (e->status == UT_EDGE_CANDIDATE && !e->filtered_by);
}

static void write_members(ut_jsonw *w, const ut_graph *g, bool (*keep)(const ut_edge *e))
{
	size_t i;

	ut_jsonw_key(w, "tests");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < g->ntests; i++) {
		write_test(w, g, i);
		ut_buf_drain(w->out);
	}
	ut_jsonw_arr_end(w);
	ut_jsonw_key(w, "edges");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < g->edges.n; i++) {
		if (keep && !keep(&g->edges.v[i]))
			continue;
		write_edge(w, g, &g->edges.v[i]);
		ut_buf_drain(w->out);
	}
	ut_jsonw_arr_end(w);
}

void ut_graph_write_members(ut_jsonw *w, const ut_graph *g)
{
	write_members(w, g, NULL);
}

/* "apart": only when there is a pair, so that a graph without one reads as before. */
static void write_apart(ut_jsonw *w, const ut_graph *g)
{
	if (!g->apart.n)
		return;
	ut_jsonw_key(w, "apart");
	ut_jsonw_arr_begin(w);
	for (size_t i = 0; i < g->apart.n; i++) {
		const ut_apart *a = &g->apart.v[i];

		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "first", g->tests[a->first].id);
		ut_jsonw_kstr(w, "then", g->tests[a->then].id);
		ut_jsonw_kint(w, "failed_run", a->failed_run);
		ut_jsonw_kint(w, "passed_run", a->passed_run);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
}

static int write_json(ut_buf *out, const ut_graph *g, bool pretty)
{
	ut_jsonw w;

	ut_jsonw_init(&w, out, pretty);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "version", GRAPH_VERSION);
	ut_jsonw_kstr(&w, "commit", g->commit);
	if (g->sources)
		ut_jsonw_kstr(&w, "sources", g->sources);
	write_members(&w, g, ut_graph_edge_stored);
	write_apart(&w, g);
	ut_jsonw_key(&w, "stats");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "strategy", g->stats.strategy);
	ut_jsonw_kint(&w, "schedules_run", g->stats.schedules_run);
	ut_jsonw_kint(&w, "test_executions", g->stats.test_executions);
	ut_jsonw_kdouble(&w, "wall_s", g->stats.wall_s);
	ut_jsonw_kdouble(&w, "test_s", g->stats.test_s);
	ut_jsonw_kint(&w, "failing_executions", g->stats.failing_executions);
	ut_jsonw_kdouble(&w, "failing_s", g->stats.failing_s);
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	return ut_jsonw_end(&w, "graph");
}

int ut_graph_write_json(ut_buf *out, const ut_graph *g)
{
	return write_json(out, g, true);
}

int ut_graph_write_note(ut_buf *out, const ut_graph *g)
{
	return write_json(out, g, false);
}

typedef struct {
	const char *path, *text;
	size_t len;
} reader;

static int bad(const reader *r, const char *key, const char *fmt, const char *what)
{
	return ut_error_set(UT_EINPUT, "%s:%u: %s%s", r->path,
			    ut_json_key_line(r->text, r->len, key), fmt, what ? what : "");
}

static const char *get_str(const ut_json *obj, const char *key)
{
	const ut_json *v = ut_json_get(obj, key);

	return v && ut_json_is_string(v) ? ut_json_string(v) : NULL;
}

static int read_tests(ut_graph **out, const reader *r, const ut_json *tests, ut_map *ids)
{
	const ut_json *t;
	size_t n = 0, i = 0;
	int rc;

	for (t = ut_json_first(tests); t; t = ut_json_next(t))
		n++;
	rc = ut_graph_new(out, n);
	if (rc < 0)
		return rc;
	for (t = ut_json_first(tests); t; t = ut_json_next(t), i++) {
		const char *id = get_str(t, "id");
		const ut_json *line = ut_json_get(t, "line"), *dur = ut_json_get(t, "duration_s");
		const ut_json *flaky = ut_json_get(t, "flaky");
		long ln = 0;

		if (!ut_json_is_object(t) || !id)
			return bad(r, "tests", "'tests' entries need a string 'id'", NULL);
		rc = ut_graph_set_test(*out, i, id, get_str(t, "name"), get_str(t, "file"),
				       ut_json_whole(line, 0, UINT_MAX, &ln) ? (unsigned)ln : 0, 0);
		if (rc < 0)
			return rc;
		if (dur && ut_json_is_number(dur) && ut_json_number(dur) >= 0)
			(*out)->tests[i].duration_s = ut_json_number(dur);
		(*out)->tests[i].flaky = flaky && ut_json_true(flaky);
		(*out)->tests[i].failing = ut_json_true(ut_json_get(t, "failing"));
		(*out)->tests[i].needs_left_out = (*out)->tests[i].failing &&
						  ut_json_true(ut_json_get(t, "needs_left_out"));
		ut_json_whole(ut_json_get(t, "passed_in"), 1, LONG_MAX, &(*out)->tests[i].pass_run);
		if (ut_map_get(ids, (*out)->tests[i].id, strlen((*out)->tests[i].id)))
			return bad(r, id, "duplicate test id ", id);
		if (ut_map_put(ids, (*out)->tests[i].id, strlen((*out)->tests[i].id), (void *)(i + 1)) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

static int read_edge(ut_graph *g, const reader *r, const ut_json *e, const ut_map *ids)
{
	const char *a = get_str(e, "dependent"), *b = get_str(e, "dependee");
	const char *status = get_str(e, "status"), *origin = get_str(e, "origin");
	const char *filtered = get_str(e, "filtered_by"), *reason = get_str(e, "reason");
	const ut_json *v;
	size_t ia, ib;
	ut_edge *edge;
	ut_edge_status st;
	ut_edge_origin og;
	int rc;

	if (!a || !b)
		return bad(r, "edges", "'edges' entries need 'dependent' and 'dependee'", NULL);
	ia = (size_t)ut_map_get(ids, a, strlen(a));
	ib = (size_t)ut_map_get(ids, b, strlen(b));
	if (!ia)
		return bad(r, a, "edge names an unknown test ", a);
	if (!ib)
		return bad(r, b, "edge names an unknown test ", b);
	if (ut_edge_status_parse(status ? status : "candidate", &st) < 0)
		return bad(r, "status", "unknown edge status ", status);
	if (ut_edge_origin_parse(origin ? origin : "string-analysis", &og) < 0)
		return bad(r, "origin", "unknown edge origin ", origin);
	rc = ut_graph_add(g, (uint32_t)(ia - 1), (uint32_t)(ib - 1), og, &edge);
	if (rc < 0)
		return bad(r, a, "edge against the original order from ", a);
	edge->status = st;
	if (filtered) {
		static const char *const known[] = {"values", "verb", "dobj", "noun"};
		size_t i;

		for (i = 0; i < 4 && strcmp(filtered, known[i]); i++)
			;
		if (i == 4)
			return bad(r, "filtered_by", "unknown filter ", filtered);
		edge->filtered_by = known[i];
	}
	if (reason && !(edge->reason = ut_arena_strdup(&g->arena, reason)))
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (v = ut_json_first(ut_json_get(e, "values")); v; v = ut_json_next(v)) {
		if (ut_json_is_string(v) && (rc = ut_graph_add_value(g, edge, ut_json_string(v), false)) < 0)
			return rc;
	}
	for (v = ut_json_first(ut_json_get(e, "setup_values")); v; v = ut_json_next(v)) {
		const char *sv = ut_json_string(v);
		uint32_t k;

		for (k = 0; sv && k < edge->nvalues; k++)
			edge->values[k].setup = edge->values[k].setup || !strcmp(edge->values[k].value, sv);
	}
	for (v = ut_json_first(ut_json_get(e, "evidence")); v; v = ut_json_next(v)) {
		long run;

		if (ut_json_whole(v, 0, LONG_MAX, &run) && (rc = ut_graph_add_evidence(edge, run)) < 0)
			return rc;
	}
	return 0;
}

static int read_apart(ut_graph *g, const reader *r, const ut_json *e, const ut_map *ids)
{
	const char *a = get_str(e, "first"), *b = get_str(e, "then");
	long failed = 0, passed = 0;
	size_t ia, ib;

	if (!a || !b)
		return bad(r, "apart", "'apart' entries need 'first' and 'then'", NULL);
	ia = (size_t)ut_map_get(ids, a, strlen(a));
	ib = (size_t)ut_map_get(ids, b, strlen(b));
	if (!ia)
		return bad(r, a, "'apart' names an unknown test ", a);
	if (!ib)
		return bad(r, b, "'apart' names an unknown test ", b);
	if (ia >= ib)
		return bad(r, "apart", "'apart' against the original order: 'first' must come before ", b);
	ut_json_whole(ut_json_get(e, "failed_run"), 0, LONG_MAX, &failed);
	ut_json_whole(ut_json_get(e, "passed_run"), 0, LONG_MAX, &passed);
	return ut_graph_add_apart(g, (uint32_t)(ia - 1), (uint32_t)(ib - 1), failed, passed);
}

/* Each entry of the optional array doc[key] through fn. */
static int read_entries(ut_graph *g, const reader *r, const ut_json *doc, const char *key,
			int (*fn)(ut_graph *, const reader *, const ut_json *, const ut_map *),
			const ut_map *ids)
{
	const ut_json *v = ut_json_get(doc, key), *e;
	int rc = 0;

	if (v && !ut_json_is_array(v))
		return ut_error_set(UT_EINPUT, "%s:%u: '%s' must be an array", r->path,
				    ut_json_key_line(r->text, r->len, key), key);
	for (e = v ? ut_json_first(v) : NULL; rc == 0 && e; e = ut_json_next(e))
		rc = fn(g, r, e, ids);
	return rc;
}

int ut_graph_read_json(ut_graph **out, const char *text, size_t len, const char *path)
{
	reader r = {path, text, len};
	ut_json *doc = NULL;
	ut_map ids = UT_MAP_INIT;
	const ut_json *v, *stats;
	ut_graph *g = NULL;
	int rc;

	*out = NULL;
	rc = ut_json_parse(&doc, text, len, path);
	if (rc < 0)
		goto done;
	if (!ut_json_is_object(doc)) {
		rc = bad(&r, "", "a graph must be a JSON object", NULL);
		goto done;
	}
	v = ut_json_get(doc, "version");
	if (!v || !ut_json_is_number(v) || ut_json_number(v) != GRAPH_VERSION) {
		rc = bad(&r, "version", "unsupported graph version (this untangle reads version 1)",
			 NULL);
		goto done;
	}
	v = ut_json_get(doc, "tests");
	if (!v || !ut_json_is_array(v)) {
		rc = bad(&r, "tests", "'tests' must be an array", NULL);
		goto done;
	}
	rc = read_tests(&g, &r, v, &ids);
	if (rc < 0)
		goto done;
	rc = read_entries(g, &r, doc, "edges", read_edge, &ids);
	if (rc == 0)
		rc = read_entries(g, &r, doc, "apart", read_apart, &ids);
	if (rc < 0)
		goto done;
	if (get_str(doc, "commit"))
		g->commit = ut_arena_strdup(&g->arena, get_str(doc, "commit"));
	if (get_str(doc, "sources"))
		g->sources = ut_arena_strdup(&g->arena, get_str(doc, "sources"));
	stats = ut_json_get(doc, "stats");
	if (stats && ut_json_is_object(stats)) {
		if (get_str(stats, "strategy"))
			g->stats.strategy = ut_arena_strdup(&g->arena, get_str(stats, "strategy"));
		ut_json_whole(ut_json_get(stats, "schedules_run"), 0, LONG_MAX, &g->stats.schedules_run);
		ut_json_whole(ut_json_get(stats, "test_executions"), 0, LONG_MAX,
			      &g->stats.test_executions);
		if ((v = ut_json_get(stats, "wall_s")) && ut_json_is_number(v))
			g->stats.wall_s = ut_json_number(v);
		if ((v = ut_json_get(stats, "test_s")) && ut_json_is_number(v))
			g->stats.test_s = ut_json_number(v);
		if ((v = ut_json_get(stats, "failing_s")) && ut_json_is_number(v))
			g->stats.failing_s = ut_json_number(v);
		ut_json_whole(ut_json_get(stats, "failing_executions"), 0, LONG_MAX,
			      &g->stats.failing_executions);
	}
	*out = g;
	g = NULL;
done:
	ut_graph_free(g);
	ut_map_dispose(&ids);
	ut_json_free(doc);
	return rc;
}
