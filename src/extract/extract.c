/* extract.c: sub-use string analysis (thesis Alg. 4), the original-order baseline, and the
 * per-value statistics of the dependency-free value filter. */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/banned.h"

/* The distinct values of one test: whether it submits each, and whether each is seen
 * only in setup code (for submitting and for using). */
typedef struct {
	const char *value;
	bool submits, submit_setup_only, use_setup_only;
} test_value;

typedef struct {
	UT_VEC(test_value) v;
	ut_map seen; /* value -> index + 1 in v */
} test_values;

static void test_values_dispose(test_values *tv)
{
	ut_vec_free(&tv->v);
	ut_map_dispose(&tv->seen);
}

static void test_values_clear(test_values *tv)
{
	tv->v.n = 0;
	ut_map_dispose(&tv->seen);
	memset(&tv->seen, 0, sizeof(tv->seen));
}

/*
 * The values tests submit, for finding them inside longer strings: a board name in an
 * XPath ("//a[text()='Groceries']"), an id in a URL ("/orders/10023"), an email in an
 * assertion message. A value is found there only as whole tokens: bounded by characters
 * that cannot be inside a token (letters, digits, bytes >= 0x80 and @ . _ - + can), so
 * "test" is not found in "jane@boards.test"; and only values of EMBED_MIN bytes or more.
 */
#define EMBED_MIN 3
#define EMBED_MAX 256

typedef struct {
	ut_map values; /* submitted value -> the value (borrowed from the suite) */
	size_t maxlen;
	ut_map found;  /* a string searched -> its found_list, in arena: the hooks of a describe
			  or a base class give every test of it the same strings */
	ut_arena arena;
} submitted_set;

#define SUBMITTED_SET_INIT {UT_MAP_INIT, 0, UT_MAP_INIT, UT_ARENA_INIT}

/* The submitted values inside one string, in the order they are found. */
typedef struct {
	const char **v;
	size_t n;
} found_list;

static void submitted_dispose(submitted_set *ss)
{
	ut_map_dispose(&ss->values);
	ut_map_dispose(&ss->found);
	ut_arena_dispose(&ss->arena);
}

static int submitted_collect(submitted_set *ss, const ut_suite *s)
{
	size_t i, j, k;

	for (i = 0; i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];

		for (j = 0; j < t->nactions; j++) {
			if (t->actions[j].kind != UT_ACT_SUBMIT)
				continue;
			for (k = 0; k < t->actions[j].nvalues; k++) {
				const char *v = t->actions[j].values[k];
				size_t n = strlen(v);

				if (n < EMBED_MIN || n > EMBED_MAX)
					continue;
				if (ut_map_put(&ss->values, v, n, (void *)v) < 0)
					return ut_error_set(UT_ENOMEM, "out of memory");
				if (n > ss->maxlen)
					ss->maxlen = n;
			}
		}
	}
	return 0;
}

static bool token_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80 || c == '@' || c == '.' || c == '_' || c == '-' || c == '+';
}

