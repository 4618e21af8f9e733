/* check_shard.c: the shard planner (lists closed under prerequisites, balanced, the
 * bounds), the timings, the graph/suite drift check, the fingerprint and the plan file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/graph.h"
#include "graph/graph_json.h"
#include "graph/timings.h"
#include "shard/plan_file.h"
#include "shard/shard.h"
#include "shard/verify.h"
#include "util/error.h"
#include "util/fs.h"

Suite *shard_suite(void);

/* Tests "t0".."t{n-1}"; edges as (dependent, dependee) pairs, manifest. */
static ut_graph *make_graph(size_t n, const int (*edges)[2], size_t nedges)
{
	ut_graph *g = NULL;
	char id[32];
	size_t i;

	ck_assert_int_eq(ut_graph_new(&g, n), 0);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "t%zu", i);
		ck_assert_int_eq(ut_graph_set_test(g, i, id, id, "t.py", (unsigned)i + 1, 0), 0);
	}
	for (i = 0; i < nedges; i++) {
		ut_edge *e = NULL;

		ck_assert_int_eq(ut_graph_add(g, (uint32_t)edges[i][0], (uint32_t)edges[i][1],
					      UT_ORIGIN_STRING, &e), 0);
		e->status = UT_EDGE_MANIFEST;
	}
	return g;
}

/* Every test in some list; each list ascending and holding the prerequisites of what it
 * holds (a left-out test needing every earlier one). */
static void assert_valid(const ut_graph *g, const ut_shard_plan *p)
{
	unsigned char *in = calloc(g->ntests + 1, 1), *covered = calloc(g->ntests + 1, 1);
	size_t i, j, t;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(covered);
	for (i = 0; i < p->nshards; i++) {
		const ut_shard *sh = &p->shards[i];

		memset(in, 0, g->ntests);
		for (j = 0; j < sh->n; j++) {
			if (j)
				ck_assert_uint_lt(sh->tests[j - 1], sh->tests[j]);
			in[sh->tests[j]] = covered[sh->tests[j]] = 1;
		}
		for (j = 0; j < g->edges.n; j++)
			if (ut_edge_active(&g->edges.v[j]) && in[g->edges.v[j].dependent])
				ck_assert_msg(in[g->edges.v[j].dependee], "list %zu lacks t%u for t%u", i,
					      g->edges.v[j].dependee, g->edges.v[j].dependent);
		for (t = 0; t < g->ntests; t++)
			if (in[t] && (g->tests[t].flaky || g->tests[t].failing))
				for (j = 0; j < t; j++)
					ck_assert_msg(in[j], "left-out t%zu without t%zu", t, j);
		for (j = 0; j < sh->ntargets; j++)
			ck_assert(in[sh->targets[j]]);
	}
	for (t = 0; t < g->ntests; t++)
		ck_assert_msg(covered[t], "t%zu is in no list", t);
	ck_assert(p->makespan_s >= p->lower_bound_s - 1e-9);
	ck_assert(p->makespan_s <= p->original_s + 1e-9);
	free(in);
	free(covered);
}

/* t1 needs t0 (login after sign-up), t3 and t4 need t2 (board views), t5 stands alone. */
static const int example_edges[][2] = {{1, 0}, {3, 2}, {4, 2}};
static const double example_d[] = {2, 1, 3, 1, 1, 4};

