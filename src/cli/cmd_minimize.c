/* cmd_minimize.c: `untangle minimize`: the least-duration suite that keeps every
 * coverage element and every manifest dependency (thesis 6.2.2), and obsolete tests
 * (thesis 5.3.5), from the stored graph. */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "graph/graph_json.h"
#include "minimize/minimize.h"
#include "nlp/nlp.h"
#include "util/clock.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"


#define EVIDENCE_SHOWN 4 /* elements shown per obsolete test in text; --json has all */
#define TESTS_SHOWN 5    /* tests shown per list in text */

typedef struct {
	const ut_graph *g;
	const ut_coverage *cov;
	const ut_minimize_result *r;
	const char *coverage_path; /* NULL: features */
} report;

static const char *status_name(const ut_minimize_result *r)
{
	return r->status == UT_SOLVE_OPTIMAL ? "optimal" : "best-known";
}

/* The first test in original order covering e, other than except, eligible and (when
 * kept) kept; -1 when none. One such test is the evidence for an element: listing every
 * coverer would make the report grow with tests times coverage, a gigabyte of JSON on a
 * suite of 2,000 tests (tests/bench/minimize). */
static long witness(const report *rep, uint32_t e, long except, bool kept)
{
	size_t j;

	for (j = rep->r->cov_start[e]; j < rep->r->cov_start[e + 1]; j++) {
		uint32_t u = rep->r->cov_tests[j];

		if ((long)u != except && (!kept || rep->r->kept[u]) &&
		    ut_minimize_eligible(&rep->g->tests[u]))
			return (long)u;
	}
	return -1;
}

static void json_coverers(ut_jsonw *w, const report *rep, uint32_t e, long except, bool kept)
{
	long u = witness(rep, e, except, kept);

	ut_jsonw_arr_begin(w);
	if (u >= 0)
		ut_jsonw_str(w, rep->g->tests[u].id);
	ut_jsonw_arr_end(w);
}

static void json_test(ut_jsonw *w, const report *rep, size_t t, const char *evidence)
{
	const ut_graph_test *test = &rep->g->tests[t];
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_key(w, "id");
	ut_jsonw_str(w, test->id);
	ut_jsonw_key(w, "duration_s");
	ut_jsonw_double(w, rep->r->duration[t]);
	ut_jsonw_key(w, "estimated");
	ut_jsonw_bool(w, rep->r->estimated[t]);
	if (rep->r->pinned[t]) {
		ut_jsonw_key(w, "pinned");
		ut_jsonw_bool(w, true);
	}
	if (!ut_minimize_eligible(test)) {
		ut_jsonw_key(w, test->flaky ? "flaky" : "failing");
		ut_jsonw_bool(w, true);
	}
	if (evidence) {
		ut_jsonw_key(w, evidence);
		ut_jsonw_obj_begin(w);
		for (i = 0; i < rep->cov->of[t].n; i++) {
			uint32_t e = rep->cov->of[t].v[i];

			ut_jsonw_key(w, rep->cov->elements.v[e]);
			json_coverers(w, rep, e, (long)t, !strcmp(evidence, "covered_by"));
		}
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_obj_end(w);
}

/* "key": {"tests": N, "duration_s": S} */
static void json_size(ut_jsonw *w, const char *key, size_t tests, double seconds)
{
	ut_jsonw_key(w, key);
	ut_jsonw_obj_begin(w);
	ut_jsonw_key(w, "tests");
	ut_jsonw_int(w, (long long)tests);
	ut_jsonw_key(w, "duration_s");
	ut_jsonw_double(w, seconds);
	ut_jsonw_obj_end(w);
}

static void write_json(ut_buf *out, const report *rep)
{
	const ut_minimize_result *r = rep->r;
	ut_jsonw w;
	size_t t;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "coverage");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "source");
	ut_jsonw_str(&w, rep->cov->source);
	ut_jsonw_key(&w, "path");
	ut_jsonw_str(&w, rep->coverage_path);
	ut_jsonw_key(&w, "elements");
	ut_jsonw_int(&w, (long long)rep->cov->elements.n);
	ut_jsonw_key(&w, "required");
	ut_jsonw_int(&w, (long long)r->nrequired);
	ut_jsonw_key(&w, "only_flaky_or_failing");
	ut_jsonw_int(&w, (long long)r->nuncoverable);
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "result");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "status");
	ut_jsonw_str(&w, status_name(r));
	ut_jsonw_key(&w, "method");
	ut_jsonw_str(&w, r->method);
	ut_jsonw_key(&w, "time_limit_hit");
	ut_jsonw_bool(&w, r->stopped);
	ut_jsonw_key(&w, "lower_bound_s");
	ut_jsonw_double(&w, r->lower_bound);
	ut_jsonw_key(&w, "gap_s");
	ut_jsonw_double(&w, r->cost_after - r->lower_bound);
	ut_jsonw_key(&w, "greedy_duration_s");
	ut_jsonw_double(&w, r->greedy_cost);
	ut_jsonw_obj_end(&w);
	json_size(&w, "before", r->ntests, r->cost_before);
	json_size(&w, "after", r->tests_after, r->cost_after);
	ut_jsonw_key(&w, "fallback_duration_s");
	ut_jsonw_double(&w, r->fallback_s);
	for (int pass = 0; pass < 3; pass++) {
		static const char *const keys[] = {"kept", "removed", "obsolete"};
		static const char *const evidence[] = {NULL, "covered_by", "evidence"};

		ut_jsonw_key(&w, keys[pass]);
		ut_jsonw_arr_begin(&w);
		for (t = 0; t < r->ntests; t++)
			if ((pass == 0 && r->kept[t]) || (pass == 1 && !r->kept[t]) ||
			    (pass == 2 && r->obsolete[t]))
				json_test(&w, rep, t, evidence[pass]);
		ut_jsonw_arr_end(&w);
	}
	ut_jsonw_obj_end(&w);
	ut_buf_putc(out, '\n');
}

