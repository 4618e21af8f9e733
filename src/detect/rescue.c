/* rescue.c: a test that passes after its prerequisites but, as a dispute held, fails after
 * a set F holding them (a pair that is not monotone: a test X of F breaks it, issue 32) is
 * given the earlier test Y outside F that restores it, so that every schedule holding it
 * and X holds Y. The search of its dependents waits meanwhile (their probes hold it).
 *
 * The earlier included tests outside F, in their order, are C. t passed after F and all
 * of C (the original order's prefix); a binary search finds the least m such that t passes
 * after F and the tests of C[0, m) with their prerequisites: Y = C[m - 1], with the failure
 * after F and C[0, m - 1) as its proof (the verification's: t failed without Y and with the
 * rest of its schedule). Only a pass after a superset of F answers a question (below F, t
 * passes without Y). One rescue per such failure: F lacks Y afterwards, and holds no
 * longer all that t needs. Only where a schedule may hold t with a test of F beyond t's
 * own prerequisites (matters): a probe of a test that does not need X may hold X and t,
 * and no schedule needs Y then (the shop's count, a sink: examples/shop/EXPECTED.md). */
#include "detect/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define SX_RESCUES 4 /* rescues of one test at most (each from another failure) */

static bool settled(const sx_test *x)
{
	return x->state == SX_DONE || x->state == SX_GRAPH;
}

static bool holds(const dx_sched *v, uint32_t t)
{
	return v->n && bsearch(&t, v->v, v->n, sizeof(t), ut_cmp_u32);
}

/* Whether a schedule may hold t and a test of set (ascending) that is not in `but` (its
 * breaker among them): the closure of a test settled on t holds one, or a test is still
 * searched (its closure is not known yet). */
static bool matters(const sx *s, uint32_t t, const uint32_t *set, size_t n, const dx_sched *but)
{
	for (uint32_t d = t + 1; d < s->n; d++) {
		const sx_test *w = &s->t[d];

		if (s->c->excluded[d] != DX_IN)
			continue;
		if (w->state == SX_START || w->state == SX_GALLOP || w->state == SX_PEEL)
			return true;
		if (!holds(&w->anc, t))
			continue;
		for (size_t i = 0; i < n; i++) {
			if (holds(&w->anc, set[i]) && !holds(but, set[i]))
				return true;
		}
	}
	return false;
}

/* Whether a dispute held t not monotone at failure f: f held, or, while every outcome was
 * steady, f after more tests than a pass of t a dispute held (learnt since: such a pass
 * contradicts no failure). Else f may be an intermittent failure the passes have not
 * outvoted yet: once outcomes were intermittent, a single such failure made a rescuer of
 * chance (seed 2 on Claroline: AddCourse after AddUser, +29 pairs), while a held one,
 * rerun until its outcome showed 2 (reruns + 1) times more often, does not. */
static bool not_monotone(const sx *s, uint32_t t, const dx_rec *f)
{
	const dx_recs *p = &s->c->ev[t].pass;

	for (size_t i = 0; !f->held && !s->c->intermittent && i < p->n; i++) {
		if (p->v[i].held && dx_subset(p->v[i].set, p->v[i].n, f->set, f->n))
			return true;
	}
	return f->held;
}

/* A failure of t, not monotone, after a set holding all that t is settled on, when it
 * matters. */
static const dx_rec *broken_after(const sx *s, uint32_t t)
{
	const dx_recs *f = &s->c->ev[t].fail;
	const dx_sched *a = &s->t[t].anc;

	for (size_t i = 0; i < f->n; i++) {
		if (dx_subset(a->v, a->n, f->v[i].set, f->v[i].n) &&
		    not_monotone(s, t, &f->v[i]) && matters(s, t, f->v[i].set, f->v[i].n, a))
			return &f->v[i];
	}
	return NULL;
}