START_TEST(shard_balances_and_keeps_prerequisites)
{
	ut_graph *g = make_graph(6, example_edges, 3);
	ut_shard_opts o = {2, false};
	ut_shard_plan p;

	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.nshards, 2);
	ck_assert_double_eq_tol(p.original_s, 12, 1e-9);
	ck_assert_double_eq_tol(p.chain_s, 4, 1e-9);  /* t2 t3, t2 t4, or t5 */
	ck_assert_double_eq_tol(p.even_s, 6, 1e-9);
	ck_assert_double_eq_tol(p.lower_bound_s, 6, 1e-9);
	/* the optimum: {t0 t1 t5} and {t2 t3 t4}, 7 s and 5 s, nothing repeated */
	ck_assert_double_eq_tol(p.makespan_s, 7, 1e-9);
	ck_assert_uint_eq(p.repeats, 0);
	ck_assert_double_eq_tol(p.shards[0].cost_s, 7, 1e-9);
	ck_assert_double_eq_tol(p.mean_s, 6, 1e-9);
	ut_shard_plan_dispose(&p);

	/* three lists: {t2 t3 t4} 5 s, {t5} 4 s, {t0 t1} 3 s (splitting t2's users would
	 * repeat t2 and leave 7 s for t0 t1 plus a sink) */
	o.nshards = 3;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_double_eq_tol(p.makespan_s, 5, 1e-9);
	ck_assert_double_eq_tol(p.lower_bound_s, 4, 1e-9);
	ck_assert_uint_eq(p.shards[0].n, 3);
	ck_assert_uint_eq(p.shards[0].tests[0], 2);
	ut_shard_plan_dispose(&p);

	/* more lists than items: the extra ones are empty and sorted last */
	o.nshards = 5;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.nonempty, 4);
	ck_assert_uint_eq(p.shards[4].n, 0);
	ck_assert_double_eq_tol(p.makespan_s, 4, 1e-9); /* the chain bound, with t2 repeated */
	ck_assert_uint_eq(p.repeats, 1);
	ut_shard_plan_dispose(&p);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_per_sink_gives_the_thesis_schedules)
{
	ut_graph *g = make_graph(6, example_edges, 3);
	ut_shard_opts o = {0, true};
	ut_shard_plan p;

	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.nshards, 4); /* sinks t1, t3, t4, t5, in original order */
	ck_assert_uint_eq(p.shards[0].targets[0], 1);
	ck_assert_uint_eq(p.shards[0].n, 2);
	ck_assert_uint_eq(p.shards[1].targets[0], 3);
	ck_assert_uint_eq(p.shards[2].tests[0], 2);
	ck_assert_uint_eq(p.shards[2].tests[1], 4);
	ck_assert_uint_eq(p.shards[3].n, 1);
	ck_assert_double_eq_tol(p.makespan_s, 4, 1e-9);
	ck_assert_double_eq_tol(p.mean_s, 15.0 / 4, 1e-9); /* 3 + 4 + 4 + 4 */
	ck_assert_uint_eq(p.repeats, 1);
	ut_shard_plan_dispose(&p);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_left_out_tests_need_every_earlier_one)
{
	ut_graph *g = make_graph(6, example_edges, 3);
	ut_shard_opts o = {0, true};
	ut_shard_plan p;

	g->tests[4].failing = true;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.unproven, 1);
	ck_assert_uint_eq(p.nshards, 2); /* t4 (with t0..t3) and t5 */
	ck_assert_uint_eq(p.shards[0].n, 5);
	ck_assert_uint_eq(p.shards[0].targets[0], 4);
	ut_shard_plan_dispose(&p);
	o.per_sink = false;
	o.nshards = 2;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_double_eq_tol(p.makespan_s, 8, 1e-9);
	ut_shard_plan_dispose(&p);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_rejects_bad_input)
{
	ut_graph *g = make_graph(6, example_edges, 3);
	ut_shard_opts o = {0, false};
	ut_shard_plan p;
	double d[6] = {1, 1, 1, -1, 1, 1};

	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), UT_EINPUT);
	o.nshards = UT_SHARD_MAX + 1;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, example_d, &o), UT_EINPUT);
	o.nshards = 2;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, d, &o), UT_EINPUT);
	ck_assert(strstr(ut_error_message(), "'t3'") != NULL);
	ut_shard_plan_dispose(&p);
	ut_shard_plan_dispose(NULL);
	ut_graph_free(g);
}
END_TEST

/* Random graphs: whatever the shape, every list is valid, the bounds hold, and the same
 * input gives the same plan (separate CI jobs must agree). */
/* A plan adopted by a plan of the same graph and durations (ut_shard_plan_adopt) gives
 * the same lists, the same targets (a left-out test needing every earlier one) and the
 * same statistics. */
static void assert_adopts_itself(const ut_graph *g, const double *d, const ut_shard_plan *p)
{
	ut_shard_opts o = {p->nshards, false};
	ut_shard_plan q;

	ck_assert_int_eq(ut_shard_plan_build(&q, g, d, &o), 0);
	ck_assert_int_eq(ut_shard_plan_adopt(&q, g, d, g, p), 0);
	assert_valid(g, &q);
	for (size_t k = 0; k < p->nshards; k++) {
		const ut_shard *x = &p->shards[k], *y = &q.shards[k];

		ck_assert_uint_eq(x->n, y->n);
		ck_assert(!memcmp(x->tests, y->tests, x->n * sizeof(uint32_t)));
		ck_assert_uint_eq(x->ntargets, y->ntargets);
		ck_assert(!memcmp(x->targets, y->targets, x->ntargets * sizeof(uint32_t)));
		ck_assert_double_eq_tol(x->cost_s, y->cost_s, 1e-9);
		ck_assert_uint_eq(x->repeats, y->repeats);
	}
	ck_assert_double_eq_tol(p->makespan_s, q.makespan_s, 1e-9);
	ck_assert_double_eq_tol(p->mean_s, q.mean_s, 1e-9);
	ck_assert_uint_eq(p->repeats, q.repeats);
	ck_assert_uint_eq(p->nonempty, q.nonempty);
	ck_assert_uint_eq(p->apart_broken, q.apart_broken);
	ut_shard_plan_dispose(&q);
}

START_TEST(shard_random_graphs_are_valid_and_deterministic)
{
	unsigned seed = 12345;
	int round;

	for (round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)(rand_r(&seed) % 60), i, j, k;
		int (*edges)[2] = malloc(n * n * sizeof(*edges));
		double *d = malloc(n * sizeof(*d));
		size_t ne = 0;
		ut_graph *g;
		ut_shard_opts o = {1 + (size_t)(rand_r(&seed) % 7), false};
		ut_shard_plan a, b;

		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (rand_r(&seed) % (n < 10 ? 4 : 12) == 0) {
					edges[ne][0] = (int)i;
					edges[ne][1] = (int)j;
					ne++;
				}
		for (i = 0; i < n; i++)
			d[i] = (double)(rand_r(&seed) % 50) / 10.0;
		g = make_graph(n, (const int (*)[2])edges, ne);
		if (rand_r(&seed) % 5 == 0)
			g->tests[rand_r(&seed) % n].flaky = true;
		ck_assert_int_eq(ut_shard_plan_build(&a, g, d, &o), 0);
		ck_assert_int_eq(ut_shard_plan_build(&b, g, d, &o), 0);
		assert_valid(g, &a);
		ck_assert_uint_eq(a.nshards, b.nshards);
		for (k = 0; k < a.nshards; k++) {
			ck_assert_uint_eq(a.shards[k].n, b.shards[k].n);
			ck_assert(!memcmp(a.shards[k].tests, b.shards[k].tests,
					  a.shards[k].n * sizeof(uint32_t)));
		}
		assert_adopts_itself(g, d, &a);
		ut_shard_plan_dispose(&a);
		ut_shard_plan_dispose(&b);
		o.per_sink = true;
		ck_assert_int_eq(ut_shard_plan_build(&a, g, d, &o), 0);
		assert_valid(g, &a);
		ut_shard_plan_dispose(&a);
		ut_graph_free(g);
		free(edges);
		free(d);
	}
}
END_TEST

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/ut-timings-XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	return path;
}