/* Prints the kept test that is e's witness unless an earlier element of the same test
 * had it (seen); *n counts the distinct witnesses, of which the first TESTS_SHOWN are
 * printed. */
static void print_witness(const report *rep, uint32_t e, size_t except, unsigned char *seen,
			  size_t *n)
{
	long u = witness(rep, e, (long)except, true);

	if (u < 0 || seen[u])
		return;
	seen[u] = 1;
	if (*n < TESTS_SHOWN)
		printf("%s%s", *n ? ", " : "", rep->g->tests[u].id);
	++*n;
}

/* The first TESTS_SHOWN other eligible tests covering e; *n = all of them (neligible[e]
 * counts except itself, which is eligible), so that the scan stops early. */
static void print_others(const report *rep, uint32_t e, size_t except,
			 const uint32_t *neligible, size_t *n)
{
	size_t j, shown = 0;

	for (j = rep->r->cov_start[e]; j < rep->r->cov_start[e + 1] && shown < TESTS_SHOWN;
	     j++) {
		uint32_t u = rep->r->cov_tests[j];

		if (u == except || !ut_minimize_eligible(&rep->g->tests[u]))
			continue;
		printf("%s%s", shown++ ? ", " : "", rep->g->tests[u].id);
	}
	*n = neligible[e] - 1;
}

/* For each element, the eligible tests covering it. NULL when out of memory. */
static uint32_t *count_eligible(const report *rep)
{
	size_t ne = rep->cov->elements.n, e, j;
	uint32_t *n = calloc(ne + 1, sizeof(*n));

	for (e = 0; n && e < ne; e++)
		for (j = rep->r->cov_start[e]; j < rep->r->cov_start[e + 1]; j++)
			n[e] += ut_minimize_eligible(&rep->g->tests[rep->r->cov_tests[j]]);
	return n;
}

static void print_more(size_t n)
{
	if (n > TESTS_SHOWN)
		printf(" and %zu more", n - TESTS_SHOWN);
	putchar('\n');
}

