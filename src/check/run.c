/* run.c: `untangle check` as one call: the commits, the base, the comparison, the runs,
 * the findings and the head's graph. */
#include "check/check.h"
#include "check/internal.h"

#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "store/store.h"
#include "proc/process.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

typedef struct {
	ut_check_result *r;
	ut_check_progress_fn cb;
	void *ctx;
	ut_map index; /* head graph test id -> index + 1 */
	long *fail_run; /* per head graph test, the last run it failed in */
} ck_runs;

static void tell(ck_runs *k, ut_check_event_kind kind, const ut_detect_event *run)
{
	ut_check_event ev = {kind, k->r, run};

	if (k->cb)
		k->cb(k->ctx, &ev);
}

static void on_run(void *ctx, const ut_detect_event *ev)
{
	ck_runs *k = ctx;

	if (ev->failed) {
		size_t i = (size_t)ut_map_get(&k->index, ev->failed, strlen(ev->failed));

		if (i)
			k->fail_run[i - 1] = ev->run;
	}
	tell(k, UT_CHECK_EV_RUN, ev);
}

/* The commits: HEAD, the base and their merge base. */
static int commits(ut_check_result *r, ut_git *repo, const char *base_ref)
{
	int rc = ut_git_head(repo, r->head, &r->detached, NULL, 0);

	if (rc == 0)
		rc = ut_git_resolve(repo, base_ref, r->base);
	if (rc == 0)
		rc = ut_git_merge_base(repo, r->base, r->head, r->merge_base);
	return rc;
}

/* The changed test files that no longer parse, into r->broken. */
static void broken_files(ut_check_result *r, const ut_diags *d, const ut_git_change *ch,
			 size_t nch)
{
	size_t plen = strlen(r->prefix_);

	for (size_t i = 0; d && i < d->items.n; i++) {
		const ut_diag *g = &d->items.v[i];

		for (size_t k = 0; g->file && g->kind == UT_DIAG_SYNTAX && k < nch; k++) {
			const char *np = ch[k].new_path;

			if (np && !strncmp(np, r->prefix_, plen) && !strcmp(np + plen, g->file))
				ut_diags_copy(&r->broken, g);
		}
	}
}

/* The suite's files that differ between commit and the work tree, into *ch (*nch). */
static int suite_diff(const ut_check_result *r, ut_git *repo, const ut_check_opts *o,
		      const char *commit, ut_git_change **ch, size_t *nch)
{
	const ut_strlist *paths = &o->cfg->suite.paths;
	size_t n = paths->n ? paths->n : 1;
	char **prefixes = calloc(n, sizeof(*prefixes));
	bool whole = false;
	int rc = prefixes ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	*ch = NULL;
	*nch = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		prefixes[i] = ck_repo_path(r->prefix_, paths->n ? paths->items[i] : "");
		if (!prefixes[i])
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		else if (!*prefixes[i])
			whole = true;
	}
	if (rc == 0)
		rc = ut_git_diff_workdir(repo, commit, (const char *const *)prefixes,
					 whole ? 0 : n, ch, nch);
	for (size_t i = 0; prefixes && i < n; i++)
		free(prefixes[i]);
	free(prefixes);
	return rc;
}

/* What changed in the suite's folders since the graph's commit. */
static int changes(ut_check_result *r, ut_git *repo, const ut_check_opts *o)
{
	ut_git_change *ch = NULL;
	size_t nch = 0;
	int rc = suite_diff(r, repo, o, r->graph_commit, &ch, &nch);

	if (rc == 0)
		broken_files(r, o->head_diags, ch, nch);
	if (rc == 0 && r->broken.items.n)
		rc = ut_error_set(UT_EINPUT, "%s:%u: the changed test file does not parse: %s",
				  r->broken.items.v[0].file, r->broken.items.v[0].line,
				  r->broken.items.v[0].message);
	r->files_changed = nch;
	ut_git_changes_free(ch, nch);
	return rc;
}

/* Whether a changed file is untangle's own (its state folder, the graph file): no change
 * of the suite. */
static bool own_file(const ut_check_result *r, const ut_git_change *c, const ut_check_opts *o)
{
	const char *path = c->new_path ? c->new_path : c->old_path;
	char *state = ck_repo_path(r->prefix_, o->state_dir),
	     *graph = ck_repo_path(r->prefix_, o->cfg->store.graph);
	size_t n = state ? strlen(state) : 0;
	bool own = (state && !strncmp(path, state, n) && path[n] == '/') ||
		   (graph && !strcmp(path, graph));

	free(state);
	free(graph);
	return own;
}

