/* check.h: the incremental pre-merge check (thesis 7.3): what a change did to the suite,
 * which tests must be validated again, and what the re-validation found.
 *
 * The caller parses both versions of the suite (the base commit's, the work tree's) and
 * loads the base graph; ut_check_prepare compares them test by test and builds the head
 * graph: every edge of an unaffected test carried over, and a UT_REVALIDATE_* per test
 * for ut_detect_run. After the runs, ut_check_conclude turns what changed into findings.
 * Nothing here runs git or the runner. */
#ifndef UT_CHECK_H
#define UT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"
#include "model/suite.h"
#include "report/findings.h"

typedef enum {
	UT_CHANGE_SAME,      /* same id, same source text, same actions */
	UT_CHANGE_ADDED,     /* a new id */
	UT_CHANGE_REMOVED,   /* gone (base only) */
	UT_CHANGE_RENAMED,   /* a new id for the same body (or the same test in a moved file) */
	UT_CHANGE_MODIFIED,  /* same id, its text or its actions (setup, helpers) changed */
	UT_CHANGE_REORDERED  /* same id and body, but it runs after other tests than before */
} ut_change_kind;

const char *ut_change_kind_name(ut_change_kind k);

typedef struct {
	const ut_suite *suite;
	const char *root; /* where the suite's files are read from (test file = root/file) */
} ut_check_side;

typedef struct {
	ut_check_side base, head;
	const ut_graph *base_graph;  /* validated at the base commit */
	const ut_graph *candidates;  /* the head suite's candidate graph (first guesses for
					new tests), or NULL */
	const char *repo_prefix;     /* the suite root's folder in the repository, "" or ending
					in '/': findings name files relative to the repository */
} ut_check_input;

typedef struct {
	ut_change_kind kind;
	long other; /* head test: its base index; base test: its head index (-1: none) */
} ut_check_entry;

typedef struct {
	const ut_check_input *in;
	ut_check_entry *head;  /* per head test */
	ut_check_entry *base;  /* per base test */
	size_t count[UT_CHANGE_REORDERED + 1]; /* head tests by kind; REMOVED: base tests */
	size_t graph_unknown;  /* base graph tests the base suite does not have (ignored) */
	ut_graph *graph;       /* the head graph to re-validate (owned) */
	unsigned char *revalidate; /* per head test, UT_REVALIDATE_* */
	ut_findings pre;       /* what the change breaks before anything runs: removed or
				  renamed prerequisites, reordered dependencies */
	long *base_graph_of;   /* base test -> base graph index, -1 */
	long *base_of_graph_;  /* private: base graph index -> base test, -1 */
} ut_check;

/* Compares the two versions and builds c->graph and c->revalidate. Files are read to
 * compare each test's source text (blank space does not count); a test whose actions
 * changed through shared setup or helper code counts as modified. Returns 0,
 * UT_EINPUT (a test file that cannot be read), UT_ENOMEM. */
int ut_check_prepare(ut_check *c, const ut_check_input *in);

/* After ut_detect_run on c->graph: the findings (those of prepare, then tests that fail
 * even after all earlier tests, and new dependencies that hold, as warnings). fail_run
 * is per head test the last run it failed in (0: none known), for evidence; may be NULL. */
int ut_check_conclude(ut_check *c, ut_findings *out, const long *fail_run);

/* Affected tests: those not UT_REVALIDATE_KEEP. */
size_t ut_check_affected(const ut_check *c);

void ut_check_dispose(ut_check *c);

#endif
