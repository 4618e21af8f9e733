/* greedy.c: the answer to solver.h's problem when Z3 gives none: cost per newly
 * satisfied clause, closed under implications, then a pass that drops what turned out
 * redundant. Lazy evaluation keeps it near-linear: a variable's ratio only grows as
 * clauses get satisfied, so a stale heap entry is re-scored only when it reaches the top. */
#include "minimize/solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minimize/internal.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/banned.h"

typedef struct {
	double ratio;
	uint32_t var;
} entry;

typedef struct {
	entry *v;
	size_t n;
} heap;

static bool before(entry a, entry b)
{
	return a.ratio < b.ratio || (a.ratio == b.ratio && a.var < b.var);
}

static void heap_push(heap *h, entry e)
{
	size_t i = h->n++;

	while (i > 0 && before(e, h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = e;
}

static entry heap_pop(heap *h)
{
	entry top = h->v[0], last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && before(h->v[c + 1], h->v[c]))
			c++;
		if (!before(h->v[c], last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

typedef struct {
	const ut_solver_index *x;
	uint32_t *count; /* per clause: chosen members */
	size_t open;     /* clauses with none */
} state;

static void on_chosen(uint32_t v, void *ctx)
{
	state *s = ctx;
	uint32_t j;

	for (j = s->x->cl_start[v]; j < s->x->cl_start[v + 1]; j++)
		if (s->count[s->x->cl[j]]++ == 0)
			s->open--;
}

static double score(const ut_solver_problem *p, const state *s, uint32_t v)
{
	uint32_t j, fresh = 0;

	for (j = s->x->cl_start[v]; j < s->x->cl_start[v + 1]; j++)
		fresh += s->count[s->x->cl[j]] == 0;
	return fresh ? p->cost[v] / fresh : INFINITY;
}

/* Most expensive first; among equal costs the later variable first. */
static int by_cost_desc(const void *a, const void *b)
{
	const entry *x = a, *y = b;

	if (x->ratio != y->ratio)
		return x->ratio < y->ratio ? 1 : -1;
	return x->var < y->var ? 1 : -1;
}

/* Drops chosen variables whose clauses all have another chosen member and that no
 * chosen variable implies, most expensive first. */
static int prune(const ut_solver_problem *p, const ut_solver_index *x, bool *chosen,
		 uint32_t *count)
{
	entry *order = malloc((p->nvars + 1) * sizeof(*order));
	uint32_t *implied_by = calloc(p->nvars + 1, sizeof(*implied_by));
	size_t n = 0, i;
	uint32_t j;
	int rc = UT_ENOMEM;

	if (!order || !implied_by)
		goto done;
	for (i = 0; i < p->nvars; i++) {
		if (!chosen[i])
			continue;
		order[n++] = (entry){p->cost[i], (uint32_t)i};
		for (j = x->imp_start[i]; j < x->imp_start[i + 1]; j++)
			implied_by[x->imp[j]]++;
	}
	qsort(order, n, sizeof(*order), by_cost_desc);
	for (i = 0; i < n; i++) {
		uint32_t v = order[i].var;
		bool needed = p->pinned[v] || implied_by[v] > 0;

		for (j = x->cl_start[v]; j < x->cl_start[v + 1] && !needed; j++)
			needed = count[x->cl[j]] < 2;
		if (needed)
			continue;
		chosen[v] = false;
		for (j = x->cl_start[v]; j < x->cl_start[v + 1]; j++)
			count[x->cl[j]]--;
		for (j = x->imp_start[v]; j < x->imp_start[v + 1]; j++)
			implied_by[x->imp[j]]--;
	}
	rc = 0;
done:
	free(order);
	free(implied_by);
	return rc;
}

int ut_solver_greedy(const ut_solver_problem *p, ut_solver_result *out)
{
	size_t nclauses = ut_solver_nclauses(p), i;
	double t0 = ut_clock_mono();
	ut_solver_index x;
	bool have_index = false;
	uint32_t *stack = malloc((p->nvars + 1) * sizeof(*stack));
	heap h = {malloc((p->nvars + 1) * sizeof(entry)), 0};
	state s = {&x, calloc(nclauses + 1, sizeof(uint32_t)), nclauses};
	int rc = UT_ENOMEM;

	memset(out, 0, sizeof(*out));
	out->chosen = calloc(p->nvars + 1, sizeof(*out->chosen));
	if (!stack || !h.v || !s.count || !out->chosen || ut_solver_index_build(&x, p) < 0)
		goto done;
	have_index = true;
	ut_solver_choose_forced(p, &x, out->chosen, stack, on_chosen, &s);
	for (i = 0; i < p->nvars; i++)
		if (!out->chosen[i])
			heap_push(&h, (entry){score(p, &s, (uint32_t)i), (uint32_t)i});
	while (s.open && h.n) {
		entry e = heap_pop(&h);

		if (out->chosen[e.var])
			continue;
		e.ratio = score(p, &s, e.var);
		if (isinf(e.ratio))
			continue;
		if (h.n && before(h.v[0], e)) {
			heap_push(&h, e);
			continue;
		}
		ut_solver_choose_closed(&x, out->chosen, stack, e.var, on_chosen, &s);
	}
	if (prune(p, &x, out->chosen, s.count) < 0)
		goto done;
	rc = 0;
done:
	if (rc == 0) {
		out->lower_bound = ut_solver_lower_bound(p);
		for (i = 0; i < p->nvars; i++) {
			out->nchosen += out->chosen[i];
			out->objective += out->chosen[i] ? p->cost[i] : 0;
		}
		out->status = ut_solver_proven(out->objective, out->lower_bound)
				      ? UT_SOLVE_OPTIMAL
				      : UT_SOLVE_FEASIBLE;
	} else {
		ut_solver_result_dispose(out);
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	out->seconds = ut_clock_mono() - t0;
	if (have_index)
		ut_solver_index_dispose(&x);
	free(stack);
	free(h.v);
	free(s.count);
	return rc;
}
