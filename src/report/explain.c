/* explain.c: `untangle explain`'s text and JSON (explain.h). */
#include "report/explain.h"

#include <stdlib.h>

#include "runner/junit.h"
#include "util/error.h"
#include "util/esc.h"
#include "util/jsonw.h"
#include "util/banned.h"

enum { DEPENDS, NOT_DEPENDS, NEEDED, NSECTIONS };

static const char *const heads[NSECTIONS] = {"depends on", "does not depend on", "needed by"};
static const char *const keys[NSECTIONS] = {"depends_on", "not_depends_on", "needed_by"};

/* Whether edge e belongs to section s of test t's explanation. */
static bool in_section(const ut_edge *e, uint32_t t, int s)
{
	bool manifest = e->status == UT_EDGE_MANIFEST;

	if (s == NEEDED)
		return e->dependee == t && manifest;
	return e->dependent == t && (s == DEPENDS) == manifest;
}

static void text(ut_buf *out, const char *s)
{
	ut_esc_text(out, s ? s : "");
}

static void text_run(ut_buf *out, const ut_journal *j, long run)
{
	const ut_journal_record *r = ut_journal_find(j, run);
	size_t i, fails = 0;

	if (!r) {
		ut_buf_printf(out, "      run %ld (not in the journal)\n", run);
		return;
	}
	ut_buf_printf(out, "      run %ld: ", run);
	text(out, r->purpose);
	ut_buf_puts(out, ": ");
	for (i = 0; i < r->n; i++) {
		if (r->outcomes[i] != UT_OUT_PASS) {
			const char *id = ut_journal_test_id(j, r->tests[i]);

			ut_buf_puts(out, fails++ ? ", " : "");
			text(out, id ? id : "?");
			ut_buf_printf(out, " %s", ut_outcome_name(r->outcomes[i]));
		}
	}
	ut_buf_printf(out, "%s (%zu tests)\n", fails ? "" : "all passed", r->n);
}

static void text_edge(ut_buf *out, const ut_graph *g, const ut_edge *e, uint32_t other,
		      const ut_journal *j)
{
	uint32_t k;
	size_t i;

	ut_buf_puts(out, "  ");
	text(out, g->tests[other].id);
	ut_buf_printf(out, "  %s, %s", e->filtered_by ? "filtered" : ut_edge_status_name(e->status),
		      ut_edge_origin_name(e->origin));
	for (k = 0; k < e->nvalues; k++) {
		ut_buf_puts(out, k ? ", " : "; values: ");
		ut_esc_quoted(out, e->values[k].value);
		ut_buf_puts(out, e->values[k].setup ? " (setup)" : "");
	}
	ut_buf_putc(out, '\n');
	if (e->filtered_by || e->reason) {
		ut_buf_puts(out, "      ");
		if (e->filtered_by)
			ut_buf_printf(out, "by %s: ", e->filtered_by);
		text(out, e->reason);
		ut_buf_putc(out, '\n');
	}
	for (i = 0; i < e->evidence.n; i++)
		text_run(out, j, e->evidence.v[i]);
}

/* Why detection left the test out, or NULL: the scheduler then runs it after every
 * earlier test, as the original order does. */
static const char *left_out_reason(const ut_graph_test *test)
{
	if (test->flaky)
		return "flaky: its runs did not agree";
	if (test->failing && test->needs_left_out)
		return "failing without the tests left out before it: it passed in the original "
		       "order, but failed after every earlier test but those, so it most likely "
		       "needs one of them";
	if (test->failing)
		return "failing: it failed in the original order, or its runs did not settle";
	return NULL;
}

static void text_sections(ut_buf *out, const ut_graph *g, uint32_t t, const ut_journal *j)
{
	const ut_graph_test *test = &g->tests[t];
	size_t i;
	bool any;

	for (int s = 0; s < NSECTIONS; s++) {
		any = false;
		for (i = 0; i < g->edges.n; i++) {
			const ut_edge *e = &g->edges.v[i];

			if (!in_section(e, t, s))
				continue;
			if (!any)
				ut_buf_printf(out, "%s:\n", heads[s]);
			any = true;
			text_edge(out, g, e, s == NEEDED ? e->dependent : e->dependee, j);
		}
		if (!any && s == DEPENDS && left_out_reason(test))
			ut_buf_puts(out, "depends on: not known (left out of detection: it runs "
				    "after every earlier test)\n");
		else if (!any && s == DEPENDS)
			ut_buf_puts(out, "depends on: nothing (runs alone after a reset)\n");
		if (s == NOT_DEPENDS && test->pass_run > 0) {
			/* graph.json keeps no refuted edge: this run refutes every one of them */
			ut_buf_printf(out, "%s any other earlier test: it passed after its "
				      "prerequisites alone\n", any ? "nor on" : "does not depend on");
			text_run(out, j, test->pass_run);
		}
	}
}

