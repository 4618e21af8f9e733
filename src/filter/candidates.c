/* candidates.c: extraction plus filters, with the guard that keeps huge suites linear. */
#include "filter/candidates.h"

#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static bool skip_dropped(const char *value, void *ctx)
{
	return ut_value_dropped(ut_value_stats_get(ctx, value));
}

/* An upper bound of the (edge, value) pairs of the dropped (or kept) values: each user
 * of a value pairs with at most every submitter. */
static size_t value_pairs(const ut_value_stats *st, bool dropped)
{
	size_t i, total = 0;

	for (i = 0; i < st->n; i++) {
		if (ut_value_dropped(&st->v[i]) == dropped)
			total += st->v[i].users * st->v[i].submitters / 2;
	}
	return total;
}

/* A value that alone would connect millions of pairs is almost surely dependency-free
 * (a shared login, a fixture's constant): rather than a graph of gigabytes, say which. */
static int refuse_explosion(const ut_value_stats *st)
{
	const ut_value_stat *worst = NULL;
	size_t i;

	for (i = 0; i < st->n; i++) {
		const ut_value_stat *v = &st->v[i];

		if (!worst || v->users * v->submitters > worst->users * worst->submitters)
			worst = v;
	}
	return ut_error_set(UT_EINPUT, "the candidate graph would hold up to %zu test pairs; "
			    "'%s' alone is used by %zu tests and submitted by %zu: list such "
			    "values in values.ignore (see 'untangle values')",
			    value_pairs(st, false) + value_pairs(st, true), worst ? worst->value : "", worst ? worst->users : 0,
			    worst ? worst->submitters : 0);
}

/* The dependencies tests declare (TestNG's dependsOnMethods and dependsOnGroups): edges of
 * origin declared, kept whatever a filter says; detect keeps them manifest. */
static int add_declared(ut_graph *g, const ut_suite *s)
{
	ut_map index = UT_MAP_INIT; /* id -> position + 1 */
	bool any = false;
	size_t i, k;
	ut_edge *e;
	int rc = 0;

	for (i = 0; i < s->tests.n && !any; i++)
		any = s->tests.v[i].ndepends > 0;
	for (i = 0; any && i < s->tests.n && rc == 0; i++)
		if (ut_map_put(&index, s->tests.v[i].id, strlen(s->tests.v[i].id),
			       (void *)(i + 1)) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; any && i < s->tests.n && rc == 0; i++) {
		const ut_test *t = &s->tests.v[i];

		for (k = 0; k < t->ndepends && rc == 0; k++) {
			size_t d = (size_t)ut_map_get(&index, t->depends_on[k],
						      strlen(t->depends_on[k]));

			if (!d || d - 1 >= i)
				continue; /* not in the suite, or not before it */
			rc = ut_graph_add(g, (uint32_t)i, (uint32_t)(d - 1), UT_ORIGIN_DECLARED, &e);
			if (rc == 0) {
				e->origin = UT_ORIGIN_DECLARED;
				e->filtered_by = NULL;
				e->reason = "declared by the test (dependsOnMethods, dependsOnGroups)";
			}
		}
	}
	ut_map_dispose(&index);
	return rc;
}

int ut_candidates_build(ut_graph **out, ut_candidates_report *report, const ut_suite *s,
			const ut_candidates_opts *opts)
{
	ut_graph *g = NULL;
	ut_nlp *nlp = NULL;
	ut_extract_opts eo = {0};
	size_t limit = opts->max_dropped_pairs ? opts->max_dropped_pairs : 1000000;
	int rc;

	*out = NULL;
	memset(report, 0, sizeof(*report));
	rc = ut_value_stats_build(&report->values, s, opts->ignore, opts->nignore);
	if (rc == 0)
		rc = ut_graph_from_suite(&g, s);
	if (rc < 0)
		goto done;
	if (opts->original_order) {
		rc = ut_extract_order(g, &report->extract);
	} else {
		if (opts->filter >= UT_FILTER_VALUES) {
			size_t pairs = value_pairs(&report->values, true);

			if (pairs > limit) {
				eo.skip = skip_dropped;
				eo.ctx = &report->values;
				report->unlisted_pairs = pairs;
			}
		}
		if (value_pairs(&report->values, false) +
			    (eo.skip ? 0 : value_pairs(&report->values, true)) > UT_CANDIDATES_MAX_PAIRS) {
			rc = refuse_explosion(&report->values);
			goto done;
		}
		rc = ut_extract_string(g, s, &eo, &report->extract);
		if (rc == 0 && opts->filter >= UT_FILTER_VALUES)
			rc = ut_filter_values(g, &report->values, &report->filter);
	}
	if (rc < 0)
		goto done;
	/* The names are analysed even when no NLP filter is asked for: detection orders its
	 * guesses by them. Without WordNet that is only a filter's error. */
	rc = ut_nlp_new(&nlp, opts->read_verbs, opts->nread, opts->write_verbs, opts->nwrite);
	if (rc == 0)
		rc = ut_filter_nlp(g, nlp, opts->filter, &report->filter);
	if (rc == UT_EENV && opts->filter < UT_FILTER_VERB)
		rc = 0;
	if (rc == 0)
		rc = add_declared(g, s);
	if (rc < 0)
		goto done;
	report->filter.candidates = g->edges.n;
	ut_filter_count(g, &report->filter);
	*out = g;
	g = NULL;
done:
	ut_nlp_free(nlp);
	ut_graph_free(g);
	if (rc < 0)
		ut_candidates_report_dispose(report);
	return rc;
}

void ut_candidates_report_dispose(ut_candidates_report *r)
{
	if (r)
		ut_value_stats_dispose(&r->values);
}
