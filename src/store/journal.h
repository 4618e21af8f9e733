/* journal.h: .untangle/journal.jsonl, one flushed line per executed schedule, so that
 * `untangle detect --resume` finishes an interrupted detection without repeating the
 * runs that had finished (DESIGN.md "Files it writes").
 *
 * Format 2: the first line is the header (the suite's ids in order, a fingerprint per
 * test body, of values.ignore and of the runner); each run is one line naming its tests
 * by their index in the header's list ("0-4,7": ranges), its outcomes as one letter per
 * test and its durations in milliseconds; `{"finished":true}` follows a detection that
 * wrote its graph. Resume reads the file a line at a time. */
#ifndef UT_STORE_JOURNAL_H
#define UT_STORE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "runner/runner.h"
#include "util/arena.h"

/* What a journal is valid for. A resumed detection must match suite, strategy, extract,
 * filter and reruns (else UT_EINPUT); bodies, ignore and runner may differ (see
 * ut_journal_changes). Fingerprints are strings (NULL: not recorded). */
typedef struct {
	const char *suite;    /* fingerprint of the test ids in original order */
	const char *strategy; /* tedd, fast */
	const char *extract, *filter;
	int reruns;
	size_t ntests;
	const char *const *ids;    /* ntests ids in original order, or NULL */
	const char *const *bodies; /* ntests fingerprints of the tests' bodies, or NULL */
	const char *ignore;        /* fingerprint of values.ignore */
	const char *runner;        /* fingerprint of runner.command, reset and env */
} ut_journal_header;

/* Sets h's ids, bodies (a hash of the lines of each test in its file, relative to the
 * current folder; "" when the file cannot be read), ignore (values.ignore) and runner
 * (preset, command, reset, env; not timeout_s, so that a longer timeout is a fix, not a
 * change) from g and cfg, allocated in a. 0 or UT_ENOMEM. */
int ut_journal_fingerprint(ut_journal_header *h, ut_arena *a, const ut_graph *g,
			   const ut_config *cfg);

/* One executed schedule. */
typedef struct {
	long run;              /* run id, 1-based, increasing */
	const char *purpose;   /* "original order 1/2", "invert 8 -> 5", ... */
	int worker;
	long batch;            /* runs of one batch were dispatched together (they may run at
	                        * once on several workers); batches follow one another */
	const uint32_t *tests; /* the schedule: indices into the header's ids */
	const unsigned char *outcomes; /* per test, ut_outcome values */
	const float *durations; /* per test, seconds; < 0 unknown */
	size_t n;
	bool error;            /* the run itself failed (no usable report, timeout): its outcomes
	                        * are no evidence, and resume runs it again */
	const char *detail;    /* how the runner ended, e.g. "exit status 0" */
	int attempts;          /* 1; older journals hold 2 for a run the runner repeated itself */
	double reset_s, start, end; /* start and end: seconds since the epoch */
	const char *tail;      /* output tail kept for diagnosis, or NULL (not kept on resume) */
} ut_journal_record;

typedef struct ut_journal ut_journal;

typedef enum {
	UT_JOURNAL_NEW = 0,    /* a new journal, whatever was there (untangle check's own) */
	UT_JOURNAL_RESUME = 1, /* continue the existing one */
	UT_JOURNAL_START,      /* a new journal, but refuse (UT_EINPUT) to replace one that holds
	                        * runs of a detection that did not finish */
	UT_JOURNAL_FRESH       /* a new journal; an old one holding runs is kept as PATH.N.bak */
} ut_journal_mode;

/* What differs between a resumed journal's header and the current one. */
typedef struct {
	bool ignore, runner;     /* values.ignore, the runner's command, reset or env */
	bool bodies_unknown;     /* the bodies were fingerprinted by an older untangle (another
				  * rule): no test is taken as changed, none can be told apart */
	const uint32_t *tests;   /* tests whose body changed (indices) */
	size_t ntests;
	size_t dropped;          /* recorded runs not replayed because they hold one of those */
	size_t errors;           /* recorded runs that failed as a whole: run again */
} ut_journal_changes;

/* Opens the journal at path in the given mode. The journal's folder must be writable
 * (the graph goes beside it): UT_EENV naming it otherwise, before any run. RESUME reads
 * the existing file a line at a time: UT_EINPUT ("PATH:LINE: ...") when its header is for
 * another suite or configuration or a line is malformed; a last line cut short by a kill
 * is dropped. Its runs become available to ut_journal_replay, except those that failed as
 * a whole and those holding a test whose body changed. A missing journal, or one without
 * its header (untangle was killed before writing it: no run was lost), is written anew
 * (ut_journal_started_anew). START refuses an unfinished journal with UT_EINPUT (the message names
 * --resume and --fresh); FRESH renames it to a backup first. */
int ut_journal_open(ut_journal **out, const char *path, const ut_journal_header *h,
		    ut_journal_mode mode);
void ut_journal_close(ut_journal *j);

/* After a RESUME: what changed since the journal was written (borrowed). */
const ut_journal_changes *ut_journal_changed(const ut_journal *j);
/* After a RESUME: whether there was nothing to resume and the journal started anew. */
bool ut_journal_started_anew(const ut_journal *j);
/* After FRESH: the backup the old journal went to, or NULL (borrowed). */
const char *ut_journal_backup(const ut_journal *j);

/* Reads a journal for reports (`untangle explain`), whatever its header. */
int ut_journal_load(ut_journal **out, const char *path);
/* The recorded run with this id, or NULL. */
const ut_journal_record *ut_journal_find(const ut_journal *j, long run);
/* The id of test index i of the journal's header, or NULL (borrowed). */
const char *ut_journal_test_id(const ut_journal *j, uint32_t i);

/* The next recorded run of exactly this schedule (header indices) not yet replayed, or
 * NULL. Records are handed out in the order they were written; the pointer lives as long
 * as the journal. */
const ut_journal_record *ut_journal_replay(ut_journal *j, const uint32_t *tests, size_t n);
/* How many recorded runs were read. */
size_t ut_journal_recorded(const ut_journal *j);
/* The id for the next new run (one more than the largest seen). Thread-safe. */
long ut_journal_next_id(ut_journal *j);

/* Appends one line and flushes it to the disk. Thread-safe. */
int ut_journal_append(ut_journal *j, const ut_journal_record *r);
/* Marks the detection finished: a plain detect may then start over without --fresh. */
int ut_journal_finish(ut_journal *j);

#endif