static void text_all(ut_buf *out, const ut_graph *g, uint32_t t, const ut_journal *j,
		     const uint32_t *in, size_t len)
{
	const ut_graph_test *test = &g->tests[t];
	size_t i;

	text(out, test->id);
	ut_buf_puts(out, "\n  ");
	text(out, test->file);
	ut_buf_printf(out, ":%u, position %u in the original order\n", test->line, t + 1);
	if (left_out_reason(test))
		ut_buf_printf(out, "left out, %s\n", left_out_reason(test));
	text_sections(out, g, t, j);
	ut_buf_puts(out, "schedule:");
	for (i = 0; i < len; i++) {
		ut_buf_puts(out, i ? ", " : " ");
		text(out, g->tests[in[i]].id);
	}
	ut_buf_putc(out, '\n');
}

/* A run as JSON: {"run", "purpose", "not_passed": [{"test", "outcome"}], "tests"}, or
 * {"run", "in_journal": false}. */
static void json_run(ut_jsonw *w, const ut_journal *j, long run)
{
	const ut_journal_record *r = ut_journal_find(j, run);
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "run", run);
	if (!r) {
		ut_jsonw_kbool(w, "in_journal", false);
		ut_jsonw_obj_end(w);
		return;
	}
	ut_jsonw_kstr(w, "purpose", r->purpose);
	ut_jsonw_key(w, "not_passed");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < r->n; i++) {
		if (r->outcomes[i] == UT_OUT_PASS)
			continue;
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "test", ut_journal_test_id(j, r->tests[i]));
		ut_jsonw_kstr(w, "outcome", ut_outcome_name(r->outcomes[i]));
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
	ut_jsonw_kint(w, "tests", (long long)r->n);
	ut_jsonw_obj_end(w);
}

static void json_edge(ut_jsonw *w, const ut_graph *g, const ut_edge *e, uint32_t other,
		      const ut_journal *j)
{
	uint32_t k;
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "test", g->tests[other].id);
	ut_jsonw_kstr(w, "status", ut_edge_status_name(e->status));
	ut_jsonw_kstr(w, "origin", ut_edge_origin_name(e->origin));
	ut_jsonw_key(w, "values");
	ut_jsonw_arr_begin(w);
	for (k = 0; k < e->nvalues; k++) {
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "value", e->values[k].value);
		ut_jsonw_kbool(w, "setup", e->values[k].setup);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
	ut_jsonw_kstr(w, "filtered_by", e->filtered_by);
	ut_jsonw_kstr(w, "reason", e->reason);
	ut_jsonw_key(w, "runs");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < e->evidence.n; i++)
		json_run(w, j, e->evidence.v[i]);
	ut_jsonw_arr_end(w);
	ut_jsonw_obj_end(w);
}

static void json_all(ut_jsonw *w, const ut_graph *g, uint32_t t, const ut_journal *j,
		     const uint32_t *in, size_t len)
{
	const ut_graph_test *test = &g->tests[t];
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "test", test->id);
	ut_jsonw_kstr(w, "file", test->file);
	ut_jsonw_kint(w, "line", test->line);
	ut_jsonw_kint(w, "position", (long long)t + 1);
	ut_jsonw_kbool(w, "flaky", test->flaky);
	ut_jsonw_kbool(w, "failing", test->failing);
	ut_jsonw_kbool(w, "needs_left_out", test->failing && test->needs_left_out);
	ut_jsonw_kstr(w, "left_out_reason", left_out_reason(test));
	for (int s = 0; s < NSECTIONS; s++) {
		ut_jsonw_key(w, keys[s]);
		ut_jsonw_arr_begin(w);
		for (i = 0; i < g->edges.n; i++)
			if (in_section(&g->edges.v[i], t, s))
				json_edge(w, g, &g->edges.v[i],
					  s == NEEDED ? g->edges.v[i].dependent : g->edges.v[i].dependee, j);
		ut_jsonw_arr_end(w);
	}
	ut_jsonw_key(w, "passed_in");
	if (test->pass_run > 0)
		json_run(w, j, test->pass_run);
	else
		ut_jsonw_null(w);
	ut_jsonw_key(w, "schedule");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < len; i++)
		ut_jsonw_str(w, g->tests[in[i]].id);
	ut_jsonw_arr_end(w);
	ut_jsonw_obj_end(w);
}

int ut_report_explain(ut_buf *out, const ut_graph *g, uint32_t t, const ut_journal *j,
		      bool json)
{
	ut_scheduler sched;
	uint32_t *in = NULL;
	size_t len = 0, cap = 0;
	int rc;

	rc = ut_scheduler_init(&sched, g);
	if (rc == 0)
		rc = ut_scheduler_of(&sched, t, &in, &len, &cap);
	if (rc == 0 && json) {
		ut_jsonw w;

		ut_jsonw_init(&w, out, true);
		json_all(&w, g, t, j, in, len);
		ut_buf_putc(out, '\n');
	} else if (rc == 0) {
		text_all(out, g, t, j, in, len);
	}
	ut_scheduler_dispose(&sched);
	free(in);
	if (rc == 0 && out->failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory writing the explanation");
	return rc;
}
