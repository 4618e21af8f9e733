/* check_check.c: what `untangle check` makes of a change: classification of tests, the
 * edges carried over, the re-validation levels and the findings. Both versions of a small
 * pytest suite are written to folders and parsed for real. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "detect/detect.h"
#include "filter/candidates.h"
#include "parse/parse.h"
#include "report/findings.h"
#include "util/error.h"

Suite *check_suite(void);

static const char *const BASE[] = {
	"def test_add_user(driver):\n"
	"    driver.find_element(By.ID, \"email\").send_keys(\"jane@x.test\")\n",
	"def test_login_user(driver):\n"
	"    driver.find_element(By.ID, \"login\").send_keys(\"jane@x.test\")\n"
	"    assert driver.title == \"Boards\"\n",
	"def test_add_board(driver):\n"
	"    driver.find_element(By.ID, \"board\").send_keys(\"Sprint\")\n",
	"def test_share_board(driver):\n"
	"    driver.find_element(By.LINK_TEXT, \"Sprint\").click()\n",
};

enum { ADD_USER, LOGIN_USER, ADD_BOARD, SHARE_BOARD };

typedef struct {
	char dir[2][256];
	ut_suite *suite[2];
	ut_graph *base_graph;
	ut_check_input in;
	ut_check c;
} fixture;

static void write_suite(const char *dir, const char *const *tests, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/tests/test_s.py", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("from selenium.webdriver.common.by import By\n\n\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n\n", tests[i]);
	fclose(f);
}

static ut_suite *parse(const char *dir)
{
	ut_parse_opts po;
	ut_diags d;
	ut_suite *s = NULL;

	memset(&po, 0, sizeof(po));
	po.root = dir;
	po.language = UT_LANG_NONE;
	po.paths = (const char *const[]){dir};
	po.npaths = 1;
	ut_diags_init(&d);
	ck_assert_msg(ut_parse_suite(&s, &po, &d) == 0, "%s (%s)", ut_error_message(),
		      d.items.n ? d.items.v[0].message : "no diagnostics");
	ut_diags_dispose(&d);
	return s;
}

/* The base suite with its graph (login -> add_user, share -> add_board) and a head suite
 * made of the given tests; prepared. */
