/* check_junit.c: reading JUnit XML in the dialects of pytest, Surefire, mocha, jest-junit
 * and the ci/runners helpers, matching testcases to test ids, and broken reports. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_runner.h"
#include "runner/junit.h"
#include "proc/process.h"
#include "runner/tally.h"
#include "util/xml.h"
#include "util/buf.h"
#include "util/error.h"

Suite *junit_suite(void);

static ut_junit *report;

static void load(const char *name)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "junit/%s", name);
	ut_junit_free(report);
	report = NULL;
	ck_assert_msg(ut_junit_read(&report, fixture(0, rel)) == 0, "%s: %s", name,
		      ut_error_message());
}

static void teardown(void)
{
	ut_junit_free(report);
	report = NULL;
	runner_fixture_teardown();
}

/* The case of id, which must exist with the given outcome. */
static const ut_junit_case *expect(const char *id, ut_outcome outcome)
{
	const ut_junit_case *c = ut_junit_match(report, id);

	ck_assert_msg(c != NULL, "no testcase for '%s'", id);
	ck_assert_msg(c->outcome == outcome, "'%s': %s, expected %s", id,
		      ut_outcome_name(c->outcome), ut_outcome_name(outcome));
	return c;
}

START_TEST(pytest_ids_and_outcomes)
{
	const ut_junit_case *c;

	load("pytest.xml");
	ck_assert_uint_eq(ut_junit_count(report), 10);
	expect("tests/test_b.py::test_z", UT_OUT_PASS);
	expect("tests/test_a.py::TestK::test_a", UT_OUT_PASS);
	c = expect("tests/test_a.py::test_two", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "AssertionError: boom");
	ck_assert_str_eq(c->classname, "tests.test_a");
	c = expect("tests/test_b.py::test_s", UT_OUT_SKIPPED);
	ck_assert_str_eq(c->message, "nah");
	c = expect("tests/test_b.py::test_e", UT_OUT_ERROR);
	ck_assert_str_eq(c->message, "failed on setup with \"RuntimeError: fixture broke\"");
	c = expect("tests/test_c.py::test_param[a/b]", UT_OUT_PASS);
	ck_assert(c->time_s > 0.0009 && c->time_s < 0.0011);
	expect("tests/test_c.py::test_param[x::y]", UT_OUT_FAIL);
	expect("tests/test_c.py::test_teardown", UT_OUT_ERROR);
	/* by its name alone, which no other testcase has (DESIGN.md) */
	ck_assert_str_eq(expect("tests/test_a.py::test_a", UT_OUT_PASS)->classname,
			 "tests.test_a.TestK");
	ck_assert_ptr_null(ut_junit_match(report, "tests/test_a.py::test_three"));
	ck_assert_str_eq(ut_outcome_name(UT_OUT_NOTRUN), "not-run");
}
END_TEST

/* pytest's rootdir is a parent of the project folder (untangle.json in e2e/): the
 * classnames start with e2e., the ids do not */
START_TEST(pytest_rootdir_in_a_parent)
{
	load("pytest-parent-rootdir.xml");
	expect("tests/login_check.py::check_login", UT_OUT_PASS);
	expect("tests/login_check.py::TestCart::check_add", UT_OUT_FAIL);
	/* the same module path in two projects of the rootdir: not a guess */
	ck_assert_ptr_null(ut_junit_match(report, "tests/other_check.py::check_same"));
}
END_TEST