static int test_values_use(test_values *tv, const char *val, bool setup, bool submit)
{
	size_t len = strlen(val), k = (size_t)ut_map_get(&tv->seen, val, len);
	test_value *x;

	if (!k) {
		test_value nv = {val, false, true, true};

		if (ut_vec_push(&tv->v, nv) < 0 ||
		    ut_map_put(&tv->seen, val, len, (void *)tv->v.n) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		k = tv->v.n;
	}
	x = &tv->v.v[k - 1];
	x->use_setup_only = x->use_setup_only && setup;
	if (submit) {
		x->submit_setup_only = x->submits ? x->submit_setup_only && setup : setup;
		x->submits = true;
	}
	return 0;
}

/* The submitted values inside `val`: every run of whole tokens (with what separates them:
 * "Jane Doe") shorter than val itself that is a submitted value; searched once per string. */
static const found_list *embedded_in(submitted_set *ss, const char *val, size_t n)
{
	static const found_list none = {NULL, 0};
	UT_VEC(const char *) got = {0};
	found_list *fl = ut_map_get(&ss->found, val, n);
	size_t a, b;
	const char *v;

	if (fl)
		return fl;
	if (n <= EMBED_MIN) /* nothing shorter than it is long enough */
		return &none;
	for (a = 0; a + EMBED_MIN <= n; a++) {
		if (!token_byte((unsigned char)val[a]) ||
		    (a > 0 && token_byte((unsigned char)val[a - 1])))
			continue;
		for (b = a + 1; b <= n && b - a <= ss->maxlen; b++) {
			if (!token_byte((unsigned char)val[b - 1]) ||
			    (b < n && token_byte((unsigned char)val[b])) || b - a < EMBED_MIN ||
			    (a == 0 && b == n))
				continue;
			v = ut_map_get(&ss->values, val + a, b - a);
			if (v && ut_vec_push(&got, v) < 0)
				goto nomem;
		}
	}
	fl = ut_arena_alloc(&ss->arena, sizeof(*fl));
	if (!fl || (got.n && !(fl->v = ut_arena_alloc(&ss->arena, got.n * sizeof(*got.v)))))
		goto nomem;
	if (got.n)
		memcpy(fl->v, got.v, got.n * sizeof(*got.v));
	else
		fl->v = NULL;
	fl->n = got.n;
	ut_vec_free(&got);
	if (ut_map_put(&ss->found, val, n, fl) < 0) /* val is the suite's: it outlives ss */
		return NULL;
	return fl;
nomem:
	ut_vec_free(&got);
	return NULL;
}

/* Uses of submitted values inside `val` (embedded_in). */
static int test_values_embedded(test_values *tv, const char *val, bool setup,
				submitted_set *ss)
{
	const found_list *fl = embedded_in(ss, val, strlen(val));
	size_t i;
	int rc;

	if (!fl)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < fl->n; i++)
		if ((rc = test_values_use(tv, fl->v[i], setup, false)) < 0)
			return rc;
	return 0;
}

/* The values test t uses and submits; with `ss`, also the submitted values found inside
 * the strings it uses. */
