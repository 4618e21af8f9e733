/* fast.c: strategy fast: the guarantee of tedd (every schedule derived from the output
 * graph passes, each one run at the end) with a fraction of its test executions.
 *
 * 1. The original order (reruns + 1 times) and every test alone, in one batch: a test that
 *    passes alone has no prerequisites, and its schedule is the run that just passed.
 * 2. For each test that failed alone, a search for a sufficient set of direct
 *    prerequisites, the candidate graph as the first guess: run it with the closure of its
 *    candidates; when that fails, add earlier tests (candidates the filter dropped first,
 *    then the nearest) in doubling groups, then bisect the group that made it pass, so
 *    that each missing prerequisite costs a logarithmic number of runs.
 * 3. Minimization: each direct prerequisite is dropped in turn; it is manifest when the
 *    test then fails, false when it still passes (tedd's inversion).
 * 4. Verification: the schedule of every sink (it and its transitive prerequisites, in
 *    original order) runs; a schedule the search already ran exactly as it is and saw pass
 *    counts as run. A failure sends its first failing test back to step 2.
 *
 * What every run shows is kept per test: "passed after exactly these tests" and "was the
 * first to fail after exactly these tests". Assuming more prerequisites never hurt, a
 * pass after P answers every question about a superset of P, and a failure after F every
 * question about a subset of F, so a probe is only run when nothing seen so far answers
 * it. All tests that need a run get it in the same batch (on as many workers as there
 * are); a probe whose answer another probe of the batch also gives (the same tests before
 * the test) is not run. Decisions are taken in test order after the whole batch, so the
 * graph does not depend on the number of workers or on which run ended first. */
#include "detect/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define FX_RECORDS 8     /* pass and fail records kept per test */
#define FX_STALLS 3      /* the same probe this often without an answer: give up */
#define FX_PURPOSE 200

enum { FX_SUFFICE, FX_EXPAND, FX_MINIMIZE, FX_DONE };

/* A test passed (or failed first) after exactly the tests of `set` (ascending). */
typedef struct {
	uint32_t *set;
	size_t n;
	long run;
} fx_rec;

typedef UT_VEC(fx_rec) fx_recs;

typedef struct {
	int state;
	fx_recs pass, fail;
	/* expansion: tests that may be missing, in the order they are tried */
	uint32_t *u;
	size_t nu;
	size_t lo, hi;    /* failed with u[0..lo); passed with u[0..hi) (hi 0: not yet) */
	bool refine;      /* u is the found test with its own prerequisites, ascending */
	long lo_run, hi_run;
	uint64_t last_probe; /* hash of the last probe planned, to notice no progress */
	int stalls;
} fx_test;

/* A schedule that ran and passed whole. */
typedef struct {
	uint64_t hash;
	uint32_t *v;
	size_t n;
	long run;
	bool verify; /* a verification run */
} fx_passed;

/* A probe planned for a test. */
typedef struct {
	uint32_t owner;
	dx_sched sched; /* ascending, the owner last */
	ut_detect_phase phase;
	char purpose[FX_PURPOSE];
} fx_probe;

typedef struct {
	dx_ctx *c;
	ut_graph *g;
	size_t n;
	fx_test *t;
	ut_adjacency adj;
	bool adj_ok;
	unsigned char *mark;
	UT_VEC(fx_passed) passed;
	UT_VEC(fx_probe) probes;
	bool with_original; /* the original order ran (reruns > 0) */
	const unsigned char *reval; /* incremental: UT_REVALIDATE_* per test, or NULL */
	unsigned char *touched;     /* incremental: verified or searched in this run */
} fx;

static uint64_t hash_set(const uint32_t *v, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		h ^= v[i] + 1;
		h *= 1099511628211ull;
	}
	return h ^ n;
}

static void recs_free(fx_recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].set);
	ut_vec_free(r);
}

/* Adds a record unless one already says more; drops those it says more than. For passes
 * a smaller set says more, for failures a larger one. */
