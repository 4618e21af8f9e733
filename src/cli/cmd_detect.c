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
#include "filter/candidates.h"
#include "graph/graph_json.h"
#include "minimize/minimize.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "vcs/git.h"
#include "util/banned.h"



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

/* The folders of the graph (a temporary file, then a rename) and of the journal, when
 * they exist: found before any run, not after all of them. */
static int check_writable(const char *graph)
{
	const char *paths[] = {graph, UT_CLI_JOURNAL};
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

/* What --resume reuses, and a warning for what changed since the journal was written. */
static void journal_resumed(const ut_journal *j, const ut_graph *g)
{
	const ut_journal_changes *ch = ut_journal_changed(j);
	size_t i;

	ut_infof("resuming: %zu runs in %s%s", ut_journal_recorded(j), UT_CLI_JOURNAL,
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
	if (ch->ignore)
		ut_warnf("--resume: values.ignore changed since the journal was written: the "
			 "candidates differ; recorded runs of the same schedules are reused (their "
			 "outcomes do not depend on it)");
	if (ch->runner)
		ut_warnf("--resume: the runner's command, reset or env changed since the journal "
			 "was written: recorded outcomes are reused; if the change alters what tests "
			 "do, start over with 'untangle detect --fresh'");
}

static int write_timings(const ut_graph *g)
{
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;
	int rc;

	ut_jsonw_init(&w, &out, true);
	ut_jsonw_obj_begin(&w);
	for (i = 0; i < g->ntests; i++) {
		if (g->tests[i].duration_s < 0)
			continue;
		ut_jsonw_key(&w, g->tests[i].id);
		ut_jsonw_double(&w, g->tests[i].duration_s);
	}
	ut_jsonw_obj_end(&w);
	ut_buf_putc(&out, '\n');
	rc = out.failed ? ut_error_set(UT_ENOMEM, "out of memory")
			: ut_fs_write_atomic(UT_CLI_TIMINGS, out.ptr, out.len);
	ut_buf_dispose(&out);
	return rc;
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

static int write_note(ut_git *git, const char *notes_ref, const char *head, const ut_graph *g)
{
	ut_buf json = UT_BUF_INIT;
	int rc = ut_graph_write_json(&json, g);

	if (rc == 0)
		rc = ut_git_note_write(git, notes_ref, head, json.ptr);
	ut_buf_dispose(&json);
	return rc;
}

/* notes_ref is NULL when no note was written. */
static void print_summary(const ut_graph *g, const ut_detect_stats *st,
			  const ut_detect_fix_stats *fs, bool json, const char *graph_path,
			  const char *notes_ref)
{
	static const char *const keys[] = {"original", "validate", "recover", "disconnected",
					   "isolation", "search", "verify"};
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	if (!json) {
		printf("tests %zu, manifest edges %zu, schedules run %ld, test executions %ld, "
		       "wall time %.1f s\n", g->ntests, st->manifest, st->schedules_run,
		       st->test_executions, st->wall_s);
		if (fs)
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
		printf("verification: %zu runs; %zu tests searched again, %zu edges added, %zu "
		       "removed\n", st->verify_runs, st->verify_searched, st->verify_added,
		       st->verify_removed);
		if (st->replayed)
			printf("replayed from the journal: %ld runs\n", st->replayed);
		if (st->flaky || st->failing)
			printf("left out: %zu flaky, %zu failing in the original order\n", st->flaky,
			       st->failing);
		for (i = 0; i < g->edges.n; i++) {
			const ut_edge *e = &g->edges.v[i];

			if (e->status == UT_EDGE_MANIFEST)
				printf("  %s -> %s  (%s)\n", ut_cli_esc(g->tests[e->dependent].id),
				       ut_cli_esc(g->tests[e->dependee].id),
				       ut_edge_origin_name(e->origin));
		}
		for (i = 0; i < g->ntests; i++) {
			if (g->tests[i].flaky)
				printf("  flaky: %s\n", ut_cli_esc(g->tests[i].id));
			if (g->tests[i].failing)
				printf("  never passed in the original order (a failing test, or an id "
				       "the runner does not know): %s\n", ut_cli_esc(g->tests[i].id));
		}
		printf("graph written to %s\n", graph_path);
		if (notes_ref)
			printf("note written to %s on %s\n", notes_ref, g->commit);
		return;
	}
	ut_jsonw_init(&w, &out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "graph");
	ut_jsonw_str(&w, graph_path);
	if (notes_ref) {
		ut_jsonw_key(&w, "notes_ref");
		ut_jsonw_str(&w, notes_ref);
		ut_jsonw_key(&w, "commit");
		ut_jsonw_str(&w, g->commit);
	}
	ut_jsonw_key(&w, "tests");
	ut_jsonw_int(&w, (long long)g->ntests);
	ut_jsonw_key(&w, "manifest_edges");
	ut_jsonw_int(&w, (long long)st->manifest);
	ut_jsonw_key(&w, "schedules_run");
	ut_jsonw_int(&w, st->schedules_run);
	ut_jsonw_key(&w, "test_executions");
	ut_jsonw_int(&w, st->test_executions);
	ut_jsonw_key(&w, "replayed");
	ut_jsonw_int(&w, st->replayed);
	ut_jsonw_key(&w, "retried");
	ut_jsonw_int(&w, st->retried);
	ut_jsonw_key(&w, "wall_s");
	ut_jsonw_double(&w, st->wall_s);
	ut_jsonw_key(&w, "strategy");
	ut_jsonw_str(&w, g->stats.strategy ? g->stats.strategy : "");
	ut_jsonw_key(&w, "output_schedules");
	ut_jsonw_int(&w, (long long)st->output_schedules);
	ut_jsonw_key(&w, "verified_earlier");
	ut_jsonw_int(&w, (long long)st->verified_earlier);
	ut_jsonw_key(&w, "verification");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "runs");
	ut_jsonw_int(&w, (long long)st->verify_runs);
	ut_jsonw_key(&w, "tests_searched_again");
	ut_jsonw_int(&w, (long long)st->verify_searched);
	ut_jsonw_key(&w, "edges_added");
	ut_jsonw_int(&w, (long long)st->verify_added);
	ut_jsonw_key(&w, "edges_removed");
	ut_jsonw_int(&w, (long long)st->verify_removed);
	ut_jsonw_obj_end(&w);
	if (fs) {
		ut_jsonw_key(&w, "selection");
		ut_jsonw_obj_begin(&w);
		ut_jsonw_key(&w, "selected");
		ut_jsonw_int(&w, (long long)fs->selected);
		ut_jsonw_key(&w, "broken");
		ut_jsonw_int(&w, (long long)fs->broken);
		ut_jsonw_key(&w, "added");
		ut_jsonw_int(&w, (long long)fs->added);
		ut_jsonw_key(&w, "unfixed");
		ut_jsonw_int(&w, (long long)fs->unfixed);
		ut_jsonw_key(&w, "schedules_run");
		ut_jsonw_int(&w, fs->runs);
		ut_jsonw_key(&w, "test_executions");
		ut_jsonw_int(&w, fs->test_executions);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_key(&w, "phase_s");
	ut_jsonw_obj_begin(&w);
	for (i = 0; i < UT_PHASE_COUNT; i++) {
		ut_jsonw_key(&w, keys[i]);
		ut_jsonw_double(&w, st->phase_s[i]);
	}
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "flaky");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < g->ntests; i++) {
		if (g->tests[i].flaky)
			ut_jsonw_str(&w, g->tests[i].id);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "failing_in_original_order");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < g->ntests; i++) {
		if (g->tests[i].failing)
			ut_jsonw_str(&w, g->tests[i].id);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	if (ut_cli_emit(&out) < 0)
		ut_errorf("%s", ut_error_message());
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

int cmd_detect(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	const char *strategy = NULL, *filter = NULL, *extract = NULL;
	long nworkers = 0; /* 0: detect.workers */
	const char *store = "file";
	const char *select = NULL, *coverage_path = NULL;
	bool resume = false, fresh = false;
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 0, "strategy", "tedd|fast", "validation strategy (detect.strategy)",
		 &strategy),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "extract", "string|order", "candidate extraction (detect.extract)",
		 &extract),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "filter", "none|values|verb|dobj|noun",
		 "candidate filter (detect.filter)", &filter),
		UT_OPT_INT_ROW(0, "workers", "N", "parallel workers (detect.workers)", &nworkers, 1, 256),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "store", "file|notes",
		 "the graph file, or also a git note on HEAD (store.notes_ref)", &store),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "select", "coverage",
		 "crawler suites: validate only tests that reach the coverage, and what they need",
		 &select),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "coverage", "FILE",
		 "with --select: test id -> covered elements (default: features from the suite)",
		 &coverage_path),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "resume", NULL,
		 "continue an interrupted detection from .untangle/journal.jsonl", &resume),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "fresh", NULL,
		 "start over, keeping an unfinished journal as .untangle/journal.jsonl.N.bak",
		 &fresh),
		UT_OPT_ROW(UT_OPT_REST, 0, NULL, "PATH", "files or folders with tests", &rest),
		UT_CLI_OPT_JOBS(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_candidates_opts co;
	ut_candidates_report report;
	ut_detect_opts dopts;
	ut_detect_stats st;
	ut_detect_fix_stats fs;
	ut_journal_header jh;
	ut_arena jarena = UT_ARENA_INIT;
	ut_journal *journal = NULL;
	ut_runner *runner = NULL;
	ut_graph *g = NULL;
	ut_git *git = NULL;
	char head[UT_GIT_OID_HEX + 1] = "";
	ut_cli_progress ps = {0};
	ut_cli_signals sigs;
	char *fingerprint = NULL;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	memset(&report, 0, sizeof(report));
	memset(&co, 0, sizeof(co));
	memset(&dopts, 0, sizeof(dopts));
	memset(&fs, 0, sizeof(fs));
	if (!ut_cli_parse("detect", opts, &common, argc, argv, &exit_code))
		return exit_code;
	if (resume && fresh) {
		ut_errorf("--resume and --fresh: choose one");
		free(rest.items);
		return UT_EXIT_INPUT;
	}
	if (strcmp(store, "file") && strcmp(store, "notes")) {
		ut_errorf("--store: '%s' is not one of file, notes", store);
		free(rest.items);
		return UT_EXIT_INPUT;
	}
	exit_code = ut_cli_project_load(&p, &common, &rest);
	if (exit_code)
		goto done;
	if (!strategy)
		strategy = p.cfg.detect.strategy;
	if ((select && strcmp(select, "coverage")) || (coverage_path && !select)) {
		ut_errorf(select ? "--select: '%s' is not coverage" : "--coverage needs --select",
			  select);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (strcmp(strategy, "tedd") && strcmp(strategy, "fast")) {
		ut_errorf("--strategy: '%s' is not one of tedd, fast", strategy);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (!nworkers)
		nworkers = p.cfg.detect.workers;
	if (!strcmp(store, "notes")) {
		rc = notes_open(&git, head, &p, &rest);
		if (rc < 0) {
			exit_code = ut_cli_exit_code(rc);
			goto done;
		}
	}
	exit_code = ut_cli_candidates_opts(&p, &extract, &filter, &co);
	if (exit_code)
		goto done;
	rc = ut_candidates_build(&g, &report, p.suite, &co);
	if (rc < 0)
		goto fail;
	if (!g->ntests) {
		ut_errorf("no tests found: nothing to detect");
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	rc = check_writable(p.cfg.store.graph);
	if (rc < 0)
		goto fail;
	exit_code = ut_cli_runner_new(&runner, &p.cfg);
	if (exit_code)
		goto done;
	if (p.cfg.runner.reset.n == 0)
		ut_warnf("no runner.reset: each schedule starts from whatever state the one before "
			 "left, so a test can pass on data an earlier schedule created and a "
			 "dependency goes unseen. Give a command that restores a clean application "
			 "state for a worker, e.g. \"runner\": {\"reset\": [\"./reset\", "
			 "\"{worker}\"]} in untangle.json, or `untangle init --reset ./reset "
			 "{worker}`");
	if (select) {
		exit_code = select_tests(&g, &p, coverage_path, runner, &fs);
		if (exit_code)
			goto done;
	}
	fingerprint = suite_fingerprint(g);
	memset(&jh, 0, sizeof(jh));
	jh.suite = fingerprint ? fingerprint : "";
	jh.strategy = strategy;
	jh.extract = extract;
	jh.filter = filter;
	jh.reruns = p.cfg.detect.reruns;
	jh.ntests = g->ntests;
	rc = ut_journal_fingerprint(&jh, &jarena, g, &p.cfg);
	if (rc == 0)
		rc = ut_journal_open(&journal, UT_CLI_JOURNAL, &jh,
				     resume ? UT_JOURNAL_RESUME : fresh ? UT_JOURNAL_FRESH
				     : UT_JOURNAL_START);
	if (rc < 0)
		goto fail;
	if (resume)
		journal_resumed(journal, g);
	if (ut_journal_backup(journal))
		ut_infof("--fresh: the old journal is kept as %s", ut_journal_backup(journal));
	ut_infof("%zu tests, %zu candidate edges kept of %zu (%s, filter %s); strategy %s, "
		 "%ld worker%s", g->ntests, report.filter.kept, report.filter.candidates, extract,
		 filter, strategy, nworkers, nworkers == 1 ? "" : "s");
	ut_cli_signals_catch(&sigs);
	ut_cli_progress_init(&ps);
	dopts.strategy = strategy;
	dopts.reruns = p.cfg.detect.reruns;
	dopts.worker = 0;
	dopts.workers = (int)nworkers;
	/* no per-run counting when quiet */
	dopts.progress = common.quiet ? NULL : ut_cli_progress_event;
	dopts.progress_ctx = &ps;
	rc = ut_detect_run(g, runner, journal, &dopts, &st);
	ut_cli_signals_restore(&sigs);
	ut_cli_progress_end(&ps);
	if (rc == UT_EINTR) {
		ut_errorf("interrupted: %ld runs are in %s; 'untangle detect --resume' goes on from "
			  "there", st.schedules_run, UT_CLI_JOURNAL);
		exit_code = UT_EXIT_INTERRUPTED;
		goto done;
	}
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		ut_errorf("the %ld runs so far are in %s; 'untangle detect --resume' goes on from "
			  "there", st.schedules_run, UT_CLI_JOURNAL);
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	if (git)
		g->commit = head;
	rc = ut_graph_save(g, p.cfg.store.graph);
	if (rc == 0)
		rc = write_timings(g);
	if (rc == 0 && git)
		rc = write_note(git, p.cfg.store.notes_ref, head, g);
	if (rc == 0)
		rc = ut_journal_finish(journal);
	if (rc < 0)
		goto fail;
	print_summary(g, &st, select ? &fs : NULL, common.json, p.cfg.store.graph,
		      git ? p.cfg.store.notes_ref : NULL);
	exit_code = UT_EXIT_OK;
	goto done;
fail:
	ut_errorf("%s", ut_error_message());
	exit_code = ut_cli_exit_code(rc);
done:
	free(fingerprint);
	ut_journal_close(journal);
	ut_arena_dispose(&jarena);
	ut_runner_free(runner);
	ut_graph_free(g);
	ut_git_close(git);
	ut_candidates_report_dispose(&report);
	free(rest.items);
	ut_cli_project_dispose(&p);
	return exit_code;
}