static int push_u32(dx_sched *v, uint32_t x)
{
	return ut_vec_push(v, x) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* t's rescue from failure f: ctx = f's set, x = C. */
static int begin(sx *s, uint32_t t, const dx_rec *f)
{
	sx_test *x = &s->t[t];
	int rc = 0;

	x->ctx.n = x->x.n = x->breakers.n = 0;
	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		rc = push_u32(&x->ctx, f->set[i]);
		if (rc == 0 && !holds(&x->anc, f->set[i]))
			rc = push_u32(&x->breakers, f->set[i]);
	}
	for (uint32_t e = 0, k = 0; rc == 0 && e < t; e++) {
		while (k < f->n && f->set[k] < e)
			k++;
		if (s->c->excluded[e] == DX_IN && !(k < f->n && f->set[k] == e))
			rc = push_u32(&x->x, e);
	}
	x->rescues++;
	if (rc < 0 || !x->x.n)
		return rc;
	x->state = SX_RESCUE;
	x->lo = 0;
	x->hi = (uint32_t)x->x.n;
	x->top_tried = false;
	x->fail_run = f->run;
	x->target = SIZE_MAX;
	x->stalls = 0;
	return 0;
}

int sx_rescue_begin(sx *s, unsigned char *searched)
{
	int rc = 0;

	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		sx_test *x = &s->t[t];
		const dx_rec *f;

		if (x->state != SX_DONE || s->c->excluded[t] != DX_IN || x->rescues >= SX_RESCUES)
			continue;
		f = broken_after(s, t);
		if (f)
			rc = begin(s, t, f);
		if (x->state == SX_RESCUE)
			searched[t] = 1;
	}
	return rc;
}

/* v (ascending) gains y and what y is settled on. */
static int merge(sx *s, dx_sched *v, uint32_t y)
{
	dx_sched w = {0};
	int rc = 0;

	for (size_t i = 0; i < v->n; i++)
		s->mark[v->v[i]] = 1;
	s->mark[y] = 1;
	for (size_t k = 0; settled(&s->t[y]) && k < s->t[y].anc.n; k++)
		s->mark[s->t[y].anc.v[k]] = 1;
	for (uint32_t e = 0; e < s->n; e++) {
		if (s->mark[e] && rc == 0)
			rc = push_u32(&w, e);
		s->mark[e] = 0;
	}
	ut_vec_free(v);
	*v = w;
	return rc;
}

/* v = ctx, and the tests of C[0, m) with what they are settled on, ascending. */
static int probe_set(sx *s, const sx_test *x, size_t m, dx_sched *v)
{
	int rc = 0;

	v->n = 0;
	for (size_t i = 0; rc == 0 && i < x->ctx.n; i++)
		rc = push_u32(v, x->ctx.v[i]);
	for (size_t i = 0; rc == 0 && i < m; i++)
		rc = merge(s, v, x->x.v[i]);
	return rc;
}

/* t's prerequisites gain y (its failure without y: run fail_run), and so do the closures
 * that hold t: of the tests settled on it, of those whose search found they need it. */
static int add_rescuer(sx *s, uint32_t t, uint32_t y)
{
	sx_test *x = &s->t[t];
	sx_found f = {y, x->fail_run};
	int rc;

	if (ut_vec_push(&x->found, f) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	s->dependents[y]++;
	rc = merge(s, &x->anc, y);
	for (uint32_t z = t + 1; rc == 0 && z < s->n; z++) {
		sx_test *w = &s->t[z];

		if ((w->state == SX_DONE || w->state == SX_RESCUE) && holds(&w->anc, t))
			rc = merge(s, &w->anc, y);
		else if ((w->state == SX_GALLOP || w->state == SX_PEEL) && holds(&w->in, t))
			rc = merge(s, &w->in, y);
	}
	return rc;
}

/* The rescue is over: t is settled again, with C[hi - 1] when the search found it. */
static int finish(sx *s, uint32_t t, bool found)
{
	sx_test *x = &s->t[t];
	uint32_t y = found ? x->x.v[x->hi - 1] : 0;

	x->state = SX_DONE;
	ut_vec_free(&x->x);
	x->top_tried = false;
	x->rescued = found;
	x->rescuer = y;
	return found ? add_rescuer(s, t, y) : 0;
}

/* t's prerequisites lose the rescuer: its closure is that of the others it found. */
static int drop_rescuer(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	size_t k = 0;
	int rc = 0;

	for (size_t i = 0; i < x->found.n; i++) {
		if (x->found.v[i].test != x->rescuer)
			x->found.v[k++] = x->found.v[i];
	}
	x->found.n = k;
	if (s->dependents[x->rescuer])
		s->dependents[x->rescuer]--;
	x->anc.n = 0;
	for (size_t i = 0; rc == 0 && i < k; i++)
		rc = merge(s, &x->anc, x->found.v[i].test);
	x->rescued = false;
	return rc;
}

int sx_rescue_keep(sx *s)
{
	int rc = 0;

	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		sx_test *x = &s->t[t];

		dx_sched none = {0};

		if (x->rescued && x->state == SX_DONE &&
		    !matters(s, t, x->breakers.v, x->breakers.n, &none))
			rc = drop_rescuer(s, t);
	}
	return rc;
}