/* With opts->note: whether the note can be written on HEAD, which it describes: not when
 * the suite has changes HEAD does not hold (r->note_skipped, said by the command). */
static int note_repo(ut_git **out, ut_check_result *r, ut_git *repo, const ut_check_opts *o)
{
	ut_git_change *ch = NULL;
	size_t nch = 0, changed = 0;
	int rc = o->note ? suite_diff(r, repo, o, r->head, &ch, &nch) : 0;

	for (size_t i = 0; rc == 0 && i < nch; i++)
		changed += !own_file(r, &ch[i], o);
	*out = rc == 0 && o->note && !changed ? repo : NULL;
	r->note_skipped = rc == 0 && o->note && changed;
	ut_git_changes_free(ch, nch);
	return rc;
}

/* The two versions compared: r->check. */
static int compare(ut_check_result *r, const ut_check_opts *o)
{
	ut_candidates_report report;
	int rc;

	memset(&report, 0, sizeof(report));
	if (!r->have_graph)
		rc = ut_graph_new(&r->base_graph_, 0);
	else
		rc = 0;
	if (rc == 0 && !r->base_suite_ && !r->have_graph)
		rc = ut_suite_new(&r->base_suite_);
	if (rc == 0)
		rc = ut_candidates_build(&r->candidates_, &report, o->head, o->candidates);
	ut_candidates_report_dispose(&report);
	if (rc < 0)
		return rc;
	r->in_.base.suite = r->base_suite_ ? r->base_suite_ : o->head;
	r->in_.base.root = r->base_root_ ? r->base_root_ : ".";
	r->in_.head.suite = o->head;
	r->in_.head.root = ".";
	r->in_.base_graph = r->base_graph_;
	r->in_.candidates = r->candidates_;
	r->in_.repo_prefix = r->prefix_;
	return ut_check_prepare(&r->check, &r->in_);
}

/* The runner, and check's own journal (state_dir/check-journal.jsonl, begun anew). */
static int open_runs(ut_runner **runner, ut_journal **journal, ut_arena *a, ck_runs *k,
		     const ut_check_opts *o)
{
	ut_store_journal_opts jo = {NULL, UT_JOURNAL_NEW,
				    ut_detect_strategy_name(UT_STRATEGY_FAST), o->extract,
				    o->filter, 0, o->cfg};
	char *tmp = ut_path_join(o->state_dir, UT_STORE_TMP_NAME),
	     *jpath = ut_path_join(o->state_dir, UT_STORE_CHECK_JOURNAL_NAME);
	int rc = tmp && jpath ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	if (rc == 0) {
		tell(k, UT_CHECK_EV_RUNNER, NULL);
		rc = ut_runner_new(runner, o->cfg, ".", tmp);
	}
	if (rc == 0 && k->r->in_.head.suite)
		rc = ut_runner_watch_sources(*runner, k->r->in_.head.suite);
	jo.path = jpath;
	if (rc == 0)
		rc = ut_store_journal_open(journal, a, k->r->check.graph, &jo);
	free(tmp);
	free(jpath);
	return rc;
}

