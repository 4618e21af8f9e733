/* evidence.c: what the runs of a detection showed, per test: "passed after exactly these
 * tests", "failed after exactly these tests", and the whole schedules it ended that passed.
 *
 * Assuming more prerequisites never hurt (the monotone assumption of the search), a pass
 * after P answers every question about a superset of P and a failure after F every
 * question about a subset of F, so a record that another one says more than is dropped.
 * Records contradicting each other are settled before a run is learnt (dispute.c): both
 * schedules run again, the side that loses is dropped. A failure is a failure after the
 * tests that ran and passed before it (the proof rule: one that failed or did not run is
 * no part of the set). Each record counts the runs that showed it (hits). */
#include "detect/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static void recs_free(dx_recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].set);
	ut_vec_free(r);
}

static int rec_push(dx_recs *r, const uint32_t *set, size_t n, long run)
{
	dx_rec rec = {0};

	rec.set = malloc((n ? n : 1) * sizeof(*rec.set));
	if (!rec.set)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (n)
		memcpy(rec.set, set, n * sizeof(*set));
	rec.n = n;
	rec.run = run;
	rec.hits = 1;
	if (ut_vec_push(r, rec) < 0) {
		free(rec.set);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

static bool says_more(const dx_rec *a, const dx_rec *b, bool is_pass)
{
	return is_pass ? dx_subset(a->set, a->n, b->set, b->n) : dx_subset(b->set, b->n, a->set, a->n);
}

/* When the list is full: the oldest record another one says more than goes (it is kept
 * until then, in case a dispute refutes the one that says more), else the oldest. */
static void make_room(dx_recs *r, bool is_pass)
{
	size_t i = 0, k;

	for (bool found = false; !found && i < r->n; i += !found) {
		for (k = 0; k < r->n && !found; k++)
			found = k != i && says_more(&r->v[k], &r->v[i], is_pass);
	}
	i = i < r->n ? i : 0;
	free(r->v[i].set);
	memmove(r->v + i, r->v + i + 1, (r->n - i - 1) * sizeof(*r->v));
	r->n--;
}

/* Adds a record unless one already says more (or the same: it counts one run more; keep:
 * added even when another says more). For passes a smaller set says more, for failures a
 * larger one. */
static int recs_add(dx_recs *r, const uint32_t *set, size_t n, long run, bool is_pass,
		    unsigned hits, bool keep)
{
	for (size_t i = 0; i < r->n; i++) {
		dx_rec *e = &r->v[i];

		if (e->n == n && (!n || !memcmp(e->set, set, n * sizeof(*set)))) {
			e->hits += hits; /* the same question asked again */
			return 0;
		}
		if (!keep &&
		    (is_pass ? dx_subset(e->set, e->n, set, n) : dx_subset(set, n, e->set, e->n)))
			return 0;
	}
	if (r->n >= DX_RECORDS)
		make_room(r, is_pass);
	if (rec_push(r, set, n, run) < 0)
		return UT_ENOMEM;
	r->v[r->n - 1].hits = hits;
	return 0;
}

int dx_evidence_init(dx_ctx *c)
{
	c->ev = calloc(c->g->ntests ? c->g->ntests : 1, sizeof(*c->ev));
	return c->ev ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

void dx_evidence_free(dx_ctx *c)
{
	for (size_t i = 0; c->ev && i < c->g->ntests; i++) {
		recs_free(&c->ev[i].pass);
		recs_free(&c->ev[i].fail);
		recs_free(&c->ev[i].whole);
	}
	free(c->ev);
	c->ev = NULL;
}

/* Whether the tests of a (ascending) that are in w are in b (both ascending). */
static bool subset_within(const uint32_t *a, size_t na, const uint32_t *w, size_t nw,
			  const uint32_t *b, size_t nb)
{
	size_t j = 0, k = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nw && w[j] < a[i])
			j++;
		if (j == nw)
			return true;
		if (w[j] != a[i])
			continue;
		while (k < nb && b[k] < a[i])
			k++;
		if (k == nb || b[k] != a[i])
			return false;
	}
	return true;
}

/* dx_evidence_known and dx_evidence_known_over: base (NULL: none) must be in a pass. */
static int known(const dx_evidence *x, const uint32_t *set, size_t n, const uint32_t *within,
		 size_t nw, const uint32_t *base, size_t nb, long *run)
{
	size_t i;

	for (i = 0; i < x->fail.n; i++) {
		if (dx_subset(set, n, x->fail.v[i].set, x->fail.v[i].n)) {
			*run = x->fail.v[i].run;
			return -1;
		}
	}
	for (i = 0; i < x->pass.n; i++) {
		const dx_rec *p = &x->pass.v[i];

		if ((within ? subset_within(p->set, p->n, within, nw, set, n)
			    : dx_subset(p->set, p->n, set, n)) &&
		    (!base || dx_subset(base, nb, p->set, p->n))) {
			*run = p->run;
			return 1;
		}
	}
	return 0;
}

int dx_evidence_known(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
		      const uint32_t *within, size_t nw, long *run)
{
	return known(&c->ev[t], set, n, within, nw, NULL, 0, run);
}

int dx_evidence_known_over(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
			   const uint32_t *base, size_t nb, long *run)
{
	static const uint32_t none;

	return known(&c->ev[t], set, n, NULL, 0, base ? base : &none, nb, run);
}

bool dx_evidence_contradicts(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_evidence *x = &c->ev[t];

	for (size_t i = 0; i < x->pass.n; i++) {
		if (!x->pass.v[i].held && dx_subset(x->pass.v[i].set, x->pass.v[i].n, before, n))
			return true;
	}
	return false;
}

static dx_rec *whole_of(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_recs *w = &c->ev[t].whole;

	for (size_t i = 0; i < w->n; i++) {
		if (w->v[i].n == n && (!n || !memcmp(w->v[i].set, before, n * sizeof(*before))))
			return &w->v[i];
	}
	return NULL;
}

long dx_evidence_whole(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_rec *e = whole_of(c, t, before, n);

	return e ? e->run : 0;
}

unsigned dx_evidence_whole_hits(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_rec *e = whole_of(c, t, before, n);

	return e ? e->hits : 0;
}

/* A pass after `before` refutes the failures of t after a superset of it, but for those
 * a dispute confirmed (dispute.c: t is not monotone there): a vote against each of the
 * others, dropped when no run is left for it (failures that were intermittent add up
 * over a long detection; the passes they contradict outnumber them). */
static void drop_refuted(dx_evidence *x, const uint32_t *before, size_t n)
{
	size_t i, k;

	for (i = k = 0; i < x->fail.n; i++) {
		dx_rec *e = &x->fail.v[i];
		bool refuted = !e->held && dx_subset(before, n, e->set, e->n);

		if (refuted && e->hits <= 1) {
			free(e->set);
			continue;
		}
		if (refuted)
			e->hits--;
		x->fail.v[k++] = *e;
	}
	x->fail.n = k;
}

int dx_evidence_learn(dx_ctx *c, const uint32_t *sched, size_t n, size_t ends,
		      const dx_result *r)
{
	size_t all = 0; /* how many tests from the first passed */
	uint32_t *ok = malloc((n ? n : 1) * sizeof(*ok));
	size_t nok = 0; /* ok[0..nok): the tests before i that passed */
	int rc = 0;

	if (!ok)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (r->error)
		n = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint32_t t = sched[i];
		dx_evidence *x = &c->ev[t];
		bool pass = r->outcomes[i] == UT_OUT_PASS;
		/* not an outcome a dispute settled: the store counts its runs already */
		bool learn = c->excluded[t] == DX_IN && !(r->settled && r->settled[i]);

		if (all == i && (pass || c->excluded[t] != DX_IN))
			all++; /* a test left out does not count */
		if (learn && pass) {
			drop_refuted(x, sched, i);
			rc = recs_add(&x->pass, sched, i, r->run, true, 1, false);
		} else if (learn &&
			   (r->outcomes[i] == UT_OUT_FAIL || r->outcomes[i] == UT_OUT_ERROR)) {
			/* The proof rule: a failure says t fails after the tests that ran and
			 * passed before it, never after one that failed or did not run. */
			if (!dx_evidence_contradicts(c, t, ok, nok))
				rc = recs_add(&x->fail, ok, nok, r->run, false, 1, false);
		}
		if (pass)
			ok[nok++] = t;
	}
	ends = ends ? ends : 1;
	for (size_t i = n > ends ? n - ends : 0; rc == 0 && i < all; i++)
		rc = dx_evidence_note_whole(c, sched[i], sched, i, r->run);
	free(ok);
	return rc;
}

