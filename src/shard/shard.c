/* shard.c: packing the prerequisite closures of the sinks into N balanced lists. */
#include "shard/shard.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

/* Improving moves are cheap, but a pathological graph should not keep us long. */
#define MAX_MOVES 100000
#define EPS 1e-9
/* Packings tried (ut_shard_plan_build). */
#define ROUNDS 7

typedef struct {
	const ut_graph *g;
	const double *d;
	size_t n;
	ut_scheduler sched;     /* the schedules; sched.leftout: flaky or failing tests */
	uint32_t *sinks;        /* tests without dependents, ascending */
	size_t nsinks;
	size_t *cstart;         /* nsinks + 1 offsets into closure */
	uint32_t *closure;      /* each sink's closure (itself included), ascending */
	double *ccost;          /* each sink's closure duration */
	uint32_t *comp;         /* per test: its connected component (the lowest test in it) */
	double *comp_cost;      /* per component: the duration of its tests */
	unsigned char *comp_split; /* per component: holds a pair kept apart (never whole) */
} sink_set;

static void sink_set_dispose(sink_set *s)
{
	ut_scheduler_dispose(&s->sched);
	free(s->sinks);
	free(s->cstart);
	free(s->closure);
	free(s->ccost);
	free(s->comp);
	free(s->comp_cost);
	free(s->comp_split);
}

static uint32_t find_root(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b)
{
	a = find_root(parent, a);
	b = find_root(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

/* The connected components of the prerequisite graph; a left-out test joins every earlier
 * test into one. */
static int components_build(sink_set *s, size_t last_leftout, bool any_leftout)
{
	size_t i, j;

	s->comp = malloc((s->n + 1) * sizeof(*s->comp));
	s->comp_cost = calloc(s->n + 1, sizeof(*s->comp_cost));
	s->comp_split = calloc(s->n + 1, 1);
	if (!s->comp || !s->comp_cost || !s->comp_split)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < s->n; i++)
		s->comp[i] = (uint32_t)i;
	for (i = 0; i < s->n; i++)
		for (j = s->sched.adj.start[i]; j < s->sched.adj.start[i + 1]; j++)
			unite(s->comp, (uint32_t)i, s->sched.adj.deps[j]);
	for (i = 1; any_leftout && i <= last_leftout; i++)
		unite(s->comp, (uint32_t)i, 0);
	for (i = 0; i < s->n; i++) {
		s->comp[i] = find_root(s->comp, (uint32_t)i);
		s->comp_cost[s->comp[i]] += s->d[i];
	}
	for (i = 0; i < s->g->apart.n; i++) {
		const ut_apart *a = &s->g->apart.v[i];

		if (s->comp[a->first] == s->comp[a->then])
			s->comp_split[s->comp[a->first]] = 1;
	}
	return 0;
}

static int sink_set_build(sink_set *s, const ut_graph *g, const double *d)
{
	unsigned char *has_dep = NULL;
	const ut_adjacency *adj = &s->sched.adj;
	size_t i, j, len = 0, cap = 0, last_leftout = 0;
	bool any_leftout = false;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->g = g;
	s->d = d;
	s->n = g->ntests;
	rc = ut_scheduler_init(&s->sched, g);
	if (rc < 0)
		return rc;
	has_dep = calloc(s->n + 1, 1);
	s->sinks = malloc((s->n + 1) * sizeof(*s->sinks));
	if (!has_dep || !s->sinks) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < s->n; i++) {
		if (s->sched.leftout[i]) {
			any_leftout = true;
			last_leftout = i;
		}
		for (j = adj->start[i]; j < adj->start[i + 1]; j++)
			has_dep[adj->deps[j]] = 1;
	}
	for (i = 0; i < s->n; i++)
		if (!has_dep[i] && !(any_leftout && i < last_leftout))
			s->sinks[s->nsinks++] = (uint32_t)i;
	s->cstart = malloc((s->nsinks + 1) * sizeof(*s->cstart));
	s->ccost = malloc((s->nsinks + 1) * sizeof(*s->ccost));
	if (!s->cstart || !s->ccost) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < s->nsinks; i++) {
		s->cstart[i] = len;
		rc = ut_scheduler_of(&s->sched, s->sinks[i], &s->closure, &len, &cap);
		if (rc < 0)
			goto done;
		s->ccost[i] = 0;
		for (j = s->cstart[i]; j < len; j++)
			s->ccost[i] += d[s->closure[j]];
	}
	s->cstart[s->nsinks] = len;
	rc = components_build(s, last_leftout, any_leftout);