/* Plans t after v, unless the same question went unanswered too often (the rescue is
 * then abandoned). 1 planned, 0 abandoned, < 0 error. */
static int plan(sx *s, uint32_t t, size_t m, const dx_sched *v)
{
	sx_test *x = &s->t[t];
	dx_sched q = {0};
	char purpose[200];
	int rc = 0;

	/* once outcomes disagreed, a pass answers only when the whole probe passed: with 1
	 * flip in 20, a probe of 35 tests does 1 time in 6, so a longer one may ask more
	 * often (MantisBT, seed 7: the rescue gave up on its first probe) */
	int cap = 3 + dx_need(s->c) + (s->c->unsteady ? (int)(v->n / 8) : 0);

	if (x->target == m && ++x->stalls > cap)
		return finish(s, t, false);
	if (x->target != m)
		x->stalls = 0;
	x->target = m;
	for (size_t i = 0; rc == 0 && i < v->n; i++)
		rc = push_u32(&q, v->v[i]);
	if (rc == 0)
		rc = push_u32(&q, t);
	snprintf(purpose, sizeof(purpose), "%s rescued after the %zu tests it failed after, "
		 "with %zu earlier ones", s->g->tests[t].id, x->ctx.n, m);
	if (rc == 0)
		rc = sx_propose(s, t, &q, UT_PHASE_SEARCH, purpose);
	ut_vec_free(&q);
	return rc < 0 ? rc : 1;
}

/* What is known of t after exactly v (a superset of t's ctx): a run of that schedule that
 * passed whole (the store keeps no pass after more tests than one it holds, and t passed
 * after fewer), else the store above ctx. */
static int known(sx *s, uint32_t t, const dx_sched *v, long *run)
{
	const sx_test *x = &s->t[t];

	*run = dx_evidence_whole(s->c, t, v->v, v->n);
	if (*run)
		return 1;
	return dx_evidence_known_over(s->c, t, v->v, v->n, x->ctx.v, x->ctx.n, run);
}

/* Whether answer k of t after v (< 0 failed, > 0 passed) is yet to be confirmed before
 * it decides a step of the binary search, once outcomes disagreed (MantisBT, 1 flip in
 * 20: t failed by chance after F, its rescuer and one more test, the search took the next
 * test for the rescuer, and t ended left out with its dependent). A failure needs
 * reruns + 1 failures after v or more. A pass needs a run of v itself that passed whole:
 * a pass after fewer tests (one of v failed by chance, or the store's from another run)
 * says nothing of t after all of v, since t is not monotone there. */
static bool unconfirmed(const sx *s, uint32_t t, const dx_sched *v, int k)
{
	if (!s->c->unsteady)
		return false;
	if (k < 0)
		return dx_evidence_failures(s->c, t, v->v, v->n, UINT32_MAX, false) <
		       (unsigned)dx_need(s->c);
	return dx_evidence_whole(s->c, t, v->v, v->n) == 0;
}

int sx_rescue_step(sx *s, uint32_t t)
{
	sx_test *x = &s->t[t];
	dx_sched v = {0};
	int rc = 0;

	while (rc == 0 && x->state == SX_RESCUE) {
		size_t m = !x->top_tried ? x->x.n : x->lo + (x->hi - x->lo) / 2;
		long run = 0;
		int k;

		if (x->top_tried && x->hi - x->lo <= 1) {
			rc = finish(s, t, true);
			break;
		}
		rc = probe_set(s, x, m, &v);
		k = rc < 0 ? 0 : known(s, t, &v, &run);
		if (rc < 0)
			break;
		if (!k || unconfirmed(s, t, &v, k)) {
			rc = plan(s, t, m, &v);
			break;
		}
		if (!x->top_tried) { /* fails after every earlier test too: nothing rescues */
			x->top_tried = true;
			if (k < 0)
				rc = finish(s, t, false);
		} else if (k > 0) {
			x->hi = (uint32_t)m;
		} else {
			x->lo = (uint32_t)m;
			x->fail_run = run;
		}
	}
	ut_vec_free(&v);
	return rc;
}