START_TEST(pytest_reruns)
{
	const ut_junit_case *c;

	load("pytest-reruns.xml");
	ck_assert_uint_eq(ut_junit_count(report), 4);
	c = expect("tests/test_boards.py::test_add_user", UT_OUT_PASS);
	ck_assert_uint_eq(c->records, 2);
	ck_assert(c->time_s > 1.19 && c->time_s < 1.21);
	c = expect("tests/test_boards.py::test_login_user", UT_OUT_FAIL);
	ck_assert_uint_eq(c->records, 2);
	ck_assert_str_eq(c->message, "AssertionError: assert 'John Admin' == 'Jane Doe'");
	c = expect("tests/test_boards.py::test_add_board", UT_OUT_PASS);
	ck_assert_uint_eq(c->failed_attempts, 1);
	ck_assert_str_eq(c->message, "selenium.common.exceptions.TimeoutException: Message: page load");
	c = expect("tests/test_boards.py::test_count_boards", UT_OUT_FAIL);
	ck_assert_uint_eq(c->failed_attempts, 2);
	ck_assert_str_eq(c->message, "AssertionError: You have 1 board");
}
END_TEST

START_TEST(surefire_reruns_and_errors)
{
	const ut_junit_case *c;

	load("surefire.xml");
	c = expect("boards.AddUserTest#addUserTest", UT_OUT_PASS);
	ck_assert(c->time_s > 1234.49 && c->time_s < 1234.51);
	ck_assert_uint_eq(c->failed_attempts, 0);
	c = expect("boards.LoginUserTest#loginUserTest", UT_OUT_FAIL);
	ck_assert_uint_eq(c->failed_attempts, 1);
	ck_assert_str_eq(c->message, "expected:<[Jane Doe]> but was:<[John Admin]>");
	c = expect("boards.AddBoardTest#addBoardTest", UT_OUT_PASS);
	ck_assert_uint_eq(c->failed_attempts, 1);
	ck_assert_str_eq(c->message, "no such element: Unable to locate element: #board_name");
	c = expect("boards.ShareBoardTest#shareBoardTest", UT_OUT_ERROR);
	ck_assert_str_eq(c->message, "org.openqa.selenium.WebDriverException: chrome not reachable");
	c = expect("boards.ViewBoardsTest#viewBoardsTest", UT_OUT_SKIPPED);
	ck_assert_str_eq(c->message, "not on CI");
	c = expect("boards.CountBoardsTest#countBoardsTest", UT_OUT_PASS);
	ck_assert_uint_eq(c->failed_attempts, 2);
	/* Surefire's other spellings of the same id */
	ck_assert_ptr_eq(ut_junit_match(report, "boards.AddUserTest.addUserTest"),
			 ut_junit_match(report, "boards.AddUserTest#addUserTest"));
}
END_TEST

START_TEST(ordered_runner_and_junit5_names)
{
	const ut_junit_case *c;

	load("ordered-runner.xml");
	ck_assert_uint_eq(ut_junit_count(report), 4);
	c = expect("p.ATest#fails", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "count expected:<1> but was:<2>");
	c = expect("p.ATest#passes", UT_OUT_PASS);
	ck_assert_uint_eq(c->records, 2); /* the id was listed twice */
	c = expect("p.ATest#errors", UT_OUT_ERROR);
	ck_assert_str_eq(c->message, "no board");
	c = expect("p.ATest#ignored", UT_OUT_SKIPPED);
	ck_assert_str_eq(c->message, "later");

	load("junit5-console.xml");
	expect("boards.AddUserTest#addUserTest", UT_OUT_PASS);
	expect("boards.ListTest#renameList", UT_OUT_PASS);
	c = expect("boards.LoginUserTest#loginUserTest", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "expected: <Jane Doe> but was: <John Admin>");
}
END_TEST

START_TEST(mocha_xunit)
{
	const ut_junit_case *c;

	load("mocha-xunit.xml");
	c = expect("test/a.spec.js::Boards adds a user", UT_OUT_PASS);
	ck_assert_str_eq(c->classname, "Boards");
	c = expect("test/a.spec.js::Other adds a user", UT_OUT_PASS);
	ck_assert_str_eq(c->classname, "Other");
	c = expect("test/a.spec.js::Boards logs in the new user", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "expected \"Jane Doe\" & <b>");
	ck_assert(c->time_s > 0.0019 && c->time_s < 0.0021);
	c = expect("test/a.spec.js::Boards sharing shares a board", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "cannot read x");
	expect("test/a.spec.js::Boards is pending", UT_OUT_SKIPPED);
	/* "adds a user" is no unique name: two describes have it */
	ck_assert_ptr_null(ut_junit_match(report, "test/b.spec.js::adds a user"));
}
END_TEST

