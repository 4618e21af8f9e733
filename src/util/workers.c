/* workers.c: starts and joins the threads of ut_workers_run. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "util/workers.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "util/banned.h"

typedef struct {
	void (*fn)(void *arg, unsigned k);
	void *arg;
	unsigned k;
} call;

static void *start(void *p)
{
	const call *c = p;

	c->fn(c->arg, c->k);
	return NULL;
}

unsigned ut_workers_count(unsigned requested, size_t tasks)
{
	unsigned n = requested;
	cpu_set_t set;
	long online;

	if (!n) {
		if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
			n = (unsigned)CPU_COUNT(&set);
		} else {
			online = sysconf(_SC_NPROCESSORS_ONLN);
			n = online > 0 ? (unsigned)online : 1;
		}
	}
	if (n > UT_MAX_WORKERS)
		n = UT_MAX_WORKERS;
	if (n > tasks)
		n = (unsigned)tasks;
	return n ? n : 1;
}

unsigned ut_workers_run(unsigned threads, void (*fn)(void *arg, unsigned k), void *arg)
{
	pthread_t tids[UT_MAX_WORKERS];
	call calls[UT_MAX_WORKERS];
	unsigned started = 0, i;

	if (threads > UT_MAX_WORKERS)
		threads = UT_MAX_WORKERS;
	for (i = 1; i < threads; i++) {
		calls[started].fn = fn;
		calls[started].arg = arg;
		calls[started].k = started + 1;
		if (pthread_create(&tids[started], NULL, start, &calls[started]) == 0)
			started++;
	}
	fn(arg, 0);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	return started + 1;
}