START_TEST(timings_file_then_graph_then_median)
{
	ut_graph *g = make_graph(4, example_edges, 1);
	char *path = write_temp("{\"t0\": 5,\n \"gone\": 1, \"t3\": 0}\n");
	ut_timings_info info;
	double d[4];

	g->tests[1].duration_s = 2;
	g->tests[3].duration_s = 9; /* the file wins */
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, &info), 0);
	ck_assert_double_eq_tol(d[0], 5, 1e-9);
	ck_assert_double_eq_tol(d[1], 2, 1e-9);
	ck_assert_double_eq_tol(d[3], 0, 1e-9);
	ck_assert_double_eq_tol(d[2], 2, 1e-9); /* the median of 0, 2, 5 */
	ck_assert_uint_eq(info.from_file, 2);
	ck_assert_uint_eq(info.from_graph, 1);
	ck_assert_uint_eq(info.fallback, 1);
	ck_assert_uint_eq(info.unknown_ids, 1);
	unlink(path);
	free(path);
	/* no file and no durations: 1 s each */
	g->tests[1].duration_s = g->tests[3].duration_s = -1;
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, "/nonexistent/timings.json", &info), 0);
	ck_assert_double_eq_tol(d[2], 1, 1e-9);
	ck_assert_uint_eq(info.fallback, 4);
	path = write_temp("{\n \"t0\": 1,\n \"t1\": \"slow\"\n}\n");
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, &info), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), ":3:") && strstr(ut_error_message(), "'t1'"),
		      "%s", ut_error_message());
	unlink(path);
	free(path);
	path = write_temp("[1, 2");
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, &info), UT_EINPUT);
	unlink(path);
	free(path);
	ut_graph_free(g);
}
END_TEST

/* The one writer: kept entries stay, new values win, replace drops the rest; what it
 * writes reads back through ut_timings_fill; and ut_timings_import reads JUnit XML (the
 * passed testcases, matched as the runner matches) and .test_durations. */
START_TEST(timings_update_keeps_or_replaces_and_imports)
{
	ut_graph *g = make_graph(4, example_edges, 1);
	char *path = write_temp("{\"gone\": 7, \"t1\": 3}\n");
	char *xml = write_temp("<testsuite><testcase classname=\"c\" name=\"t0\" time=\"0.25\"/>"
			       "<testcase name=\"t2\" time=\"9\"><failure/></testcase>"
			       "<testcase name=\"t3\" time=\"1.5\"/><testcase name=\"t1\"/>"
			       "<testcase name=\"zz\" time=\"2\"/></testsuite>\n");
	char *dur = write_temp(" {\"t2\": 4.5, \"t3\": 6, \"other\": 1}");
	char *bad = write_temp("t0 1\n");
	const char *ids[] = {"t0", "t1"}, *all[] = {"t0", "t1", "t2", "t3"};
	const char *files[] = {xml, dur};
	double secs[] = {0.5, 2}, d[4];
	ut_timings_import_info in;

	ck_assert_int_eq(ut_timings_update(path, ids, secs, 2, true), 0);
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, NULL), 0);
	ck_assert_double_eq_tol(d[0], 0.5, 1e-9);
	ck_assert_double_eq_tol(d[1], 2, 1e-9);
	ck_assert_double_eq_tol(d[2], 1.25, 1e-9); /* no duration: the median of 0.5 and 2 */
	ck_assert_int_eq(ut_timings_update(path, ids, secs, 1, false), 0);
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, NULL), 0);
	ck_assert_double_eq_tol(d[1], 0.5, 1e-9); /* t1 and gone dropped: the fallback */
	/* JUnit then .test_durations: t0 from the report, t2 failed there but the later file
	 * has it, t3 from the later file, t1 from neither (kept from before) */
	ck_assert_int_eq(ut_timings_import(path, all, 4, files, 2, &in), 0);
	ck_assert_uint_eq(in.files, 2);
	ck_assert_uint_eq(in.matched, 3);
	ck_assert_uint_eq(in.records, 8);
	ck_assert_uint_eq(in.unused, 4); /* the failure, t1 without a time, zz, other */
	ck_assert_str_eq(in.example, "zz");
	ck_assert_int_eq(ut_timings_fill(d, NULL, g, path, NULL), 0);
	ck_assert_double_eq_tol(d[0], 0.25, 1e-9);
	ck_assert_double_eq_tol(d[2], 4.5, 1e-9);
	ck_assert_double_eq_tol(d[3], 6, 1e-9);
	ck_assert_double_eq_tol(d[1], 4.5, 1e-9); /* not 0: the median of the others */
	files[0] = bad;
	ck_assert_int_eq(ut_timings_import(path, all, 4, files, 1, &in), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), ":1: neither"), "%s", ut_error_message());
	files[0] = "/nonexistent/report.xml";
	ck_assert_int_eq(ut_timings_import(path, all, 4, files, 1, &in), UT_ENOTFOUND);
	files[0] = dur;
	ck_assert_int_eq(ut_timings_import(path, ids, 2, files, 1, &in), 0);
	ck_assert_uint_eq(in.matched, 0);
	unlink(path);
	unlink(xml);
	unlink(dur);
	unlink(bad);
	free(path);
	free(xml);
	free(dur);
	free(bad);
	ut_graph_free(g);
}
END_TEST