START_TEST(jest_junit_nested)
{
	const ut_junit_case *c;

	load("jest-junit.xml");
	ck_assert_uint_eq(ut_junit_count(report), 5);
	expect("test/boards.test.js::Boards adds a user", UT_OUT_PASS);
	c = expect("test/boards.test.js::Boards logs in the new user", UT_OUT_FAIL);
	ck_assert_str_eq(c->message, "Error: expect(received).toBe(expected) // Object.is equality");
	expect("test/boards.test.js::Boards sharing shares a board", UT_OUT_PASS);
	expect("test/boards.test.js::Boards lists the boards", UT_OUT_SKIPPED);
	c = expect("test/members.test.js::Members adds a member", UT_OUT_PASS);
	ck_assert_str_eq(c->file, "test/members.test.js");
}
END_TEST

START_TEST(names_alone_only_when_unique)
{
	const ut_junit_case *c;

	load("same-names.xml");
	ck_assert_ptr_null(ut_junit_match(report, "other/x.py::test_login"));
	c = expect("spec/b.py::test_login", UT_OUT_FAIL); /* by the pytest spelling */
	ck_assert_str_eq(c->classname, "spec.b");
	c = expect("elsewhere/c_test.py::test_unique", UT_OUT_PASS); /* by its name alone */
	ck_assert_str_eq(c->classname, "spec.c");
	expect("no class", UT_OUT_PASS);
	ck_assert_ptr_null(ut_junit_match(report, "spec.a"));
	ck_assert_ptr_null(ut_junit_match(report, ""));
}
END_TEST

START_TEST(broken_reports)
{
	static const char *const bad[] = {"empty.xml", "corrupt.xml", "truncated.xml",
					  "entities.xml", "not-junit.xml"};
	char rel[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(rel, sizeof(rel), "junit/%s", bad[i]);
		report = (ut_junit *)1;
		ck_assert_msg(ut_junit_read(&report, fixture(0, rel)) == UT_EINPUT, "%s", bad[i]);
		ck_assert_ptr_null(report);
		ck_assert_msg(strstr(ut_error_message(), bad[i]) != NULL, "%s", ut_error_message());
	}
	ck_assert_int_eq(ut_junit_read(&report, fixture(0, "junit/corrupt.xml")), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "corrupt.xml:4:") != NULL, "%s",
		      ut_error_message());
	ck_assert_int_eq(ut_junit_read(&report, fixture(0, "junit/missing.xml")), UT_ENOTFOUND);
	ck_assert_int_eq(ut_junit_read(&report, fixture(0, "junit")), UT_EINPUT);
	/* a valid report without tests is not an error */
	load("no-tests.xml");
	ck_assert_uint_eq(ut_junit_count(report), 0);
	ck_assert_ptr_null(ut_junit_match(report, "a.py::b"));
}
END_TEST

START_TEST(large_report_in_linear_time)
{
	ut_buf xml = UT_BUF_INIT, id = UT_BUF_INIT;
	int i, n = 20000;

	ut_buf_puts(&xml, "<testsuites><testsuite name=\"big\">");
	for (i = 0; i < n; i++)
		ut_buf_printf(&xml,
			      "<testcase classname=\"pkg.Test%d\" name=\"method\" time=\"0.5\">"
			      "%s</testcase>",
			      i, i % 3 ? "" : "<failure message=\"m\"/>");
	ut_buf_puts(&xml, "</testsuite></testsuites>");
	ck_assert_int_eq(ut_junit_parse(&report, xml.ptr, xml.len, "big.xml"), 0);
	ck_assert_uint_eq(ut_junit_count(report), (size_t)n);
	for (i = 0; i < n; i++) {
		ut_buf_clear(&id);
		ut_buf_printf(&id, "pkg.Test%d#method", i);
		expect(id.ptr, i % 3 ? UT_OUT_PASS : UT_OUT_FAIL);
	}
	ut_buf_dispose(&xml);
	ut_buf_dispose(&id);
}
END_TEST

