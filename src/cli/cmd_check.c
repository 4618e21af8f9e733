/* cmd_check.c: `untangle check --base REF`: the incremental pre-merge check. The work is
 * ut_check_run's (src/check); this file reads the options, tells the steps on stderr and
 * writes the findings in the chosen format, the summary and the post. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "report/report.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

typedef struct {
	ut_cli_common common;
	const char *base_ref, *format, *out_path, *summary, *post, *store;
	long workers; /* 0: detect.workers */
} check_args;

/* What the steps show: the command's options and the progress line. */
typedef struct {
	const check_args *a;
	const ut_config *cfg;
	ut_cli_progress line;
} check_view;

static bool parse_args(check_args *a, int argc, char **argv, int *exit_code)
{
	const char *env;
	ut_opt opts[] = {
		UT_OPT_REQUIRED(UT_OPT_VALUE, 0, "base", "REF", "the branch the change goes into (origin/main)",
		 &a->base_ref),
		UT_OPT_ROW(UT_OPT_VALUE, 'f', "format", "text|github|markdown|sarif|gitlab|json",
		 "findings format (default github under GitHub Actions, else text)", &a->format),
		UT_OPT_ROW(UT_OPT_VALUE, 'o', "out", "FILE", "also write the findings there (stdout keeps them)",
		 &a->out_path),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "summary", "FILE",
		 "append the Markdown summary (default $GITHUB_STEP_SUMMARY when set)", &a->summary),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "post", "github",
		 "post a check run and a pull-request comment (GITHUB_TOKEN, GITHUB_REPOSITORY, "
		 "GITHUB_EVENT_PATH)", &a->post),
		UT_OPT_INT_ROW(0, "workers", "N", "parallel workers (detect.workers)", &a->workers, 1, 256),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "store", "file|notes",
		 "the head's graph file, or also a git note on HEAD (store.notes_ref)", &a->store),
		UT_CLI_OPT_SUITE(a->common),
		UT_OPT_END,
	};

	if (!ut_cli_parse("check", opts, &a->common, argc, argv, exit_code))
		return false;
	env = getenv("GITHUB_ACTIONS");
	if (a->common.json)
		a->format = "json";
	if (!a->format)
		a->format = env && !strcmp(env, "true") ? "github" : "text";
	*exit_code = UT_EXIT_INPUT;
	if (strcmp(a->format, "text") && !ut_cli_report_format(a->format)) {
		ut_errorf("--format: '%s' is not one of text, github, markdown, sarif, gitlab, json",
			  a->format);
		return false;
	}
	if (strcmp(a->store, "file") && strcmp(a->store, "notes")) {
		ut_errorf("--store: '%s' is not one of file, notes", a->store);
		return false;
	}
	if (a->post && strcmp(a->post, "github")) {
		ut_errorf("--post: '%s' is not supported (only github)", a->post);
		return false;
	}
	env = getenv("GITHUB_STEP_SUMMARY");
	if (!a->summary && env && *env)
		a->summary = env;
	*exit_code = UT_EXIT_OK;
	return true;
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

static void on_event(void *ctx, const ut_check_event *ev)
{
	check_view *v = ctx;
	const ut_check_result *r = ev->r;

	switch (ev->kind) {
	case UT_CHECK_EV_DETACHED:
		ut_infof("HEAD is detached at %.12s: checking that commit and the work tree",
			 r->head);
		break;
	case UT_CHECK_EV_BASE:
		if (r->have_graph)
			ut_infof("base: %s at %.12s, merge base %.12s; graph from %s", v->a->base_ref,
				 r->base, r->merge_base, r->graph_where);
		else
			ut_warnf("no graph for the base: no note under %s on %.12s or its %d nearest "
				 "ancestors, and no %s in its tree; validating the whole suite (run "
				 "'untangle detect --store notes' on the base branch to make checks "
				 "incremental)", v->cfg->store.notes_ref, r->merge_base,
				 UT_CHECK_NOTE_DEPTH, v->cfg->store.graph);
		break;
	case UT_CHECK_EV_CHANGED:
		ut_infof("%zu file%s of the suite changed since %.12s", r->files_changed,
			 r->files_changed == 1 ? "" : "s", r->graph_commit);
		break;
	case UT_CHECK_EV_COMPARED:
		print_changes(&r->check, v->a->common.quiet);
		break;
	case UT_CHECK_EV_RUNNER:
		ut_cli_runner_note(v->cfg);
		ut_cli_progress_init(&v->line);
		break;
	case UT_CHECK_EV_RUN:
		ut_cli_progress_event(&v->line, ev->run);
		break;
	}
}

