/* search.c: finding the prerequisites of each test by running it after chosen sets of
 * earlier tests, with a number of runs that grows with the logarithm of the candidates.
 *
 * Model: a test passes after a set S of earlier tests when every test it needs, directly or
 * not, is in S (more tests before it never hurt: the monotone assumption). A(t), the tests
 * t needs, is then closed: it holds what its members need. For each test the search keeps
 * `u`, a set t is known to pass after (so A(t) is in u), and `in`, tests proven to be in
 * A(t), and narrows u down to in:
 *
 * 1. Alone: a test that passes alone needs nothing.
 * 2. Gallop: the earlier tests are ranked by how likely t needs them (a candidate edge and
 *    its values, the nouns its name shares with t's, a dependee whose verb writes, tests
 *    already found to be needed by others); t runs after the closure of the first of them,
 *    then of twice as many tests, and so on, until it passes. That set is u. When the tries
 *    grow past most earlier tests, u is all of them (the original order shows it passes).
 * 3. Peel: t runs after `in` alone; if it fails, the latest test of A(t) outside `in` is
 *    found by a binary search over u \ in: t runs after u less the tests of u \ in at and
 *    above a split point; a pass drops them from u for good (and every test that needs one
 *    of them), a failure says the latest is there. Splits follow the ranking, mixed half
 *    and half with an even split, so a wrong ranking costs a few runs, never a run per
 *    test. The latest test of A(t) outside `in` is needed directly (nothing else t needs
 *    needs it), and the last failure is its proof: every other test t needs was there.
 *    It joins `in` with everything it needs, and the peel starts over. When u \ in has at
 *    most two tops (tests no other test there needs), t runs after u without each of them
 *    instead, in one round: those questions do not depend on each other (until outcomes
 *    have disagreed: then the binary search, whose answers disputes confirm). The gallop's
 *    last failing try only weighs the choice of probes (what is missing is more likely
 *    outside it); the answers decide.
 * When t passes after exactly `in`, A(t) = in, and that run is t's schedule as it will be
 * run. Every run tells the outcome of every test in it, kept in the evidence store: a
 * question it answers is not run again.
 *
 * Tests are searched together, one run each per batch (on as many workers as there are;
 * in the peel, a test whose question a run of another answers runs at that run's end);
 * a test waits only when its next step needs A() of an earlier test that is not settled
 * yet, so the runs and the graph do not depend on the number of workers (the splits'
 * prices come from the reported durations, in job order: with a runner that reports the
 * same durations, the same runs). */
#include "detect/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

#define SX_STALLS 3	   /* the same probe this often without an answer: left out */
#define SX_GALLOP_MAX 0.8  /* tries past this share of the earlier tests: take them all */
#define SX_TEMPERATURE 0.5 /* weights of the binary search: exp(prior / T) */
#define SX_EVEN 0.5	   /* and this share of an even split */
#define SX_COST_MARGIN 0.95 /* a split other than the even one saves this share of time */
#define SX_OUTSIDE 16.0	   /* the split's weight of a test outside the gallop's failing try */
#define SX_TOP_ALONE 0.2   /* the latest test left out alone when this much of the weight */
#define SX_BY_ONE 2	   /* the peel leaves out each top alone when there are this few */
#define SX_RIDE_MORE 2	   /* tests besides its schedule less d a run a confirmation ends holds */

static bool included(const sx *s, uint32_t t)
{
	return s->c->excluded[t] == DX_IN;
}

/* For the progress: tests settled (searched, taken from the graph, or left out). */
static long count_settled(const void *ctx, long *total)
{
	const sx *s = ctx;
	long n = 0;

	for (size_t t = 0; t < s->n; t++)
		n += s->t[t].state == SX_DONE || s->t[t].state == SX_GRAPH;
	*total = (long)s->n;
	return n;
}

int sx_init(sx *s, dx_ctx *c)
{
	size_t n = c->g->ntests ? c->g->ntests : 1;

	memset(s, 0, sizeof(*s));
	s->c = c;
	s->g = c->g;
	s->n = c->g->ntests;
	s->t = calloc(n, sizeof(*s->t));
	s->dependents = calloc(n, sizeof(*s->dependents));
	s->ncand = calloc(n, sizeof(*s->ncand));
	s->mark = calloc(n, 1);
	s->weight = calloc(n, sizeof(*s->weight));
	c->count_settled = count_settled;
	c->settled_ctx = s;
	if (!s->t || !s->dependents || !s->ncand || !s->mark || !s->weight)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static void probes_clear(sx *s)
{
	for (size_t i = 0; i < s->probes.n; i++)
		ut_vec_free(&s->probes.v[i].sched);
	s->probes.n = 0;
}

static void test_reset(sx_test *x)
{
	ut_vec_free(&x->u);
	ut_vec_free(&x->in);
	ut_vec_free(&x->found);
	ut_vec_free(&x->x);
	ut_vec_free(&x->gfail);
	free(x->rank);
	x->rank = NULL;
	x->nrank = x->ri = x->target = 0;
	x->searching = x->top_tried = x->by_one = x->by_one_dry = false;
	x->confirming = 0;
	x->fail_run = x->pass_run = 0;
	x->lo = x->hi = 0; /* a search again starts below t, not where the last one ended */
	x->last_probe = 0;
	x->stalls = 0;
	ut_vec_free(&x->ctx);
	ut_vec_free(&x->breakers);
	x->rescued = false;
}

void sx_dispose(sx *s)
{
	if (s->c && s->c->settled_ctx == s)
		s->c->count_settled = NULL;
	for (size_t i = 0; s->t && i < s->n; i++) {
		test_reset(&s->t[i]);
		ut_vec_free(&s->t[i].anc);
	}
	probes_clear(s);
	ut_vec_free(&s->probes);
	free(s->t);
	free(s->dependents);
	free(s->ncand);
	free(s->mark);
	free(s->weight);
	free(s->confirm);
	ut_vec_free(&s->hconf);
	memset(s, 0, sizeof(*s));
}

static int push(dx_sched *v, uint32_t x)
{
	return ut_vec_push(v, x) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* out = the marked tests below `below`, ascending; clears the marks. */
static int collect(sx *s, uint32_t below, dx_sched *out)
{
	int rc = 0;

	out->n = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->mark[i] && i < below && rc == 0)
			rc = push(out, i);
		s->mark[i] = 0;
	}
	return rc;
}

/* Marks v and everything the settled tests of v need; returns how many were not marked.
 * Not a closure over the graph: a settled test's schedule is its anc (from the graph by
 * sx_graph_closures, or found by the search, whose edges are written only at the end). */
static size_t mark_closure(sx *s, const uint32_t *v, size_t n)
{
	size_t added = 0;

	for (size_t i = 0; i < n; i++) {
		const sx_test *y = &s->t[v[i]];

		added += !s->mark[v[i]];
		s->mark[v[i]] = 1;
		if (y->state != SX_DONE && y->state != SX_GRAPH)
			continue;
		for (size_t k = 0; k < y->anc.n; k++) {
			added += !s->mark[y->anc.v[k]];
			s->mark[y->anc.v[k]] = 1;
		}
	}
	return added;
}

