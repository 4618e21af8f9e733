/* verify.c: running a plan's shards before they are published, and the search for the
 * test that makes a shard fail where its parts pass (verify.h). */
#include "shard/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/journal.h"
#include "runner/tally.h"
#include "util/error.h"
#include "util/banned.h"

/* A failing test of a failing shard, searched. */
typedef struct {
	uint32_t target;
	uint32_t *base;   /* the target's schedule without it, ascending */
	size_t nbase;
	uint32_t *c;      /* the shard's earlier tests outside that schedule, ascending */
	size_t nc;
	size_t lo, hi;    /* the target passed after base + c[0..lo), failed after c[0..hi) */
	long lo_run, hi_run;
	bool alone_done;  /* base + target alone has run */
	bool done;
	uint32_t *sched;  /* the probe of this step */
	size_t n;
	char purpose[96]; /* the journal's purpose of that probe */
} suspect;

typedef struct {
	ut_graph *g;
	ut_journal *journal;
	ut_runner *runner;
	const ut_shard_verify_opts *o;
	ut_shard_verify_result *out;
	ut_scheduler sched;
	suspect *sus;
	size_t nsus;
	size_t round_failed; /* shards that failed in this round's run */
	size_t known;        /* pairs in the graph when this round began */
} verifier;

static void suspects_clear(verifier *v)
{
	for (size_t i = 0; i < v->nsus; i++) {
		free(v->sus[i].base);
		free(v->sus[i].c);
		free(v->sus[i].sched);
	}
	free(v->sus);
	v->sus = NULL;
	v->nsus = 0;
}

/* Runs the m schedules as one batch; out[i] for jobs[i] (outcomes freed by the caller). */
static int probe(verifier *v, const ut_detect_probe_job *jobs, size_t m,
		 ut_detect_probe_result *res)
{
	int rc = ut_detect_probe(v->g, v->runner, v->journal, &v->o->detect, jobs, m, res,
				 &v->out->stats);

	for (size_t i = 0; rc == 0 && i < m; i++)
		if (res[i].error)
			rc = ut_error_set(UT_EENV, "the run of '%s' failed as a whole twice: the "
					  "runner gave no usable report", jobs[i].purpose);
	return rc;
}

static void results_free(ut_detect_probe_result *res, size_t m)
{
	for (size_t i = 0; res && i < m; i++)
		free(res[i].outcomes);
	free(res);
}

/* A suspect for test sh->tests[at], which failed in the shard's run `run`. */
static int suspect_add(verifier *v, const ut_shard *sh, size_t at, long run)
{
	suspect *s = &v->sus[v->nsus];
	size_t cap = 0, j, k = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	s->target = sh->tests[at];
	rc = ut_scheduler_of(&v->sched, s->target, &s->base, &s->nbase, &cap);
	if (rc < 0)
		return rc;
	s->nbase--; /* the target itself, last */
	s->c = malloc((at ? at : 1) * sizeof(*s->c));
	s->sched = malloc((at + 1) * sizeof(*s->sched));
	if (!s->c || !s->sched)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (j = 0; j < at; j++) {
		while (k < s->nbase && s->base[k] < sh->tests[j])
			k++;
		if (k == s->nbase || s->base[k] != sh->tests[j])
			s->c[s->nc++] = sh->tests[j];
	}
	s->hi = s->nc;
	s->hi_run = run;
	v->nsus++;
	return 0;
}

/* The probe of suspect s: base and c[0..m) merged in original order, then the target. */
static void suspect_probe(suspect *s, size_t m)
{
	size_t i = 0, j = 0;

	s->n = 0;
	while (i < s->nbase || j < m)
		s->sched[s->n++] = j == m || (i < s->nbase && s->base[i] < s->c[j]) ? s->base[i++]
										   : s->c[j++];
	s->sched[s->n++] = s->target;
}

static void suspect_unfixed(verifier *v, suspect *s)
{
	s->done = true;
	if (v->out->unfixed < 0)
		v->out->unfixed = s->target;
}

