/* check_collect.c: the runner's list (docs/collection.md) read and joined with the static
 * reading: ids and order from the runner, actions from the sources, each way of joining,
 * and what only one side knows named in warnings. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/collect.h"
#include "parse/parse.h"
#include "runner/runner.h"
#include "util/error.h"

/* Three tests; the second and third have titles known only at run time. */
static const char spec[] =
	"const ENV = process.env.ENV;\n"                        /* 1 */
	"describe('Boards', function () {\n"                   /* 2 */
	"  it('adds a board', function () {\n"                 /* 3 */
	"    driver.findElement(By.id('name')).sendKeys('b1');\n"
	"  });\n"
	"  it(`on ${ENV} adds a user`, function () {\n"        /* 6 */
	"    driver.findElement(By.id('user')).sendKeys('u1');\n"
	"  });\n"
	"  it('third ' + ENV, function () {\n"                 /* 9 */
	"    driver.findElement(By.id('x')).sendKeys('b1');\n"
	"  });\n"
	"});\n";

static char dir[] = "/tmp/ut-collect-XXXXXX";
static char path[80];
static ut_suite *suite;
static ut_diags diags;
static ut_listing listing;

static void setup(void)
{
	strcpy(dir, "/tmp/ut-collect-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lisuite->origin.jsonl", dir);
	ut_diags_init(&diags);
	ut_listing_init(&listing);
	ck_assert_int_eq(ut_parse_buffer(&suite, UT_LANG_JAVASCRIPT, "test/spec.js", spec,
					 strlen(spec), &diags),
			 0);
	ck_assert_uint_eq(suite->tests.n, 3);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
	ut_suite_free(suite);
	ut_listing_dispose(&listing);
	ut_diags_dispose(&diags);
}

static int read_list(const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return ut_listing_read(&listing, path, "/project/", &diags);
}

static const ut_test *at(size_t i)
{
	ck_assert_uint_lt(i, suite->tests.n);
	return &suite->tests.v[i];
}

static bool warned(const char *needle)
{
	size_t i;

	for (i = 0; i < diags.items.n; i++)
		if (strstr(diags.items.v[i].message, needle))
			return true;
	return false;
}

START_TEST(test_runner_ids_and_order_sources_actions)
{
	/* the runner's order, its evaluated titles; one joined by id, one by the ${...}
	 * pattern, one by its line */
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards third staging\",\"file\":\"test/spec.js\","
		"\"line\":9,\"name\":\"third staging\"}\n"
		"\n"
		"{\"id\":\"test/spec.js::Boards on staging adds a user\",\"file\":"
		"\"/project/test/spec.js\",\"name\":\"on staging adds a user\"}\n"
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n"),
		0);
	ck_assert_uint_eq(listing.tests.n, 3);
	ck_assert_str_eq(listing.tests.v[1].file, "test/spec.js"); /* made relative */
	ck_assert_int_eq(ut_collect_join(suite, &listing, NULL, 0, &diags), 0);
	ck_assert_uint_eq(suite->tests.n, 3);
	ck_assert_str_eq(at(0)->id, "test/spec.js::Boards third staging");
	ck_assert_str_eq(at(0)->name, "third staging");
	ck_assert_uint_eq(at(0)->index, 0);
	ck_assert_uint_eq(at(0)->line, 9);
	ck_assert_uint_eq(at(0)->nactions, 2);
	ck_assert_str_eq(at(1)->id, "test/spec.js::Boards on staging adds a user");
	ck_assert_uint_eq(at(1)->line, 6);
	ck_assert_str_eq(at(1)->actions[at(1)->nactions - 1].values[0], "u1");
	ck_assert_str_eq(at(2)->id, "test/spec.js::Boards adds a board");
	ck_assert_uint_eq(at(2)->index, 2);
	ck_assert_uint_eq(suite->origin.listed, 3);
	ck_assert_uint_eq(suite->origin.by_id, 1);
	ck_assert_uint_eq(suite->origin.by_place, 2);
	ck_assert_uint_eq(suite->origin.runner_only + suite->origin.static_only, 0);
	ck_assert_uint_eq(diags.items.n, 0);
}
END_TEST

START_TEST(test_position_when_nothing_else_tells)
{
	/* no lines, titles that match no pattern: the two left in the file pair in order */
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"test/spec.js::B x\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"test/spec.js::B y\",\"file\":\"test/spec.js\"}\n"),
		0);
	ck_assert_int_eq(ut_collect_join(suite, &listing, NULL, 0, &diags), 0);
	ck_assert_str_eq(at(1)->id, "test/spec.js::B x");
	ck_assert_uint_eq(at(1)->line, 6);
	ck_assert_uint_eq(at(2)->line, 9);
	ck_assert_uint_eq(suite->origin.by_place, 2);
}
END_TEST

