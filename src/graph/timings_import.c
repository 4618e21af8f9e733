/* timings_import.c: `untangle timings import`: the durations CI systems already keep
 * (JUnit XML reports, pytest-split's .test_durations) into timings.json, so that the
 * first shards are balanced before any detect (`run` and detect record theirs through
 * store/). */
#include "graph/timings.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/junit.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

typedef struct {
	const char *const *ids;
	size_t n;
	double *seconds; /* per id; -1 when no file gave one */
	ut_map index;    /* id -> position + 1 */
	ut_timings_import_info *info;
} import_ctx;

static void remember(import_ctx *c, const char *a, const char *sep, const char *b)
{
	if (!*c->info->example)
		snprintf(c->info->example, sizeof(c->info->example), "%s%s%s", a, sep, b);
}

/* One .test_durations entry: its key is a test id (a pytest node id). */
static int durations_entry(void *ctx, const char *id, double seconds)
{
	import_ctx *c = ctx;
	size_t at = (size_t)(uintptr_t)ut_map_get(&c->index, id, strlen(id));

	c->info->records++;
	if (!at) {
		c->info->unused++;
		remember(c, id, "", "");
		return 0;
	}
	c->seconds[at - 1] = seconds;
	return 0;
}

/* The passed testcases of a report, matched to the ids as the runner matches them. */
static int read_junit(import_ctx *c, const char *data, size_t len, const char *file)
{
	enum { NONE, MATCHED, USED };
	ut_junit *j = NULL;
	unsigned char *state = NULL; /* per testcase */
	size_t i, count;
	int rc = ut_junit_parse(&j, data, len, file);

	if (rc < 0)
		return rc;
	count = ut_junit_count(j);
	state = calloc(count ? count : 1, sizeof(*state));
	if (!state) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < c->n; i++) {
		const ut_junit_case *tc = ut_junit_match(j, c->ids[i]);

		if (!tc)
			continue;
		/* a time of 0 is most often no `time` attribute at all */
		if (tc->outcome != UT_OUT_PASS || !(tc->time_s > 0)) {
			state[tc->index] = state[tc->index] == USED ? USED : MATCHED;
			continue;
		}
		c->seconds[i] = tc->time_s;
		state[tc->index] = USED;
	}
	c->info->records += count;
	for (i = 0; i < count; i++) {
		const ut_junit_case *tc = ut_junit_case_at(j, i);

		if (state[tc->index] == USED)
			continue;
		c->info->unused++;
		if (state[tc->index] == NONE && tc->outcome == UT_OUT_PASS)
			remember(c, tc->classname, *tc->classname ? " " : "", tc->name);
	}
done:
	free(state);
	ut_junit_free(j);
	return rc;
}

static int read_one(import_ctx *c, const char *file)
{
	ut_buf text = UT_BUF_INIT;
	const char *p;
	int rc = ut_fs_read(&text, file, UT_JUNIT_MAX_BYTES);

	if (rc == UT_ENOTFOUND)
		rc = ut_error_set(UT_ENOTFOUND, "'%s' does not exist", file);
	if (rc < 0)
		goto done;
	p = text.ptr ? text.ptr : "";
	p += strspn(p, " \t\r\n");
	if (!strncmp(p, "\xef\xbb\xbf", 3)) /* a byte order mark */
		p += 3;
	if (*p == '{')
		rc = ut_timings_parse(text.ptr, text.len, file, durations_entry, c);
	else if (*p == '<')
		rc = read_junit(c, text.ptr, text.len, file);
	else
		rc = ut_error_set(UT_EINPUT, "%s:1: neither a JUnit XML report nor a JSON object "
				  "of test id to seconds (pytest-split's .test_durations)", file);
	c->info->files += rc == 0;
done:
	ut_buf_dispose(&text);
	return rc;
}

int ut_timings_import(const char *path, const char *const *ids, size_t n,
		      const char *const *files, size_t nfiles, ut_timings_import_info *info)
{
	import_ctx *c = calloc(1, sizeof(*c));
	const char **got = malloc((n ? n : 1) * sizeof(*got));
	double *secs = malloc((n ? n : 1) * sizeof(*secs));
	size_t i, m = 0;
	int rc = 0;

	memset(info, 0, sizeof(*info));
	if (!c || !got || !secs) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	c->ids = ids;
	c->n = n;
	c->info = info;
	c->seconds = secs;
	c->index = (ut_map)UT_MAP_INIT;
	for (i = 0; i < n && rc == 0; i++) {
		secs[i] = -1;
		if (ut_map_put(&c->index, ids[i], strlen(ids[i]), (void *)(uintptr_t)(i + 1)) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < nfiles && rc == 0; i++)
		rc = read_one(c, files[i]);
	for (i = 0; i < n && rc == 0; i++) {
		if (secs[i] < 0)
			continue;
		got[m] = ids[i];
		secs[m++] = secs[i];
	}
	info->matched = m;
	if (rc == 0 && m)
		rc = ut_timings_update(path, got, secs, m, true);
done:
	if (c)
		ut_map_dispose(&c->index);
	free(c);
	free(got);
	free(secs);
	return rc;
}
