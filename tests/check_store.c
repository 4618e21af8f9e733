/* check_store.c: the .untangle/ owner (src/store): recording a validated graph (graph,
 * timings, what was written), the lock with the leftovers of a killed untangle, and the
 * journal opened with the suite's header. The note is tested with a repository in
 * check_git.c (check_run_records_as_detect_does). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graph/graph_json.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ut-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0); /* Check forks each test: the folder is its own */
}

static void teardown(void)
{
	ut_fs_remove_tree(dir);
}

/* t.py::a (1.25 s), t.py::b (not measured), b -> a manifest */
static ut_graph *two_tests(void)
{
	ut_graph *g = NULL;
	ut_edge *e = NULL;

	ck_assert_int_eq(ut_graph_new(&g, 2), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 0, "t.py::a", "a", "t.py", 1, 2), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 1, "t.py::b", "b", "t.py", 3, 4), 0);
	g->tests[0].duration_s = 1.25;
	g->tests[1].duration_s = -1;
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	return g;
}

static const char *read_text(ut_buf *b, const char *path)
{
	ut_buf_clear(b);
	ck_assert_msg(ut_fs_read(b, path, 1 << 16) == 0, "%s", ut_error_message());
	return b->ptr;
}

/* The graph and its measured durations; replace or keep the file's other entries. */
START_TEST(record_writes_graph_then_timings)
{
	ut_store_dest d = {".untangle/graph.json", ".untangle/timings.json", false,
			   NULL, NULL, NULL};
	ut_graph *g = two_tests(), *back = NULL;
	ut_buf b = UT_BUF_INIT;
	unsigned wrote = 99;

	ck_assert_int_eq(ut_fs_mkdirs(".untangle"), 0);
	ck_assert_int_eq(ut_fs_write_atomic(d.timings, "{\"gone\": 9}", 11), 0);
	ck_assert_msg(ut_store_record_detection(g, &d, &wrote) == 0, "%s", ut_error_message());
	ck_assert_uint_eq(wrote, UT_STORE_WROTE_GRAPH | UT_STORE_WROTE_TIMINGS);
	ck_assert_int_eq(ut_store_graph_load(&back, d.graph), 0);
	ck_assert_uint_eq(back->ntests, 2);
	ck_assert_ptr_nonnull(ut_graph_find(back, 1, 0));
	read_text(&b, d.timings);
	/* detect's way: the graph's durations replace the file; b was not measured */
	ck_assert_msg(strstr(b.ptr, "\"t.py::a\": 1.25") && !strstr(b.ptr, "t.py::b") &&
			      !strstr(b.ptr, "gone"), "%s", b.ptr);
	/* check's way: over the file's other entries */
	ck_assert_int_eq(ut_fs_write_atomic(d.timings, "{\"gone\": 9}", 11), 0);
	d.keep_timings = true;
	ck_assert_int_eq(ut_store_record_detection(g, &d, NULL), 0);
	read_text(&b, d.timings);
	ck_assert_msg(strstr(b.ptr, "\"t.py::a\": 1.25") && strstr(b.ptr, "\"gone\": 9"), "%s",
		      b.ptr);
	/* no timings path: the graph only */
	d.timings = NULL;
	ck_assert_int_eq(ut_store_record_detection(g, &d, &wrote), 0);
	ck_assert_uint_eq(wrote, UT_STORE_WROTE_GRAPH);
	ut_buf_dispose(&b);
	ut_graph_free(back);
	ut_graph_free(g);
}
END_TEST

/* The first failure stops the record: a graph that cannot be written, no timings. */
START_TEST(record_stops_at_the_first_failure)
{
	ut_store_dest d = {"missing/graph.json", "timings.json", false, NULL, NULL, NULL};
	ut_graph *g = two_tests();
	unsigned wrote = 99;

	ck_assert_int_eq(ut_store_record_detection(g, &d, &wrote), UT_EENV);
	ck_assert_uint_eq(wrote, 0);
	ck_assert(!ut_fs_exists("timings.json"));
	ut_graph_free(g);
}
END_TEST

/* A missing graph says to run detect. */
START_TEST(graph_load_missing_says_detect)
{
	ut_graph *g = NULL;

	ck_assert_int_eq(ut_store_graph_load(&g, "none/graph.json"), UT_ENOTFOUND);
	ck_assert_ptr_null(g);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "untangle detect"));
}
END_TEST

/* The lock makes .untangle, removes what a dead untangle was writing (not the files of
 * a live one) and refuses a second holder. */
START_TEST(lock_takes_the_folder_and_clears_leftovers)
{
	char dead[64], live[64];
	int fd = -1, second = -1;
	size_t removed = 0;
	pid_t child = fork();

	if (child == 0)
		_exit(0);
	ck_assert_int_gt(child, 0);
	ck_assert_int_eq(waitpid(child, NULL, 0), child);
	ck_assert_int_eq(ut_fs_mkdirs(UT_STORE_DIR), 0);
	snprintf(dead, sizeof(dead), "%s.tmp.%ld", UT_STORE_TIMINGS, (long)child);
	snprintf(live, sizeof(live), "%s.tmp.%ld", UT_STORE_TIMINGS, (long)getppid());
	ck_assert_int_eq(ut_fs_write_atomic(dead, "x", 1), 0);
	ck_assert_int_eq(ut_fs_write_atomic(live, "x", 1), 0);
	ck_assert_msg(ut_store_lock(&fd, "detect", &removed) == 0, "%s", ut_error_message());
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(removed, 1);
	ck_assert(!ut_fs_exists(dead));
	ck_assert(ut_fs_exists(live));
	ck_assert_int_eq(ut_store_lock(&second, "check", NULL), UT_EENV);
	ck_assert_int_eq(second, -1);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "`untangle detect`"));
	close(fd);
}
END_TEST

/* The journal's header names the suite (its ids in order): a resume of another suite is
 * refused. */
START_TEST(journal_open_fingerprints_the_suite)
{
	ut_config cfg;
	ut_store_journal_opts o = {"journal.jsonl", UT_JOURNAL_NEW, "fast", "string-analysis",
				   "none", 0, &cfg};
	ut_arena a = UT_ARENA_INIT;
	ut_journal *j = NULL;
	ut_graph *g = two_tests();
	ut_buf b = UT_BUF_INIT;

	ut_config_init(&cfg);
	ck_assert_msg(ut_store_journal_open(&j, &a, g, &o) == 0, "%s", ut_error_message());
	ut_journal_close(j);
	ck_assert_ptr_nonnull(strstr(read_text(&b, "journal.jsonl"), "\"suite\":\"2-"));
	o.mode = UT_JOURNAL_RESUME;
	ck_assert_int_eq(ut_store_journal_open(&j, &a, g, &o), 0);
	ut_journal_close(j);
	ck_assert_int_eq(ut_graph_set_test(g, 1, "t.py::c", "c", "t.py", 3, 4), 0);
	ck_assert_int_eq(ut_store_journal_open(&j, &a, g, &o), UT_EINPUT);
	ck_assert_ptr_null(j);
	ut_buf_dispose(&b);
	ut_graph_free(g);
	ut_arena_dispose(&a);
	ut_config_dispose(&cfg);
}
END_TEST

Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, record_writes_graph_then_timings);
	tcase_add_test(tc, record_stops_at_the_first_failure);
	tcase_add_test(tc, graph_load_missing_says_detect);
	tcase_add_test(tc, lock_takes_the_folder_and_clears_leftovers);
	tcase_add_test(tc, journal_open_fingerprints_the_suite);
	suite_add_tcase(s, tc);
	return s;
}