done:
	free(has_dep);
	return rc;
}

/* What the packing places: a whole group of sinks (a component of the graph, whose
 * tests then run once) or a single sink (its closure, repeated where shared). */
typedef struct {
	size_t n;
	size_t *cstart;   /* n + 1 offsets into closure */
	uint32_t *closure; /* the tests the item needs, ascending */
	double *ccost;
	size_t *mstart;   /* n + 1 offsets into members */
	uint32_t *members; /* sink indices of sink_set */
} item_set;

static void item_set_dispose(item_set *it)
{
	free(it->cstart);
	free(it->closure);
	free(it->ccost);
	free(it->mstart);
	free(it->members);
	memset(it, 0, sizeof(*it));
}

/* Items: each component of the graph costing at most `atomic` as one item, the sinks of
 * the others one by one (atomic < 0: every sink alone). Items are numbered in the order
 * of their first sink. */
static int items_build(item_set *it, const sink_set *s, double atomic)
{
	uint32_t *comp_item = NULL, *item_of = NULL;
	size_t *cursor = NULL;
	size_t i, j;
	int rc = 0;

	memset(it, 0, sizeof(*it));
	comp_item = malloc((s->n + 1) * sizeof(*comp_item));
	item_of = malloc((s->nsinks + 1) * sizeof(*item_of));
	cursor = malloc((s->nsinks + 1) * sizeof(*cursor));
	it->cstart = calloc(s->nsinks + 2, sizeof(*it->cstart));
	it->ccost = calloc(s->nsinks + 1, sizeof(*it->ccost));
	it->mstart = calloc(s->nsinks + 2, sizeof(*it->mstart));
	it->members = malloc((s->nsinks + 1) * sizeof(*it->members));
	it->closure = malloc((s->cstart[s->nsinks] + s->n + 1) * sizeof(*it->closure));
	if (!comp_item || !item_of || !cursor || !it->cstart || !it->ccost || !it->mstart ||
	    !it->members || !it->closure) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* comp_item: the item of a component kept whole, UINT32_MAX for a split one */
	for (i = 0; i < s->n; i++)
		comp_item[i] = UINT32_MAX;
	for (i = 0; i < s->nsinks; i++) {
		uint32_t r = s->comp[s->sinks[i]];

		if (atomic >= 0 && s->comp_cost[r] <= atomic && !s->comp_split[r]) {
			if (comp_item[r] == UINT32_MAX)
				comp_item[r] = (uint32_t)it->n++;
			item_of[i] = comp_item[r];
		} else {
			item_of[i] = (uint32_t)it->n++;
		}
		it->mstart[item_of[i] + 1]++;
	}
	for (i = 0; i < it->n; i++) {
		it->mstart[i + 1] += it->mstart[i];
		cursor[i] = it->mstart[i];
	}
	for (i = 0; i < s->nsinks; i++)
		it->members[cursor[item_of[i]]++] = (uint32_t)i;
	/* closure sizes: a component's tests for a whole one, else the sink's closure */
	for (i = 0; i < s->n; i++)
		if (comp_item[s->comp[i]] != UINT32_MAX)
			it->cstart[comp_item[s->comp[i]] + 1]++;
	for (i = 0; i < s->nsinks; i++)
		if (comp_item[s->comp[s->sinks[i]]] == UINT32_MAX)
			it->cstart[item_of[i] + 1] = s->cstart[i + 1] - s->cstart[i];
	for (i = 0; i < it->n; i++) {
		it->cstart[i + 1] += it->cstart[i];
		cursor[i] = it->cstart[i];
	}
	for (i = 0; i < s->n; i++) {
		uint32_t x = comp_item[s->comp[i]];

		if (x != UINT32_MAX) {
			it->closure[cursor[x]++] = (uint32_t)i;
			it->ccost[x] += s->d[i];
		}
	}
	for (i = 0; i < s->nsinks; i++) {
		if (comp_item[s->comp[s->sinks[i]]] != UINT32_MAX)
			continue;
		for (j = s->cstart[i]; j < s->cstart[i + 1]; j++)
			it->closure[cursor[item_of[i]]++] = s->closure[j];
		it->ccost[item_of[i]] = s->ccost[i];
	}
done:
	free(comp_item);
	free(item_of);
	free(cursor);
	if (rc < 0)
		item_set_dispose(it);
	return rc;
}