static int test_values_collect(test_values *tv, const ut_test *t, submitted_set *ss)
{
	size_t i, j;
	int rc;

	test_values_clear(tv);
	for (i = 0; i < t->nactions; i++) {
		const ut_action *a = &t->actions[i];

		for (j = 0; j < a->nvalues; j++) {
			rc = test_values_use(tv, a->values[j], a->setup, a->kind == UT_ACT_SUBMIT);
			if (rc == 0 && ss && ss->maxlen)
				rc = test_values_embedded(tv, a->values[j], a->setup, ss);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

int ut_extract_test_counts(const ut_test *t, size_t *submits, size_t *uses)
{
	test_values tv = {0};
	size_t i;
	int rc = test_values_collect(&tv, t, NULL);

	*submits = *uses = 0;
	for (i = 0; rc == 0 && i < tv.v.n; i++) {
		(*uses)++;
		*submits += tv.v.v[i].submits;
	}
	test_values_dispose(&tv);
	return rc;
}

static int cmp_stat(const void *a, const void *b)
{
	const ut_value_stat *x = a, *y = b;

	if (x->users != y->users)
		return x->users > y->users ? -1 : 1;
	if (x->submitters != y->submitters)
		return x->submitters > y->submitters ? -1 : 1;
	return strcmp(x->value, y->value);
}

int ut_value_stats_build(ut_value_stats *out, const ut_suite *s, const char *const *ignore,
			 size_t nignore)
{
	test_values tv = {0};
	submitted_set ss = SUBMITTED_SET_INIT;
	ut_map ignored = UT_MAP_INIT;
	UT_VEC(ut_value_stat) all = {0};
	size_t i, j;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->ntests = s->tests.n;
	rc = submitted_collect(&ss, s);
	if (rc < 0)
		goto done;
	for (i = 0; i < nignore; i++) {
		if (ut_map_put(&ignored, ignore[i], strlen(ignore[i]), (void *)1) < 0)
			goto nomem;
	}
	for (i = 0; i < s->tests.n; i++) {
		rc = test_values_collect(&tv, &s->tests.v[i], &ss);
		if (rc < 0)
			goto done;
		for (j = 0; j < tv.v.n; j++) {
			const test_value *x = &tv.v.v[j];
			size_t len = strlen(x->value);
			size_t k = (size_t)ut_map_get(&out->index, x->value, len);
			ut_value_stat *st;

			if (!k) {
				ut_value_stat ns = {x->value, 0, 0, 0, -1, false, false};

				ns.ignored = ut_map_get(&ignored, x->value, len) != NULL;
				if (ut_vec_push(&all, ns) < 0 ||
				    ut_map_put(&out->index, x->value, len, (void *)all.n) < 0)
					goto nomem;
				k = all.n;
			}
			st = &all.v[k - 1];
			st->users++;
			st->setup_users += x->use_setup_only;
			if (x->submits) {
				st->submitters++;
				if (st->first_submitter < 0)
					st->first_submitter = (long)i;
			}
		}
	}
	for (i = 0; i < all.n; i++)
		all.v[i].dependency_free = ut_value_dependency_free(&all.v[i], s->tests.n);
	if (all.n) /* qsort wants an array, and a suite without values has none */
		qsort(all.v, all.n, sizeof(*all.v), cmp_stat);
	/* The index points at the ranked array. */
	for (i = 0; i < all.n; i++) {
		if (ut_map_put(&out->index, all.v[i].value, strlen(all.v[i].value), &all.v[i]) < 0)
			goto nomem;
	}
	out->v = all.v;
	out->n = all.n;
	all.v = NULL;
	goto done;
nomem:
	rc = ut_error_set(UT_ENOMEM, "out of memory");
done:
	ut_vec_free(&all);
	ut_map_dispose(&ignored);
	submitted_dispose(&ss);
	test_values_dispose(&tv);
	if (rc < 0)
		ut_value_stats_dispose(out);
	return rc;
}

void ut_value_stats_dispose(ut_value_stats *st)
{
	if (!st)
		return;
	free(st->v);
	ut_map_dispose(&st->index);
	memset(st, 0, sizeof(*st));
}

const ut_value_stat *ut_value_stats_get(const ut_value_stats *st, const char *value)
{
	return ut_map_get(&st->index, value, strlen(value));
}

bool ut_value_dropped(const ut_value_stat *v)
{
	return v && (v->dependency_free || v->ignored);
}

bool ut_value_dependency_free(const ut_value_stat *v, size_t ntests)
{
	size_t outliers = ntests >= UT_VALUE_FREE_MIN_TESTS ? ntests / 5 : 0;

	if (ntests < 2 || v->submitters == 1)
		return false;
	return v->users + outliers >= ntests;
}

bool ut_value_proposed(const ut_value_stat *v, size_t ntests)
{
	return v->submitters > 0 && ut_value_dependency_free(v, ntests);
}

int ut_graph_from_suite(ut_graph **out, const ut_suite *s)
{
	ut_graph *g = NULL;
	size_t i;
	int rc;

	rc = ut_graph_new(&g, s->tests.n);
	for (i = 0; rc == 0 && i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];

		rc = ut_graph_set_test(g, i, t->id, t->name, t->file, t->line, t->end_line);
		if (rc == 0)
			g->tests[i].body = t->body;
	}
	if (rc < 0) {
		ut_graph_free(g);
		g = NULL;
	}
	*out = g;
	return rc;
}

/* The tests that submitted one value so far, in original order, and whether each did so
 * only in setup code. */
typedef struct {
	UT_VEC(uint32_t) tests;
	UT_VEC(unsigned char) setup;
} sub_list;

static void sub_lists_free(sub_list **lists, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!lists[i])
			continue;
		ut_vec_free(&lists[i]->tests);
		ut_vec_free(&lists[i]->setup);
		free(lists[i]);
	}
}

