/* check.h: the incremental pre-merge check (thesis 7.3): what a change did to the suite,
 * which tests must be validated again, and what the re-validation found.
 *
 * The caller parses both versions of the suite (the base commit's, the work tree's) and
 * loads the base graph; ut_check_prepare compares them test by test and builds the head
 * graph: every edge of an unaffected test carried over, and a UT_REVALIDATE_* per test
 * for ut_detect_run. A removed prerequisite is settled before that, within a bound, by
 * ut_check_settle_lost (the one function here that runs schedules, through detect's
 * ut_detect_probe). After the runs, ut_check_conclude turns what changed into findings:
 * one root cause per removed or renamed test, its dependents folded under it.
 *
 * ut_check_run does all of it for `untangle check`, git included (run.c): the merge
 * base, the base graph, the diff, the base version of the suite, the runs. */
#ifndef UT_CHECK_H
#define UT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "detect/detect.h"
#include "filter/candidates.h"
#include "graph/graph.h"
#include "model/suite.h"
#include "report/findings.h"
#include "util/diag.h"
#include "vcs/git.h"

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

/* What a dependent of a removed test showed (ut_check_settle_lost). */
typedef enum {
	UT_LOST_NONE = 0,  /* not a direct dependent of a removed test */
	UT_LOST_UNKNOWN,   /* not run (no runner asked) */
	UT_LOST_PASSES,    /* passes in its schedule without it: it no longer needs it */
	UT_LOST_STANDIN,   /* fails in its schedule, passes after every earlier test: searched */
	UT_LOST_BROKEN     /* fails after every earlier test too: left out, with its dependents */
} ut_lost_state;

/* A removed or renamed test that others depended on: one root cause. */
typedef struct {
	long base;                /* the base test */
	long head;                /* renamed: its head index; removed: -1 */
	UT_VEC(uint32_t) direct;  /* head tests whose base edges named it, ascending */
} ut_check_loss;

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
	UT_VEC(ut_check_loss) losses; /* in base order */
	unsigned char *lost;   /* per head test: ut_lost_state */
	long *lost_run;        /* per head test: the run that showed its state (0: none) */
	long order_run;        /* the run of the suite up to the last broken dependent (0) */
	long *base_of_graph_;  /* private: base graph index -> base test, -1 */
} ut_check;

/* Compares the two versions and builds c->graph and c->revalidate. Files are read to
 * compare each test's source text (blank space does not count); a test whose actions
 * changed through shared setup or helper code counts as modified. Returns 0,
 * UT_EINPUT (a test file that cannot be read), UT_ENOMEM. */
int ut_check_prepare(ut_check *c, const ut_check_input *in);

/* The bounded search for a stand-in of each removed prerequisite, before ut_detect_run:
 * one run of each direct dependent's schedule without the removed test (its other known
 * prerequisites, then it), and, when some fail, one run of the head suite in original
 * order up to the last of those (what every earlier test gives them): at most one
 * schedule per dependent and one more. A dependent that passes in its schedule keeps its
 * edges (re-validated only when the change touched it); one that fails there but passes
 * after every earlier test is searched by ut_detect_run (a stand-in exists); one that
 * fails after every earlier test too is left out of c->graph as failing, and so is every
 * test that depends on it, without running them (UT_REVALIDATE_KEEP). Adds the runs to
 * *stats. Returns 0, or what ut_detect_probe returns. */
int ut_check_settle_lost(ut_check *c, ut_runner *runner, ut_journal *journal,
			 const ut_detect_opts *opts, ut_detect_stats *stats);

/* After ut_detect_run on c->graph: the findings. First one root cause per removed or
 * renamed test that others depended on (kind removed-prerequisite, `dependents` its
 * direct and transitive dependents, what the runs showed in its message); the dependents'
 * own findings are folded into it. Then reorders, tests that fail even after all earlier
 * tests, and new dependencies that hold, as warnings. fail_run is per head test the last
 * run it failed in (0: none known), for evidence; may be NULL. */
int ut_check_conclude(ut_check *c, ut_findings *out, const long *fail_run);

/* Affected tests: those not UT_REVALIDATE_KEEP. */
size_t ut_check_affected(const ut_check *c);

void ut_check_dispose(ut_check *c);

/* ---- the whole check (run.c) ---- */

typedef struct {
	const char *base_ref;      /* the branch the change goes into ("origin/main") */
	const char *project_dir;   /* the suite root, absolute and ending in '/', inside a
				      git work tree; it must be the working directory */
	const char *state_dir;     /* untangle's folder in the project (".untangle"): the
				      base's temporary copy, the runner's reports, the journal */
	const ut_config *cfg;      /* the project's (store, suite, runner, detect) */
	const ut_suite *head;      /* the work tree's suite, parsed */
	const ut_diags *head_diags; /* its parse diagnostics */
	const ut_candidates_opts *candidates; /* for the head suite's candidate graph */
	const char *extract, *filter; /* their names, for the journal */
	unsigned jobs;             /* threads that parse the base version (0: one per CPU) */
	int workers;               /* parallel runner workers */
	const char *sources;       /* the fingerprint of the work tree's sources, when the
				      head suite was read whole (graph.json "sources", as
				      detect writes it: run and shard then parse nothing), or
				      NULL */
	bool note;                 /* the head's graph also as a git note on HEAD
				      (cfg->store.notes_ref), as `detect --store notes`, when
				      the suite has no change HEAD does not hold */
} ut_check_opts;

