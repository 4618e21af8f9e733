/* cmd_detect.c: `untangle detect`: candidates, then validation and recovery through the
 * project's runner; writes the graph, the journal and the timings. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "detect/detect.h"
#include "detect/project.h"
#include "filter/candidates.h"
#include "shard/plan_file.h"
#include "store/store.h"
#include "minimize/minimize.h"
#include "util/buf.h"
#include "util/error.h"
#include "vcs/git.h"
#include "util/banned.h"

/* What --resume reuses, and a warning for what changed since the journal was written. */
static void journal_resumed(const ut_journal *j, const ut_graph *g)
{
	const ut_journal_changes *ch = ut_journal_changed(j);
	size_t i;

	ut_infof("resuming: %zu runs in %s%s", ut_journal_recorded(j), UT_STORE_JOURNAL,
		 ch->errors ? " (runs that failed as a whole are run again)" : "");
	if (ch->ntests) {
		ut_buf names = UT_BUF_INIT;

		for (i = 0; i < ch->ntests && i < 10; i++)
			ut_buf_printf(&names, "%s'%s'", i ? ", " : "", g->tests[ch->tests[i]].id);
		if (ch->ntests > 10)
			ut_buf_printf(&names, " and %zu more", ch->ntests - 10);
		ut_warnf("--resume: %zu test%s changed since the journal was written: %s; the %zu "
			 "recorded run%s holding %s are not reused", ch->ntests,
			 ch->ntests == 1 ? "" : "s", names.ptr ? names.ptr : "", ch->dropped,
			 ch->dropped == 1 ? "" : "s", ch->ntests == 1 ? "it" : "them");
		ut_buf_dispose(&names);
	}
	if (ch->bodies_unknown)
		ut_warnf("--resume: the journal was written by an older untangle, whose fingerprints "
			 "of the tests' bodies this one cannot compare: its runs are all reused; if a "
			 "test changed since, start over with 'untangle detect --fresh'");
	if (ch->ignore)
		ut_warnf("--resume: values.ignore changed since the journal was written: the "
			 "candidates differ; recorded runs of the same schedules are reused (their "
			 "outcomes do not depend on it)");
	if (ch->runner)
		ut_warnf("--resume: the runner's command, reset or env changed since the journal "
			 "was written: recorded outcomes are reused; if the change alters what tests "
			 "do, start over with 'untangle detect --fresh'");
}

/* The suite's folders as paths in the repository (the project, cwd ending in '/', may be a
 * subfolder of it). *n is 0 when one of them is the whole work tree. */
static int suite_prefixes(ut_git *git, const char *cwd, const ut_cli_project *p,
			  const ut_cli_rest *rest, char ***out, size_t *n)
{
	const char *const *paths =
		rest->n ? rest->items : (const char *const *)p->cfg.suite.paths.items;
	size_t i, count = rest->n ? rest->n : p->cfg.suite.paths.n;
	const char *workdir = ut_git_workdir(git);
	char **prefixes = NULL;
	const char *base = "";
	int rc = 0;

	*out = NULL;
	*n = 0;
	prefixes = calloc(count + 1, sizeof(*prefixes));
	if (!prefixes) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (!strncmp(cwd, workdir, strlen(workdir)))
		base = cwd + strlen(workdir); /* "" at the top of the work tree, else "sub/" */
	for (i = 0; i < count; i++) {
		ut_buf b = UT_BUF_INIT;
		bool whole;

		ut_buf_printf(&b, "%s%s", base, strcmp(paths[i], ".") ? paths[i] : "");
		while (b.len && b.ptr[b.len - 1] == '/')
			ut_buf_truncate(&b, b.len - 1);
		whole = !b.len;
		prefixes[*n] = whole || b.failed ? NULL : ut_buf_detach(&b, NULL);
		ut_buf_dispose(&b);
		if (whole)
			goto done; /* the whole work tree: no prefixes */
		if (!prefixes[*n]) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
		(*n)++;
	}
	*out = prefixes;
	prefixes = NULL;
done:
	for (i = 0; prefixes && prefixes[i]; i++)
		free(prefixes[i]);
	free(prefixes);
	if (!*out)
		*n = 0;
	return rc;
}

/* --store notes: the repository and HEAD's commit, found before any test runs; a warning
 * when the suite's files differ from HEAD, since the note will be read as HEAD's graph. */
