/* junit.h: reading JUnit XML reports (expat, streaming) and matching their testcases to
 * test ids (DESIGN.md, "Runner contract"). */
#ifndef UT_JUNIT_H
#define UT_JUNIT_H

#include <stddef.h>

typedef enum { UT_OUT_PASS, UT_OUT_FAIL, UT_OUT_ERROR, UT_OUT_SKIPPED, UT_OUT_NOTRUN } ut_outcome;

/* "pass", "fail", "error", "skipped", "not-run" (DESIGN.md's names). */
const char *ut_outcome_name(ut_outcome o);

/* One test of a report: all its `testcase` elements (same classname and name) merged,
 * the last one deciding, as when a runner reruns a failing test. Accepted dialects:
 * pytest (pytest-rerunfailures included), Maven Surefire (`flakyFailure`, `flakyError`,
 * `rerunFailure`, `rerunError`), mocha's xunit reporter, jest-junit (nested
 * `testsuite`s) and the helpers of ci/runners. */
typedef struct {
	size_t index;          /* position in the report, 0-based */
	const char *classname; /* "" when absent */
	const char *name;      /* "" when absent */
	const char *file;      /* the `file` attribute, or NULL */
	ut_outcome outcome;    /* PASS, FAIL (`failure`), ERROR (`error`, stronger than
				* failure) or SKIPPED (`skipped` without either) */
	double time_s;         /* `time` of the last element; 0 when absent or not a number */
	const char *message;   /* first non-empty line of the last element's failure, error or
				* skip message (attribute, else text), at most 500 bytes; for a
				* pass after failed attempts, that of the last failed attempt;
				* NULL when none */
	unsigned records;      /* testcase elements merged (1 unless rerun or repeated) */
	unsigned failed_attempts; /* failed earlier elements, plus flaky and rerun elements */
} ut_junit_case;

typedef struct ut_junit ut_junit;

#define UT_JUNIT_MAX_BYTES ((size_t)256 << 20) /* a larger report is refused unread */
#define UT_JUNIT_MAX_VALUE ((size_t)64 << 10)  /* bytes of a message attribute parsed */
#define UT_JUNIT_MAX_TOKEN ((size_t)1 << 20)   /* a longer tag or comment is refused */

/* Bounds on reading one report. */
typedef struct {
	size_t max_bytes; /* 0: UT_JUNIT_MAX_BYTES */
	double timeout_s; /* reading stops after this long (UT_ETIMEOUT); 0: no limit */
} ut_junit_limits;

/* Reads the report at path, in linear time: attributes other than classname, name and
 * file are parsed up to UT_JUNIT_MAX_VALUE bytes (the message kept is shorter anyway).
 * 0 also for a valid report with no testcase; UT_ENOTFOUND when the file does not exist;
 * UT_EINPUT when it is not a regular file (a FIFO, a directory, a device: refused without
 * blocking), larger than lim->max_bytes, empty, truncated, not well-formed XML, has a DTD
 * with entity declarations, a tag or comment longer than UT_JUNIT_MAX_TOKEN, its root is
 * neither `testsuites` nor `testsuite`, or it exceeds the limits (16 MiB of names and
 * messages, 1,000,000 testcases); the message names the file (and the line). Between
 * chunks of 64 KiB: UT_EINTR after ut_proc_interrupt(), UT_ETIMEOUT past lim->timeout_s.
 * *out belongs to the caller (ut_junit_free). */
int ut_junit_read_limited(ut_junit **out, const char *path, const ut_junit_limits *lim);
/* The same with the default limits and no timeout. */
int ut_junit_read(ut_junit **out, const char *path);

/* The same on a buffer; name is used in messages only. */
int ut_junit_parse(ut_junit **out, const char *data, size_t len, const char *name);

/* Accepts NULL. */
void ut_junit_free(ut_junit *j);

size_t ut_junit_count(const ut_junit *j);
/* Borrowed, valid until ut_junit_free. */
const ut_junit_case *ut_junit_case_at(const ut_junit *j, size_t i);

/* The case for a test id, or NULL when the report has none:
 * 1. classname and name joined by "::", ".", "#" or " " equal the id or one of its
 *    spellings: "::" and "#" read as "."; pytest's node id as its junitxml classname
 *    (tests/test_x.py::TestA::test_b -> tests.test_x.TestA + test_b); a name ending in
 *    "(...)" (JUnit 5) also without it; `file` "::" name;
 * 2. classname " " name equal the part of the id after its first "::" (mocha's xunit
 *    reporter: classname = describe titles, name = the it title);
 * 3. the name alone equals the id, the part after its first "::" (jest-junit's full
 *    titles), or its last part (after the last "::" or "#"), and no other case has it.
 * When several cases give the same joined spelling, the later one wins.
 * O(length of id); thread-safe (the report is not modified). */
const ut_junit_case *ut_junit_match(const ut_junit *j, const char *id);

/* "expat_2.5.0" */
const char *ut_junit_xml_version(void);

#endif
