/* project.c: a whole detection as `untangle detect` runs it, from the journal to the
 * written graph, and its summary as JSON. */
#include "detect/project.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph_json.h"
#include "graph/timings.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "util/banned.h"

int ut_detect_writable(const char *graph_path, const char *journal_path)
{
	const char *paths[] = {graph_path, journal_path};
	int rc = 0;

	for (size_t i = 0; i < 2 && rc == 0; i++) {
		const char *slash = strrchr(paths[i], '/');
		char dir[PATH_MAX], why[1100];

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - paths[i]) : 1,
			 slash ? paths[i] : ".");
		if (!ut_fs_is_dir(dir) || ut_fs_check_writable(paths[i]) == 0)
			continue;
		snprintf(why, sizeof(why), "%s", ut_error_message());
		rc = ut_error_set(UT_EENV, "%s: '%s' could not be written; make the folder "
				  "writable, then run 'untangle detect' again (with --resume to "
				  "continue a detection)", why, paths[i]);
	}
	return rc;
}

/* The test ids in order: a journal is only valid for the suite it was written for. */
static char *suite_fingerprint(const ut_graph *g)
{
	uint64_t h = 0;
	size_t i;
	char *out = malloc(32);

	for (i = 0; i < g->ntests; i++)
		h = ut_hash_seq(h, g->tests[i].id);
	if (out)
		snprintf(out, 32, "%zu-%016llx", g->ntests, (unsigned long long)h);
	return out;
}

/* The graph's durations replace timings.json: detect measured every test it ran. */
static int write_timings(const ut_graph *g, const char *path)
{
	const char **ids = malloc((g->ntests ? g->ntests : 1) * sizeof(*ids));
	double *secs = malloc((g->ntests ? g->ntests : 1) * sizeof(*secs));
	size_t i, n = 0;
	int rc;

	if (!ids || !secs) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < g->ntests; i++) {
		if (g->tests[i].duration_s < 0)
			continue;
		ids[n] = g->tests[i].id;
		secs[n++] = g->tests[i].duration_s;
	}
	rc = ut_timings_update(path, ids, secs, n, false);
done:
	free(ids);
	free(secs);
	return rc;
}

static int open_journal(ut_journal **out, ut_arena *a, char **fingerprint, const ut_graph *g,
			const ut_detect_project_opts *o)
{
	ut_journal_header jh;
	int rc;

	*fingerprint = suite_fingerprint(g);
	memset(&jh, 0, sizeof(jh));
	jh.suite = *fingerprint ? *fingerprint : "";
	jh.strategy = ut_detect_strategy_name(o->run.strategy);
	jh.extract = o->extract;
	jh.filter = o->filter;
	jh.reruns = o->run.reruns;
	jh.ntests = g->ntests;
	rc = ut_journal_fingerprint(&jh, a, g, o->cfg);
	if (rc == 0)
		rc = ut_journal_open(out, o->journal_path, &jh, o->journal_mode);
	return rc;
}

int ut_detect_project(ut_graph *g, ut_runner *runner, const ut_detect_project_opts *o,
		      ut_detect_summary *out)
{
	ut_arena arena = UT_ARENA_INIT;
	ut_journal *journal = NULL;
	char *fingerprint = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->g = g;
	out->graph_path = o->graph_path;
	out->selected = o->selection != NULL;
	if (o->selection)
		out->selection = *o->selection;
	rc = open_journal(&journal, &arena, &fingerprint, g, o);
	if (rc < 0)
		goto done;
	if (o->started)
		o->started(o->ctx, journal);
	rc = ut_detect_run(g, runner, journal, &o->run, &out->stats);
	out->run_failed = rc < 0;
	if (rc == 0)
		rc = ut_graph_save(g, o->graph_path);
	if (rc == 0)
		rc = write_timings(g, o->timings_path);
	if (rc == 0 && o->store)
		rc = o->store(o->ctx, g);
	if (rc == 0)
		rc = ut_journal_finish(journal);
	if (rc == 0 && o->store)
		out->notes_ref = o->notes_ref;
done:
	free(fingerprint);
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

/* The ids of the tests marked flaky (failing false) or failing in the original order. */
static void json_left_out(ut_jsonw *w, const char *key, const ut_graph *g, bool failing)
{
	size_t i;

	ut_jsonw_key(w, key);
	ut_jsonw_arr_begin(w);
	for (i = 0; i < g->ntests; i++) {
		if (failing ? g->tests[i].failing : g->tests[i].flaky)
			ut_jsonw_str(w, g->tests[i].id);
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
	json_left_out(&w, "flaky", g, false);
	json_left_out(&w, "failing_in_original_order", g, true);
	ut_jsonw_obj_end(&w);
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
