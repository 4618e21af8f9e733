/* candidates_select.c: which candidate edges `untangle candidates` lists, strongest first
 * (--limit, --test, --dropped), so that its output is sized by what is asked for. */
#include "filter/candidates.h"

#include <stdlib.h>

#include "util/error.h"
#include "util/banned.h"

typedef struct {
	uint32_t edge;
	uint32_t weak;	  /* 0 kept and declared, 1 kept, 2 dropped */
	uint32_t outside; /* values outside setup code */
	uint32_t values;
} rank;

static rank rank_of(const ut_graph *g, uint32_t i)
{
	const ut_edge *e = &g->edges.v[i];
	rank r = {i, e->filtered_by ? 2 : e->origin != UT_ORIGIN_DECLARED, 0, e->nvalues};
	uint32_t k;

	for (k = 0; k < e->nvalues; k++)
		r.outside += !e->values[k].setup;
	return r;
}

/* The order of docs/commands.md: kept before dropped, declared first, then more values
 * outside setup code, more values, and the order the edges were found. */
static int stronger(const void *pa, const void *pb)
{
	const rank *x = pa, *y = pb;

	if (x->weak != y->weak)
		return x->weak < y->weak ? -1 : 1;
	if (x->outside != y->outside)
		return x->outside > y->outside ? -1 : 1;
	if (x->values != y->values)
		return x->values > y->values ? -1 : 1;
	return x->edge < y->edge ? -1 : x->edge > y->edge;
}

int ut_candidates_select(ut_graph *g, const ut_candidates_select_opts *o,
			 ut_candidates_selection *out)
{
	rank *ranks = malloc((g->edges.n ? g->edges.n : 1) * sizeof(*ranks));
	uint32_t *order = malloc((g->edges.n ? g->edges.n : 1) * sizeof(*order));
	size_t i, n = 0;
	int rc = UT_ENOMEM;

	out->matching = out->listed = 0;
	if (!ranks || !order) {
		ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (e->filtered_by && !o->dropped)
			continue;
		if (o->test >= 0 && e->dependent != (uint32_t)o->test &&
		    e->dependee != (uint32_t)o->test)
			continue;
		ranks[n++] = rank_of(g, (uint32_t)i);
	}
	qsort(ranks, n, sizeof(*ranks), stronger);
	out->matching = n;
	out->listed = o->limit && o->limit < n ? o->limit : n;
	for (i = 0; i < out->listed; i++)
		order[i] = ranks[i].edge;
	free(ranks);
	ranks = NULL;
	rc = ut_graph_keep_edges(g, order, out->listed);
done:
	free(ranks);
	free(order);
	return rc;
}
