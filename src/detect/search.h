/* search.h: the search for each test's prerequisites (search.c) and the verification of
 * an output graph with its repair (verify.c), shared by strategy fast, the incremental
 * check and tedd's verification. Private to the detect stage. */
#ifndef UT_DETECT_SEARCH_H
#define UT_DETECT_SEARCH_H

#include "detect/internal.h"

/* Where a test stands. */
enum {
	SX_GRAPH = 0, /* settled from the graph: its prerequisites are its active edges */
	SX_START,     /* to be searched: first, whether it passes alone */
	SX_GALLOP,    /* growing a set it passes after, the likeliest prerequisites first */
	SX_PEEL,      /* narrowing that set down to what it needs */
	SX_DONE,      /* searched: its prerequisites are `in` */
	SX_RESCUE     /* searched, and failing after more tests than it needs (rescue.c) */
};

/* A direct prerequisite found, and the run that failed without it (and with the rest). */
typedef struct {
	uint32_t test;
	long run;
} sx_found;

typedef struct {
	int state;
	dx_sched anc; /* settled: its transitive prerequisites, ascending */
	dx_sched u;   /* searching: a set it is known to pass after (holds every need) */
	dx_sched in;  /* searching: prerequisites proven so far (closed under theirs) */
	UT_VEC(sx_found) found;
	uint32_t *rank;	    /* gallop: earlier tests, likeliest prerequisite first */
	size_t nrank, ri;   /* how many; how many are in x */
	dx_sched x;	    /* gallop: the tests tried so far */
	dx_sched gfail;	    /* gallop: the last try it failed after (ascending) */
	size_t target;	    /* gallop: the size the next try grows to */
	size_t step;	    /* gallop: how many tests more the try after it takes */
	bool searching;	    /* peel: a binary search for the latest missing prerequisite */
	bool top_tried;	    /* peel: this search asked about its latest test alone */
	bool by_one;	    /* peel: leaving out each top test of u \ in alone (one_by_one) */
	bool by_one_dry;    /* peel: a round of one_by_one dropped every top it asked about */
	int confirming;     /* peel: times the pass after u was run again (confirm_pass) */
	uint32_t lo, hi;    /* peel: it is in u \ in, at or above lo and below hi */
	long fail_run;	    /* peel: the last run that failed without it */
	long pass_run;	    /* the run that showed it passes after u */
	double cand_weight; /* what a candidate edge adds to the prior (make_rank) */
	uint64_t last_probe;
	int stalls;
	dx_sched ctx;	    /* rescue: the tests it failed after, its prerequisites among them */
	dx_sched breakers;  /* rescue: those of ctx it was not settled on (X among them) */
	unsigned rescues;   /* rescue: how many were begun */
	bool rescued;	    /* rescue: it found `rescuer` (a direct prerequisite in found) */
	uint32_t rescuer;
} sx_test;

/* Failures of t without d, with every other test of its schedule passing before it, that
 * the search saw at the end of another test's run (sx_run_probes): the confirmations of
 * t -> d they give while outcomes agree, for the schedule of hash `sched` (the store keeps
 * no record of a failure after fewer tests than one it has). */
typedef struct {
	uint32_t t, d;
	uint64_t sched;
	unsigned hits;
} sx_hconf;

/* A run planned for a test. */
typedef struct {
	uint32_t owner;
	dx_sched sched; /* ascending, the owner last */
	ut_detect_phase phase;
	char purpose[320]; /* with confirmations at its end (verify.c) */
} sx_probe;

typedef struct {
	dx_ctx *c;
	ut_graph *g;
	size_t n;
	sx_test *t;
	unsigned *dependents; /* per test: searched tests found to need it directly */
	unsigned *ncand;      /* per test: its active candidate edges when the search began */
	unsigned char *mark;  /* scratch, n bytes */
	double *weight;	      /* scratch, n */
	UT_VEC(sx_probe) probes;
	bool with_original; /* the original order passed: every test passes after all
			       earlier included tests */
	bool prove_graph;   /* the verification proves the direct prerequisites of tests
			       settled from the graph too (tedd's), not only searched ones */
	unsigned *confirm;  /* per edge index: failures without the dependee the verification
			       saw that the store kept no record of its own for */
	UT_VEC(sx_hconf) hconf; /* the same, seen by the search (sx_hconf) */
	size_t nconfirm;
	/* what the verification did */
	size_t verify_runs, reopened, added, removed, confirmed;
	size_t verified; /* tests of the scope whose schedule passed whole, as last planned */
} sx;

int sx_init(sx *s, dx_ctx *c);
void sx_dispose(sx *s);
/* Settles the tests in SX_GRAPH from the active edges, in order (earlier ones first). */
int sx_settle_from_graph(sx *s);
/* Starts the search of t over (what is known stays known). */
void sx_reopen(sx *s, uint32_t t);
/* Searches every test not settled, in batches of runs, until each is settled or left out;
 * then writes the edges of the tests it searched. */
