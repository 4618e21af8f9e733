/* bench_shard.c: times the shard planner (src/shard) on a generated suite and prints,
 * per number of shards, the makespan against its lower bound.
 *
 *   bench_shard SUITE.TSV N...
 *
 * SUITE.TSV is tests/bench/detect/gen.py's suite.tsv: id, duration_s, true prerequisites
 * (comma-separated ids), flaky. The graph holds the true prerequisites as manifest edges,
 * so the plan is the one `untangle shard` makes once detect has found them. One line per
 * N (tab-separated, a header first): tests, sinks, N, makespan, lower bound, chain bound,
 * total/N, makespan/bound, repeats, moves, plan time (best of 5, ms), and whether the
 * lists are valid (every test covered, each list closed under prerequisites). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "graph/graph.h"
#include "shard/shard.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
	char **id, **prereqs;
	double *dur;
	size_t n, cap;
} rows;

static int read_tsv(rows *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t len = 0;

	if (!f)
		return -1;
	while (getline(&line, &len, f) > 0) {
		char *id, *dur, *pre;

		if (line[0] == '#')
			continue;
		id = strtok(line, "\t\n");
		dur = strtok(NULL, "\t\n");
		pre = strtok(NULL, "\t\n");
		if (!id || !dur)
			continue;
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 1024;
			r->id = realloc(r->id, r->cap * sizeof(*r->id));
			r->prereqs = realloc(r->prereqs, r->cap * sizeof(*r->prereqs));
			r->dur = realloc(r->dur, r->cap * sizeof(*r->dur));
			if (!r->id || !r->prereqs || !r->dur)
				return -1;
		}
		r->id[r->n] = strdup(id);
		r->dur[r->n] = strtod(dur, NULL);
		r->prereqs[r->n] = strdup(pre && strcmp(pre, "") ? pre : "");
		r->n++;
	}
	free(line);
	fclose(f);
	return 0;
}

static ut_graph *build_graph(const rows *r, size_t *nedges)
{
	ut_graph *g = NULL;
	size_t i;

	*nedges = 0;
	if (ut_graph_new(&g, r->n) < 0)
		return NULL;
	for (i = 0; i < r->n; i++)
		ut_graph_set_test(g, i, r->id[i], r->id[i], "suite.tsv", (unsigned)i + 1, 0);
	for (i = 0; i < r->n; i++) {
		char *list = strdup(r->prereqs[i]), *p, *save = NULL;

		for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			long d = ut_graph_test_index(g, p);
			ut_edge *e;

			if (d < 0 || ut_graph_add(g, (uint32_t)i, (uint32_t)d, UT_ORIGIN_STRING, &e) < 0) {
				fprintf(stderr, "bench_shard: bad prerequisite '%s' of '%s'\n", p, r->id[i]);
				exit(2);
			}
			e->status = UT_EDGE_MANIFEST;
			(*nedges)++;
		}
		free(list);
	}
	return g;
}

/* Every test in some list; every list holds the prerequisites of what it holds. */
static int valid(const ut_graph *g, const ut_shard_plan *p)
{
	unsigned char *in = calloc(g->ntests + 1, 1), *covered = calloc(g->ntests + 1, 1);
	size_t i, j;
	int ok = 1;

	for (i = 0; i < p->nshards && ok; i++) {
		memset(in, 0, g->ntests);
		for (j = 0; j < p->shards[i].n; j++)
			in[p->shards[i].tests[j]] = covered[p->shards[i].tests[j]] = 1;
		for (j = 0; j < g->edges.n; j++)
			if (in[g->edges.v[j].dependent] && !in[g->edges.v[j].dependee])
				ok = 0;
	}
	for (i = 0; i < g->ntests; i++)
		ok = ok && covered[i];
	free(in);
	free(covered);
	return ok;
}

int main(int argc, char **argv)
{
	rows r = {0};
	ut_graph *g;
	size_t nedges, a;
	int status = 0;

	if (argc < 3 || read_tsv(&r, argv[1]) < 0 || !r.n) {
		fprintf(stderr, "usage: bench_shard SUITE.TSV N...\n");
		return 2;
	}
	g = build_graph(&r, &nedges);
	if (!g)
		return 2;
	printf("tests\tedges\tsinks\tshards\tmakespan_s\tbound_s\tchain_s\ttotal/N_s\tratio\t"
	       "repeats\tmoves\tplan_ms\tvalid\n");
	for (a = 2; a < (size_t)argc; a++) {
		ut_shard_opts o = {0};
		ut_shard_plan p, sinks;
		double best = 1e30;
		int rep;

		o.nshards = strtoul(argv[a], NULL, 10);
		memset(&p, 0, sizeof(p));
		for (rep = 0; rep < 5; rep++) {
			double t0 = now_s(), t;

			ut_shard_plan_dispose(&p);
			if (ut_shard_plan_build(&p, g, r.dur, &o) < 0) {
				fprintf(stderr, "bench_shard: planning failed\n");
				return 2;
			}
			t = now_s() - t0;
			best = t < best ? t : best;
		}
		o.per_sink = 1;
		if (ut_shard_plan_build(&sinks, g, r.dur, &o) < 0)
			return 2;
		printf("%zu\t%zu\t%zu\t%zu\t%.1f\t%.1f\t%.1f\t%.1f\t%.3f\t%zu\t%zu\t%.1f\t%s\n",
		       r.n, nedges, sinks.nshards, o.nshards, p.makespan_s, p.lower_bound_s,
		       p.chain_s, p.even_s, p.makespan_s / p.lower_bound_s, p.repeats, p.moves,
		       best * 1e3, valid(g, &p) ? "yes" : "NO");
		status |= !valid(g, &p);
		ut_shard_plan_dispose(&p);
		ut_shard_plan_dispose(&sinks);
	}
	ut_graph_free(g);
	return status;
}
