/* graph.c: the dependency graph: tests, edges keyed by (dependent, dependee), closures. */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

static const char *const status_names[] = {"candidate", "manifest", "false"};
static const char *const origin_names[] = {"string-analysis", "original-order", "recovered",
					    "recovered-disconnected", "declared"};

const char *ut_edge_status_name(ut_edge_status s)
{
	return (unsigned)s < 3 ? status_names[s] : "?";
}

const char *ut_edge_origin_name(ut_edge_origin o)
{
	return (unsigned)o < 5 ? origin_names[o] : "?";
}

static int parse_name(const char *name, const char *const *names, int n, int *out)
{
	int i;

	for (i = 0; name && i < n; i++) {
		if (!strcmp(name, names[i])) {
			*out = i;
			return 0;
		}
	}
	return ut_error_set(UT_EINPUT, "unknown name '%s'", name ? name : "");
}

int ut_edge_status_parse(const char *name, ut_edge_status *out)
{
	int v = 0, rc = parse_name(name, status_names, 3, &v);

	*out = (ut_edge_status)v;
	return rc;
}

int ut_edge_origin_parse(const char *name, ut_edge_origin *out)
{
	int v = 0, rc = parse_name(name, origin_names, 5, &v);

	*out = (ut_edge_origin)v;
	return rc;
}

typedef struct {
	ut_map map;
} intern_table;

int ut_graph_new(ut_graph **out, size_t ntests)
{
	ut_graph *g = calloc(1, sizeof(*g));
	intern_table *t = NULL;

	*out = NULL;
	if (!g)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ut_arena_init(&g->arena);
	g->ntests = ntests;
	g->tests = ntests ? ut_arena_alloc(&g->arena, ntests * sizeof(*g->tests)) : NULL;
	t = ut_arena_alloc(&g->arena, sizeof(*t));
	if ((ntests && !g->tests) || !t) {
		ut_graph_free(g);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < ntests; i++)
		g->tests[i].duration_s = -1;
	g->intern_ = t;
	*out = g;
	return 0;
}

void ut_graph_free(ut_graph *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->edges.n; i++)
		ut_vec_free(&g->edges.v[i].evidence);
	ut_vec_free(&g->edges);
	ut_vec_free(&g->apart);
	if (g->intern_)
		ut_map_dispose(&((intern_table *)g->intern_)->map);
	free(g->keys);
	free(g->slots);
	ut_arena_dispose(&g->arena);
	free(g);
}

const char *ut_graph_intern(ut_graph *g, const char *s)
{
	intern_table *t = g->intern_;
	size_t n = strlen(s);
	char *copy = ut_map_get(&t->map, s, n);

	if (copy)
		return copy;
	copy = ut_arena_strndup(&g->arena, s, n);
	if (!copy || ut_map_put(&t->map, copy, n, copy) < 0)
		return NULL;
	return copy;
}

