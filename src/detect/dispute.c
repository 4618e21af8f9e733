/* dispute.c: outcomes that disagree. Under the monotone model a test that passed after P
 * passes after every superset of P; a failure after a superset (or a pass after a subset
 * of a set it failed after) says one of the two runs was intermittent, or the test is not
 * monotone there. Neither run decides anything until both schedules have run again and
 * each shows one outcome as often as detect.reruns asks for (dx_need, at least twice):
 * the side that loses leaves the store (a refuted pass: its run is noted, and a test whose
 * search was decided on it is searched again), the result handed back says what the runs
 * confirmed; both holding keeps both records, held (the test is not monotone). */
#include "detect/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

/* One side of a dispute: t after exactly `set`. */
typedef struct {
	uint32_t t;
	ut_detect_phase phase;
	dx_sched set;
	bool pass;           /* what the run that raised it showed */
	unsigned agree, disagree;
	unsigned told;       /* reruns that told something (no earlier test of set failed) */
	unsigned retold;     /* ... of which agreed with its outcome */
	long last[2];        /* the last run that showed a pass [1], a failure [0] */
	int verdict;         /* 0 undecided, 1 its outcome holds, -1 the other one does, -2
				tied, -3 untold: no rerun could run its set as it had run */
} dx_side;

typedef struct {
	uint32_t t;
	size_t job, pos;     /* where the new outcome is in the batch */
	dx_side side[2];     /* [0] the new run's, [1] the record it contradicts */
	ut_detect_phase phase;
} dx_dispute;

typedef UT_VEC(dx_dispute) dx_disputes_v;

static bool same(const dx_side *a, const dx_side *b)
{
	return a->set.n == b->set.n &&
	       (!a->set.n || !memcmp(a->set.v, b->set.v, a->set.n * sizeof(*a->set.v)));
}

/* Runs of one side after which a tie or an undecided side is left as flaky. */
static unsigned side_cap(unsigned need)
{
	return 4 * need + 1;
}

static unsigned dispute_need(const dx_ctx *c)
{
	int k = dx_need(c);

	return k < 2 ? 2u : (unsigned)k;
}

static int copy_set(dx_sched *to, const uint32_t *v, size_t n)
{
	to->n = 0;
	if (ut_vec_reserve(to, n + 1) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (n)
		memcpy(to->v, v, n * sizeof(*v));
	to->n = n;
	return 0;
}

/* The record of t that the outcome at position i contradicts, or NULL. ok: the tests
 * before i that passed. */
static const dx_rec *contradicted(const dx_ctx *c, uint32_t t, bool pass, const uint32_t *before,
				  size_t nb, const uint32_t *ok, size_t nok)
{
	const dx_recs *r = pass ? &c->ev[t].fail : &c->ev[t].pass;

	for (size_t i = 0; i < r->n; i++) {
		const dx_rec *e = &r->v[i];

		if (e->held)
			continue;
		if (pass ? dx_subset(before, nb, e->set, e->n) : dx_subset(e->set, e->n, ok, nok))
			return e;
	}
	return NULL;
}

static int add_dispute(dx_disputes_v *v, uint32_t t, size_t job, size_t pos, bool pass,
		       const uint32_t *mine, size_t nmine, const dx_rec *e, ut_detect_phase phase)
{
	dx_dispute d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.side[0].t = d.side[1].t = t;
	d.side[0].phase = d.side[1].phase = phase;
	d.t = t;
	d.job = job;
	d.pos = pos;
	d.phase = phase;
	d.side[0].pass = pass;
	d.side[0].agree = 1;
	d.side[1].pass = !pass;
	d.side[1].agree = e->hits ? e->hits : 1;
	rc = copy_set(&d.side[0].set, mine, nmine);
	if (rc == 0)
		rc = copy_set(&d.side[1].set, e->set, e->n);
	if (rc == 0 && ut_vec_push(v, d) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0) {
		ut_vec_free(&d.side[0].set);
		ut_vec_free(&d.side[1].set);
	}
	return rc;
}

/* The disputes the outcomes of job j raise, one per test at most. */
static int find_disputes(const dx_ctx *c, const dx_job *job, size_t j, const dx_result *r,
			 dx_disputes_v *v)
{
	uint32_t *ok = malloc((job->n ? job->n : 1) * sizeof(*ok));
	size_t nok = 0;
	int rc = 0;

	if (!ok)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; rc == 0 && i < job->n; i++) {
		uint32_t t = job->sched[i];
		ut_outcome o = r->outcomes[i];
		bool pass = o == UT_OUT_PASS, fail = o == UT_OUT_FAIL || o == UT_OUT_ERROR;
		const dx_rec *e;

		if (c->excluded[t] == DX_IN && (pass || fail)) {
			e = contradicted(c, t, pass, job->sched, i, ok, nok);
			if (e)
				rc = add_dispute(v, t, j, i, pass, pass ? job->sched : ok,
						 pass ? i : nok, e, job->phase);
		}
		if (pass)
			ok[nok++] = t;
	}
	free(ok);
	return rc;
}