typedef struct {
	const sink_set *s;
	const item_set *it;
	size_t k;          /* lists */
	uint32_t *cnt;     /* k * n: how many placed items of list j need test t */
	double *cost;      /* k */
	uint32_t *where;   /* per item: its list */
	size_t moves;      /* improving moves made after the greedy packing */
} packing;

/* The duration item i adds to list j. */
static double added(const packing *p, size_t i, size_t j)
{
	const uint32_t *c = p->cnt + j * p->s->n;
	double a = 0;
	size_t x;

	for (x = p->it->cstart[i]; x < p->it->cstart[i + 1]; x++)
		if (!c[p->it->closure[x]])
			a += p->s->d[p->it->closure[x]];
	return a;
}

/* The duration list j loses without item i (it holds i). */
static double removed(const packing *p, size_t i, size_t j)
{
	const uint32_t *c = p->cnt + j * p->s->n;
	double r = 0;
	size_t x;

	for (x = p->it->cstart[i]; x < p->it->cstart[i + 1]; x++)
		if (c[p->it->closure[x]] == 1)
			r += p->s->d[p->it->closure[x]];
	return r;
}

static bool item_has(const packing *p, size_t i, uint32_t t)
{
	const uint32_t *c = p->it->closure + p->it->cstart[i];

	return bsearch(&t, c, p->it->cstart[i + 1] - p->it->cstart[i], sizeof(*c), ut_cmp_u32);
}

/* Whether item i on list j would put both tests of a pair kept apart in it (an item that
 * holds both itself conflicts everywhere). */
static bool conflicts(const packing *p, size_t i, size_t j)
{
	const uint32_t *c = p->cnt + j * p->s->n;
	const ut_graph *g = p->s->g;

	for (size_t x = 0; x < g->apart.n; x++) {
		uint32_t a = g->apart.v[x].first, b = g->apart.v[x].then;
		bool has_a = c[a] || item_has(p, i, a), has_b = c[b] || item_has(p, i, b);

		if (has_a && has_b && (item_has(p, i, a) || item_has(p, i, b)))
			return true;
	}
	return false;
}

static void place(packing *p, size_t i, size_t j, int delta)
{
	uint32_t *c = p->cnt + j * p->s->n;
	size_t x;

	for (x = p->it->cstart[i]; x < p->it->cstart[i + 1]; x++) {
		uint32_t t = p->it->closure[x];

		if (delta > 0 && c[t]++ == 0)
			p->cost[j] += p->s->d[t];
		else if (delta < 0 && --c[t] == 0)
			p->cost[j] -= p->s->d[t];
	}
	if (delta > 0)
		p->where[i] = (uint32_t)j;
}

typedef struct {
	double cost;
	uint32_t item;
} by_cost;

static int cmp_by_cost(const void *a, const void *b)
{
	const by_cost *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->item > y->item) - (x->item < y->item);
}

static int greedy(packing *p)
{
	size_t i, j, n = p->it->n;
	by_cost *order = malloc((n ? n : 1) * sizeof(*order));

	if (!order)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		order[i].cost = p->it->ccost[i];
		order[i].item = (uint32_t)i;
	}
	qsort(order, n, sizeof(*order), cmp_by_cost);
	for (i = 0; i < n; i++) {
		size_t best = 0;
		double best_end = 0, best_add = 0;
		bool best_ok = false;

		for (j = 0; j < p->k; j++) {
			double a = added(p, order[i].item, j), end = p->cost[j] + a;
			/* a list that would hold a pair kept apart only when every list would */
			bool ok = !conflicts(p, order[i].item, j);

			if (j == 0 || (ok && !best_ok) ||
			    (ok == best_ok && (end < best_end - EPS ||
					       (end < best_end + EPS && a < best_add - EPS)))) {
				best_ok = ok;
				best = j;
				best_end = end;
				best_add = a;
			}
		}
		place(p, order[i].item, best, +1);
	}
	free(order);
	return 0;
}

/* Moves items off the longest list while a move shortens it without making the other
 * list as long; every accepted move lowers the sorted vector of list lengths, so it ends. */
