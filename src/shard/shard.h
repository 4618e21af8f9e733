/* shard.h: dependency-safe shards (DESIGN.md "Shards"): the validated graph and per-test
 * durations packed into N ordered test lists for N CI jobs, each list runnable on its own
 * after a reset, balanced by duration; or the thesis' schedules, one per sink (5.3).
 *
 * A list holds, for every test placed in it, the test's transitive prerequisites, in
 * original order. Prerequisites are the graph's active edges (ut_edge_active: manifest,
 * and candidates left unresolved). A test detect left out as flaky or failing has unknown
 * prerequisites: it is given every earlier test, as the original order gives it.
 * Every list keeps the original relative order of its tests (so that a test that needs
 * another NOT to have run yet still finds it so), and the two tests of a pair the graph
 * keeps apart (ut_apart, found by `shard --verify`: shard/verify.h) go to different
 * lists whenever some list can take each. */
#ifndef UT_SHARD_H
#define UT_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"

#define UT_SHARD_MAX 1024

typedef struct {
	uint32_t *tests;   /* test indices, ascending (original order) */
	size_t n;
	uint32_t *targets; /* the tests without dependents placed here, ascending: the list is
			    * their prerequisite closure */
	size_t ntargets;
	double cost_s;     /* sum of the durations of tests */
	size_t repeats;    /* tests of this list that an earlier list also holds */
} ut_shard;

typedef struct {
	ut_shard *shards;  /* nshards lists: longest first, empty ones last (packing); one per
			    * sink in original order of the sink (per_sink) */
	size_t nshards;
	size_t nonempty;   /* lists with at least one test */
	size_t ntests;
	double original_s; /* the original order: every test once */
	double makespan_s; /* the longest list */
	double mean_s;     /* mean over the non-empty lists */
	double chain_s;    /* the heaviest test with all its transitive prerequisites */
	long chain_test;   /* that test, or -1 when there are no tests */
	double even_s;     /* original_s / nshards (packing only; 0 per sink) */
	double lower_bound_s; /* max(chain_s, even_s): no plan can have a shorter makespan */
	size_t repeats;    /* test executions beyond one per test */
	size_t unproven;   /* flaky or failing tests run after every earlier test */
	size_t moves;      /* improving moves after the greedy packing */
	size_t apart_broken; /* pairs kept apart that a list holds both tests of anyway (one
			      * test's closure needs both, or too few lists): 0 when honoured */
} ut_shard_plan;

typedef struct {
	size_t nshards; /* 1..UT_SHARD_MAX; ignored when per_sink */
	bool per_sink;  /* the thesis' schedules: one list per test without dependents */
} ut_shard_opts;

/* Plans the lists for g with durations[i] >= 0 seconds for test i (see ut_timings_fill).
 * Packing: items in decreasing order of duration, each to the list it lengthens least
 * (ties: the one sharing most of it), then moves of an item off the longest list while
 * that shortens it. It packs several times and keeps the shortest makespan: with every
 * connected component of the graph as one item (its tests run once, no repeats); with
 * the components that cost at most the lower bound, half of it, ... as one item and the
 * sinks of the others as items; and with every sink as its own item (its closure,
 * repeated where lists share prerequisites). Deterministic for the same graph and durations, so
 * separate CI jobs computing the same plan agree on every list.
 * Returns 0, UT_EINPUT (nshards out of range, a negative duration), UT_ENOMEM. *out
 * belongs to the caller (ut_shard_plan_dispose) and is zeroed on failure. */
int ut_shard_plan_build(ut_shard_plan *out, const ut_graph *g, const double *durations,
			const ut_shard_opts *opts);

/* Replaces the lists of plan (built by ut_shard_plan_build for g and durations, of as
 * many shards) with `lists`, whose tests are indices into `of` (a plan file's graph): the
 * plan `shard --verify` published, run as it was verified, in its order (no longer
 * longest first once the durations changed). Each test is found in g by its id; a list's
 * targets become its tests that no other test of it needs; costs, repeats and the apart
 * pairs held together are counted again over g and durations; the bounds stay. Returns 0;
 * UT_EINPUT when lists has another number of shards, names a test g does not hold, holds
 * a test twice in a list or a test without a prerequisite (a left-out test without every
 * earlier test), or leaves a test of g out (the plan is then unchanged); UT_ENOMEM. */
int ut_shard_plan_adopt(ut_shard_plan *plan, const ut_graph *g, const double *durations,
			const ut_graph *of, const ut_shard_plan *lists);

/* Frees what the plan owns. Accepts NULL. */
void ut_shard_plan_dispose(ut_shard_plan *p);

/* Whether list sh holds test t. */
bool ut_shard_has(const ut_shard *sh, uint32_t t);
/* The first list of p holding both tests of pair a, or -1. */
long ut_shard_plan_holds_pair(const ut_shard_plan *p, const ut_apart *a);

/* How the suite differs from the graph's tests: ids in ids[0..n) the graph lacks
 * (added), and graph tests the ids lack (removed). *added and *removed are counts; the
 * first few of each go to first_added / first_removed (borrowed: from ids and g). */
typedef struct {
	size_t added, removed;
	const char *first_added[3], *first_removed[3];
	bool reordered; /* same tests, another order */
} ut_shard_drift;

int ut_shard_drift_check(ut_shard_drift *out, const ut_graph *g, const char *const *ids,
			 size_t n);

#endif