START_TEST(drift_names_added_and_removed_tests)
{
	ut_graph *g = make_graph(4, example_edges, 1);
	const char *same[] = {"t0", "t1", "t2", "t3"}, *moved[] = {"t1", "t0", "t2", "t3"};
	const char *changed[] = {"t0", "new1", "t2", "t3", "new2"};
	ut_shard_drift d;

	ck_assert_int_eq(ut_shard_drift_check(&d, g, same, 4), 0);
	ck_assert(!d.added && !d.removed && !d.reordered);
	ck_assert_int_eq(ut_shard_drift_check(&d, g, moved, 4), 0);
	ck_assert(!d.added && !d.removed && d.reordered);
	ck_assert_int_eq(ut_shard_drift_check(&d, g, changed, 5), 0);
	ck_assert_uint_eq(d.added, 2);
	ck_assert_str_eq(d.first_added[0], "new1");
	ck_assert_str_eq(d.first_added[1], "new2");
	ck_assert_uint_eq(d.removed, 1);
	ck_assert_str_eq(d.first_removed[0], "t1");
	ut_graph_free(g);
}
END_TEST

static void put_file(const char *dir, const char *name, const char *text)
{
	char *path = ut_path_join(dir, name);

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(ut_fs_write_atomic(path, text, strlen(text)), 0);
	free(path);
}

START_TEST(fingerprint_names_changed_added_removed)
{
	char dir[] = "/tmp/ut-fp-XXXXXX", a[64], b[64], c[64], d[64];
	const char *paths[] = {a, b, c, d};
	ut_fingerprint was, now;
	ut_fp_drift drift;

	memset(&was, 0, sizeof(was));
	memset(&now, 0, sizeof(now));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.py", dir);
	snprintf(b, sizeof(b), "%s/b.py", dir);
	snprintf(c, sizeof(c), "%s/c.py", dir);
	snprintf(d, sizeof(d), "%s/never.py", dir);
	put_file(dir, "a.py", "x = 1\n");
	put_file(dir, "b.py", "y = 2\n");
	ck_assert_int_eq(ut_fingerprint_files(&was, paths, 4), 0);
	ck_assert_uint_eq(was.n, 4);
	ck_assert_int_eq(was.files[0].size, 6);
	ck_assert_int_eq(was.files[2].size, -1);
	/* the same bytes again: the same hash */
	ck_assert_int_eq(ut_fingerprint_files(&now, paths, 4), 0);
	ck_assert(now.hash == was.hash);
	/* a.py edited to the same size, b.py removed, c.py created; never.py stays absent */
	put_file(dir, "a.py", "x = 3\n");
	ck_assert_int_eq(unlink(b), 0);
	put_file(dir, "c.py", "z\n");
	ck_assert_int_eq(ut_fingerprint_files(&now, paths, 4), 0);
	ck_assert(now.hash != was.hash);
	ck_assert_int_eq(ut_fingerprint_diff(&drift, &was, &now), 0);
	ck_assert_uint_eq(drift.changed, 1);
	ck_assert_str_eq(drift.first_changed->path, a);
	ck_assert_int_eq(drift.now_size, 6);
	ck_assert_uint_eq(drift.removed, 1);
	ck_assert_str_eq(drift.first_removed, b);
	ck_assert_uint_eq(drift.added, 1);
	ck_assert_str_eq(drift.first_added, c);
	/* a file listed now only (a new source found by the walk) is added too */
	ck_assert_int_eq(ut_fingerprint_files(&now, paths, 3), 0);
	ck_assert_int_eq(ut_fingerprint_files(&was, paths, 1), 0);
	ck_assert_int_eq(ut_fingerprint_diff(&drift, &was, &now), 0);
	ck_assert_uint_eq(drift.changed + drift.removed, 0);
	ck_assert_uint_eq(drift.added, 1);
	ck_assert_str_eq(drift.first_added, c);
	ut_fingerprint_dispose(&was);
	ut_fingerprint_dispose(&now);
	unlink(a);
	unlink(c);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(plan_file_round_trip)
{
	ut_graph *g = make_graph(6, example_edges, 3);
	double durations[] = {1, 2, 3, 4, 5, 6};
	ut_shard_opts opts = {.per_sink = true}; /* t2 in two lists: a repeat */
	ut_shard_plan plan;
	ut_fingerprint fp;
	ut_plan_file pf;
	ut_buf out = UT_BUF_INIT;
	char *path = write_temp("");
	const char *paths[] = {path};
	size_t i, j;

	memset(&fp, 0, sizeof(fp));
	ck_assert_int_eq(ut_shard_plan_build(&plan, g, durations, &opts), 0);
	ck_assert_uint_gt(plan.repeats, 0);
	ck_assert_int_eq(ut_fingerprint_files(&fp, paths, 1), 0);
	ck_assert_int_eq(ut_plan_file_write(&out, g, &plan, durations, "pytest", true, &fp), 0);
	ck_assert_int_eq(ut_fs_write_atomic(path, out.ptr, out.len), 0);
	ck_assert_int_eq(ut_plan_file_read(&pf, path), 0);
	ck_assert_uint_eq(pf.plan.nshards, plan.nshards);
	ck_assert_uint_eq(pf.g->ntests, 6); /* each test once, repeats or not */
	for (i = 0; i < plan.nshards; i++) {
		ck_assert_uint_eq(pf.plan.shards[i].n, plan.shards[i].n);
		ck_assert_double_eq_tol(pf.plan.shards[i].cost_s, plan.shards[i].cost_s, 1e-3);
		ck_assert_uint_eq(pf.plan.shards[i].repeats, plan.shards[i].repeats);
		for (j = 0; j < plan.shards[i].n; j++) {
			const ut_graph_test *t = &pf.g->tests[pf.plan.shards[i].tests[j]];

			ck_assert_str_eq(t->id, g->tests[plan.shards[i].tests[j]].id);
			ck_assert_double_eq_tol(t->duration_s, durations[plan.shards[i].tests[j]],
						1e-3);
		}
	}
	ck_assert_str_eq(pf.preset, "pytest");
	ck_assert(pf.preset_inferred);
	ck_assert_uint_eq(pf.fp.n, 1);
	ck_assert(pf.fp.hash == fp.hash && pf.fp.files[0].hash == fp.files[0].hash);
	ck_assert_str_eq(pf.fp.files[0].path, fp.files[0].path);
	ut_plan_file_dispose(&pf);
	/* a newer version is refused with the file and the line */
	out.len = 0;
	ut_buf_puts(&out, "{\"format\": \"untangle-plan\",\n\"version\": 2}\n");
	ck_assert_int_eq(ut_fs_write_atomic(path, out.ptr, out.len), 0);
	ck_assert_int_eq(ut_plan_file_read(&pf, path), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), ":2: plan version 2 is newer"), "%s",
		      ut_error_message());
	ck_assert_ptr_null(pf.g);
	unlink(path);
	free(path);
	ut_buf_dispose(&out);
	ut_fingerprint_dispose(&fp);
	ut_shard_plan_dispose(&plan);
	ut_graph_free(g);
}
END_TEST

