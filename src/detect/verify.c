/* verify.c: the final verification of an output graph, for every strategy, and its repair.
 *
 * The graph is right when each test passes after its schedule (it and its transitive
 * prerequisites, in original order), the schedule of each test nobody depends on (the
 * output schedules: what shard and run use) ran whole and passed, and each direct
 * prerequisite d of a test t has a run in which t failed without d and with every other
 * test of its schedule (nothing of which needs d: d is direct). The search leaves all of
 * this in the evidence store as it goes; tedd's inversions often do not. What is missing
 * runs here, in batches. A schedule that fails sends its first failing test back to the
 * search, a prerequisite that turns out unneeded sends its dependent back, and the graph is
 * verified again; the stats say what that changed. dx_verify_output verifies tedd's output
 * the same way. */
#include "detect/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define SX_VERIFY_ROUNDS 8 /* repairs that do not settle within this many: left out */
/* Rounds in all, repairs or not, once outcomes disagreed, in SX_VERIFY_ROUNDS: a round
 * whose runs lost their verdicts to intermittent failures of earlier tests repairs
 * nothing and is planned again (each test's repairs have a cap of their own) */
#define SX_VERIFY_UNSTEADY 12

typedef struct {
	uint32_t owner;
	long without;	 /* -1: the owner's schedule; else the prerequisite left out */
	unsigned stored; /* without >= 0: the store's failures of the owner without it, when
			  * planned (a run the store records is not counted again) */
} vx_job;

typedef UT_VEC(vx_job) vx_jobs;

static bool in_scope(const unsigned char *scope, uint32_t t)
{
	return !scope || scope[t];
}

/* Whether d is needed by another direct prerequisite of t (then t -> d is implied): d is
 * in t's schedule without the edge. tmp: scratch. */
static int implied(ut_scheduler *sch, uint32_t t, uint32_t d, dx_sched *tmp, bool *out)
{
	int rc;

	tmp->n = 0;
	rc = ut_scheduler_without(sch, t, d, &tmp->v, &tmp->n, &tmp->cap);
	*out = rc == 0 && bsearch(&d, tmp->v, tmp->n, sizeof(d), ut_cmp_u32);
	return rc;
}