int ut_graph_set_test(ut_graph *g, size_t index, const char *id, const char *name,
		      const char *file, unsigned line, unsigned end_line)
{
	ut_graph_test *t;

	if (index >= g->ntests)
		return ut_error_set(UT_EINPUT, "test index %zu out of range", index);
	t = &g->tests[index];
	t->id = ut_arena_strdup(&g->arena, id ? id : "");
	t->name = ut_arena_strdup(&g->arena, name ? name : "");
	t->file = ut_arena_strdup(&g->arena, file ? file : "");
	t->line = line;
	t->end_line = end_line;
	if (!t->id || !t->name || !t->file)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_graph_set_hints(ut_graph *g, size_t index, const char *const *nouns, size_t nnouns,
		       const char *dobj, int verb)
{
	ut_graph_test *t;

	if (index >= g->ntests)
		return ut_error_set(UT_EINPUT, "test index %zu out of range", index);
	t = &g->tests[index];
	t->verb = verb;
	t->nnouns = 0;
	t->nouns = NULL;
	t->dobj = dobj ? ut_graph_intern(g, dobj) : NULL;
	if (dobj && !t->dobj)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (!nnouns)
		return 0;
	t->nouns = ut_arena_alloc(&g->arena, nnouns * sizeof(*t->nouns));
	if (!t->nouns)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; i < nnouns; i++) {
		t->nouns[i] = ut_graph_intern(g, nouns[i]);
		if (!t->nouns[i])
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	t->nnouns = (uint32_t)nnouns;
	return 0;
}

static uint64_t edge_key(uint32_t dependent, uint32_t dependee)
{
	return ((uint64_t)dependent << 32) | dependee;
}

static size_t key_slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

/* Open addressing; slots[i] == 0 means empty, otherwise edge index + 1. */
static int table_grow(ut_graph *g)
{
	size_t cap = g->cap ? g->cap * 2 : 64, i;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *slots = calloc(cap, sizeof(*slots));

	if (!keys || !slots) {
		free(keys);
		free(slots);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < g->cap; i++) {
		size_t s;

		if (!g->slots[i])
			continue;
		s = key_slot(g->keys[i], cap);
		while (slots[s])
			s = (s + 1) & (cap - 1);
		slots[s] = g->slots[i];
		keys[s] = g->keys[i];
	}
	free(g->keys);
	free(g->slots);
	g->keys = keys;
	g->slots = slots;
	g->cap = cap;
	return 0;
}

ut_edge *ut_graph_find(ut_graph *g, uint32_t dependent, uint32_t dependee)
{
	uint64_t key = edge_key(dependent, dependee);
	size_t s;

	if (!g->cap)
		return NULL;
	for (s = key_slot(key, g->cap); g->slots[s]; s = (s + 1) & (g->cap - 1)) {
		if (g->keys[s] == key)
			return &g->edges.v[g->slots[s] - 1];
	}
	return NULL;
}

int ut_graph_add(ut_graph *g, uint32_t dependent, uint32_t dependee, ut_edge_origin origin,
		 ut_edge **out)
{
	uint64_t key = edge_key(dependent, dependee);
	ut_edge e;
	size_t s;

	*out = NULL;
	if (dependent >= g->ntests || dependee >= dependent)
		return ut_error_set(UT_EINPUT, "edge %u -> %u goes against the original order",
				    dependent, dependee);
	*out = ut_graph_find(g, dependent, dependee);
	if (*out)
		return 0;
	if ((g->edges.n + 1) * 2 > g->cap && table_grow(g) < 0)
		return UT_ENOMEM;
	memset(&e, 0, sizeof(e));
	e.dependent = dependent;
	e.dependee = dependee;
	e.status = UT_EDGE_CANDIDATE;
	e.origin = origin;
	if (ut_vec_push(&g->edges, e) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (s = key_slot(key, g->cap); g->slots[s]; s = (s + 1) & (g->cap - 1))
		;
	g->keys[s] = key;
	g->slots[s] = (uint32_t)g->edges.n;
	*out = &g->edges.v[g->edges.n - 1];
	return 0;
}

int ut_graph_add_value(ut_graph *g, ut_edge *e, const char *value, bool setup)
{
	const char *v = ut_graph_intern(g, value);
	ut_edge_value *grown;
	uint32_t i;

	if (!v)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < e->nvalues; i++) {
		if (e->values[i].value == v) {
			e->values[i].setup = e->values[i].setup && setup;
			return 0;
		}
	}
	/* Arena arrays grow by doubling at powers of two; few edges carry many values. */
	if ((e->nvalues & (e->nvalues - 1)) == 0) {
		size_t cap = e->nvalues ? (size_t)e->nvalues * 2 : 1;

		grown = ut_arena_alloc(&g->arena, cap * sizeof(*grown));
		if (!grown)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (e->nvalues)
			memcpy(grown, e->values, e->nvalues * sizeof(*grown));
		e->values = grown;
	}
	e->values[e->nvalues].value = v;
	e->values[e->nvalues].setup = setup;
	e->nvalues++;
	return 0;
}

int ut_graph_add_evidence(ut_edge *e, long run_id)
{
	size_t i;

	for (i = 0; i < e->evidence.n; i++) {
		if (e->evidence.v[i] == run_id)
			return 0;
	}
	if (ut_vec_push(&e->evidence, run_id) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

long ut_graph_test_index(const ut_graph *g, const char *id)
{
	size_t i;

	for (i = 0; i < g->ntests; i++) {
		if (!strcmp(g->tests[i].id, id))
			return (long)i;
	}
	return -1;
}

bool ut_edge_active(const ut_edge *e)
{
	return !e->filtered_by && e->status != UT_EDGE_FALSE;
}

static bool keep_active(const ut_edge *e, void *ctx)
{
	(void)ctx;
	return ut_edge_active(e);
}

int ut_adjacency_build(ut_adjacency *adj, const ut_graph *g,
		       bool (*keep)(const ut_edge *e, void *ctx), void *ctx)
{
	size_t i, n = g->ntests, total = 0;
	uint32_t *fill = NULL;

	memset(adj, 0, sizeof(*adj));
	if (!keep)
		keep = keep_active;
	adj->ntests = n;
	adj->start = calloc(n + 1, sizeof(*adj->start));
	fill = calloc(n + 1, sizeof(*fill));
	if (!adj->start || !fill)
		goto nomem;
	for (i = 0; i < g->edges.n; i++) {
		if (keep(&g->edges.v[i], ctx)) {
			adj->start[g->edges.v[i].dependent + 1]++;
			total++;
		}
	}
	for (i = 0; i < n; i++)
		adj->start[i + 1] += adj->start[i];
	adj->deps = malloc((total ? total : 1) * sizeof(*adj->deps));
	if (!adj->deps)
		goto nomem;
	memcpy(fill, adj->start, (n + 1) * sizeof(*fill));
	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (keep(e, ctx))
			adj->deps[fill[e->dependent]++] = e->dependee;
	}
	for (i = 0; i < n; i++)
		qsort(adj->deps + adj->start[i], adj->start[i + 1] - adj->start[i],
		      sizeof(*adj->deps), ut_cmp_u32);
	free(fill);
	return 0;
nomem:
	free(fill);
	ut_adjacency_dispose(adj);
	return ut_error_set(UT_ENOMEM, "out of memory");
}

void ut_adjacency_dispose(ut_adjacency *adj)
{
	if (!adj)
		return;
	free(adj->start);
	free(adj->deps);
	memset(adj, 0, sizeof(*adj));
}

int ut_graph_subgraph(ut_graph **out, const ut_graph *g, const bool *keep)
{
	uint32_t *at = malloc((g->ntests + 1) * sizeof(*at));
	size_t i, n = 0, v;
	ut_graph *sub = NULL;
	int rc = UT_ENOMEM;

	*out = NULL;
	if (!at)
		goto done;
	for (i = 0; i < g->ntests; i++)
		at[i] = keep[i] ? (uint32_t)n++ : UINT32_MAX;
	rc = ut_graph_new(&sub, n);
	for (i = 0; rc == 0 && i < g->ntests; i++) {
		const ut_graph_test *t = &g->tests[i];

		if (!keep[i])
			continue;
		rc = ut_graph_set_test(sub, at[i], t->id, t->name, t->file, t->line, t->end_line);
		sub->tests[at[i]].duration_s = t->duration_s;
		sub->tests[at[i]].flaky = t->flaky;
		sub->tests[at[i]].failing = t->failing;
		sub->tests[at[i]].needs_left_out = t->needs_left_out;
		sub->tests[at[i]].pass_run = t->pass_run;
		sub->tests[at[i]].body = t->body;
		if (rc == 0)
			rc = ut_graph_set_hints(sub, at[i], t->nouns, t->nnouns, t->dobj, t->verb);
	}
	for (i = 0; rc == 0 && i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];
		ut_edge *copy = NULL;

		if (!keep[e->dependent] || !keep[e->dependee])
			continue;
		rc = ut_graph_add(sub, at[e->dependent], at[e->dependee], e->origin, &copy);
		if (rc < 0)
			break;
		copy->status = e->status;
		copy->filtered_by = e->filtered_by ? ut_graph_intern(sub, e->filtered_by) : NULL;
		copy->reason = e->reason ? ut_graph_intern(sub, e->reason) : NULL;
		for (v = 0; rc == 0 && v < e->nvalues; v++)
			rc = ut_graph_add_value(sub, copy, e->values[v].value, e->values[v].setup);
		for (v = 0; rc == 0 && v < e->evidence.n; v++)
			rc = ut_graph_add_evidence(copy, e->evidence.v[v]);
	}
	for (i = 0; rc == 0 && i < g->apart.n; i++) {
		const ut_apart *a = &g->apart.v[i];

		if (keep[a->first] && keep[a->then])
			rc = ut_graph_add_apart(sub, at[a->first], at[a->then], a->failed_run,
						a->passed_run);
	}
	sub->commit = g->commit ? ut_graph_intern(sub, g->commit) : NULL;
done:
	free(at);
	if (rc < 0) {
		ut_graph_free(sub);
		return rc == UT_ENOMEM ? ut_error_set(UT_ENOMEM, "out of memory") : rc;
	}
	*out = sub;
	return 0;
}

long ut_graph_find_test(const ut_graph *g, const char *what, bool *ambiguous)
{
	size_t i, len = strlen(what);
	long found = ut_graph_test_index(g, what);

	*ambiguous = false;
	if (found >= 0)
		return found;
	for (i = 0; i < g->ntests; i++) {
		const char *id = g->tests[i].id;
		size_t n = strlen(id);

		if (strcmp(g->tests[i].name, what) && !(n > len && !strcmp(id + n - len, what) &&
							strchr(":#. ", id[n - len - 1])))
			continue;
		if (found >= 0) {
			*ambiguous = true;
			return -1;
		}
		found = (long)i;
	}
	return found;
}

/* The index of edge pairs after edges moved: rebuilt from the edges themselves. */
static void reindex(ut_graph *g)
{
	size_t i, s;

	if (g->cap)
		memset(g->slots, 0, g->cap * sizeof(*g->slots));
	for (i = 0; i < g->edges.n; i++) {
		uint64_t key = edge_key(g->edges.v[i].dependent, g->edges.v[i].dependee);

		for (s = key_slot(key, g->cap); g->slots[s]; s = (s + 1) & (g->cap - 1))
			;
		g->keys[s] = key;
		g->slots[s] = (uint32_t)i + 1;
	}
}

int ut_graph_keep_edges(ut_graph *g, const uint32_t *order, size_t n)
{
	size_t total = g->edges.n, i, j, k, m = n;
	uint32_t *perm = malloc((total ? total : 1) * sizeof(*perm));
	unsigned char *done = calloc(total ? total : 1, 1);
	ut_edge tmp;

	if (!perm || !done) {
		free(perm);
		free(done);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	/* a whole permutation (the edges kept, then the others), applied in place by its
	 * cycles: a copy of the edges would double the memory of a million of them */
	memcpy(perm, order, n * sizeof(*perm));
	for (i = 0; i < n; i++)
		done[order[i]] = 1;
	for (i = 0; i < total; i++)
		if (!done[i])
			perm[m++] = (uint32_t)i;
	memset(done, 0, total);
	for (i = 0; i < total; i++) {
		if (done[i])
			continue;
		tmp = g->edges.v[i];
		for (j = i;; j = k) {
			k = perm[j];
			done[j] = 1;
			if (k == i)
				break;
			g->edges.v[j] = g->edges.v[k];
		}
		g->edges.v[j] = tmp;
	}
	for (i = n; i < total; i++)
		ut_vec_free(&g->edges.v[i].evidence);
	g->edges.n = n;
	free(perm);
	free(done);
	reindex(g);
	return 0;
}

int ut_graph_add_apart(ut_graph *g, uint32_t first, uint32_t then, long failed_run,
		       long passed_run)
{
	ut_apart a = {first, then, failed_run, passed_run};

	if (first >= then || then >= g->ntests)
		return ut_error_set(UT_EINPUT, "a pair kept apart must name an earlier test first");
	for (size_t i = 0; i < g->apart.n; i++)
		if (g->apart.v[i].first == first && g->apart.v[i].then == then)
			return 0;
	if (ut_vec_push(&g->apart, a) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_graph_carry_apart(ut_graph *g, const ut_graph *old)
{
	for (size_t i = 0; i < old->apart.n; i++) {
		const ut_apart *a = &old->apart.v[i];
		long first = ut_graph_test_index(g, old->tests[a->first].id);
		long then = ut_graph_test_index(g, old->tests[a->then].id);

		if (first < 0 || then < 0 || first >= then)
			continue; /* a test gone, or the order changed: the pair no longer holds */
		if (ut_graph_add_apart(g, (uint32_t)first, (uint32_t)then, a->failed_run,
				       a->passed_run) < 0)
			return ut_error_code();
	}
	return 0;
}