START_TEST(test_one_side_only_is_named)
{
	/* a runner-only test (another file) is kept without actions; the two static tests
	 * no listed test stands for are left out; both named */
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"test/gen.js::made at load\",\"file\":\"test/gen.js\",\"line\":4}\n"
		"{\"error\":\"SyntaxError: nope\",\"file\":\"test/broken.js\",\"line\":2}\n"),
		0);
	ck_assert_uint_eq(listing.errors, 1);
	ck_assert_int_eq(ut_collect_join(suite, &listing, NULL, 0, &diags), 0);
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(at(1)->id, "test/gen.js::made at load");
	ck_assert_str_eq(at(1)->file, "test/gen.js");
	ck_assert_uint_eq(at(1)->line, 4);
	ck_assert_uint_eq(at(1)->nactions, 0);
	ck_assert_int_eq(at(1)->language, UT_LANG_JAVASCRIPT);
	ck_assert_uint_eq(suite->origin.runner_only, 1);
	ck_assert_uint_eq(suite->origin.static_only, 2);
	ck_assert(warned("could not collect this file: SyntaxError: nope"));
	ck_assert(warned("'test/gen.js::made at load': collected by the runner but not found"));
	ck_assert(warned("'test/spec.js::Boards on ${ENV} adds a user': read in the sources"));
}
END_TEST

START_TEST(test_pending_tests_are_left_out_quietly)
{
	/* the runner skips "adds a board" and a test no source has: both left out, counted,
	 * nothing warned */
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\","
		"\"pending\":true}\n"
		"{\"id\":\"test/spec.js::Boards skipped\",\"file\":\"test/spec.js\",\"pending\":true}\n"
		"{\"id\":\"test/spec.js::Boards on staging adds a user\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"test/spec.js::Boards third staging\",\"file\":\"test/spec.js\"}\n"),
		0);
	ck_assert_int_eq(ut_collect_join(suite, &listing, NULL, 0, &diags), 0);
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_uint_eq(suite->origin.pending, 2);
	ck_assert_uint_eq(suite->origin.listed, 2);
	ck_assert_uint_eq(suite->origin.static_only + suite->origin.runner_only, 0);
	ck_assert_uint_eq(diags.items.n, 0);
	ck_assert_str_eq(at(1)->id, "test/spec.js::Boards third staging");
	ck_assert_uint_eq(at(1)->line, 9);
}
END_TEST

START_TEST(test_paths_filter_the_list)
{
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"other/x.js::x\",\"file\":\"other/x.js\"}\n"),
		0);
	ck_assert_int_eq(ut_collect_join(suite, &listing, (const char *[]){"./test/"}, 1, &diags),
			 0);
	ck_assert_uint_eq(suite->origin.listed, 1);
	ck_assert_uint_eq(suite->tests.n, 1);
	ck_assert_str_eq(at(0)->id, "test/spec.js::Boards adds a board");
}
END_TEST

START_TEST(test_bad_lists_name_the_line)
{
	ck_assert_int_eq(read_list("{\"id\":\"a\"}\nnot json\n"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "lisuite->origin.jsonl:2: not valid JSON"));
	ut_listing_dispose(&listing);
	ut_listing_init(&listing);
	ck_assert_int_eq(read_list("{\"id\":\"a\"}\n{\"id\":\"a\"}\n"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), ":2: the id 'a' is listed twice"));
	ut_listing_dispose(&listing);
	ut_listing_init(&listing);
	ck_assert_int_eq(read_list("{\"name\":\"a\"}\n"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), ":1: a test without a string \"id\""));
	ut_listing_dispose(&listing);
	ut_listing_init(&listing);
	ck_assert_int_eq(read_list("[1]\n"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), ":1: expected a JSON object"));
}
END_TEST

START_TEST(test_static_mode_and_no_runner_keep_the_sources)
{
	ut_config cfg;
	const ut_suite_origin *info;

	ut_config_init(&cfg);
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, NULL, dir, NULL, 0, &diags), 0);
	info = &suite->origin;
	ck_assert(!info->runner);
	ck_assert_ptr_nonnull(strstr(info->why, "no untangle.json"));
	/* the two ids with a run-time part are named: no runner would accept them */
	ck_assert(warned("'test/spec.js::Boards on ${ENV} adds a user': its title is known only "
			 "when the tests run (2 tests so)"));
	cfg.path = "untangle.json";
	cfg.runner.preset = "mocha";
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, "static", dir, NULL, 0, &diags), 0);
	ck_assert(!info->runner);
	ck_assert_ptr_nonnull(strstr(info->why, "--collect static"));
	ck_assert_uint_eq(suite->tests.n, 3);
	ut_config_dispose(&cfg);
}
END_TEST

START_TEST(test_files_counted_once_each)
{
	/* an order that goes back to a file does not count it twice */
	ck_assert_int_eq(read_list(
		"{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n"
		"{\"id\":\"test/gen.js::a\",\"file\":\"test/gen.js\"}\n"
		"{\"id\":\"test/spec.js::Boards third staging\",\"file\":\"test/spec.js\",\"line\":9}\n"),
		0);
	ck_assert_int_eq(ut_collect_join(suite, &listing, NULL, 0, &diags), 0);
	ck_assert_uint_eq(suite->tests.n, 3);
	ck_assert_uint_eq(ut_suite_count_files(suite), 2);
}
END_TEST