/* How far ut_check_run is, for the command to tell (r holds what is known so far). */
typedef enum {
	UT_CHECK_EV_DETACHED, /* HEAD is detached: r->head and the work tree are checked */
	UT_CHECK_EV_BASE,     /* the commits are known; r->have_graph says whether a base graph
				 was found (r->graph_where) */
	UT_CHECK_EV_CHANGED,  /* r->files_changed files of the suite changed since
				 r->graph_commit */
	UT_CHECK_EV_COMPARED, /* both versions compared: r->check */
	UT_CHECK_EV_RUNNER,   /* tests will run: the project's runner is made next */
	UT_CHECK_EV_RUN       /* one run of the re-validation finished: ev->run */
} ut_check_event_kind;

typedef struct ut_check_result ut_check_result;

typedef struct {
	ut_check_event_kind kind;
	const ut_check_result *r;
	const ut_detect_event *run; /* UT_CHECK_EV_RUN only */
} ut_check_event;

typedef void (*ut_check_progress_fn)(void *ctx, const ut_check_event *ev);

#define UT_CHECK_NOTE_DEPTH 1000 /* ancestors of the merge base searched for a note */

/* What ut_check_run found. Not to be copied: check points into it. */
struct ut_check_result {
	char head[UT_GIT_OID_HEX + 1], base[UT_GIT_OID_HEX + 1], merge_base[UT_GIT_OID_HEX + 1];
	char graph_commit[UT_GIT_OID_HEX + 1]; /* the commit the base graph describes (the
						  merge base when there is none) */
	char graph_where[160]; /* "the note on abc1234 (REF)" or "PATH at abc1234"; "" */
	bool detached;
	bool have_graph;
	size_t files_changed;
	ut_check check;        /* from UT_CHECK_EV_COMPARED on */
	ut_detect_stats stats; /* the re-validation's runs */
	ut_findings findings;  /* sorted */
	ut_diags broken;       /* changed test files that no longer parse (then UT_EINPUT) */
	unsigned wrote;        /* what recording the head's graph wrote: UT_STORE_WROTE_* */
	bool note_skipped;     /* a note was asked for, but the suite has uncommitted changes:
				  none written (it would be read as HEAD's graph) */
	/* private: what check borrows while the result lives */
	ut_check_input in_;
	ut_graph *base_graph_, *candidates_;
	ut_suite *base_suite_;
	char *prefix_;
	char *base_root_; /* the base's files, removed by ut_check_result_dispose */
};

/* The project's folder in the work tree: "" or "a/b/" (allocated in *out) when
 * project_dir (absolute, ending in '/') is workdir or below it. UT_EENV when it is not,
 * UT_ENOMEM. */
int ut_check_repo_prefix(char **out, const char *workdir, const char *project_dir);

/* The incremental check of the work tree against opts->base_ref: opens the repository,
 * finds HEAD, the base and their merge base; the base graph in a note on the merge base
 * or one of its UT_CHECK_NOTE_DEPTH nearest ancestors (cfg->store.notes_ref), else the
 * graph file in the merge base's tree (without one, the whole suite is validated and
 * only failures are findings); the suite files changed since that commit (a changed file
 * with a UT_DIAG_SYNTAX diagnostic in head_diags is the change's error: listed in
 * out->broken, UT_EINPUT); the base version of the suite, extracted under
 * state_dir/tmp and parsed; the comparison (ut_check_prepare); when tests are affected,
 * the runner (ut_runner_new on cfg) and the runs (ut_check_settle_lost, ut_detect_run,
 * journal state_dir/check-journal.jsonl); the findings; and last the head's graph,
 * recorded as detect records its own (ut_store_record_detection): cfg->store.graph, the
 * durations in state_dir/timings.json (other entries kept) and, with opts->note, the
 * note on HEAD (not when the suite differs from HEAD: out->note_skipped). cb (may be
 * NULL) hears each step. Runs under ut_proc_interrupt: UT_EINTR and nothing written.
 * *out is initialised by the call whatever it returns; dispose of it with
 * ut_check_result_dispose. Returns 0, UT_EINPUT
 * (an unknown base, a base graph that does not read, a changed file that does not
 * parse), UT_ENOTFOUND (no repository), UT_EENV (git, the runner, the file system, a
 * project outside the work tree), UT_EINTR, UT_ENOMEM; the error message says which. */
int ut_check_run(ut_check_result *out, const ut_check_opts *opts, ut_check_progress_fn cb,
		 void *ctx);

void ut_check_result_dispose(ut_check_result *r);

/* Removes from tmp_dir (state_dir/tmp) the base folders of checks whose process no longer
 * runs (a check killed while it read the base); *removed (may be NULL) counts them. 0 or
 * UT_EENV. */
int ut_check_remove_leftovers(const char *tmp_dir, size_t *removed);

#endif
