/* join.c: the runner's list joined with the static reading (ut_collect_join). The runner
 * decides which tests exist, their ids and their order; the sources give each its actions.
 * Joining goes from the surest to the loosest: the same id; then, within one file, the
 * line the runner says the test is on; a title whose run-time parts ("${...}") match; the
 * same position among what is left of the file. */
#include "collect/collect.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

#define NONE SIZE_MAX

typedef struct {
	ut_suite *s;
	const ut_listing *l;
	size_t *match;  /* per listed test: the static test's index, or NONE */
	bool *keep;     /* per listed test: passes the path filter */
	bool *used;     /* per static test: joined to some listed test */
	ut_map by_file; /* static file -> 1 + index of its first test in `order` */
	size_t *order;  /* static indices grouped by file, in static order inside each */
	size_t *gstart, *gcount; /* per group: where it starts in order[], how many */
} joiner;

static bool under(const char *file, const char *const *paths, size_t npaths)
{
	size_t i;

	if (npaths == 0)
		return true;
	for (i = 0; file && i < npaths; i++) {
		const char *p = paths[i];

		while (p[0] == '.' && p[1] == '/')
			p += 2;
		if (!*p || ut_path_under(file, p))
			return true;
	}
	return false;
}

/* Groups the static tests by file: order[] holds each file's tests together, in static
 * order; by_file maps a file to its group. */
static int group_by_file(joiner *j)
{
	const ut_test *t = j->s->tests.v;
	size_t n = j->s->tests.n, i, g, ngroups = 0;
	size_t *group = malloc((n + 1) * sizeof(size_t)), *fill = calloc(n + 1, sizeof(size_t));
	int rc = 0;

	if (!group || !fill) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		const char *f = t[i].file ? t[i].file : "";
		uintptr_t v = (uintptr_t)ut_map_get(&j->by_file, f, strlen(f));

		if (!v) {
			v = ++ngroups;
			if (ut_map_put(&j->by_file, f, strlen(f), (void *)v) < 0) {
				rc = ut_error_set(UT_ENOMEM, "out of memory");
				goto done;
			}
		}
		group[i] = (size_t)v - 1;
		j->gcount[group[i]]++;
	}
	for (g = 1; g < ngroups; g++)
		j->gstart[g] = j->gstart[g - 1] + j->gcount[g - 1];
	for (i = 0; i < n; i++)
		j->order[j->gstart[group[i]] + fill[group[i]]++] = i;
done:
	free(group);
	free(fill);
	return rc;
}

/* The static tests of file f: *n of them from order[*first]. false when none. */
static bool file_tests(const joiner *j, const char *f, size_t *first, size_t *n)
{
	uintptr_t v;

	if (!f)
		return false;
	v = (uintptr_t)ut_map_get(&j->by_file, f, strlen(f));
	if (!v)
		return false;
	*first = j->gstart[v - 1];
	*n = j->gcount[v - 1];
	return true;
}

/* The static test of file f whose lines hold `line`: an unused one first, the innermost. */
static size_t by_line(const joiner *j, const char *f, unsigned line)
{
	size_t first, n, k, best = NONE;
	int pass;

	if (line == 0 || !file_tests(j, f, &first, &n))
		return NONE;
	for (pass = 0; pass < 2 && best == NONE; pass++)
		for (k = first; k < first + n; k++) {
			const ut_test *t = &j->s->tests.v[j->order[k]];
			unsigned end = t->end_line ? t->end_line : t->line;

			if ((pass == 0 && j->used[j->order[k]]) || line < t->line || line > end)
				continue;
			if (best == NONE || t->line > j->s->tests.v[best].line)
				best = j->order[k];
		}
	return best;
}

/* Whether text matches pattern, where each "${...}" of the pattern stands for any text
 * (the backquotes of a template literal the sources kept as written are not text). */
static bool glob(const char *pat, const char *text)
{
	const char *p = pat, *t = text;

	while (*p) {
		if (*p == '`') {
			p++;
			continue;
		}
		if (p[0] == '$' && p[1] == '{') {
			const char *close = strchr(p, '}');

			if (!close)
				return strcmp(p, t) == 0;
			for (;; t++) {
				if (glob(close + 1, t))
					return true;
				if (!*t)
					return false;
			}
		}
		if (*p != *t)
			return false;
		p++;
		t++;
	}
	return *t == '\0';
}

/* An unused static test of file f whose id, with its run-time parts, matches id. */
static size_t by_pattern(const joiner *j, const char *f, const char *id)
{
	size_t first, n, k;

	if (!file_tests(j, f, &first, &n))
		return NONE;
	for (k = first; k < first + n; k++) {
		const ut_test *t = &j->s->tests.v[j->order[k]];

		if (!j->used[j->order[k]] && strstr(t->id, "${") && glob(t->id, id))
			return j->order[k];
	}
	return NONE;
}