START_TEST(parse_limits_messages)
{
	ut_buf xml = UT_BUF_INIT;
	const ut_junit_case *c;
	int i;

	ut_buf_puts(&xml, "<testsuite><testcase classname=\"a\" name=\"b\"><failure message=\"");
	for (i = 0; i < 300; i++)
		ut_buf_puts(&xml, "\xc3\xa9"); /* 600 bytes of two-byte characters */
	ut_buf_puts(&xml, "\"/></testcase><testcase classname=\"a\" name=\"c\" time=\"x\">"
			  "<error>   \n\n  first line  \nsecond</error></testcase></testsuite>");
	ck_assert_int_eq(ut_junit_parse(&report, xml.ptr, xml.len, "limits.xml"), 0);
	c = expect("a.b", UT_OUT_FAIL);
	ck_assert_uint_eq(strlen(c->message), 500);
	c = expect("a#c", UT_OUT_ERROR);
	ck_assert_str_eq(c->message, "first line");
	ck_assert(c->time_s == 0);
	ut_buf_dispose(&xml);
}
END_TEST

/* A report whose first testcase has `before`, n bytes of filler, then `after`. */
static void write_report(const char *path, const char *before, size_t n, const char *after)
{
	FILE *f = fopen(path, "wb");
	static char block[65536];
	size_t k;

	ck_assert_ptr_nonnull(f);
	memset(block, 'x', sizeof(block));
	fputs("<testsuites><testsuite><testcase classname=\"t\" name=\"a\">", f);
	fputs(before, f);
	for (k = 0; k < n; k += sizeof(block))
		fwrite(block, 1, n - k < sizeof(block) ? n - k : sizeof(block), f);
	fputs(after, f);
	fputs("</testcase><testcase classname=\"t\" name=\"b\"/></testsuite></testsuites>", f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(huge_message_attribute_is_cut)
{
	const char *path = fixture(0, "huge-attr.xml");
	const ut_junit_case *c;

	/* 40 MB in one attribute: expat 2.5 alone takes seconds (quadratic); cut, it is linear */
	write_report(path, "<failure message=\"AssertionError: ", (size_t)40 << 20,
		     " &amp; end\" type=\"x\">trace</failure>");
	ck_assert_msg(ut_junit_read(&report, path) == 0, "%s", ut_error_message());
	c = expect("t#a", UT_OUT_FAIL);
	ck_assert_uint_eq(strlen(c->message), 500);
	ck_assert(strncmp(c->message, "AssertionError: xxx", 19) == 0);
	expect("t#b", UT_OUT_PASS);
	/* a cut inside an entity reference or a character keeps the document well-formed */
	ut_junit_free(report);
	report = NULL;
	write_report(path, "<failure message=\"", UT_JUNIT_MAX_VALUE - 2, "&amp;&#233;\xc3\xa9\"/>");
	ck_assert_msg(ut_junit_read(&report, path) == 0, "%s", ut_error_message());
	expect("t#a", UT_OUT_FAIL);
}
END_TEST

START_TEST(names_are_never_cut_but_bounded)
{
	const char *path = fixture(0, "long-name.xml");
	ut_buf xml = UT_BUF_INIT;
	const ut_junit_case *c;
	size_t i;

	/* a 100 KiB name is read whole (no other case shares its first 64 KiB) */
	ut_buf_puts(&xml, "<testsuite><testcase classname=\"k\" name=\"");
	for (i = 0; i < 100 * 1024; i++)
		ut_buf_putc(&xml, i == 100 * 1024 - 1 ? 'z' : 'n');
	ut_buf_puts(&xml, "\"/></testsuite>");
	ck_assert_int_eq(ut_junit_parse(&report, xml.ptr, xml.len, "long.xml"), 0);
	c = ut_junit_case_at(report, 0);
	ck_assert_uint_eq(strlen(c->name), 100 * 1024);
	ck_assert_int_eq(c->name[100 * 1024 - 1], 'z');
	ut_junit_free(report);
	report = NULL;
	/* a name over the token limit: refused, naming the file and the line */
	write_report(path, "</testcase><testcase classname=\"t\" name=\"", UT_JUNIT_MAX_TOKEN, "\">");
	ck_assert_int_eq(ut_junit_read(&report, path), UT_EINPUT);
	ck_assert_ptr_null(report);
	ck_assert_msg(strstr(ut_error_message(), "long-name.xml:1: a tag or comment longer than") !=
			      NULL, "%s", ut_error_message());
	/* so is a comment */
	write_report(path, "<!-- ", (size_t)2 << 20, " -->");
	ck_assert_int_eq(ut_junit_read(&report, path), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "longer than") != NULL, "%s", ut_error_message());
	/* but long text and CDATA are text: read */
	write_report(path, "<system-out><![CDATA[", (size_t)2 << 20, "]]></system-out>");
	ck_assert_msg(ut_junit_read(&report, path) == 0, "%s", ut_error_message());
	expect("t#b", UT_OUT_PASS);
	ut_buf_dispose(&xml);
}
END_TEST

START_TEST(report_size_and_time_bounded)
{
	const char *path = fixture(0, "big.xml");
	ut_junit_limits lim = {1 << 20, 0};

	write_report(path, "<system-out>", (size_t)2 << 20, "</system-out>");
	ck_assert_int_eq(ut_junit_read_limited(&report, path, &lim), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "big.xml' is larger than 1 MiB") != NULL, "%s",
		      ut_error_message());
	lim.max_bytes = 0;
	ck_assert_int_eq(ut_junit_read_limited(&report, path, &lim), 0);
	ut_junit_free(report);
	report = NULL;
	/* a budget already spent stops at the next chunk, as an interrupt does */
	lim.timeout_s = 1e-9;
	ck_assert_int_eq(ut_junit_read_limited(&report, path, &lim), UT_ETIMEOUT);
	ck_assert_ptr_null(report);
	ck_assert_msg(strstr(ut_error_message(), "run's timeout") != NULL, "%s", ut_error_message());
	lim.timeout_s = 0;
	ut_proc_interrupt();
	ck_assert_int_eq(ut_junit_read_limited(&report, path, &lim), UT_EINTR);
	ut_proc_interrupt_clear();
	ck_assert_ptr_null(report);
}
END_TEST

