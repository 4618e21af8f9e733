/* hooks.c: the setup and teardown blocks the tests share, found by content since the
 * model keeps a copy in every test (hooks.h). */
#include "model/hooks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_strs(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

/* a and b are in blocks of the same file: their own `file` may differ (NULL in the test's
 * own file), so it is left out. */
static bool same_action(const ut_action *a, const ut_action *b)
{
	return a->kind == b->kind && a->line == b->line && a->setup == b->setup &&
	       same_str(a->via, b->via) &&
	       same_strs(a->values, a->nvalues, b->values, b->nvalues) &&
	       same_strs(a->unresolved, a->nunresolved, b->unresolved, b->nunresolved);
}

static uint64_t hash_block(const char *file, const ut_action *a, size_t n)
{
	uint64_t h = ut_hash_seq(UT_HASH_BASIS, file);
	size_t i, k;

	for (i = 0; i < n; i++) {
		unsigned head[2] = {(unsigned)a[i].kind, a[i].line};

		h = ut_hash_more(h, head, sizeof(head));
		h = ut_hash_seq(h, a[i].via);
		for (k = 0; k < a[i].nvalues; k++)
			h = ut_hash_seq(h, a[i].values[k]);
		h = ut_hash_more(h, "#", 1);
		for (k = 0; k < a[i].nunresolved; k++)
			h = ut_hash_seq(h, a[i].unresolved[k]);
	}
	return h;
}

static bool same_block(const ut_hook *k, const char *file, const ut_action *a, size_t n,
		       uint64_t hash)
{
	size_t i;

	if (k->hash != hash || k->nactions != n || strcmp(k->file, file))
		return false;
	for (i = 0; i < n; i++)
		if (!same_action(&k->actions[i], &a[i]))
			return false;
	return true;
}

static int grow_table(ut_suite_hooks *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64, i, j;
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < h->hooks.n; i++) {
		for (j = h->hooks.v[i].hash & (cap - 1); t[j]; j = (j + 1) & (cap - 1))
			;
		t[j] = (uint32_t)i + 1;
	}
	free(h->table);
	h->table = t;
	h->cap = cap;
	return 0;
}

/* The index of the hook equal to the block, added when new; test is the one running it. */
static int intern(ut_suite_hooks *h, const char *file, const ut_action *a, size_t n, size_t test,
		  uint32_t *out)
{
	uint64_t hash = hash_block(file, a, n);
	ut_hook k;
	size_t j, i;

	if ((h->hooks.n + 1) * 2 > h->cap && grow_table(h) < 0)
		return UT_ENOMEM;
	for (j = hash & (h->cap - 1); h->table[j]; j = (j + 1) & (h->cap - 1)) {
		ut_hook *o = &h->hooks.v[h->table[j] - 1];

		if (!same_block(o, file, a, n, hash))
			continue;
		o->ntests += o->last_test_ != test + 1;
		o->last_test_ = test + 1;
		*out = h->table[j] - 1;
		return 0;
	}
	memset(&k, 0, sizeof(k));
	k.file = file;
	k.actions = a;
	k.nactions = n;
	k.line = k.end_line = a[0].line;
	for (i = 1; i < n; i++) {
		k.line = a[i].line < k.line ? a[i].line : k.line;
		k.end_line = a[i].line > k.end_line ? a[i].line : k.end_line;
	}
	k.ntests = 1;
	k.hash = hash;
	k.last_test_ = test + 1;
	if (ut_vec_push(&h->hooks, k) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	h->table[j] = (uint32_t)h->hooks.n;
	*out = (uint32_t)h->hooks.n - 1;
	return 0;
}

/* Cuts actions[from, to) of test t (all setup) into blocks of one file each, interned
 * and appended to refs; *count is how many. */
static int add_blocks(ut_suite_hooks *h, const ut_test *t, size_t test, size_t from, size_t to,
		      size_t *count)
{
	size_t i = from, j;
	uint32_t ref = 0;
	int rc;

	*count = 0;
	while (i < to) {
		const char *file = t->actions[i].file ? t->actions[i].file : t->file;

		for (j = i + 1; j < to; j++) {
			const char *f = t->actions[j].file ? t->actions[j].file : t->file;

			if (strcmp(f, file))
				break;
		}
		rc = intern(h, file, &t->actions[i], j - i, test, &ref);
		if (rc < 0)
			return rc;
		if (ut_vec_push(&h->refs, ref) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		(*count)++;
		i = j;
	}
	return 0;
}

int ut_suite_hooks_build(ut_suite_hooks *out, const ut_suite *s)
{
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->of = calloc(s->tests.n ? s->tests.n : 1, sizeof(*out->of));
	if (!out->of)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < s->tests.n && rc == 0; i++) {
		const ut_test *t = &s->tests.v[i];
		ut_test_hooks *th = &out->of[i];

		while (th->own_at < t->nactions && t->actions[th->own_at].setup)
			th->own_at++;
		th->own_end = t->nactions;
		while (th->own_end > th->own_at && t->actions[th->own_end - 1].setup)
			th->own_end--;
		th->ref_at = out->refs.n;
		rc = add_blocks(out, t, i, 0, th->own_at, &th->nsetup);
		if (rc == 0)
			rc = add_blocks(out, t, i, th->own_end, t->nactions, &th->nteardown);
	}
	return rc;
}

void ut_suite_hooks_dispose(ut_suite_hooks *h)
{
	if (!h)
		return;
	ut_vec_free(&h->hooks);
	ut_vec_free(&h->refs);
	free(h->of);
	free(h->table);
	memset(h, 0, sizeof(*h));
}

const uint32_t *ut_suite_hooks_setup(const ut_suite_hooks *h, size_t i)
{
	return h->refs.v ? h->refs.v + h->of[i].ref_at : NULL;
}

const uint32_t *ut_suite_hooks_teardown(const ut_suite_hooks *h, size_t i)
{
	return h->refs.v ? h->refs.v + h->of[i].ref_at + h->of[i].nsetup : NULL;
}