/* The tests of plan p's list i as ids of g, space-separated. */
static void list_ids(char *out, size_t cap, const ut_graph *g, const ut_shard_plan *p, size_t i)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t j = 0; j < p->shards[i].n && used < cap; j++)
		used += (size_t)snprintf(out + used, cap - used, "%s ",
					 g->tests[p->shards[i].tests[j]].id);
}

/* The plan `shard --verify` published, written and read back as a plan file, replaces a
 * plan made with other durations: the same lists, counted with the new durations. */
START_TEST(shard_adopts_a_published_plan)
{
	ut_graph *g = make_graph(6, example_edges, 3), *other = make_graph(7, example_edges, 3);
	ut_graph *fewer = make_graph(5, example_edges, 3);
	ut_graph *unlinked = make_graph(6, example_edges + 1, 2);
	ut_shard_opts o6 = {6, false};
	ut_shard_plan six;
	const double later_d[] = {0.5, 0.5, 0.5, 0.5, 0.5, 9}, seven_d[] = {1, 1, 1, 1, 1, 1, 1};
	ut_shard_opts o = {2, false};
	ut_shard_plan verified, now, wrong;
	char a[128], b[128];
	ut_fingerprint fp;
	ut_plan_file pf;
	ut_buf out = UT_BUF_INIT;
	char *path = write_temp("");

	memset(&fp, 0, sizeof(fp));
	ck_assert_int_eq(ut_shard_plan_build(&verified, g, example_d, &o), 0);
	ck_assert_int_eq(ut_plan_file_write(&out, g, &verified, example_d, NULL, false, &fp), 0);
	ck_assert_int_eq(ut_fs_write_atomic(path, out.ptr, out.len), 0);
	ck_assert_int_eq(ut_plan_file_read(&pf, path), 0);
	ck_assert_int_eq(ut_shard_plan_build(&now, g, later_d, &o), 0);
	list_ids(a, sizeof(a), g, &verified, 0);
	list_ids(b, sizeof(b), g, &now, 0);
	ck_assert_str_ne(a, b); /* the new durations make another plan */
	ck_assert_int_eq(ut_shard_plan_adopt(&now, g, later_d, pf.g, &pf.plan), 0);
	assert_valid(g, &now);
	for (size_t i = 0; i < 2; i++) {
		list_ids(a, sizeof(a), g, &verified, i);
		list_ids(b, sizeof(b), g, &now, i);
		ck_assert_str_eq(a, b);
	}
	/* {t0 t1 t5} and {t2 t3 t4}, now 10 s and 1.5 s */
	ck_assert_str_eq(a, "t2 t3 t4 ");
	ck_assert_double_eq_tol(now.shards[0].cost_s, 10, 1e-9);
	ck_assert_double_eq_tol(now.makespan_s, 10, 1e-9);
	ck_assert_double_eq_tol(now.mean_s, 5.75, 1e-9);
	ck_assert_double_eq_tol(now.original_s, 11.5, 1e-9); /* the bounds are the new ones */
	ck_assert_uint_eq(now.nonempty, 2);
	ck_assert_uint_eq(now.repeats, 0);
	ck_assert_uint_eq(now.shards[1].ntargets, 2); /* t3 and t4: t2 is needed by both */
	ck_assert_uint_eq(now.shards[1].targets[0], 3);
	/* a plan of another suite is refused, and the plan stays as it was */
	ck_assert_int_eq(ut_shard_plan_build(&wrong, other, seven_d, &o), 0);
	ck_assert_int_eq(ut_shard_plan_adopt(&now, g, later_d, other, &wrong), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "'t6' is not a test of the graph");
	ut_shard_plan_dispose(&wrong);
	ck_assert_int_eq(ut_shard_plan_build(&wrong, fewer, example_d, &o), 0);
	ck_assert_int_eq(ut_shard_plan_adopt(&now, g, later_d, fewer, &wrong), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "it leaves 't5' out");
	ut_shard_plan_dispose(&wrong);
	/* lists that no longer hold a prerequisite (t1 needs t0 now, not then) */
	ck_assert_int_eq(ut_shard_plan_build(&wrong, unlinked, example_d, &o6), 0);
	ck_assert_int_eq(ut_shard_plan_build(&six, g, example_d, &o6), 0);
	ck_assert_int_eq(ut_shard_plan_adopt(&six, g, example_d, unlinked, &wrong), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "a list holds 't1' without 't0', which it needs");
	ut_shard_plan_dispose(&wrong);
	/* nor every earlier test of one detect left out */
	g->tests[3].flaky = true;
	ck_assert_int_eq(ut_shard_plan_adopt(&six, g, example_d, g, &six), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "a list holds 't3', which detect left out, without "
			 "every earlier test");
	g->tests[3].flaky = false;
	ck_assert_int_eq(ut_shard_plan_adopt(&six, g, example_d, g, &six), 0);
	ut_shard_plan_dispose(&six);
	o.nshards = 3;
	ck_assert_int_eq(ut_shard_plan_build(&wrong, g, example_d, &o), 0);
	ck_assert_int_eq(ut_shard_plan_adopt(&now, g, later_d, g, &wrong), UT_EINPUT);
	ut_shard_plan_dispose(&wrong);
	list_ids(b, sizeof(b), g, &now, 1);
	ck_assert_str_eq(b, "t2 t3 t4 ");
	ck_assert_double_eq_tol(now.makespan_s, 10, 1e-9);
	unlink(path);
	free(path);
	ut_buf_dispose(&out);
	ut_plan_file_dispose(&pf);
	ut_shard_plan_dispose(&now);
	ut_shard_plan_dispose(&verified);
	ut_graph_free(fewer);
	ut_graph_free(unlinked);
	ut_graph_free(other);
	ut_graph_free(g);
}
END_TEST