static int notes_open(ut_git **git, char head[UT_GIT_OID_HEX + 1], const ut_cli_project *p,
		      const ut_cli_rest *rest)
{
	ut_git_change *changes = NULL;
	size_t nchanges = 0, nprefixes = 0, i;
	char **prefixes = NULL, *cwd = ut_cli_project_dir();
	bool detached = false;
	int rc = cwd ? 0 : ut_error_code();

	if (rc == 0)
		rc = ut_git_open(git, cwd);
	if (rc == 0)
		rc = ut_git_head(*git, head, &detached, NULL, 0);
	if (rc == 0)
		rc = suite_prefixes(*git, cwd, p, rest, &prefixes, &nprefixes);
	if (rc == 0)
		rc = ut_git_diff_workdir(*git, head, (const char *const *)prefixes, nprefixes,
					 &changes, &nchanges);
	if (rc < 0) {
		ut_errorf("--store notes: %s%s", ut_error_message(),
			  rc == UT_ENOTFOUND ? " (the note is kept in git; use --store file)" : "");
		goto done;
	}
	if (nchanges)
		ut_warnf("--store notes: the note describes HEAD (%.12s) but the suite has "
			 "uncommitted changes (%s%s); commit them for the note to match", head,
			 changes[0].new_path ? changes[0].new_path : changes[0].old_path,
			 nchanges > 1 ? " and others" : "");
done:
	ut_git_changes_free(changes, nchanges);
	for (i = 0; i < nprefixes; i++)
		free(prefixes[i]);
	free(prefixes);
	free(cwd);
	return rc;
}

/* The figures of a detection: counts, phases, verification, what was left out. */
static void print_figures(const ut_detect_summary *s)
{
	const ut_detect_stats *st = &s->stats;
	const ut_detect_fix_stats *fs = &s->selection;
	size_t i;

	printf("tests %zu, manifest edges %zu, schedules run %ld, test executions %ld, "
	       "wall time %.1f s\n", s->g->ntests, st->manifest, st->schedules_run,
	       st->test_executions, st->wall_s);
	printf("test time %.1f s: %ld passing executions %.1f s, %ld failing %.1f s\n",
	       st->test_s, st->test_executions - st->failing_executions, st->test_s - st->failing_s,
	       st->failing_executions, st->failing_s);
	if (s->selected)
		printf("selected %zu tests for their coverage, added %zu preconditions: "
		       "%ld runs, %ld test executions before validation\n", fs->selected,
		       fs->added, fs->runs, fs->test_executions);
	printf("phases:");
	for (i = 0; i < UT_PHASE_COUNT; i++)
		printf(" %s %.1f s%s", ut_detect_phase_name((ut_detect_phase)i),
		       st->phase_s[i], i + 1 < UT_PHASE_COUNT ? "," : "\n");
	if (st->output_schedules)
		printf("output schedules: %zu, all seen passing (%zu as the search ran them, "
		       "%zu run to verify)\n", st->output_schedules, st->verified_earlier,
		       st->output_schedules - st->verified_earlier);
	printf("verification: %zu runs; %zu tests' own schedules verified, %zu repaired "
	       "(searched again), %zu edges added, %zu removed, %zu confirmed\n",
	       st->verify_runs, st->verified, st->verify_searched, st->verify_added,
	       st->verify_removed, st->verify_confirmed);
	if (st->disputes)
		printf("outcomes that disagreed: %zu, settled by %ld runs again (%zu not "
		       "monotone); %zu tests searched again\n", st->disputes, st->retried,
		       st->not_monotone, st->searched_again);
	if (st->replayed)
		printf("replayed from the journal: %ld runs\n", st->replayed);
	if (st->flaky || st->failing) {
		printf("left out: %zu flaky, %zu failing in the original order", st->flaky,
		       st->failing - st->needs_left_out);
		if (st->needs_left_out) /* a part of failing */
			printf(", %zu failing without the tests left out before them (they "
			       "passed in the original order)", st->needs_left_out);
		printf("\n");
	}
}

