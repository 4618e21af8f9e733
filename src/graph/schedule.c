/* schedule.c: a test's schedule, the one definition every command uses: the test and its
 * transitive prerequisites in the original order; a flaky or failing test (left out by
 * detect: its outcome proved nothing) needs every earlier test. */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "util/error.h"
#include "util/banned.h"

int ut_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int ut_scheduler_init_over(ut_scheduler *s, const ut_graph *g,
			   bool (*keep)(const ut_edge *e, void *ctx), void *ctx)
{
	int rc;

	memset(s, 0, sizeof(*s));
	rc = ut_adjacency_build(&s->adj, g, keep, ctx);
	if (rc < 0)
		return rc;
	s->n = g->ntests;
	s->leftout = calloc(s->n + 1, 1);
	s->stack = malloc((s->n + 1) * sizeof(*s->stack));
	s->mark = calloc(s->n + 1, sizeof(*s->mark));
	if (!s->leftout || !s->stack || !s->mark) {
		ut_scheduler_dispose(s);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

int ut_scheduler_init_active(ut_scheduler *s, const ut_graph *g)
{
	return ut_scheduler_init_over(s, g, NULL, NULL);
}

int ut_scheduler_init(ut_scheduler *s, const ut_graph *g)
{
	int rc = ut_scheduler_init_over(s, g, NULL, NULL);

	for (size_t i = 0; rc == 0 && i < s->n; i++)
		s->leftout[i] = g->tests[i].flaky || g->tests[i].failing;
	return rc;
}

void ut_scheduler_dispose(ut_scheduler *s)
{
	ut_adjacency_dispose(&s->adj);
	free(s->leftout);
	free(s->stack);
	free(s->mark);
	memset(s, 0, sizeof(*s));
}

static int grow(uint32_t **out, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 1024;
	uint32_t *p;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*out, ncap * sizeof(*p));
	if (!p)
		return ut_error_set(UT_ENOMEM, "out of memory");
	*out = p;
	*cap = ncap;
	return 0;
}

int ut_scheduler_of(ut_scheduler *s, uint32_t t, uint32_t **out, size_t *len, size_t *cap)
{
	return ut_scheduler_without(s, t, UINT32_MAX, out, len, cap);
}

int ut_scheduler_without(ut_scheduler *s, uint32_t t, uint32_t skip, uint32_t **out,
			 size_t *len, size_t *cap)
{
	size_t sp = 0, start = *len, i;

	if (++s->stamp == 0) { /* wrapped: no mark may look current */
		memset(s->mark, 0, (s->n + 1) * sizeof(*s->mark));
		s->stamp = 1;
	}
	s->stack[sp++] = t;
	s->mark[t] = s->stamp;
	while (sp) {
		uint32_t u = s->stack[--sp];

		if (grow(out, cap, *len + 1 + (s->leftout[u] ? u : 0)) < 0)
			return UT_ENOMEM;
		(*out)[(*len)++] = u;
		if (s->leftout[u]) {
			/* every earlier test, and so all of their prerequisites too */
			for (i = 0; i < u; i++)
				if (s->mark[i] != s->stamp) {
					s->mark[i] = s->stamp;
					(*out)[(*len)++] = (uint32_t)i;
				}
			continue;
		}
		for (i = s->adj.start[u]; i < s->adj.start[u + 1]; i++) {
			uint32_t p = s->adj.deps[i];

			if (u == t && p == skip)
				continue;
			if (s->mark[p] != s->stamp) {
				s->mark[p] = s->stamp;
				s->stack[sp++] = p;
			}
		}
	}
	qsort(*out + start, *len - start, sizeof(uint32_t), ut_cmp_u32);
	return 0;
}