static void setup(fixture *fx, const char *const *head, size_t nhead, bool candidates)
{
	static ut_graph *cand;
	ut_candidates_report rep;
	ut_candidates_opts co;
	ut_edge *e;

	memset(fx, 0, sizeof(*fx));
	for (int k = 0; k < 2; k++) {
		snprintf(fx->dir[k], sizeof(fx->dir[k]), "%s/untangle-check-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		ck_assert_ptr_nonnull(mkdtemp(fx->dir[k]));
	}
	write_suite(fx->dir[0], BASE, 4);
	write_suite(fx->dir[1], head, nhead);
	fx->suite[0] = parse(fx->dir[0]);
	fx->suite[1] = parse(fx->dir[1]);
	ck_assert_uint_eq(fx->suite[0]->tests.n, 4);
	ck_assert_int_eq(ut_graph_new(&fx->base_graph, 4), 0);
	for (size_t i = 0; i < 4; i++) {
		const ut_test *t = &fx->suite[0]->tests.v[i];

		ck_assert_int_eq(ut_graph_set_test(fx->base_graph, i, t->id, t->name, t->file,
						   t->line, t->end_line), 0);
		fx->base_graph->tests[i].duration_s = 1.5;
	}
	ck_assert_int_eq(ut_graph_add(fx->base_graph, LOGIN_USER, ADD_USER, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_graph_add(fx->base_graph, SHARE_BOARD, ADD_BOARD, UT_ORIGIN_STRING, &e),
			 0);
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_graph_add_apart(fx->base_graph, ADD_USER, SHARE_BOARD, 3, 2), 0);
	ck_assert_int_eq(ut_graph_add_apart(fx->base_graph, LOGIN_USER, SHARE_BOARD, 5, 4), 0);
	cand = NULL;
	if (candidates) {
		memset(&co, 0, sizeof(co));
		memset(&rep, 0, sizeof(rep));
		ck_assert_int_eq(ut_candidates_build(&cand, &rep, fx->suite[1], &co), 0);
		ut_candidates_report_dispose(&rep);
	}
	fx->in.base = (ut_check_side){fx->suite[0], fx->dir[0]};
	fx->in.head = (ut_check_side){fx->suite[1], fx->dir[1]};
	fx->in.base_graph = fx->base_graph;
	fx->in.candidates = cand;
	fx->in.repo_prefix = "e2e/";
	ck_assert_int_eq(ut_check_prepare(&fx->c, &fx->in), 0);
}

static void teardown(fixture *fx)
{
	ut_check_dispose(&fx->c);
	ut_graph_free((ut_graph *)fx->in.candidates);
	ut_graph_free(fx->base_graph);
	for (int k = 0; k < 2; k++) {
		char path[512];

		ut_suite_free(fx->suite[k]);
		snprintf(path, sizeof(path), "%s/tests/test_s.py", fx->dir[k]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/tests", fx->dir[k]);
		rmdir(path);
		rmdir(fx->dir[k]);
	}
}

static bool manifest(const ut_graph *g, uint32_t a, uint32_t b)
{
	ut_edge *e = ut_graph_find((ut_graph *)g, a, b);

	return e && e->status == UT_EDGE_MANIFEST;
}

START_TEST(unchanged_keeps_everything)
{
	fixture fx;
	/* blank space inside a test does not count */
	const char *head[] = {BASE[0], BASE[1],
			      "def test_add_board(driver):\n\n"
			      "    driver.find_element(By.ID,   \"board\").send_keys(\"Sprint\")\n",
			      BASE[3]};

	setup(&fx, head, 4, false);
	for (size_t i = 0; i < 4; i++) {
		ck_assert_int_eq(fx.c.head[i].kind, UT_CHANGE_SAME);
		ck_assert_int_eq(fx.c.revalidate[i], UT_REVALIDATE_KEEP);
	}
	ck_assert_uint_eq(ut_check_affected(&fx.c), 0);
	ck_assert(manifest(fx.c.graph, LOGIN_USER, ADD_USER));
	ck_assert(manifest(fx.c.graph, SHARE_BOARD, ADD_BOARD));
	ck_assert_uint_eq(fx.c.graph->edges.n, 2);
	ck_assert_uint_eq(fx.c.graph->apart.n, 2); /* pairs kept apart stay */
	ck_assert_int_eq(fx.c.graph->apart.v[1].passed_run, 4);
	ck_assert(fx.c.graph->tests[ADD_BOARD].duration_s == 1.5);
	ck_assert_uint_eq(fx.c.pre.v.n, 0);
	teardown(&fx);
}
END_TEST

/* fs initialised and filled from fx's check; the number of findings. */
static size_t concluded(fixture *fx, ut_findings *fs)
{
	ut_findings_init(fs);
	ck_assert_int_eq(ut_check_conclude(&fx->c, fs, NULL), 0);
	return fs->v.n;
}

START_TEST(removed_prerequisite_is_one_root_cause)
{
	fixture fx;
	const char *head[] = {BASE[1], BASE[2], BASE[3]};
	ut_findings fs;

	setup(&fx, head, 3, false);
	ck_assert_uint_eq(fx.c.count[UT_CHANGE_REMOVED], 1);
	ck_assert_int_eq(fx.c.base[ADD_USER].kind, UT_CHANGE_REMOVED);
	ck_assert_int_eq(fx.c.revalidate[0], UT_REVALIDATE_VERIFY); /* login lost its edge */
	ck_assert_ptr_null(ut_graph_find(fx.c.graph, 0, 0));
	ck_assert(manifest(fx.c.graph, 2, 1)); /* share -> add_board, moved up by one */
	/* the pair with the removed test goes, the other moves up with its tests */
	ck_assert_uint_eq(fx.c.graph->apart.n, 1);
	ck_assert_uint_eq(fx.c.graph->apart.v[0].first, 0);
	ck_assert_uint_eq(fx.c.graph->apart.v[0].then, 2);
	/* no finding of its own for the dependent: one loss, the root cause */
	ck_assert_uint_eq(fx.c.pre.v.n, 0);
	ck_assert_uint_eq(fx.c.losses.n, 1);
	ck_assert_int_eq(fx.c.losses.v[0].base, ADD_USER);
	ck_assert_int_eq(fx.c.losses.v[0].head, -1);
	ck_assert_uint_eq(fx.c.losses.v[0].direct.n, 1);
	ck_assert_uint_eq(fx.c.losses.v[0].direct.v[0], 0);
	ck_assert_int_eq(fx.c.lost[0], UT_LOST_UNKNOWN); /* nothing ran */
	ck_assert_uint_eq(concluded(&fx, &fs), 1);
	ck_assert_int_eq(fs.v.v[0].kind, UT_FINDING_REMOVED);
	ck_assert(ut_finding_is_root(&fs.v.v[0]));
	ck_assert_int_eq(fs.v.v[0].severity, UT_SEVERITY_ERROR);
	ck_assert_str_eq(fs.v.v[0].test, "tests/test_s.py::test_add_user");
	/* on its dependent's lines in the head version, where the break shows */
	ck_assert_str_eq(fs.v.v[0].file, "e2e/tests/test_s.py");
	ck_assert_uint_eq(fs.v.v[0].line, 4);
	ck_assert_uint_eq(fs.v.v[0].end_line, 6);
	ck_assert_uint_eq(fs.v.v[0].ndependents, 1);
	ck_assert_str_eq(fs.v.v[0].dependents[0].id, "tests/test_s.py::test_login_user");
	ck_assert_uint_eq(fs.v.v[0].dependents[0].line, 4);
	ck_assert_ptr_nonnull(strstr(fs.v.v[0].message, "is removed by this change"));
	ck_assert_ptr_nonnull(strstr(fs.v.v[0].message, "gave no verdict"));
	ut_findings_dispose(&fs);

	/* What ut_check_settle_lost may leave: broken (left out), folded into the cause; a
	 * stand-in the search did not find keeps its own broken-dependency error; passing
	 * without it is a warning and nothing else. */
	static const struct {
		int state;
		bool failing;
		size_t n;
		ut_severity severity;
		const char *says;
	} after[] = {
	    {UT_LOST_BROKEN, true, 1, UT_SEVERITY_ERROR, "no other test stands in"},
	    {UT_LOST_STANDIN, true, 2, UT_SEVERITY_WARNING, "stands in for it"},
	    {UT_LOST_PASSES, false, 1, UT_SEVERITY_WARNING, "no longer needs it"},
	};
	for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++) {
		fx.c.lost[0] = (unsigned char)after[k].state;
		fx.c.graph->tests[0].failing = after[k].failing;
		ck_assert_uint_eq(concluded(&fx, &fs), after[k].n);
		ck_assert(ut_finding_is_root(&fs.v.v[0]));
		ck_assert_int_eq(fs.v.v[0].severity, after[k].severity);
		ck_assert_ptr_nonnull(strstr(fs.v.v[0].message, after[k].says));
		if (after[k].n == 2) {
			ck_assert_int_eq(fs.v.v[1].kind, UT_FINDING_BROKEN);
			ck_assert_str_eq(fs.v.v[1].test, "tests/test_s.py::test_login_user");
		}
		ut_findings_dispose(&fs);
	}
	teardown(&fx);
}
END_TEST

START_TEST(renamed_prerequisite_keeps_its_edges)
{
	fixture fx;
	const char *head[] = {BASE[0], BASE[1],
			      "def test_create_board(driver):\n"
			      "    driver.find_element(By.ID, \"board\").send_keys(\"Sprint\")\n",
			      BASE[3]};
	ut_findings fs;

	setup(&fx, head, 4, false);
	ck_assert_int_eq(fx.c.head[ADD_BOARD].kind, UT_CHANGE_RENAMED);
	ck_assert_int_eq(fx.c.head[ADD_BOARD].other, ADD_BOARD);
	ck_assert_uint_eq(fx.c.count[UT_CHANGE_REMOVED], 0);
	ck_assert(manifest(fx.c.graph, SHARE_BOARD, ADD_BOARD));
	ck_assert_int_eq(fx.c.revalidate[ADD_BOARD], UT_REVALIDATE_VERIFY);
	ck_assert_uint_eq(fx.c.pre.v.n, 0);
	ck_assert_uint_eq(fx.c.losses.n, 1);
	ck_assert_int_eq(fx.c.losses.v[0].head, ADD_BOARD);
	ck_assert_uint_eq(concluded(&fx, &fs), 1);
	ck_assert(ut_finding_is_root(&fs.v.v[0]));
	ck_assert_int_eq(fs.v.v[0].severity, UT_SEVERITY_ERROR);
	ck_assert_str_eq(fs.v.v[0].test, "tests/test_s.py::test_create_board");
	ck_assert_str_eq(fs.v.v[0].dependents[0].id, "tests/test_s.py::test_share_board");
	ck_assert_ptr_nonnull(strstr(fs.v.v[0].message, "is renamed to"));
	ut_findings_dispose(&fs);
	teardown(&fx);
}
END_TEST

START_TEST(modified_test_is_verified_with_its_edges)
{
	fixture fx;
	const char *head[] = {BASE[0],
			      "def test_login_user(driver):\n"
			      "    driver.find_element(By.ID, \"login\").send_keys(\"jane@y.test\")\n"
			      "    assert driver.title == \"Boards\"\n",
			      BASE[2], BASE[3]};

	setup(&fx, head, 4, false);
	ck_assert_int_eq(fx.c.head[LOGIN_USER].kind, UT_CHANGE_MODIFIED);
	ck_assert_int_eq(fx.c.revalidate[LOGIN_USER], UT_REVALIDATE_VERIFY);
	ck_assert_int_eq(fx.c.revalidate[ADD_USER], UT_REVALIDATE_KEEP);
	ck_assert(manifest(fx.c.graph, LOGIN_USER, ADD_USER));
	ck_assert_uint_eq(ut_check_affected(&fx.c), 1);
	teardown(&fx);
}
END_TEST

START_TEST(added_test_is_searched_from_its_candidates)
{
	fixture fx;
	const char *head[] = {BASE[0], BASE[1], BASE[2], BASE[3],
			      "def test_delete_board(driver):\n"
			      "    driver.find_element(By.LINK_TEXT, \"Sprint\").click()\n"
			      "    driver.find_element(By.ID, \"delete\").click()\n"};
	ut_findings fs;
	ut_edge *e;

	setup(&fx, head, 5, true);
	ck_assert_int_eq(fx.c.head[4].kind, UT_CHANGE_ADDED);
	ck_assert_int_eq(fx.c.revalidate[4], UT_REVALIDATE_SEARCH);
	ck_assert_uint_eq(ut_check_affected(&fx.c), 1);
	e = ut_graph_find(fx.c.graph, 4, ADD_BOARD); /* it uses "Sprint", which add_board submits */
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->status, UT_EDGE_CANDIDATE);
	/* Candidates of unaffected tests are not copied: their edges stand as validated. */
	ck_assert_uint_eq(fx.c.graph->edges.n, 3);
	/* what validation would do: prove the edge, and find another test failing */
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_graph_add_evidence(e, 7), 0);
	fx.c.graph->tests[SHARE_BOARD].failing = true;
	ut_findings_init(&fs);
	ck_assert_int_eq(ut_check_conclude(&fx.c, &fs, (long[]){0, 0, 0, 9, 0}), 0);
	ck_assert_uint_eq(fs.v.n, 2);
	ck_assert_int_eq(fs.v.v[0].kind, UT_FINDING_BROKEN); /* errors first */
	ck_assert_str_eq(fs.v.v[0].test, "tests/test_s.py::test_share_board");
	ck_assert_uint_eq(fs.v.v[0].nevidence, 1);
	ck_assert_int_eq(fs.v.v[0].evidence[0], 9);
	ck_assert_str_eq(fs.v.v[0].related[0].id, "tests/test_s.py::test_add_board");
	ck_assert_int_eq(fs.v.v[1].kind, UT_FINDING_NEW_EDGE);
	ck_assert_int_eq(fs.v.v[1].severity, UT_SEVERITY_WARNING);
	ck_assert_str_eq(fs.v.v[1].test, "tests/test_s.py::test_delete_board");
	ck_assert_int_eq(fs.v.v[1].evidence[0], 7);
	ck_assert_ptr_nonnull(strstr(fs.v.v[1].message, "'Sprint'"));
	ut_findings_dispose(&fs);
	teardown(&fx);
}
END_TEST