static int recs_add(fx_recs *r, const uint32_t *set, size_t n, long run, bool is_pass)
{
	fx_rec rec;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const fx_rec *e = &r->v[i];

		if (is_pass ? dx_subset(e->set, e->n, set, n) : dx_subset(set, n, e->set, e->n))
			return 0;
	}
	for (i = k = 0; i < r->n; i++) {
		fx_rec *e = &r->v[i];

		if (is_pass ? dx_subset(set, n, e->set, e->n) : dx_subset(e->set, e->n, set, n))
			free(e->set);
		else
			r->v[k++] = *e;
	}
	r->n = k;
	if (r->n >= FX_RECORDS) { /* the oldest goes */
		free(r->v[0].set);
		memmove(r->v, r->v + 1, (r->n - 1) * sizeof(*r->v));
		r->n--;
	}
	rec.set = malloc((n ? n : 1) * sizeof(*rec.set));
	if (!rec.set)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (n)
		memcpy(rec.set, set, n * sizeof(*set));
	rec.n = n;
	rec.run = run;
	if (ut_vec_push(r, rec) < 0) {
		free(rec.set);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* What is known of test t run after exactly the tests of s: 1 passes, -1 fails, 0 not
 * known; *run is the run that shows it. */
static int known(const fx *f, uint32_t t, const uint32_t *s, size_t n, long *run)
{
	const fx_test *x = &f->t[t];
	size_t i;

	for (i = 0; i < x->fail.n; i++) {
		if (dx_subset(s, n, x->fail.v[i].set, x->fail.v[i].n)) {
			*run = x->fail.v[i].run;
			return -1;
		}
	}
	for (i = 0; i < x->pass.n; i++) {
		if (dx_subset(x->pass.v[i].set, x->pass.v[i].n, s, n)) {
			*run = x->pass.v[i].run;
			return 1;
		}
	}
	return 0;
}

static int adjacency(fx *f)
{
	int rc;

	if (f->adj_ok)
		return 0;
	rc = ut_adjacency_build(&f->adj, f->g, NULL, NULL);
	f->adj_ok = rc == 0;
	return rc;
}

static void changed(fx *f)
{
	if (f->adj_ok)
		ut_adjacency_dispose(&f->adj);
	f->adj_ok = false;
}

/* The tests t would run after: the closure of its direct prerequisites but `skip` (-1:
 * none) and of extra[0..nextra), ascending, into out (t itself not included). */
static int closure(fx *f, uint32_t t, long skip, const uint32_t *extra, size_t nextra,
		   dx_sched *out)
{
	uint32_t k;
	size_t i;
	int rc = adjacency(f);

	out->n = 0;
	if (rc < 0)
		return rc;
	memset(f->mark, 0, f->n);
	for (k = f->adj.start[t]; k < f->adj.start[t + 1]; k++) {
		if ((long)f->adj.deps[k] != skip)
			f->mark[f->adj.deps[k]] = 1;
	}
	for (i = 0; i < nextra; i++)
		f->mark[extra[i]] = 1;
	rc = ut_adjacency_closure(&f->adj, f->mark);
	for (i = 0; rc == 0 && i < t; i++) {
		if (f->mark[i] && ut_vec_push(out, (uint32_t)i) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	return rc;
}

static void set_edge(fx *f, ut_edge *e, ut_edge_status s, const char *reason, long run1,
		     long run2)
{
	if (s == UT_EDGE_FALSE && e->status != UT_EDGE_FALSE)
		f->c->stats->removed++;
	e->status = s;
	e->reason = reason;
	if (run1 > 0)
		ut_graph_add_evidence(e, run1);
	if (run2 > 0 && run2 != run1)
		ut_graph_add_evidence(e, run2);
	changed(f);
}

/* Plans a probe: t after exactly the tests of s. */
static int propose(fx *f, uint32_t t, const dx_sched *s, ut_detect_phase phase,
		   const char *fmt, const char *arg)
{
	fx_test *x = &f->t[t];
	fx_probe p;
	uint64_t h = hash_set(s->v, s->n) ^ ((uint64_t)t << 32);

	if (h == x->last_probe) {
		/* The last run of this probe did not answer it: an earlier test in it failed
		 * (or the run did). While one of those is still being searched, wait for it;
		 * once all are settled, try again a few times, then leave the test out rather
		 * than guess. */
		for (size_t i = 0; i < s->n; i++) {
			if (f->t[s->v[i]].state != FX_DONE)
				return 0;
		}
		if (++x->stalls > FX_STALLS) {
			dx_mark_flaky(f->c, t);
			x->state = FX_DONE;
			return 0;
		}
	} else {
		x->stalls = 0;
	}
	x->last_probe = h;
	memset(&p, 0, sizeof(p));
	p.owner = t;
	p.phase = phase;
	snprintf(p.purpose, sizeof(p.purpose), fmt, f->g->tests[t].id, arg);
	if (ut_vec_reserve(&p.sched, s->n + 1) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memcpy(p.sched.v, s->v, s->n * sizeof(*s->v));
	p.sched.v[s->n] = t;
	p.sched.n = s->n + 1;
	if (ut_vec_push(&f->probes, p) < 0) {
		ut_vec_free(&p.sched);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 1;
}

/* The tests that may be missing from t's prerequisites, in the order they are tried:
 * those the filter dropped or a run refuted (latest first), then the rest, nearest
 * first. Tests already in the closure, and tests left out, are not. */
static int start_expand(fx *f, uint32_t t, long fail_run)
{
	fx_test *x = &f->t[t];
	dx_sched cl = {0};
	size_t k = 0;
	int rc = closure(f, t, -1, NULL, 0, &cl);

	if (rc < 0)
		return rc;
	free(x->u);
	x->u = malloc((t ? t : 1) * sizeof(*x->u));
	if (!x->u) {
		ut_vec_free(&cl);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	memset(f->mark, 0, f->n);
	for (size_t i = 0; i < cl.n; i++)
		f->mark[cl.v[i]] = 1;
	ut_vec_free(&cl);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t j = t; j-- > 0;) {
			const ut_edge *e;
			bool hinted;

			if (f->mark[j] || f->c->excluded[j] != DX_IN)
				continue;
			e = ut_graph_find(f->g, t, j);
			hinted = e && e->filtered_by;
			if ((pass == 0) != hinted)
				continue;
			x->u[k++] = j;
			f->mark[j] = 1;
		}
	}
	x->nu = k;
	x->lo = 0;
	x->hi = 0;
	x->lo_run = fail_run;
	x->hi_run = 0;
	x->refine = false;
	x->state = FX_EXPAND;
	return 0;
}

/* u[hi - 1] made t pass, but it came with its own prerequisites, and one of those may be
 * what t needs (a test that only reads what another created brings that one along). The
 * tests of that closure not yet before t, ascending, are bisected the same way: each
 * prefix of them is closed under prerequisites, none of them fails, all of them pass. */
static int refine(fx *f, uint32_t t)
{
	fx_test *x = &f->t[t];
	uint32_t d = x->u[x->hi - 1];
	dx_sched mine = {0}, with = {0};
	size_t i, j, k = 0;
	int rc = closure(f, t, -1, NULL, 0, &mine);

	if (rc == 0)
		rc = closure(f, t, -1, &d, 1, &with);
	if (rc == 0) {
		for (i = j = 0; i < with.n; i++) { /* with minus mine, both ascending */
			while (j < mine.n && mine.v[j] < with.v[i])
				j++;
			if (j < mine.n && mine.v[j] == with.v[i])
				continue;
			x->u[k++] = with.v[i];
		}
		x->nu = k;
		x->lo = 0;
		x->hi = k;
		x->refine = true;
	}
	ut_vec_free(&mine);
	ut_vec_free(&with);
	return rc;
}

/* u[hi - 1] is needed: make it a prerequisite of t. */
static int found(fx *f, uint32_t t)
{
	fx_test *x = &f->t[t];
	uint32_t d = x->u[x->hi - 1];
	ut_edge *e = ut_graph_find(f->g, t, d);
	int rc = 0;

	if (!x->refine) {
		rc = refine(f, t);
		if (rc < 0 || x->nu > 1)
			return rc;
		d = x->u[0];
		e = ut_graph_find(f->g, t, d);
	}
	x->refine = false;
	if (!e) {
		rc = ut_graph_add(f->g, t, d, UT_ORIGIN_RECOVERED, &e);
		if (rc < 0)
			return rc;
	} else {
		if (e->filtered_by)
			e->origin = UT_ORIGIN_RECOVERED; /* the filter was wrong */
		e->filtered_by = NULL;
		if (e->status == UT_EDGE_FALSE)
			e->reopened = true;
	}
	e->status = UT_EDGE_CANDIDATE;
	e->reason = "found by the search: the test passes once it runs after it";
	f->c->stats->recovered++;
	if (x->hi_run > 0)
		ut_graph_add_evidence(e, x->hi_run);
	if (x->lo_run > 0)
		ut_graph_add_evidence(e, x->lo_run);
	changed(f);
	x->state = FX_SUFFICE;
	return rc;
}

/* The next unsettled direct prerequisite of t (the latest first), or NULL. */
static ut_edge *next_unsettled(fx *f, uint32_t t)
{
	ut_edge *best = NULL;

	for (uint32_t k = f->adj.start[t]; k < f->adj.start[t + 1]; k++) {
		ut_edge *e = ut_graph_find(f->g, t, f->adj.deps[k]);

		if (e && e->status == UT_EDGE_CANDIDATE && (!best || e->dependee > best->dependee))
			best = e;
	}
	return best;
}

/* Moves t's search on as far as what is known allows. Returns 1 when it needs a run (the
 * probe is planned), 0 when it waits for nothing (done), < 0 on error. */
static int plan(fx *f, uint32_t t)
{
	fx_test *x = &f->t[t];
	dx_sched s = {0};
	char arg[64];
	long run = 0;
	int rc = 0, k, guard;

	for (guard = 0; rc == 0 && guard < 100000 && x->state != FX_DONE; guard++) {
		if (f->c->excluded[t] != DX_IN) {
			x->state = FX_DONE;
			break;
		}
		if (x->state == FX_SUFFICE) {
			rc = closure(f, t, -1, NULL, 0, &s);
			if (rc < 0)
				break;
			k = known(f, t, s.v, s.n, &run);
			if (k > 0)
				x->state = FX_MINIMIZE;
			else if (k < 0)
				rc = start_expand(f, t, run);
			else {
				snprintf(arg, sizeof(arg), "%zu", s.n);
				rc = propose(f, t, &s, UT_PHASE_SEARCH, "%s after its %s prerequisites", arg);
				break;
			}
		} else if (x->state == FX_EXPAND) {
			size_t m;

			if (x->hi == 0 && x->lo >= x->nu) {
				/* It fails even after every earlier test that is not left out: after
				 * passing in the original order, it is flaky; else it is a failing test. */
				if (f->with_original)
					dx_mark_flaky(f->c, t);
				else
					dx_mark_failing(f->c, t);
				x->state = FX_DONE;
				break;
			}
			if (x->hi && x->hi - x->lo <= 1) {
				rc = found(f, t);
				continue;
			}
			m = x->hi ? (x->lo + x->hi) / 2 : x->lo ? 2 * x->lo : 1;
			if (m > x->nu)
				m = x->nu;
			rc = closure(f, t, -1, x->u, m, &s);
			if (rc < 0)
				break;
			k = known(f, t, s.v, s.n, &run);
			if (k > 0) {
				x->hi = m;
				x->hi_run = run;
			} else if (k < 0) {
				x->lo = m;
				x->lo_run = run;
			} else {
				snprintf(arg, sizeof(arg), "%zu", m);
				rc = propose(f, t, &s, UT_PHASE_SEARCH,
					     "%s after %s more earlier tests", arg);
				break;
			}
		} else if (x->state == FX_MINIMIZE) {
			ut_edge *e;
			long pass_run = 0;

			rc = adjacency(f);
			if (rc < 0)
				break;
			e = next_unsettled(f, t);
			if (!e) {
				x->state = FX_DONE;
				break;
			}
			rc = closure(f, t, e->dependee, NULL, 0, &s);
			if (rc < 0)
				break;
			k = known(f, t, s.v, s.n, &run);
			if (k > 0) {
				set_edge(f, e, UT_EDGE_FALSE, "the dependent passed without the dependee",
					 run, 0);
			} else if (k < 0) {
				dx_sched with = {0};

				rc = closure(f, t, -1, NULL, 0, &with);
				if (rc == 0)
					known(f, t, with.v, with.n, &pass_run);
				ut_vec_free(&with);
				e = ut_graph_find(f->g, t, e->dependee);
				set_edge(f, e, UT_EDGE_MANIFEST,
					 "fails without the dependee, passes with it", run, pass_run);
			} else {
				rc = propose(f, t, &s, UT_PHASE_VALIDATE, "%s without %s",
					     f->g->tests[e->dependee].id);
				break;
			}
		}
	}
	ut_vec_free(&s);
	return rc;
}

/* What one finished run shows, per test. */
static int learn(fx *f, const dx_job *job, const dx_result *r)
{
	bool clean = true, all = true;
	int rc = 0;

	if (r->error)
		return 0;
	for (size_t i = 0; rc == 0 && i < job->n; i++) {
		uint32_t t = job->sched[i];

		if (f->c->excluded[t] != DX_IN)
			continue;
		if (r->outcomes[i] == UT_OUT_PASS) {
			rc = recs_add(&f->t[t].pass, job->sched, i, r->run, true);
		} else {
			if (clean)
				rc = recs_add(&f->t[t].fail, job->sched, i, r->run, false);
			clean = all = false;
		}
	}
	if (rc == 0 && all) {
		fx_passed p = {hash_set(job->sched, job->n), NULL, job->n, r->run,
			       job->phase == UT_PHASE_VERIFY};

		p.v = malloc((job->n ? job->n : 1) * sizeof(*p.v));
		if (!p.v || ut_vec_push(&f->passed, p) < 0) {
			free(p.v);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		memcpy(p.v, job->sched, job->n * sizeof(*p.v));
	}
	return rc;
}

/* Whether probe q also answers p: it runs p's owner after exactly the same tests. */
static bool answers(const fx_probe *q, const fx_probe *p)
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
	const fx_probe *x = a, *y = b;

	if (x->sched.n != y->sched.n)
		return x->sched.n > y->sched.n ? -1 : 1;
	return x->owner < y->owner ? -1 : x->owner > y->owner;
}

static void probes_clear(fx *f)
{
	for (size_t i = 0; i < f->probes.n; i++)
		ut_vec_free(&f->probes.v[i].sched);
	f->probes.n = 0;
}

/* Runs the planned probes as one batch (leaving out those another one answers), and
 * learns from every run. */
static int run_probes(fx *f)
{
	const fx_probe **kept = NULL;
	dx_job *jobs = NULL;
	dx_result *res = NULL;
	size_t i, j, m = 0, cap = f->probes.n ? f->probes.n : 1;
	int rc = 0;

	qsort(f->probes.v, f->probes.n, sizeof(*f->probes.v), by_length_desc);
	kept = calloc(cap, sizeof(*kept));
	jobs = calloc(cap, sizeof(*jobs));
	res = calloc(cap, sizeof(*res));
	if (!kept || !jobs || !res) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < f->probes.n; i++) {
		const fx_probe *p = &f->probes.v[i];
		bool dup = false;

		for (j = 0; j < m && !dup; j++)
			dup = answers(kept[j], p);
		if (dup)
			continue;
		kept[m] = p;
		jobs[m] = (dx_job){p->sched.v, p->sched.n, p->purpose, p->phase};
		m++;
	}
	rc = dx_run_batch(f->c, jobs, m, res);
	for (j = 0; rc == 0 && j < m; j++)
		rc = learn(f, &jobs[j], &res[j]);
done:
	dx_results_free(res, m);
	free(jobs);
	free(kept);
	probes_clear(f);
	return rc;
}

/* Plans the run of t's schedule s (t last), which the probe takes over (s is emptied). */
static int propose_verify(fx *f, uint32_t t, dx_sched *s)
{
	fx_probe p;

	memset(&p, 0, sizeof(p));
	p.owner = t;
	p.phase = UT_PHASE_VERIFY;
	snprintf(p.purpose, sizeof(p.purpose), "verify the schedule of %s", f->g->tests[t].id);
	p.sched = *s;
	memset(s, 0, sizeof(*s));
	if (ut_vec_push(&f->probes, p) < 0) {
		ut_vec_free(&p.sched);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* Every included test nobody included depends on, with its schedule: run the ones no
 * earlier run was exactly. Returns 1 when runs were planned, 0 when all are verified. */
static int plan_verification(fx *f, size_t *schedules, size_t *verified_earlier)
{
	unsigned char *has_dependent = calloc(f->n ? f->n : 1, 1);
	dx_sched s = {0};
	int rc = 0, planned = 0;

	*verified_earlier = *schedules = 0;
	if (!has_dependent)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = adjacency(f);
	for (uint32_t t = 0; rc == 0 && t < f->n; t++) {
		if (f->c->excluded[t] != DX_IN)
			continue;
		for (uint32_t k = f->adj.start[t]; k < f->adj.start[t + 1]; k++)
			has_dependent[f->adj.deps[k]] = 1;
	}
	for (uint32_t t = 0; rc == 0 && t < f->n; t++) {
		bool seen = false;
		uint64_t h;

		if (f->c->excluded[t] != DX_IN || has_dependent[t])
			continue;
		rc = closure(f, t, -1, NULL, 0, &s);
		if (rc < 0 || ut_vec_push(&s, t) < 0) {
			rc = rc < 0 ? rc : ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		h = hash_set(s.v, s.n);
		(*schedules)++;
		for (size_t i = 0; i < f->passed.n && !seen; i++) {
			const fx_passed *q = &f->passed.v[i];

			seen = q->hash == h && q->n == s.n && !memcmp(q->v, s.v, s.n * sizeof(*s.v));
			if (seen && !q->verify)
				(*verified_earlier)++;
		}
		if (seen)
			continue;
		rc = propose_verify(f, t, &s);
		planned = rc == 0;
	}
	ut_vec_free(&s);
	free(has_dependent);
	return rc < 0 ? rc : planned;
}

/* Incremental: the schedule of every test verified or searched, and of each of their
 * direct dependents, must be seen to pass: a run that held the test after its
 * prerequisites, or after fewer of them, shows it. Only the latest of those still
 * unknown run, since their schedules hold the earlier ones, and often exactly so; the
 * next round looks again. Returns 1 when runs were planned, 0 when all are known
 * (*schedules: how many; *verified_earlier stays 0). */
static int plan_reverification(fx *f, size_t *schedules, size_t *verified_earlier)
{
	unsigned char *target = calloc(f->n ? f->n : 1, 1);
	unsigned char *open = calloc(f->n ? f->n : 1, 1);
	dx_sched s = {0};
	long run;
	int rc = 0, planned = 0;

	*verified_earlier = *schedules = 0;
	if (!target || !open) {
		free(target);
		free(open);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	rc = adjacency(f);
	for (uint32_t t = 0; rc == 0 && t < f->n; t++) {
		if (f->c->excluded[t] != DX_IN)
			continue;
		if (f->touched[t])
			target[t] = 1;
		for (uint32_t k = f->adj.start[t]; k < f->adj.start[t + 1]; k++) {
			if (f->touched[f->adj.deps[k]])
				target[t] = 1;
		}
	}
	for (uint32_t t = 0; rc == 0 && t < f->n; t++) {
		if (!target[t])
			continue;
		(*schedules)++;
		rc = closure(f, t, -1, NULL, 0, &s);
		if (rc == 0 && known(f, t, s.v, s.n, &run) > 0)
			continue;
		open[t] = 1;
	}
	/* Plan the open tests no other open test has among its prerequisites. */
	for (uint32_t t = f->n; rc == 0 && t-- > 0;) {

		if (open[t] != 1)
			continue;
		rc = closure(f, t, -1, NULL, 0, &s);
		if (rc < 0 || ut_vec_push(&s, t) < 0) {
			rc = rc < 0 ? rc : ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i + 1 < s.n; i++) {
			if (open[s.v[i]])
				open[s.v[i]] = 2; /* runs inside t's schedule first */
		}
		rc = propose_verify(f, t, &s);
		planned = rc == 0;
	}
	ut_vec_free(&s);
	free(target);
	free(open);
	return rc < 0 ? rc : planned;
}

/* After a batch: a settled test that failed first after (a superset of) its prerequisites
 * is searched again. */
static void reopen_failed(fx *f)
{
	dx_sched s = {0};
	long run;

	for (uint32_t t = 0; t < f->n; t++) {
		if (f->c->excluded[t] != DX_IN || f->t[t].state != FX_DONE)
			continue;
		if (closure(f, t, -1, NULL, 0, &s) < 0)
			break;
		if (known(f, t, s.v, s.n, &run) < 0)
			f->t[t].state = FX_SUFFICE;
	}
	ut_vec_free(&s);
}

static int learn_original(void *ctx, const dx_job *job, const dx_result *r)
{
	return learn(ctx, job, r);
}

/* The original order and every test alone, in one batch; what is known then. */
static int isolation(fx *f)
{
	dx_job *jobs = calloc(f->n ? f->n : 1, sizeof(*jobs));
	dx_result *res = calloc(f->n ? f->n : 1, sizeof(*res));
	char (*purpose)[FX_PURPOSE] = calloc(f->n ? f->n : 1, sizeof(*purpose));
	uint32_t *self = malloc((f->n ? f->n : 1) * sizeof(*self));
	size_t i, m = 0;
	int rc = 0;

	if (!jobs || !res || !purpose || !self) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* Without reruns the original order would only tell which tests fail there, and the
	 * search finds that out when it needs to (a test that fails even after every earlier
	 * test); with reruns it is run to see flaky tests. Its first test alone is the
	 * original order's first test. */
	f->with_original = !f->reval && f->c->opts->reruns > 0;
	f->c->durations_any = !f->with_original;
	for (i = f->with_original ? 1 : 0; i < f->n; i++) {
		if (f->reval && (f->reval[i] != UT_REVALIDATE_SEARCH || f->c->excluded[i] != DX_IN))
			continue;
		self[i] = (uint32_t)i;
		snprintf(purpose[m], sizeof(purpose[m]), "alone %s", f->g->tests[i].id);
		jobs[m] = (dx_job){&self[i], 1, purpose[m], UT_PHASE_ISOLATION};
		m++;
	}
	if (f->with_original) {
		rc = dx_original_order(f->c, jobs, m, res, learn_original, f);
	} else {
		f->c->phase = UT_PHASE_ISOLATION;
		rc = dx_run_batch(f->c, jobs, m, res);
	}
	if (rc < 0)
		goto done;
	for (i = 0; rc == 0 && i < m; i++)
		rc = learn(f, &jobs[i], &res[i]);
	/* A test that passes alone has no prerequisites. */
	for (uint32_t t = 0; rc == 0 && t < f->n; t++) {
		long run;

		f->t[t].state = FX_SUFFICE;
		if (f->c->excluded[t] != DX_IN ||
		    (f->reval && f->reval[t] != UT_REVALIDATE_SEARCH)) {
			f->t[t].state = FX_DONE;
			continue;
		}
		if (known(f, t, NULL, 0, &run) <= 0)
			continue;
		for (size_t e = 0; e < f->g->edges.n; e++) {
			ut_edge *ed = &f->g->edges.v[e];

			if (ed->dependent == t && ut_edge_active(ed))
				set_edge(f, ed, UT_EDGE_FALSE, "the dependent passed alone", run, 0);
		}
		f->t[t].state = FX_DONE;
	}
done:
	dx_results_free(res, m);
	free(jobs);
	free(purpose);
	free(self);
	return rc;
}

int dx_fast(dx_ctx *c)
{
	fx f;
	size_t rounds;
	int rc;

	memset(&f, 0, sizeof(f));
	f.c = c;
	f.g = c->g;
	f.n = c->g->ntests;
	f.t = calloc(f.n ? f.n : 1, sizeof(*f.t));
	f.mark = calloc(f.n ? f.n : 1, 1);
	f.reval = c->opts->revalidate;
	if (f.reval) {
		f.touched = calloc(f.n ? f.n : 1, 1);
		for (size_t i = 0; f.touched && i < f.n; i++)
			f.touched[i] = f.reval[i] != UT_REVALIDATE_KEEP;
	}
	if (!f.t || !f.mark || (f.reval && !f.touched)) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = isolation(&f);
	/* Each round plans what every unsettled test needs next and runs it as one batch;
	 * when nothing is left, the output schedules are verified. A round settles something
	 * or brings a test closer to its stall limit; the cap only guards against a suite
	 * whose outcomes change with more than its prerequisites. */
	for (rounds = 0; rc == 0; rounds++) {
		size_t planned = 0, schedules = 0, earlier = 0;
		bool give_up = rounds > 8 * f.n + 64;

		for (uint32_t t = 0; rc == 0 && t < f.n; t++) {
			if (f.touched && f.t[t].state != FX_DONE)
				f.touched[t] = 1;
			if (give_up && f.t[t].state != FX_DONE) {
				dx_mark_flaky(c, t);
				f.t[t].state = FX_DONE;
				continue;
			}
			rc = plan(&f, t);
			planned += rc > 0;
			rc = rc > 0 ? 0 : rc;
		}
		if (rc < 0)
			break;
		if (!planned) {
			/* Nothing waits on nothing: the earliest unsettled test's probes hold only
			 * settled tests. Should one still wait, it is left out. */
			for (uint32_t t = 0; t < f.n; t++) {
				if (f.t[t].state != FX_DONE) {
					dx_mark_flaky(c, t);
					f.t[t].state = FX_DONE;
				}
			}
			rc = f.reval ? plan_reverification(&f, &schedules, &earlier)
				     : plan_verification(&f, &schedules, &earlier);
			if (rc == 0) {
				c->stats->output_schedules = schedules;
				c->stats->verified_earlier = earlier;
				break;
			}
			if (rc < 0)
				break;
		}
		rc = run_probes(&f);
		if (rc == 0)
			reopen_failed(&f);
	}
done:
	for (size_t i = 0; f.t && i < f.n; i++) {
		recs_free(&f.t[i].pass);
		recs_free(&f.t[i].fail);
		free(f.t[i].u);
	}
	for (size_t i = 0; i < f.passed.n; i++)
		free(f.passed.v[i].v);
	ut_vec_free(&f.passed);
	probes_clear(&f);
	ut_vec_free(&f.probes);
	changed(&f);
	free(f.t);
	free(f.mark);
	free(f.touched);
	return rc;
}
