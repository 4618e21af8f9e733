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
 * 3. Peel (peel.c): t runs after `in` alone; if it fails, the latest test of A(t) outside `in` is
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
 * Tests are searched together, one run each per batch (batch.c; on as many workers as
 * there are; in the peel, a test whose question a run of another answers runs at that
 * run's end, and while outcomes agree, a settled test's edge that wants another failure
 * ends a search run that holds its schedule less the dependee);
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

#define SX_GALLOP_MAX 0.8  /* tries past this share of the earlier tests: take them all */

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

void sx_probes_clear(sx *s)
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
	sx_probes_clear(s);
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

int sx_push(dx_sched *v, uint32_t x)
{
	return ut_vec_push(v, x) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* out = the marked tests below `below`, ascending; clears the marks. */
int sx_collect(sx *s, uint32_t below, dx_sched *out)
{
	int rc = 0;

	out->n = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->mark[i] && i < below && rc == 0)
			rc = sx_push(out, i);
		s->mark[i] = 0;
	}
	return rc;
}

/* Marks v and everything the settled tests of v need; returns how many were not marked.
 * Not a closure over the graph: a settled test's schedule is its anc (from the graph by
 * sx_graph_closures, or found by the search, whose edges are written only at the end). */
size_t sx_mark_closure(sx *s, const uint32_t *v, size_t n)
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
double sx_prior(sx *s, uint32_t t, uint32_t e)
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
		earlier += sx_included(s, e);
	cands = s->ncand[t];
	/* A name without nouns and no candidates: the prior knows nothing of t, nearest first. */
	blind = !cands && !s->g->tests[t].nnouns;
	x->cand_weight = cands ? 1.0 + log((double)earlier / (double)cands) : 1.0;
	for (uint32_t e = 0; e < t; e++) {
		if (sx_included(s, e))
			r[k++] = (sx_ranked){sx_prior(s, t, e), e};
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
			x->target += sx_mark_closure(s, &r[i].e, 1);
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
			while (!sx_included(s, y) || s->mark[y]);
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
uint64_t sx_probe_key(const uint32_t *v, size_t n, uint32_t owner)
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
			rc = sx_push(out, v->v[i]);
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
int sx_ask(sx *s, uint32_t t, const dx_sched *asked, const char *what, long *run, int *ans)
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
	h = sx_probe_key(v->v, v->n, t);
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
	k = sx_push(&kept, t);
	snprintf(purpose, sizeof(purpose), "%s %s", s->g->tests[t].id, what);
	if (k == 0)
		k = sx_propose(s, t, &kept, UT_PHASE_SEARCH, purpose);
	ut_vec_free(&kept);
	return k;
}

bool sx_contains(const dx_sched *v, uint32_t e)
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

int sx_copy_sched(dx_sched *to, const dx_sched *from)
{
	to->n = 0;
	if (ut_vec_reserve(to, from->n ? from->n : 1) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (from->n)
		memcpy(to->v, from->v, from->n * sizeof(*from->v));
	to->n = from->n;
	return 0;
}

/* A test that fails even after every earlier test, or whose runs do not settle (stalled):
 * left out. Flaky only when two runs of the same schedule disagree: it passed in the
 * original order and a run showed it failing after every earlier test, all of them
 * passing (the evidence decides, not u: u may hold a test left out since, which the run
 * then did not hold). When tests before it were left out (flaky or failing) and it
 * passed in the original order, it failed after the others only: it most likely needs
 * one of them, is left out with them, and is said to be (a DokuWiki page's revisions test
 * after its flaky edit test was reported as failing in the original order, where it
 * passed). Anything else (a stall, evidence that contradicts itself across different
 * schedules) is no such proof, and the test is left out as failing. */
void sx_give_up(sx *s, uint32_t t, bool stalled)
{
	bool before = false; /* an earlier test is left out */

	for (uint32_t k = 0; k < t && !before; k++)
		before = !sx_included(s, k);
	if (!stalled && s->with_original && dx_evidence_failed_after_all(s->c, t))
		dx_mark_flaky(s->c, t);
	else if (!stalled && s->with_original && before)
		dx_mark_needs_left_out(s->c, t);
	else
		dx_mark_failing(s->c, t);
	s->t[t].state = SX_DONE;
}

/* After sx_ask(): whether the step ends here, with *rc what it returns (1 a run is planned,
 * 0 the test was left out, < 0 an error). */
bool sx_ends(sx *s, uint32_t t, int a, int *rc)
{
	if (*rc < 0)
		return true;
	if (a == SX_PLANNED)
		*rc = 1;
	else if (a == SX_STALLED)
		sx_give_up(s, t, true);
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
		if (sx_included(s, e))
			rc = sx_push(&x->u, e);
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
		size_t have = sx_mark_closure(s, x->x.v, x->x.n);
		bool wait = false;

		while (rc == 0 && x->ri < x->nrank && (have < x->target || !x->x.n)) {
			uint32_t e = x->rank[x->ri];
			const sx_test *y = &s->t[e];

			if (y->state != SX_DONE && y->state != SX_GRAPH) {
				wait = true; /* what it needs is not known yet */
				break;
			}
			rc = sx_push(&x->x, e);
			x->ri++;
			have += sx_mark_closure(s, &e, 1);
		}
		if (rc == 0)
			rc = sx_collect(s, t, &k);
		else
			memset(s->mark, 0, s->n);
		if (rc < 0 || wait)
			break;
		if (k.n > SX_GALLOP_MAX * x->nrank || !x->x.n) {
			rc = take_all(s, t);
			break;
		}
		snprintf(what, sizeof(what), "after its %zu likeliest prerequisites", x->x.n);
		rc = sx_ask(s, t, &k, what, &run, &a);
		if (sx_ends(s, t, a, &rc))
			break;
		if (a == SX_PASS) {
			rc = sx_copy_sched(&x->u, &k);
			x->pass_run = run;
			x->state = SX_PEEL;
			x->searching = false;
			break;
		}
		rc = sx_copy_sched(&x->gfail, &k);
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

/* Moves t's search on as far as the evidence allows: 1 a run is planned, 0 it waits or is
 * settled, < 0 an error. */
static int step(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	long run = 0;
	int a;

	if (!sx_included(s, t)) {
		x->state = SX_DONE;
		return 0;
	}
	if (x->state == SX_START) {
		dx_sched none = {0};
		int rc = sx_ask(s, t, &none, "alone", &run, &a);

		if (sx_ends(s, t, a, &rc))
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
		return sx_step_peel(s, t);
	if (x->state == SX_RESCUE)
		return sx_rescue_step(s, t);
	return 0;
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

		if (!sx_included(s, t) || x->state == SX_START || x->state == SX_GRAPH ||
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

		s->ncand[e->dependent] += ut_edge_active(e) && sx_included(s, e->dependee);
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
				sx_give_up(s, t, true);
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
					sx_give_up(s, t, true); /* waits on nothing that will come */
			}
			break;
		}
		rc = sx_run_probes(s);
	}
	if (rc == 0)
		rc = sx_rescue_keep(s);
	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		if (searched[t] && sx_included(s, t))
			rc = write_edges(s, t);
	}
	free(searched);
	return rc;
}
