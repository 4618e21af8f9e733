/* python_order.c: pytest's reordering of tests that use parametrized fixtures of a scope
 * wider than a function (_pytest/fixtures.py reorder_items): the tests that share a
 * session, package, module or class fixture's parameter are brought together, so that
 * each parameter is set up once. The same steps, the same order. */
#include <stdlib.h>
#include <string.h>

#include "parse/python.h"
#include "util/error.h"
#include "util/banned.h"

typedef UT_VEC(size_t) ids;

typedef struct {
	size_t nitems, nkeys;
	ids *item_keys[UT_PY_SESSION + 1]; /* per scope, per item: its keys, in order */
	ids *by_key;			   /* per key: its items, a deque (front first) */
} order;

static int push_front(ids *q, size_t v)
{
	if (ut_vec_push(q, v) < 0)
		return -1;
	memmove(q->v + 1, q->v, (q->n - 1) * sizeof(size_t));
	q->v[0] = v;
	return 0;
}

/* fix_cache_order: the item goes to the front of each of its keys' lists */
static int fix_cache_order(order *o, size_t item)
{
	int s;
	size_t k;

	for (s = UT_PY_CLASS; s <= UT_PY_SESSION; s++)
		for (k = 0; k < o->item_keys[s][item].n; k++)
			if (push_front(&o->by_key[o->item_keys[s][item].v[k]], item) < 0)
				return -1;
	return 0;
}

static int at_scope(order *o, const size_t *items, size_t n, int scope, size_t *out, size_t *nout);

/* The slicing key's items that are among ours go first, in the key's order: appendleft
 * onto what is left of the deque (from *head). Returns -1 when out of memory. */
static int key_items_first(order *o, size_t key, const bool *in_items, ids *deque, size_t *head)
{
	ids matching = {0};
	const ids *q = &o->by_key[key];
	size_t k;
	int rc = 0;

	for (k = 0; k < q->n && rc == 0; k++)
		if (in_items[q->v[k]])
			rc = ut_vec_push(&matching, q->v[k]) < 0 ? -1 : 0;
	for (k = matching.n; k-- > 0 && rc == 0;) {
		rc = fix_cache_order(o, matching.v[k]);
		if (rc == 0 && *head > 0)
			deque->v[--*head] = matching.v[k];
		else if (rc == 0)
			rc = push_front(deque, matching.v[k]);
	}
	ut_vec_free(&matching);
	return rc < 0 ? -1 : 0;
}

/* The group (items with no key left at this scope) reordered at the scope below, appended
 * to out once each; its items are no longer grouped. */
static int emit_group(order *o, const ids *group, int scope, bool *done, bool *grouped, size_t *out,
		      size_t *nout)
{
	size_t *sub = malloc(group->n * sizeof(size_t)), nsub = 0, i;
	int rc;

	if (!sub)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = at_scope(o, group->v, group->n, scope - 1, sub, &nsub);
	for (i = 0; i < nsub && rc == 0; i++)
		if (!done[sub[i]]) {
			done[sub[i]] = true;
			out[(*nout)++] = sub[i];
		}
	free(sub);
	for (i = 0; i < group->n; i++)
		grouped[group->v[i]] = false;
	return rc;
}

/* reorder_items_atscope over `items` (in order, n of them); the result in out. */
static int at_scope(order *o, const size_t *items, size_t n, int scope, size_t *out, size_t *nout)
{
	bool *in_items = NULL, *done = NULL, *grouped = NULL, *ignore = NULL;
	ids deque = {0}, group = {0};
	size_t i, k, head = 0;
	int rc = 0;

	*nout = 0;
	if (scope == UT_PY_FUNCTION || n < 3) {
		memcpy(out, items, n * sizeof(size_t));
		*nout = n;
		return 0;
	}
	in_items = calloc(o->nitems, 1);
	done = calloc(o->nitems, 1);
	grouped = calloc(o->nitems, 1);
	ignore = calloc(o->nkeys + 1, 1);
	if (!in_items || !done || !grouped || !ignore)
		goto nomem;
	for (i = 0; i < n; i++) {
		in_items[items[i]] = true;
		if (ut_vec_push(&deque, items[i]) < 0)
			goto nomem;
	}
	while (head < deque.n) {
		size_t slicing = o->nkeys; /* none */

		group.n = 0;
		while (head < deque.n) {
			size_t item = deque.v[head++], last = o->nkeys;
			const ids *keys = &o->item_keys[scope][item];

			if (done[item] || grouped[item])
				continue;
			for (k = 0; k < keys->n; k++)
				if (!ignore[keys->v[k]])
					last = keys->v[k]; /* popitem(): the last one */
			if (last == o->nkeys) {
				grouped[item] = true;
				if (ut_vec_push(&group, item) < 0)
					goto nomem;
				continue;
			}
			slicing = last;
			if (key_items_first(o, slicing, in_items, &deque, &head) < 0)
				goto nomem;
			break;
		}
		if (group.n) {
			rc = emit_group(o, &group, scope, done, grouped, out, nout);
			if (rc < 0)
				goto done;
		}
		ignore[slicing] = true;
	}
	goto done;
nomem:
	rc = ut_error_set(UT_ENOMEM, "out of memory");
done:
	free(in_items);
	free(done);
	free(grouped);
	free(ignore);
	ut_vec_free(&deque);
	ut_vec_free(&group);
	return rc;
}

int up_py_reorder(const ut_py_key *keys, size_t nkeys, size_t nitems, size_t nids, size_t *out)
{
	order o;
	size_t *items = NULL, i, nout = 0;
	int s, rc = 0;

	memset(&o, 0, sizeof(o));
	o.nitems = nitems;
	o.nkeys = nids;
	items = malloc((nitems ? nitems : 1) * sizeof(size_t));
	o.by_key = calloc(nids + 1, sizeof(ids));
	for (s = UT_PY_CLASS; s <= UT_PY_SESSION; s++)
		o.item_keys[s] = calloc(nitems + 1, sizeof(ids));
	if (!items || !o.by_key || !o.item_keys[UT_PY_CLASS] || !o.item_keys[UT_PY_MODULE] ||
	    !o.item_keys[UT_PY_PACKAGE] || !o.item_keys[UT_PY_SESSION]) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < nkeys && rc == 0; i++) {
		const ut_py_key *k = &keys[i];

		if (k->scope < UT_PY_CLASS || k->scope > UT_PY_SESSION || k->item >= nitems ||
		    k->key >= nids)
			continue;
		if (ut_vec_push(&o.item_keys[k->scope][k->item], k->key) < 0 ||
		    ut_vec_push(&o.by_key[k->key], k->item) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < nitems; i++)
		items[i] = i;
	if (rc == 0)
		rc = at_scope(&o, items, nitems, UT_PY_SESSION, out, &nout);
	if (rc == 0 && nout != nitems) /* every test once: anything else is a bug here */
		for (i = 0; i < nitems; i++)
			out[i] = i;
done:
	for (i = 0; o.by_key && i <= nids; i++)
		ut_vec_free(&o.by_key[i]);
	for (s = UT_PY_CLASS; s <= UT_PY_SESSION; s++)
		for (i = 0; o.item_keys[s] && i <= nitems; i++)
			ut_vec_free(&o.item_keys[s][i]);
	for (s = UT_PY_CLASS; s <= UT_PY_SESSION; s++)
		free(o.item_keys[s]);
	free(o.by_key);
	free(items);
	return rc;
}