static void print_text(const report *rep)
{
	const ut_minimize_result *r = rep->r;
	unsigned char *seen = calloc(r->ntests + 1, 1);
	uint32_t *neligible = count_eligible(rep);
	size_t t, i, n, nobsolete = 0;

	if (rep->coverage_path)
		printf("coverage: %s, %zu elements\n", rep->coverage_path, rep->cov->elements.n);
	else
		printf("coverage: features derived from the suite (test names, pages, elements), "
		       "%zu elements\n", rep->cov->elements.n);
	if (r->nuncoverable)
		printf("  %zu covered only by flaky or failing tests: not required\n",
		       r->nuncoverable);
	if (r->nestimated)
		printf("durations: %zu tests never measured, counted as %.2f s each\n",
		       r->nestimated, r->fallback_s);
	printf("kept %zu of %zu tests, %.2f s of %.2f s: saves %zu tests and %.2f s (%.0f%%)\n",
	       r->tests_after, r->ntests, r->cost_after, r->cost_before,
	       r->ntests - r->tests_after, r->cost_before - r->cost_after,
	       r->cost_before > 0 ? 100.0 * (r->cost_before - r->cost_after) / r->cost_before
				  : 0.0);
	if (r->status == UT_SOLVE_OPTIMAL)
		printf("result: optimal (%s)\n", r->method);
	else
		printf("result: best known (%s%s), lower bound %.2f s, gap %.2f s (%.1f%%)\n",
		       r->method, r->stopped ? ", the time limit stopped z3" : "",
		       r->lower_bound, r->cost_after - r->lower_bound,
		       r->cost_after > 0 ? 100.0 * (r->cost_after - r->lower_bound) / r->cost_after
					 : 0.0);
	printf("\nkept, in original order:\n");
	for (t = 0; t < r->ntests; t++)
		if (r->kept[t])
			printf("  %s  %.2f s%s%s\n", rep->g->tests[t].id, r->duration[t],
			       r->estimated[t] ? " (estimated)" : "",
			       r->pinned[t] ? ", kept by --keep" : "");
	printf("\nremoved:\n");
	for (t = 0; t < r->ntests; t++) {
		if (r->kept[t])
			continue;
		printf("  %s  %.2f s%s: ", rep->g->tests[t].id, r->duration[t],
		       !ut_minimize_eligible(&rep->g->tests[t]) ? ", flaky or failing" : "");
		if (rep->cov->of[t].n == 0)
			printf("covers nothing");
		else
			printf("covered by ");
		n = 0;
		for (i = 0; seen && i < rep->cov->of[t].n; i++)
			print_witness(rep, rep->cov->of[t].v[i], t, seen, &n);
		for (i = 0; seen && i < rep->cov->of[t].n; i++) {
			long u = witness(rep, rep->cov->of[t].v[i], (long)t, true);

			if (u >= 0)
				seen[u] = 0;
		}
		if (n == 0 && rep->cov->of[t].n)
			printf("no kept test (only flaky or failing tests cover it)");
		print_more(n);
	}
	for (t = 0; t < r->ntests; t++) {
		if (!r->obsolete[t])
			continue;
		if (nobsolete++ == 0)
			printf("\nobsolete (nothing depends on them; other tests cover all they "
			       "cover):\n");
		printf("  %s\n", rep->g->tests[t].id);
		if (rep->cov->of[t].n == 0)
			printf("      covers nothing\n");
		for (i = 0; i < rep->cov->of[t].n && i < EVIDENCE_SHOWN; i++) {
			uint32_t e = rep->cov->of[t].v[i];

			printf("      %s: ", rep->cov->elements.v[e]);
			n = 0;
			if (neligible)
				print_others(rep, e, t, neligible, &n);
			print_more(n);
		}
		if (rep->cov->of[t].n > EVIDENCE_SHOWN)
			printf("      and %zu more elements (--json lists them)\n",
			       rep->cov->of[t].n - EVIDENCE_SHOWN);
	}
	free(seen);
	free(neligible);
}

int ut_cli_features(ut_coverage *cov, const ut_graph *g, const ut_cli_project *p,
		    ut_diags *warnings)
{
	ut_nlp *nlp = NULL;
	int rc;

	rc = ut_nlp_new(&nlp, p->cfg.nlp.read_verbs.items, p->cfg.nlp.read_verbs.n,
			p->cfg.nlp.write_verbs.items, p->cfg.nlp.write_verbs.n);
	if (rc == 0)
		rc = ut_coverage_features(cov, g, p->suite, nlp, warnings);
	ut_nlp_free(nlp);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}

/* Feature coverage needs the parsed suite. */
static int feature_coverage(ut_coverage *cov, const ut_graph *g, const ut_cli_common *common,
			    ut_diags *warnings)
{
	ut_cli_common here = *common;
	ut_cli_project p;
	int exit_code;

	here.dir = NULL; /* already there */
	exit_code = ut_cli_project_load(&p, &here, NULL);
	if (exit_code == 0)
		exit_code = ut_cli_features(cov, g, &p, warnings);
	ut_cli_project_dispose(&p);
	return exit_code;
}

