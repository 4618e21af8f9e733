/* graph.h: the test dependency graph (DESIGN.md "Data model"): the tests, in original
 * order, and edges `dependent -> dependee` with their status, origin, values, filter
 * verdict and evidence. Candidates, validation, the stored graph and every report use it.
 *
 * Tests are referred to by their index in the original order. Everything a graph holds
 * (strings included) lives in its own arena, so a graph outlives the suite it came from. */
#ifndef UT_GRAPH_H
#define UT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/vec.h"

typedef enum { UT_EDGE_CANDIDATE, UT_EDGE_MANIFEST, UT_EDGE_FALSE } ut_edge_status;

typedef enum {
	UT_ORIGIN_STRING,       /* string-analysis */
	UT_ORIGIN_ORDER,        /* original-order */
	UT_ORIGIN_RECOVERED,    /* recovered (thesis Alg. 5) */
	UT_ORIGIN_DISCONNECTED, /* recovered-disconnected (thesis Alg. 6) */
	UT_ORIGIN_DECLARED      /* declared by the user */
} ut_edge_origin;

typedef struct {
	const char *value;
	bool setup; /* submitted only by the dependee's setup code, or used only in the
	             * dependent's setup code: weighed apart from the tests' own values */
} ut_edge_value;

typedef struct {
	uint32_t dependent, dependee; /* test indices; dependee < dependent in original order */
	ut_edge_status status;
	ut_edge_origin origin;
	ut_edge_value *values; /* arena; the values that caused a string-analysis edge */
	uint32_t nvalues;
	const char *filtered_by; /* "values", "verb", "dobj", "noun", or NULL: kept */
	const char *reason;      /* why the filter removed it, or why the status changed */
	UT_VEC(long) evidence;   /* run ids that proved the status */
	bool reopened;           /* refuted, then made a candidate again by recovery (once) */
} ut_edge;

/* Two tests a list must not hold together (`shard --verify`, docs/commands.md): `then`
 * passes after its own schedule but fails when `first` (earlier, outside that schedule)
 * ran before it in the same list, e.g. `first` changes state `then` reads. The planner
 * puts them in different lists; the original order never separates them. */
typedef struct {
	uint32_t first, then; /* test indices, first < then */
	long failed_run;      /* evidence, runs of .untangle/shard-journal.jsonl: `then` failed
			       * after its schedule with `first` and the tests before it */
	long passed_run;      /* and passed after the same without `first` (0: unknown) */
} ut_apart;

typedef struct {
	const char *id, *name, *file;
	unsigned line, end_line;
	double duration_s; /* < 0: unknown */
	bool flaky;        /* did not pass every time in the original order: left out */
	bool failing;      /* left out as failing: never passed in the original order (or
			    * never ran, or its runs did not settle), or needs_left_out */
	bool needs_left_out; /* with failing: passed in the original order, but failed after
			      * every earlier test except those left out (it most likely
			      * needs one of them): left out with them */
	uint64_t body;     /* ut_test.body of the suite it was made from (0: unknown; not in
	                    * graph.json): the journal's "the test changed" */
	long pass_run;     /* the run in which it passed after its prerequisites alone (every
	                    * other earlier test left out), or 0: the evidence against every
	                    * edge graph.json does not keep */
	/* What the name says (set by the filter stage when WordNet is there; not stored in
	 * graph.json): hints for the order in which detection tries prerequisites. */
	const char **nouns; /* arena; distinct noun lemmas */
	uint32_t nnouns;
	const char *dobj;   /* direct object, or NULL */
	int verb;           /* UT_NAME_VERB_* */
} ut_graph_test;

enum { UT_NAME_VERB_UNKNOWN = 0, UT_NAME_VERB_READ, UT_NAME_VERB_WRITE };

typedef struct {
	ut_arena arena;
	ut_graph_test *tests;
	size_t ntests;
	UT_VEC(ut_edge) edges;
	UT_VEC(ut_apart) apart; /* pairs kept in different lists, at most one per pair */
	const char *commit; /* NULL when unknown */
	const char *sources; /* the project's fingerprint when it was validated (the hash of
			      * ut_fingerprint_project, 16 hex digits), or NULL: run and shard
			      * take the graph's tests as the suite's while it matches */
	struct {
		const char *strategy; /* NULL until validated */
		long schedules_run, test_executions;
		double wall_s;
		double test_s;           /* the executions' reported durations, summed */
		long failing_executions; /* of those, failed or erred */
		double failing_s;        /* and their durations */
	} stats;
	/* private: (dependent, dependee) -> edge index + 1 */
	uint64_t *keys;
	uint32_t *slots;
	size_t cap;
	void *intern_; /* value string -> interned copy */
} ut_graph;

const char *ut_edge_status_name(ut_edge_status s);
const char *ut_edge_origin_name(ut_edge_origin o);
/* 0 and the enum value, or UT_EINPUT for an unknown name. */
int ut_edge_status_parse(const char *name, ut_edge_status *out);
int ut_edge_origin_parse(const char *name, ut_edge_origin *out);

/* An empty graph with room for ntests tests (filled by the caller through
 * ut_graph_set_test). */
int ut_graph_new(ut_graph **out, size_t ntests);
void ut_graph_free(ut_graph *g);
/* Copies the strings into the graph's arena. */
int ut_graph_set_test(ut_graph *g, size_t index, const char *id, const char *name,
		      const char *file, unsigned line, unsigned end_line);

