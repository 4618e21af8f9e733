/* journal.h: .untangle/journal.jsonl, one flushed line per executed schedule, so that
 * `untangle detect --resume` finishes an interrupted detection without repeating the
 * runs that had finished (DESIGN.md "Files it writes"). */
#ifndef UT_JOURNAL_H
#define UT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/runner.h"

/* What a journal is valid for: a resumed detection must match all of it. */
typedef struct {
	const char *suite;    /* fingerprint of the test ids in original order */
	const char *strategy; /* tedd, fast */
	const char *extract, *filter;
	int reruns;
	size_t ntests;
} ut_journal_header;

/* One executed schedule. */
typedef struct {
	long run;              /* run id, 1-based, increasing */
	const char *purpose;   /* "original order 1/2", "invert 8 -> 5", ... */
	int worker;
	long batch;            /* runs of one batch were dispatched together (they may run at
	                        * once on several workers); batches follow one another */
	const char **ids;      /* the schedule */
	ut_outcome *outcomes;  /* per test */
	double *durations;     /* per test, seconds; < 0 unknown */
	size_t n;
	bool error;            /* the run itself failed (no report, timeout): outcomes unusable */
	const char *detail;    /* how the runner ended, e.g. "exit status 0" */
	int attempts;
	double reset_s, start, end; /* start and end: seconds since the epoch */
	const char *tail;      /* output tail kept for diagnosis, or NULL */
} ut_journal_record;

typedef struct ut_journal ut_journal;

/* Opens the journal at path. Without resume it starts a new file holding the header.
 * With resume it reads the existing file: UT_ENOTFOUND when there is none, UT_EINPUT
 * ("PATH:LINE: ...") when its header does not match h or a line is malformed; a last line
 * cut short by a kill is dropped. Its records become available to ut_journal_replay. */
int ut_journal_open(ut_journal **out, const char *path, const ut_journal_header *h,
		    bool resume);
void ut_journal_close(ut_journal *j);

/* Reads a journal for reports (`untangle explain`), whatever its header. */
int ut_journal_load(ut_journal **out, const char *path);
/* The recorded run with this id, or NULL. */
const ut_journal_record *ut_journal_find(const ut_journal *j, long run);

/* The next recorded run of exactly this schedule not yet replayed, or NULL. Records are
 * handed out in the order they were written; the pointer lives as long as the journal. */
const ut_journal_record *ut_journal_replay(ut_journal *j, const char *const *ids, size_t n);
/* How many recorded runs were read, and how many are still unreplayed. */
size_t ut_journal_recorded(const ut_journal *j);
size_t ut_journal_pending(const ut_journal *j);
/* The id for the next new run (one more than the largest seen). Thread-safe. */
long ut_journal_next_id(ut_journal *j);

/* Appends one line and flushes it to the disk. Thread-safe. */
int ut_journal_append(ut_journal *j, const ut_journal_record *r);

#endif