/* The affected tests run again: removed prerequisites settled, then detect's search. */
static int revalidate(ck_runs *k, const ut_check_opts *o)
{
	ut_check *c = &k->r->check;
	ut_detect_opts dopts;
	ut_detect_stats lost;
	ut_runner *runner = NULL;
	ut_journal *journal = NULL;
	ut_arena arena = UT_ARENA_INIT;
	int rc = 0;

	memset(&lost, 0, sizeof(lost));
	k->fail_run = calloc(c->graph->ntests + 1, sizeof(long));
	for (size_t i = 0; rc == 0 && i < c->graph->ntests; i++) {
		const char *id = c->graph->tests[i].id;

		if (!k->fail_run || ut_map_put(&k->index, id, strlen(id), (void *)(i + 1)) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0)
		rc = open_runs(&runner, &journal, &arena, k, o);
	memset(&dopts, 0, sizeof(dopts));
	dopts.strategy = UT_STRATEGY_FAST;
	dopts.revalidate = c->revalidate;
	dopts.workers = o->workers;
	dopts.progress = on_run;
	dopts.progress_ctx = k;
	if (rc == 0)
		rc = ut_check_settle_lost(c, runner, journal, &dopts, &lost);
	if (rc == 0 && ut_check_affected(c))
		rc = ut_detect_run(c->graph, runner, journal, &dopts, &k->r->stats);
	k->r->stats.schedules_run += lost.schedules_run;
	k->r->stats.test_executions += lost.test_executions;
	k->r->stats.wall_s += lost.wall_s;
	ut_journal_close(journal);
	ut_runner_free(runner);
	ut_arena_dispose(&arena);
	return rc;
}

/* The findings; without a base graph every dependency is new: only what fails counts. */
static int conclude(ut_check_result *r, const long *fail_run)
{
	ut_findings all;
	int rc;

	if (r->have_graph)
		return ut_check_conclude(&r->check, &r->findings, fail_run);
	ut_findings_init(&all);
	rc = ut_check_conclude(&r->check, &all, fail_run);
	for (size_t i = 0; rc == 0 && i < all.v.n; i++) {
		if (all.v.v[i].kind != UT_FINDING_NEW_EDGE)
			rc = ut_findings_add(&r->findings, &all.v.v[i]);
	}
	ut_findings_sort(&r->findings);
	ut_findings_dispose(&all);
	return rc;
}

/* The head's graph recorded as detect records its own (ut_store_record_detection): the
 * graph file, the durations and, with o->note, the note on HEAD. */
static int save_graph(ut_check_result *r, ut_git *repo, const ut_check_opts *o)
{
	ut_graph *g = r->check.graph;
	char *timings = ut_path_join(o->state_dir, UT_STORE_TIMINGS_NAME);
	ut_store_dest d = {o->cfg->store.graph, timings, true, NULL, o->cfg->store.notes_ref,
			   r->head};
	int rc;

	if (ut_proc_interrupted())
		rc = ut_error_set(UT_EINTR, "interrupted after %ld runs; nothing was written",
				  r->stats.schedules_run);
	else
		rc = timings ? note_repo(&d.git, r, repo, o)
			     : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0)
		goto done;
	g->commit = ut_graph_intern(g, r->head);
	g->sources = o->sources ? ut_graph_intern(g, o->sources) : NULL;
	g->stats.strategy = ut_detect_strategy_name(UT_STRATEGY_FAST);
	g->stats.schedules_run = r->stats.schedules_run;
	g->stats.test_executions = r->stats.test_executions;
	g->stats.wall_s = r->stats.wall_s;
	rc = g->commit && (g->sources || !o->sources) ? ut_fs_state_dir(o->state_dir) : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = ut_store_record_detection(g, &d, &r->wrote);
done:
	free(timings);
	return rc;
}

int ut_check_run(ut_check_result *out, const ut_check_opts *opts, ut_check_progress_fn cb,
		 void *ctx)
{
	ck_runs k = {out, cb, ctx, {0}, NULL};
	ut_git *repo = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	ut_findings_init(&out->findings);
	ut_diags_init(&out->broken);
	rc = ut_git_open(&repo, opts->project_dir);
	if (rc == 0)
		rc = ut_check_repo_prefix(&out->prefix_, ut_git_workdir(repo), opts->project_dir);
	if (rc == 0)
		rc = commits(out, repo, opts->base_ref);
	if (rc == 0 && out->detached)
		tell(&k, UT_CHECK_EV_DETACHED, NULL);
	if (rc == 0)
		rc = ck_find_graph(out, repo, opts->cfg);
	if (rc == 0)
		tell(&k, UT_CHECK_EV_BASE, NULL);
	if (rc == 0)
		rc = changes(out, repo, opts);
	if (rc == 0)
		tell(&k, UT_CHECK_EV_CHANGED, NULL);
	if (rc == 0 && out->have_graph && out->files_changed)
		rc = ck_parse_base(out, repo, opts);
	if (rc == 0 && ut_proc_interrupted())
		rc = ut_error_set(UT_EINTR, "interrupted; nothing was written");
	if (rc == 0)
		rc = compare(out, opts);
	if (rc == 0)
		tell(&k, UT_CHECK_EV_COMPARED, NULL);
	if (rc == 0 && ut_check_affected(&out->check))
		rc = revalidate(&k, opts);
	if (rc == UT_EINTR)
		rc = ut_error_set(UT_EINTR, "interrupted after %ld runs; nothing was written",
				  out->stats.schedules_run);
	if (rc == 0)
		rc = conclude(out, k.fail_run);
	if (rc == 0)
		rc = save_graph(out, repo, opts);
	free(k.fail_run);
	ut_map_dispose(&k.index);
	ut_git_close(repo);
	return rc;
}

void ut_check_result_dispose(ut_check_result *r)
{
	if (!r)
		return;
	ut_fs_remove_tree(r->base_root_);
	free(r->base_root_);
	ut_check_dispose(&r->check);
	ut_findings_dispose(&r->findings);
	ut_diags_dispose(&r->broken);
	ut_graph_free(r->candidates_);
	ut_graph_free(r->base_graph_);
	ut_suite_free(r->base_suite_);
	free(r->prefix_);
	memset(r, 0, sizeof(*r));
}
