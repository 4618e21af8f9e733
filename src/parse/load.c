/* load.c: reads and parses the source files of a suite, one after the other or on several
 * threads. Tree-sitter parsers are per-thread objects, so each thread has its own ut_ts.
 * Each file's warnings stay with it until the caller takes them in file order, so the
 * output does not depend on which thread parsed what. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define UT_MAX_JOBS 64
#define DEFERRED 2 /* ut_load.rc of a file left for when the thread is alone */

typedef struct {
	ut_load *jobs;
	size_t n;
	atomic_size_t next; /* the next job nobody has taken */
	bool alone;         /* no other thread runs: a parse may fork */
} queue;

/* A file that holds a NUL byte is not source code. */
static bool binary(const ut_buf *b, unsigned *line)
{
	const char *nul = memchr(b->ptr, '\0', b->len);
	const char *p;

	if (!nul)
		return false;
	*line = 1;
	for (p = b->ptr; p < nul; p++)
		*line += *p == '\n';
	return true;
}

static int load(ut_ts *ts, ut_load *job, bool alone)
{
	ut_file *f = job->f;
	unsigned line;
	size_t ndiags;
	int rc;

	if (job->read) {
		rc = ut_fs_read(&f->src, f->path, job->max);
		if (rc == UT_ENOMEM)
			return rc;
		if (rc < 0) {
			ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, 0, "skipped: %s",
				     ut_error_message());
			return 0;
		}
		job->read = false; /* a deferred file is not read twice */
	}
	if (!alone && ut_ts_forks(f->src.len))
		return DEFERRED;
	if (binary(&f->src, &line)) {
		ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, line,
			     "skipped: binary content (NUL byte)");
		return 0;
	}
	if (f->src.len == 0)
		ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, 0, "empty file");
	ndiags = job->diags.items.n;
	rc = ut_ts_parse(ts, &f->tree, f->lang, f->rel, f->src.ptr, f->src.len, &job->diags);
	if (rc == UT_EINPUT) {
		/* the adapter may have said why already, with the line */
		if (job->diags.items.n == ndiags)
			ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, 0, "skipped: %s",
				     ut_error_message());
		return 0;
	}
	return rc < 0 ? rc : 1;
}

static void run(ut_ts *ts, ut_load *job, bool alone)
{
	job->rc = load(ts, job, alone);
	if (job->rc < 0)
		snprintf(job->error, sizeof(job->error), "%s", ut_error_message());
}

static void drain(queue *q, ut_ts *ts)
{
	for (;;) {
		size_t i = atomic_fetch_add(&q->next, 1);

		if (i >= q->n)
			return;
		run(ts, &q->jobs[i], q->alone);
	}
}

static void *worker(void *arg)
{
	ut_ts *ts = NULL;

	/* without a parser of its own the thread takes no file: the others do them */
	if (ut_ts_new(&ts) == 0)
		drain(arg, ts);
	ut_ts_free(ts);
	return NULL;
}

/* The CPUs this process may run on: the affinity mask (taskset, a container's cpuset)
 * rather than every online CPU, so that threads are not started for cores it cannot use. */
static unsigned cpus(void)
{
	cpu_set_t set;
	long online;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (unsigned)online : 1;
}

void ut_load_files(ut_load *jobs, size_t n, unsigned threads, ut_ts *ts)
{
	pthread_t tids[UT_MAX_JOBS];
	unsigned started = 0, i;
	size_t k;
	queue q;

	q.jobs = jobs;
	q.n = n;
	atomic_init(&q.next, 0);
	if (!threads)
		threads = cpus();
	if (threads > UT_MAX_JOBS)
		threads = UT_MAX_JOBS;
	/* set before any thread starts, never changed while they run */
	q.alone = threads <= 1 || n <= 1;
	for (i = 1; i < threads && i < n; i++)
		if (pthread_create(&tids[started], NULL, worker, &q) == 0)
			started++;
	drain(&q, ts);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	for (k = 0; k < n; k++)
		if (jobs[k].rc == DEFERRED)
			run(ts, &jobs[k], true);
}