static void print_text(const ut_detect_summary *s)
{
	const ut_graph *g = s->g;
	size_t i;

	print_figures(s);
	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (e->status == UT_EDGE_MANIFEST)
			printf("  %s -> %s  (%s)\n", ut_cli_esc(g->tests[e->dependent].id),
			       ut_cli_esc(g->tests[e->dependee].id), ut_edge_origin_name(e->origin));
	}
	for (i = 0; i < g->ntests; i++) {
		if (g->tests[i].flaky)
			printf("  flaky: %s\n", ut_cli_esc(g->tests[i].id));
		if (g->tests[i].failing && g->tests[i].needs_left_out)
			printf("  fails after every earlier test but those left out, so it most "
			       "likely needs one of them (it passed in the original order, where "
			       "they ran): "
			       "%s\n", ut_cli_esc(g->tests[i].id));
		else if (g->tests[i].failing)
			printf("  fails in the original order (in every run there, or in most "
			       "of them once reruns settled outcomes that disagreed; or an id "
			       "the runner does not know): %s\n", ut_cli_esc(g->tests[i].id));
	}
	printf("graph written to %s\n", s->graph_path);
	if (s->notes_ref)
		printf("note written to %s on %s\n", s->notes_ref, g->commit);
}

static void print_summary(const ut_detect_summary *s, bool json)
{
	ut_buf out = UT_BUF_INIT;

	if (!json) {
		print_text(s);
		return;
	}
	if (ut_detect_summary_json(&out, s) < 0 || ut_cli_emit(&out) < 0)
		ut_errorf("%s", ut_error_message());
	ut_buf_dispose(&out);
}
/* --select coverage (thesis 6.2.1.1): replaces *g by the sub-graph of the tests that
 * reach the suite's coverage plus the preconditions Alg. 7 finds for them, so that
 * detection validates those only. Prints what goes wrong; returns the exit code. */
static int select_tests(ut_graph **g, const ut_cli_project *p, const char *coverage_path,
			ut_runner *runner, ut_detect_fix_stats *fs)
{
	ut_coverage cov;
	ut_diags warnings;
	ut_graph *sub = NULL;
	bool *in = calloc((*g)->ntests + 1, sizeof(*in));
	int rc = 0, exit_code = UT_EXIT_OK;

	ut_diags_init(&warnings);
	rc = in ? ut_coverage_init(&cov, (*g)->ntests) : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0)
		goto fail;
	if (coverage_path)
		rc = ut_coverage_load(&cov, *g, coverage_path, &warnings);
	else
		exit_code = ut_cli_features(&cov, *g, p, &warnings);
	if (rc < 0)
		goto fail;
	if (exit_code)
		goto done;
	ut_cli_print_diags(&warnings);
	rc = ut_minimize_select(*g, &cov, in);
	if (rc == 0)
		rc = ut_detect_fix(*g, runner, 0, in, fs);
	if (rc == 0)
		rc = ut_graph_subgraph(&sub, *g, in);
	if (rc < 0)
		goto fail;
	ut_infof("select: %zu of %zu tests reach the coverage (%s, %zu elements); fixing "
		 "preconditions added %zu in %ld runs (%ld test executions), %zu still fail",
		 fs->selected, (*g)->ntests, coverage_path ? coverage_path : "features",
		 cov.elements.n, fs->added, fs->runs, fs->test_executions, fs->unfixed);
	ut_graph_free(*g);
	*g = sub;
	goto done;
fail:
	ut_errorf("%s", ut_error_message());
	exit_code = ut_cli_exit_code(rc);
done:
	if (in)
		ut_coverage_dispose(&cov);
	ut_diags_dispose(&warnings);
	free(in);
	return exit_code;
}

/* What `untangle detect` works with, from its options to the summary. */
typedef struct {
	ut_cli_common common;
	ut_cli_rest rest;
	const char *strategy_name, *filter, *extract, *store, *select, *coverage_path;
	long nworkers; /* 0: detect.workers */
	bool resume, fresh;
	ut_detect_strategy strategy;
	ut_cli_project p;
	ut_candidates_report report;
	ut_detect_fix_stats fs;
	ut_runner *runner;
	ut_graph *g;
	ut_git *git;
	char head[UT_GIT_OID_HEX + 1];
	ut_cli_progress ps;
	ut_cli_signals sigs;
	bool caught; /* sigs holds what to restore */
} detect_cmd;

/* The options that conflict, before anything is read. */
static int check_usage(const detect_cmd *d)
{
	if (d->resume && d->fresh) {
		ut_errorf("--resume and --fresh: choose one");
		return UT_EXIT_INPUT;
	}
	if (strcmp(d->store, "file") && strcmp(d->store, "notes")) {
		ut_errorf("--store: '%s' is not one of file, notes", d->store);
		return UT_EXIT_INPUT;
	}
	return UT_EXIT_OK;
}