START_TEST(special_files_refused_without_blocking)
{
	const char *fifo = fixture(0, "fifo.xml"), *zero = fixture(1, "zero.xml");

	/* no writer: a plain open would block forever */
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(ut_junit_read(&report, fifo), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "fifo.xml' is not a regular file") != NULL, "%s",
		      ut_error_message());
	/* endless */
	ck_assert_int_eq(symlink("/dev/zero", zero), 0);
	ck_assert_int_eq(ut_junit_read(&report, zero), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), "not a regular file") != NULL, "%s",
		      ut_error_message());
}
END_TEST

START_TEST(xml_escape_makes_any_name_character_data)
{
	ut_buf b = UT_BUF_INIT;

	ut_xml_escape(&b, "a<b>&\"c'\td\ne\r\x01\x7f\xc3\xa9\xff\xef\xbf\xbe!");
	ck_assert_str_eq(b.ptr, "a&lt;b&gt;&amp;&quot;c&apos;&#9;d&#10;e&#13;\xef\xbf\xbd"
				"\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
				"\xef\xbf\xbd!");
	ut_buf_clear(&b);
	ut_xml_escape(&b, NULL);
	ut_xml_escape(&b, "plain");
	ck_assert_str_eq(b.ptr, "plain");
	ut_buf_dispose(&b);
}
END_TEST

/* run --junit's report reads back through the runner's own reader: every id, outcome,
 * time and message, whatever the names hold. */