/* Decides a side when its runs allow: one outcome need times more often than the other
 * (an intermittent failure in twenty runs does not decide, one in two never does); past
 * side_cap runs undecided: -2, flaky. */
static void judge(dx_side *s, unsigned need)
{
	if (s->verdict)
		return;
	if (s->agree >= s->disagree + need)
		s->verdict = 1;
	else if (s->disagree >= s->agree + need)
		s->verdict = -1;
	else if (s->agree + s->disagree >= side_cap(need))
		s->verdict = -2;
}

/* One round: every undecided side of v[0..n) runs once more, as one batch. Returns 1
 * when a side ran, 0 when all are decided, < 0 an error. */
static int round_of(dx_ctx *c, dx_side **v, size_t n, unsigned need)
{
	size_t m = 0, k = 0;
	dx_job *jobs = calloc(n + 1, sizeof(*jobs));
	dx_side **who = calloc(n + 1, sizeof(*who));
	char (*purpose)[200] = calloc(n + 1, sizeof(*purpose));
	dx_result *res = NULL;
	int rc = 0;

	if (!jobs || !who || !purpose) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		dx_side *x = v[i];

		judge(x, need);
		if (x->verdict || c->excluded[x->t] != DX_IN)
			continue;
		x->set.v[x->set.n] = x->t; /* reserved by copy_set */
		snprintf(purpose[m], sizeof(purpose[m]), "%s again after %zu tests (outcomes "
			 "disagree: %u %s, %u not)", c->g->tests[x->t].id, x->set.n, x->agree,
			 x->pass ? "passed" : "failed", x->disagree);
		jobs[m] = (dx_job){x->set.v, x->set.n + 1, purpose[m], x->phase, 1};
		who[m++] = x;
	}
	if (!m)
		goto done;
	res = calloc(m, sizeof(*res));
	if (!res) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = dx_run_plain(c, jobs, m, res);
	if (rc < 0) {
		free(res);
		res = NULL;
		goto done;
	}
	c->stats->retried += (long)m;
	for (k = 0; k < m; k++) {
		ut_outcome o = res[k].outcomes[jobs[k].n - 1];
		bool pass = o == UT_OUT_PASS;

		/* a failure after a test of the set that failed says nothing of the set */
		if (!pass && dx_first_failure(c, jobs[k].sched, jobs[k].n, &res[k]) !=
				     (long)jobs[k].sched[jobs[k].n - 1])
			continue;
		who[k]->last[pass] = res[k].run;
		who[k]->told++;
		who[k]->retold += pass == who[k]->pass;
		if (pass == who[k]->pass)
			who[k]->agree++;
		else
			who[k]->disagree++;
	}
	rc = 1;
done:
	dx_results_free(res, res ? m : 0);
	free(jobs);
	free(who);
	free(purpose);
	return rc;
}

/* A side still undecided when its reruns are used up: untold when none of them ran its
 * set as it had run (a test of the set passed there only intermittently: the record is
 * no evidence), else what most of its runs showed; when those tie, what most of the
 * reruns showed (a record of one run that its only told rerun contradicts is refuted, not
 * a test that passes and fails as often), tied -2. */
