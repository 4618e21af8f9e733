/* mocharc.c: which JavaScript files mocha loads as specs, from the project's own mocha
 * configuration (.mocharc.js, .cjs, .yaml, .yml, .jsonc, .json in mocha's order of
 * preference, else package.json's "mocha", else mocha 5 to 7's test/mocha.opts): its spec
 * entries (files, folders, globs), extension and recursive, matched as mocha's file
 * collector does. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "parse/mocharc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/glob.h"
#include "util/fs.h"
#include "util/banned.h"

#define MAX_RC (1u << 20)

static int add(ut_strs *v, const char *s, size_t n)
{
	char *d;

	while (n > 2 && s[0] == '.' && s[1] == '/') /* ./test is test */
		s += 2, n -= 2;
	while (n > 1 && s[n - 1] == '/')
		n--;
	d = malloc(n + 1);
	if (!d)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memcpy(d, s, n);
	d[n] = '\0';
	if (ut_vec_push(v, d) < 0) {
		free(d);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* A JSON value: a string or an array of strings, into v. */
static int json_strings(ut_strs *v, const ut_json *j)
{
	const ut_json *e;
	int rc = 0;

	if (ut_json_is_string(j))
		return add(v, ut_json_string(j), strlen(ut_json_string(j)));
	for (e = ut_json_is_array(j) ? ut_json_first(j) : NULL; e && rc == 0; e = ut_json_next(e))
		if (ut_json_is_string(e))
			rc = add(v, ut_json_string(e), strlen(ut_json_string(e)));
	return rc;
}

static int from_json(ut_mocharc *rc, const ut_json *o)
{
	int r = 0;

	if (!o || !ut_json_is_object(o))
		return 0;
	if (ut_json_get(o, "spec"))
		r = json_strings(&rc->spec, ut_json_get(o, "spec"));
	if (r == 0 && ut_json_get(o, "extension"))
		r = json_strings(&rc->ext, ut_json_get(o, "extension"));
	if (ut_json_get(o, "recursive"))
		rc->recursive = ut_json_true(ut_json_get(o, "recursive"));
	return r;
}

/* JSONC: comments out, outside strings. */
static void strip_comments(char *s, size_t n)
{
	size_t i;
	char quote = 0;

	for (i = 0; i < n; i++) {
		if (quote) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == quote)
				quote = 0;
		} else if (s[i] == '"') {
			quote = s[i];
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			for (; i < n && s[i] != '\n'; i++)
				s[i] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			for (; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
				s[i] = s[i] == '\n' ? '\n' : ' ';
			if (i + 1 < n)
				s[i] = s[i + 1] = ' ';
		}
	}
}

/* The strings of a YAML or JavaScript value at s: 'a', "b", bare a (YAML), [a, 'b'], or a
 * YAML block list on the following lines ("- a"). */