/* The findings in the format, on stdout and in --out, and the Markdown summary appended. */
static int write_outputs(const ut_findings *fs, const check_args *a)
{
	ut_cli_report_writer write = strcmp(a->format, "text") ? ut_cli_report_format(a->format)
							       : ut_report_text;
	ut_buf out = UT_BUF_INIT, md = UT_BUF_INIT;
	FILE *f = NULL;
	int rc = write(&out, fs);

	if (rc == 0)
		fwrite(out.ptr, 1, out.len, stdout);
	if (rc == 0 && a->out_path)
		rc = ut_fs_write_atomic(a->out_path, out.ptr, out.len);
	fflush(stdout);
	if (rc == 0 && a->summary)
		rc = ut_report_markdown(&md, fs, NULL);
	if (rc == 0 && a->summary) {
		f = fopen(a->summary, "a");
		if (!f || fwrite(md.ptr, 1, md.len, f) != md.len)
			rc = ut_error_set(UT_EENV, "cannot write the summary to '%s': %s",
					  a->summary, strerror(errno));
		if (f && fclose(f) != 0 && rc == 0)
			rc = ut_error_set(UT_EENV, "cannot write the summary to '%s'", a->summary);
	}
	if (rc == 0 && a->post)
		rc = ut_cli_post_github(fs);
	ut_buf_dispose(&out);
	ut_buf_dispose(&md);
	return rc;
}

/* What the check ended with, said; the exit code. */
static int finish(int rc, const ut_check_result *r, const check_args *a, const ut_config *cfg)
{
	const ut_findings *fs = &r->findings;
	size_t errors = fs->count[UT_SEVERITY_ERROR], warnings = fs->count[UT_SEVERITY_WARNING];

	for (size_t i = 0; rc == UT_EINPUT && i < r->broken.items.n; i++)
		ut_errorf("%s:%u: the changed test file does not parse: %s", r->broken.items.v[i].file,
			  r->broken.items.v[i].line, r->broken.items.v[i].message);
	if (rc == UT_EINPUT && r->broken.items.n)
		return UT_EXIT_INPUT;
	if (rc == 0) {
		ut_infof("re-validation: %ld schedules, %ld test executions, %.1f s (%zu schedules "
			 "checked)", r->stats.schedules_run, r->stats.test_executions,
			 r->stats.wall_s, r->stats.output_schedules);
		rc = write_outputs(fs, a);
	}
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	if (r->note_skipped)
		ut_warnf("--store notes: no note written: the suite has uncommitted changes, and "
			 "the note would be read as HEAD's (%.12s) graph; commit them first", r->head);
	ut_infof("graph for %.12s written to %s%s%s; %zu error%s, %zu warning%s", r->head,
		 cfg->store.graph, r->wrote & UT_STORE_WROTE_NOTE ? " and to " : "",
		 r->wrote & UT_STORE_WROTE_NOTE ? cfg->store.notes_ref : "", errors,
		 errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	return errors ? UT_EXIT_FOUND : UT_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	check_args a = {.store = "file"};
	ut_cli_project p = {0};
	ut_check_opts o = {0};
	ut_check_result r;
	ut_candidates_opts co;
	ut_cli_signals sigs;
	check_view view = {&a, NULL, {false}};
	char *dir = NULL, hex[17];
	int rc, exit_code;

	if (!parse_args(&a, argc, argv, &exit_code))
		return exit_code;
	exit_code = ut_cli_project_load(&p, &a.common, NULL);
	if (exit_code == 0)
		exit_code = ut_cli_guard(); /* check writes .untangle even when nothing runs */
	if (exit_code == 0)
		exit_code = ut_cli_candidates_opts(&p, &o.extract, &o.filter, &co);
	dir = exit_code ? NULL : ut_cli_project_dir();
	if (!exit_code && !dir) {
		ut_errorf("%s", ut_error_message());
		exit_code = UT_EXIT_ENV;
	}
	if (exit_code) {
		free(dir);
		ut_cli_project_dispose(&p);
		return exit_code;
	}
	o.base_ref = a.base_ref;
	o.project_dir = dir;
	o.state_dir = UT_STORE_DIR;
	o.cfg = view.cfg = &p.cfg;
	o.head = p.suite;
	o.head_diags = &p.diags;
	o.candidates = &co;
	o.jobs = p.jobs;
	o.workers = (int)(a.workers ? a.workers : p.cfg.detect.workers);
	o.note = !strcmp(a.store, "notes");
	o.sources = ut_cli_sources_hex(&p, hex) ? hex : NULL;
	ut_cli_signals_catch(&sigs);
	rc = ut_check_run(&r, &o, on_event, &view);
	ut_cli_signals_restore(&sigs);
	ut_cli_progress_end(&view.line);
	exit_code = finish(rc, &r, &a, &p.cfg);
	ut_check_result_dispose(&r);
	free(dir);
	ut_cli_project_dispose(&p);
	return exit_code;
}