/* The options that need the project: --select, --coverage, the strategy and workers. */
static int check_options(detect_cmd *d)
{
	if ((d->select && strcmp(d->select, "coverage")) || (d->coverage_path && !d->select)) {
		ut_errorf(d->select ? "--select: '%s' is not coverage" : "--coverage needs --select",
			  d->select);
		return UT_EXIT_INPUT;
	}
	if (!d->strategy_name)
		d->strategy_name = d->p.cfg.detect.strategy;
	if (ut_detect_strategy_parse(&d->strategy, d->strategy_name) < 0) {
		ut_errorf("--strategy: %s", ut_error_message());
		return UT_EXIT_INPUT;
	}
	if (!d->nworkers)
		d->nworkers = d->p.cfg.detect.workers;
	return UT_EXIT_OK;
}

/* The project, the note's commit, the candidate graph and the runner, before any run. */
static int prepare(detect_cmd *d)
{
	ut_candidates_opts co;
	int rc, exit_code;

	memset(&co, 0, sizeof(co));
	exit_code = ut_cli_project_load(&d->p, &d->common, &d->rest);
	if (exit_code == 0)
		exit_code = check_options(d);
	if (exit_code == 0 && !strcmp(d->store, "notes")) {
		rc = notes_open(&d->git, d->head, &d->p, &d->rest);
		exit_code = rc < 0 ? ut_cli_exit_code(rc) : UT_EXIT_OK;
	}
	if (exit_code == 0)
		exit_code = ut_cli_candidates_opts(&d->p, &d->extract, &d->filter, &co);
	if (exit_code)
		return exit_code;
	rc = ut_candidates_build(&d->g, &d->report, d->p.suite, &co);
	if (rc == 0 && !d->g->ntests) {
		ut_errorf("no tests found: nothing to detect");
		return UT_EXIT_INPUT;
	}
	if (rc == 0)
		rc = ut_store_writable(d->p.cfg.store.graph, UT_STORE_JOURNAL);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	exit_code = ut_cli_runner_new(&d->runner, &d->p.cfg);
	if (exit_code)
		return exit_code;
	if (ut_runner_watch_sources(d->runner, d->p.suite) < 0) {
		ut_errorf("%s", ut_error_message());
		return UT_EXIT_ENV;
	}
	if (d->p.cfg.runner.reset.n == 0)
		ut_warnf("no runner.reset: each schedule starts from whatever state the one before "
			 "left, so a test can pass on data an earlier schedule created and a "
			 "dependency goes unseen. Give a command that restores a clean application "
			 "state for a worker, e.g. \"runner\": {\"reset\": [\"./reset\", "
			 "\"{worker}\"]} in untangle.json, or `untangle init --reset ./reset "
			 "{worker}`");
	if (d->nworkers > 1 && ut_runner_worker_untold(d->runner))
		ut_warnf("runner.reset gives each worker its own application ({worker}), but "
			 "neither runner.command nor runner.env tells the tests which one is "
			 "theirs, and no file of the project reads $UNTANGLE_WORKER, which every "
			 "run gets: the %ld workers' tests all reach the same one. Read it in the "
			 "tests' base URL, or pass it on under a name of yours, e.g. \"env\": "
			 "{\"APP_WORKER\": \"{worker}\"} in runner", d->nworkers);
	if (d->select)
		exit_code = select_tests(&d->g, &d->p, d->coverage_path, d->runner, &d->fs);
	return exit_code;
}

/* The journal is open: what a resume reuses, what runs, and signals caught from here. */
static void started(void *ctx, const ut_journal *journal)
{
	detect_cmd *d = ctx;

	if (d->resume && ut_journal_started_anew(journal))
		ut_infof("--resume: %s holds no run (an earlier detect stopped before writing "
			 "one): nothing was lost, the detection starts from the beginning",
			 UT_STORE_JOURNAL);
	else if (d->resume)
		journal_resumed(journal, d->g);
	if (ut_journal_backup(journal))
		ut_infof("--fresh: the old journal is kept as %s", ut_journal_backup(journal));
	ut_infof("%zu tests, %zu candidate edges kept of %zu (%s, filter %s); strategy %s, "
		 "%ld worker%s", d->g->ntests, d->report.filter.kept, d->report.filter.candidates,
		 d->extract, d->filter, d->strategy_name, d->nworkers, d->nworkers == 1 ? "" : "s");
	ut_cli_signals_catch(&d->sigs);
	d->caught = true;
	ut_cli_progress_init(&d->ps);
}