static size_t improve(packing *p)
{
	size_t moves = 0, i, j;

	while (moves < MAX_MOVES) {
		size_t top = 0, best_i = 0, best_j = 0;
		double best = 0;
		bool found = false;

		for (j = 1; j < p->k; j++)
			if (p->cost[j] > p->cost[top] + EPS)
				top = j;
		for (i = 0; i < p->it->n; i++) {
			double r;

			if (p->where[i] != top)
				continue;
			r = removed(p, i, top);
			if (r <= EPS)
				continue;
			for (j = 0; j < p->k; j++) {
				double a, worst;

				if (j == top || conflicts(p, i, j))
					continue;
				a = added(p, i, j);
				worst = p->cost[top] - r > p->cost[j] + a ? p->cost[top] - r
									 : p->cost[j] + a;
				if (worst < p->cost[top] - EPS && (!found || worst < best - EPS)) {
					found = true;
					best = worst;
					best_i = i;
					best_j = j;
				}
			}
		}
		if (!found)
			break;
		place(p, best_i, top, -1);
		place(p, best_i, best_j, +1);
		moves++;
	}
	return moves;
}

static void packing_dispose(packing *p)
{
	free(p->cnt);
	free(p->cost);
	free(p->where);
	memset(p, 0, sizeof(*p));
}

/* Packs the items into k lists; *makespan is the longest. */
static int pack(packing *p, const sink_set *s, const item_set *it, size_t k, double *makespan)
{
	size_t j;
	int rc;

	memset(p, 0, sizeof(*p));
	p->s = s;
	p->it = it;
	p->k = k;
	p->cnt = calloc(k * (s->n ? s->n : 1), sizeof(*p->cnt));
	p->cost = calloc(k, sizeof(*p->cost));
	p->where = calloc(it->n ? it->n : 1, sizeof(*p->where));
	if (!p->cnt || !p->cost || !p->where)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = greedy(p);
	if (rc < 0)
		return rc;
	p->moves = improve(p);
	*makespan = 0;
	for (j = 0; j < k; j++)
		if (p->cost[j] > *makespan)
			*makespan = p->cost[j];
	return 0;
}

static int fill_list(ut_shard *sh, const sink_set *s, const packing *p, size_t j, bool per_sink)
{
	size_t t, i, m;

	sh->tests = malloc((s->n ? s->n : 1) * sizeof(*sh->tests));
	sh->targets = malloc((s->nsinks ? s->nsinks : 1) * sizeof(*sh->targets));
	if (!sh->tests || !sh->targets)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (per_sink) {
		for (t = s->cstart[j]; t < s->cstart[j + 1]; t++) {
			sh->tests[sh->n++] = s->closure[t];
			sh->cost_s += s->d[s->closure[t]];
		}
		sh->targets[sh->ntargets++] = s->sinks[j];
		return 0;
	}
	for (t = 0; t < s->n; t++) {
		if (p->cnt[j * s->n + t]) {
			sh->tests[sh->n++] = (uint32_t)t;
			sh->cost_s += s->d[t];
		}
	}
	for (i = 0; i < p->it->n; i++)
		if (p->where[i] == j)
			for (m = p->it->mstart[i]; m < p->it->mstart[i + 1]; m++)
				sh->targets[sh->ntargets++] = s->sinks[p->it->members[m]];
	qsort(sh->targets, sh->ntargets, sizeof(*sh->targets), ut_cmp_u32);
	return 0;
}

static int cmp_shard(const void *a, const void *b)
{
	const ut_shard *x = a, *y = b;

	if (x->n != 0 && y->n != 0 && x->cost_s != y->cost_s)
		return x->cost_s > y->cost_s ? -1 : 1;
	if ((x->n == 0) != (y->n == 0))
		return x->n == 0 ? 1 : -1;
	if (x->n == 0)
		return 0;
	return (x->tests[0] > y->tests[0]) - (x->tests[0] < y->tests[0]);
}

static void finish_bounds(ut_shard_plan *out, const sink_set *s, size_t k, bool per_sink)
{
	size_t i;

	for (i = 0; i < s->nsinks; i++) {
		if (s->ccost[i] > out->chain_s || out->chain_test < 0) {
			out->chain_s = s->ccost[i];
			out->chain_test = s->sinks[i];
		}
	}
	out->even_s = per_sink || !k ? 0 : out->original_s / (double)k;
	out->lower_bound_s = out->chain_s > out->even_s ? out->chain_s : out->even_s;
}

