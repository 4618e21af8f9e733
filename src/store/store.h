/* store.h: what untangle keeps in a project's .untangle/ folder (DESIGN.md "Files it
 * writes"), in one owner: where each file is, the lock that lets one untangle at a time
 * write there and the temporary files a killed one left, the graph (graph.json and its
 * git note), the durations (timings.json) and the journal's header (journal.h holds the
 * journal itself). detect, check, run and shard read and write these files through this
 * module; the formats are graph/'s (graph_json.c, timings.c).
 *
 * ut_store_record_detection is the one way a validated graph is recorded: `untangle
 * detect` (detect/project.c) and `untangle check` (check/run.c) both call it after their
 * runs, so that they write the same files. */
#ifndef UT_STORE_H
#define UT_STORE_H

#include <stdbool.h>

#include "config/config.h"
#include "graph/graph.h"
#include "runner/runner.h"
#include "store/journal.h"
#include "util/arena.h"
#include "vcs/git.h"

/* The files, relative to the project (the working directory). The graph's path is
 * store.graph in untangle.json (default ".untangle/graph.json", config.c: config/ is
 * below this module). */
#define UT_STORE_DIR ".untangle"
#define UT_STORE_JOURNAL UT_STORE_DIR "/journal.jsonl"       /* detect's, for --resume */
#define UT_STORE_SHARD_JOURNAL UT_STORE_DIR "/shard-journal.jsonl" /* shard --verify's runs */
#define UT_STORE_CHECK_JOURNAL_NAME "check-journal.jsonl"    /* check's, in its state dir */
#define UT_STORE_TIMINGS_NAME "timings.json"
#define UT_STORE_TIMINGS UT_STORE_DIR "/" UT_STORE_TIMINGS_NAME /* durations, latest runs */
#define UT_STORE_LOCK UT_STORE_DIR "/lock"       /* pid, start and command of the holder */
#define UT_STORE_PGROUPS UT_STORE_DIR "/pgroups" /* the runner's live process groups */
#define UT_STORE_TMP_NAME "tmp"                  /* runner reports, check's base copy */
#define UT_STORE_TMP UT_STORE_DIR "/" UT_STORE_TMP_NAME
#define UT_STORE_SHARDS UT_STORE_DIR "/shards"   /* `shard --format lines` by default */
#define UT_STORE_PATH_MAX 64                      /* room for any path above */

/* Where the plan of nshards shards that `shard --verify` published goes (a plan file,
 * shard/plan_file.h: ".untangle/verified-plan-N.json"); `shard` and `run --shard` run that
 * plan, not a new one, while the project and the graph are as they were when it passed. */
void ut_store_verified_plan_path(char path[UT_STORE_PATH_MAX], size_t nshards);
/* Removes that file (a plan that failed its verification is not run); 0, or UT_EENV
 * naming it when it exists and cannot be removed. */
int ut_store_verified_plan_forget(size_t nshards);

/* Creates UT_STORE_DIR (no symbolic link in its path), takes UT_STORE_LOCK for this
 * process (ut_lock_take: `command` names the holder) and removes the temporary files of
 * atomic writes that a killed untangle left there (*removed counts them; may be NULL).
 * *out is the lock's descriptor, kept open for the process's life. 0, or UT_EENV (held by
 * another untangle, named in the message; a folder that cannot be made). */
int ut_store_lock(int *out, const char *command, size_t *removed);

/* The folders of the graph (a temporary file, then a rename) and of the journal, when
 * they exist, can be written: 0, or UT_EENV naming the path and what to do. Called before
 * any run, not after all of them. */
int ut_store_writable(const char *graph_path, const char *journal_path);

/* Reads graph.json at path. UT_ENOTFOUND when it does not exist (the message says to run
 * detect), UT_EINPUT ("PATH:LINE: ...") for a malformed one, UT_ENOMEM. *out is the
 * caller's. */
int ut_store_graph_load(ut_graph **out, const char *path);
/* Writes g to path atomically (a temporary file beside it, then a rename). */
int ut_store_graph_save(const ut_graph *g, const char *path);

/* Writes g as the note of commit under notes_ref (a new notes commit, the old note
 * replaced). 0, or ut_git_note_write's code; UT_ENOMEM. */
int ut_store_note_write(ut_git *git, const char *notes_ref, const char *commit,
			const ut_graph *g);

/* Records in the timings file at path, other entries kept, the durations (> 0: a report
 * without a time gives 0) of res's passed tests (ids[i] for res->tests[i]): `run` keeps
 * timings.json current. 0 (also when none passed: nothing written), or
 * ut_timings_update's error. */
int ut_store_timings_record_run(const char *path, const char *const *ids,
				const ut_run_result *res);

/* What a journal is opened for (detect's and check's). */
typedef struct {
	const char *path;
	ut_journal_mode mode;
	const char *strategy;         /* its name, ut_detect_strategy_name */
	const char *extract, *filter; /* canonical names */
	int reruns;
	const ut_config *cfg;         /* for the fingerprints of values.ignore and the runner */
} ut_store_journal_opts;

/* Opens the journal at o->path in o->mode (ut_journal_open) with the header for g: the
 * suite's fingerprint (its test count and ids in order), o's names and reruns, and
 * ut_journal_fingerprint's fingerprints, allocated in a (which must outlive the journal).
 * Returns 0, or ut_journal_open's code; UT_ENOMEM. */
int ut_store_journal_open(ut_journal **out, ut_arena *a, const ut_graph *g,
			  const ut_store_journal_opts *o);

/* Where a validated graph goes. */
typedef struct {
	const char *graph;   /* graph.json (store.graph) */
	const char *timings; /* timings.json, or NULL: not written */
	/* false: the graph's durations replace the file (detect measured every test it
	 * ran); true: they are written over its other entries (check ran only some, and
	 * carries the others' durations from the base graph) */
	bool keep_timings;
	ut_git *git;           /* with notes_ref and commit: also a note; NULL: no note */
	const char *notes_ref;
	const char *commit;    /* 40 hex digits */
} ut_store_dest;

/* What ut_store_record_detection wrote, as bits. */
enum {
	UT_STORE_WROTE_GRAPH = 1,
	UT_STORE_WROTE_TIMINGS = 2,
	UT_STORE_WROTE_NOTE = 4
};

/* Records a validated graph, in this order: graph.json (atomically), then the durations
 * of its tests (those with duration_s >= 0) in timings.json, then the note. Stops at the
 * first failure. *wrote (may be NULL) gets the UT_STORE_WROTE_* bits of what was written,
 * whatever the result. Returns 0, UT_EINPUT (a kept timings file that does not read),
 * UT_EENV (a file or the note that cannot be written), UT_ENOMEM. */
int ut_store_record_detection(const ut_graph *g, const ut_store_dest *d, unsigned *wrote);

#endif
