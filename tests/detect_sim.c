/* detect_sim.c: the simulated runner of detection's unit tests (detect_sim.h). */
#include "detect_sim.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

void sim_init(sim *s, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->flaky = -1;
	s->breaker = s->broken = s->rescuer = -1;
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

/* Whether t passes after the tests marked in `ran` (those that ran and passed). */
static bool ready(const sim *s, uint32_t t, const bool *ran)
{
	for (size_t p = 0; p < s->n; p++) {
		if (s->need[t][p] && !ran[p])
			return false;
	}
	return true;
}

/* Whether t passes after `ran`, the pair that is not monotone included. */
static bool passes(const sim *s, uint32_t t, const bool *ran)
{
	if ((long)t == s->broken && ran[s->breaker] && !ran[s->rescuer])
		return false;
	return ready(s, t, ran);
}

/* Whether this execution's outcome is flipped (the lock is held). */
static bool flip(sim *s)
{
	if (!s->flip_every)
		return false;
	s->seed ^= s->seed << 13; /* xorshift64 */
	s->seed ^= s->seed >> 7;
	s->seed ^= s->seed << 17;
	return (s->seed >> 32) % s->flip_every == 0; /* the high bits: the better ones */
}

bool sim_passes(const sim *s, const uint32_t *sched, size_t n)
{
	bool ran[SIM_MAX] = {false};

	for (size_t i = 0; i < n; i++) {
		if (!passes(s, sched[i], ran))
			return false;
		ran[sched[i]] = true;
	}
	return true;
}

int sim_run_schedule(void *ctx, int worker, const char *const *ids, const uint32_t *sched,
		     size_t n, ut_run_result *out)
{
	sim *s = ctx;
	bool ran[SIM_MAX] = {false};
	sim_run log;

	(void)ids;
	memset(out, 0, sizeof(*out));
	out->worker = worker;
	out->attempts = 1;
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
	if (s->crash_run && (long)s->nlog + 1 == s->crash_run) {
		for (size_t i = 0; i < n; i++)
			out->tests[i].outcome = UT_OUT_NOTRUN;
		out->proc.exit_code = 1;
		n = 0; /* nothing executed; logged as an empty run */
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t t = sched[i];
		bool pass = passes(s, t, ran);

		s->execs[t]++;
		if ((long)t == s->flaky && s->execs[t] % s->flaky_every == 0)
			pass = false;
		if (flip(s))
			pass = !pass;
		ran[t] = pass;
		out->tests[i].outcome = pass ? UT_OUT_PASS : UT_OUT_FAIL;
		out->tests[i].duration_s = 1.0;
		log.sched[i] = t;
		log.passed[i] = pass;
	}
	if (s->nlog == s->caplog) {
		size_t cap = s->caplog ? 2 * s->caplog : 64;
		sim_run *v = realloc(s->log, cap * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&s->lock);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		s->log = v;
		s->caplog = cap;
	}
	s->log[s->nlog++] = log;
	pthread_mutex_unlock(&s->lock);
	return 0;
}