bool ut_shard_has(const ut_shard *sh, uint32_t t)
{
	return sh->n && bsearch(&t, sh->tests, sh->n, sizeof(*sh->tests), ut_cmp_u32) != NULL;
}

long ut_shard_plan_holds_pair(const ut_shard_plan *p, const ut_apart *a)
{
	for (size_t i = 0; i < p->nshards; i++)
		if (ut_shard_has(&p->shards[i], a->first) && ut_shard_has(&p->shards[i], a->then))
			return (long)i;
	return -1;
}

/* The pairs kept apart that a list holds both of (per pair, once). */
static size_t count_apart_broken(const ut_shard_plan *out, const ut_graph *g)
{
	size_t broken = 0;

	for (size_t x = 0; x < g->apart.n; x++)
		broken += ut_shard_plan_holds_pair(out, &g->apart.v[x]) >= 0;
	return broken;
}

/* The statistics of out's lists over ntests tests: non-empty lists, their mean and longest
 * cost, and the repeats (per list and in all). */
static void finish_stats(ut_shard_plan *out, size_t ntests)
{
	unsigned char *seen = calloc(ntests + 1, 1);
	size_t i, j, total = 0;

	for (i = 0; i < out->nshards; i++) {
		ut_shard *sh = &out->shards[i];

		total += sh->n;
		if (sh->n) {
			out->nonempty++;
			out->mean_s += sh->cost_s;
		}
		if (sh->cost_s > out->makespan_s)
			out->makespan_s = sh->cost_s;
		for (j = 0; seen && j < sh->n; j++) {
			if (seen[sh->tests[j]])
				sh->repeats++;
			seen[sh->tests[j]] = 1;
		}
	}
	if (out->nonempty)
		out->mean_s /= (double)out->nonempty;
	out->repeats = total > ntests ? total - ntests : 0;
	free(seen);
}

/* Several packings of s into k lists, the shortest wins (the first on a tie: fewer
 * repeats): every component whole (its tests run once); the components that cost at most
 * LB, LB/2, ... kept whole, the rest split into sinks; last, every sink alone. The winner
 * in *best, its items in *best_items (best->it points there; both zeroed by the caller,
 * disposed by it whatever the result). 0 or UT_ENOMEM. */
static int best_packing(packing *best, item_set *best_items, const sink_set *s, size_t k,
			double lower_bound_s)
{
	item_set items;
	packing cur;
	double best_span = 0, span = 0;
	size_t prev_n = 0;
	int rc = 0;

	memset(&items, 0, sizeof(items));
	memset(&cur, 0, sizeof(cur));
	for (int round = 0; round < ROUNDS; round++) {
		double atomic = round == 0	    ? DBL_MAX
				: round == ROUNDS - 1 ? -1
						      : lower_bound_s * (1 + 1e-9) / (double)(1 << (round - 1));

		rc = items_build(&items, s, atomic);
		if (rc < 0)
			break;
		/* a lower threshold only splits more components: as many items, the same ones */
		if (round == 0 || items.n != prev_n) {
			prev_n = items.n;
			rc = pack(&cur, s, &items, k, &span);
			if (rc < 0)
				break;
			if (round == 0 || span < best_span - EPS) {
				packing_dispose(best);
				item_set_dispose(best_items);
				*best = cur;
				*best_items = items;
				best->it = best_items;
				best_span = span;
				memset(&cur, 0, sizeof(cur));
				memset(&items, 0, sizeof(items));
			}
		}
		item_set_dispose(&items);
		packing_dispose(&cur);
	}
	packing_dispose(&cur);
	item_set_dispose(&items);
	return rc;
}

/* UT_EINPUT for a number of shards out of range or a negative duration, else 0. */
static int check_input(const ut_graph *g, const double *durations, const ut_shard_opts *opts)
{
	if (!opts->per_sink && (opts->nshards < 1 || opts->nshards > UT_SHARD_MAX))
		return ut_error_set(UT_EINPUT, "the number of shards must be from 1 to %d",
				    UT_SHARD_MAX);
	for (size_t i = 0; i < g->ntests; i++)
		if (!(durations[i] >= 0))
			return ut_error_set(UT_EINPUT, "'%s' has a negative duration",
					    g->tests[i].id);
	return 0;
}