/* The fingerprint of what the graph is validated from (graph.json's "sources"), when it
 * is the whole suite (no PATH, no --select): run and shard then take the graph's tests
 * for the suite's while the project matches it, without parsing again. NULL otherwise. */
static const char *whole_suite_sources(detect_cmd *d)
{
	char hex[17];

	if (d->select || d->rest.n || !ut_cli_sources_hex(&d->p, hex))
		return NULL;
	return ut_graph_intern(d->g, hex);
}

/* The detection and its summary; returns the exit code. */
static int detect(detect_cmd *d)
{
	ut_detect_project_opts o;
	ut_detect_summary sum;
	int rc;

	memset(&o, 0, sizeof(o));
	o.run.strategy = d->strategy;
	o.run.reruns = d->p.cfg.detect.reruns;
	o.run.workers = (int)d->nworkers;
	/* no per-run counting when quiet */
	o.run.progress = d->common.quiet ? NULL : ut_cli_progress_event;
	o.run.progress_ctx = &d->ps;
	o.extract = d->extract;
	o.filter = d->filter;
	o.journal_mode = d->resume ? UT_JOURNAL_RESUME : d->fresh ? UT_JOURNAL_FRESH
						       : UT_JOURNAL_START;
	o.journal_path = UT_STORE_JOURNAL;
	o.dest.graph = d->p.cfg.store.graph;
	o.dest.timings = UT_STORE_TIMINGS;
	o.dest.git = d->git;
	o.dest.notes_ref = d->p.cfg.store.notes_ref;
	o.dest.commit = d->head;
	o.cfg = &d->p.cfg;
	o.selection = d->select ? &d->fs : NULL;
	o.started = started;
	o.ctx = d;
	if (d->git)
		d->g->commit = d->head;
	d->g->sources = whole_suite_sources(d);
	rc = ut_detect_project(d->g, d->runner, &o, &sum);
	if (d->caught)
		ut_cli_signals_restore(&d->sigs);
	ut_cli_progress_end(&d->ps);
	if (rc == UT_EINTR && sum.run_failed) {
		ut_errorf("interrupted: %ld runs are in %s; 'untangle detect --resume' goes on from "
			  "there", sum.stats.schedules_run, UT_STORE_JOURNAL);
		return UT_EXIT_INTERRUPTED;
	}
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		if (sum.run_failed)
			ut_errorf("the %ld runs so far are in %s; 'untangle detect --resume' goes on "
				  "from there", sum.stats.schedules_run, UT_STORE_JOURNAL);
		return ut_cli_exit_code(rc);
	}
	print_summary(&sum, d->common.json);
	return UT_EXIT_OK;
}

int cmd_detect(int argc, char **argv)
{
	detect_cmd d = {.store = "file"};
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 0, "strategy", "tedd|fast", "validation strategy (detect.strategy)",
		 &d.strategy_name),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "extract", "string|order", "candidate extraction (detect.extract)",
		 &d.extract),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "filter", "none|values|verb|dobj|noun",
		 "candidate filter (detect.filter)", &d.filter),
		UT_OPT_INT_ROW(0, "workers", "N", "parallel workers (detect.workers)", &d.nworkers, 1, 256),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "store", "file|notes",
		 "the graph file, or also a git note on HEAD (store.notes_ref)", &d.store),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "select", "coverage",
		 "crawler suites: validate only tests that reach the coverage, and what they need",
		 &d.select),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "coverage", "FILE",
		 "with --select: test id -> covered elements (default: features from the suite)",
		 &d.coverage_path),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "resume", NULL,
		 "continue an interrupted detection from .untangle/journal.jsonl", &d.resume),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "fresh", NULL,
		 "start over, keeping an unfinished journal as .untangle/journal.jsonl.N.bak",
		 &d.fresh),
		UT_OPT_ROW(UT_OPT_REST, 0, NULL, "PATH", "files or folders with tests", &d.rest),
		UT_CLI_OPT_SUITE(d.common),
		UT_OPT_END,
	};
	int exit_code;

	if (!ut_cli_parse("detect", opts, &d.common, argc, argv, &exit_code))
		return exit_code;
	exit_code = check_usage(&d);
	if (exit_code == 0)
		exit_code = prepare(&d);
	if (exit_code == 0)
		exit_code = detect(&d);
	ut_runner_free(d.runner);
	ut_graph_free(d.g);
	ut_git_close(d.git);
	ut_candidates_report_dispose(&d.report);
	free(d.rest.items);
	ut_cli_project_dispose(&d.p);
	return exit_code;
}