/* The list of plan p that holds test t, or -1; t in two lists fails. */
static long list_of(const ut_shard_plan *p, uint32_t t)
{
	long at = -1;

	for (size_t i = 0; i < p->nshards; i++)
		for (size_t j = 0; j < p->shards[i].n; j++)
			if (p->shards[i].tests[j] == t) {
				ck_assert_int_eq(at, -1);
				at = (long)i;
			}
	return at;
}

/* The issue-32 shape: t3 needs t0; t1 spoils t3 (outside its schedule); t2 is long. */
static const int spoil_edges[][2] = {{3, 0}};
static const double spoil_d[] = {2, 1, 5, 2};

START_TEST(shard_keeps_pairs_apart)
{
	ut_graph *g = make_graph(4, spoil_edges, 1);
	ut_shard_opts o = {2, false};
	ut_shard_plan p;

	/* the naive packing: {t2} 5 s, {t0 t1 t3} 5 s: t1 before t3 */
	ck_assert_int_eq(ut_shard_plan_build(&p, g, spoil_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_int_eq(list_of(&p, 1), list_of(&p, 3));
	ut_shard_plan_dispose(&p);
	ck_assert_int_eq(ut_graph_add_apart(g, 1, 3, 7, 8), 0);
	ck_assert_int_eq(ut_graph_add_apart(g, 1, 3, 9, 9), 0); /* once */
	ck_assert_uint_eq(g->apart.n, 1);
	ck_assert_int_eq(ut_graph_add_apart(g, 3, 1, 0, 0), UT_EINPUT);
	ck_assert_int_eq(ut_shard_plan_build(&p, g, spoil_d, &o), 0);
	assert_valid(g, &p);
	ck_assert_int_ne(list_of(&p, 1), list_of(&p, 3));
	ck_assert_uint_eq(p.apart_broken, 0);
	ck_assert_double_eq_tol(p.makespan_s, 6, 1e-9); /* {t1 t2}, {t0 t3} */
	ut_shard_plan_dispose(&p);
	/* one list cannot keep them apart: said, not hidden */
	o.nshards = 1;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, spoil_d, &o), 0);
	ck_assert_uint_eq(p.apart_broken, 1);
	ut_shard_plan_dispose(&p);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_splits_a_component_holding_a_pair)
{
	/* one component {t0..t3}: t2 needs t0, t3 needs t0 and t1; t1 spoils t2 */
	static const int edges[][2] = {{2, 0}, {3, 0}, {3, 1}};
	static const double d[] = {1, 1, 1, 1};
	ut_graph *g = make_graph(4, edges, 3);
	ut_shard_opts o = {2, false};
	ut_shard_plan p;

	ck_assert_int_eq(ut_graph_add_apart(g, 1, 2, 1, 2), 0);
	ck_assert_int_eq(ut_shard_plan_build(&p, g, d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.apart_broken, 0);
	ck_assert_int_ne(list_of(&p, 1), list_of(&p, 2));
	ck_assert_uint_eq(p.repeats, 1); /* t0 in both */
	ut_shard_plan_dispose(&p);
	/* a pair inside one test's schedule cannot be parted whatever the lists */
	ck_assert_int_eq(ut_graph_add_apart(g, 0, 1, 1, 2), 0);
	o.nshards = 3;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, d, &o), 0);
	assert_valid(g, &p);
	ck_assert_uint_eq(p.apart_broken, 1);
	ut_shard_plan_dispose(&p);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_random_pairs_apart_keep_order)
{
	unsigned seed = 32;

	for (int round = 0; round < 200; round++) {
		size_t n = 4 + (size_t)(rand_r(&seed) % 20), ne = 0, k = 2 + rand_r(&seed) % 3;
		int (*edges)[2] = malloc(n * 2 * sizeof(*edges));
		double *d = malloc(n * sizeof(*d));
		ut_shard_opts o = {k, false};
		ut_shard_plan p;
		ut_graph *g;

		for (size_t t = 1; t < n; t++)
			if (rand_r(&seed) % 3 == 0) {
				edges[ne][0] = (int)t;
				edges[ne++][1] = rand_r(&seed) % (int)t;
			}
		for (size_t t = 0; t < n; t++)
			d[t] = 0.5 + rand_r(&seed) % 5;
		g = make_graph(n, (const int(*)[2])edges, ne);
		for (int x = 0; x < 2; x++) {
			uint32_t a = rand_r(&seed) % (n - 1), b = a + 1 + rand_r(&seed) % (n - 1 - a);

			ck_assert_int_eq(ut_graph_add_apart(g, a, b, 1, 2), 0);
		}
		ck_assert_int_eq(ut_shard_plan_build(&p, g, d, &o), 0);
		assert_valid(g, &p); /* every list ascending: the original relative order */
		/* a pair is broken only where a single test's schedule holds both */
		if (p.apart_broken == 0)
			for (size_t x = 0; x < g->apart.n; x++)
				for (size_t i = 0; i < p.nshards; i++) {
					ut_shard sh = p.shards[i];
					bool fa = false, fb = false;

					for (size_t j = 0; j < sh.n; j++) {
						fa = fa || sh.tests[j] == g->apart.v[x].first;
						fb = fb || sh.tests[j] == g->apart.v[x].then;
					}
					ck_assert(!(fa && fb));
				}
		ut_shard_plan_dispose(&p);
		ut_graph_free(g);
		free(edges);
		free(d);
	}
}
END_TEST

