/* suite.c: lifetime of the suite model. */
#include "model/suite.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

const char *ut_action_kind_name(ut_action_kind kind)
{
	switch (kind) {
	case UT_ACT_SUBMIT: return "submit";
	case UT_ACT_LOCATE: return "locate";
	case UT_ACT_ASSERT: return "assert";
	case UT_ACT_NAVIGATE: return "navigate";
	case UT_ACT_CLICK: return "click";
	default: return "other";
	}
}

int ut_suite_new(ut_suite **out)
{
	ut_suite *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ut_arena_init(&s->arena);
	return 0;
}

void ut_suite_free(ut_suite *s)
{
	if (!s)
		return;
	ut_vec_free(&s->tests);
	ut_vec_free(&s->roots);
	ut_arena_dispose(&s->arena);
	free(s);
}

const ut_test *ut_suite_find(const ut_suite *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->tests.n; i++)
		if (strcmp(s->tests.v[i].id, id) == 0)
			return &s->tests.v[i];
	return NULL;
}

const char *ut_suite_main_framework(const ut_suite *s)
{
	const char *best = NULL;
	size_t i, j, n, most = 0;

	for (i = 0; i < s->tests.n; i++) {
		const char *fw = s->tests.v[i].framework;

		if (!fw)
			continue;
		for (j = 0; j < i; j++)
			if (s->tests.v[j].framework && strcmp(s->tests.v[j].framework, fw) == 0)
				break;
		if (j < i)
			continue; /* counted at its first test */
		for (n = 0, j = i; j < s->tests.n; j++)
			n += s->tests.v[j].framework && strcmp(s->tests.v[j].framework, fw) == 0;
		if (n > most) {
			most = n;
			best = fw;
		}
	}
	return best;
}

size_t ut_suite_count_files(const ut_suite *s)
{
	ut_map seen = UT_MAP_INIT;
	size_t i, n = 0;

	for (i = 0; i < s->tests.n; i++) {
		const char *f = s->tests.v[i].file ? s->tests.v[i].file : "";

		if (ut_map_get(&seen, f, strlen(f)))
			continue;
		n++;
		if (ut_map_put(&seen, f, strlen(f), (void *)1) < 0)
			break; /* out of memory: a count too low is only a message's number */
	}
	ut_map_dispose(&seen);
	return n;
}

size_t ut_suite_unread(const ut_suite *s, const ut_diags *d, const ut_diag **first)
{
	size_t i, n = 0;

	*first = NULL;
	for (i = 0; !s->origin.runner && i < d->items.n; i++) {
		if (d->items.v[i].kind != UT_DIAG_UNREAD)
			continue;
		if (!n++)
			*first = &d->items.v[i];
	}
	return n;
}

uint64_t ut_test_body_hash(const char *text, size_t len, unsigned line, unsigned end_line,
			   const char *unnamed)
{
	const char *p = text, *end = text + len;
	size_t nlen = unnamed ? strlen(unnamed) : 0;
	unsigned at = 1, last = end_line > line ? end_line : line;
	uint64_t h = UT_HASH_BASIS;

	if (!line || !text)
		return 0;
	while (p < end && at < line) {
		if (*p++ == '\n')
			at++;
	}
	for (; p < end && at <= last; p++) {
		if (*p == '\n') {
			at++;
			continue;
		}
		if (isspace((unsigned char)*p))
			continue;
		if (nlen && (size_t)(end - p) >= nlen && !memcmp(p, unnamed, nlen)) {
			p += nlen - 1;
			continue;
		}
		h = ut_hash_more(h, p, 1);
	}
	return h;
}
