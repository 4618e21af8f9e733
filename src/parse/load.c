/* load.c: reads and parses the source files of a suite, one after the other or on several
 * threads. Tree-sitter parsers are per-thread objects, so each thread has its own ut_ts.
 * Each file's warnings stay with it until the caller takes them in file order, so the
 * output does not depend on which thread parsed what. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/workers.h"
#include "util/banned.h"

#define DEFERRED 2 /* up_load.rc of a file left for when the thread is alone */

typedef struct {
	up_load *jobs;
	size_t n;
	atomic_size_t next; /* the next job nobody has taken */
	bool alone;         /* no other thread runs: a parse may fork */
	ut_ts *ts;          /* the calling thread's parser */
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

static int load(ut_ts *ts, up_load *job, bool alone)
{
	up_file *f = job->f;
	unsigned line;
	size_t ndiags;
	int rc;

	if (job->read) {
		rc = ut_fs_read(&f->src, f->path, job->max);
		if (rc == UT_ENOMEM)
			return rc;
		if (rc < 0) {
			ut_diags_add_kind(&job->diags, UT_DIAG_WARNING, UT_DIAG_UNREAD, f->rel, 0,
					  "skipped: %s", ut_error_message());
			return 0;
		}
		job->read = false; /* a deferred file is not read twice */
	}
	if (!alone && up_ts_forks(f->src.len))
		return DEFERRED;
	if (binary(&f->src, &line)) {
		ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, line,
			     "skipped: binary content (NUL byte)");
		return 0;
	}
	if (f->src.len == 0)
		ut_diags_add(&job->diags, UT_DIAG_WARNING, f->rel, 0, "empty file");
	ndiags = job->diags.items.n;
	rc = up_ts_parse(ts, &f->tree, f->lang, f->rel, f->src.ptr, f->src.len, &job->diags);
	if (rc == UT_EINPUT) {
		/* the adapter may have said why already, with the line */
		while (ndiags < job->diags.items.n &&
		       job->diags.items.v[ndiags].kind != UT_DIAG_UNREAD)
			ndiags++;
		if (ndiags == job->diags.items.n)
			ut_diags_add_kind(&job->diags, UT_DIAG_WARNING, UT_DIAG_UNREAD, f->rel, 0,
					  "skipped: %s", ut_error_message());
		return 0;
	}
	return rc < 0 ? rc : 1;
}

static void run(ut_ts *ts, up_load *job, bool alone)
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

/* The calling thread (k = 0) parses with the caller's parser, the others with their own;
 * without one a thread takes no file: the others do them. */
static void worker(void *arg, unsigned k)
{
	queue *q = arg;
	ut_ts *ts = NULL;

	if (k == 0) {
		drain(q, q->ts);
		return;
	}
	if (up_ts_new(&ts) == 0)
		drain(q, ts);
	up_ts_free(ts);
}

void up_load_files(up_load *jobs, size_t n, unsigned threads, ut_ts *ts)
{
	size_t k;
	queue q;

	q.jobs = jobs;
	q.n = n;
	q.ts = ts;
	atomic_init(&q.next, 0);
	threads = ut_workers_count(threads, n);
	/* set before any thread starts, never changed while they run */
	q.alone = threads <= 1;
	ut_workers_run(threads, worker, &q);
	for (k = 0; k < n; k++)
		if (jobs[k].rc == DEFERRED)
			run(ts, &jobs[k], true);
}