static void take(joiner *j, size_t listed, size_t st)
{
	j->match[listed] = st;
	j->used[st] = true;
}

/* Pairs what is left of each file in order when both sides have as many tests left. */
static int by_position(joiner *j)
{
	const ut_listed *L = j->l->tests.v;
	size_t nl = j->l->tests.n, i, k, first, n, left_l, left_s, next;
	ut_map seen = UT_MAP_INIT;
	int rc = 0;

	for (i = 0; rc == 0 && i < nl; i++) {
		const char *f = L[i].file;

		if (!j->keep[i] || j->match[i] != NONE || !file_tests(j, f, &first, &n) ||
		    ut_map_get(&seen, f, strlen(f)))
			continue;
		rc = ut_map_put(&seen, f, strlen(f), (void *)1);
		for (left_l = 0, k = i; k < nl; k++)
			left_l += j->keep[k] && j->match[k] == NONE && L[k].file &&
				  strcmp(L[k].file, f) == 0;
		for (left_s = 0, k = first; k < first + n; k++)
			left_s += !j->used[j->order[k]];
		if (left_l != left_s)
			continue;
		for (next = first, k = i; k < nl; k++) {
			if (!j->keep[k] || j->match[k] != NONE || !L[k].file || strcmp(L[k].file, f))
				continue;
			while (j->used[j->order[next]])
				next++;
			take(j, k, j->order[next]);
		}
	}
	ut_map_dispose(&seen);
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static int join_places(joiner *j, ut_suite_origin *st)
{
	const ut_listed *L = j->l->tests.v;
	size_t nl = j->l->tests.n, i, m;
	int rc;

	for (i = 0; i < nl; i++) {
		if (!j->keep[i] || j->match[i] != NONE)
			continue;
		m = L[i].src ? by_line(j, L[i].src, L[i].src_line) : NONE;
		if (m == NONE)
			m = by_line(j, L[i].file, L[i].line);
		if (m == NONE)
			m = by_pattern(j, L[i].file, L[i].id);
		if (m != NONE)
			take(j, i, m);
	}
	rc = by_position(j);
	for (i = 0; i < nl; i++)
		if (j->keep[i] && j->match[i] != NONE)
			st->by_place++;
	st->by_place -= st->by_id;
	return rc;
}

/* The joined (or runner-only) test for listed test i at position index. */
static int make_test(joiner *j, size_t i, size_t index, bool by_id, ut_test *out)
{
	const ut_listed *L = &j->l->tests.v[i];
	ut_arena *a = &j->s->arena;

	if (j->match[i] != NONE) {
		*out = j->s->tests.v[j->match[i]];
		if (!by_id && L->name)
			out->name = ut_arena_strdup(a, L->name);
	} else {
		memset(out, 0, sizeof(*out));
		out->name = ut_arena_strdup(a, L->name ? L->name : L->id);
		out->file = ut_arena_strdup(a, L->file ? L->file : L->src ? L->src : "");
		out->line = out->end_line = L->file ? L->line : L->src_line;
		out->language = ut_lang_of_path(out->file);
		if (out->language == UT_LANG_NONE && j->s->tests.n)
			out->language = j->s->tests.v[0].language;
		out->framework = ut_suite_main_framework(j->s);
	}
	out->id = ut_arena_strdup(a, L->id);
	out->index = index;
	return out->id && out->name && out->file ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

/* Declared dependencies name the static ids: they follow to the runner's. */
static int remap_depends(ut_suite *s, const ut_map *renamed)
{
	size_t i, k;

	for (i = 0; i < s->tests.n; i++) {
		ut_test *t = &s->tests.v[i];
		const char **deps;

		if (t->ndepends == 0)
			continue;
		deps = ut_arena_alloc(&s->arena, t->ndepends * sizeof(char *));
		if (!deps)
			return ut_error_set(UT_ENOMEM, "out of memory");
		for (k = 0; k < t->ndepends; k++) {
			const char *to = ut_map_get(renamed, t->depends_on[k], strlen(t->depends_on[k]));

			deps[k] = to ? to : t->depends_on[k];
		}
		t->depends_on = deps;
	}
	return 0;
}

static void name_leftovers(const joiner *j, ut_diags *diags, ut_suite_origin *st)
{
	const ut_test *S = j->s->tests.v;
	size_t i;

	for (i = 0; i < j->s->tests.n; i++) {
		if (j->used[i])
			continue;
		st->static_only++;
		ut_diags_add(diags, UT_DIAG_WARNING, S[i].file, S[i].line,
			     "'%s': read in the sources but the runner does not collect it (its "
			     "configuration leaves it out, or the title is computed otherwise at "
			     "run time): left out",
			     S[i].id);
	}
}

static int build(joiner *j, ut_diags *diags, ut_suite_origin *st)
{
	const ut_listing *l = j->l;
	ut_map renamed = UT_MAP_INIT;
	size_t i, n = 0;
	ut_test *tests = calloc(l->tests.n + 1, sizeof(ut_test));
	int rc = 0;

	if (!tests)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < l->tests.n; i++) {
		bool by_id;

		if (!j->keep[i])
			continue;
		by_id = j->match[i] != NONE && strcmp(j->s->tests.v[j->match[i]].id,
						       l->tests.v[i].id) == 0;
		rc = make_test(j, i, n, by_id, &tests[n]);
		if (rc == 0 && j->match[i] != NONE && !by_id)
			rc = ut_map_put(&renamed, j->s->tests.v[j->match[i]].id,
					strlen(j->s->tests.v[j->match[i]].id), (void *)tests[n].id);
		if (rc == 0 && j->match[i] == NONE) {
			st->runner_only++;
			ut_diags_add(diags, UT_DIAG_WARNING, tests[n].file, tests[n].line,
				     "'%s': collected by the runner but not found in the sources (a "
				     "title computed at run time, or a test built from data at load "
				     "time): it runs, with no values to suggest its dependencies",
				     tests[n].id);
		}
		n++;
	}
	if (rc < 0) {
		free(tests);
		ut_map_dispose(&renamed);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	name_leftovers(j, diags, st);
	free(j->s->tests.v);
	j->s->tests.v = tests;
	j->s->tests.n = n;
	j->s->tests.cap = l->tests.n + 1;
	rc = remap_depends(j->s, &renamed);
	ut_map_dispose(&renamed);
	return rc;
}

int ut_collect_join(ut_suite *s, const ut_listing *l, const char *const *paths, size_t npaths,
		    ut_diags *diags)
{
	ut_suite_origin *st = &s->origin;
	joiner j = {s, l, NULL, NULL, NULL, UT_MAP_INIT, NULL, NULL, NULL};
	ut_map ids = UT_MAP_INIT;
	size_t ns = s->tests.n, nl = l->tests.n, i;
	int rc = 0;

	st->listed = st->by_id = st->by_place = st->runner_only = st->static_only = st->pending = 0;
	j.match = malloc((nl + 1) * sizeof(size_t));
	j.keep = calloc(nl + 1, sizeof(bool));
	j.used = calloc(ns + 1, sizeof(bool));
	j.order = malloc((ns + 1) * sizeof(size_t));
	j.gstart = calloc(ns + 1, sizeof(size_t));
	j.gcount = calloc(ns + 1, sizeof(size_t));
	if (!j.match || !j.keep || !j.used || !j.order || !j.gstart || !j.gcount) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; rc == 0 && i < ns; i++)
		if (!ut_map_get(&ids, s->tests.v[i].id, strlen(s->tests.v[i].id)))
			rc = ut_map_put(&ids, s->tests.v[i].id, strlen(s->tests.v[i].id),
					(void *)(uintptr_t)(i + 1));
	if (rc == 0)
		rc = group_by_file(&j);
	if (rc < 0)
		goto done;
	for (i = 0; i < nl; i++) {
		const ut_listed *t = &l->tests.v[i];
		uintptr_t v;

		j.match[i] = NONE;
		j.keep[i] = under(t->file, paths, npaths) || (t->src && under(t->src, paths, npaths));
		v = (uintptr_t)ut_map_get(&ids, t->id, strlen(t->id));
		if (j.keep[i] && t->pending) {
			/* the runner skips it: no run would tell anything of it, as the sources'
			 * reading of a skipped test leaves it out too */
			j.keep[i] = false;
			st->pending++;
			if (v)
				j.used[v - 1] = true;
		}
		if (!j.keep[i])
			continue;
		st->listed++;
		if (v && !j.used[v - 1]) {
			take(&j, i, (size_t)v - 1);
			st->by_id++;
		}
	}
	rc = join_places(&j, st);
	if (rc == 0)
		rc = build(&j, diags, st);
done:
	ut_map_dispose(&ids);
	ut_map_dispose(&j.by_file);
	free(j.match);
	free(j.keep);
	free(j.used);
	free(j.order);
	free(j.gstart);
	free(j.gcount);
	return rc;
}