/* Sets the name hints of test `index` (copied into the graph's arena); 0 or UT_ENOMEM. */
int ut_graph_set_hints(ut_graph *g, size_t index, const char *const *nouns, size_t nnouns,
		       const char *dobj, int verb);

/* The edge dependent -> dependee, or NULL. The pointer is valid until the next add. */
ut_edge *ut_graph_find(ut_graph *g, uint32_t dependent, uint32_t dependee);
/* Adds dependent -> dependee with the given origin and status candidate, or returns the
 * existing edge. *out is valid until the next add. UT_EINPUT when dependee is not before
 * dependent or an index is out of range. */
int ut_graph_add(ut_graph *g, uint32_t dependent, uint32_t dependee, ut_edge_origin origin,
		 ut_edge **out);
/* Appends a value to an edge (the string is copied unless already interned by the
 * caller through ut_graph_intern). Duplicates are ignored; a setup mark is cleared when
 * the value is seen outside setup code. */
int ut_graph_add_value(ut_graph *g, ut_edge *e, const char *value, bool setup);
/* A copy of s in the graph's arena, the same pointer for equal strings. */
const char *ut_graph_intern(ut_graph *g, const char *s);
int ut_graph_add_evidence(ut_edge *e, long run_id);
/* Records that first and then go in different lists (ut_apart); an existing pair keeps
 * its evidence. UT_EINPUT when first is not before then or an index is out of range;
 * 0 or UT_ENOMEM otherwise. */
int ut_graph_add_apart(ut_graph *g, uint32_t first, uint32_t then, long failed_run,
		       long passed_run);
/* Adds to g the pairs kept apart of old whose two tests g has too (by id), in the same
 * order: what shard --verify learned survives a new detection. 0 or UT_ENOMEM. */
int ut_graph_carry_apart(ut_graph *g, const ut_graph *old);
/* A new graph of the tests g keeps (keep: g->ntests flags), in their order, with the
 * edges between them (status, values, filter verdict and evidence copied). *out belongs
 * to the caller. 0 or UT_ENOMEM. */
int ut_graph_subgraph(ut_graph **out, const ut_graph *g, const bool *keep);
/* The index of the test with this id, or -1. */
long ut_graph_test_index(const ut_graph *g, const char *id);
/* The test `what` names, as commands accept a test on their command line: its id, else
 * its name or the end of its id after a `:`, `#`, `.` or space (`test_login`,
 * `LoginTest.testLogin`, `Boards adds a user`) when one test alone has it. -1 when none
 * does, or when several do (*ambiguous then true). */
long ut_graph_find_test(const ut_graph *g, const char *what, bool *ambiguous);
/* Keeps only the edges order[0..n) (indices into g->edges, each once), in that order;
 * the others are freed. Pointers to edges are invalid afterwards. 0 or UT_ENOMEM. */
int ut_graph_keep_edges(ut_graph *g, const uint32_t *order, size_t n);

/* Whether the edge counts as a prerequisite now: not filtered and not false. */
bool ut_edge_active(const ut_edge *e);

/* A per-test adjacency view of the active edges, rebuilt on demand. */
typedef struct {
	uint32_t *start; /* ntests + 1 offsets into deps */
	uint32_t *deps;  /* dependee indices, ascending per test */
	size_t ntests;
} ut_adjacency;

/* Builds the prerequisites of every test from the edges for which keep(e, ctx) is true
 * (ut_edge_active when keep is NULL). */
int ut_adjacency_build(ut_adjacency *adj, const ut_graph *g,
		       bool (*keep)(const ut_edge *e, void *ctx), void *ctx);
void ut_adjacency_dispose(ut_adjacency *adj);

/* qsort's comparison of uint32_t test indices. */
int ut_cmp_u32(const void *a, const void *b);

/* Schedules (schedule.c): the one definition of a test's schedule, the test and its
 * transitive prerequisites in the original order, where a flaky or failing test (left out
 * by detect) needs every earlier test. explain, shard, schedules and run all use it. */
typedef struct {
	ut_adjacency adj;
	size_t n;
	unsigned char *leftout; /* per test: flaky or failing */
	uint32_t *stack, *mark;
	uint32_t stamp;
} ut_scheduler;

int ut_scheduler_init(ut_scheduler *s, const ut_graph *g);
/* As ut_scheduler_init, without the flaky/failing rule: the schedules over the active
 * edges as they stand, for detect, which keeps its own list of tests left out (a test it
 * finds flaky is marked in g while its neighbours are still being validated). */
int ut_scheduler_init_active(ut_scheduler *s, const ut_graph *g);
/* As ut_scheduler_init_active over the edges for which keep(e, ctx) is true (check's
 * schedules over the manifest edges of the head graph). */
int ut_scheduler_init_over(ut_scheduler *s, const ut_graph *g,
			   bool (*keep)(const ut_edge *e, void *ctx), void *ctx);
void ut_scheduler_dispose(ut_scheduler *s);
/* Appends the schedule of test t to *out (grown as needed; *cap its capacity), ascending.
 * 0 or UT_ENOMEM. */
int ut_scheduler_of(ut_scheduler *s, uint32_t t, uint32_t **out, size_t *len, size_t *cap);
/* The same without t's direct prerequisite `skip` (UINT32_MAX: none): skip is still in
 * when another prerequisite of t needs it (what tedd's inversion runs; what verify asks
 * to know whether an edge is implied). */
int ut_scheduler_without(ut_scheduler *s, uint32_t t, uint32_t skip, uint32_t **out,
			 size_t *len, size_t *cap);

#endif
