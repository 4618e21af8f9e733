/* plan_file.h: the plan file (`untangle shard --plan-file`, `untangle run --plan`): the
 * shards as `shard` planned them, written once and run later by CI jobs without parsing
 * the suite or planning again, and the fingerprint that tells, by hashing files rather
 * than parsing them, whether the suite is still the one the plan was made for.
 *
 * Format (JSON, doc/untangle.1 "PLAN FILE"):
 *   {"format": "untangle-plan", "version": 1,
 *    "shards": [{"shard": 1, "duration_s": 2.5, "tests": [ID...], "durations_s": [S...]}],
 *    "runner": {"preset": "pytest" | null, "preset_inferred": false},
 *    "fingerprint": {"hash": "16 hex digits",
 *                    "files": [{"path": P, "size": BYTES, "hash": "16 hex digits"}]}}
 * A file's size is -1 (hash "0") when it did not exist: untangle.json may be absent. */
#ifndef UT_PLAN_FILE_H
#define UT_PLAN_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "graph/graph.h"
#include "shard/shard.h"
#include "util/arena.h"
#include "util/buf.h"

#define UT_PLAN_VERSION 1

typedef struct {
	const char *path; /* relative to the project folder, without "./" */
	long long size;   /* bytes; -1 when the file does not exist */
	uint64_t hash;    /* ut_hash of the content; 0 when missing */
} ut_fp_file;

typedef struct {
	ut_arena arena;    /* paths and files */
	ut_fp_file *files; /* n, in the order they were listed */
	size_t n;
	uint64_t hash;     /* over every file's path, size and hash, in order */
} ut_fingerprint;

/* Hashes the files at paths[0..n) (content, not times: a CI checkout gives every file a
 * new mtime). A missing file is recorded with size -1. *out (the caller's, zeroed or
 * disposed before; dispose it whatever the result) is replaced. Returns 0, UT_ENOMEM, or
 * ut_fs_read's error naming a file that exists but cannot be read. */
int ut_fingerprint_files(ut_fingerprint *out, const char *const *paths, size_t n);

/* The fingerprint of the project in the working directory as cfg describes it: every
 * source file the parse would read (ut_parse_source_files: tests, helpers, page objects),
 * then untangle.json, the graph (store.graph) and, when configured, the order file and
 * the TestNG suite file. No parsing: a walk of the folders and a hash of each file.
 * Returns what ut_fingerprint_files returns, and the walk's errors (UT_ENOTFOUND for a
 * suite path that does not exist). */
int ut_fingerprint_project(ut_fingerprint *out, const ut_config *cfg);
/* The same without the graph: what a graph was validated from (graph.json's "sources",
 * written by detect), so that run and shard need not parse the suite again while the
 * project is as it was. */
int ut_fingerprint_sources(ut_fingerprint *out, const ut_config *cfg);
/* Its hash as graph.json's "sources" holds it (16 hex digits and a NUL); false (no error
 * left set) when a file could not be read or the walk failed. */
bool ut_fingerprint_sources_hex(const ut_config *cfg, char hex[17]);

/* Frees what it owns; accepts NULL. */
void ut_fingerprint_dispose(ut_fingerprint *fp);

/* How `now` differs from `was`, file by file (by path): counts, and the first file of
 * each kind in was's order (borrowed from was or now; NULL when none). */
typedef struct {
	size_t changed, added, removed;
	const ut_fp_file *first_changed; /* was's entry; now_size is the size it has now */
	long long now_size;
	const char *first_added, *first_removed;
} ut_fp_drift;

/* Fills *out; returns 0, or UT_ENOMEM. Files that exist in neither are not counted. */
int ut_fingerprint_diff(ut_fp_drift *out, const ut_fingerprint *was, const ut_fingerprint *now);

/* A plan file read back. */
typedef struct {
	ut_graph *g;         /* the plan's tests, each once, in order of first appearance, with
			      * the duration the plan gave it (duration_s) */
	ut_shard_plan plan;  /* nshards lists of indices into g, in the file's order; cost_s
			      * and repeats as written; the statistics are not stored */
	const char *preset;  /* runner.preset when the plan was written (in g's arena), or NULL */
	bool preset_inferred; /* implied by the tests' framework, not named in untangle.json */
	ut_fingerprint fp;
} ut_plan_file;

/* Appends the plan file of plan (over g, durations[i] the seconds of test i as planned)
 * to out (a plan of shards; schedules per sink are not run from a file). Returns 0, or
 * UT_ENOMEM. */
int ut_plan_file_write(ut_buf *out, const ut_graph *g, const ut_shard_plan *plan,
		       const double *durations, const char *preset, bool preset_inferred,
		       const ut_fingerprint *fp);

/* Reads the plan file at path. Returns 0; UT_ENOTFOUND when it does not exist;
 * UT_EINPUT with "PATH:LINE: ..." when it is not JSON, not a plan file, of a newer version,
 * or an entry is malformed (the line is that of the key at fault); UT_ENOMEM. *out (the
 * caller's) is zeroed on failure and must be disposed of otherwise. */
int ut_plan_file_read(ut_plan_file *out, const char *path);

/* Frees what it owns; accepts NULL. */
void ut_plan_file_dispose(ut_plan_file *pf);

#endif
