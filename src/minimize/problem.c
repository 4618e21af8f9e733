/* problem.c: the minimisation problem of solver.h without a solver: building it, checking
 * a solution, a lower bound, and the greedy answer used when Z3 gives none. */
#include "minimize/solver.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minimize/internal.h"
#include "util/error.h"
#include "util/banned.h"


int ut_solver_problem_init(ut_solver_problem *p, size_t nvars)
{
	memset(p, 0, sizeof(*p));
	p->nvars = nvars;
	p->cost = calloc(nvars ? nvars : 1, sizeof(*p->cost));
	p->pinned = calloc(nvars ? nvars : 1, sizeof(*p->pinned));
	if (!p->cost || !p->pinned || ut_vec_push(&p->clause_start, 0) < 0) {
		ut_solver_problem_dispose(p);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

void ut_solver_problem_dispose(ut_solver_problem *p)
{
	if (!p)
		return;
	free(p->cost);
	free(p->pinned);
	ut_vec_free(&p->clause_start);
	ut_vec_free(&p->clause_vars);
	ut_vec_free(&p->implies);
	memset(p, 0, sizeof(*p));
}

size_t ut_solver_nclauses(const ut_solver_problem *p)
{
	return p->clause_start.n ? p->clause_start.n - 1 : 0;
}

int ut_solver_add_clause(ut_solver_problem *p, const uint32_t *vars, size_t n)
{
	size_t i;

	if (n == 0)
		return ut_error_set(UT_EINPUT, "a clause needs at least one variable");
	for (i = 0; i < n; i++)
		if (vars[i] >= p->nvars)
			return ut_error_set(UT_EINPUT, "variable %u out of range", vars[i]);
	if (ut_vec_reserve(&p->clause_vars, p->clause_vars.n + n) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		p->clause_vars.v[p->clause_vars.n++] = vars[i];
	if (ut_vec_push(&p->clause_start, (uint32_t)p->clause_vars.n) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_solver_add_implication(ut_solver_problem *p, uint32_t a, uint32_t b)
{
	if (a >= p->nvars || b >= p->nvars)
		return ut_error_set(UT_EINPUT, "variable out of range");
	if (ut_vec_push(&p->implies, a) < 0 || ut_vec_push(&p->implies, b) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

bool ut_solver_feasible(const ut_solver_problem *p, const bool *chosen)
{
	size_t i, k, nclauses = ut_solver_nclauses(p);

	for (i = 0; i < p->nvars; i++)
		if (p->pinned[i] && !chosen[i])
			return false;
	for (i = 0; i + 1 < p->implies.n; i += 2)
		if (chosen[p->implies.v[i]] && !chosen[p->implies.v[i + 1]])
			return false;
	for (k = 0; k < nclauses; k++) {
		bool any = false;

		for (i = p->clause_start.v[k]; i < p->clause_start.v[k + 1] && !any; i++)
			any = chosen[p->clause_vars.v[i]];
		if (!any)
			return false;
	}
	return true;
}

/* Counting sort of (key, value) pairs into start[nkeys + 1] and out[npairs]. */
static int invert(uint32_t **start, uint32_t **out, size_t nkeys, const uint32_t *keys,
		  size_t kstride, const uint32_t *vals, size_t vstride, size_t npairs)
{
	size_t i;

	*start = calloc(nkeys + 1, sizeof(**start));
	*out = malloc((npairs ? npairs : 1) * sizeof(**out));
	if (!*start || !*out)
		return UT_ENOMEM;
	for (i = 0; i < npairs; i++)
		(*start)[keys[i * kstride] + 1]++;
	for (i = 0; i < nkeys; i++)
		(*start)[i + 1] += (*start)[i];
	for (i = 0; i < npairs; i++)
		(*out)[(*start)[keys[i * kstride]]++] = vals[i * vstride];
	for (i = nkeys; i > 0; i--)
		(*start)[i] = (*start)[i - 1];
	(*start)[0] = 0;
	return 0;
}

void ut_solver_index_dispose(ut_solver_index *x)
{
	free(x->cl_start);
	free(x->cl);
	free(x->imp_start);
	free(x->imp);
}

int ut_solver_index_build(ut_solver_index *x, const ut_solver_problem *p)
{
	size_t nclauses = ut_solver_nclauses(p), npairs = p->implies.n / 2, k, i;
	uint32_t *owner = malloc((p->clause_vars.n ? p->clause_vars.n : 1) * sizeof(*owner));
	int rc = UT_ENOMEM;

	memset(x, 0, sizeof(*x));
	if (!owner)
		goto done;
	for (k = 0; k < nclauses; k++)
		for (i = p->clause_start.v[k]; i < p->clause_start.v[k + 1]; i++)
			owner[i] = (uint32_t)k;
	if (invert(&x->cl_start, &x->cl, p->nvars, p->clause_vars.v, 1, owner, 1,
		   p->clause_vars.n) < 0 ||
	    invert(&x->imp_start, &x->imp, p->nvars, p->implies.v, 2, p->implies.v + 1, 2,
		   npairs) < 0)
		goto done;
	rc = 0;
done:
	free(owner);
	if (rc < 0)
		ut_solver_index_dispose(x);
	return rc;
}

void ut_solver_choose_closed(const ut_solver_index *x, bool *chosen, uint32_t *stack, uint32_t v,
			  void (*on_new)(uint32_t v, void *ctx), void *ctx)
{
	size_t top = 0;

	if (chosen[v])
		return;
	chosen[v] = true;
	stack[top++] = v;
	while (top) {
		uint32_t u = stack[--top], j;

		if (on_new)
			on_new(u, ctx);
		for (j = x->imp_start[u]; j < x->imp_start[u + 1]; j++) {
			if (!chosen[x->imp[j]]) {
				chosen[x->imp[j]] = true;
				stack[top++] = x->imp[j];
			}
		}
	}
}

void ut_solver_choose_forced(const ut_solver_problem *p, const ut_solver_index *x, bool *chosen,
			  uint32_t *stack, void (*on_new)(uint32_t v, void *ctx), void *ctx)
{
	size_t i, k, nclauses = ut_solver_nclauses(p);

	for (i = 0; i < p->nvars; i++)
		if (p->pinned[i])
			ut_solver_choose_closed(x, chosen, stack, (uint32_t)i, on_new, ctx);
	for (k = 0; k < nclauses; k++)
		if (p->clause_start.v[k + 1] - p->clause_start.v[k] == 1)
			ut_solver_choose_closed(x, chosen, stack, p->clause_vars.v[p->clause_start.v[k]],
				      on_new, ctx);
}

/* Keys are size << 32 | clause: sorting them orders clauses shortest first without a
 * comparison context. */
static int by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double ut_solver_lower_bound(const ut_solver_problem *p)
{
	size_t nclauses = ut_solver_nclauses(p), i, k;
	bool *chosen = calloc(p->nvars + 1, sizeof(*chosen));
	double *left = malloc((p->nvars + 1) * sizeof(*left));
	uint32_t *stack = malloc((p->nvars + 1) * sizeof(*stack));
	uint64_t *order = malloc((nclauses + 1) * sizeof(*order));
	ut_solver_index x;
	double lb = -1;

	if (!chosen || !left || !stack || !order || ut_solver_index_build(&x, p) < 0)
		goto done;
	ut_solver_choose_forced(p, &x, chosen, stack, NULL, NULL);
	lb = 0;
	for (i = 0; i < p->nvars; i++) {
		lb += chosen[i] ? p->cost[i] : 0;
		left[i] = p->cost[i];
	}
	/* Dual ascent on the covering LP without the implications: each open clause gets
	 * a price no more than what its members have left, and a member's prices together
	 * never exceed its cost, so every solution pays at least their sum (weak duality).
	 * Short clauses first, as their prices are least shared. */
	for (k = 0; k < nclauses; k++)
		order[k] = (uint64_t)(p->clause_start.v[k + 1] - p->clause_start.v[k]) << 32 | k;
	qsort(order, nclauses, sizeof(*order), by_key);
	for (k = 0; k < nclauses; k++) {
		uint32_t c = (uint32_t)order[k];
		double price = -1;

		for (i = p->clause_start.v[c]; i < p->clause_start.v[c + 1] && price != 0; i++) {
			uint32_t v = p->clause_vars.v[i];

			if (chosen[v])
				price = 0; /* satisfied by what every solution has */
			else if (price < 0 || left[v] < price)
				price = left[v];
		}
		if (price <= 0)
			continue;
		for (i = p->clause_start.v[c]; i < p->clause_start.v[c + 1]; i++)
			left[p->clause_vars.v[i]] -= price;
		lb += price;
	}
	ut_solver_index_dispose(&x);
done:
	free(chosen);
	free(left);
	free(stack);
	free(order);
	return lb;
}

bool ut_solver_proven(double objective, double lower_bound)
{
	return lower_bound >= 0 && objective <= lower_bound + 1e-9 * (1 + objective);
}

void ut_solver_result_dispose(ut_solver_result *r)
{
	if (!r)
		return;
	free(r->chosen);
	free((char *)r->reason);
	memset(r, 0, sizeof(*r));
}