/* Prints the library's message; the exit code for rc. */
static int failed(int rc)
{
	ut_errorf("%s", ut_error_message());
	return ut_cli_exit_code(rc);
}

int cmd_minimize(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest keep = {0};
	const char *coverage_path = NULL;
	ut_minimize_opts mo = {60.0, NULL, 0, false};
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 0, "coverage", "FILE",
		 "JSON: test id -> covered elements (default: features from the suite)",
		 &coverage_path),
		UT_OPT_ROW(UT_OPT_NUMBER, 0, "time-limit", "S",
			   "seconds the command may take to answer (default 60)", &mo.time_limit_s),
		UT_OPT_ROW(UT_OPT_LIST, 0, "keep", "TEST", "a test that must stay (repeatable)", &keep),
		UT_CLI_OPT_JOBS(common),
		UT_OPT_END,
	};
	ut_minimize_result r;
	ut_coverage cov;
	ut_config cfg;
	ut_diags warnings;
	ut_graph *g = NULL;
	double *dur = NULL;
	ut_timings_info timings;
	bool *estimated = NULL;
	ut_buf out = UT_BUF_INIT;
	report rep;
	double started = ut_clock_mono(), limit_s;
	int rc, exit_code = UT_EXIT_OK;

	memset(&r, 0, sizeof(r));
	memset(&cov, 0, sizeof(cov));
	ut_config_init(&cfg);
	ut_diags_init(&warnings);
	if (!ut_cli_parse("minimize", opts, &common, argc, argv, &exit_code))
		goto done;
	mo.keep = keep.items;
	mo.nkeep = keep.n;
	exit_code = ut_cli_chdir(&common);
	if (exit_code)
		goto done;
	rc = ut_config_load(&cfg, "untangle.json", true);
	if (rc == 0) {
		rc = ut_graph_load(&g, cfg.store.graph);
		if (rc == UT_ENOTFOUND)
			rc = ut_error_set(UT_ENOTFOUND, "no graph at %s: run 'untangle detect' first",
					  cfg.store.graph);
	}
	if (rc == 0) {
		dur = malloc((g->ntests + 1) * sizeof(*dur));
		estimated = malloc((g->ntests + 1) * sizeof(*estimated));
		rc = dur && estimated ? ut_timings_fill(dur, estimated, g, UT_CLI_TIMINGS, &timings)
				      : ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0)
		rc = ut_coverage_init(&cov, g->ntests);
	if (rc == 0 && coverage_path)
		rc = ut_coverage_load(&cov, g, coverage_path, &warnings);
	if (rc < 0) {
		exit_code = failed(rc);
		goto done;
	}
	if (!coverage_path) {
		exit_code = feature_coverage(&cov, g, &common, &warnings);
		if (exit_code)
			goto done;
	}
	ut_cli_print_diags(&warnings);
	/* The limit is the command's. Reading the coverage takes seconds on large suites,
	 * and the report, which writes as much, as long again; Z3 overshoots its timeout by
	 * a little and takes time to free (20,000 tests x 100,000 elements: 4.4 s to read,
	 * 1 s past the timeout, 3.5 s after it). */
	limit_s = mo.time_limit_s;
	mo.time_limit_s = 0.95 * limit_s - 2 * (ut_clock_mono() - started);
	if (mo.time_limit_s < 0.01)
		mo.time_limit_s = 0.01;
	rc = ut_minimize_run(g, &cov, dur, estimated, timings.fallback_s, &mo, &r);
	if (rc < 0) {
		exit_code = failed(rc);
		goto done;
	}
	if (r.stopped && r.status != UT_SOLVE_OPTIMAL)
		ut_warnf("the %.0f s time limit stopped z3: the result may not be minimal",
			 limit_s);
	rep = (report){g, &cov, &r, coverage_path};
	if (!common.json) {
		print_text(&rep);
		goto done;
	}
	write_json(&out, &rep);
	if (out.failed)
		exit_code = failed(ut_error_set(UT_ENOMEM, "out of memory"));
	else
		fwrite(out.ptr, 1, out.len, stdout);
done:
	ut_buf_dispose(&out);
	ut_minimize_result_dispose(&r);
	ut_coverage_dispose(&cov);
	free(dur);
	free(estimated);
	ut_graph_free(g);
	ut_diags_dispose(&warnings);
	ut_config_dispose(&cfg);
	free(keep.items);
	return exit_code;
}
