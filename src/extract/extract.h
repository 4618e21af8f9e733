/* extract.h: candidate dependencies from the suite model (thesis 5.2.1): sub-use string
 * analysis (Alg. 4) and the original-order baseline, and the value statistics behind the
 * dependency-free value filter (5.2.2.1). */
#ifndef UT_EXTRACT_H
#define UT_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"
#include "model/suite.h"
#include "util/map.h"

/* How the tests of a suite use one string value. */
typedef struct {
	const char *value;    /* borrowed from the suite */
	size_t users;         /* tests that use it anywhere (submitted values included) */
	size_t submitters;    /* tests that submit it */
	size_t setup_users;   /* tests that use it only in setup code */
	long first_submitter; /* the earliest test that submits it, or -1 */
	bool dependency_free; /* ut_value_dependency_free: dropped automatically */
	bool ignored;         /* listed in values.ignore */
} ut_value_stat;

typedef struct {
	ut_value_stat *v; /* ranked: most users first, then most submitters, then by value */
	size_t n;
	ut_map index; /* value -> ut_value_stat * */
	size_t ntests;
} ut_value_stats;

/* Counts every value of the suite. `ignore` are the configured values.ignore. */
int ut_value_stats_build(ut_value_stats *out, const ut_suite *s, const char *const *ignore,
			 size_t nignore);
void ut_value_stats_dispose(ut_value_stats *st);
/* The statistics of one value, or NULL. */
const ut_value_stat *ut_value_stats_get(const ut_value_stats *st, const char *value);
/* Whether the value filter drops the value (dependency-free or ignored). */
bool ut_value_dropped(const ut_value_stat *v);
/*
 * The automatic rule of the value filter, chosen by measuring it on the six real suites
 * (docs/benchmarks.md, "Dependency-free values on the six real suites"): a value is
 * dependency-free when nearly every one of the ntests tests uses it, all but at most one
 * in five (in suites of UT_VALUE_FREE_MIN_TESTS tests or more; in smaller ones every test,
 * since one test is too large a share of the evidence there), unless exactly one test
 * submits it: a value one test creates and the others use is that test's data, a real
 * dependency.
 */
#define UT_VALUE_FREE_MIN_TESTS 10
bool ut_value_dependency_free(const ut_value_stat *v, size_t ntests);
/* What `untangle init` proposes for values.ignore: the dependency-free values that tests
 * submit (a value no test submits connects no tests and needs no ignoring). */
bool ut_value_proposed(const ut_value_stat *v, size_t ntests);
/* Why the automatic rule drops a value, in words, for `values` and `candidates`. */
#define UT_VALUE_FREE_WHY "used by nearly every test"

/* How many distinct values test t submits and uses (submitted ones included, as
 * ut_value_stat.users counts them). 0, or UT_ENOMEM. */
int ut_extract_test_counts(const ut_test *t, size_t *submits, size_t *uses);

/* A graph holding the suite's tests in original order and no edges. */
int ut_graph_from_suite(ut_graph **out, const ut_suite *s);

typedef struct {
	/* Values not paired at all (NULL: none). Used to keep huge suites linear when a
	 * dependency-free value would connect every pair of tests. */
	bool (*skip)(const char *value, void *ctx);
	void *ctx;
} ut_extract_opts;

typedef struct {
	size_t edges;       /* edges added */
	size_t pairs;       /* (edge, value) pairs visited */
	size_t skipped;     /* values not paired because of opts.skip */
} ut_extract_stats;

/* Thesis Alg. 4: an edge later -> earlier for every value the later test uses anywhere
 * that the earlier test submitted, carrying those values. Output-sensitive: built from an
 * index of value to submitting tests, never by comparing every pair of tests. */
int ut_extract_string(ut_graph *g, const ut_suite *s, const ut_extract_opts *opts,
		      ut_extract_stats *stats);
/* The baseline: every later test depends on every earlier one (n(n-1)/2 edges). */
int ut_extract_order(ut_graph *g, ut_extract_stats *stats);

#endif
