/* coverage.h: what each test covers, as strings (lines, branches, byte ranges, features):
 * read from a JSON file, or derived from the suite as features in the AutoE2E sense. */
#ifndef UT_COVERAGE_H
#define UT_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "model/suite.h"
#include "nlp/nlp.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/map.h"
#include "util/vec.h"

typedef UT_VEC(uint32_t) ut_coverage_list;

typedef struct {
	ut_arena arena;                 /* the element strings */
	size_t ntests;                  /* the graph's tests, by index */
	UT_VEC(const char *) elements;  /* distinct elements, in the order first seen */
	ut_coverage_list *of;           /* ntests lists of element indices, no duplicates */
	bool *listed;                   /* ntests: the source says something about the test */
	ut_map index;                   /* element -> index + 1 */
	const char *source;             /* "file" or "features" (static) */
} ut_coverage;

/* Empty coverage for ntests tests; dispose whatever the result. 0 or UT_ENOMEM. */
int ut_coverage_init(ut_coverage *c, size_t ntests);
void ut_coverage_dispose(ut_coverage *c);
/* Test `test` covers `element` (copied). Duplicates are ignored. 0 or UT_ENOMEM. */
int ut_coverage_add(ut_coverage *c, size_t test, const char *element);

/*
 * Reads {"test id": ["element", ...], ...}. Ids the graph does not know are warnings in
 * `warnings` (file and line), not errors. UT_EINPUT with "PATH:LINE: ..." when the text
 * is not JSON, not an object, or a value is not an array of strings; UT_ENOMEM.
 */
int ut_coverage_read_json(ut_coverage *c, const ut_graph *g, const char *text, size_t len,
			  const char *path, ut_diags *warnings);
/* Reads the file; UT_ENOTFOUND with a message naming it when it does not exist. */
int ut_coverage_load(ut_coverage *c, const ut_graph *g, const char *path, ut_diags *warnings);

/*
 * Feature coverage (AutoE2E, Definitions 1-3): a test covers
 *   "feature: VERB OBJECT"  the operation its name performs (verb lemma and direct
 *                           object, else its first noun; nothing without a verb),
 *   "page: PATH"            every page it navigates to (scheme and host dropped, so that
 *                           workers on different ports agree),
 *   "element: LOCATOR"      every element it locates or clicks,
 * from the test's own actions (setup code shared by many tests is left out). Graph tests
 * missing from the suite get nothing and a warning. 0 or UT_ENOMEM.
 */
int ut_coverage_features(ut_coverage *c, const ut_graph *g, const ut_suite *s, ut_nlp *nlp,
			 ut_diags *warnings);

#endif