/* What a probe of s showed: the target passed or failed after c[0..m). */
static int suspect_learn(verifier *v, suspect *s, size_t m, bool failed, long run)
{
	if (!s->alone_done) {
		s->alone_done = true;
		if (failed || s->nc == 0) {
			/* its own schedule fails, or it fails only sometimes: no pair to find */
			suspect_unfixed(v, s);
			return 0;
		}
		s->lo_run = run;
	} else if (failed) {
		s->hi = m;
		s->hi_run = run;
	} else {
		s->lo = m;
		s->lo_run = run;
	}
	if (s->hi - s->lo > 1)
		return 0;
	s->done = true;
	for (size_t i = 0; i < v->g->apart.n; i++) {
		if (v->g->apart.v[i].first != s->c[s->hi - 1] || v->g->apart.v[i].then != s->target)
			continue;
		if (i < v->known)
			suspect_unfixed(v, s); /* known, and the plan could not honour it */
		return 0;              /* or found by another shard of this round */
	}
	v->out->found++;
	return ut_graph_add_apart(v->g, s->c[s->hi - 1], s->target, s->hi_run, s->lo_run);
}

/* One probe of every suspect not done, run as one batch, until all are. */
static int search(verifier *v)
{
	ut_detect_probe_job *jobs = malloc((v->nsus ? v->nsus : 1) * sizeof(*jobs));
	size_t *who = malloc((v->nsus ? v->nsus : 1) * sizeof(*who));
	int rc = jobs && who ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	while (rc == 0) {
		ut_detect_probe_result *res = NULL;
		size_t m = 0;

		for (size_t i = 0; i < v->nsus; i++) {
			suspect *s = &v->sus[i];

			if (s->done)
				continue;
			suspect_probe(s, s->alone_done ? (s->lo + s->hi) / 2 : 0);
			snprintf(s->purpose, sizeof(s->purpose),
				 "shard verify: test %u after %zu of %zu other earlier tests",
				 (unsigned)s->target, s->alone_done ? (s->lo + s->hi) / 2 : 0, s->nc);
			jobs[m] = (ut_detect_probe_job){s->sched, s->n, s->purpose};
			who[m++] = i;
		}
		if (!m)
			break;
		res = calloc(m, sizeof(*res));
		rc = res ? probe(v, jobs, m, res) : ut_error_set(UT_ENOMEM, "out of memory");
		for (size_t j = 0; rc == 0 && j < m; j++) {
			suspect *s = &v->sus[who[j]];
			size_t mid = s->alone_done ? (s->lo + s->hi) / 2 : 0;

			rc = suspect_learn(v, s, mid,
					   ut_outcome_fails_job(res[j].outcomes[s->n - 1]), res[j].run);
		}
		results_free(res, m);
	}
	free(jobs);
	free(who);
	return rc;
}

/* Runs every non-empty shard of plan; a suspect per failing shard (its first failing
 * test). */
static int run_plan(verifier *v, const ut_shard_plan *plan)
{
	ut_detect_probe_job *jobs = calloc(plan->nshards + 1, sizeof(*jobs));
	char (*purpose)[96] = calloc(plan->nshards + 1, sizeof(*purpose));
	ut_detect_probe_result *res = calloc(plan->nshards + 1, sizeof(*res));
	size_t *which = calloc(plan->nshards + 1, sizeof(*which));
	size_t m = 0;
	int rc = jobs && res && which && purpose ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	v->round_failed = 0;
	for (size_t i = 0; rc == 0 && i < plan->nshards; i++) {
		if (!plan->shards[i].n)
			continue;
		snprintf(purpose[m], sizeof(purpose[m]), "shard verify: plan %zu, shard %zu/%zu",
			 v->out->rounds, i + 1, plan->nshards);
		jobs[m] = (ut_detect_probe_job){plan->shards[i].tests, plan->shards[i].n,
						purpose[m]};
		which[m++] = i;
	}
	v->sus = calloc(m + 1, sizeof(*v->sus));
	if (rc == 0 && !v->sus)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = probe(v, jobs, m, res);
	for (size_t j = 0; rc == 0 && j < m; j++) {
		const ut_shard *sh = &plan->shards[which[j]];
		size_t at = 0;

		while (at < sh->n && !ut_outcome_fails_job(res[j].outcomes[at]))
			at++;
		if (at == sh->n)
			continue;
		v->out->shards_failed++;
		v->round_failed++;
		if (!v->sched.leftout[sh->tests[at]])
			rc = suspect_add(v, sh, at, res[j].run);
		else if (v->out->unfixed < 0)
			v->out->unfixed = sh->tests[at]; /* detect left it out: nothing to search */
	}
	results_free(res, m);
	free(jobs);
	free(which);
	free(purpose);
	return rc;
}