int ut_shard_plan_build(ut_shard_plan *out, const ut_graph *g, const double *durations,
			const ut_shard_opts *opts)
{
	sink_set s;
	item_set best_items;
	packing best;
	size_t i, k;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	memset(&best_items, 0, sizeof(best_items));
	memset(&best, 0, sizeof(best));
	out->chain_test = -1;
	rc = check_input(g, durations, opts);
	if (rc < 0)
		return rc;
	rc = sink_set_build(&s, g, durations);
	if (rc < 0)
		goto done;
	k = opts->per_sink ? s.nsinks : opts->nshards;
	out->ntests = g->ntests;
	out->nshards = k;
	out->shards = calloc(k ? k : 1, sizeof(*out->shards));
	if (!out->shards) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < g->ntests; i++) {
		out->original_s += durations[i];
		out->unproven += s.sched.leftout[i];
	}
	finish_bounds(out, &s, k, opts->per_sink);
	if (!opts->per_sink) {
		rc = best_packing(&best, &best_items, &s, k, out->lower_bound_s);
		if (rc < 0)
			goto done;
	}
	out->moves = best.moves;
	for (i = 0; i < k; i++) {
		rc = fill_list(&out->shards[i], &s, &best, i, opts->per_sink);
		if (rc < 0)
			goto done;
	}
	if (!opts->per_sink)
		qsort(out->shards, k, sizeof(*out->shards), cmp_shard);
	finish_stats(out, s.n);
	if (!opts->per_sink)
		out->apart_broken = count_apart_broken(out, g);
done:
	packing_dispose(&best);
	item_set_dispose(&best_items);
	sink_set_dispose(&s);
	if (rc < 0)
		ut_shard_plan_dispose(out);
	return rc;
}

/* What adopting a list needs besides the list: g's tests by id, their prerequisites, and
 * two flags per test of g (cleared again after each list). */
typedef struct {
	const ut_graph *g;
	ut_map index;
	ut_adjacency adj;
	unsigned char *in, *needed, *covered;
} adopter;

/* Whether the list sh (ascending) holds every prerequisite of its tests, as the planner
 * gives them (a test detect left out needs every earlier test); marks in a->needed the
 * tests another of the list needs. 0, or UT_EINPUT naming the first one missing. */
static int check_closed(adopter *a, const ut_shard *sh)
{
	const ut_graph *g = a->g;
	size_t i, last_leftout = 0;
	uint32_t k;

	for (i = 0; i < sh->n; i++) {
		uint32_t t = sh->tests[i];

		for (k = a->adj.start[t]; k < a->adj.start[t + 1]; k++) {
			if (!a->in[a->adj.deps[k]])
				return ut_error_set(UT_EINPUT, "a list holds '%s' without '%s', which "
						    "it needs", g->tests[t].id,
						    g->tests[a->adj.deps[k]].id);
			a->needed[a->adj.deps[k]] = 1;
		}
		if (!(g->tests[t].flaky || g->tests[t].failing))
			continue;
		if (i != t) /* ascending and without repeats: i earlier tests are all of them */
			return ut_error_set(UT_EINPUT, "a list holds '%s', which detect left out, "
					    "without every earlier test", g->tests[t].id);
		last_leftout = i;
	}
	for (i = 0; i < last_leftout; i++)
		a->needed[sh->tests[i]] = 1;
	return 0;
}

/* List *from (tests of `of`) as a list of g: its tests by id, ascending, their cost, and
 * as targets those no other test of the list needs; a->covered[t] set for each. */
static int adopt_list(adopter *a, ut_shard *sh, const double *durations, const ut_graph *of,
		      const ut_shard *from)
{
	size_t i;
	int rc = 0;

	sh->tests = malloc((from->n ? from->n : 1) * sizeof(*sh->tests));
	sh->targets = malloc((from->n ? from->n : 1) * sizeof(*sh->targets));
	if (!sh->tests || !sh->targets)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < from->n; i++) {
		const char *id = of->tests[from->tests[i]].id;
		void *at = NULL;

		if (!ut_map_find(&a->index, id, strlen(id), &at))
			return ut_error_set(UT_EINPUT, "'%s' is not a test of the graph", id);
		sh->tests[sh->n++] = (uint32_t)(uintptr_t)at;
	}
	qsort(sh->tests, sh->n, sizeof(*sh->tests), ut_cmp_u32);
	for (i = 0; i < sh->n && rc == 0; i++) {
		if (i && sh->tests[i] == sh->tests[i - 1])
			rc = ut_error_set(UT_EINPUT, "'%s' is twice in one list",
					  a->g->tests[sh->tests[i]].id);
		a->in[sh->tests[i]] = a->covered[sh->tests[i]] = 1;
		sh->cost_s += durations[sh->tests[i]];
	}
	if (rc == 0)
		rc = check_closed(a, sh);
	for (i = 0; i < sh->n; i++) {
		if (rc == 0 && !a->needed[sh->tests[i]])
			sh->targets[sh->ntargets++] = sh->tests[i];
		a->in[sh->tests[i]] = a->needed[sh->tests[i]] = 0;
	}
	return rc;
}

