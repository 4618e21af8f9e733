/* project.c: a whole detection as `untangle detect` runs it, from the journal to the
 * written graph, and its summary as JSON. */
#include "detect/project.h"

#include <string.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

/* The pairs kept apart in the graph file this detection replaces (shard --verify's). A
 * file that is missing or unreadable has none to give: detect writes a new one anyway. */
static int carry_apart(ut_graph *g, const char *path)
{
	ut_graph *old = NULL;
	int rc = 0;

	if (path && ut_store_graph_load(&old, path) == 0)
		rc = ut_graph_carry_apart(g, old);
	ut_graph_free(old);
	return rc;
}

int ut_detect_project(ut_graph *g, ut_runner *runner, const ut_detect_project_opts *o,
		      ut_detect_summary *out)
{
	ut_store_journal_opts jo = {o->journal_path, o->journal_mode,
				    ut_detect_strategy_name(o->run.strategy), o->extract,
				    o->filter, o->run.reruns, o->cfg};
	ut_arena arena = UT_ARENA_INIT;
	ut_journal *journal = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->g = g;
	out->graph_path = o->dest.graph;
	out->selected = o->selection != NULL;
	if (o->selection)
		out->selection = *o->selection;
	rc = ut_store_journal_open(&journal, &arena, g, &jo);
	if (rc < 0)
		goto done;
	if (o->started)
		o->started(o->ctx, journal);
	rc = ut_detect_run(g, runner, journal, &o->run, &out->stats);
	out->run_failed = rc < 0;
	if (rc == 0)
		rc = carry_apart(g, o->dest.graph);
	if (rc == 0)
		rc = ut_store_record_detection(g, &o->dest, &out->wrote);
	/* unfinished unless everything was written: a plain detect then keeps the runs */
	if (rc == 0)
		rc = ut_journal_finish(journal);
	if (rc == 0 && (out->wrote & UT_STORE_WROTE_NOTE))
		out->notes_ref = o->dest.notes_ref;
done:
	ut_journal_close(journal);
	ut_arena_dispose(&arena);
	return rc;
}

static void json_verification(ut_jsonw *w, const ut_detect_stats *st)
{
	ut_jsonw_key(w, "verification");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "runs", (long long)st->verify_runs);
	ut_jsonw_kint(w, "tests_verified", (long long)st->verified);
	ut_jsonw_kint(w, "tests_searched_again", (long long)st->verify_searched);
	ut_jsonw_kint(w, "edges_confirmed", (long long)st->verify_confirmed);
	ut_jsonw_kint(w, "edges_added", (long long)st->verify_added);
	ut_jsonw_kint(w, "edges_removed", (long long)st->verify_removed);
	ut_jsonw_obj_end(w);
}

static void json_selection(ut_jsonw *w, const ut_detect_fix_stats *fs)
{
	ut_jsonw_key(w, "selection");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "selected", (long long)fs->selected);
	ut_jsonw_kint(w, "broken", (long long)fs->broken);
	ut_jsonw_kint(w, "added", (long long)fs->added);
	ut_jsonw_kint(w, "unfixed", (long long)fs->unfixed);
	ut_jsonw_kint(w, "schedules_run", fs->runs);
	ut_jsonw_kint(w, "test_executions", fs->test_executions);
	ut_jsonw_obj_end(w);
}

enum { LEFT_FLAKY, LEFT_FAILING, LEFT_NEEDS_LEFT_OUT };

/* The ids of the tests marked flaky, failing in the original order, or failing without
 * the tests left out before them. */
static void json_left_out(ut_jsonw *w, const char *key, const ut_graph *g, int which)
{
	size_t i;

	ut_jsonw_key(w, key);
	ut_jsonw_arr_begin(w);
	for (i = 0; i < g->ntests; i++) {
		const ut_graph_test *t = &g->tests[i];
		bool in = which == LEFT_FLAKY	? t->flaky
			  : which == LEFT_FAILING ? t->failing && !t->needs_left_out
						  : t->failing && t->needs_left_out;

		if (in)
			ut_jsonw_str(w, t->id);
	}
	ut_jsonw_arr_end(w);
}

int ut_detect_summary_json(ut_buf *out, const ut_detect_summary *s)
{
	static const char *const keys[] = {"original", "validate", "recover", "disconnected",
					   "isolation", "search", "verify"};
	const ut_detect_stats *st = &s->stats;
	const ut_graph *g = s->g;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "graph", s->graph_path);
	if (s->notes_ref) {
		ut_jsonw_kstr(&w, "notes_ref", s->notes_ref);
		ut_jsonw_kstr(&w, "commit", g->commit);
	}
	ut_jsonw_kint(&w, "tests", (long long)g->ntests);
	ut_jsonw_kint(&w, "manifest_edges", (long long)st->manifest);
	ut_jsonw_kint(&w, "schedules_run", st->schedules_run);
	ut_jsonw_kint(&w, "test_executions", st->test_executions);
	ut_jsonw_kint(&w, "replayed", st->replayed);
	ut_jsonw_kint(&w, "retried", st->retried);
	ut_jsonw_kint(&w, "disputes", (long long)st->disputes);
	ut_jsonw_kint(&w, "not_monotone", (long long)st->not_monotone);
	ut_jsonw_kint(&w, "searched_again", (long long)st->searched_again);
	ut_jsonw_kdouble(&w, "test_s", st->test_s);
	ut_jsonw_kint(&w, "failing_executions", st->failing_executions);
	ut_jsonw_kdouble(&w, "failing_s", st->failing_s);
	ut_jsonw_kdouble(&w, "wall_s", st->wall_s);
	ut_jsonw_kstr(&w, "strategy", g->stats.strategy ? g->stats.strategy : "");
	ut_jsonw_kint(&w, "output_schedules", (long long)st->output_schedules);
	ut_jsonw_kint(&w, "verified_earlier", (long long)st->verified_earlier);
	json_verification(&w, st);
	if (s->selected)
		json_selection(&w, &s->selection);
	ut_jsonw_key(&w, "phase_s");
	ut_jsonw_obj_begin(&w);
	for (i = 0; i < UT_PHASE_COUNT; i++) {
		ut_jsonw_key(&w, keys[i]);
		ut_jsonw_double(&w, st->phase_s[i]);
	}
	ut_jsonw_obj_end(&w);
	json_left_out(&w, "flaky", g, LEFT_FLAKY);
	json_left_out(&w, "failing_in_original_order", g, LEFT_FAILING);
	json_left_out(&w, "needs_left_out", g, LEFT_NEEDS_LEFT_OUT);
	ut_jsonw_obj_end(&w);
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