/* Whether plan puts a pair found this round in one list (it cannot do otherwise: one
 * list, or one test's schedule holds both); the pair's test is then unfixed. */
static bool holds_new_pair(verifier *v, const ut_shard_plan *plan)
{
	for (size_t i = v->known; i < v->g->apart.n; i++)
		if (ut_shard_plan_holds_pair(plan, &v->g->apart.v[i]) >= 0) {
			if (v->out->unfixed < 0)
				v->out->unfixed = v->g->apart.v[i].then;
			return true;
		}
	return false;
}

static int verify_rounds(verifier *v, ut_shard_plan *plan, const double *durations)
{
	int rounds = v->o->rounds > 0 ? v->o->rounds : UT_SHARD_VERIFY_ROUNDS;
	int rc = 0;

	while (rc == 0 && v->out->rounds < (size_t)rounds) {
		size_t found = v->out->found;
		ut_shard_plan next;

		v->out->rounds++;
		v->known = v->g->apart.n;
		rc = run_plan(v, plan);
		if (rc == 0 && !v->round_failed) {
			v->out->passed = true;
			break;
		}
		if (rc == 0)
			rc = search(v);
		suspects_clear(v);
		if (rc < 0 || v->out->found == found || v->out->rounds == (size_t)rounds)
			break;
		ut_scheduler_dispose(&v->sched);
		rc = ut_scheduler_init(&v->sched, v->g);
		if (rc == 0)
			rc = ut_shard_plan_build(&next, v->g, durations, &v->o->plan);
		if (rc == 0) {
			ut_shard_plan_dispose(plan);
			*plan = next;
		}
		if (rc == 0 && holds_new_pair(v, plan))
			break; /* it would fail as the last one did: not run */
	}
	return rc;
}

int ut_shard_verify(ut_shard_verify_result *out, ut_shard_plan *plan, ut_graph *g,
		    const double *durations, ut_runner *runner, const ut_shard_verify_opts *o)
{
	ut_journal_header jh = {.suite = "shard-verify",
				 .strategy = ut_detect_strategy_name(UT_STRATEGY_FAST),
				 .ntests = g->ntests};
	const char **ids = malloc((g->ntests ? g->ntests : 1) * sizeof(*ids));
	verifier v;
	int rc = ids ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	memset(&v, 0, sizeof(v));
	v.g = g;
	v.runner = runner;
	v.o = o;
	v.out = out;
	memset(out, 0, sizeof(*out));
	out->unfixed = -1;
	for (size_t i = 0; ids && i < g->ntests; i++)
		ids[i] = g->tests[i].id;
	jh.ids = ids;
	if (rc == 0)
		rc = ut_journal_open(&v.journal, o->journal_path, &jh, UT_JOURNAL_NEW);
	if (rc == 0)
		rc = ut_scheduler_init(&v.sched, g);
	if (rc == 0)
		rc = verify_rounds(&v, plan, durations);
	out->apart_broken = plan->apart_broken;
	suspects_clear(&v);
	ut_scheduler_dispose(&v.sched);
	ut_journal_close(v.journal);
	free(ids);
	return rc;
}
