/* peel.c: step 3 of the search (search.c), the peel. t runs after `in`, what it is proven
 * to need; while that fails, the latest test of A(t) outside `in` is found in u \ in by a
 * binary search (bisect, split: probes weighed by the ranking, half and half with an even
 * split, priced in seconds from the reported durations; tests outside the gallop's last
 * failing try weigh more, and the latest test is left out alone first when it holds a
 * fifth of the weight), or, when u \ in has at most SX_BY_ONE tops, by leaving out each
 * top alone in one round (one_by_one). The test found is needed directly and the failure
 * without it is its proof: it joins `in` with what it needs (add_found), and the peel
 * starts over. When t passes after exactly `in`, A(t) = in and t is settled. */
#include "detect/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define SX_TEMPERATURE 0.5  /* weights of the binary search: exp(prior / T) */
#define SX_EVEN 0.5	    /* and this share of an even split */
#define SX_COST_MARGIN 0.95 /* a split other than the even one saves this share of time */
#define SX_OUTSIDE 16.0	    /* the split's weight of a test outside the gallop's failing try */
#define SX_TOP_ALONE 0.2    /* the latest test left out alone when this much of the weight */
#define SX_BY_ONE 2	    /* the peel leaves out each top alone when there are this few */

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

		if (!out && !sx_contains(&x->in, y) &&
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
		s->weight[j] = sx_prior(s, t, w[j]);
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
		if (!s->c->unsteady && x->gfail.n && !sx_contains(&x->gfail, w[j]))
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

	x->by_one_dry = false; /* the next prerequisite is found */
	if (ut_vec_push(&x->found, f) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	sx_mark_closure(s, x->in.v, x->in.n);
	sx_mark_closure(s, &d, 1);
	rc = sx_collect(s, t, &both);
	if (rc == 0)
		rc = sx_copy_sched(&x->in, &both);
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
		if (!sx_contains(&y->anc, w[i]))
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

		if (y < v->v[j] || y >= x->hi || sx_contains(&x->in, y))
			*rc = sx_push(&q, y);
	}
	if (*rc == 0) {
		snprintf(what, sizeof(what), "without %zu of the %zu tests it may need", hi - j,
			 v->n);
		*rc = sx_ask(s, t, &q, what, &run, &a);
	}
	ut_vec_free(&q);
	if (sx_ends(s, t, a, rc))
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
			*rc = sx_push(out, v->v[i]);
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
		pays = !sx_contains(&x->gfail, m.v[i]);

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
				*rc = sx_push(&q, x->u.v[k]);
		}
		snprintf(what, sizeof(what), "without one top test of the %zu it may need", x->u.n);
		x->last_probe = 0; /* the round as a whole stalls, below */
		if (*rc == 0)
			*rc = sx_ask(s, t, &q, what, &runs[i], &ans[i]);
		key ^= ans[i] == SX_PLANNED ? x->last_probe : 0;
	}
	ut_vec_free(&q);
	x->last_probe = last;
	if (*rc == 0 && key) { /* runs planned: the answers come in the next round */
		x->stalls = key == last ? x->stalls + 1 : 0;
		x->last_probe = key;
		if (x->stalls > SX_STALLS)
			sx_give_up(s, t, true);
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
		if (!sx_contains(&x->in, x->u.v[i]))
			rc = sx_push(v, x->u.v[i]);
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
	rc = sx_copy_sched(&q, &x->u);
	if (rc == 0)
		rc = sx_push(&q, t);
	snprintf(purpose, sizeof(purpose), "%s again after the %zu tests it passed after",
		 s->g->tests[t].id, x->u.n);
	if (rc == 0)
		rc = sx_propose(s, t, &q, UT_PHASE_SEARCH, purpose);
	ut_vec_free(&q);
	return rc < 0 ? rc : 1;
}

int sx_step_peel(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	dx_sched v = {0};
	long run = 0;
	int rc = 0, a;

	if (!x->pass_run) { /* u is every earlier test: known to pass in the original order */
		rc = sx_ask(s, t, &x->u, "after every earlier test", &run, &a);
		if (rc < 0)
			return rc;
		if (a != SX_PASS) {
			if (a != SX_PLANNED && a != SX_WAIT)
				sx_give_up(s, t, a == SX_STALLED);
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
			rc = sx_ask(s, t, &x->in, x->in.n ? "after what it is known to need" : "alone",
				 &run, &a);
			if (sx_ends(s, t, a, &rc))
				break;
			if (a == SX_PASS) {
				rc = sx_copy_sched(&x->u, &x->in);
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
				sx_give_up(s, t, true);
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