static int pair_uses(ut_graph *g, uint32_t test, const test_value *x, const sub_list *subs,
		     ut_extract_stats *stats)
{
	size_t k;
	int rc;

	for (k = 0; k < subs->tests.n; k++) {
		ut_edge *e;

		rc = ut_graph_add(g, test, subs->tests.v[k], UT_ORIGIN_STRING, &e);
		if (rc < 0)
			return rc;
		if (e->nvalues == 0)
			stats->edges++;
		rc = ut_graph_add_value(g, e, x->value, x->use_setup_only || subs->setup.v[k]);
		if (rc < 0)
			return rc;
		stats->pairs++;
	}
	return 0;
}

int ut_extract_string(ut_graph *g, const ut_suite *s, const ut_extract_opts *opts,
		      ut_extract_stats *stats)
{
	test_values tv = {0};
	submitted_set ss = SUBMITTED_SET_INIT;
	ut_map index = UT_MAP_INIT; /* value -> index + 1 into lists */
	UT_VEC(sub_list *) lists = {0};
	size_t i, j;
	int rc = 0;

	memset(stats, 0, sizeof(*stats));
	rc = submitted_collect(&ss, s);
	if (rc < 0)
		goto done;
	for (i = 0; i < s->tests.n; i++) {
		rc = test_values_collect(&tv, &s->tests.v[i], &ss);
		if (rc < 0)
			goto done;
		/* Uses first: a test does not depend on itself. */
		for (j = 0; j < tv.v.n; j++) {
			const test_value *x = &tv.v.v[j];
			size_t li = (size_t)ut_map_get(&index, x->value, strlen(x->value));

			if (!li)
				continue;
			if (opts && opts->skip && opts->skip(x->value, opts->ctx)) {
				stats->skipped++;
				continue;
			}
			rc = pair_uses(g, (uint32_t)i, x, lists.v[li - 1], stats);
			if (rc < 0)
				goto done;
		}
		for (j = 0; j < tv.v.n; j++) {
			const test_value *x = &tv.v.v[j];
			size_t len = strlen(x->value), li;
			sub_list *l;

			if (!x->submits)
				continue;
			li = (size_t)ut_map_get(&index, x->value, len);
			if (!li) {
				l = calloc(1, sizeof(*l));
				if (!l || ut_vec_push(&lists, l) < 0) {
					free(l);
					goto nomem;
				}
				if (ut_map_put(&index, x->value, len, (void *)lists.n) < 0)
					goto nomem;
				li = lists.n;
			}
			l = lists.v[li - 1];
			if (ut_vec_push(&l->tests, (uint32_t)i) < 0 ||
			    ut_vec_push(&l->setup, (unsigned char)x->submit_setup_only) < 0)
				goto nomem;
		}
	}
	goto done;
nomem:
	rc = ut_error_set(UT_ENOMEM, "out of memory");
done:
	sub_lists_free(lists.v, lists.n);
	ut_vec_free(&lists);
	ut_map_dispose(&index);
	submitted_dispose(&ss);
	test_values_dispose(&tv);
	return rc;
}

int ut_extract_order(ut_graph *g, ut_extract_stats *stats)
{
	size_t i, j;
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (ut_vec_reserve(&g->edges, g->ntests * (g->ntests ? g->ntests - 1 : 0) / 2) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 1; i < g->ntests; i++) {
		for (j = 0; j < i; j++) {
			ut_edge *e;

			rc = ut_graph_add(g, (uint32_t)i, (uint32_t)j, UT_ORIGIN_ORDER, &e);
			if (rc < 0)
				return rc;
			stats->edges++;
		}
	}
	return 0;
}