int sx_search(sx *s);
/* The confirmations of t -> d the search saw for t's schedule less d (without). */
unsigned sx_hosted_confirmations(const sx *s, uint32_t t, uint32_t d, const dx_sched *without);
/* Runs the planned probes as one batch (batch.c): identical runs once, a probe that
 * another run holds at its end, and confirmations at the end of search runs. */
int sx_run_probes(sx *s);
/* Plans the run of sched (ascending, owner last; taken over and emptied). */
int sx_propose(sx *s, uint32_t owner, dx_sched *sched, ut_detect_phase phase, const char *purpose);
/* The closures of the active edges of the graph, into the anc of every test for which
 * want() holds, from one pass over the graph. */
int sx_graph_closures(sx *s, bool (*want)(const sx *s, uint32_t t));
/* Whether t takes part (not left out as flaky or failing). */
bool sx_included(const sx *s, uint32_t t);
/* The search's small helpers on schedules (dx_sched, ascending), shared by search.c and
 * batch.c: push x at the end (UT_ENOMEM); whether v holds e (binary search); to = from;
 * which probe this is (owner after exactly v); the planned probes dropped. */
int sx_push(dx_sched *v, uint32_t x);
bool sx_contains(const dx_sched *v, uint32_t e);
int sx_copy_sched(dx_sched *to, const dx_sched *from);
uint64_t sx_probe_key(const uint32_t *v, size_t n, uint32_t owner);
void sx_probes_clear(sx *s);

/* The answer to "does t pass after exactly v?" (sx_ask). SX_WAIT: the same probe gave no
 * answer and holds a test still searched (one searched again after a refuted pass, say):
 * t waits until that one is settled, no stall. */
enum { SX_PASS, SX_FAIL, SX_PLANNED, SX_STALLED, SX_WAIT };
#define SX_STALLS 3 /* the same probe this often without an answer: left out */

/* The steps of search.c that the peel (peel.c) shares. out = the marked tests below
 * `below`, ascending, the marks cleared. Marks v and everything the settled tests of v
 * need (their anc); returns how many were not marked. How likely t needs e, on a log
 * scale. Sets *ans from the evidence or plans the run (SX_PLANNED; SX_STALLED after a
 * few runs without an answer); *run: the run that shows it. Leaves t out (flaky,
 * failing, or failing without the tests left out before it). After sx_ask: whether the
 * step ends there, *rc what it returns (1 a run is planned, 0 t was left out, < 0 an
 * error). */
int sx_collect(sx *s, uint32_t below, dx_sched *out);
size_t sx_mark_closure(sx *s, const uint32_t *v, size_t n);
double sx_prior(sx *s, uint32_t t, uint32_t e);
int sx_ask(sx *s, uint32_t t, const dx_sched *asked, const char *what, long *run, int *ans);
void sx_give_up(sx *s, uint32_t t, bool stalled);
bool sx_ends(sx *s, uint32_t t, int a, int *rc);
/* One step of the peel of t (peel.c): 1 when a run is planned, 0 when t waits or is
 * settled, < 0 on error. */
int sx_step_peel(sx *s, uint32_t t);

/* Rescue (rescue.c): a searched test that a dispute held failing after a set holding its
 * prerequisites (a pair that is not monotone: an earlier test X breaks it) is searched for
 * the earlier test outside that set after which it passes there again (Y, which restores
 * what X broke), a binary search over the earlier tests in their order. Begins that
 * search for each such test where a schedule may hold X with it (SX_RESCUE; searched[t]
 * set). 0 or UT_ENOMEM. */
int sx_rescue_begin(sx *s, unsigned char *searched);
/* One step of t's rescue: 1 when a run is planned, 0 when it is over (t is SX_DONE, with
 * Y among its prerequisites when one was found), < 0 on error. */
int sx_rescue_step(sx *s, uint32_t t);
/* Once the search is over: a rescuer that no schedule needs is dropped again (no test
 * whose closure holds t holds a test t failed after beyond t's own prerequisites: X is in
 * no schedule with t). Its probes held X and t while the search did not know yet. */
int sx_rescue_keep(sx *s);

/* Verification (verify.c): every test of `scope` (NULL: all) passes after its schedule in
 * the output graph, each of the schedules of tests nobody depends on ran whole and passed,
 * and every direct prerequisite has a run where its dependent failed without it and with
 * the rest of its schedule. A schedule that fails or a prerequisite found unneeded sends
 * the test back to the search, and the graph is verified again. */
int sx_verify(sx *s, const unsigned char *scope);

#endif