START_TEST(graph_json_keeps_pairs_apart)
{
	ut_graph *g = make_graph(4, spoil_edges, 1), *back = NULL;
	ut_buf out = UT_BUF_INIT;
	const char *bad = "{\"version\": 1, \"tests\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n"
			  "\"apart\": [{\"first\": \"b\",\n \"then\": \"a\"}]}";

	ck_assert_int_eq(ut_graph_write_json(&out, g), 0);
	ck_assert_ptr_null(strstr(out.ptr, "apart")); /* none: the file as before */
	ck_assert_int_eq(ut_graph_add_apart(g, 1, 3, 12, 11), 0);
	out.len = 0;
	ck_assert_int_eq(ut_graph_write_json(&out, g), 0);
	ck_assert_int_eq(ut_graph_read_json(&back, out.ptr, out.len, "graph.json"), 0);
	ck_assert_uint_eq(back->apart.n, 1);
	ck_assert_uint_eq(back->apart.v[0].first, 1);
	ck_assert_uint_eq(back->apart.v[0].then, 3);
	ck_assert_int_eq(back->apart.v[0].failed_run, 12);
	ck_assert_int_eq(back->apart.v[0].passed_run, 11);
	ut_graph_free(back);
	back = NULL;
	ck_assert_int_eq(ut_graph_read_json(&back, bad, strlen(bad), "graph.json"), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "graph.json:2: 'apart' against the original"),
		      "%s", ut_error_message());
	ut_buf_dispose(&out);
	ut_graph_free(g);
}
END_TEST

/* An in-process runner for ut_shard_verify: t3 needs t0, and fails when t1 ran before it
 * after t0 (t2 restores nothing); every run counted. */
typedef struct {
	int runs;
	int broken_schedule; /* nonzero: t3 also needs t2, which the graph does not say */
	uint32_t target, need, spoiler; /* 0, 0, 0: t3, t0, t1 */
} spoil_sim;

static int spoil_run(void *ctx, int worker, const char *const *ids, const uint32_t *sched,
		     size_t n, ut_run_result *out)
{
	spoil_sim *s = ctx;
	bool ran[32] = {false};
	uint32_t target = s->target ? s->target : 3, spoiler = s->spoiler ? s->spoiler : 1;

	(void)worker;
	(void)ids;
	memset(out, 0, sizeof(*out));
	s->runs++;
	out->n = n;
	out->tests = calloc(n, sizeof(*out->tests));
	ck_assert_ptr_nonnull(out->tests);
	for (size_t i = 0; i < n; i++) {
		bool ok = sched[i] != target ||
			  (ran[s->need] && !ran[spoiler] && (!s->broken_schedule || ran[2]));

		out->tests[i].outcome = ok ? UT_OUT_PASS : UT_OUT_FAIL;
		ran[sched[i]] = true;
	}
	return 0;
}

