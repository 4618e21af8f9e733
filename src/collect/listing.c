/* listing.c: reading a runner's list of tests (JSON Lines, docs/collection.md). */
#include "collect/collect.h"

#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

#define LIST_MAX ((size_t)1 << 30) /* a list of a million tests is far below */

void ut_listing_init(ut_listing *l)
{
	memset(l, 0, sizeof(*l));
	ut_arena_init(&l->arena);
}

void ut_listing_dispose(ut_listing *l)
{
	if (!l)
		return;
	ut_vec_free(&l->tests);
	ut_arena_dispose(&l->arena);
}

/* The string member key of obj in the arena, relative to root when it is a path inside it;
 * NULL when absent or not a string. */
static const char *member(ut_listing *l, const ut_json *obj, const char *key, const char *root,
			  bool path, int *rc)
{
	const char *s = ut_json_string(ut_json_get(obj, key));
	const char *copy;

	if (!s || !*s)
		return NULL;
	if (path) {
		s = ut_path_relative(s, root);
		while (s[0] == '.' && s[1] == '/')
			s += 2;
	}
	copy = ut_arena_strdup(&l->arena, s);
	if (!copy)
		*rc = ut_error_set(UT_ENOMEM, "out of memory");
	return copy;
}

static unsigned line_of(const ut_json *obj, const char *key)
{
	long n = 0;

	return ut_json_whole(ut_json_get(obj, key), 0, 1L << 30, &n) ? (unsigned)n : 0;
}

/* One record; 0, UT_EINPUT (message without the place) or UT_ENOMEM. */
static int record(ut_listing *l, const ut_json *obj, const char *root, ut_map *seen,
		  ut_diags *diags)
{
	const ut_json *id = ut_json_get(obj, "id");
	ut_listed t = {0};
	const char *msg;
	int rc = 0;

	if (!ut_json_is_object(obj))
		return ut_error_set(UT_EINPUT, "expected a JSON object");
	if ((msg = ut_json_string(ut_json_get(obj, "error"))) != NULL) {
		const char *file = member(l, obj, "file", root, true, &rc);

		l->errors++;
		ut_diags_add(diags, UT_DIAG_WARNING, file, line_of(obj, "line"),
			     "the runner could not collect this file: %s", msg);
		return rc;
	}
	if ((msg = ut_json_string(ut_json_get(obj, "note"))) != NULL) {
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0, "the runner says: %s", msg);
		return 0;
	}
	if (!ut_json_string(id) || !*ut_json_string(id))
		return ut_error_set(UT_EINPUT, "a test without a string \"id\"");
	t.id = member(l, obj, "id", root, false, &rc);
	t.file = member(l, obj, "file", root, true, &rc);
	t.name = member(l, obj, "name", root, false, &rc);
	t.src = member(l, obj, "src", root, true, &rc);
	t.line = line_of(obj, "line");
	t.src_line = line_of(obj, "src_line");
	t.pending = ut_json_true(ut_json_get(obj, "pending"));
	if (rc < 0)
		return rc;
	if (ut_map_get(seen, t.id, strlen(t.id)))
		return ut_error_set(UT_EINPUT, "the id '%s' is listed twice", t.id);
	if (ut_map_put(seen, t.id, strlen(t.id), (void *)1) < 0 || ut_vec_push(&l->tests, t) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_listing_read(ut_listing *l, const char *path, const char *root, ut_diags *diags)
{
	ut_buf text = UT_BUF_INIT;
	ut_map seen = UT_MAP_INIT;
	const char *p, *end, *nl;
	unsigned lineno = 0;
	int rc;

	rc = ut_fs_read(&text, path, LIST_MAX);
	if (rc < 0)
		goto done;
	for (p = text.ptr, end = text.ptr + text.len; rc == 0 && p < end; p = nl + 1) {
		ut_json *doc = NULL;
		const char *q;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		lineno++;
		for (q = p; q < nl && (*q == ' ' || *q == '\t' || *q == '\r'); q++)
			;
		if (q == nl)
			continue;
		rc = ut_json_parse(&doc, p, (size_t)(nl - p), path);
		if (rc == UT_EINPUT)
			ut_error_set(UT_EINPUT, "not valid JSON");
		if (rc == 0)
			rc = record(l, doc, root, &seen, diags);
		ut_json_free(doc);
		if (rc == UT_EINPUT) {
			char why[600];

			snprintf(why, sizeof(why), "%s", ut_error_message());
			rc = ut_error_set(UT_EINPUT, "%s:%u: %s", path, lineno, why);
		}
	}
done:
	ut_map_dispose(&seen);
	ut_buf_dispose(&text);
	return rc;
}