static int push_one(dx_sched *v, uint32_t x)
{
	return ut_vec_push(v, x) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* to = from without `skip`, then `add` (UINT32_MAX: neither). */
static int copy_plus(dx_sched *to, const dx_sched *from, uint32_t skip, uint32_t add)
{
	int rc = 0;

	to->n = 0;
	for (size_t i = 0; rc == 0 && i < from->n; i++) {
		if (from->v[i] != skip)
			rc = push_one(to, from->v[i]);
	}
	if (rc == 0 && add != UINT32_MAX)
		rc = push_one(to, add);
	return rc;
}

/* The edge t -> d's slot in s->confirm, growing it to the graph's edges; NULL when it is
 * not there. */
static unsigned *confirm_slot(sx *s, uint32_t t, uint32_t d)
{
	const ut_edge *e = ut_graph_find(s->g, t, d);
	size_t i = e ? (size_t)(e - s->g->edges.v) : 0;

	if (!e)
		return NULL;
	if (i >= s->nconfirm) {
		size_t n = s->g->edges.n;
		unsigned *v = realloc(s->confirm, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + s->nconfirm, 0, (n - s->nconfirm) * sizeof(*v));
		s->confirm = v;
		s->nconfirm = n;
	}
	return &s->confirm[i];
}

/* Runs that showed t fail without d and with the rest of its schedule (without: its
 * schedule less d): the store's and the verification's own (a failure after fewer tests
 * than a record the store keeps is not a record of its own). */
static int confirmations(sx *s, uint32_t t, uint32_t d, const dx_sched *without)
{
	const unsigned *k = confirm_slot(s, t, d);

	const dx_rec *e = dx_evidence_find(s->c, t, without->v, without->n, false);
	/* a failure after more tests that a dispute held (t not monotone there, confirmed
	 * by reruns): the proof of a rescuer (rescue.c), which t's schedule without it,
	 * lacking the test that breaks t, cannot give */
	unsigned held = dx_evidence_failures(s->c, t, without->v, without->n, d, true);
	unsigned own = e && (!k || e->hits > *k) ? e->hits : k ? *k : 0;

	/* once outcomes disagreed: runs of that very schedule (one after more tests may
	 * have been intermittent, and two such of different schedules prove nothing). The
	 * verification's own runs are the store's too when it keeps that record: the
	 * larger count, not the sum (one run counted twice) */
	if (s->c->unsteady)
		return (int)(held > own ? held : own);
	return (int)dx_evidence_failures(s->c, t, without->v, without->n, d, false) +
	       (k ? (int)*k : 0) + (int)sx_hosted_confirmations(s, t, d, without);
}

/* Runs that must agree before the verification takes a schedule as passing or an edge as
 * proven: one while outcomes agree; once they disagreed, what reruns asks for besides the
 * run the search decided on, which does not confirm itself (else two intermittent
 * outcomes of one schedule, 1 in 400 with 1 flip in 20, decide: of the hundreds of
 * questions a search asks, a few do, seen on the real shapes as an edge of two
 * intermittent failures and a test that passed alone twice by chance) */
static int verify_need(const sx *s)
{
	return s->c->unsteady ? dx_need(s->c) + 1 : 1;
}

/* Failures that must show t without d before the verification takes t -> d as proven:
 * what detect.reruns asks for (reruns + 1) even while outcomes agree, since a failure is
 * what an intermittent outcome usually is (DokuWiki: register, create, edit failed once
 * at the edit, 1 run in 3 by hand, and that single failure decided an extra edge; the
 * value both tests share did not make it right); once outcomes disagreed, verify_need's
 * (the search's own run does not confirm itself then). */
static int edge_need(const sx *s)
{
	return s->c->unsteady ? verify_need(s) : dx_need(s->c);
}

/* Plans the runs t's direct, not implied prerequisites miss to be proven (cl: t's
 * schedule without t); *planned counts them. */
static int plan_edges(sx *s, ut_scheduler *sch, uint32_t t, const dx_sched *cl, vx_jobs *why,
		      int *planned)
{
	const ut_adjacency *adj = &sch->adj;
	dx_sched sched = {0}, tmp = {0};
	char purpose[200];
	int rc = 0;

	for (uint32_t k = adj->start[t]; rc == 0 && k < adj->start[t + 1]; k++) {
		uint32_t d = adj->deps[k];
		vx_job j = {t, d, 0};
		bool imp = false;

		rc = implied(sch, t, d, &tmp, &imp);
		if (rc < 0 || imp)
			continue;
		rc = copy_plus(&sched, cl, d, UINT32_MAX);
		/* a failure needs confirming (edge_need): one may have been intermittent
		 * without contradicting anything */
		if (rc < 0 || confirmations(s, t, d, &sched) >= edge_need(s))
			continue;
		j.stored = dx_evidence_failures(s->c, t, sched.v, sched.n, d, false);
		rc = push_one(&sched, t);
		snprintf(purpose, sizeof(purpose), "%s that %s needs %s",
			 j.stored ? "confirm" : "verify", s->g->tests[t].id, s->g->tests[d].id);
		if (rc == 0)
			rc = sx_propose(s, t, &sched, UT_PHASE_VERIFY, purpose);
		if (rc == 0 && ut_vec_push(why, j) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		(*planned)++;
	}
	ut_vec_free(&sched);
	ut_vec_free(&tmp);
	return rc;
}

/* Plans what the evidence does not show yet. Returns the number of runs planned. */
static int plan(sx *s, const unsigned char *scope, vx_jobs *why, bool first)
{
	ut_scheduler sch;
	const ut_adjacency *adj = &sch.adj;
	unsigned char *has_dependent = calloc(s->n ? s->n : 1, 1);
	dx_sched cl = {0}, sched = {0};
	char purpose[200];
	unsigned whole;
	int rc, planned = 0;

	if (!has_dependent)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = ut_scheduler_init_active(&sch, s->g);
	if (rc < 0) {
		free(has_dependent);
		return rc;
	}
	for (uint32_t t = 0; t < s->n; t++) {
		if (s->c->excluded[t] != DX_IN)
			continue;
		for (uint32_t k = adj->start[t]; k < adj->start[t + 1]; k++)
			has_dependent[adj->deps[k]] = 1;
	}
	if (first)
		s->c->stats->output_schedules = s->c->stats->verified_earlier = 0;
	s->verified = 0;
	rc = sx_graph_closures(s, sx_included); /* the output graph's schedules */
	for (uint32_t t = 0; rc == 0 && t < s->n; t++) {
		bool sink = !has_dependent[t];
		vx_job j = {t, -1, 0};

		if (s->c->excluded[t] != DX_IN || !in_scope(scope, t))
			continue;
		rc = copy_plus(&cl, &s->t[t].anc, UINT32_MAX, UINT32_MAX);
		if (rc < 0)
			break;
		if (sink && first) {
			s->c->stats->output_schedules++;
			s->c->stats->verified_earlier +=
			    dx_evidence_whole(s->c, t, cl.v, cl.n) != 0;
		}
		whole = dx_evidence_whole_hits(s->c, t, cl.v, cl.n);
		s->verified += whole != 0;
		/* every test's own schedule; once outcomes disagreed, confirmed */
		if (whole < (unsigned)verify_need(s)) {
			rc = copy_plus(&sched, &cl, UINT32_MAX, t);
			snprintf(purpose, sizeof(purpose), "verify the schedule of %s",
				 s->g->tests[t].id);
			if (rc == 0)
				rc = sx_propose(s, t, &sched, UT_PHASE_VERIFY, purpose);
			if (rc == 0 && ut_vec_push(why, j) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
			planned++;
			continue; /* its prerequisites once it passes */
		}
		if (s->t[t].state == SX_GRAPH && !s->prove_graph)
			continue; /* its edges stand: only its schedule is verified */
		rc = plan_edges(s, &sch, t, &cl, why, &planned);
	}
	ut_vec_free(&cl);
	ut_vec_free(&sched);
	ut_scheduler_dispose(&sch);
	free(has_dependent);
	return rc < 0 ? rc : planned;
}

/* Whether a's schedule is b's up to a's owner (and b holds more): b's run answers a. */
static bool prefix_of(const sx_probe *a, const sx_probe *b)
{
	return a->sched.n < b->sched.n &&
	       !memcmp(a->sched.v, b->sched.v, a->sched.n * sizeof(*a->sched.v));
}

/* host[i]: the planned run that answers schedule verification i (its own index when it
 * runs itself): a test's schedule that is the start of another one runs inside it. */
static void find_hosts(const sx *s, const vx_job *why, size_t m, size_t *host)
{
	for (size_t i = 0; i < m; i++) {
		host[i] = i;
		for (size_t k = 0; why[i].without < 0 && k < m; k++) {
			if (why[k].without < 0 && prefix_of(&s->probes.v[i], &s->probes.v[k]) &&
			    (host[i] == i || s->probes.v[k].sched.n > s->probes.v[host[i]].sched.n))
				host[i] = k;
		}
	}
}

static bool has(const uint32_t *v, size_t n, uint32_t x)
{
	return n && bsearch(&x, v, n, sizeof(x), ut_cmp_u32);
}

/* Whether confirmation i (t without d: t's schedule less d, then t) can end run k as it
 * stands: t comes after all of it, every test t's failure needs passes there (k's own
 * schedule, less its owner when k confirms an edge too: that one fails), and neither d
 * nor a test another of k's confirmations leaves out (miss[k]) is there or t. */
static bool can_end(const sx *s, const vx_job *why, const size_t *base, const dx_sched *miss,
		    size_t i, size_t k)
{
	const dx_sched *a = &s->probes.v[i].sched, *h = &s->probes.v[k].sched;
	size_t pass = base[k] - (why[k].without >= 0);
	uint32_t t = why[i].owner, d = (uint32_t)why[i].without;

	return h->v[h->n - 1] < t && !has(h->v, h->n, d) && !has(miss[k].v, miss[k].n, t) &&
	       !has(miss[k].v, miss[k].n, d) && dx_subset(a->v, a->n - 1, h->v, pass);
}

typedef struct {
	size_t len, i;
} vx_len;

static int by_len_desc(const void *a, const void *b)
{
	const vx_len *x = a, *y = b;

	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The run that confirmation i ends, the shortest that can (can_end), or m. */
static size_t end_of(const sx *s, const vx_job *why, const size_t *host, const size_t *base,
		     const dx_sched *miss, size_t m, size_t i)
{
	size_t best = m;

	for (size_t k = 0; k < m; k++) {
		if (k != i && host[k] == k && base[k] >= base[i] &&
		    (best == m || base[k] < base[best]) && can_end(s, why, base, miss, i, k))
			best = k;
	}
	return best;
}

/* Confirmations end other planned runs where they can (can_end): a failure of t after
 * more tests than its schedule less d, none of them d, is the same proof under the
 * search's model (a longer run's failure answers every question about fewer tests), and
 * one run then confirms several edges (the six real shapes: 126 confirmation runs instead
 * of 151). The longest go first, so that the shorter ones find a run to end. Only while
 * outcomes agree: once they disagreed, a failure that ends a run after another one may be
 * that one's doing as much as the missing test's, and a confirmation runs on its own.
 * host[i] as find_hosts'; base[k]: run k's own length; miss[k]: the tests its
 * confirmations leave out, ascending. */
static int host_confirmations(sx *s, const vx_job *why, size_t m, size_t *host, size_t *base,
			      dx_sched *miss)
{
	vx_len *by = malloc((m ? m : 1) * sizeof(*by));
	int rc = by ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	for (size_t i = 0; rc == 0 && i < m; i++) {
		base[i] = s->probes.v[i].sched.n;
		if (why[i].without >= 0)
			rc = push_one(&miss[i], (uint32_t)why[i].without);
		by[i] = (vx_len){base[i], i};
	}
	if (rc == 0)
		qsort(by, m, sizeof(*by), by_len_desc);
	for (size_t a = 0; rc == 0 && !s->c->unsteady && a < m; a++) {
		size_t i = by[a].i, k;

		if (why[i].without < 0 || host[i] != i || s->probes.v[i].sched.n != base[i])
			continue; /* a run that others end already stays one */
		k = end_of(s, why, host, base, miss, m, i);
		if (k == m)
			continue;
		host[i] = k;
		rc = push_one(&s->probes.v[k].sched, why[i].owner);
		for (size_t j = 0; rc == 0 && j < miss[i].n; j++)
			rc = push_one(&miss[k], miss[i].v[j]);
		if (rc == 0)
			qsort(miss[k].v, miss[k].n, sizeof(*miss[k].v), ut_cmp_u32);
	}
	free(by);
	return rc;
}

/* Whether f's own schedule (its settled prerequisites) ran whole and passed as often as
 * a decision needs. */
static bool proven_alone(sx *s, uint32_t f)
{
	const dx_sched *a = &s->t[f].anc;

	return dx_evidence_whole_hits(s->c, f, a->v, a->n) >= (unsigned)dx_need(s->c);
}

/* Whether t failed after its own schedule (or after more tests) more often than that
 * schedule passed whole: the failures are then a verdict; while they are not more, the
 * schedule runs again and the majority decides. */
static bool outnumbered(sx *s, uint32_t t)
{
	const dx_sched *a = &s->t[t].anc;

	return dx_evidence_failures(s->c, t, a->v, a->n, UINT32_MAX, false) >
	       dx_evidence_whole_hits(s->c, t, a->v, a->n);
}

/* The verdict on planned run i from o, the outcomes of its first n tests (its own: the
 * run's, or those of a run that took it, hosted): the test to search again, or -1. */
static long judge(sx *s, const vx_job *why, size_t i, size_t n, const ut_outcome *o, long run,
		  bool hosted)
{
	const sx_probe *p = &s->probes.v[i];
	uint32_t t = why[i].owner;
	long f = -1;

	size_t k;

	for (k = 0; k < n && f < 0; k++) {
		if (s->c->excluded[p->sched.v[k]] == DX_IN && o[k] != UT_OUT_PASS)
			f = (long)p->sched.v[k];
	}
	if (f >= 0 && o[k - 1] == UT_OUT_NOTRUN)
		return -1; /* after an intermittent failure: no verdict, planned again */
	/* an earlier test whose own schedule holds, or t's own schedule that failed no more
	 * often than it passed whole: most likely intermittent here, not a reason to search it
	 * again (MantisBT with 4 workers, 1 flip in 20: a rescued test's schedule failed once
	 * after passing; searched again, it lost its rescuer for good and was left out with
	 * its dependent). The schedule is planned again while it has passed fewer times than
	 * verify_need asks; once its failures outnumber its passes, they decide. */
	if (f >= 0 && s->c->unsteady &&
	    (f != (long)t ? proven_alone(s, (uint32_t)f)
			  : why[i].without < 0 && !outnumbered(s, t)))
		return -1;
	if (why[i].without < 0) {
		/* it ended a schedule that passed whole inside a longer one (a run of its
		 * own is in the store already: noted twice, one run would count as the
		 * two that reruns 1 asks for) */
		if (f < 0 && hosted)
			return dx_evidence_note_whole(s->c, t, p->sched.v, n - 1, run) < 0 ? -2 : -1;
		if (f < 0)
			return -1;
		return f;
	}
	if (f == (long)t) { /* it needs the prerequisite, once more */
		uint32_t d = (uint32_t)why[i].without;
		unsigned *slot = confirm_slot(s, t, d);

		s->confirmed++;
		/* counted here unless the store recorded the run itself (a failure after
		 * fewer tests than a record it keeps is not one of its own) */
		if (slot && dx_evidence_failures(s->c, t, p->sched.v, n - 1, d, false) <= why[i].stored)
			(*slot)++;
		return -1;
	}
	/* another test failed first: the run that took it has it in its own schedule and
	 * its own verdict sends it back */
	if (f >= 0 && hosted)
		return -1;
	return f < 0 ? (long)t : f; /* it does not need it, or something else failed */
}

/* Appends to run i's purpose what the confirmations at its end ask, so that the failures
 * they expect read as expected: ", then confirm that B needs C" (and how many more, and
 * how many of its last tests should fail); when the names do not fit, only the numbers. */
static void name_confirmations(sx *s, const vx_job *why, const size_t *host, size_t m,
			       size_t i, size_t base)
{
	sx_probe *p = &s->probes.v[i];
	size_t len = strlen(p->purpose), room = sizeof(p->purpose) - len, more = p->sched.n - base;
	size_t fails = more + (why[i].without >= 0); /* a confirmation's own owner fails too */
	char tail[64] = "", rest[160] = "";
	int w = -1;

	if (fails > 1)
		snprintf(tail, sizeof(tail), " (its last %zu tests should fail)", fails);
	if (more > 1)
		snprintf(rest, sizeof(rest), ", and %zu more confirmation%s at its end%s", more - 1,
			 more == 2 ? "" : "s", tail);
	for (size_t j = 0; j < m; j++) { /* the first at its end */
		if (j == i || host[j] != i || why[j].without < 0 ||
		    why[j].owner != p->sched.v[base])
			continue;
		w = snprintf(p->purpose + len, room, ", then confirm that %s needs %s%s",
			     s->g->tests[why[j].owner].id, s->g->tests[why[j].without].id, rest);
		break;
	}
	if (w >= 0 && (size_t)w < room)
		return;
	snprintf(p->purpose + len, room, ", and %zu confirmation%s at its end%s", more,
		 more == 1 ? "" : "s", fails > 1 ? tail : " (its last test should fail)");
}

/* The jobs of the planned runs: each run that no other takes, with the confirmations
 * that end it (host_confirmations); slot[i]: run i's job. Returns how many, or < 0. */
static long plan_jobs(sx *s, const vx_job *why, size_t *host, size_t *base, size_t *slot,
		      dx_job *jobs)
{
	size_t m = s->probes.n, nrun = 0;
	dx_sched *miss = calloc(m ? m : 1, sizeof(*miss));
	int rc = miss ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	find_hosts(s, why, m, host);
	if (rc == 0)
		rc = host_confirmations(s, why, m, host, base, miss);
	for (size_t i = 0; rc == 0 && i < m; i++) {
		sx_probe *p = &s->probes.v[i];
		size_t more = p->sched.n - base[i];

		if (host[i] != i)
			continue;
		if (more)
			name_confirmations(s, why, host, m, i, base[i]);
		slot[i] = nrun;
		jobs[nrun++] = (dx_job){p->sched.v, p->sched.n, p->purpose, p->phase, more + 1};
	}
	for (size_t i = 0; i < m && miss; i++)
		ut_vec_free(&miss[i]);
	free(miss);
	return rc < 0 ? rc : (long)nrun;
}

/* view[k]: the outcome of probe p's k-th test in run job (both ascending). */
static void view_of(const sx_probe *p, size_t n, const dx_job *job, const dx_result *r,
		    ut_outcome *view)
{
	for (size_t k = 0; k < n; k++) {
		const uint32_t *at = job->n ? bsearch(&p->sched.v[k], job->sched, job->n,
						      sizeof(*job->sched), ut_cmp_u32)
					    : NULL;

		view[k] = at ? r->outcomes[at - job->sched] : UT_OUT_NOTRUN;
	}
}

/* Judges every planned run on the run that answered it (see judge). */
static int judge_all(sx *s, const vx_job *why, const size_t *host, const size_t *base,
		     const size_t *slot, const dx_job *jobs, const dx_result *res,
		     size_t *reopened, unsigned *reopens)
{
	size_t m = s->probes.n, most = 1;
	ut_outcome *view;
	int rc = 0;

	for (size_t i = 0; i < m; i++)
		most = base[i] > most ? base[i] : most;
	view = malloc(most * sizeof(*view));
	if (!view)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; rc == 0 && i < m; i++) {
		size_t h = host[i];
		long f;

		while (host[h] != h)
			h = host[h];
		if (res[slot[h]].error || s->c->excluded[why[i].owner] != DX_IN)
			continue; /* no verdict: a run that failed as a whole, or a flaky test */
		view_of(&s->probes.v[i], base[i], &jobs[slot[h]], &res[slot[h]], view);
		f = judge(s, why, i, base[i], view, res[slot[h]].run, h != i);
		if (f == -2)
			rc = UT_ENOMEM;
		else if (f >= 0 && s->t[f].state != SX_START) {
			sx_reopen(s, (uint32_t)f);
			reopens[f]++;
			(*reopened)++;
		}
	}
	free(view);
	return rc;
}

/* Runs the planned verification and sends back to the search what it refutes: *reopened
 * counts those tests, reopens[t] the times each was. */
static int run_and_judge(sx *s, const vx_job *why, size_t *reopened, unsigned *reopens)
{
	size_t m = s->probes.n, nrun = 0;
	dx_job *jobs = calloc(m ? m : 1, sizeof(*jobs));
	dx_result *res = calloc(m ? m : 1, sizeof(*res));
	size_t *host = calloc(m ? m : 1, sizeof(*host)), *slot = calloc(m ? m : 1, sizeof(*slot));
	size_t *base = calloc(m ? m : 1, sizeof(*base));
	long planned;
	int rc = 0;

	*reopened = 0;
	if (!jobs || !res || !host || !slot || !base) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	planned = plan_jobs(s, why, host, base, slot, jobs);
	if (planned < 0) {
		rc = (int)planned;
		goto done;
	}
	nrun = (size_t)planned;
	s->c->phase = UT_PHASE_VERIFY;
	rc = dx_run_batch(s->c, jobs, nrun, res);
	if (rc < 0) {
		free(res);
		res = NULL;
		goto done;
	}
	s->verify_runs += nrun;
	rc = judge_all(s, why, host, base, slot, jobs, res, reopened, reopens);
done:
	dx_results_free(res, nrun);
	free(jobs);
	free(host);
	free(slot);
	free(base);
	for (size_t i = 0; i < s->probes.n; i++)
		ut_vec_free(&s->probes.v[i].sched);
	s->probes.n = 0;
	return rc;
}

/* Once outcomes disagreed, a test searched again by as many repairs as a verification
 * makes in all while they agree, three times over, is left out as failing: the others'
 * repairs go on (counted for all tests at once, the repairs a suite of 27 tests needed
 * with 1 flip in 20 ran out while one test was settling right). */
static void leave_out_unsettled(sx *s, const unsigned *reopens)
{
	for (uint32_t t = 0; s->c->unsteady && t < s->n; t++) {
		if (reopens[t] > 3 * SX_VERIFY_ROUNDS)
			dx_mark_failing(s->c, t);
	}
}

/* What the verification did, in the detection's stats. */
static void report(const sx *s)
{
	ut_detect_stats *st = s->c->stats;

	st->verify_runs = s->verify_runs;
	st->verify_searched = s->reopened;
	st->verify_added = s->added;
	st->verify_removed = s->removed;
	st->verify_confirmed = s->confirmed;
	st->verified = s->verified;
}

int sx_verify(sx *s, const unsigned char *scope)
{
	vx_jobs why = {0};
	unsigned char *was = NULL;
	unsigned *reopens = calloc(s->n ? s->n : 1, sizeof(*reopens));
	size_t nwas = 0;
	int rc = reopens ? 0 : ut_error_set(UT_ENOMEM, "out of memory"), planned;

	for (int round = 0; rc == 0; round++) {
		size_t reopened = 0;

		why.n = 0;
		planned = plan(s, scope, &why, round == 0);
		if (planned <= 0) {
			rc = planned;
			break;
		}
		if (round >= (s->c->unsteady ? SX_VERIFY_UNSTEADY : 1) * SX_VERIFY_ROUNDS) {
			/* Still refuted after as many repairs: the runs disagree with any graph of
			 * prerequisites. Their owners are left out rather than guessed about, as
			 * failing: no two runs of one schedule disagreed (that is flaky). */
			for (size_t i = 0; i < why.n; i++)
				dx_mark_failing(s->c, why.v[i].owner);
			for (size_t i = 0; i < s->probes.n; i++)
				ut_vec_free(&s->probes.v[i].sched);
			s->probes.n = 0;
			continue;
		}
		rc = run_and_judge(s, why.v, &reopened, reopens);
		if (rc < 0 || !reopened)
			continue;
		leave_out_unsettled(s, reopens);
		s->reopened += reopened;
		free(was);
		was = calloc(s->g->edges.n ? s->g->edges.n : 1, 1);
		if (!was) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		nwas = s->g->edges.n;
		for (size_t i = 0; i < nwas; i++)
			was[i] = s->g->edges.v[i].status == UT_EDGE_MANIFEST;
		rc = sx_search(s);
		for (size_t i = 0; rc == 0 && i < s->g->edges.n; i++) {
			bool now = s->g->edges.v[i].status == UT_EDGE_MANIFEST;
			bool before = i < nwas && was[i];

			s->added += now && !before;
			s->removed += before && !now;
		}
		/* What the tests need may have changed: settle everything from the graph. */
		if (rc == 0)
			rc = sx_graph_closures(s, sx_included);
	}
	free(was);
	free(reopens);
	ut_vec_free(&why);
	report(s);
	return rc;
}

int dx_verify_output(dx_ctx *c)
{
	sx s;
	int rc = sx_init(&s, c);

	s.with_original = true; /* tedd runs the original order first */
	s.prove_graph = true;
	for (uint32_t t = 0; rc == 0 && t < s.n; t++)
		s.t[t].state = c->excluded[t] != DX_IN ? SX_DONE : SX_GRAPH;
	if (rc == 0)
		rc = sx_settle_from_graph(&s);
	if (rc == 0)
		rc = sx_verify(&s, NULL);
	sx_dispose(&s);
	return rc;
}