START_TEST(reorder_before_prerequisite_is_an_error)
{
	fixture fx;
	const char *head[] = {BASE[0], BASE[1], BASE[3], BASE[2]};

	setup(&fx, head, 4, false);
	/* one of the two moved; the fewest moves explain the new order */
	ck_assert_uint_eq(fx.c.count[UT_CHANGE_REORDERED], 1);
	ck_assert_ptr_null(ut_graph_find(fx.c.graph, 3, 2));
	ck_assert_uint_eq(fx.c.pre.v.n, 1);
	ck_assert_int_eq(fx.c.pre.v.v[0].kind, UT_FINDING_REORDER);
	ck_assert_str_eq(fx.c.pre.v.v[0].test, "tests/test_s.py::test_share_board");
	ck_assert_int_eq(fx.c.revalidate[2], UT_REVALIDATE_VERIFY);
	ck_assert(manifest(fx.c.graph, LOGIN_USER, ADD_USER));
	teardown(&fx);
}
END_TEST

Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tc = tcase_create("classify");

	tcase_add_test(tc, unchanged_keeps_everything);
	tcase_add_test(tc, removed_prerequisite_is_one_root_cause);
	tcase_add_test(tc, renamed_prerequisite_keeps_its_edges);
	tcase_add_test(tc, modified_test_is_verified_with_its_edges);
	tcase_add_test(tc, added_test_is_searched_from_its_candidates);
	tcase_add_test(tc, reorder_before_prerequisite_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}
