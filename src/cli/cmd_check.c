/* cmd_check.c: `untangle check --base REF`: the incremental pre-merge check. Finds the
 * graph validated at (or before) the merge base, diffs that commit against the work tree
 * with libgit2, compares both versions of the suite, re-validates only the tests the
 * change affects, reports findings and writes the head's graph. */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "cli/cli.h"
#include "config/parse_opts.h"
#include "detect/detect.h"
#include "filter/candidates.h"
#include "graph/graph_json.h"
#include "parse/parse.h"
#include "report/report.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "vcs/git.h"
#include "util/banned.h"

#define CHECK_JOURNAL UT_CLI_STATE_DIR "/check-journal.jsonl"
#define NOTE_DEPTH 1000 /* ancestors of the merge base searched for a note */


typedef struct {
	ut_map index; /* head test id -> index + 1 */
	long *fail_run;
	bool quiet;
	ut_cli_progress line;
} check_progress;

static void progress(void *ctx, const ut_detect_event *ev)
{
	check_progress *p = ctx;

	if (ev->failed) {
		size_t i = (size_t)ut_map_get(&p->index, ev->failed, strlen(ev->failed));

		if (i)
			p->fail_run[i - 1] = ev->run;
	}
	if (!p->quiet)
		ut_cli_progress_event(&p->line, ev);
}

static int git_exit(int rc)
{
	ut_errorf("%s", ut_error_message());
	return rc == UT_ENOTFOUND ? UT_EXIT_INPUT : ut_cli_exit_code(rc);
}

/* The suite root's folder in the repository: "" or "a/b/". */
static char *repo_prefix(const ut_git *repo)
{
	char *cwd = ut_cli_project_dir(), *out;
	const char *wd = ut_git_workdir(repo);
	size_t n = strlen(wd);

	if (!cwd)
		return NULL;
	out = !strncmp(cwd, wd, n) ? strdup(cwd + n) : NULL;
	free(cwd);
	return out;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The temporary copy of the base version. */
static void remove_tree(const char *dir)
{
	if (*dir)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* PREFIX + PATH, "" for the whole repository. */
static char *repo_path(const char *prefix, const char *path)
{
	size_t n = strlen(prefix);
	char *out;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strcmp(path, "."))
		path = "";
	out = malloc(n + strlen(path) + 1);
	if (!out)
		return NULL;
	memcpy(out, prefix, n);
	memcpy(out + n, path, strlen(path) + 1);
	n = strlen(out);
	while (n && out[n - 1] == '/')
		out[--n] = 0;
	return out;
}

typedef struct {
	ut_graph *g;
	char commit[UT_GIT_OID_HEX + 1]; /* the commit the graph describes */
	char where[160];                 /* "the note on abc1234" or "graph.json at abc1234" */
} base_graph;

/* The base graph: a note on the merge base or its nearest ancestor with one, else the
 * graph file in the merge base's tree. Returns 0 found, 1 none, or an exit code < 0 as
 * -code after printing. */
static int find_graph(base_graph *bgr, ut_git *repo, const ut_config *cfg, const char *mb,
		      const char *prefix)
{
	char *text = NULL, *path;
	size_t len = 0;
	int rc;

	rc = ut_git_note_find(repo, cfg->store.notes_ref, mb, NOTE_DEPTH, bgr->commit, &text);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return -ut_cli_exit_code(rc);
	}
	if (rc == 0) {
		snprintf(bgr->where, sizeof(bgr->where), "the note on %.12s (%s)", bgr->commit,
			 cfg->store.notes_ref);
		rc = ut_graph_read_json(&bgr->g, text, strlen(text), bgr->where);
		free(text);
		if (rc < 0) {
			ut_errorf("%s is not a graph: %s; run 'untangle detect --store notes' on that "
				  "commit again, or remove the note", bgr->where, ut_error_message());
			return -UT_EXIT_INPUT;
		}
		return 0;
	}
	path = repo_path(prefix, cfg->store.graph);
	if (!path)
		return -UT_EXIT_ENV;
	rc = ut_git_read_file(repo, mb, path, &text, &len);
	if (rc == 0) {
		memcpy(bgr->commit, mb, sizeof(bgr->commit));
		snprintf(bgr->where, sizeof(bgr->where), "%s at %.12s", path, mb);
		rc = ut_graph_read_json(&bgr->g, text, len, bgr->where);
		free(text);
		free(path);
		if (rc < 0) {
			ut_errorf("%s", ut_error_message());
			return -UT_EXIT_INPUT;
		}
		return 0;
	}
	free(path);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return -ut_cli_exit_code(rc);
	}
	return 1;
}

