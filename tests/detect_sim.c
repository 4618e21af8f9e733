/* detect_sim.c: the simulated runner of detection's unit tests (detect_sim.h); what a test
 * does is tests/sim/sim.c's to decide. */
#include "detect_sim.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* The suite as sim.h describes it; m[t].prereqs point into pre[t]. */
typedef struct {
	sim_test m[SIM_MAX];
	uint32_t pre[SIM_MAX][SIM_MAX];
} sim_model;

void sim_init(sim *s, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->flaky = s->glitch = -1;
	s->seed = 1;
	for (size_t t = 0; t < SIM_MAX; t++)
		s->broken_by[t] = s->unless[t] = -1;
	pthread_mutex_init(&s->lock, NULL);
}

void sim_dispose(sim *s)
{
	free(s->log);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
}

void sim_need(sim *s, uint32_t t, uint32_t p)
{
	s->need[t][p] = true;
}

void sim_intermittent(sim *s, uint32_t t, long n)
{
	s->intermittent[t] = n;
}

void sim_breaks(sim *s, uint32_t t, uint32_t x, long y)
{
	s->broken_by[t] = (long)x;
	s->unless[t] = y;
}

static void model(const sim *s, sim_model *m)
{
	for (size_t t = 0; t < s->n; t++) {
		sim_test x = SIM_TEST_INIT;

		for (size_t p = 0; p < s->n; p++)
			if (s->need[t][p])
				m->pre[t][x.nprereqs++] = (uint32_t)p;
		x.prereqs = m->pre[t];
		x.flaky_every = (long)t == s->flaky ? s->flaky_every : 0;
		x.intermittent = s->intermittent[t];
		x.broken_by = s->broken_by[t];
		x.unless = s->unless[t];
		m->m[t] = x;
	}
}

static long next_turn(void *ctx, uint32_t t)
{
	return ++((sim *)ctx)->turns[t];
}

bool sim_passes(const sim *s, const uint32_t *sched, size_t n)
{
	unsigned char ran[SIM_MAX] = {0};
	sim_model m;

	model(s, &m);
	for (size_t i = 0; i < n; i++) {
		if (sim_judge(m.m, sched[i], ran, 0, NULL, NULL, NULL) != SIM_PASS)
			return false;
		ran[sched[i]] = 1;
	}
	return true;
}

static int log_run(sim *s, const sim_run *log)
{
	if (s->nlog == s->caplog) {
		size_t cap = s->caplog ? 2 * s->caplog : 64;
		sim_run *v = realloc(s->log, cap * sizeof(*v));

		if (!v)
			return ut_error_set(UT_ENOMEM, "out of memory");
		s->log = v;
		s->caplog = cap;
	}
	s->log[s->nlog++] = *log;
	return 0;
}

int sim_run_schedule(void *ctx, int worker, const char *const *ids, const uint32_t *sched,
		     size_t n, ut_run_result *out)
{
	sim *s = ctx;
	unsigned char ran[SIM_MAX] = {0};
	uint32_t before = 0; /* the tests run so far, a bit each */
	sim_model m;
	sim_run log;
	int rc;

	(void)ids;
	memset(out, 0, sizeof(*out));
	out->worker = worker;
	if (n == 0 || n > SIM_MAX)
		return ut_error_set(UT_EINPUT, "simulated runner: %zu tests", n);
	out->tests = calloc(n, sizeof(*out->tests));
	if (!out->tests)
		return ut_error_set(UT_ENOMEM, "out of memory");
	out->n = n;
	out->status = UT_RUN_OK;
	out->proc.state = UT_PROC_EXITED;
	memset(&log, 0, sizeof(log));
	log.n = n;
	pthread_mutex_lock(&s->lock);
	model(s, &m);
	if (s->crash_run && (long)s->nlog + 1 == s->crash_run) {
		for (size_t i = 0; i < n; i++)
			out->tests[i].outcome = UT_OUT_NOTRUN;
		out->proc.exit_code = 1;
		n = 0; /* nothing executed; logged as an empty run */
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t t = sched[i];
		bool pass = sim_judge(m.m, t, ran, s->seed, next_turn, s, NULL) == SIM_PASS;

		if (sim_flipped(s->seed, t, ++s->execs[t], s->flip_every))
			pass = !pass;
		if ((long)t == s->glitch && before == s->glitch_after && s->glitch_skip-- <= 0) {
			pass = false;
			s->glitch = -1;
		}
		before |= 1u << t;

		ran[t] = pass;
		out->tests[i].outcome = pass ? UT_OUT_PASS : UT_OUT_FAIL;
		out->tests[i].duration_s = 1.0;
		log.sched[i] = t;
		log.passed[i] = pass;
	}
	rc = log_run(s, &log);
	pthread_mutex_unlock(&s->lock);
	return rc;
}