int dx_need(const dx_ctx *c)
{
	return c->opts->reruns > 0 ? c->opts->reruns + 1 : 1;
}

unsigned dx_evidence_failures(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
			      uint32_t lacking, bool held)
{
	const dx_recs *f = &c->ev[t].fail;
	unsigned k = 0;

	for (size_t i = 0; i < f->n; i++) {
		if ((!held || f->v[i].held) && dx_subset(set, n, f->v[i].set, f->v[i].n) &&
		    (lacking == UINT32_MAX || !dx_subset(&lacking, 1, f->v[i].set, f->v[i].n)))
			k += f->v[i].hits;
	}
	return k;
}

bool dx_evidence_failed_after_all(const dx_ctx *c, uint32_t t)
{
	const dx_recs *f = &c->ev[t].fail;

	/* a record's set holds the earlier tests that passed before t in its runs */
	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].n == t)
			return true;
	}
	return false;
}

unsigned dx_evidence_refutes(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n)
{
	const dx_recs *f = &c->ev[t].fail;
	unsigned k = 0;

	for (size_t i = 0; i < f->n; i++) {
		if (!f->v[i].held && dx_subset(set, n, f->v[i].set, f->v[i].n))
			k += f->v[i].hits;
	}
	return k;
}

void dx_evidence_forget_run(dx_ctx *c, uint32_t t, long run)
{
	dx_recs *p = &c->ev[t].pass;

	for (size_t i = 0; run > 0 && i < p->n; i++) {
		if (p->v[i].run == run && !p->v[i].held) {
			dx_evidence_forget(c, t, p->v[i].set, p->v[i].n, true);
			return;
		}
	}
}

