/* select.c: a list of test ids in a runner's own selection syntax (pytest node ids, Maven
 * Surefire's -Dtest, TestNG's -methods, mocha's --grep), for CI jobs that run a shard with
 * the project's own command instead of `untangle run`. */
#include "runner/runner.h"

#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

static const char *const styles[] = {"ids", "pytest", "surefire", "testng", "mocha", NULL};

const char *ut_runner_select_style(const char *preset)
{
	if (!preset)
		return "ids";
	if (strcmp(preset, "junit4") == 0 || strcmp(preset, "junit5") == 0)
		return "surefire";
	if (strcmp(preset, "pytest") == 0 || strcmp(preset, "testng") == 0 ||
	    strcmp(preset, "mocha") == 0)
		return preset;
	return "ids";
}

/* Surefire: -Dtest=Class#m1+m2,Other#m3 (the methods of a class joined with '+'). */
static void surefire(ut_buf *b, const char *const *ids, size_t n, char method_sep, bool join,
		     const char *prefix)
{
	size_t i;

	ut_buf_puts(b, prefix);
	for (i = 0; i < n; i++) {
		const char *hash = strchr(ids[i], '#');
		size_t cls = hash ? (size_t)(hash - ids[i]) : strlen(ids[i]);
		bool same = i > 0 && hash && strncmp(ids[i], ids[i - 1], cls + 1) == 0;

		if (join && same) {
			ut_buf_putc(b, '+');
			ut_buf_puts(b, hash + 1);
			continue;
		}
		if (i)
			ut_buf_putc(b, ',');
		ut_buf_put(b, ids[i], cls);
		if (hash) {
			ut_buf_putc(b, method_sep);
			ut_buf_puts(b, hash + 1);
		}
	}
}

/* mocha: the spec files, then --grep with an anchored alternation of the full titles,
 * regex characters escaped. Exact unless two files share a full title. */
static int mocha(ut_buf *b, const char *const *ids, size_t n, bool *exact)
{
	ut_map files = UT_MAP_INIT, titles = UT_MAP_INIT;
	size_t i;
	const char *p;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		const char *sep = strstr(ids[i], "::");
		size_t flen = sep ? (size_t)(sep - ids[i]) : 0;
		const char *title = sep ? sep + 2 : ids[i];

		if (sep && !ut_map_get(&files, ids[i], flen)) {
			rc = ut_map_put(&files, ids[i], flen, (void *)1);
			ut_buf_put(b, ids[i], flen);
			ut_buf_putc(b, '\n');
		}
		if (ut_map_get(&titles, title, strlen(title)))
			*exact = false;
		else if (rc == 0)
			rc = ut_map_put(&titles, title, strlen(title), (void *)1);
	}
	ut_buf_puts(b, "--grep\n^(?:");
	for (i = 0; i < n; i++) {
		const char *sep = strstr(ids[i], "::");

		if (i)
			ut_buf_putc(b, '|');
		for (p = sep ? sep + 2 : ids[i]; *p; p++) {
			if (strchr("\\^$.|?*+()[]{}/", *p))
				ut_buf_putc(b, '\\');
			ut_buf_putc(b, *p);
		}
	}
	ut_buf_puts(b, ")$");
	ut_map_dispose(&files);
	ut_map_dispose(&titles);
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

int ut_runner_selection(ut_buf *out, const char *style, const char *const *ids, size_t n,
			bool *exact)
{
	size_t i;
	int rc = 0;

	*exact = true;
	for (i = 0; styles[i] && strcmp(styles[i], style); i++)
		;
	if (!styles[i])
		return ut_error_set(UT_EINPUT, "'%s' is not one of ids, pytest, surefire, testng, "
				    "mocha", style);
	if (strcmp(style, "surefire") == 0) {
		surefire(out, ids, n, '#', true, "-Dtest=");
	} else if (strcmp(style, "testng") == 0) {
		ut_buf_puts(out, "-methods\n");
		surefire(out, ids, n, '.', false, "");
	} else if (strcmp(style, "mocha") == 0) {
		rc = mocha(out, ids, n, exact);
	} else {
		for (i = 0; i < n; i++) {
			if (i)
				ut_buf_putc(out, '\n');
			ut_buf_puts(out, ids[i]);
		}
	}
	if (rc == 0 && n)
		ut_buf_putc(out, '\n');
	return rc == 0 && out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : rc;
}