static void verify_spoil(spoil_sim *sim, size_t nshards, ut_shard_verify_result *r,
			 ut_graph **gout)
{
	ut_graph *g = make_graph(4, spoil_edges, 1);
	char dir[] = "/tmp/ut-shardv-XXXXXX", *path;
	ut_shard_verify_opts vo;
	ut_shard_plan p;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = ut_path_join(dir, "shard-journal.jsonl");
	memset(&vo, 0, sizeof(vo));
	vo.plan.nshards = nshards;
	vo.journal_path = path;
	vo.detect.workers = 2;
	vo.detect.run = spoil_run;
	vo.detect.run_ctx = sim;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, spoil_d, &vo.plan), 0);
	ck_assert_int_eq(ut_shard_verify(r, &p, g, spoil_d, NULL, &vo), 0);
	assert_valid(g, &p);
	if (r->passed)
		ck_assert_int_ne(list_of(&p, 1), list_of(&p, 3));
	ut_shard_plan_dispose(&p);
	unlink(path);
	rmdir(dir);
	free(path);
	*gout = g;
}

START_TEST(shard_verify_finds_the_interfering_test)
{
	spoil_sim sim = {0, 0, 0, 0, 0};
	ut_shard_verify_result r;
	ut_graph *g = NULL;

	verify_spoil(&sim, 2, &r, &g);
	ck_assert(r.passed);
	ck_assert_uint_eq(r.rounds, 2);
	ck_assert_uint_eq(r.shards_failed, 1);
	ck_assert_uint_eq(r.found, 1);
	ck_assert_int_eq(r.unfixed, -1);
	ck_assert_uint_eq(g->apart.n, 1);
	ck_assert_uint_eq(g->apart.v[0].first, 1);
	ck_assert_uint_eq(g->apart.v[0].then, 3);
	ck_assert_int_gt(g->apart.v[0].failed_run, 0);
	ck_assert_int_gt(g->apart.v[0].passed_run, 0);
	/* 2 shards, t3's schedule alone, then 2 shards again */
	ck_assert_int_eq(sim.runs, 5);
	ut_graph_free(g);

	/* one list: the pair is found, but no plan can honour it */
	sim.runs = 0;
	verify_spoil(&sim, 1, &r, &g);
	ck_assert(!r.passed);
	ck_assert_uint_eq(r.found, 1);
	ck_assert_uint_eq(r.apart_broken, 1);
	ck_assert_int_eq(r.unfixed, 3);
	ut_graph_free(g);

	/* t3's own schedule fails: no pair, nothing recorded */
	sim.broken_schedule = 1;
	verify_spoil(&sim, 2, &r, &g);
	ck_assert(!r.passed);
	ck_assert_uint_eq(r.found, 0);
	ck_assert_int_eq(r.unfixed, 3);
	ck_assert_uint_eq(g->apart.n, 0);
	ut_graph_free(g);
}
END_TEST

START_TEST(shard_verify_bisects_the_earlier_tests)
{
	/* 16 tests in one list: t15 needs t0 and is spoiled by t9, one of 14 others */
	static const int edges[][2] = {{15, 0}};
	spoil_sim sim = {0, 0, 15, 0, 9};
	char dir[] = "/tmp/ut-shardv-XXXXXX", *path;
	ut_graph *g = make_graph(16, edges, 1);
	double d[16];
	ut_shard_verify_opts vo;
	ut_shard_verify_result r;
	ut_shard_plan p;

	for (size_t i = 0; i < 16; i++)
		d[i] = 1;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = ut_path_join(dir, "shard-journal.jsonl");
	memset(&vo, 0, sizeof(vo));
	vo.plan.nshards = 1;
	vo.journal_path = path;
	vo.detect.run = spoil_run;
	vo.detect.run_ctx = &sim;
	ck_assert_int_eq(ut_shard_plan_build(&p, g, d, &vo.plan), 0);
	ck_assert_int_eq(ut_shard_verify(&r, &p, g, d, NULL, &vo), 0);
	ck_assert_uint_eq(g->apart.n, 1);
	ck_assert_uint_eq(g->apart.v[0].first, 9);
	ck_assert_uint_eq(g->apart.v[0].then, 15);
	/* the shard, t15 after t0, then a bisection of 14 tests: 4 runs */
	ck_assert_int_eq(sim.runs, 6);
	ck_assert(!r.passed); /* one list cannot part them */
	ck_assert_uint_eq(r.apart_broken, 1);
	ut_shard_plan_dispose(&p);
	unlink(path);
	rmdir(dir);
	free(path);
	ut_graph_free(g);
}
END_TEST

Suite *shard_suite(void)
{
	Suite *s = suite_create("shard");
	TCase *tc = tcase_create("shard");

	tcase_add_test(tc, shard_balances_and_keeps_prerequisites);
	tcase_add_test(tc, timings_update_keeps_or_replaces_and_imports);
	tcase_add_test(tc, shard_per_sink_gives_the_thesis_schedules);
	tcase_add_test(tc, shard_left_out_tests_need_every_earlier_one);
	tcase_add_test(tc, shard_rejects_bad_input);
	tcase_add_test(tc, shard_random_graphs_are_valid_and_deterministic);
	tcase_add_test(tc, timings_file_then_graph_then_median);
	tcase_add_test(tc, drift_names_added_and_removed_tests);
	tcase_add_test(tc, fingerprint_names_changed_added_removed);
	tcase_add_test(tc, plan_file_round_trip);
	tcase_add_test(tc, shard_adopts_a_published_plan);
	tcase_add_test(tc, shard_keeps_pairs_apart);
	tcase_add_test(tc, shard_splits_a_component_holding_a_pair);
	tcase_add_test(tc, shard_random_pairs_apart_keep_order);
	tcase_add_test(tc, graph_json_keeps_pairs_apart);
	tcase_add_test(tc, shard_verify_finds_the_interfering_test);
	tcase_add_test(tc, shard_verify_bisects_the_earlier_tests);
	suite_add_tcase(s, tc);
	return s;
}