bool dx_refuted(const dx_ctx *c, long run)
{
	for (size_t i = 0; run > 0 && i < c->refuted.n; i++) {
		if (c->refuted.v[i] == run)
			return true;
	}
	return false;
}

static dx_recs *recs_of(dx_ctx *c, uint32_t t, bool is_pass)
{
	return is_pass ? &c->ev[t].pass : &c->ev[t].fail;
}

static bool same_set(const dx_rec *e, const uint32_t *set, size_t n)
{
	return e->n == n && (!n || !memcmp(e->set, set, n * sizeof(*set)));
}

dx_rec *dx_evidence_find(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, bool is_pass)
{
	dx_recs *r = recs_of(c, t, is_pass);

	for (size_t i = 0; i < r->n; i++) {
		if (same_set(&r->v[i], set, n))
			return &r->v[i];
	}
	return NULL;
}

/* Removes from r its record after exactly set or, set NULL, the records of run `run`. set
 * may be that record's own (dx_evidence_forget_run): it is not read once freed (a list
 * holds one record per set). */
static void recs_remove(dx_recs *r, const uint32_t *set, size_t n, long run)
{
	size_t i, k;
	bool found = false;

	for (i = k = 0; i < r->n; i++) {
		dx_rec *e = &r->v[i];

		if (set ? !found && same_set(e, set, n) : e->run == run) {
			free(e->set);
			found = true;
		} else {
			r->v[k++] = *e;
		}
	}
	r->n = k;
}

void dx_evidence_forget(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, bool is_pass)
{
	dx_rec *e = dx_evidence_find(c, t, set, n, is_pass);
	long run = e ? e->run : 0;

	recs_remove(recs_of(c, t, is_pass), set, n, 0);
	if (is_pass && run)
		recs_remove(&c->ev[t].whole, NULL, 0, run);
}

int dx_evidence_add(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, long run,
		    unsigned hits, bool is_pass)
{
	if (is_pass)
		drop_refuted(&c->ev[t], set, n);
	/* kept beside one that says more: when a dispute refutes that one (a pass alone by
	 * chance), a pass after every earlier test that the original order's reruns
	 * confirmed was gone with it, and one intermittent failure after them left the
	 * test out as flaky */
	return recs_add(recs_of(c, t, is_pass), set, n, run, is_pass, hits, true);
}

int dx_evidence_note_whole(dx_ctx *c, uint32_t t, const uint32_t *before, size_t n, long run)
{
	dx_rec *e = whole_of(c, t, before, n);

	if (e)
		e->hits++;
	return e ? 0 : rec_push(&c->ev[t].whole, before, n, run);
}