static int cap_verdict(const dx_side *x)
{
	unsigned other = x->told - x->retold;

	if (!x->told)
		return -3;
	if (x->agree != x->disagree)
		return x->agree > x->disagree ? 1 : -1;
	return x->retold > other ? 1 : other > x->retold ? -1 : -2;
}

/* Runs the sides until each is decided (or past its cap: decided on what it showed). */
static int settle(dx_ctx *c, dx_side **v, size_t n, unsigned need)
{
	for (unsigned k = 0; n; k++) {
		int ran = round_of(c, v, n, need);

		if (ran <= 0)
			return ran;
		if (k + 1 >= side_cap(need)) { /* runs that never tell (a set's test fails) */
			for (size_t i = 0; i < n; i++)
				if (!v[i]->verdict)
					v[i]->verdict = cap_verdict(v[i]);
		}
	}
	return 0;
}

/* What the side's runs showed: 1 pass, 0 fail, -1 neither (a tie, or untold). */
static int shown(const dx_side *x)
{
	if (x->verdict < -1 || x->verdict == 0)
		return -1;
	return x->verdict > 0 ? x->pass : !x->pass;
}

/* What a decided side leaves in the store: the runs that showed its outcome less those
 * that showed the other one (at least 1). A run outvoted still counts against it: else
 * each intermittent failure of a test alone, outvoted by the passes, would turn into one
 * more pass (seen: a test that passed alone three times by chance held against every
 * failure alone after). */
static unsigned net(const dx_side *x, bool holds)
{
	unsigned yes = holds ? x->agree : x->disagree, no = holds ? x->disagree : x->agree;

	return yes > no ? yes - no : 1;
}

/* Sets the hits of t's record after exactly set, adding it when it is not there: to hits
 * (exact), or to at least hits. */
static int put(dx_ctx *c, uint32_t t, const dx_sched *set, bool pass, long run, unsigned hits,
	       bool exact, bool held)
{
	dx_rec *e = dx_evidence_find(c, t, set->v, set->n, pass);
	int rc = 0;

	if (!e)
		rc = dx_evidence_add(c, t, set->v, set->n, run, hits, pass);
	e = rc == 0 ? dx_evidence_find(c, t, set->v, set->n, pass) : NULL;
	if (e) {
		e->hits = exact || hits > e->hits ? hits : e->hits;
		e->held = e->held || held;
	}
	return rc;
}

/* Marks position pos of r as settled by a dispute (see dx_result). */
static int settled(dx_result *r, size_t n, size_t pos)
{
	if (!r->settled)
		r->settled = calloc(n ? n : 1, 1);
	if (!r->settled)
		return ut_error_set(UT_ENOMEM, "out of memory");
	r->settled[pos] = 1;
	return 0;
}

