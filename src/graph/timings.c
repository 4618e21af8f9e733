/* timings.c: durations from .untangle/timings.json and the graph, with a fallback. */
#include "graph/timings.h"

#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define TIMINGS_MAX_BYTES (256u << 20)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int read_file(double *durations, const ut_graph *g, const char *path,
		     ut_timings_info *info)
{
	ut_buf text = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *v;
	int rc;

	rc = ut_fs_read(&text, path, TIMINGS_MAX_BYTES);
	if (rc == UT_ENOTFOUND) {
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	rc = ut_json_parse(&doc, text.ptr ? text.ptr : "", text.len, path);
	if (rc < 0)
		goto done;
	if (!ut_json_is_object(doc)) {
		rc = ut_error_set(UT_EINPUT, "%s:1: expected an object of test id to seconds",
				  path);
		goto done;
	}
	for (v = ut_json_first(doc); v; v = ut_json_next(v)) {
		const char *id = ut_json_key(v);
		long t;

		if (!ut_json_is_number(v) || !(ut_json_number(v) >= 0)) {
			rc = ut_error_set(UT_EINPUT, "%s:%u: the duration of '%s' must be a number "
					  ">= 0 (seconds)", path,
					  ut_json_key_line(text.ptr, text.len, id), id);
			goto done;
		}
		t = ut_graph_test_index(g, id);
		if (t < 0) {
			info->unknown_ids++;
			continue;
		}
		if (durations[t] < 0)
			info->from_file++;
		durations[t] = ut_json_number(v);
	}
done:
	ut_json_free(doc);
	ut_buf_dispose(&text);
	return rc;
}

int ut_timings_fill(double *durations, bool *estimated, const ut_graph *g, const char *path,
		    ut_timings_info *info)
{
	ut_timings_info local;
	double *known = NULL;
	size_t i, nknown = 0;
	int rc = 0;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	for (i = 0; i < g->ntests; i++)
		durations[i] = -1;
	if (path) {
		rc = read_file(durations, g, path, info);
		if (rc < 0)
			return rc;
	}
	known = malloc((g->ntests ? g->ntests : 1) * sizeof(*known));
	if (!known)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < g->ntests; i++) {
		if (durations[i] < 0 && g->tests[i].duration_s >= 0) {
			durations[i] = g->tests[i].duration_s;
			info->from_graph++;
		}
		if (durations[i] >= 0)
			known[nknown++] = durations[i];
	}
	info->fallback_s = UT_TIMINGS_DEFAULT_S;
	if (nknown) {
		qsort(known, nknown, sizeof(*known), cmp_double);
		info->fallback_s = nknown % 2 ? known[nknown / 2]
					      : (known[nknown / 2 - 1] + known[nknown / 2]) / 2;
	}
	for (i = 0; i < g->ntests; i++) {
		if (estimated)
			estimated[i] = durations[i] < 0;
		if (durations[i] < 0) {
			durations[i] = info->fallback_s;
			info->fallback++;
		}
	}
	free(known);
	return rc;
}