START_TEST(run_junit_reads_back_as_the_ids)
{
	const char *ids[] = {"tests/a.py::TestX::test_<1>", "com.x.Y#m&n", "plain \"name\"",
			     "tests/b.py::test_skip", "tests/b.py::test_gone"};
	ut_test_result t[5];
	ut_run_result res;
	ut_buf out = UT_BUF_INIT;
	ut_outcome want[] = {UT_OUT_FAIL, UT_OUT_PASS, UT_OUT_ERROR, UT_OUT_SKIPPED,
			     UT_OUT_ERROR};
	size_t i;

	memset(t, 0, sizeof(t));
	memset(&res, 0, sizeof(res));
	t[0].outcome = UT_OUT_FAIL;
	t[0].message = "expected <a> & got \"b\"\x02";
	t[1].outcome = UT_OUT_PASS;
	t[1].flaky = true;
	t[2].outcome = UT_OUT_ERROR;
	t[3].outcome = UT_OUT_SKIPPED;
	t[4].outcome = UT_OUT_NOTRUN;
	t[4].absent = true;
	for (i = 0; i < 5; i++)
		t[i].duration_s = 0.5 * (double)i;
	res.n = 5;
	res.tests = t;
	res.start = 1.7e9;
	res.end = res.start + 3;
	ck_assert_int_eq(ut_run_junit(&out, "2/3", ids, &res), 0);
	ck_assert_ptr_nonnull(strstr(out.ptr, "<testsuite name=\"untangle shard 2/3\" tests=\"5\" "
					      "failures=\"1\" errors=\"2\" skipped=\"1\" time=\"3.000\" "
					      "timestamp=\"2023-11-14T22:13:20\""));
	ck_assert_ptr_nonnull(strstr(out.ptr, "classname=\"tests/a.py::TestX\" name=\"test_&lt;1&gt;\""));
	ck_assert_ptr_nonnull(strstr(out.ptr, "type=\"not-run\""));
	ck_assert_int_eq(ut_junit_parse(&report, out.ptr, out.len, "run.xml"), 0);
	ck_assert_uint_eq(ut_junit_count(report), 5);
	for (i = 0; i < 5; i++) {
		const ut_junit_case *c = expect(ids[i], want[i]);

		ck_assert_double_eq_tol(c->time_s, 0.5 * (double)i, 1e-9);
	}
	ck_assert_str_eq(expect(ids[0], UT_OUT_FAIL)->message, "expected <a> & got \"b\"\xef\xbf\xbd");
	ck_assert_ptr_nonnull(strstr(expect(ids[4], UT_OUT_ERROR)->message, "did not report"));
	ut_buf_dispose(&out);
}
END_TEST

Suite *junit_suite(void)
{
	Suite *s = suite_create("junit");
	TCase *tc = tcase_create("junit");

	tcase_add_checked_fixture(tc, runner_fixture_setup, teardown);
	tcase_add_test(tc, pytest_ids_and_outcomes);
	tcase_add_test(tc, pytest_reruns);
	tcase_add_test(tc, pytest_rootdir_in_a_parent);
	tcase_add_test(tc, surefire_reruns_and_errors);
	tcase_add_test(tc, ordered_runner_and_junit5_names);
	tcase_add_test(tc, mocha_xunit);
	tcase_add_test(tc, jest_junit_nested);
	tcase_add_test(tc, names_alone_only_when_unique);
	tcase_add_test(tc, broken_reports);
	tcase_add_test(tc, large_report_in_linear_time);
	tcase_add_test(tc, parse_limits_messages);
	tcase_add_test(tc, huge_message_attribute_is_cut);
	tcase_add_test(tc, names_are_never_cut_but_bounded);
	tcase_add_test(tc, report_size_and_time_bounded);
	tcase_add_test(tc, special_files_refused_without_blocking);
	tcase_add_test(tc, xml_escape_makes_any_name_character_data);
	tcase_add_test(tc, run_junit_reads_back_as_the_ids);
	suite_add_tcase(s, tc);
	return s;
}