/* The list command through the runner (ut_runner_list): a command that copies a list,
 * one that writes an empty list, one that fails. */
START_TEST(test_list_command_end_to_end)
{
	const char *command[] = {"true", "{report}", "{tests}"};
	const char *copy[] = {"/bin/cp", "given.jsonl", "{list}"};
	const char *empty[] = {"/usr/bin/touch", "{list}"};
	const char *fails[] = {"/bin/false", "{list}"};
	char *old = getcwd(NULL, 0);
	ut_config cfg;
	FILE *f;

	ck_assert_int_eq(chdir(dir), 0);
	f = fopen("given.jsonl", "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"id\":\"test/spec.js::Boards adds a board\",\"file\":\"test/spec.js\"}\n", f);
	fclose(f);
	ut_config_init(&cfg);
	cfg.path = "untangle.json";
	cfg.runner.command.items = command;
	cfg.runner.command.n = 3;
	cfg.runner.list.items = copy;
	cfg.runner.list.n = 3;
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, NULL, "work", NULL, 0, &diags), 0);
	ck_assert(suite->origin.runner);
	ck_assert_str_eq(suite->origin.why, "/bin/cp");
	ck_assert_uint_eq(suite->tests.n, 1);
	ck_assert_uint_eq(suite->origin.static_only, 2);
	/* an empty list: the sources decide (auto), or an error (runner) */
	cfg.runner.list.items = empty;
	cfg.runner.list.n = 2;
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, "runner", "work", NULL, 0, &diags), UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "lists no test"));
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, "auto", "work", NULL, 0, &diags), 0);
	ck_assert(!suite->origin.runner);
	ck_assert(warned("lists no test"));
	/* a command that fails: its status quoted */
	cfg.runner.list.items = fails;
	ck_assert_int_eq(ut_collect_suite(suite, &cfg, "runner", "work", NULL, 0, &diags), UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "list command failed: /bin/false"));
	ut_config_dispose(&cfg);
	unlink("given.jsonl");
	rmdir("work");
	ck_assert_int_eq(chdir(old), 0);
	free(old);
}
END_TEST

static const char *selection(const char *style, const char *const *ids, size_t n, bool *exact)
{
	static ut_buf b = UT_BUF_INIT;

	ut_buf_dispose(&b);
	ck_assert_int_eq(ut_runner_selection(&b, style, ids, n, exact), 0);
	return b.ptr ? b.ptr : "";
}

START_TEST(test_selection_in_each_runners_syntax)
{
	const char *java[] = {"a.B#one", "a.B#two", "c.D#x", "a.B#three"};
	const char *js[] = {"test/a.js::A adds (1) a.b", "test/b.js::B x", "test/a.js::A y"};
	const char *dup[] = {"test/a.js::same", "test/b.js::same"};
	bool exact;
	ut_buf b = UT_BUF_INIT;

	ck_assert_str_eq(selection("surefire", java, 4, &exact),
			 "-Dtest=a.B#one+two,c.D#x,a.B#three\n");
	ck_assert(exact);
	ck_assert_str_eq(selection("testng", java, 4, &exact),
			 "-methods\na.B.one,a.B.two,c.D.x,a.B.three\n");
	ck_assert_str_eq(selection("pytest", (const char *[]){"t/x.py::a", "t/x.py::b[1]"}, 2,
				   &exact),
			 "t/x.py::a\nt/x.py::b[1]\n");
	ck_assert_str_eq(selection("mocha", js, 3, &exact),
			 "test/a.js\ntest/b.js\n--grep\n^(?:A adds \\(1\\) a\\.b|B x|A y)$\n");
	ck_assert(exact);
	selection("mocha", dup, 2, &exact);
	ck_assert(!exact);
	ck_assert_int_eq(ut_runner_selection(&b, "gradle", java, 1, &exact), UT_EINPUT);
	ck_assert_str_eq(ut_runner_select_style("junit5"), "surefire");
	ck_assert_str_eq(ut_runner_select_style(NULL), "ids");
	ut_buf_dispose(&b);
}
END_TEST

Suite *collect_suite(void)
{
	Suite *s = suite_create("collect");
	TCase *tc = tcase_create("join");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_runner_ids_and_order_sources_actions);
	tcase_add_test(tc, test_position_when_nothing_else_tells);
	tcase_add_test(tc, test_one_side_only_is_named);
	tcase_add_test(tc, test_paths_filter_the_list);
	tcase_add_test(tc, test_pending_tests_are_left_out_quietly);
	tcase_add_test(tc, test_bad_lists_name_the_line);
	tcase_add_test(tc, test_static_mode_and_no_runner_keep_the_sources);
	tcase_add_test(tc, test_files_counted_once_each);
	tcase_add_test(tc, test_list_command_end_to_end);
	suite_add_tcase(s, tc);
	tc = tcase_create("select");
	tcase_add_test(tc, test_selection_in_each_runners_syntax);
	suite_add_tcase(s, tc);
	return s;
}
