/* timings.c: durations from .untangle/timings.json and the graph, with a fallback, and
 * the one writer of that file. */
#include "graph/timings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "util/banned.h"

#define TIMINGS_MAX_BYTES (256u << 20)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int ut_timings_parse(const char *text, size_t len, const char *path,
		     int (*each)(void *ctx, const char *id, double seconds), void *ctx)
{
	ut_json *doc = NULL;
	const ut_json *v;
	int rc;

	rc = ut_json_parse(&doc, text ? text : "", len, path);
	if (rc < 0)
		goto done;
	if (!ut_json_is_object(doc)) {
		rc = ut_error_set(UT_EINPUT, "%s:1: expected an object of test id to seconds",
				  path);
		goto done;
	}
	for (v = ut_json_first(doc); v && rc == 0; v = ut_json_next(v)) {
		const char *id = ut_json_key(v);

		if (!ut_json_is_number(v) || !(ut_json_number(v) >= 0))
			rc = ut_error_set(UT_EINPUT, "%s:%u: the duration of '%s' must be a number "
					  ">= 0 (seconds)", path,
					  ut_json_key_line(text ? text : "", len, id), id);
		else
			rc = each(ctx, id, ut_json_number(v));
	}
done:
	ut_json_free(doc);
	return rc;
}

/* The file's entries through each; a missing file has none. */
static int read_file(const char *path, int (*each)(void *ctx, const char *id, double seconds),
		     void *ctx)
{
	ut_buf text = UT_BUF_INIT;
	int rc = ut_fs_read(&text, path, TIMINGS_MAX_BYTES);

	if (rc == 0)
		rc = ut_timings_parse(text.ptr, text.len, path, each, ctx);
	else if (rc == UT_ENOTFOUND)
		rc = 0;
	ut_buf_dispose(&text);
	return rc;
}

typedef struct {
	double *durations;
	const ut_graph *g;
	ut_timings_info *info;
	ut_map ids; /* graph test id -> index + 1: a file of every test would be n² strcmp */
} fill_ctx;

static int fill_one(void *ctx, const char *id, double seconds)
{
	fill_ctx *f = ctx;
	long t = (long)(uintptr_t)ut_map_get(&f->ids, id, strlen(id)) - 1;

	if (t < 0) {
		f->info->unknown_ids++;
		return 0;
	}
	if (f->durations[t] < 0)
		f->info->from_file++;
	f->durations[t] = seconds;
	return 0;
}

/* timings.json as it is written: ids in first-seen order, each with its latest value. */
typedef struct {
	char **ids;
	double *seconds;
	size_t n, cap;
	ut_map index; /* id -> position + 1 */
} entries;

static int entries_set(void *ctx, const char *id, double seconds)
{
	entries *e = ctx;
	size_t at = (size_t)(uintptr_t)ut_map_get(&e->index, id, strlen(id));
	char *copy;

	if (at) {
		e->seconds[at - 1] = seconds;
		return 0;
	}
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 64;
		char **ids = realloc(e->ids, cap * sizeof(*ids));
		double *secs = ids ? realloc(e->seconds, cap * sizeof(*secs)) : NULL;

		if (ids)
			e->ids = ids;
		if (secs)
			e->seconds = secs;
		if (!ids || !secs)
			return ut_error_set(UT_ENOMEM, "out of memory");
		e->cap = cap;
	}
	copy = strdup(id);
	if (!copy)
		return ut_error_set(UT_ENOMEM, "out of memory");
	e->ids[e->n] = copy;
	e->seconds[e->n] = seconds;
	e->n++;
	if (ut_map_put(&e->index, copy, strlen(copy), (void *)(uintptr_t)e->n) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static void entries_dispose(entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->ids[i]);
	free(e->ids);
	free(e->seconds);
	ut_map_dispose(&e->index);
}

int ut_timings_update(const char *path, const char *const *ids, const double *seconds,
		      size_t n, bool keep)
{
	entries e = {NULL, NULL, 0, 0, UT_MAP_INIT};
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;
	int rc = keep ? read_file(path, entries_set, &e) : 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = entries_set(&e, ids[i], seconds[i]);
	if (rc < 0)
		goto done;
	ut_jsonw_init(&w, &out, true);
	ut_jsonw_obj_begin(&w);
	for (i = 0; i < e.n; i++) {
		ut_jsonw_key(&w, e.ids[i]);
		ut_jsonw_double(&w, e.seconds[i]);
	}
	ut_jsonw_obj_end(&w);
	rc = ut_jsonw_end(&w, "timings");
	if (rc == 0)
		rc = ut_fs_write_atomic(path, out.ptr, out.len);
done:
	ut_buf_dispose(&out);
	entries_dispose(&e);
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
		fill_ctx f = {durations, g, info, UT_MAP_INIT};

		/* the first of equal ids, as a search from the start finds it */
		for (i = g->ntests; i-- > 0 && rc == 0;)
			if (ut_map_put(&f.ids, g->tests[i].id, strlen(g->tests[i].id),
				       (void *)(uintptr_t)(i + 1)) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		if (rc == 0)
			rc = read_file(path, fill_one, &f);
		ut_map_dispose(&f.ids);
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