/* Applies a decided dispute to the store and to the result of the run that raised it. */
static int apply(dx_ctx *c, dx_dispute *d, const dx_job *jobs, dx_result *out)
{
	dx_side *mine = &d->side[0], *rec = &d->side[1];
	int now = shown(mine), was = shown(rec), rc = 0;
	/* both sides confirmed: the smaller set passes, the larger fails (not monotone) */
	bool both = now == (int)mine->pass && was == (int)rec->pass;
	dx_result *r = &out[d->job];

	if (c->excluded[d->t] != DX_IN)
		return 0;
	if (rec->verdict == -3 && now >= 0) /* the record's set cannot be run again */
		was = !rec->pass, both = false;
	if (mine->verdict == -3 && was >= 0) { /* nor the new run's: it tells nothing */
		r->outcomes[d->pos] = UT_OUT_NOTRUN;
		r->first_failure = dx_first_failure(c, jobs[d->job].sched, jobs[d->job].n, r);
		return 0;
	}
	/* one side undecided past its reruns while the other held: the one that held
	 * decides (a test that passed alone 28 times and failed after one more test 4 times
	 * in 9, in a burst of intermittent runs, is no flaky test, and leaving it out would
	 * leave out every test that needs it) */
	if (now < 0 && was >= 0 && rec->verdict == 1)
		now = !mine->pass;
	if (was < 0 && now >= 0 && mine->verdict == 1)
		was = !rec->pass, both = false;
	if (now < 0 || was < 0) { /* one schedule passes and fails as often: flaky */
		dx_mark_flaky(c, d->t);
		return 0;
	}
	if (was != (int)rec->pass) { /* the record was the intermittent one */
		const dx_rec *e = dx_evidence_find(c, d->t, rec->set.v, rec->set.n, rec->pass);
		long run = e ? e->run : 0;

		dx_evidence_forget(c, d->t, rec->set.v, rec->set.n, rec->pass);
		if (rec->pass && run > 0 && ut_vec_push(&c->refuted, run) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	/* the record's votes include its hits: exact; the new run's side started at 1 */
	if (rec->verdict != -3)
		rc = put(c, d->t, &rec->set, was, r->run, net(rec, was == (int)rec->pass), true,
			 both);
	if (rc == 0)
		rc = put(c, d->t, &mine->set, now, r->run, net(mine, now == (int)mine->pass),
			 false, both);
	if (rc == 0)
		rc = settled(r, jobs[d->job].n, d->pos);
	if (now != (int)mine->pass) { /* the new run was: its outcome as confirmed */
		r->outcomes[d->pos] = now ? UT_OUT_PASS : UT_OUT_FAIL;
		/* what ran after a failure that was intermittent ran after a test that did
		 * fail: it tells nothing (the proof rule), as if it had not run */
		for (size_t i = d->pos + 1; now && i < jobs[d->job].n; i++)
			r->outcomes[i] = UT_OUT_NOTRUN;
		r->first_failure = dx_first_failure(c, jobs[d->job].sched, jobs[d->job].n, r);
	}
	c->stats->disputes++;
	c->stats->not_monotone += both;
	c->unsteady = true;
	c->intermittent = c->intermittent || !both || mine->disagree || rec->disagree;
	return rc;
}

static bool both_hold(const dx_dispute *d)
{
	return !same(&d->side[0], &d->side[1]) && d->side[0].verdict == 1 &&
	       d->side[1].verdict == 1;
}

static bool margin(const dx_side *x, unsigned need)
{
	return x->agree >= x->disagree + need;
}

/* Both sides of a dispute held: the test would not be monotone there, a claim that two
 * intermittent outcomes in a row of one side make as well (1 in 400 runs with 1 flip in
 * 20, seen on the real shapes: a failure kept forever beside the passes that contradict
 * it). Before it is believed, each side runs again until it shows its outcome twice as
 * many times more often than the other. A side that does not get there within its
 * reruns (they could not run its set as it had run: a test of it fails there) is no
 * evidence, the other side decides; when neither does, the pass is the one no run could
 * repeat. */
static int confirm_both(dx_ctx *c, dx_disputes_v *v, dx_side **sides, unsigned need)
{
	size_t ns = 0;
	int rc;

	for (size_t i = 0; i < v->n; i++) {
		dx_side *a = &v->v[i].side[0], *b = &v->v[i].side[1];

		if (!both_hold(&v->v[i]))
			continue;
		a->verdict = b->verdict = 0;
		sides[ns++] = a;
		sides[ns++] = b;
	}
	rc = ns ? settle(c, sides, ns, 2 * need) : 0;
	for (size_t i = 0; rc == 0 && i < ns; i += 2) {
		dx_side *a = sides[i], *b = sides[i + 1];
		bool ma = margin(a, 2 * need), mb = margin(b, 2 * need);

		if (a->verdict != 1 || b->verdict != 1 || (ma && mb))
			continue;
		if (!ma && !mb)
			(a->pass ? a : b)->verdict = -3;
		else
			(ma ? b : a)->verdict = -3;
	}
	return rc;
}

int dx_disputes(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out)
{
	dx_disputes_v v = {0};
	dx_side **sides = NULL;
	size_t ns = 0;
	unsigned need = dispute_need(c);
	int rc = 0;

	for (size_t j = 0; rc == 0 && j < m; j++) {
		if (jobs[j].phase != UT_PHASE_ORIGINAL && !out[j].error)
			rc = find_disputes(c, &jobs[j], j, &out[j], &v);
	}
	sides = calloc(2 * v.n + 1, sizeof(*sides));
	if (!sides)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; rc == 0 && i < v.n; i++) {
		dx_side *a = &v.v[i].side[0], *b = &v.v[i].side[1];

		sides[ns++] = a;
		if (!same(a, b))
			sides[ns++] = b;
		else /* one schedule passed and failed: its runs count for both */
			a->disagree += b->agree, b->agree = 0;
	}
	if (rc == 0)
		rc = settle(c, sides, ns, need);
	if (rc == 0)
		rc = confirm_both(c, &v, sides, need);
	for (size_t i = 0; rc == 0 && i < v.n; i++) {
		dx_side *a = &v.v[i].side[0], *b = &v.v[i].side[1];

		if (same(a, b)) {
			b->verdict = a->verdict < -1 ? a->verdict : -a->verdict;
			b->agree = a->disagree, b->disagree = a->agree;
		}
	}
	free(sides);
	for (size_t i = 0; rc == 0 && i < v.n; i++)
		rc = apply(c, &v.v[i], jobs, out);
	for (size_t i = 0; i < v.n; i++) {
		ut_vec_free(&v.v[i].side[0].set);
		ut_vec_free(&v.v[i].side[1].set);
	}
	ut_vec_free(&v);
	return rc;
}

int dx_confirm_original(dx_ctx *c, const unsigned char *passes, const unsigned char *told,
			int runs, unsigned char *out)
{
	size_t n = c->g->ntests, m = 0;
	dx_side *v = calloc(n ? n : 1, sizeof(*v));
	dx_side **p = calloc(n ? n : 1, sizeof(*p));
	int rc = 0;

	bool mixed = false;

	if (!v || !p)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (uint32_t t = 0; t < n; t++)
		mixed = mixed || (c->excluded[t] == DX_IN && passes[t] && passes[t] < runs);
	for (uint32_t t = 0; rc == 0 && t < n; t++) {
		out[t] = passes[t] == runs ? DX_IN : passes[t] ? DX_FLAKY : DX_FAILING;
		/* once runs disagree, a test that failed in every one may have failed after
		 * one that failed intermittently: it is confirmed too */
		if (c->excluded[t] != DX_IN || passes[t] == runs || (!passes[t] && !mixed))
			continue;
		v[m] = (dx_side){.t = t, .phase = UT_PHASE_ORIGINAL, .pass = passes[t] > 0,
				 .agree = passes[t], /* its failures may have followed others' */
				 .disagree = passes[t] ? told[t] : 0};
		rc = ut_vec_reserve(&v[m].set, (size_t)t + 1) < 0
			 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
		for (uint32_t e = 0; rc == 0 && e < t; e++)
			v[m].set.v[v[m].set.n++] = e;
		p[m] = &v[m];
		m++;
	}
	if (rc == 0)
		rc = settle(c, p, m, dispute_need(c));
	c->unsteady = c->unsteady || m > 0; /* outcomes disagreed */
	for (size_t i = 0; i < m; i++) {
		int now = shown(&v[i]);

		if (rc == 0 && now >= 0) {
			out[v[i].t] = now ? DX_IN : DX_FAILING;
			/* the store learns what the runs confirmed, and the outcome they
			 * outvoted leaves it, as a dispute's losing side does: a test that failed
			 * in both runs of the original order by chance (1 in 400 with 1 flip in
			 * 20) kept its failure after every earlier test beside the confirmed
			 * pass, a vote short of dropping it, and the search, which believes a
			 * failure first, left it out as flaky with every test that needs it */
			dx_evidence_forget(c, v[i].t, v[i].set.v, v[i].set.n, !now);
			rc = put(c, v[i].t, &v[i].set, now, v[i].last[now],
				 net(&v[i], now == (int)v[i].pass), false, false);
		}
		ut_vec_free(&v[i].set);
	}
	free(v);
	free(p);
	return rc;
}
