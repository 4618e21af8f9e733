/* cmd_shard.c: `untangle shard` (N balanced dependency-safe lists for a CI matrix) and
 * `untangle schedules` (the thesis' schedules, one per test without dependents). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "graph/graph_json.h"
#include "shard/verify.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/banned.h"


#define DEFAULT_OUT UT_STORE_SHARDS
#define VERIFY_JOURNAL UT_STORE_SHARD_JOURNAL

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void print_stats(const ut_cli_plan *pl, bool per_sink)
{
	const ut_shard_plan *sp = &pl->plan;
	const ut_graph *g = pl->g;

	if (per_sink) {
		printf("%zu schedules (one per test without dependents), %zu test executions for "
		       "%zu tests\n", sp->nshards, sp->ntests + sp->repeats, sp->ntests);
	} else {
		printf("makespan %.2f s, lower bound %.2f s (%.0f%% of it): longest prerequisite "
		       "chain %.2f s", sp->makespan_s, sp->lower_bound_s,
		       100.0 * ratio(sp->makespan_s, sp->lower_bound_s), sp->chain_s);
		if (sp->chain_test >= 0)
			printf(" (%s)", ut_cli_esc(g->tests[sp->chain_test].id));
		printf(", total %.2f s / %zu = %.2f s\n", sp->original_s, sp->nshards, sp->even_s);
		printf("repeats: %zu test execution%s beyond one per test\n", sp->repeats,
		       sp->repeats == 1 ? "" : "s");
	}
	printf("speed-up against the original order (%.2f s): worst case %.2fx, average %.2fx\n",
	       sp->original_s, ratio(sp->original_s, sp->makespan_s),
	       ratio(sp->original_s, sp->mean_s));
	printf("durations: %zu from %s, %zu from the graph, %zu without one (%.2f s each)\n",
	       pl->timings.from_file, UT_STORE_TIMINGS, pl->timings.from_graph,
	       pl->timings.fallback, pl->timings.fallback_s);
}

static void print_text(const ut_cli_plan *pl, bool per_sink)
{
	const ut_shard_plan *sp = &pl->plan;
	size_t i, j;

	for (i = 0; i < sp->nshards; i++) {
		const ut_shard *sh = &sp->shards[i];

		if (per_sink)
			printf("schedule %zu for %s: %zu test%s, %.2f s\n", i + 1,
			       ut_cli_esc(pl->g->tests[sh->targets[0]].id), sh->n, sh->n == 1 ? "" : "s",
			       sh->cost_s);
		else
			printf("shard %zu/%zu: %zu test%s, %.2f s, %zu repeated from earlier shards\n",
			       i + 1, sp->nshards, sh->n, sh->n == 1 ? "" : "s", sh->cost_s,
			       sh->repeats);
		for (j = 0; j < sh->n; j++)
			printf("  %s\n", ut_cli_esc(pl->g->tests[sh->tests[j]].id));
	}
	print_stats(pl, per_sink);
}

static void write_ids(ut_jsonw *w, const ut_graph *g, const uint32_t *v, size_t n)
{
	size_t i;

	ut_jsonw_arr_begin(w);
	for (i = 0; i < n; i++)
		ut_jsonw_str(w, g->tests[v[i]].id);
	ut_jsonw_arr_end(w);
}

static void key_double(ut_jsonw *w, const char *key, double v)
{
	ut_jsonw_key(w, key);
	ut_jsonw_fixed(w, v, 3);
}

static void key_int(ut_jsonw *w, const char *key, size_t v)
{
	ut_jsonw_key(w, key);
	ut_jsonw_int(w, (long long)v);
}

static int print_json(const ut_cli_plan *pl, bool per_sink)
{
	const ut_shard_plan *sp = &pl->plan;
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, &out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, per_sink ? "schedules" : "shards");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < sp->nshards; i++) {
		const ut_shard *sh = &sp->shards[i];

		ut_jsonw_obj_begin(&w);
		key_int(&w, per_sink ? "schedule" : "shard", i + 1);
		key_double(&w, "duration_s", sh->cost_s);
		if (!per_sink)
			key_int(&w, "repeats", sh->repeats);
		ut_jsonw_key(&w, "for");
		write_ids(&w, pl->g, sh->targets, sh->ntargets);
		ut_jsonw_key(&w, "tests");
		write_ids(&w, pl->g, sh->tests, sh->n);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "stats");
	ut_jsonw_obj_begin(&w);
	key_int(&w, "tests", sp->ntests);
	key_int(&w, per_sink ? "schedules" : "shards", sp->nshards);
	key_int(&w, "nonempty", sp->nonempty);
	key_double(&w, "original_s", sp->original_s);
	key_double(&w, "makespan_s", sp->makespan_s);
	key_double(&w, "mean_s", sp->mean_s);
	key_double(&w, "chain_s", sp->chain_s);
	ut_jsonw_key(&w, "chain_test");
	if (sp->chain_test >= 0)
		ut_jsonw_str(&w, pl->g->tests[sp->chain_test].id);
	else
		ut_jsonw_null(&w);
	if (!per_sink) {
		key_double(&w, "even_s", sp->even_s);
		key_double(&w, "lower_bound_s", sp->lower_bound_s);
	}
	key_int(&w, "repeats", sp->repeats);
	key_double(&w, "speedup_worst", ratio(sp->original_s, sp->makespan_s));
	key_double(&w, "speedup_average", ratio(sp->original_s, sp->mean_s));
	key_int(&w, "unproven", sp->unproven);
	key_int(&w, "durations_from_timings", pl->timings.from_file);
	key_int(&w, "durations_from_graph", pl->timings.from_graph);
	key_int(&w, "durations_fallback", pl->timings.fallback);
	key_double(&w, "fallback_s", pl->timings.fallback_s);
	key_double(&w, "plan_s", pl->plan_s);
	if (!per_sink) {
		ut_jsonw_key(&w, "verified");
		ut_jsonw_bool(&w, pl->verified);
	}
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	return ut_cli_emit(&out);
}

/* One line for `echo "matrix=$(untangle shard ... --format github)" >> $GITHUB_OUTPUT`;
 * empty shards are left out (a job with nothing to run), numbering stays that of run. */