static int words_at(ut_strs *v, const char *s, const char *end, bool yaml)
{
	const char *p = s, *q;
	bool list;
	int rc = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (yaml && (p == end || *p == '\n' || *p == '#')) { /* a block list */
		for (q = p; q < end && rc == 0;) {
			while (q < end && *q != '\n')
				q++;
			for (q++; q < end && (*q == ' ' || *q == '\t'); q++)
				;
			if (q >= end || *q != '-')
				break;
			rc = words_at(v, q + 1, end, yaml);
		}
		return rc;
	}
	list = p < end && *p == '[';
	if (list)
		p++;
	while (p < end && rc == 0) {
		while (p < end && (isspace((unsigned char)*p) || *p == ','))
			p++;
		if (p >= end || *p == ']' || (!list && v->n && p > s))
			break;
		if (*p == '\'' || *p == '"' || *p == '`') {
			for (q = p + 1; q < end && *q != *p; q++)
				;
			rc = add(v, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (yaml) {
			for (q = p; q < end && *q != '\n' && *q != ',' && *q != ']' && *q != '#'; q++)
				;
			while (q > p && isspace((unsigned char)q[-1]))
				q--;
			rc = add(v, p, (size_t)(q - p));
			p = q;
		} else {
			break; /* a computed value: not read */
		}
		if (!list)
			break;
	}
	return rc;
}

/* key: value in YAML (at a line's start) or JavaScript ({ spec: ..., 'spec': ... }). */
static const char *key_at(const char *s, size_t n, const char *key, bool yaml)
{
	const char *end = s + n, *p = s;
	size_t k = strlen(key);

	while ((p = memmem(p, (size_t)(end - p), key, k)) != NULL) {
		const char *q = p + k, *b = p;

		if (b > s && (b[-1] == '\'' || b[-1] == '"'))
			b--;
		if (q < end && (*q == '\'' || *q == '"'))
			q++;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == ':' &&
		    (yaml ? (b == s || b[-1] == '\n') : (b == s || !isalnum((unsigned char)b[-1]))))
			return q + 1;
		p += k;
	}
	return NULL;
}

static int from_text(ut_mocharc *rc, const char *s, size_t n, bool yaml)
{
	const char *at;
	int r = 0;

	if ((at = key_at(s, n, "spec", yaml)) != NULL)
		r = words_at(&rc->spec, at, s + n, yaml);
	if (r == 0 && (at = key_at(s, n, "extension", yaml)) != NULL)
		r = words_at(&rc->ext, at, s + n, yaml);
	if ((at = key_at(s, n, "recursive", yaml)) != NULL) {
		while (*at == ' ')
			at++;
		rc->recursive = strncmp(at, "true", 4) == 0;
	}
	return r;
}

/* mocha 5 to 7's test/mocha.opts: its words as their command line takes them; only the
 * spec arguments, --recursive, --extension and --compilers' extensions matter here. */
static int from_opts(ut_mocharc *rc, char *s, size_t n)
{
	static const char *const valued[] = {
	    "-r", "--require", "-u", "--ui", "-R", "--reporter", "-O", "--reporter-options",
	    "-t", "--timeout", "-s", "--slow", "-g", "--grep", "-f", "--fgrep", "--file",
	    "--exclude", "--ignore", "--opts", "--retries", "--watch-extensions", "--globals",
	    "--config", "--package", "--compilers", "--extension", NULL};
	const char *end = s + n, *w, *prev = NULL;
	char *c;
	size_t k, wn;
	int r = 0;

	for (c = s; c < end; c++) /* comment lines */
		if (*c == '#' && (c == s || c[-1] == '\n'))
			for (; c < end && *c != '\n'; c++)
				*c = ' ';
	r = add(&rc->ext, "js", 2);
	for (w = s; w < end && r == 0; w += wn) {
		while (w < end && isspace((unsigned char)*w))
			w++;
		for (wn = 0; w + wn < end && !isspace((unsigned char)w[wn]); wn++)
			;
		if (!wn)
			break;
		if (prev && (strcmp(prev, "--compilers") == 0 || strcmp(prev, "--extension") == 0)) {
			const char *colon = memchr(w, ':', wn);

			r = add(&rc->ext, w, colon ? (size_t)(colon - w) : wn);
			prev = NULL;
			continue;
		}
		if (prev) {
			prev = NULL;
			continue;
		}
		for (k = 0; valued[k]; k++)
			if (strlen(valued[k]) == wn && memcmp(w, valued[k], wn) == 0)
				prev = valued[k];
		if (wn == 11 && memcmp(w, "--recursive", 11) == 0)
			rc->recursive = true;
		else if (!prev && *w != '-')
			r = add(&rc->spec, w, wn);
	}
	return r;
}

int ut_mocharc_read(ut_mocharc *rc, const char *root)
{
	static const char *const names[] = {".mocharc.js", ".mocharc.cjs", ".mocharc.yaml",
					    ".mocharc.yml", ".mocharc.jsonc", ".mocharc.json",
					    "package.json", "test/mocha.opts", NULL};
	ut_buf path = UT_BUF_INIT, text = UT_BUF_INIT;
	size_t k;
	int r = 0;

	memset(rc, 0, sizeof(*rc));
	for (k = 0; names[k] && r == 0 && !rc->source; k++) {
		const char *name = names[k];
		ut_json *doc = NULL;

		path.len = 0;
		text.len = 0;
		if (ut_buf_printf(&path, "%s/%s", root, name) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (!ut_fs_exists(path.ptr) || ut_fs_read(&text, path.ptr, MAX_RC) < 0) {
			ut_error_clear();
			continue;
		}
		if (strstr(name, "mocha.opts")) {
			r = from_opts(rc, text.ptr, text.len);
			if (!rc->spec.n)
				continue; /* mocha's default, ./test, is not said: not applied */
		} else if (strstr(name, "json")) {
			strip_comments(text.ptr, text.len);
			if (ut_json_parse(&doc, text.ptr, text.len, path.ptr) < 0) {
				ut_error_clear(); /* mocha will say so */
				continue;
			}
			r = from_json(rc, strcmp(name, "package.json") == 0 ? ut_json_get(doc, "mocha")
									 : doc);
			ut_json_free(doc);
			if (strcmp(name, "package.json") == 0 && !rc->spec.n)
				continue;
		} else {
			r = from_text(rc, text.ptr, text.len, strstr(name, ".y") != NULL);
		}
		rc->source = name;
	}
	ut_buf_dispose(&path);
	ut_buf_dispose(&text);
	if (r == 0 && !rc->ext.n) {
		r = add(&rc->ext, "js", 2);
		r = r ? r : add(&rc->ext, "cjs", 3);
		r = r ? r : add(&rc->ext, "mjs", 3);
	}
	return r;
}

void ut_mocharc_dispose(ut_mocharc *rc)
{
	size_t i;

	for (i = 0; i < rc->spec.n; i++)
		free(rc->spec.v[i]);
	for (i = 0; i < rc->ext.n; i++)
		free(rc->ext.v[i]);
	ut_vec_free(&rc->spec);
	ut_vec_free(&rc->ext);
}

static bool has_ext(const ut_mocharc *rc, const char *rel)
{
	const char *dot = strrchr(rel, '.');
	size_t i;

	for (i = 0; dot && i < rc->ext.n; i++)
		if (strcmp(dot + 1, rc->ext.v[i]) == 0)
			return true;
	return false;
}

bool ut_mocharc_is_spec(const ut_mocharc *rc, const char *rel)
{
	size_t i;

	for (i = 0; i < rc->spec.n; i++) {
		const char *p = rc->spec.v[i];
		size_t n = strlen(p);

		if (strpbrk(p, "*?{[")) {
			if (ut_glob_match(p, rel))
				return true;
		} else if (strcmp(p, rel) == 0) {
			return true;
		} else if (strncmp(p, rel, n) == 0 && rel[n] == '/' && has_ext(rc, rel) &&
			   (rc->recursive || !strchr(rel + n + 1, '/'))) {
			return true; /* a folder's files */
		} else if (strncmp(p, rel, n) == 0 && rel[n] == '.' && has_ext(rc, rel) &&
			   !strchr(rel + n + 1, '.')) {
			return true; /* test/login is test/login.js */
		}
	}
	return false;
}