/* The index of every test of g by id (values are indices). */
static int index_tests(ut_map *m, const ut_graph *g)
{
	for (size_t i = 0; i < g->ntests; i++)
		if (ut_map_put(m, g->tests[i].id, strlen(g->tests[i].id), (void *)(uintptr_t)i) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_shard_plan_adopt(ut_shard_plan *plan, const ut_graph *g, const double *durations,
			const ut_graph *of, const ut_shard_plan *lists)
{
	ut_shard_plan next = *plan;
	adopter a = {.g = g, .index = UT_MAP_INIT};
	int rc = 0;

	a.in = calloc(g->ntests + 1, 1);
	a.needed = calloc(g->ntests + 1, 1);
	a.covered = calloc(g->ntests + 1, 1);
	if (!a.in || !a.needed || !a.covered)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && lists->nshards != plan->nshards)
		rc = ut_error_set(UT_EINPUT, "it holds %zu shards, not %zu", lists->nshards,
				  plan->nshards);
	next.shards = rc == 0 ? calloc(plan->nshards + 1, sizeof(*next.shards)) : NULL;
	if (rc == 0 && !next.shards)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = index_tests(&a.index, g);
	if (rc == 0)
		rc = ut_adjacency_build(&a.adj, g, NULL, NULL);
	for (size_t i = 0; rc == 0 && i < lists->nshards; i++)
		rc = adopt_list(&a, &next.shards[i], durations, of, &lists->shards[i]);
	for (size_t t = 0; rc == 0 && t < g->ntests; t++)
		if (!a.covered[t])
			rc = ut_error_set(UT_EINPUT, "it leaves '%s' out", g->tests[t].id);
	ut_adjacency_dispose(&a.adj);
	ut_map_dispose(&a.index);
	free(a.in);
	free(a.needed);
	free(a.covered);
	if (rc < 0) {
		ut_shard_plan_dispose(&next);
		return rc;
	}
	for (size_t i = 0; i < plan->nshards; i++) {
		free(plan->shards[i].tests);
		free(plan->shards[i].targets);
	}
	free(plan->shards);
	next.nonempty = next.repeats = next.moves = 0;
	next.makespan_s = next.mean_s = 0;
	finish_stats(&next, g->ntests);
	next.apart_broken = count_apart_broken(&next, g);
	*plan = next;
	return 0;
}

void ut_shard_plan_dispose(ut_shard_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nshards && p->shards; i++) {
		free(p->shards[i].tests);
		free(p->shards[i].targets);
	}
	free(p->shards);
	memset(p, 0, sizeof(*p));
	p->chain_test = -1;
}

int ut_shard_drift_check(ut_shard_drift *out, const ut_graph *g, const char *const *ids,
			 size_t n)
{
	ut_map seen = UT_MAP_INIT;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		long t = ut_graph_test_index(g, ids[i]);

		if (t < 0) {
			if (out->added < 3)
				out->first_added[out->added] = ids[i];
			out->added++;
			continue;
		}
		if ((size_t)t != i)
			out->reordered = true;
		if (ut_map_put(&seen, g->tests[t].id, strlen(g->tests[t].id), (void *)1) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < g->ntests; i++) {
		if (ut_map_get(&seen, g->tests[i].id, strlen(g->tests[i].id)))
			continue;
		if (out->removed < 3)
			out->first_removed[out->removed] = g->tests[i].id;
		out->removed++;
	}
	if (out->added || out->removed)
		out->reordered = false;
done:
	ut_map_dispose(&seen);
	return rc;
}