static int print_github(const ut_cli_plan *pl)
{
	const ut_shard_plan *sp = &pl->plan;
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	char name[64];
	size_t i;

	ut_jsonw_init(&w, &out, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "include");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < sp->nshards; i++) {
		if (!sp->shards[i].n)
			continue;
		snprintf(name, sizeof(name), "%zu/%zu", i + 1, sp->nshards);
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "shard", name);
		key_int(&w, "tests", sp->shards[i].n);
		key_double(&w, "estimate_s", sp->shards[i].cost_s);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	return ut_cli_emit(&out);
}

/* 0, a negative error code, or 1 when the selection failed (its error printed). */
static int write_lines(const ut_cli_plan *pl, const char *dir, bool per_sink,
		       const char *select)
{
	const ut_shard_plan *sp = &pl->plan;
	ut_buf text = UT_BUF_INIT;
	char name[64];
	size_t i, j;
	int rc = 0;

	/* the default is in untangle's own folder: no link on its way */
	if (strcmp(dir, DEFAULT_OUT) == 0)
		rc = ut_fs_state_dir(dir);
	else if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		rc = ut_error_set(UT_EENV, "cannot create '%s': %s", dir, strerror(errno));
	for (i = 0; i < sp->nshards && rc == 0; i++) {
		char *path;

		text.len = 0;
		if (select && ut_cli_selection(&text, pl, &sp->shards[i], select)) {
			rc = 1;
			break;
		}
		for (j = 0; !select && j < sp->shards[i].n && rc == 0; j++) {
			const char *id = pl->g->tests[sp->shards[i].tests[j]].id;

			/* a line is an id: one with a line break would be two tests to a runner */
			if (strpbrk(id, "\n\r")) {
				rc = ut_error_set(UT_EINPUT,
						  "test '%s' has a line break in its id, which a list "
						  "of one id a line cannot hold: rename it, or use "
						  "--format json",
						  ut_cli_esc(id));
				break;
			}
			ut_buf_puts(&text, id);
			ut_buf_putc(&text, '\n');
		}
		if (rc)
			break;
		snprintf(name, sizeof(name), "%s-%zu.txt", per_sink ? "schedule" : "shard", i + 1);
		path = ut_path_join(dir, name);
		if (!path || text.failed) {
			free(path);
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		rc = ut_fs_write_atomic(path, text.ptr ? text.ptr : "", text.len);
		if (rc == 0)
			printf("%s\n", path);
		free(path);
	}
	ut_buf_dispose(&text);
	return rc;
}

/* What the command line asked for. */
typedef struct {
	const char *format, *out_dir, *select, *plan_file;
	long shards;
	bool per_sink, verify;
} shard_args;

/* How the verification ended, on stderr; the pairs found saved into the graph first. */
static int verify_report(const ut_cli_plan *pl, const ut_shard_verify_result *r, int rc)
{
	const ut_graph *g = pl->g;

	if (r->found && ut_store_graph_save(g, pl->p.cfg.store.graph) < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(UT_EENV);
	}
	if (r->found)
		ut_infof("%zu pair%s of tests kept apart recorded in %s", r->found,
			 r->found == 1 ? "" : "s", pl->p.cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	ut_infof("verified: %zu plan%s run, %zu failing shard%s, %ld runs", r->rounds,
		 r->rounds == 1 ? "" : "s", r->shards_failed, r->shards_failed == 1 ? "" : "s",
		 r->stats.schedules_run);
	if (r->passed)
		return UT_EXIT_OK;
	ut_errorf("a shard still fails: the plan is not published (nor is any earlier plan "
		  "of %zu shards kept: 'run --shard' plans again)", pl->plan.nshards);
	if (r->unfixed >= 0)
		ut_detailf("'%s' fails where no pair kept apart explains it (its own schedule "
			   "fails, or it fails only sometimes): run 'untangle detect' again",
			   ut_cli_esc(g->tests[r->unfixed].id));
	if (r->apart_broken)
		ut_detailf("%zu pair%s kept apart could not be honoured with this many shards",
			   r->apart_broken, r->apart_broken == 1 ? "" : "s");
	return UT_EXIT_FOUND;
}

/* Each run of the verification as it ends (from one worker at a time). */
static void on_run(void *ctx, const ut_detect_event *ev)
{
	(void)ctx;
	if (ev->error)
		ut_infof("run %ld (%s, %zu tests): the run failed as a whole (%s)", ev->run,
			 ev->purpose, ev->tests, ev->error);
	else if (ev->failed)
		ut_infof("run %ld (%s, %zu tests): '%s' failed, %.1f s", ev->run, ev->purpose,
			 ev->tests, ut_cli_esc(ev->failed), ev->run_s);
	else
		ut_infof("run %ld (%s, %zu tests): passed, %.1f s", ev->run, ev->purpose, ev->tests,
			 ev->run_s);
}

/* The plan that passed its verification, where `shard` and `run --shard` find it (a plan
 * file); the exit code. */
static int publish(ut_cli_plan *pl)
{
	char path[UT_STORE_PATH_MAX];
	int exit_code;

	ut_store_verified_plan_path(path, pl->plan.nshards);
	exit_code = ut_cli_plan_write(pl, path);
	if (exit_code == 0) {
		pl->verified = true;
		ut_detailf("'untangle run --shard K/%zu' runs this plan while the suite and the "
			   "graph stay as they are (a new one each time otherwise: timings.json "
			   "changes with every run); a CI job needs this file beside graph.json",
			   pl->plan.nshards);
	} else {
		ut_warnf("every shard passed, but the plan is not published: 'untangle run "
			 "--shard K/%zu' plans again", pl->plan.nshards);
	}
	return UT_EXIT_OK;
}

/* --verify: every shard run after a reset, repaired, before anything is printed. */
static int verify_plan(ut_cli_plan *pl, const ut_shard_opts *so)
{
	ut_cli_signals sigs;
	ut_runner *runner = NULL;
	ut_shard_verify_opts vo;
	ut_shard_verify_result r;
	int exit_code = ut_cli_runner_new(&runner, &pl->p.cfg), rc;

	if (exit_code)
		return exit_code;
	memset(&vo, 0, sizeof(vo));
	memset(&r, 0, sizeof(r));
	vo.plan = *so;
	vo.journal_path = VERIFY_JOURNAL;
	vo.detect.workers = pl->p.cfg.detect.workers;
	vo.detect.progress = on_run;
	ut_cli_signals_catch(&sigs);
	rc = ut_shard_verify(&r, &pl->plan, pl->g, pl->durations, runner, &vo);
	ut_cli_signals_restore(&sigs);
	exit_code = verify_report(pl, &r, rc);
	ut_runner_free(runner);
	if (exit_code == UT_EXIT_FOUND && ut_store_verified_plan_forget(so->nshards) < 0)
		ut_warnf("%s", ut_error_message()); /* a shard fails: no plan of N stays published */
	return exit_code ? exit_code : publish(pl);
}

/* The options that go together, and the shard options they make; 0 or UT_EXIT_INPUT
 * (printed). a->format is set to its default when not given. */
static int check_args(const char *name, shard_args *a, const ut_cli_common *common,
		      ut_shard_opts *so)
{
	if (!a->format)
		a->format = common->json ? "json" : "text";
	if (strcmp(a->format, "text") && strcmp(a->format, "json") &&
	    strcmp(a->format, "github") && strcmp(a->format, "lines")) {
		ut_errorf("--format: '%s' is not one of text, json, github, lines", a->format);
		return UT_EXIT_INPUT;
	}
	if (a->select && strcmp(a->format, "lines")) {
		ut_errorf("--select goes with --format lines");
		return UT_EXIT_INPUT;
	}
	if (a->per_sink && !strcmp(a->format, "github")) {
		ut_errorf("--format github makes a matrix of shards: use --shards N, not --per-sink");
		return UT_EXIT_INPUT;
	}
	if (a->per_sink && a->verify) {
		ut_errorf("--verify runs the shards of a plan: use --shards N, not --per-sink");
		return UT_EXIT_INPUT;
	}
	if (a->per_sink && a->plan_file) {
		ut_errorf("--plan-file writes shards for 'untangle run': use --shards N, not "
			  "--per-sink");
		return UT_EXIT_INPUT;
	}
	so->per_sink = a->per_sink;
	if (!a->per_sink) {
		if (!a->shards) {
			ut_errorf("%s needs --shards N or --per-sink (see 'untangle %s --help')", name,
				  name);
			return UT_EXIT_INPUT;
		}
		so->nshards = (size_t)a->shards;
	}
	return 0;
}

/* The plan in the format asked for; the exit code. */
static int print_plan(const ut_cli_plan *pl, const shard_args *a)
{
	int rc = 0;

	if (!strcmp(a->format, "text"))
		print_text(pl, a->per_sink);
	else if (!strcmp(a->format, "json"))
		rc = print_json(pl, a->per_sink);
	else if (!strcmp(a->format, "github"))
		rc = print_github(pl);
	else
		rc = write_lines(pl, a->out_dir ? a->out_dir : DEFAULT_OUT, a->per_sink, a->select);
	if (rc == 1)
		return UT_EXIT_INPUT;
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return 0;
}

static int shard_main(const char *name, bool schedules, int argc, char **argv)
{
	ut_cli_common common = {0};
	shard_args a = {.per_sink = schedules};
#define FORMAT_AND_OUT                                                                      \
	UT_OPT_ROW(UT_OPT_VALUE, 'f', "format", "text|json|github|lines",                     \
		   "text (default), json (lists and statistics), github (a strategy.matrix "   \
		   "include list), lines (one file per list in --out)",                         \
		   &a.format),                                                                  \
	    UT_OPT_ROW(UT_OPT_VALUE, 'o', "out", "DIR",                                        \
		       "where --format lines writes (default " DEFAULT_OUT ")", &a.out_dir),   \
	    UT_OPT_ROW(UT_OPT_VALUE, 0, "select", "STYLE",                                      \
		       "with --format lines: " UT_CLI_SELECT_HELP, &a.select)
	ut_opt shard_opts[] = {
		FORMAT_AND_OUT,
		UT_CLI_OPT_SUITE(common),
		UT_OPT_INT_ROW('n', "shards", "N", "the number of lists (CI jobs)", &a.shards, 1,
			       UT_SHARD_MAX),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "plan-file", "FILE",
		 "also write the plan to FILE for 'untangle run --plan FILE --shard K/N', which "
		 "runs it without parsing the suite (JSON: the shards, the runner, a fingerprint "
		 "of the files)", &a.plan_file),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "per-sink", NULL,
		 "the thesis' schedules, one per test without dependents (as 'untangle schedules')",
		 &a.per_sink),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "verify", NULL,
		 "run every shard after a reset before the plan is printed or written; a test "
		 "that fails there because of an earlier test is kept apart from it (graph.json "
		 "'apart') and the plan made again; exit 1 when a shard still fails",
		 &a.verify),
		UT_OPT_END,
	};
	/* no --shards, no --per-sink */
	ut_opt schedules_opts[] = {FORMAT_AND_OUT, UT_CLI_OPT_SUITE(common), UT_OPT_END};
#undef FORMAT_AND_OUT
	ut_shard_opts so = {0};
	ut_cli_plan pl;
	int exit_code;

	memset(&pl, 0, sizeof(pl));
	if (!ut_cli_parse(name, schedules ? schedules_opts : shard_opts, &common, argc, argv,
			  &exit_code))
		return exit_code;
	exit_code = check_args(name, &a, &common, &so);
	if (exit_code)
		return exit_code;
	exit_code = ut_cli_plan_load(&pl, &common, &so, !a.verify);
	if (exit_code == 0 && a.verify)
		exit_code = verify_plan(&pl, &so);
	if (exit_code)
		goto done;
	if (a.plan_file) {
		exit_code = ut_cli_plan_write(&pl, a.plan_file);
		if (exit_code)
			goto done;
	}
	exit_code = print_plan(&pl, &a);
done:
	ut_cli_plan_dispose(&pl);
	return exit_code;
}

int cmd_shard(int argc, char **argv)
{
	return shard_main("shard", false, argc, argv);
}

int cmd_schedules(int argc, char **argv)
{
	return shard_main("schedules", true, argc, argv);
}
