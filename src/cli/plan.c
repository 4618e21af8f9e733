/* plan.c: what `shard`, `schedules` and `run` share: the project, the stored graph
 * checked against the parsed suite, the durations, and the plan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "graph/graph_json.h"
#include "shard/plan_file.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

/* "untangle: what: 'a', 'b', 'c' and N more", after the error that explains it. */
static void list_ids(const char *what, const char *const *ids, size_t shown, size_t n)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;

	for (i = 0; i < shown && i < n; i++)
		ut_buf_printf(&b, "%s'%s'", i ? ", " : " ", ids[i]);
	if (n > shown)
		ut_buf_printf(&b, " and %zu more", n - shown);
	ut_detailf("%s:%s", what, b.ptr && !b.failed ? b.ptr : "");
	ut_buf_dispose(&b);
}

/* A graph made for another suite would give lists that miss new tests or name gone ones. */
static int check_drift(const ut_cli_plan *pl)
{
	const ut_suite *su = pl->p.suite;
	const char **ids = malloc((su->tests.n ? su->tests.n : 1) * sizeof(*ids));
	ut_shard_drift d;
	size_t i;
	int rc;

	if (!ids) {
		ut_errorf("out of memory");
		return UT_EXIT_ENV;
	}
	for (i = 0; i < su->tests.n; i++)
		ids[i] = su->tests.v[i].id;
	rc = ut_shard_drift_check(&d, pl->g, ids, su->tests.n);
	if (rc < 0) {
		free(ids);
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	if (d.added || d.removed) {
		ut_errorf("%s is older than the suite: %zu test%s added since, %zu removed; its "
			  "lists would be wrong", pl->p.cfg.store.graph, d.added,
			  d.added == 1 ? "" : "s", d.removed);
		if (d.added)
			list_ids("added", d.first_added, 3, d.added);
		if (d.removed)
			list_ids("removed", d.first_removed, 3, d.removed);
		ut_detailf("run 'untangle detect' to validate the suite as it is now");
		free(ids);
		return UT_EXIT_INPUT;
	}
	if (d.reordered)
		ut_warnf("the suite's order changed since %s was made; the lists keep the order "
			 "the graph was validated in", pl->p.cfg.store.graph);
	free(ids);
	return UT_EXIT_OK;
}

/* A source file the parse could not read holds tests that no list would run. */
static int check_unread(const ut_cli_plan *pl)
{
	const ut_diag *first = NULL;
	size_t n = ut_suite_unread(pl->p.suite, &pl->p.diags, &first);
	const char *why;
	char line[32] = "";

	if (!n)
		return UT_EXIT_OK;
	why = first->message;
	if (!strncmp(why, "skipped: ", 9))
		why += 9;
	if (first->line)
		snprintf(line, sizeof(line), ":%u", first->line);
	if (pl->p.cfg.suite.skip_unreadable) {
		ut_warnf("%zu source file%s not read ('%s' first): %s tests are in no list "
			 "(suite.skip_unreadable)",
			 n, n == 1 ? "" : "s", first->file, n == 1 ? "its" : "their");
		return UT_EXIT_OK;
	}
	ut_errorf("%s%s: not read (%s): its tests would be in no list", first->file, line, why);
	if (n > 1)
		ut_detailf("and %zu more source file%s not read (the warnings above)", n - 1,
			   n == 2 ? "" : "s");
	ut_detailf("make the file readable, let the runner list the tests (runner.list), or "
		   "set suite.skip_unreadable to true in untangle.json to leave them out");
	return UT_EXIT_INPUT;
}

/* The project and the graph: the suite parsed (and checked against the graph) only when the
 * project changed since the graph was validated (graph.json's "sources"). */
static int load_suite_and_graph(ut_cli_plan *pl, const ut_cli_common *common)
{
	char *sub = NULL, hex[17];
	int exit_code = ut_cli_config_load(&pl->p, common, &sub);
	int rc;

	if (exit_code)
		return exit_code;
	if (ut_fs_exists(pl->p.cfg.store.graph) &&
	    ut_store_graph_load(&pl->g, pl->p.cfg.store.graph) < 0)
		ut_error_clear(); /* said below, after the parse, as before */
	if (pl->g && pl->g->sources && ut_fingerprint_sources_hex(&pl->p.cfg, hex) &&
	    strcmp(hex, pl->g->sources) == 0) {
		free(sub);
		ut_infof("%zu tests: the project is as %s was validated from, not parsed again",
			 pl->g->ntests, pl->p.cfg.store.graph);
		return UT_EXIT_OK;
	}
	exit_code = ut_cli_project_read(&pl->p, common, NULL, sub);
	if (exit_code == 0)
		exit_code = check_unread(pl);
	if (exit_code)
		return exit_code;
	rc = pl->g ? 0 : ut_store_graph_load(&pl->g, pl->p.cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return check_drift(pl);
}

/* The first difference of d, in words ("'a.py' changed (120 bytes, was 118)"), and the
 * counts when there are more. */
static void drift_text(ut_buf *msg, const ut_fp_drift *d)
{
	if (d->changed)
		ut_buf_printf(msg, "'%s' changed (%lld bytes, was %lld)", d->first_changed->path,
			      d->now_size, d->first_changed->size);
	else if (d->added)
		ut_buf_printf(msg, "'%s' is new", d->first_added);
	else
		ut_buf_printf(msg, "'%s' was removed", d->first_removed);
	if (d->changed + d->added + d->removed > 1)
		ut_buf_printf(msg, "; files changed: %zu, new: %zu, removed: %zu", d->changed,
			      d->added, d->removed);
}

/* The published plan is stale: says what changed since it was verified. */
static void say_stale(const char *path, size_t nshards, const ut_fingerprint *was,
		      const ut_fingerprint *now)
{
	ut_buf msg = UT_BUF_INIT;
	ut_fp_drift d;

	ut_buf_printf(&msg, "%s was verified for the project as it was then, not as it is",
		      path);
	if (ut_fingerprint_diff(&d, was, now) == 0 && d.changed + d.added + d.removed) {
		ut_buf_puts(&msg, ": ");
		drift_text(&msg, &d);
	}
	ut_warnf("%s", msg.ptr && !msg.failed ? msg.ptr : path);
	ut_detailf("this plan is made again and is not verified: 'untangle shard --shards %zu "
		   "--verify' runs and publishes it", nshards);
	ut_error_clear();
	ut_buf_dispose(&msg);
}

/* The plan `shard --verify` published at path in place of pl's, when the project's
 * fingerprint is the one it was published with; what goes wrong is a warning, and the
 * plan made stays. Whether it was adopted. */
static bool adopt_verified(ut_cli_plan *pl, const char *path)
{
	ut_plan_file pf;
	ut_fingerprint now;
	bool adopted = false;
	int rc;

	memset(&now, 0, sizeof(now));
	rc = ut_plan_file_read(&pf, path);
	if (rc < 0) {
		ut_warnf("the verified plan is not used (the plan is made again): %s",
			 ut_error_message());
		ut_error_clear();
		return false;
	}
	rc = ut_fingerprint_project(&now, &pl->p.cfg);
	if (rc == 0 && now.hash != pf.fp.hash)
		say_stale(path, pl->plan.nshards, &pf.fp, &now);
	else if (rc == 0)
		rc = ut_shard_plan_adopt(&pl->plan, pl->g, pl->durations, pf.g, &pf.plan);
	if (rc < 0) {
		ut_warnf("the verified plan %s is not used (the plan is made again): %s", path,
			 ut_error_message());
		ut_error_clear();
	}
	adopted = rc == 0 && now.hash == pf.fp.hash;
	ut_fingerprint_dispose(&now);
	ut_plan_file_dispose(&pf);
	return adopted;
}

/* The plan of opts->nshards shards that `shard --verify` published, when it still holds. */
static void use_verified_plan(ut_cli_plan *pl, const ut_shard_opts *opts)
{
	char path[UT_STORE_PATH_MAX];

	if (opts->per_sink)
		return;
	ut_store_verified_plan_path(path, opts->nshards);
	if (!ut_fs_exists(path) || !adopt_verified(pl, path))
		return;
	pl->verified = true;
	ut_infof("the plan 'untangle shard --shards %zu --verify' ran and published (%s): "
		 "timings.json does not change its lists", opts->nshards, path);
}

int ut_cli_plan_load(ut_cli_plan *pl, const ut_cli_common *common, const ut_shard_opts *opts,
		     bool use_verified)
{
	double t0;
	int rc, exit_code;

	memset(pl, 0, sizeof(*pl));
	exit_code = load_suite_and_graph(pl, common);
	if (exit_code)
		return exit_code;
	pl->durations = malloc((pl->g->ntests ? pl->g->ntests : 1) * sizeof(*pl->durations));
	if (!pl->durations) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto fail;
	}
	rc = ut_timings_fill(pl->durations, NULL, pl->g, UT_STORE_TIMINGS, &pl->timings);
	if (rc < 0)
		goto fail;
	if (pl->timings.fallback)
		ut_warnf("%zu of %zu tests have no duration in %s or the graph: counted as %.2f s "
			 "(the median of the others)", pl->timings.fallback, pl->g->ntests,
			 UT_STORE_TIMINGS, pl->timings.fallback_s);
	t0 = ut_clock_mono();
	rc = ut_shard_plan_build(&pl->plan, pl->g, pl->durations, opts);
	pl->plan_s = ut_clock_mono() - t0;
	if (rc < 0)
		goto fail;
	if (use_verified)
		use_verified_plan(pl, opts);
	if (pl->plan.apart_broken)
		ut_warnf("%zu pair%s of tests kept apart in %s share a list anyway (one test's "
			 "schedule holds both, or too few shards)", pl->plan.apart_broken,
			 pl->plan.apart_broken == 1 ? "" : "s", pl->p.cfg.store.graph);
	if (pl->plan.unproven)
		ut_warnf("%zu test%s left out by detect (flaky or failing) run after every earlier "
			 "test, as in the original order", pl->plan.unproven,
			 pl->plan.unproven == 1 ? "" : "s");
	return UT_EXIT_OK;
fail:
	ut_errorf("%s", ut_error_message());
	return ut_cli_exit_code(rc);
}

void ut_cli_plan_dispose(ut_cli_plan *pl)
{
	ut_shard_plan_dispose(&pl->plan);
	free(pl->durations);
	pl->durations = NULL;
	ut_graph_free(pl->g);
	pl->g = NULL;
	ut_cli_project_dispose(&pl->p);
}

int ut_cli_parse_shard(const char *arg, size_t *k, size_t *n)
{
	char *end = NULL;
	long a, b;

	a = strtol(arg, &end, 10);
	if (end == arg || *end != '/')
		goto bad;
	arg = end + 1;
	b = strtol(arg, &end, 10);
	if (end == arg || *end || b < 1 || b > UT_SHARD_MAX || a < 1 || a > b)
		goto bad;
	*k = (size_t)a;
	*n = (size_t)b;
	return 0;
bad:
	ut_errorf("--shard: expected K/N with 1 <= K <= N <= %d, as in 2/3", UT_SHARD_MAX);
	return UT_EXIT_INPUT;
}

int ut_cli_selection(ut_buf *out, const ut_cli_plan *pl, const ut_shard *sh, const char *select)
{
	const char *style = select ? select : "ids";
	const char **ids = malloc((sh->n ? sh->n : 1) * sizeof(*ids));
	ut_buf raw = UT_BUF_INIT;
	bool exact = true;
	char *line, *nl;
	size_t i;
	int rc;

	if (!ids) {
		ut_errorf("out of memory");
		return UT_EXIT_ENV;
	}
	if (strcmp(style, "preset") == 0)
		style = ut_runner_select_style(pl->p.cfg.runner.preset);
	for (i = 0; i < sh->n; i++)
		ids[i] = pl->g->tests[sh->tests[i]].id;
	rc = ut_runner_selection(&raw, style, ids, sh->n, &exact);
	free(ids);
	if (rc < 0) {
		ut_buf_dispose(&raw);
		ut_errorf("--select: %s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	for (line = raw.ptr; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		ut_buf_puts(out, ut_cli_esc(line));
		ut_buf_putc(out, '\n');
	}
	ut_buf_dispose(&raw);
	if (!exact)
		ut_warnf("--select %s: two spec files share a full title, so the pattern selects "
			 "more tests than the shard's; run the shard with 'untangle run' instead",
			 style);
	return out->failed ? (ut_errorf("out of memory"), UT_EXIT_ENV) : UT_EXIT_OK;
}

int ut_cli_plan_write(const ut_cli_plan *pl, const char *path)
{
	ut_fingerprint fp;
	ut_buf out = UT_BUF_INIT;
	int rc;

	memset(&fp, 0, sizeof(fp));
	rc = ut_fingerprint_project(&fp, &pl->p.cfg);
	if (rc == 0)
		rc = ut_plan_file_write(&out, pl->g, &pl->plan, pl->durations,
					pl->p.cfg.runner.preset, pl->p.cfg.runner.preset_inferred,
					&fp);
	if (rc == 0 && out.failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = ut_fs_write_atomic(path, out.ptr, out.len);
	if (rc == 0)
		ut_infof("plan written to %s: %zu shards, fingerprint of %zu files", path,
			 pl->plan.nshards, fp.n);
	ut_buf_dispose(&out);
	ut_fingerprint_dispose(&fp);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}

/* What changed since the plan file at path was written: an error, or a warning with
 * --allow-drift. */
static void say_drift(const char *path, const ut_fp_drift *d, bool allow)
{
	ut_buf msg = UT_BUF_INIT;
	const char *text;

	ut_buf_printf(&msg, "the suite changed since %s was written: ", path);
	drift_text(&msg, d);
	text = msg.ptr && !msg.failed ? msg.ptr : "the suite changed";
	if (allow) {
		ut_warnf("%s; running the plan as it is (--allow-drift)", text);
	} else {
		ut_errorf("%s", text);
		ut_detailf("write the plan again ('untangle shard --shards N --plan-file %s'), or "
			   "run it as it is with --allow-drift", path);
	}
	ut_buf_dispose(&msg);
}

/* 0 when the project is still the plan's, UT_EXIT_INPUT after saying what changed, or
 * the exit code of an error. */
static int check_fingerprint(const ut_cli_plan *pl, const ut_fingerprint *was, const char *path,
			     bool allow)
{
	ut_fingerprint now;
	ut_fp_drift d;
	int rc, exit_code = UT_EXIT_OK;

	memset(&now, 0, sizeof(now));
	rc = ut_fingerprint_project(&now, &pl->p.cfg);
	if (rc == 0 && now.hash != was->hash)
		rc = ut_fingerprint_diff(&d, was, &now);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
	} else if (now.hash != was->hash && (d.changed || d.added || d.removed)) {
		say_drift(path, &d, allow);
		exit_code = allow ? UT_EXIT_OK : UT_EXIT_INPUT;
	}
	ut_fingerprint_dispose(&now);
	return exit_code;
}

int ut_cli_plan_read(ut_cli_plan *pl, const ut_cli_common *common, const char *path,
		     size_t nshards, bool allow_drift)
{
	ut_plan_file pf;
	ut_config *cfg = &pl->p.cfg;
	int rc, exit_code;

	memset(pl, 0, sizeof(*pl));
	exit_code = ut_cli_config_load(&pl->p, common, NULL);
	if (exit_code)
		return exit_code;
	rc = ut_plan_file_read(&pf, path);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	pl->g = pf.g;
	pl->plan = pf.plan;
	pf.g = NULL;
	memset(&pf.plan, 0, sizeof(pf.plan));
	if (pl->plan.nshards != nshards) {
		ut_errorf("--shard K/%zu: %s holds %zu shard%s; run its shards as K/%zu", nshards,
			  path, pl->plan.nshards, pl->plan.nshards == 1 ? "" : "s",
			  pl->plan.nshards);
		exit_code = UT_EXIT_INPUT;
	}
	if (!exit_code)
		exit_code = check_fingerprint(pl, &pf.fp, path, allow_drift);
	if (!exit_code && !cfg->runner.preset && cfg->runner.command.n == 0 && pf.preset) {
		/* the preset the tests' framework implied when the plan was made */
		cfg->runner.preset = ut_arena_strdup(&cfg->arena, pf.preset);
		cfg->runner.preset_inferred = pf.preset_inferred;
	}
	ut_plan_file_dispose(&pf); /* pf.preset lives in the graph, which pl holds now */
	return exit_code;
}
