/* testng_order.c: the order TestNG 6.9 runs the tests of its <test>s in, without parallel
 * mode (checked against TestNG 6.9 on compiled fixtures, tests/collect/run): the <test>s
 * one after another; inside one, a graph of the tests run in rounds. Each round takes the
 * tests whose dependencies have all run (dependsOnMethods, dependsOnGroups and, with
 * preserve-order and no group dependency in the <test>, every test of the previous class
 * of the suite file), keeps those of the lowest priority among them and runs them in
 * class order, then by method name. */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/banned.h"

static bool depends_on(const ut_tref *a, const ut_tref *b)
{
	size_t i, j;

	if (a->test != b->test)
		return false;
	for (i = 0; i < a->m->depends.n; i++) {
		const char *dot = strrchr(a->m->depends.v[i], '.');

		if (a->owner == b->owner &&
		    strcmp(dot ? dot + 1 : a->m->depends.v[i], b->m->name) == 0)
			return true;
	}
	for (i = 0; i < a->m->dep_groups.n; i++)
		for (j = 0; j < b->m->groups.n; j++)
			if (strcmp(a->m->dep_groups.v[i], b->m->groups.v[j]) == 0)
				return true;
	return false;
}

/* The order TestNG is given the tests in (its method interceptors' output): by <test>,
 * class, the class's <include>s, then name. */
static int cmp_base(const void *a, const void *b)
{
	const ut_tref *x = a, *y = b;
	int c;

	if (x->test != y->test)
		return x->test < y->test ? -1 : 1;
	if (x->cls_pos != y->cls_pos)
		return x->cls_pos < y->cls_pos ? -1 : 1;
	/* preserve-order: the order of the <include>s that name them */
	if (x->inc_pos && y->inc_pos && x->inc_pos != y->inc_pos)
		return x->inc_pos < y->inc_pos ? -1 : 1;
	c = strcmp(x->m->name, y->m->name);
	return c ? c : (x->m->pos < y->m->pos ? -1 : x->m->pos > y->m->pos);
}

#define NONE ((size_t)-1)

typedef struct {
	size_t waits;	    /* dependencies not run yet */
	size_t *dependents; /* those that wait for it */
	size_t ndependents;
	size_t block; /* the first test of its class (tests of a class are together) */
	size_t prev;  /* the first test of the previous class of the file, or NONE */
	size_t left;  /* for a class's first test: the class's tests not run yet */
	bool done, free_;
} node;

static bool is_free(const node *nodes, size_t i, bool class_order)
{
	const node *x = &nodes[i];

	return !x->done && x->waits == 0 &&
	       (!class_order || x->prev == NONE || nodes[x->prev].left == 0);
}

/* Runs the rounds of one <test>: refs [from, to) in base order, appended to out. */
static void rounds(const ut_tref *refs, size_t from, size_t to, node *nodes, ut_tref *out,
		   size_t *nout)
{
	bool class_order = refs[from].preserve;
	size_t i, d, left = to - from;

	for (i = from; i < to; i++) {
		class_order &= refs[i].m->dep_groups.n == 0;
		nodes[i].block =
		    i > from && refs[i - 1].cls_pos == refs[i].cls_pos ? nodes[i - 1].block : i;
		nodes[nodes[i].block].left++;
		nodes[i].prev = NONE;
		if (nodes[i].block == i && i > from && refs[i - 1].cls_pos + 1 == refs[i].cls_pos)
			nodes[i].prev = nodes[i - 1].block;
		else if (nodes[i].block != i)
			nodes[i].prev = nodes[nodes[i].block].prev;
	}
	while (left) {
		long low = 0;
		bool any = false;

		for (i = from; i < to; i++) {
			nodes[i].free_ = is_free(nodes, i, class_order);
			if (nodes[i].free_ && (!any || refs[i].m->order < low))
				low = refs[i].m->order;
			any |= nodes[i].free_;
		}
		for (i = from; i < to; i++) {
			/* none free: a cycle, which TestNG refuses; the rest in base order */
			if (nodes[i].done || (any && (!nodes[i].free_ || refs[i].m->order != low)))
				continue;
			out[(*nout)++] = refs[i];
			left--;
			nodes[i].done = true;
			nodes[nodes[i].block].left--;
			for (d = 0; d < nodes[i].ndependents; d++)
				nodes[nodes[i].dependents[d]].waits--;
		}
	}
}

int up_testng_order(ut_trefs *refs)
{
	size_t n = refs->n, i, j, from, nout = 0;
	node *nodes = calloc(n ? n : 1, sizeof(*nodes));
	ut_tref *out = malloc((n ? n : 1) * sizeof(*out));
	int rc = 0;

	if (!nodes || !out) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (n)
		qsort(refs->v, n, sizeof(ut_tref), cmp_base);
	for (i = 0; i < n && rc == 0; i++)
		for (j = 0; j < n && rc == 0; j++) {
			size_t *grown;

			if (i == j || !depends_on(&refs->v[i], &refs->v[j]))
				continue;
			grown = realloc(nodes[j].dependents,
					(nodes[j].ndependents + 1) * sizeof(size_t));
			if (!grown) {
				rc = ut_error_set(UT_ENOMEM, "out of memory");
				break;
			}
			nodes[j].dependents = grown;
			nodes[j].dependents[nodes[j].ndependents++] = i;
			nodes[i].waits++;
		}
	for (from = 0; from < n && rc == 0;) {
		size_t to = from;

		while (to < n && refs->v[to].test == refs->v[from].test)
			to++;
		rounds(refs->v, from, to, nodes, out, &nout);
		from = to;
	}
	if (rc == 0 && n)
		memcpy(refs->v, out, n * sizeof(*out));
done:
	for (i = 0; nodes && i < n; i++)
		free(nodes[i].dependents);
	free(nodes);
	free(out);
	return rc;
}
