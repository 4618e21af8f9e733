/* stale.c: compiled Java classes older than their sources. A Java suite runs the classes
 * on its class path as they are: a source edited since the last build makes every run
 * exercise the old code, and detect would learn a graph from a program that is not the
 * one in the sources (session 18: a base class changed, its build-out/classes not). */
#include "runner/internal.h"

#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

/* How much of a source is read for its package declaration (it comes first). */
#define PACKAGE_WINDOW (64u * 1024u)
/* A class this much older than its source is stale; less is a copy of the project (cp -r
 * writes the class folder and the sources in whatever order, milliseconds apart). */
#define STALE_SLACK_S 10.0

static const char *skip_space_and_comments(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
				   *p == '\f'))
			p++;
		if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
			const char *close = p + 2;

			while (end - close >= 2 && !(close[0] == '*' && close[1] == '/'))
				close++;
			p = end - close >= 2 ? close + 2 : end;
		} else {
			return p;
		}
	}
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

int ut_runner__java_package(const char *text, size_t len, char *out, size_t size)
{
	const char *p = text, *end = text + len;
	size_t k = 0;

	out[0] = '\0';
	p = skip_space_and_comments(p, end);
	if (end - p < 8 || memcmp(p, "package", 7) != 0 || name_char(p[7]))
		return 0; /* the default package */
	p += 7;
	for (;;) {
		p = skip_space_and_comments(p, end);
		if (p < end && *p == ';')
			return k > 0 ? 1 : -1;
		if (p < end && *p == '.' && k > 0 && out[k - 1] != '/') {
			if (k + 1 >= size)
				return -1;
			out[k++] = '/';
			p++;
			continue;
		}
		if (p >= end || !name_char(*p))
			return -1;
		while (p < end && name_char(*p)) {
			if (k + 1 >= size)
				return -1;
			out[k++] = *p++;
		}
		out[k] = '\0';
	}
}

/* The class file of the top-level class of source (its package's folders, then the
 * file's name with .class) relative to a class path folder, into out. */
static int class_of(const char *source, ut_buf *text, char *out, size_t size)
{
	const char *base = strrchr(source, '/'), *dot;
	char pkg[512];
	int rc;

	base = base ? base + 1 : source;
	dot = strrchr(base, '.');
	if (!dot || strcmp(dot, ".java") != 0)
		return 0;
	rc = ut_fs_read(text, source, 64u * 1024u * 1024u);
	if (rc == UT_ENOTFOUND || rc == UT_EINPUT)
		return 0;
	if (rc < 0)
		return rc;
	if (ut_runner__java_package(text->ptr ? text->ptr : "",
				    text->len < PACKAGE_WINDOW ? text->len : PACKAGE_WINDOW, pkg,
				    sizeof(pkg)) < 0)
		return 0; /* not a declaration untangle can read: nothing to compare */
	rc = snprintf(out, size, "%s%s%.*s.class", pkg, *pkg ? "/" : "", (int)(dot - base),
		      base);
	return rc > 0 && (size_t)rc < size;
}

/* The first folder of the class path (':'-separated, relative to root) that holds rel:
 * its path into out and its mtime into *mtime. */
static bool find_class(const char *classpath, const char *root, const char *rel, char *out,
		       size_t size, double *mtime)
{
	const char *p = classpath;

	while (p && *p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		int w;

		if (n > 0 && p[0] == '/')
			w = snprintf(out, size, "%.*s/%s", (int)n, p, rel);
		else if (n > 0)
			w = snprintf(out, size, "%s/%.*s/%s", root, (int)n, p, rel);
		else
			w = -1;
		if (w > 0 && (size_t)w < size && ut_fs_mtime(out, mtime))
			return true;
		p = colon ? colon + 1 : NULL;
	}
	return false;
}

/* path without "root/" when it starts so (for messages: as the class path names it). */
static void relative_to(char *path, const char *root)
{
	size_t n = strlen(root);

	if (n && strncmp(path, root, n) == 0 && path[n] == '/')
		memmove(path, path + n + 1, strlen(path + n + 1) + 1);
}

int ut_runner__stale_class(const char *classpath, const char *root,
			   const char *const *sources, size_t n, ut_stale_class *out)
{
	ut_buf text = UT_BUF_INIT;
	char rel[1024], src_path[2048];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && rc == 0 && classpath && *classpath; i++) {
		double src_time, class_time;
		int w = sources[i][0] == '/'
				? snprintf(src_path, sizeof(src_path), "%s", sources[i])
				: snprintf(src_path, sizeof(src_path), "%s/%s", root, sources[i]);

		if (w <= 0 || (size_t)w >= sizeof(src_path) || !ut_fs_mtime(src_path, &src_time))
			continue;
		rc = class_of(src_path, &text, rel, sizeof(rel));
		if (rc <= 0)
			continue;
		rc = 0;
		if (!find_class(classpath, root, rel, out->class_file, sizeof(out->class_file),
				&class_time) ||
		    class_time + STALE_SLACK_S >= src_time)
			continue;
		relative_to(out->class_file, root);
		snprintf(out->source, sizeof(out->source), "%s", sources[i]);
		out->behind_s = src_time - class_time;
		rc = 1;
	}
	ut_buf_dispose(&text);
	return rc;
}
