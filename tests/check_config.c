/* check_config.c: untangle.json defaults, validation and messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "util/error.h"

Suite *config_suite(void);

static char path[64];

static void write_config(const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ut-config-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
}

START_TEST(defaults_without_file)
{
	ut_config c;

	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, "/nonexistent/untangle.json", true), 0);
	ck_assert_ptr_null(c.path);
	ck_assert_str_eq(c.detect.strategy, "fast");
	ck_assert_str_eq(c.detect.filter, "verb");
	ck_assert_int_eq(c.detect.workers, 1);
	ck_assert_str_eq(c.store.graph, ".untangle/graph.json");
	ck_assert_int_eq(ut_config_load(&c, "/nonexistent/untangle.json", false), UT_ENOTFOUND);
	ut_config_dispose(&c);
}
END_TEST

START_TEST(reads_every_section)
{
	ut_config c;

	write_config("{\"suite\": {\"paths\": [\"tests/e2e\"], \"language\": \"python\", \"order_file\": null,\n"
		     "   \"testng_xml\": \"conf/testng.xml\"},\n"
		     " \"runner\": {\"preset\": \"pytest\", \"command\": [\"python3\", \"-m\", \"pytest\", \"{tests}\"],\n"
		     "   \"reset\": [\"sh\", \"reset.sh\", \"{worker}\"], \"timeout_s\": 60, \"env\": {\"APP_WORKER\": \"{worker}\"}},\n"
		     " \"detect\": {\"extract\": \"string-analysis\", \"filter\": \"dobj\", \"strategy\": \"tedd\", \"workers\": 4, \"reruns\": 2},\n"
		     " \"values\": {\"ignore\": [\"admin\"]}, \"nlp\": {\"read_verbs\": [\"peek\"], \"write_verbs\": []},\n"
		     " \"store\": {\"graph\": \"g.json\", \"notes_ref\": \"refs/notes/x\"}}\n");
	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, path, false), 0);
	ck_assert_uint_eq(c.suite.paths.n, 1);
	ck_assert_str_eq(c.suite.paths.items[0], "tests/e2e");
	ck_assert_str_eq(c.suite.testng_xml, "conf/testng.xml");
	ck_assert_str_eq(c.runner.preset, "pytest");
	ck_assert_uint_eq(c.runner.command.n, 4);
	ck_assert_str_eq(c.runner.reset.items[2], "{worker}");
	ck_assert_uint_eq(c.runner.nenv, 1);
	ck_assert_str_eq(c.runner.env[0].value, "{worker}");
	ck_assert_int_eq(c.detect.workers, 4);
	ck_assert_str_eq(c.detect.strategy, "tedd");
	ck_assert_str_eq(c.values.ignore.items[0], "admin");
	ck_assert_str_eq(c.nlp.read_verbs.items[0], "peek");
	ck_assert_str_eq(c.store.notes_ref, "refs/notes/x");
	ut_config_dispose(&c);
	unlink(path);
}
END_TEST

static void expect_error(const char *text, const char *message)
{
	ut_config c;

	write_config(text);
	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, path, false), UT_EINPUT);
	ck_assert_msg(strstr(ut_error_message(), message), "'%s' lacks '%s'", ut_error_message(),
		      message);
	ut_config_dispose(&c);
	unlink(path);
}

START_TEST(errors_name_key_and_line)
{
	expect_error("{\n \"detect\": {\n  \"workers\": 2,\n  \"strateg\": \"fast\"\n }\n}\n",
		     ":4: 'detect.strateg': unknown key");
	expect_error("{\"colour\": {}}", ":1: 'colour': unknown key");
	expect_error("{\n\"detect\": {\"strategy\": \"slow\"}}", ":2: 'detect.strategy': unknown value slow");
	expect_error("{\"detect\": {\"workers\": 0}}", "'detect.workers': expected a whole number");
	expect_error("{\"suite\": {\"paths\": \"tests\"}}", "'suite.paths': expected an array");
	expect_error("{\n\n\"suite\": {\"paths\": [}}", ":3: invalid JSON");
}
END_TEST

Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, defaults_without_file);
	tcase_add_test(tc, reads_every_section);
	tcase_add_test(tc, errors_name_key_and_line);
	suite_add_tcase(s, tc);
	return s;
}
