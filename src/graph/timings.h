/* timings.h: per-test durations for sharding and minimization (DESIGN.md "Files it
 * writes": .untangle/timings.json, an object test id -> seconds from the latest runs). */
#ifndef UT_TIMINGS_H
#define UT_TIMINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"
#include "runner/runner.h"

/* The duration of a test when none is known for any test. */
#define UT_TIMINGS_DEFAULT_S 1.0

typedef struct {
	size_t from_file;  /* tests whose duration came from timings.json */
	size_t from_graph; /* from the graph's duration_s */
	size_t fallback;   /* neither: fallback_s */
	double fallback_s; /* the median of the known durations, UT_TIMINGS_DEFAULT_S when none is */
	size_t unknown_ids; /* ids in timings.json that are no test of the graph (ignored) */
} ut_timings_info;

/* Fills durations[0..g->ntests) in seconds: timings.json's value for the test, else the
 * graph's duration_s, else the fallback (the median of the durations known either way,
 * or 1 s when none is). A missing file is no error (path NULL: graph durations only).
 * Returns 0, UT_EINPUT ("PATH:LINE: ..." for a file that is not an object of numbers
 * >= 0), UT_ENOMEM. estimated (NULL, or ntests flags) marks the fallbacks; info may
 * be NULL. */
int ut_timings_fill(double *durations, bool *estimated, const ut_graph *g, const char *path,
		    ut_timings_info *info);

/* Writes the timings file at path (atomically): ids[i] -> seconds[i] (>= 0) for i < n;
 * with keep, over the file's other entries (a missing file has none), else in place of
 * them. The one writer of timings.json (store/ for detect, check and run; timings
 * import). Returns 0, UT_EINPUT for a kept file that is not an object of numbers >= 0
 * ("PATH:LINE: ..."), UT_EENV when it cannot be written, UT_ENOMEM. */
int ut_timings_update(const char *path, const char *const *ids, const double *seconds,
		      size_t n, bool keep);

/* Calls each(ctx, id, seconds) for every entry of a timings document (an object of test
 * id to seconds, as timings.json and pytest-split's .test_durations are) in text[0..len);
 * path names it in messages. Stops at the first non-zero return of each and returns it.
 * Returns 0, UT_EINPUT ("PATH:LINE: ..." for a document that is not an object of numbers
 * >= 0), UT_ENOMEM. */
int ut_timings_parse(const char *text, size_t len, const char *path,
		     int (*each)(void *ctx, const char *id, double seconds), void *ctx);

typedef struct {
	size_t files;     /* files read */
	size_t records;   /* durations they hold: testcases, .test_durations entries */
	size_t matched;   /* tests of the suite given a duration */
	size_t unused;    /* records that gave none: no such test, or not passed */
	char example[300]; /* the id or "classname name" of a passed record that matched no
			    * test (for messages), or "" */
} ut_timings_import_info;

/* `untangle timings import`: reads each file (JUnit XML, or pytest-split's
 * .test_durations, told apart by their first byte) and records in the timings file at
 * path (ut_timings_update, other entries kept) the duration of every test ids[0..n) a
 * file holds: a passed testcase with a time > 0 (no `time` reads as 0) that
 * ut_junit_match gives for the id, or the .test_durations entry named by the id. A later file wins over an earlier one. Nothing
 * is written when no test matched (info->matched == 0). Returns 0; UT_ENOTFOUND for a
 * missing file, UT_EINPUT for a file that is neither format or a bad one (the message
 * names the file and line), UT_EENV, UT_ENOMEM. info is filled whatever the result. */
int ut_timings_import(const char *path, const char *const *ids, size_t n,
		      const char *const *files, size_t nfiles, ut_timings_import_info *info);

#endif