int sx_graph_closures(sx *s, bool (*want)(const sx *s, uint32_t t))
{
	ut_scheduler sch;
	int rc = ut_scheduler_init_active(&sch, s->g);

	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		dx_sched *to = &s->t[t].anc;

		if (!want(s, t))
			continue;
		to->n = 0;
		rc = ut_scheduler_of(&sch, t, &to->v, &to->n, &to->cap);
		if (rc == 0)
			to->n--; /* t itself, the last */
	}
	ut_scheduler_dispose(&sch);
	return rc;
}

bool sx_included(const sx *s, uint32_t t)
{
	return s->c->excluded[t] == DX_IN;
}

static bool from_graph(const sx *s, uint32_t t)
{
	return s->t[t].state == SX_GRAPH;
}

int sx_settle_from_graph(sx *s)
{
	return sx_graph_closures(s, from_graph);
}

/* Whether runs showed t failing after its settled prerequisites, as often as a decision
 * needs, with every one of them there and passing (once outcomes disagreed). */
static bool schedule_fails(sx *s, uint32_t t)
{
	const sx_test *x = &s->t[t];

	return s->c->unsteady && x->state == SX_DONE &&
	       dx_evidence_refutes(s->c, t, x->anc.v, x->anc.n) >= (unsigned)dx_need(s->c);
}

void sx_reopen(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];

	/* The pass t settled on was intermittent, though no dispute saw it: a pass after
	 * tests the search does not ask about answers its questions (dx_evidence_known's
	 * within), and a failure contradicts it only when it ran after those tests too. Left
	 * in the store, it would settle t on the same prerequisites again. */
	if (schedule_fails(s, t))
		dx_evidence_forget_run(s->c, t, x->pass_run);
	if (x->state == SX_DONE) {
		for (size_t i = 0; i < x->found.n; i++) {
			if (s->dependents[x->found.v[i].test])
				s->dependents[x->found.v[i].test]--;
		}
	}
	test_reset(x);
	ut_vec_free(&x->anc);
	x->state = SX_START;
}

/* How likely t needs e, on a log scale: the evidence a suite's sources and names give. */
static double prior(sx *s, uint32_t t, uint32_t e)
{
	const ut_graph_test *a = &s->g->tests[t], *b = &s->g->tests[e];
	const ut_edge *ed = ut_graph_find(s->g, t, e);
	double p = 0;
	unsigned shared = 0;

	if (ed && ed->status != UT_EDGE_FALSE) /* they share values (a filter's doubt: less) */
		p += ed->filtered_by ? s->t[t].cand_weight / 2 : s->t[t].cand_weight;
	for (uint32_t i = 0; i < a->nnouns; i++) {
		for (uint32_t k = 0; k < b->nnouns; k++)
			shared += a->nouns[i] == b->nouns[k]; /* interned */
	}
	if (shared)
		p += 3.0 * shared / (a->nnouns + b->nnouns - shared);
	if (a->dobj && a->dobj == b->dobj)
		p += 1.0;
	if (b->verb == UT_NAME_VERB_WRITE)
		p += 1.0;
	else if (b->verb == UT_NAME_VERB_READ)
		p -= 0.5;
	p += 0.5 * (s->dependents[e] < 3 ? s->dependents[e] : 3);
	/* the nearer first, all else equal */
	return p + exp(-(double)(t - 1 - e) / 8.0) + 0.3 * e / (t ? t : 1);
}

typedef struct {
	double p;
	uint32_t e;
} sx_ranked;

static int by_prior_desc(const void *a, const void *b)
{
	const sx_ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p > y->p ? -1 : 1;
	return x->e > y->e ? -1 : x->e < y->e;
}

/* The gallop's order: the likeliest by the prior and the nearest, in turn (a test whose
 * name and values say nothing, such as a crawler's test42, is found by its distance, at
 * twice the cost at worst). */
