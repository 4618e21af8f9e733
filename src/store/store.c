/* store.c: the .untangle/ folder: its lock and leftovers, whether it can be written, the
 * graph file and note, and the durations of `untangle run`. */
#include "store/store.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/graph_json.h"
#include "graph/timings.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/lock.h"
#include "util/banned.h"

#define GRAPH_MAX_BYTES (1024u * 1024u * 1024u)

int ut_store_lock(int *out, const char *command, size_t *removed)
{
	int rc = ut_fs_state_dir(UT_STORE_DIR);

	*out = -1;
	if (removed)
		*removed = 0;
	if (rc == 0)
		rc = ut_lock_take(out, UT_STORE_LOCK, command);
	/* what a killed untangle was writing (ut_fs_write_atomic's "NAME.tmp.PID") */
	if (rc == 0)
		rc = ut_fs_remove_dead(UT_STORE_DIR, ut_fs_tmp_pid, false, removed);
	return rc;
}

int ut_store_writable(const char *graph_path, const char *journal_path)
{
	const char *paths[] = {graph_path, journal_path};
	int rc = 0;

	for (size_t i = 0; i < 2 && rc == 0; i++) {
		const char *slash = strrchr(paths[i], '/');
		char dir[PATH_MAX], why[1100];

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - paths[i]) : 1,
			 slash ? paths[i] : ".");
		if (!ut_fs_is_dir(dir) || ut_fs_check_writable(paths[i]) == 0)
			continue;
		snprintf(why, sizeof(why), "%s", ut_error_message());
		rc = ut_error_set(UT_EENV, "%s: '%s' could not be written; make the folder "
				  "writable, then run 'untangle detect' again (with --resume to "
				  "continue a detection)", why, paths[i]);
	}
	return rc;
}

int ut_store_graph_load(ut_graph **out, const char *path)
{
	ut_buf text = UT_BUF_INIT;
	int rc;

	*out = NULL;
	if (!ut_fs_exists(path))
		return ut_error_set(UT_ENOTFOUND, "%s: no graph yet (run 'untangle detect')", path);
	rc = ut_fs_read(&text, path, GRAPH_MAX_BYTES);
	if (rc == 0)
		rc = ut_graph_read_json(out, text.ptr ? text.ptr : "", text.len, path);
	ut_buf_dispose(&text);
	return rc;
}

int ut_store_graph_save(const ut_graph *g, const char *path)
{
	ut_buf out = UT_BUF_INIT;
	int rc = ut_graph_write_json(&out, g);

	if (rc == 0)
		rc = ut_fs_write_atomic(path, out.ptr, out.len);
	ut_buf_dispose(&out);
	return rc;
}

int ut_store_note_write(ut_git *git, const char *notes_ref, const char *commit,
			const ut_graph *g)
{
	ut_buf json = UT_BUF_INIT;
	int rc = ut_graph_write_note(&json, g);

	if (rc == 0)
		rc = ut_git_note_write(git, notes_ref, commit, json.ptr);
	ut_buf_dispose(&json);
	return rc;
}

void ut_store_verified_plan_path(char path[UT_STORE_PATH_MAX], size_t nshards)
{
	snprintf(path, UT_STORE_PATH_MAX, UT_STORE_DIR "/verified-plan-%zu.json", nshards);
}

int ut_store_verified_plan_forget(size_t nshards)
{
	char path[UT_STORE_PATH_MAX];

	ut_store_verified_plan_path(path, nshards);
	if (unlink(path) < 0 && errno != ENOENT)
		return ut_error_set(UT_EENV, "%s: cannot remove it: %s", path, strerror(errno));
	return 0;
}

int ut_store_timings_record_run(const char *path, const char *const *ids,
				const ut_run_result *res)
{
	const char **got = malloc((res->n ? res->n : 1) * sizeof(*got));
	double *secs = malloc((res->n ? res->n : 1) * sizeof(*secs));
	size_t i, n = 0;
	int rc = 0;

	if (!got || !secs) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < res->n; i++) {
		/* 0: the report gave no time, which would hide a known duration */
		if (res->tests[i].outcome != UT_OUT_PASS || !(res->tests[i].duration_s > 0))
			continue;
		got[n] = ids[i];
		secs[n++] = res->tests[i].duration_s;
	}
	if (n)
		rc = ut_timings_update(path, got, secs, n, true);
done:
	free(got);
	free(secs);
	return rc;
}
