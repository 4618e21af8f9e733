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
#include "minimize/report.h"
#include "nlp/nlp.h"
#include "util/clock.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"


#define EVIDENCE_SHOWN 4 /* elements shown per obsolete test in text; --json has all */
#define TESTS_SHOWN 5    /* tests shown per list in text */

/* Prints the kept test that is e's witness unless an earlier element of the same test
 * had it (seen); *n counts the distinct witnesses, of which the first TESTS_SHOWN are
 * printed. */
static void print_witness(const ut_minimize_report *rep, uint32_t e, size_t except,
			  unsigned char *seen, size_t *n)
{
	long u = ut_minimize_witness(rep, e, (long)except, true);

	if (u < 0 || seen[u])
		return;
	seen[u] = 1;
	if (*n < TESTS_SHOWN)
		printf("%s%s", *n ? ", " : "", ut_cli_esc(rep->g->tests[u].id));
	++*n;
}

/* The first TESTS_SHOWN other eligible tests covering e; *n = all of them (neligible[e]
 * counts except itself, which is eligible), so that the scan stops early. */
static void print_others(const ut_minimize_report *rep, uint32_t e, size_t except,
			 const uint32_t *neligible, size_t *n)
{
	size_t j, shown = 0;

	for (j = rep->r->cov_start[e]; j < rep->r->cov_start[e + 1] && shown < TESTS_SHOWN;
	     j++) {
		uint32_t u = rep->r->cov_tests[j];

		if (u == except || !ut_minimize_eligible(&rep->g->tests[u]))
			continue;
		printf("%s%s", shown++ ? ", " : "", ut_cli_esc(rep->g->tests[u].id));
	}
	*n = neligible[e] - 1;
}

/* For each element, the eligible tests covering it. NULL when out of memory. */
static uint32_t *count_eligible(const ut_minimize_report *rep)
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

/* The coverage, the durations and the result in figures. */
static void print_head(const ut_minimize_report *rep)
{
	const ut_minimize_result *r = rep->r;

	if (rep->coverage_path)
		printf("coverage: %s, %zu elements\n", ut_cli_esc(rep->coverage_path), rep->cov->elements.n);
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
}

/* A removed test t and the kept tests that cover what it covers (seen: scratch, zeroed). */
static void print_removed(const ut_minimize_report *rep, size_t t, unsigned char *seen)
{
	const ut_minimize_result *r = rep->r;
	size_t i, n = 0;

	printf("  %s  %.2f s%s: ", ut_cli_esc(rep->g->tests[t].id), r->duration[t],
	       !ut_minimize_eligible(&rep->g->tests[t]) ? ", flaky or failing" : "");
	if (rep->cov->of[t].n == 0)
		printf("covers nothing");
	else
		printf("covered by ");
	for (i = 0; seen && i < rep->cov->of[t].n; i++)
		print_witness(rep, rep->cov->of[t].v[i], t, seen, &n);
	for (i = 0; seen && i < rep->cov->of[t].n; i++) {
		long u = ut_minimize_witness(rep, rep->cov->of[t].v[i], (long)t, true);

		if (u >= 0)
			seen[u] = 0;
	}
	if (n == 0 && rep->cov->of[t].n)
		printf("no kept test (only flaky or failing tests cover it)");
	print_more(n);
}

/* An obsolete test t, its first elements and other tests that cover each. */
static void print_obsolete(const ut_minimize_report *rep, size_t t, const uint32_t *neligible)
{
	size_t i, n;

	printf("  %s\n", ut_cli_esc(rep->g->tests[t].id));
	if (rep->cov->of[t].n == 0)
		printf("      covers nothing\n");
	for (i = 0; i < rep->cov->of[t].n && i < EVIDENCE_SHOWN; i++) {
		uint32_t e = rep->cov->of[t].v[i];

		printf("      %s: ", ut_cli_esc(rep->cov->elements.v[e]));
		n = 0;
		if (neligible)
			print_others(rep, e, t, neligible, &n);
		print_more(n);
	}
	if (rep->cov->of[t].n > EVIDENCE_SHOWN)
		printf("      and %zu more elements (--json lists them)\n",
		       rep->cov->of[t].n - EVIDENCE_SHOWN);
}