/* The base version of the suite, from the commit's tree into a temporary folder. */
static int parse_base(ut_suite **out, ut_git *repo, const char *commit, const char *prefix,
		      const ut_config *cfg, unsigned jobs, char *tmp, size_t tmp_size)
{
	ut_parse_opts po;
	ut_diags diags;
	ut_arena arena = UT_ARENA_INIT;
	char sub[PATH_MAX];
	long files;
	int rc;

	if (ut_fs_mkdirs(UT_CLI_STATE_DIR "/tmp") < 0) {
		ut_errorf("%s", ut_error_message());
		return UT_EXIT_ENV;
	}
	snprintf(tmp, tmp_size, "%s/tmp/check-base-XXXXXX", UT_CLI_STATE_DIR);
	if (!mkdtemp(tmp)) {
		ut_errorf("cannot create a folder under %s/tmp: %s", UT_CLI_STATE_DIR, strerror(errno));
		tmp[0] = 0;
		return UT_EXIT_ENV;
	}
	snprintf(sub, sizeof(sub), "%s", prefix);
	if (*sub)
		sub[strlen(sub) - 1] = 0;
	files = ut_git_extract_tree(repo, commit, sub, tmp);
	if (files < 0)
		return git_exit((int)files);
	rc = ut_config_parse_opts(&po, cfg, tmp, &arena);
	po.jobs = jobs;
	if (po.order_file && !ut_fs_exists(po.order_file))
		po.order_file = NULL; /* not in the base commit */
	ut_diags_init(&diags);
	if (rc == 0)
		rc = ut_parse_suite(out, &po, &diags);
	ut_diags_dispose(&diags); /* the base commit's warnings are not this change's */
	ut_arena_dispose(&arena);
	if (rc == UT_ENOTFOUND || rc == UT_EINPUT) {
		/* The suite did not exist at the base: every test is new. */
		rc = ut_suite_new(out);
	}
	if (rc < 0) {
		ut_errorf("the base version of the suite: %s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}

/* A test file this change touched that no longer parses: the change's error, not a
 * warning. */
static int parse_errors(const ut_diags *d, const ut_git_change *ch, size_t nch,
			const char *prefix)
{
	int bad = 0;
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < d->items.n; i++) {
		const ut_diag *g = &d->items.v[i];

		if (!g->file || g->kind != UT_DIAG_SYNTAX)
			continue;
		for (size_t k = 0; k < nch; k++) {
			const char *np = ch[k].new_path;

			if (np && !strncmp(np, prefix, plen) && !strcmp(np + plen, g->file)) {
				ut_errorf("%s:%u: the changed test file does not parse: %s", g->file,
					  g->line, g->message);
				bad = 1;
			}
		}
	}
	return bad;
}

static void print_changes(const ut_check *c, bool quiet)
{
	const ut_suite *h = c->in->head.suite, *b = c->in->base.suite;

	ut_infof("tests: %zu added, %zu removed, %zu renamed, %zu modified, %zu reordered, "
		 "%zu unchanged; %zu to re-validate", c->count[UT_CHANGE_ADDED],
		 c->count[UT_CHANGE_REMOVED], c->count[UT_CHANGE_RENAMED],
		 c->count[UT_CHANGE_MODIFIED], c->count[UT_CHANGE_REORDERED],
		 c->count[UT_CHANGE_SAME], ut_check_affected(c));
	if (quiet)
		return;
	for (size_t i = 0; i < h->tests.n; i++) {
		if (c->head[i].kind == UT_CHANGE_SAME)
			continue;
		if (c->head[i].kind == UT_CHANGE_RENAMED)
			ut_infof("  renamed: %s -> %s", b->tests.v[c->head[i].other].id,
				 h->tests.v[i].id);
		else
			ut_infof("  %s: %s", ut_change_kind_name(c->head[i].kind), h->tests.v[i].id);
	}
	for (size_t i = 0; i < b->tests.n; i++) {
		if (c->base[i].kind == UT_CHANGE_REMOVED)
			ut_infof("  removed: %s", b->tests.v[i].id);
	}
}

static int write_outputs(const ut_findings *fs, const char *format, const char *out_path,
			 const char *summary_path)
{
	ut_cli_report_writer write = strcmp(format, "text") ? ut_cli_report_format(format)
							     : ut_report_text;
	ut_buf out = UT_BUF_INIT, md = UT_BUF_INIT;
	int rc = write(&out, fs);

	if (rc == 0 && out_path)
		rc = ut_fs_write_atomic(out_path, out.ptr, out.len);
	else if (rc == 0)
		fwrite(out.ptr, 1, out.len, stdout);
	fflush(stdout);
	if (rc == 0 && summary_path) {
		FILE *f;

		rc = ut_report_markdown(&md, fs, NULL);
		f = rc == 0 ? fopen(summary_path, "a") : NULL;
		if (rc == 0 && (!f || fwrite(md.ptr, 1, md.len, f) != md.len))
			rc = ut_error_set(UT_EENV, "cannot write the summary to '%s': %s",
					  summary_path, strerror(errno));
		if (f && fclose(f) != 0 && rc == 0)
			rc = ut_error_set(UT_EENV, "cannot write the summary to '%s'", summary_path);
	}
	ut_buf_dispose(&out);
	ut_buf_dispose(&md);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	ut_cli_common common = {0};
	const char *base_ref = NULL, *format = NULL, *out_path = NULL, *summary = NULL,
		   *post = NULL;
	long nworkers = 0; /* 0: detect.workers */
	ut_opt opts[] = {
		UT_OPT_REQUIRED(UT_OPT_VALUE, 0, "base", "REF", "the branch the change goes into (origin/main)",
		 &base_ref),
		UT_OPT_ROW(UT_OPT_VALUE, 'f', "format", "text|github|markdown|sarif|gitlab|json",
		 "findings format (default github under GitHub Actions, else text)", &format),
		UT_OPT_ROW(UT_OPT_VALUE, 'o', "out", "FILE", "write the findings there instead of stdout",
		 &out_path),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "summary", "FILE",
		 "append the Markdown summary (default $GITHUB_STEP_SUMMARY when set)", &summary),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "post", "github",
		 "post a check run and a pull-request comment (GITHUB_TOKEN, GITHUB_REPOSITORY, "
		 "GITHUB_EVENT_PATH)", &post),
		UT_OPT_INT_ROW(0, "workers", "N", "parallel workers (detect.workers)", &nworkers, 1, 256),
		UT_CLI_OPT_JOBS(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_git *repo = NULL;
	ut_suite *base_suite = NULL;
	base_graph bgr;
	ut_graph *empty = NULL, *cand = NULL;
	ut_candidates_report report;
	ut_candidates_opts co;
	ut_check_input in;
	ut_check ck;
	ut_findings fs;
	ut_git_change *changes = NULL;
	size_t nchanges = 0;
	ut_runner *runner = NULL;
	ut_journal *journal = NULL;
	ut_detect_opts dopts;
	ut_detect_stats st, lost;
	check_progress prog;
	ut_cli_signals sigs;
	char head[UT_GIT_OID_HEX + 1], base[UT_GIT_OID_HEX + 1], mb[UT_GIT_OID_HEX + 1];
	char branch[128], tmp[PATH_MAX] = "", *prefix = NULL;
	const char *extract = NULL, *filter = NULL, **prefixes = NULL;
	bool detached = false, have_graph, whole = false;
	size_t nprefixes = 0;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	memset(&bgr, 0, sizeof(bgr));
	memset(&ck, 0, sizeof(ck));
	memset(&report, 0, sizeof(report));
	memset(&prog, 0, sizeof(prog));
	ut_findings_init(&fs);
	if (!ut_cli_parse("check", opts, &common, argc, argv, &exit_code))
		return exit_code;
	if (common.json)
		format = "json";
	if (!format)
		format = getenv("GITHUB_ACTIONS") && !strcmp(getenv("GITHUB_ACTIONS"), "true")
				 ? "github" : "text";
	if (strcmp(format, "text") && !ut_cli_report_format(format)) {
		ut_errorf("--format: '%s' is not one of text, github, markdown, sarif, gitlab, json",
			  format);
		return UT_EXIT_INPUT;
	}
	if (post && strcmp(post, "github")) {
		ut_errorf("--post: '%s' is not supported (only github)", post);
		return UT_EXIT_INPUT;
	}
	if (!summary && getenv("GITHUB_STEP_SUMMARY") && *getenv("GITHUB_STEP_SUMMARY"))
		summary = getenv("GITHUB_STEP_SUMMARY");
	exit_code = ut_cli_project_load(&p, &common, NULL);
	if (exit_code == 0)
		exit_code = ut_cli_guard(); /* check writes .untangle even when nothing runs */
	if (exit_code)
		goto done;
	if (!nworkers)
		nworkers = p.cfg.detect.workers;

	/* the commits */
	rc = ut_git_open(&repo, ".");
	if (rc < 0) {
		exit_code = git_exit(rc);
		goto done;
	}
	prefix = repo_prefix(repo);
	if (!prefix) {
		ut_errorf("cannot place the project folder inside the repository at %s",
			  ut_git_workdir(repo));
		exit_code = UT_EXIT_ENV;
		goto done;
	}
	rc = ut_git_head(repo, head, &detached, branch, sizeof(branch));
	if (rc == 0)
		rc = ut_git_resolve(repo, base_ref, base);
	if (rc < 0) {
		exit_code = git_exit(rc);
		goto done;
	}
	if (detached)
		ut_infof("HEAD is detached at %.12s: checking that commit and the work tree", head);
	rc = ut_git_merge_base(repo, base, head, mb);
	if (rc < 0) {
		exit_code = git_exit(rc);
		goto done;
	}

	/* the base graph, and the commit it describes */
	rc = find_graph(&bgr, repo, &p.cfg, mb, prefix);
	if (rc < 0) {
		exit_code = -rc;
		goto done;
	}
	have_graph = rc == 0;
	if (have_graph) {
		ut_infof("base: %s at %.12s, merge base %.12s; graph from %s", base_ref, base, mb,
			 bgr.where);
	} else {
		ut_warnf("no graph for the base: no note under %s on %.12s or its %d nearest "
			 "ancestors, and no %s in its tree; validating the whole suite (run "
			 "'untangle detect --store notes' on the base branch to make checks incremental)",
			 p.cfg.store.notes_ref, mb, NOTE_DEPTH, p.cfg.store.graph);
		memcpy(bgr.commit, mb, sizeof(bgr.commit));
	}

	/* what changed since that commit */
	nprefixes = p.cfg.suite.paths.n ? p.cfg.suite.paths.n : 1;
	prefixes = calloc(nprefixes, sizeof(*prefixes));
	for (size_t i = 0; prefixes && i < nprefixes; i++) {
		prefixes[i] = repo_path(prefix, p.cfg.suite.paths.n ? p.cfg.suite.paths.items[i] : "");
		if (!prefixes[i])
			break;
		if (!*prefixes[i])
			whole = true;
	}
	rc = prefixes && prefixes[nprefixes - 1]
		     ? ut_git_diff_workdir(repo, bgr.commit, prefixes, whole ? 0 : nprefixes,
					   &changes, &nchanges)
		     : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0) {
		exit_code = git_exit(rc);
		goto done;
	}
	if (parse_errors(&p.diags, changes, nchanges, prefix)) {
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	ut_infof("%zu file%s of the suite changed since %.12s", nchanges, nchanges == 1 ? "" : "s",
		 bgr.commit);
	if (!have_graph) {
		rc = ut_graph_new(&empty, 0);
		if (rc == 0)
			rc = ut_suite_new(&base_suite);
	} else if (nchanges) {
		exit_code = parse_base(&base_suite, repo, bgr.commit, prefix, &p.cfg, p.jobs, tmp,
				       sizeof(tmp));
		if (exit_code)
			goto done;
	}
	if (rc < 0)
		goto fail;

	/* what must run again */
	exit_code = ut_cli_candidates_opts(&p, &extract, &filter, &co);
	if (exit_code)
		goto done;
	rc = ut_candidates_build(&cand, &report, p.suite, &co);
	if (rc < 0)
		goto fail;
	memset(&in, 0, sizeof(in));
	in.base.suite = base_suite ? base_suite : p.suite;
	in.base.root = base_suite && *tmp ? tmp : ".";
	in.head.suite = p.suite;
	in.head.root = ".";
	in.base_graph = have_graph ? bgr.g : empty;
	in.candidates = cand;
	in.repo_prefix = prefix;
	rc = ut_check_prepare(&ck, &in);
	if (rc < 0)
		goto fail;
	print_changes(&ck, common.quiet);

	memset(&st, 0, sizeof(st));
	memset(&lost, 0, sizeof(lost));
	if (ut_check_affected(&ck)) {
		ut_journal_header jh = {.suite = "check", .strategy = "fast", .extract = extract,
					 .filter = filter, .ntests = ck.graph->ntests};

		exit_code = ut_cli_runner_new(&runner, &p.cfg);
		if (exit_code)
			goto done;
		rc = ut_journal_open(&journal, CHECK_JOURNAL, &jh, UT_JOURNAL_NEW);
		if (rc < 0)
			goto fail;
		prog.quiet = common.quiet;
		ut_cli_progress_init(&prog.line);
		prog.fail_run = calloc(ck.graph->ntests + 1, sizeof(long));
		for (size_t i = 0; prog.fail_run && i < ck.graph->ntests; i++)
			ut_map_put(&prog.index, ck.graph->tests[i].id, strlen(ck.graph->tests[i].id),
				   (void *)(i + 1));
		memset(&dopts, 0, sizeof(dopts));
		dopts.strategy = "fast";
		dopts.revalidate = ck.revalidate;
		dopts.workers = (int)nworkers;
		dopts.progress = progress;
		dopts.progress_ctx = &prog;
		ut_cli_signals_catch(&sigs);
		rc = ut_check_settle_lost(&ck, runner, journal, &dopts, &lost);
		if (rc == 0 && ut_check_affected(&ck))
			rc = ut_detect_run(ck.graph, runner, journal, &dopts, &st);
		ut_cli_signals_restore(&sigs);
		ut_cli_progress_end(&prog.line);
		st.schedules_run += lost.schedules_run;
		st.test_executions += lost.test_executions;
		st.wall_s += lost.wall_s;
		if (rc == UT_EINTR) {
			ut_errorf("interrupted after %ld runs; nothing was written", st.schedules_run);
			exit_code = UT_EXIT_INTERRUPTED;
			goto done;
		}
		if (rc < 0)
			goto fail;
	}
	ut_infof("re-validation: %ld schedules, %ld test executions, %.1f s (%zu schedules "
		 "checked)", st.schedules_run, st.test_executions, st.wall_s, st.output_schedules);
	if (!have_graph) {
		/* Without a base every dependency is new: only what fails is a finding. */
		ut_findings tmpfs;

		ut_findings_init(&tmpfs);
		rc = ut_check_conclude(&ck, &tmpfs, prog.fail_run);
		for (size_t i = 0; rc == 0 && i < tmpfs.v.n; i++) {
			if (tmpfs.v.v[i].kind != UT_FINDING_NEW_EDGE)
				rc = ut_findings_add(&fs, &tmpfs.v.v[i]);
		}
		ut_findings_sort(&fs);
		ut_findings_dispose(&tmpfs);
	} else {
		rc = ut_check_conclude(&ck, &fs, prog.fail_run);
	}
	if (rc < 0)
		goto fail;

	/* the head's graph */
	ck.graph->commit = ut_graph_intern(ck.graph, head);
	ck.graph->stats.strategy = "fast";
	ck.graph->stats.schedules_run = st.schedules_run;
	ck.graph->stats.test_executions = st.test_executions;
	ck.graph->stats.wall_s = st.wall_s;
	if (mkdir(UT_CLI_STATE_DIR, 0777) < 0 && errno != EEXIST) {
		rc = ut_error_set(UT_EENV, "cannot create '%s': %s", UT_CLI_STATE_DIR, strerror(errno));
		goto fail;
	}
	rc = ut_graph_save(ck.graph, p.cfg.store.graph);
	if (rc < 0)
		goto fail;
	rc = write_outputs(&fs, format, out_path, summary);
	if (rc == 0 && post)
		rc = ut_cli_post_github(&fs);
	if (rc < 0)
		goto fail;
	ut_infof("graph for %.12s written to %s; %zu error%s, %zu warning%s", head,
		 p.cfg.store.graph, fs.count[UT_SEVERITY_ERROR],
		 fs.count[UT_SEVERITY_ERROR] == 1 ? "" : "s", fs.count[UT_SEVERITY_WARNING],
		 fs.count[UT_SEVERITY_WARNING] == 1 ? "" : "s");
	exit_code = fs.count[UT_SEVERITY_ERROR] ? UT_EXIT_FOUND : UT_EXIT_OK;
	goto done;
fail:
	ut_errorf("%s", ut_error_message());
	exit_code = ut_cli_exit_code(rc);
done:
	remove_tree(tmp);
	free(prog.fail_run);
	ut_map_dispose(&prog.index);
	ut_journal_close(journal);
	ut_runner_free(runner);
	ut_check_dispose(&ck);
	ut_findings_dispose(&fs);
	ut_candidates_report_dispose(&report);
	ut_graph_free(cand);
	ut_graph_free(empty);
	ut_graph_free(bgr.g);
	ut_suite_free(base_suite);
	ut_git_changes_free(changes, nchanges);
	for (size_t i = 0; prefixes && i < nprefixes; i++)
		free((char *)prefixes[i]);
	free(prefixes);
	free(prefix);
	ut_git_close(repo);
	ut_cli_project_dispose(&p);
	return exit_code;
}