static int make_rank(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	sx_ranked *r = malloc((t ? t : 1) * sizeof(*r));
	size_t k = 0, a = 0, out = 0, earlier = 0, cands = 0, m = 0;
	bool blind;
	uint32_t y = t;

	if (!r)
		return ut_error_set(UT_ENOMEM, "out of memory");
	/* A candidate edge says as much as the candidates are few among the earlier tests: the
	 * log of the odds it gives over a test picked at random. */
	for (uint32_t e = 0; e < t; e++)
		earlier += included(s, e);
	cands = s->ncand[t];
	/* A name without nouns and no candidates: the prior knows nothing of t, nearest first. */
	blind = !cands && !s->g->tests[t].nnouns;
	x->cand_weight = cands ? 1.0 + log((double)earlier / (double)cands) : 1.0;
	for (uint32_t e = 0; e < t; e++) {
		if (included(s, e))
			r[k++] = (sx_ranked){prior(s, t, e), e};
	}
	qsort(r, k, sizeof(*r), by_prior_desc);
	free(x->rank);
	/* The candidates come first, and when they are few the first try is all of them: the
	 * thesis' guess, right as soon as string analysis saw every dependency. */
	x->target = 1;
	if (cands && cands <= earlier / 2) {

		for (size_t i = 0; i < k; i++) {
			const ut_edge *ed = ut_graph_find(s->g, t, r[i].e);

			if (ed && ut_edge_active(ed)) {
				sx_ranked tmp = r[i];

				memmove(r + m + 1, r + m, (i - m) * sizeof(*r));
				r[m++] = tmp;
			}
		}
		x->target = 0;
		for (size_t i = 0; i < m; i++)
			x->target += mark_closure(s, &r[i].e, 1);
		memset(s->mark, 0, s->n);
	}
	x->rank = malloc((k ? k : 1) * sizeof(*x->rank));
	if (!x->rank) {
		free(r);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	memset(s->mark, 0, s->n);
	while (out < k) {
		uint32_t e;

		if (out < m || (!blind && (out - m) % 2 == 0)) { /* the candidates, by the prior */
			while (s->mark[r[a].e])
				a++;
			e = r[a].e;
		} else { /* the nearest not taken */
			do
				y--;
			while (!included(s, y) || s->mark[y]);
			e = y;
		}
		s->mark[e] = 1;
		x->rank[out++] = e;
	}
	memset(s->mark, 0, s->n);
	x->nrank = k;
	free(r);
	return 0;
}

/* Which probe this is: t after exactly v. */
static uint64_t probe_key(const uint32_t *v, size_t n, uint32_t owner)
{
	return ut_hash((const char *)v, n * sizeof(*v)) ^ ((uint64_t)owner << 32) ^ n;
}

int sx_propose(sx *s, uint32_t owner, dx_sched *sched, ut_detect_phase phase, const char *purpose)
{
	sx_probe p;

	memset(&p, 0, sizeof(p));
	p.owner = owner;
	p.phase = phase;
	snprintf(p.purpose, sizeof(p.purpose), "%s", purpose);
	p.sched = *sched;
	memset(sched, 0, sizeof(*sched));
	if (ut_vec_push(&s->probes, p) < 0) {
		ut_vec_free(&p.sched);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* The answer to "does t pass after exactly v?". */
/* SX_WAIT: the same probe gave no answer and holds a test still searched (one searched
 * again after a refuted pass, say): t waits until that one is settled, no stall. */
enum { SX_PASS, SX_FAIL, SX_PLANNED, SX_STALLED, SX_WAIT };

/* out = the tests of v (ascending) that can pass there: those whose settled
 * prerequisites are all in it. A test that would fail for lack of one only hides the
 * answer (the proof rule: t's outcome after a failed test tells nothing), and under the
 * model t after v is t after out. 0 or UT_ENOMEM. */
static int keep_runnable(sx *s, const dx_sched *v, dx_sched *out)
{
	int rc = 0;

	out->n = 0;
	for (size_t i = 0; i < v->n; i++)
		s->mark[v->v[i]] = 1;
	for (size_t i = 0; rc == 0 && i < v->n; i++) {
		const sx_test *y = &s->t[v->v[i]];
		bool ok = true;

		if (s->c->excluded[v->v[i]] != DX_IN)
			ok = false; /* left out: it needs no passing, nothing may need it */
		else if (y->state == SX_DONE || y->state == SX_GRAPH) {
			for (size_t k = 0; k < y->anc.n && ok; k++)
				ok = s->mark[y->anc.v[k]] != 0;
		}
		if (ok)
			rc = push(out, v->v[i]);
		else
			s->mark[v->v[i]] = 0; /* its dependents cannot pass either */
	}
	for (size_t i = 0; i < v->n; i++)
		s->mark[v->v[i]] = 0;
	return rc;
}

/* Whether v holds a test whose search is not over. */
static bool holds_unsettled(const sx *s, const dx_sched *v)
{
	for (size_t i = 0; i < v->n; i++) {
		int st = s->t[v->v[i]].state;

		if (st != SX_DONE && st != SX_GRAPH)
			return true;
	}
	return false;
}

/* Sets *ans from the evidence, or plans the run (SX_PLANNED). A probe planned again without
 * an answer (its run failed as a whole, or an earlier test in it failed against all
 * evidence) is a stall; after a few, SX_STALLED: t is left out rather than guessed about.
 * *run: the run that shows the answer. Returns 0 or an error. */
static int ask(sx *s, uint32_t t, const dx_sched *asked, const char *what, long *run, int *ans)
{
	sx_test *x = &s->t[t];
	dx_sched kept = {0};
	const dx_sched *v = &kept;
	char purpose[200];
	uint64_t h;
	/* In the peel every test t needs is in u, and v is part of u. */
	bool peel = x->state == SX_PEEL && x->pass_run;
	int k = keep_runnable(s, asked, &kept);

	if (k < 0) {
		ut_vec_free(&kept);
		return k;
	}
	k = dx_evidence_known(s->c, t, v->v, v->n, peel ? x->u.v : NULL, x->u.n, run);

	if (k) {
		*ans = k > 0 ? SX_PASS : SX_FAIL;
		ut_vec_free(&kept);
		return 0;
	}
	h = probe_key(v->v, v->n, t);
	if (h == x->last_probe && holds_unsettled(s, v)) {
		*ans = SX_WAIT;
		ut_vec_free(&kept);
		return 0;
	}
	/* once outcomes disagreed, a probe of many tests often loses its answer to an
	 * earlier test's intermittent failure, the more often the more tests it holds (a
	 * probe of 19 tests with 1 flip in 20 loses 2 runs in 3): more of them before t is
	 * left out */
	if (h == x->last_probe &&
	    ++x->stalls > (s->c->unsteady ? SX_STALLS * (3 + (int)(v->n / 4)) : SX_STALLS)) {
		*ans = SX_STALLED;
		ut_vec_free(&kept);
		return 0;
	}
	if (h != x->last_probe)
		x->stalls = 0;
	x->last_probe = h;
	*ans = SX_PLANNED;
	/* the schedule is kept, t appended (its original order: t is later than all) */
	k = push(&kept, t);
	snprintf(purpose, sizeof(purpose), "%s %s", s->g->tests[t].id, what);
	if (k == 0)
		k = sx_propose(s, t, &kept, UT_PHASE_SEARCH, purpose);
	ut_vec_free(&kept);
	return k;
}

static bool contains(const dx_sched *v, uint32_t e)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v->v[mid] < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->n && v->v[lo] == e;
}

static int copy_sched(dx_sched *to, const dx_sched *from)
{
	to->n = 0;
	if (ut_vec_reserve(to, from->n ? from->n : 1) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (from->n)
		memcpy(to->v, from->v, from->n * sizeof(*from->v));
	to->n = from->n;
	return 0;
}

/* Whether an earlier test than t is left out and was not in u (the set t failed after). */
static bool left_out_before(const sx *s, uint32_t t)
{
	const dx_sched *u = &s->t[t].u;

	for (uint32_t k = 0; k < t; k++) {
		if (included(s, k))
			continue;
		size_t i = 0;

		while (i < u->n && u->v[i] != k)
			i++;
		if (i == u->n)
			return true;
	}
	return false;
}

/* A test that fails even after every earlier test, or whose runs do not settle (stalled):
 * left out. Flaky only when two runs of the same schedule disagree: it passed in the
 * original order and now failed after every earlier test with none of them left out
 * since. When tests before it were left out (flaky or failing) and it failed after all
 * the others, it needs one of them: left out with them, and said so (a DokuWiki page's
 * revisions test after its flaky edit test was reported as failing in the original order,
 * where it passed). Anything else (a stall, evidence that contradicts itself across
 * different schedules) is no such proof, and the test is left out as failing. */
static void give_up(sx *s, uint32_t t, bool stalled)
{
	if (!stalled && s->with_original && s->t[t].u.n == t)
		dx_mark_flaky(s->c, t);
	else if (!stalled && s->with_original && left_out_before(s, t))
		dx_mark_needs_left_out(s->c, t);
	else
		dx_mark_failing(s->c, t);
	s->t[t].state = SX_DONE;
}

/* After ask(): whether the step ends here, with *rc what it returns (1 a run is planned,
 * 0 the test was left out, < 0 an error). */
static bool ends(sx *s, uint32_t t, int a, int *rc)
{
	if (*rc < 0)
		return true;
	if (a == SX_PLANNED)
		*rc = 1;
	else if (a == SX_STALLED)
		give_up(s, t, true);
	else if (a == SX_WAIT)
		*rc = 0;
	return a == SX_PLANNED || a == SX_STALLED || a == SX_WAIT;
}

/* u = every earlier included test. */
static int take_all(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	int rc = 0;

	x->u.n = 0;
	for (uint32_t e = 0; rc == 0 && e < t; e++) {
		if (included(s, e))
			rc = push(&x->u, e);
	}
	x->state = SX_PEEL;
	x->searching = false;
	x->pass_run = 0;
	return rc;
}

/* Returns 1 when a run is planned, 0 when t waits or is settled, < 0 on error. */
static int step_gallop(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	dx_sched k = {0};
	char what[64];
	long run = 0;
	int rc = 0, a;

	if (!x->rank && (rc = make_rank(s, t)) < 0)
		return rc;
	for (;;) {
		/* Grow the tries to the target size; wait for a test that is not settled. */
		size_t have = mark_closure(s, x->x.v, x->x.n);
		bool wait = false;

		while (rc == 0 && x->ri < x->nrank && (have < x->target || !x->x.n)) {
			uint32_t e = x->rank[x->ri];
			const sx_test *y = &s->t[e];

			if (y->state != SX_DONE && y->state != SX_GRAPH) {
				wait = true; /* what it needs is not known yet */
				break;
			}
			rc = push(&x->x, e);
			x->ri++;
			have += mark_closure(s, &e, 1);
		}
		if (rc == 0)
			rc = collect(s, t, &k);
		else
			memset(s->mark, 0, s->n);
		if (rc < 0 || wait)
			break;
		if (k.n > SX_GALLOP_MAX * x->nrank || !x->x.n) {
			rc = take_all(s, t);
			break;
		}
		snprintf(what, sizeof(what), "after its %zu likeliest prerequisites", x->x.n);
		rc = ask(s, t, &k, what, &run, &a);
		if (ends(s, t, a, &rc))
			break;
		if (a == SX_PASS) {
			rc = copy_sched(&x->u, &k);
			x->pass_run = run;
			x->state = SX_PEEL;
			x->searching = false;
			break;
		}
		rc = copy_sched(&x->gfail, &k);
		if (rc < 0)
			break;
		if (x->ri >= x->nrank) {
			rc = take_all(s, t);
			break;
		}
		/* Grow by 1, 2, 4, ... tests more: a missing prerequisite near the front of the
		 * order costs little, one far back a logarithmic number of tries. */
		x->target = k.n + x->step;
		x->step *= 2;
	}
	ut_vec_free(&k);
	return rc;
}

/* Drops from u the tests of r (ascending) and every settled test that needs one of them. */
static void drop(sx *s, uint32_t t, const uint32_t *r, size_t nr)
{
	sx_test *x = &s->t[t];
	size_t i, k;

	for (i = 0; i < nr; i++)
		s->mark[r[i]] = 1;
	for (i = k = 0; i < x->u.n; i++) {
		uint32_t y = x->u.v[i];
		const sx_test *ty = &s->t[y];
		bool out = s->mark[y] != 0;

		if (!out && !contains(&x->in, y) &&
		    (ty->state == SX_DONE || ty->state == SX_GRAPH)) {
			for (size_t j = 0; j < ty->anc.n && !out; j++)
				out = s->mark[ty->anc.v[j]] != 0;
		}
		if (!out)
			x->u.v[k++] = y;
	}
	x->u.n = k;
	for (i = 0; i < nr; i++)
		s->mark[r[i]] = 0;
}

/* Bits a probe that fails with chance p tells: its entropy. */
static double bits(double p)
{
	if (p <= 0 || p >= 1)
		return 0;
	return -(p * log2(p) + (1 - p) * log2(1 - p));
}

/* The split of w (ascending, at least 2; the tests of u \ in at and above lo and below
 * hi): the first index of the upper part, which the probe leaves out. The chance the probe
 * fails is the weight of that part (the prior's, mixed with an even split); each side
 * keeps at least a quarter of the tests, so that a wrong ranking costs a few more runs,
 * not one run per test. Among those splits, the one with the fewest expected seconds per
 * bit it tells: a smaller probe costs less, a failure of t costs what t's failures cost
 * (several times a pass on a real application), and a lopsided split tells less. */
static size_t split(sx *s, uint32_t t, const uint32_t *w, size_t n)
{
	const dx_cost *k = &s->c->cost;
	const sx_test *x = &s->t[t];
	double total = 0, acc = 0, pmax = -1e300, best = INFINITY;
	double fail = dx_cost_test(k, t, false), pass = dx_cost_test(k, t, true);
	double kept = dx_cost_overhead(k) + dx_cost_sched(k, x->u.v, x->u.n);
	size_t even = 0;
	size_t j, bj = 0, quarter = (n + 3) / 4;

	for (j = 0; j < n; j++) {
		s->weight[j] = prior(s, t, w[j]);
		pmax = s->weight[j] > pmax ? s->weight[j] : pmax;
	}
	/* A test that another of w needs is the latest needed only when that one is not
	 * needed: less likely. */
	for (j = 0; j < n; j++) {
		const sx_test *y = &s->t[w[j]];

		if (y->state == SX_DONE || y->state == SX_GRAPH)
			for (size_t i = 0; i < y->anc.n; i++)
				s->mark[y->anc.v[i]] = 1;
	}
	for (j = 0; j < n; j++) {
		s->weight[j] = exp((s->weight[j] - pmax) / SX_TEMPERATURE);
		if (s->mark[w[j]])
			s->weight[j] /= 4;
		/* t failed after the gallop's last failing try: something it needs is outside
		 * it, and the latest missing test is there more often than not. Only weight:
		 * the probes' answers decide, so where the monotone model does not hold (a test
		 * of the try breaks t) this costs runs, never an edge (session 18's peel
		 * outside the try took one). Once outcomes disagreed the split stays the one
		 * whose answers the disputes were measured with. */
		if (!s->c->unsteady && x->gfail.n && !contains(&x->gfail, w[j]))
			s->weight[j] *= SX_OUTSIDE;
		total += s->weight[j];
	}
	for (j = 0; j < n; j++) {
		const sx_test *y = &s->t[w[j]];

		if (y->state == SX_DONE || y->state == SX_GRAPH)
			for (size_t i = 0; i < y->anc.n; i++)
				s->mark[y->anc.v[i]] = 0;
	}
	for (j = 0; j < n; j++)
		s->weight[j] = (1 - SX_EVEN) * s->weight[j] / total + SX_EVEN / (double)n;
	/* The split that halves the weight: the most a probe can tell. */
	for (j = n - 1; j > 0; j--) {
		acc += s->weight[j];
		if (acc >= 0.5)
			break;
	}
	even = j < quarter ? quarter : j > n - quarter ? n - quarter : j;
	even = even ? even : 1;
	/* Another only when it saves time per bit: when t's failures cost more than its
	 * passes, a probe less likely to fail. */
	for (j = n - 1, acc = 0; j > 0; j--) {
		double p, score;

		acc += s->weight[j];
		if (j < quarter || j > n - quarter)
			continue;
		p = acc < 1 ? acc : 1;
		score = bits(p) > 0 ? (kept + p * fail + (1 - p) * pass) / bits(p) : INFINITY;
		if (j == even)
			score *= SX_COST_MARGIN;
		if (score < best) {
			best = score;
			bj = j;
		}
	}
	return bj ? bj : even;
}

static int add_found(sx *s, uint32_t t, uint32_t d)
{
	sx_test *x = &s->t[t];
	sx_found f = {d, x->fail_run};
	dx_sched both = {0};
	int rc;

	if (ut_vec_push(&x->found, f) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	mark_closure(s, x->in.v, x->in.n);
	mark_closure(s, &d, 1);
	rc = collect(s, t, &both);
	if (rc == 0)
		rc = copy_sched(&x->in, &both);
	ut_vec_free(&both);
	x->searching = x->top_tried = false;
	x->hi = d; /* what is still missing is earlier: nothing later is left in u \ in */
	return rc;
}

/* Whether the latest test of w (ascending, the tests of u \ in the search is over) needs
 * all the others: then it is the latest missing prerequisite unless t does not need it at
 * all, and one probe without it alone ends the search when t needs it (the failure is its
 * proof, and everything else of w comes with it). Asked once per search, so that a chain
 * of such tests t does not need costs one run more, not one run per test. */
static bool top_covers(const sx *s, const uint32_t *w, size_t n)
{
	const sx_test *y = &s->t[w[n - 1]];

	if (y->state != SX_DONE && y->state != SX_GRAPH)
		return false;
	for (size_t i = 0; i + 1 < n; i++) {
		if (!contains(&y->anc, w[i]))
			return false;
	}
	return true;
}

/* One step of the binary search for the latest missing prerequisite, in v[lo..hi) (v:
 * u \ in, ascending; at least 2 tests there): t after u without v[j..hi) for a split j.
 * Returns true when the step ends here, with *rc what step_peel returns (1 a run is
 * planned, 0 t was left out, < 0 an error); false when the search goes on. */
static bool bisect(sx *s, uint32_t t, const dx_sched *v, size_t lo, size_t hi, int *rc)
{
	sx_test *x = &s->t[t];
	dx_sched q = {0};
	char what[96];
	long run = 0;
	size_t j;
	int a = SX_PLANNED;

	/* The latest test alone, once per search, also when it holds a good share of the
	 * split's weight (the nearest test, or the one the names and values point at): the
	 * quarter a split keeps on each side would otherwise take two or three probes to
	 * find it, one when it is the test t needs. */
	j = lo + split(s, t, v->v + lo, hi - lo);
	if (!x->top_tried && (top_covers(s, v->v + lo, hi - lo) ||
			      (!s->c->unsteady && s->weight[hi - lo - 1] >= SX_TOP_ALONE))) {
		x->top_tried = true;
		j = hi - 1;
	}
	/* t after u without v[j..hi) (nothing of v at or above hi is left in u) */
	for (size_t i = 0; *rc == 0 && i < x->u.n; i++) {
		uint32_t y = x->u.v[i];

		if (y < v->v[j] || y >= x->hi || contains(&x->in, y))
			*rc = push(&q, y);
	}
	if (*rc == 0) {
		snprintf(what, sizeof(what), "without %zu of the %zu tests it may need", hi - j,
			 v->n);
		*rc = ask(s, t, &q, what, &run, &a);
	}
	ut_vec_free(&q);
	if (ends(s, t, a, rc))
		return true;
	if (a == SX_PASS) {
		drop(s, t, v->v + j, hi - j);
		x->pass_run = run;
		x->hi = v->v[j];
	} else {
		x->lo = v->v[j];
		x->fail_run = run;
	}
	return false;
}

/* out = the tops of v (u \ in, ascending): its tests that no other test of v needs. Each
 * is direct when t needs it (nothing else t may need needs it, and `in` is closed). false
 * when a test of v is not settled (what it needs is not known): out is then not set. */
static bool tops(sx *s, const dx_sched *v, dx_sched *out, int *rc)
{
	out->n = 0;
	for (size_t i = 0; i < v->n; i++) {
		int st = s->t[v->v[i]].state;

		if (st != SX_DONE && st != SX_GRAPH)
			return false;
	}
	for (size_t i = 0; i < v->n; i++) {
		const sx_test *y = &s->t[v->v[i]];

		for (size_t k = 0; k < y->anc.n; k++)
			s->mark[y->anc.v[k]] = 1;
	}
	for (size_t i = 0; *rc == 0 && i < v->n; i++) {
		if (!s->mark[v->v[i]])
			*rc = push(out, v->v[i]);
	}
	for (size_t i = 0; i < v->n; i++) {
		const sx_test *y = &s->t[v->v[i]];

		for (size_t k = 0; k < y->anc.n; k++)
			s->mark[y->anc.v[k]] = 0;
	}
	return *rc == 0;
}

/* Whether each top of v is left out alone, its question asked beside the others (see
 * one_by_one), rather than by the binary search: when there are at most SX_BY_ONE tops.
 * A set t passed after that holds little besides what it needs (a right guess of the
 * gallop) has as many tops as direct prerequisites, each of which needs a failing run of
 * its own anyway; with more tops, most of them are tests t does not need, and one probe of
 * the binary search drops several of them at once. */
static bool by_one_pays(sx *s, const sx_test *x, const dx_sched *v, int *rc)
{
	dx_sched m = {0};
	/* once outcomes have disagreed, a pass without a top would drop it on one run that
	 * may have been intermittent: the binary search, whose answers the disputes
	 * confirm, takes over. Nor after a round whose tops t all passed without (until
	 * the next prerequisite is found): the tests left are then most likely a chain t
	 * does not need, each drop showing the next top (Collabtive's RemoveTasklist left
	 * out eight tops one after another), which a probe of the binary search drops
	 * several at a time */
	bool pays = !s->c->unsteady && !x->by_one_dry && v->n >= 2 && tops(s, v, &m, rc) &&
		    m.n && m.n <= SX_BY_ONE;

	/* nor when a top is in the gallop's last failing try: t failed after it, so what is
	 * missing is more likely outside it, and such a top is mostly one t does not need
	 * (on the six real shapes 28 of 37 were), a run that drops one test: the binary
	 * search, which weighs the tests outside the try more (split) */
	for (size_t i = 0; pays && i < m.n; i++)
		pays = !contains(&x->gfail, m.v[i]);

	ut_vec_free(&m);
	return pays;
}

/* The peel's questions about the tops of v (u \ in), in one round: t after u without one
 * of them. A failure proves that top a direct prerequisite (everything else t may need was
 * there); a pass drops it from u. The questions do not depend on each other's answers, so
 * they go to the workers side by side. Returns true when the step ends here, with *rc
 * what step_peel returns (1 runs are planned, 0 t was left out, < 0 an error). */
static bool one_by_one(sx *s, uint32_t t, const dx_sched *v, int *rc)
{
	sx_test *x = &s->t[t];
	dx_sched tv = {0}, q = {0};
	const dx_sched *m = &tv;
	bool ok = tops(s, v, &tv, rc);
	long *runs = calloc(tv.n ? tv.n : 1, sizeof(*runs));
	int *ans = calloc(tv.n ? tv.n : 1, sizeof(*ans));
	uint64_t key = 0, last = x->last_probe;
	char what[96];

	if (*rc == 0 && (!runs || !ans))
		*rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (!ok) /* a test of v is searched again: the binary search takes over */
		tv.n = 0;
	for (size_t i = 0; *rc == 0 && i < m->n; i++) {
		q.n = 0;
		for (size_t k = 0; *rc == 0 && k < x->u.n; k++) {
			if (x->u.v[k] != m->v[i])
				*rc = push(&q, x->u.v[k]);
		}
		snprintf(what, sizeof(what), "without one top test of the %zu it may need", x->u.n);
		x->last_probe = 0; /* the round as a whole stalls, below */
		if (*rc == 0)
			*rc = ask(s, t, &q, what, &runs[i], &ans[i]);
		key ^= ans[i] == SX_PLANNED ? x->last_probe : 0;
	}
	ut_vec_free(&q);
	x->last_probe = last;
	if (*rc == 0 && key) { /* runs planned: the answers come in the next round */
		x->stalls = key == last ? x->stalls + 1 : 0;
		x->last_probe = key;
		if (x->stalls > SX_STALLS)
			give_up(s, t, true);
		*rc = x->stalls > SX_STALLS ? 0 : 1;
	}
	if (*rc == 0 && !key && m->n)
		x->by_one_dry = true;
	for (size_t i = 0; *rc == 0 && !key && i < m->n; i++) {
		if (ans[i] == SX_PASS) {
			drop(s, t, &m->v[i], 1);
			x->pass_run = runs[i];
		} else {
			x->fail_run = runs[i];
			x->by_one_dry = false;
			*rc = add_found(s, t, m->v[i]);
		}
	}
	ut_vec_free(&tv);
	free(runs);
	free(ans);
	/* nothing of u \ in is known to be unneeded now: the next search spans all of it */
	x->by_one = x->searching = false;
	x->lo = 0;
	x->hi = t;
	return *rc != 0 || key;
}

/* v = u \ in, ascending. */
static int rest(const sx_test *x, dx_sched *v)
{
	int rc = 0;

	v->n = 0;
	for (size_t i = 0; rc == 0 && i < x->u.n; i++) {
		if (!contains(&x->in, x->u.v[i]))
			rc = push(v, x->u.v[i]);
	}
	return rc;
}

/* t's search is over: its prerequisites are `in`. */
static void settle(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];

	ut_vec_free(&x->anc);
	x->anc = x->in;
	memset(&x->in, 0, sizeof(x->in));
	for (size_t i = 0; i < x->found.n; i++)
		s->dependents[x->found.v[i].test]++;
}

/* The peel found no test missing from what t passed after (u) that t needs, yet t fails
 * after what it needs so far: the pass after u may have been intermittent. Runs it again
 * once, so that a failure there disputes it (dispute.c) and t is searched again. Returns
 * 1 when a run is planned, 0 when it was tried already (t is then left out). */
static int confirm_pass(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	dx_sched q = {0};
	char purpose[200];
	int rc;

	const dx_rec *e = dx_evidence_find(s->c, t, x->u.v, x->u.n, true);

	/* confirmed (or asked often enough): the runs contradict each other for good */
	if ((e && e->hits >= 2) || x->confirming >= SX_STALLS)
		return 0;
	x->confirming++;
	rc = copy_sched(&q, &x->u);
	if (rc == 0)
		rc = push(&q, t);
	snprintf(purpose, sizeof(purpose), "%s again after the %zu tests it passed after",
		 s->g->tests[t].id, x->u.n);
	if (rc == 0)
		rc = sx_propose(s, t, &q, UT_PHASE_SEARCH, purpose);
	ut_vec_free(&q);
	return rc < 0 ? rc : 1;
}

static int step_peel(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	dx_sched v = {0};
	long run = 0;
	int rc = 0, a;

	if (!x->pass_run) { /* u is every earlier test: known to pass in the original order */
		rc = ask(s, t, &x->u, "after every earlier test", &run, &a);
		if (rc < 0)
			return rc;
		if (a != SX_PASS) {
			if (a != SX_PLANNED && a != SX_WAIT)
				give_up(s, t, a == SX_STALLED);
			return a == SX_PLANNED;
		}
		x->pass_run = run;
		x->hi = t;
	}
	for (;;) {
		size_t lo, hi;

		rc = rest(x, &v);
		if (rc < 0)
			break;
		if (!v.n) { /* u = in */
			x->state = SX_DONE;
			break;
		}
		if (!x->searching) {
			rc = ask(s, t, &x->in, x->in.n ? "after what it is known to need" : "alone",
				 &run, &a);
			if (ends(s, t, a, &rc))
				break;
			if (a == SX_PASS) {
				rc = copy_sched(&x->u, &x->in);
				x->pass_run = run;
				x->state = SX_DONE;
				break;
			}
			x->searching = true;
			x->fail_run = run;
			x->lo = 0;
			if (!x->hi)
				x->hi = t;
			x->by_one = by_one_pays(s, x, &v, &rc);
		}
		if (x->by_one) {
			if (one_by_one(s, t, &v, &rc))
				break;
			continue;
		}
		/* The latest missing prerequisite is in v, at or above lo and below hi. */
		for (lo = 0; lo < v.n && v.v[lo] < x->lo; lo++)
			;
		for (hi = lo; hi < v.n && v.v[hi] < x->hi; hi++)
			;
		if (hi == lo) { /* the evidence contradicts itself */
			rc = confirm_pass(s, t);
			if (rc == 0)
				give_up(s, t, true);
			rc = rc > 0 ? 0 : rc;
			break;
		}
		if (hi - lo == 1) {
			uint32_t d = v.v[lo];

			if (s->t[d].state != SX_DONE && s->t[d].state != SX_GRAPH)
				break; /* wait until it is settled */
			rc = add_found(s, t, d);
			if (rc < 0)
				break;
			continue;
		}
		if (bisect(s, t, &v, lo, hi, &rc))
			break;
	}
	ut_vec_free(&v);
	if (rc >= 0 && x->state == SX_DONE && s->c->excluded[t] == DX_IN)
		settle(s, t);
	return rc;
}

/* Moves t's search on as far as the evidence allows: 1 a run is planned, 0 it waits or is
 * settled, < 0 an error. */
static int step(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	long run = 0;
	int a;

	if (!included(s, t)) {
		x->state = SX_DONE;
		return 0;
	}
	if (x->state == SX_START) {
		dx_sched none = {0};
		int rc = ask(s, t, &none, "alone", &run, &a);

		if (ends(s, t, a, &rc))
			return rc;
		if (a == SX_PASS) {
			x->pass_run = run;
			x->state = SX_DONE;
			ut_vec_free(&x->anc);
			return 0;
		}
		x->state = SX_GALLOP;
		x->target = 1;
		x->step = 1;
	}
	if (x->state == SX_GALLOP) {
		a = step_gallop(s, t);
		if (a != 0 || x->state != SX_PEEL)
			return a;
	}
	if (x->state == SX_PEEL)
		return step_peel(s, t);
	if (x->state == SX_RESCUE)
		return sx_rescue_step(s, t);
	return 0;
}

/* Whether probe q also answers p: it runs p's owner after exactly the same tests (a longer
 * probe of a dependent often holds its prerequisite's question). */
static bool answers(const sx_probe *q, const sx_probe *p)
{
	size_t lo = 0, hi = q->sched.n, pos = p->sched.n - 1;

	if (q->sched.n < p->sched.n)
		return false;
	while (lo < hi) { /* p's owner in q, ascending */
		size_t mid = (lo + hi) / 2;

		if (q->sched.v[mid] < p->owner)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo != pos || q->sched.v[lo] != p->owner)
		return false;
	return !memcmp(q->sched.v, p->sched.v, pos * sizeof(*p->sched.v));
}

static int by_length_desc(const void *a, const void *b)
{
	const sx_probe *x = a, *y = b;

	if (x->sched.n != y->sched.n)
		return x->sched.n > y->sched.n ? -1 : 1;
	return x->owner < y->owner ? -1 : x->owner > y->owner;
}

/* Whether h (a run, ascending) holds, of the tests of u (ascending), exactly those of set. */
static bool same_within(const dx_sched *h, const dx_sched *u, const uint32_t *set, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (!contains(u, h->v[i]))
			continue;
		if (k == n || set[k] != h->v[i])
			return false;
		k++;
	}
	return k == n;
}

/* A run of this batch that answers p when p's owner runs at its end: every test the owner
 * may need (its u, in the peel) that the run holds is one p runs it after, and p's all
 * are there. Under the search's model the owner's outcome is then p's answer, and one run
 * tells it for several tests (siblings that need the same tests are searched side by
 * side). Only search runs take others: a verification run must end with its own test.
 * Returns the index in kept, or m when none. */
static size_t host_of(const sx *s, const size_t *kept, size_t m, const sx_probe *p)
{
	const sx_test *x = &s->t[p->owner];

	/* t after `in` and at most one test more may end its search, its run then being its
	 * schedule, which the verification wants to have run whole: those run on their own. */
	if (p->phase != UT_PHASE_SEARCH || x->state != SX_PEEL || !x->pass_run ||
	    p->sched.n - 1 <= x->in.n + 1)
		return m;
	for (size_t j = 0; j < m; j++) {
		const sx_probe *h = &s->probes.v[kept[j]];

		if (h->phase == UT_PHASE_SEARCH && h->sched.v[h->sched.n - 1] < p->owner &&
		    same_within(&h->sched, &x->u, p->sched.v, p->sched.n - 1))
			return j;
	}
	return m;
}

unsigned sx_hosted_confirmations(const sx *s, uint32_t t, uint32_t d, const dx_sched *without)
{
	uint64_t h = probe_key(without->v, without->n, t);

	for (size_t i = 0; i < s->hconf.n; i++) {
		const sx_hconf *c = &s->hconf.v[i];

		if (c->t == t && c->d == d && c->sched == h)
			return c->hits;
	}
	return 0;
}

/* A confirmation the search asks at the end of one of its runs: t without d. */
typedef struct {
	uint32_t t, d;
	size_t job;    /* the run (index in kept) */
	dx_sched less; /* t's schedule less d */
} sx_ride;

typedef UT_VEC(sx_ride) sx_rides;

/* Whether t -> d (d found directly, the failure that proved it in the store) still needs
 * confirming failures (verify.c's edge_need while outcomes agree); less = t's schedule
 * without d. */
static bool wants_confirming(sx *s, uint32_t t, uint32_t d, dx_sched *less, int *rc)
{
	const sx_test *x = &s->t[t];
	unsigned seen;

	less->n = 0;
	for (size_t i = 0; *rc == 0 && i < x->anc.n; i++) {
		if (x->anc.v[i] != d)
			*rc = push(less, x->anc.v[i]);
	}
	if (*rc < 0)
		return false;
	seen = dx_evidence_failures(s->c, t, less->v, less->n, d, false) +
	       sx_hosted_confirmations(s, t, d, less);
	return seen < (unsigned)dx_need(s->c);
}

/* The confirmations that end search runs of this batch: each settled test's direct
 * prerequisite whose edge wants another failure of it without it (the verification would
 * run its schedule less d for that) goes at the end of a run that holds that schedule
 * less d, not d, and only tests before t: under the search's model a failure after more
 * tests answers every question about fewer (verify.c's host_confirmations), at the cost
 * of one execution instead of a schedule. After the batch's other owners, one a run, so
 * that no answer of the search runs after a test expected to fail. Only while outcomes
 * agree. */
static int plan_rides(sx *s, const size_t *kept, const size_t *base, size_t m, sx_rides *rides)
{
	unsigned char *taken = calloc(m ? m : 1, 1);
	dx_sched less = {0};
	int rc = taken ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	for (uint32_t t = 0; rc == 0 && !s->c->unsteady && t < s->n; t++) {
		const sx_test *x = &s->t[t];

		if (x->state != SX_DONE || !included(s, t))
			continue;
		for (size_t f = 0; rc == 0 && f < x->found.n; f++) {
			uint32_t d = x->found.v[f].test;
			size_t best = m;

			if (!wants_confirming(s, t, d, &less, &rc))
				continue;
			for (size_t j = 0; j < m; j++) {
				const sx_probe *h = &s->probes.v[kept[j]];

				/* the schedule less d among the tests the run's owner runs
				 * after (they pass there, their prerequisites with them;
				 * the owner and the others at its end may fail), and at most
				 * SX_RIDE_MORE tests more: each is one that may break t where
				 * the monotone model does not hold, and the runs of the
				 * verification that confirmations end hold one or two */
				if (taken[j] || h->phase != UT_PHASE_SEARCH ||
				    h->sched.n > less.n + SX_RIDE_MORE ||
				    h->sched.v[h->sched.n - 1] >= t || contains(&h->sched, d) ||
				    !dx_subset(less.v, less.n, h->sched.v, base[j] - 1))
					continue;
				if (best == m || h->sched.n < s->probes.v[kept[best]].sched.n)
					best = j;
			}
			if (best == m)
				continue;
			taken[best] = 1;
			{
				sx_ride r = {t, d, best, {0}};

				rc = copy_sched(&r.less, &less);
				if (rc == 0 && ut_vec_push(rides, r) < 0) {
					ut_vec_free(&r.less);
					rc = ut_error_set(UT_ENOMEM, "out of memory");
				}
			}
		}
	}
	ut_vec_free(&less);
	free(taken);
	return rc;
}

/* After the batch: each ride whose t failed with every test of its schedule less d passing
 * before it confirms t -> d once more. */
static int count_rides(sx *s, const dx_job *jobs, const dx_result *res, sx_rides *rides)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < rides->n; i++) {
		const sx_ride *r = &rides->v[i];
		const dx_job *job = &jobs[r->job];
		const dx_result *o = &res[r->job];
		uint64_t h = probe_key(r->less.v, r->less.n, r->t);
		size_t k = 0, at = job->n - 1;
		bool ok = !o->error && job->sched[at] == r->t && o->outcomes[at] == UT_OUT_FAIL;
		sx_hconf *c = NULL;

		for (size_t j = 0; ok && j < at; j++) { /* the schedule less d, all passing */
			if (k < r->less.n && job->sched[j] == r->less.v[k]) {
				ok = o->outcomes[j] == UT_OUT_PASS;
				k++;
			}
		}
		if (!ok || k != r->less.n)
			continue;
		for (size_t j = 0; j < s->hconf.n && !c; j++) {
			if (s->hconf.v[j].t == r->t && s->hconf.v[j].d == r->d &&
			    s->hconf.v[j].sched == h)
				c = &s->hconf.v[j];
		}
		if (c)
			c->hits++;
		else if (ut_vec_push(&s->hconf, ((sx_hconf){r->t, r->d, h, 1})) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	return rc;
}

int sx_run_probes(sx *s)
{
	dx_job *jobs = calloc(s->probes.n ? s->probes.n : 1, sizeof(*jobs));
	dx_result *res = calloc(s->probes.n ? s->probes.n : 1, sizeof(*res));
	size_t *kept = calloc(s->probes.n ? s->probes.n : 1, sizeof(*kept));
	size_t *base = calloc(s->probes.n ? s->probes.n : 1, sizeof(*base));
	sx_rides rides = {0};
	size_t m = 0;
	int rc, ran;

	if (!jobs || !res || !kept || !base) {
		free(jobs);
		free(res);
		free(kept);
		free(base);
		probes_clear(s);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	qsort(s->probes.v, s->probes.n, sizeof(*s->probes.v), by_length_desc);
	for (size_t i = 0; i < s->probes.n; i++) {
		const sx_probe *p = &s->probes.v[i];
		bool dup = false;

		size_t h;

		for (size_t j = 0; j < m && !dup; j++)
			dup = answers(&s->probes.v[kept[j]], p);
		if (dup)
			continue;
		h = host_of(s, kept, m, p);
		if (h < m && push(&s->probes.v[kept[h]].sched, p->owner) == 0)
			continue;
		base[m] = p->sched.n;
		kept[m++] = i;
	}
	rc = plan_rides(s, kept, base, m, &rides);
	for (size_t i = 0; rc == 0 && i < rides.n; i++) {
		sx_probe *h = &s->probes.v[kept[rides.v[i].job]];
		size_t len = strlen(h->purpose);

		rc = push(&h->sched, rides.v[i].t);
		snprintf(h->purpose + len, sizeof(h->purpose) - len, ", then confirm that %s needs %s",
			 s->g->tests[rides.v[i].t].id, s->g->tests[rides.v[i].d].id);
	}
	for (size_t j = 0; j < m; j++) { /* the owners the run took each end a schedule */
		const sx_probe *p = &s->probes.v[kept[j]];

		jobs[j] = (dx_job){p->sched.v, p->sched.n, p->purpose, p->phase,
				   p->sched.n - base[j] + 1};
	}
	ran = rc == 0 ? dx_run_batch(s->c, jobs, m, res) : rc; /* the store learns every run */
	rc = ran == 0 ? count_rides(s, jobs, res, &rides) : ran;
	for (size_t i = 0; i < rides.n; i++)
		ut_vec_free(&rides.v[i].less);
	ut_vec_free(&rides);
	dx_results_free(res, ran < 0 ? 0 : m);
	free(jobs);
	free(kept);
	free(base);
	probes_clear(s);
	return rc;
}

/* The edges of a searched test: its direct prerequisites manifest (added when the
 * candidates missed them), every other edge false, each with the runs that show it. */
static int write_edges(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	int rc = 0;

	if (x->pass_run > 0)
		s->g->tests[t].pass_run = x->pass_run;
	memset(s->mark, 0, s->n);
	for (size_t i = 0; i < x->anc.n; i++)
		s->mark[x->anc.v[i]] = 1; /* needed */
	for (size_t i = 0; i < x->found.n; i++)
		s->mark[x->found.v[i].test] = 2; /* needed directly */
	for (size_t i = 0; rc == 0 && i < s->g->edges.n; i++) {
		ut_edge *e = &s->g->edges.v[i];

		if (e->dependent != t || s->mark[e->dependee] == 2)
			continue;
		if (e->status == UT_EDGE_FALSE && !s->mark[e->dependee])
			continue;
		if (e->status == UT_EDGE_CANDIDATE && e->filtered_by && !s->mark[e->dependee])
			continue; /* the filter was right */
		if (e->status != UT_EDGE_FALSE)
			s->c->stats->removed++;
		e->status = UT_EDGE_FALSE;
		e->reason = s->mark[e->dependee] ? "not directly: it needs a test that needs it"
						 : "the dependent passed without the dependee";
		if (x->pass_run > 0)
			rc = ut_graph_add_evidence(e, x->pass_run);
	}
	for (size_t i = 0; rc == 0 && i < x->found.n; i++) {
		ut_edge *e = ut_graph_find(s->g, t, x->found.v[i].test);

		if (!e) {
			rc = ut_graph_add(s->g, t, x->found.v[i].test, UT_ORIGIN_RECOVERED, &e);
			if (rc < 0)
				break;
			s->c->stats->recovered++;
		} else if (e->filtered_by) {
			e->origin = UT_ORIGIN_RECOVERED; /* the filter was wrong */
			e->filtered_by = NULL;
			s->c->stats->recovered++;
		} else if (e->status == UT_EDGE_FALSE) {
			e->reopened = true;
		}
		e->status = UT_EDGE_MANIFEST;
		e->reason = "fails without the dependee, passes with it";
		if (x->found.v[i].run > 0)
			rc = ut_graph_add_evidence(e, x->found.v[i].run);
		if (rc == 0 && x->pass_run > 0 && x->pass_run != x->found.v[i].run)
			rc = ut_graph_add_evidence(e, x->pass_run);
	}
	memset(s->mark, 0, s->n);
	return rc;
}

/* A test whose search was decided on a pass that a dispute refuted since (dispute.c), or
 * whose prerequisites runs showed it failing after since, is searched again: the
 * prerequisites it settled on may lack one. */
static void reopen_refuted(sx *s, unsigned char *searched)
{
	for (uint32_t t = 0; t < s->n; t++) {
		sx_test *x = &s->t[t];

		if (!included(s, t) || x->state == SX_START || x->state == SX_GRAPH ||
		    (!dx_refuted(s->c, x->pass_run) && !schedule_fails(s, t)))
			continue;
		sx_reopen(s, t);
		searched[t] = 1;
		s->c->stats->searched_again++;
	}
}

int sx_search(sx *s)
{
	unsigned char *searched = calloc(s->n ? s->n : 1, 1);
	size_t rounds;
	int rc = 0;

	if (!searched)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (uint32_t t = 0; t < s->n; t++) {
		searched[t] = s->t[t].state != SX_GRAPH && s->t[t].state != SX_DONE;
		s->ncand[t] = 0;
	}
	for (size_t i = 0; i < s->g->edges.n; i++) {
		const ut_edge *e = &s->g->edges.v[i];

		s->ncand[e->dependent] += ut_edge_active(e) && included(s, e->dependee);
	}

	s->c->phase = UT_PHASE_SEARCH;
	/* Each round moves every test on as far as the evidence allows and runs what they
	 * need next as one batch. The earliest unsettled test never waits, so every round
	 * plans a run until all are settled; the cap only guards against a runner whose
	 * outcomes change with more than the tests before a test. */
	for (rounds = 0; rc == 0; rounds++) {
		size_t planned = 0, open = 0;

		reopen_refuted(s, searched);
		rc = sx_rescue_begin(s, searched);
		for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
			int st = s->t[t].state;

			if (st == SX_GRAPH || st == SX_DONE)
				continue;
			if (rounds > 8 * s->n + 64) {
				give_up(s, t, true);
				continue;
			}
			rc = step(s, t);
			planned += rc > 0;
			rc = rc > 0 ? 0 : rc;
			open += s->t[t].state != SX_DONE;
		}
		if (rc < 0 || !planned) {
			for (uint32_t t = 0; rc == 0 && open && t < s->n; t++) {
				if (s->t[t].state != SX_DONE && s->t[t].state != SX_GRAPH)
					give_up(s, t, true); /* waits on nothing that will come */
			}
			break;
		}
		rc = sx_run_probes(s);
	}
	if (rc == 0)
		rc = sx_rescue_keep(s);
	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		if (searched[t] && included(s, t))
			rc = write_edges(s, t);
	}
	free(searched);
	return rc;
}