static void print_text(const ut_minimize_report *rep)
{
	const ut_minimize_result *r = rep->r;
	unsigned char *seen = calloc(r->ntests + 1, 1);
	uint32_t *neligible = count_eligible(rep);
	size_t t, nobsolete = 0;

	print_head(rep);
	printf("\nkept, in original order:\n");
	for (t = 0; t < r->ntests; t++)
		if (r->kept[t])
			printf("  %s  %.2f s%s%s\n", ut_cli_esc(rep->g->tests[t].id), r->duration[t],
			       r->estimated[t] ? " (estimated)" : "",
			       r->pinned[t] ? ", kept by --keep" : "");
	printf("\nremoved:\n");
	for (t = 0; t < r->ntests; t++)
		if (!r->kept[t])
			print_removed(rep, t, seen);
	for (t = 0; t < r->ntests; t++) {
		if (!r->obsolete[t])
			continue;
		if (nobsolete++ == 0)
			printf("\nobsolete (nothing depends on them; other tests cover all they "
			       "cover):\n");
		print_obsolete(rep, t, neligible);
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

/* What `untangle minimize` works with, from its options to the result. */
typedef struct {
	ut_cli_common common;
	ut_cli_rest keep;
	const char *coverage_path;
	ut_minimize_opts mo;
	ut_config cfg;
	ut_graph *g;
	double *dur;
	bool *estimated;
	ut_timings_info timings;
	ut_coverage cov;
	ut_diags warnings;
	ut_minimize_result r;
} minimize_cmd;

/* The graph, the durations and the coverage; prints what goes wrong, returns the exit code. */
static int load(minimize_cmd *m)
{
	int rc, exit_code = ut_cli_chdir_project(&m->common, NULL);

	if (exit_code)
		return exit_code;
	rc = ut_config_load(&m->cfg, "untangle.json", true);
	if (rc == 0) {
		rc = ut_store_graph_load(&m->g, m->cfg.store.graph);
		if (rc == UT_ENOTFOUND)
			rc = ut_error_set(UT_ENOTFOUND, "no graph at %s: run 'untangle detect' first",
					  m->cfg.store.graph);
	}
	if (rc == 0) {
		m->dur = malloc((m->g->ntests + 1) * sizeof(*m->dur));
		m->estimated = malloc((m->g->ntests + 1) * sizeof(*m->estimated));
		rc = m->dur && m->estimated ? ut_timings_fill(m->dur, m->estimated, m->g,
							      UT_STORE_TIMINGS, &m->timings)
					    : ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0)
		rc = ut_coverage_init(&m->cov, m->g->ntests);
	if (rc == 0 && m->coverage_path)
		rc = ut_coverage_load(&m->cov, m->g, m->coverage_path, &m->warnings);
	if (rc < 0)
		return failed(rc);
	if (!m->coverage_path)
		exit_code = feature_coverage(&m->cov, m->g, &m->common, &m->warnings);
	if (exit_code == 0)
		ut_cli_print_diags(&m->warnings);
	return exit_code;
}

/* Solves within what is left of the command's time limit (started: when it began). */
static int solve(minimize_cmd *m, double started)
{
	double limit_s = m->mo.time_limit_s;
	int rc;

	/* The limit is the command's. Reading the coverage takes seconds on large suites,
	 * and the report, which writes as much, as long again; Z3 overshoots its timeout by
	 * a little and takes time to free (20,000 tests x 100,000 elements: 4.4 s to read,
	 * 1 s past the timeout, 3.5 s after it). */
	m->mo.time_limit_s = 0.95 * limit_s - 2 * (ut_clock_mono() - started);
	if (m->mo.time_limit_s < 0.01)
		m->mo.time_limit_s = 0.01;
	rc = ut_minimize_run(m->g, &m->cov, m->dur, m->estimated, m->timings.fallback_s, &m->mo,
			     &m->r);
	if (rc < 0)
		return failed(rc);
	if (m->r.stopped && m->r.status != UT_SOLVE_OPTIMAL)
		ut_warnf("the %.0f s time limit stopped z3: the result may not be minimal",
			 limit_s);
	return UT_EXIT_OK;
}

static int print_report(const minimize_cmd *m)
{
	ut_minimize_report rep = {m->g, &m->cov, &m->r, m->coverage_path};
	ut_buf out = UT_BUF_INIT;
	int exit_code = UT_EXIT_OK;

	if (!m->common.json) {
		print_text(&rep);
		return UT_EXIT_OK;
	}
	if (ut_minimize_report_json(&out, &rep) < 0)
		exit_code = failed(UT_ENOMEM);
	else
		fwrite(out.ptr, 1, out.len, stdout);
	ut_buf_dispose(&out);
	return exit_code;
}

int cmd_minimize(int argc, char **argv)
{
	minimize_cmd m = {.mo = {60.0, NULL, 0, false}};
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 0, "coverage", "FILE",
		 "JSON: test id -> covered elements (default: features from the suite)",
		 &m.coverage_path),
		UT_OPT_ROW(UT_OPT_NUMBER, 0, "time-limit", "S",
			   "seconds the command may take to answer (default 60)", &m.mo.time_limit_s),
		UT_OPT_ROW(UT_OPT_LIST, 0, "keep", "TEST", "a test that must stay (repeatable)", &m.keep),
		UT_CLI_OPT_SUITE(m.common),
		UT_OPT_END,
	};
	double started = ut_clock_mono();
	int exit_code = UT_EXIT_OK;

	ut_config_init(&m.cfg);
	ut_diags_init(&m.warnings);
	if (ut_cli_parse("minimize", opts, &m.common, argc, argv, &exit_code)) {
		m.mo.keep = m.keep.items;
		m.mo.nkeep = m.keep.n;
		exit_code = load(&m);
		if (exit_code == 0)
			exit_code = solve(&m, started);
		if (exit_code == 0)
			exit_code = print_report(&m);
	}
	ut_minimize_result_dispose(&m.r);
	ut_coverage_dispose(&m.cov);
	free(m.dur);
	free(m.estimated);
	ut_graph_free(m.g);
	ut_diags_dispose(&m.warnings);
	ut_config_dispose(&m.cfg);
	free(m.keep.items);
	return exit_code;
}
