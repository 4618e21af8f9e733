/* check_pytest.c: pytest's rules on in-memory modules: parametrized cases with their own
 * values, fixture values where tests request them, unresolved values kept, loops. The ids
 * and order against the real collector are checked by tests/collect/python. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "store/journal.h"
#include "extract/extract.h"
#include "parse/parse.h"
#include "parse/pytest_ini.h"
#include "util/buf.h"
#include "util/fs.h"

Suite *pytest_suite(void);

static ut_suite *suite;
static ut_diags diags;

static void parse(const char *src)
{
	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	suite = NULL;
	ck_assert_int_eq(ut_parse_buffer(&suite, UT_LANG_PYTHON, "tests/test_x.py", src,
					 strlen(src), &diags),
			 0);
}

static void teardown(void)
{
	ut_suite_free(suite);
	suite = NULL;
	ut_diags_dispose(&diags);
}

static const ut_test *test_id(const char *id)
{
	const ut_test *t = ut_suite_find(suite, id);

	ck_assert_msg(t != NULL, "no test '%s'", id);
	return t;
}

/* Does the test have an action of `kind` with value v (or unresolved text v)? */
static bool has(const char *id, ut_action_kind kind, const char *v, bool unresolved)
{
	const ut_test *t = test_id(id);
	size_t i, j;

	for (i = 0; i < t->nactions; i++) {
		const ut_action *a = &t->actions[i];
		const char *const *vals = unresolved ? a->unresolved : a->values;
		size_t n = unresolved ? a->nunresolved : a->nvalues;

		for (j = 0; j < n && a->kind == kind; j++)
			if (strcmp(vals[j], v) == 0)
				return true;
	}
	return false;
}

#define P "tests/test_x.py::"

START_TEST(parametrized_cases_have_their_own_values)
{
	parse("import pytest\n"
	      "@pytest.mark.parametrize('name', ['alpha', 'beta'])\n"
	      "def test_create(driver, name):\n"
	      "    driver.find_element(By.ID, 'n').send_keys(name)\n"
	      "@pytest.mark.parametrize('n, label', [(1, 'x'), pytest.param(2, 'y', id='two')])\n"
	      "def test_pairs(driver, n, label):\n"
	      "    driver.find_element(By.ID, 'l').send_keys(label + str(n))\n"
	      "    driver.find_element(By.ID, 'm').send_keys(label)\n"
	      "@pytest.mark.parametrize('v', [1.50, -3, None, 'caf\\u00e9', object(), 'a', 'a', 1e999,\n"
	      "                               0x1F, 1_000, 2.5e-7, 1e16, .5])\n"
	      "def test_kinds(v):\n"
	      "    pass\n");
	ck_assert_uint_eq(suite->tests.n, 17);
	ck_assert_str_eq(suite->tests.v[0].id, P "test_create[alpha]");
	ck_assert_str_eq(suite->tests.v[1].id, P "test_create[beta]");
	ck_assert_str_eq(suite->tests.v[2].id, P "test_pairs[1-x]");
	ck_assert_str_eq(suite->tests.v[3].id, P "test_pairs[two]");
	ck_assert_str_eq(suite->tests.v[4].id, P "test_kinds[1.5]");
	ck_assert_str_eq(suite->tests.v[5].id, P "test_kinds[-3]");
	ck_assert_str_eq(suite->tests.v[6].id, P "test_kinds[None]");
	ck_assert_str_eq(suite->tests.v[7].id, P "test_kinds[caf\\xe9]");
	ck_assert_str_eq(suite->tests.v[8].id, P "test_kinds[v4]");
	ck_assert_str_eq(suite->tests.v[9].id, P "test_kinds[a0]");
	ck_assert_str_eq(suite->tests.v[10].id, P "test_kinds[a1]");
	ck_assert_str_eq(suite->tests.v[11].id, P "test_kinds[inf]");
	ck_assert_str_eq(suite->tests.v[12].id, P "test_kinds[31]");
	ck_assert_str_eq(suite->tests.v[13].id, P "test_kinds[1000]");
	ck_assert_str_eq(suite->tests.v[14].id, P "test_kinds[2.5e-07]");
	ck_assert_str_eq(suite->tests.v[15].id, P "test_kinds[1e+16]");
	ck_assert_str_eq(suite->tests.v[16].id, P "test_kinds[0.5]");
	ck_assert_str_eq(suite->tests.v[0].name, "test_create");
	ck_assert(has(P "test_create[alpha]", UT_ACT_SUBMIT, "alpha", false));
	ck_assert(!has(P "test_create[alpha]", UT_ACT_SUBMIT, "beta", false));
	ck_assert(has(P "test_create[beta]", UT_ACT_SUBMIT, "beta", false));
	ck_assert(has(P "test_pairs[two]", UT_ACT_SUBMIT, "y", false));
	ck_assert(!has(P "test_pairs[two]", UT_ACT_SUBMIT, "x", false));
	ck_assert(has(P "test_pairs[1-x]", UT_ACT_SUBMIT, "x", false));
}
END_TEST

START_TEST(fixture_values_and_unresolved_values)
{
	parse("import pytest, random\n"
	      "HOST = 'http://app.test'\n"
	      "@pytest.fixture\n"
	      "def base_url():\n"
	      "    return HOST\n"
	      "@pytest.fixture\n"
	      "def login_url(base_url):\n"
	      "    yield base_url + '/login'\n"
	      "@pytest.fixture\n"
	      "def logged_in(driver, login_url):\n"
	      "    driver.get(login_url)\n"
	      "    driver.find_element(By.ID, 'u').send_keys('ann')\n"
	      "def test_nav(driver, login_url):\n"
	      "    driver.get(login_url)\n"
	      "def test_after_login(driver, logged_in):\n"
	      "    pass\n"
	      "@pytest.mark.parametrize('base_url', ['http://other'])\n"
	      "def test_overridden(driver, base_url):\n"
	      "    driver.get(base_url)\n"
	      "def test_random(driver, fake):\n"
	      "    name = random.choice(['a', 'b'])\n"
	      "    driver.find_element(By.ID, 'q').send_keys(name)\n"
	      "    driver.find_element(By.ID, 'r').send_keys(fake.sentence())\n");
	ck_assert(has(P "test_nav", UT_ACT_NAVIGATE, "http://app.test/login", false));
	/* the fixture's actions count for the test that requests it, with its values */
	ck_assert(has(P "test_after_login", UT_ACT_NAVIGATE, "http://app.test/login", false));
	ck_assert(has(P "test_after_login", UT_ACT_SUBMIT, "ann", false));
	/* a parameter of the case overrides the fixture of that name */
	ck_assert(has(P "test_overridden[http://other]", UT_ACT_NAVIGATE, "http://other", false));
	ck_assert(!has(P "test_overridden[http://other]", UT_ACT_NAVIGATE, "http://app.test", false));
	ck_assert(has(P "test_random", UT_ACT_SUBMIT, "random.choice(['a', 'b'])", true));
	ck_assert(has(P "test_random", UT_ACT_SUBMIT, "fake.sentence()", true));
}
END_TEST

/* ALICE, ALICE_PW = "alice", "pw" binds each name to the value at its place, at module
 * and class level (found on a DokuWiki suite: the constants stayed unresolved and every
 * login looked alike); a pair from a call binds nothing. */
START_TEST(tuple_constants_are_unpacked)
{
	parse("ALICE, ALICE_PW = 'alice', 'wonderland-42'\n"
	      "A, B = pair()\n"
	      "def login(driver, user, password):\n"
	      "    driver.find_element(By.NAME, 'u').send_keys(user)\n"
	      "    driver.find_element(By.NAME, 'p').send_keys(password)\n"
	      "def test_login(driver):\n"
	      "    login(driver, ALICE, ALICE_PW)\n"
	      "def test_pair(driver):\n"
	      "    driver.find_element(By.NAME, 'u').send_keys(A)\n"
	      "class TestPage:\n"
	      "    PAGE, TITLE = 'project:plan', 'Launch plan'\n"
	      "    def test_open(self, driver):\n"
	      "        driver.find_element(By.ID, 'q').send_keys(self.PAGE)\n");
	ck_assert(has(P "test_login", UT_ACT_SUBMIT, "alice", false));
	ck_assert(has(P "test_login", UT_ACT_SUBMIT, "wonderland-42", false));
	ck_assert(!has(P "test_pair", UT_ACT_SUBMIT, "pair()", false));
	ck_assert(has(P "TestPage::test_open", UT_ACT_SUBMIT, "project:plan", false));
}
END_TEST

/* One fingerprint of a test's body, taken by the parse: --resume (the journal's bodies) and
 * check (ut_test.body) see a white-space edit as no change and a value edit as one, and a
 * rename keeps body_unnamed. A second copy that drifts fails here. */
START_TEST(one_body_fingerprint_for_resume_and_check)
{
	static const char *const v1 = "def test_a(driver):\n    driver.get('/a')\n"
				      "def test_b(driver):\n    driver.get('/b')\n";
	static const char *const spaced = "def test_a(driver):\n    driver.get( '/a' )\n\n"
					  "def test_b(driver):\n    driver.get('/b')\n";
	static const char *const edited = "def test_a(driver):\n    driver.get('/z')\n"
					  "def test_b(driver):\n    driver.get('/b')\n";
	static const char *const renamed = "def test_c(driver):\n    driver.get('/a')\n"
					   "def test_b(driver):\n    driver.get('/b')\n";
	const char *const sources[] = {v1, spaced, edited, renamed};
	uint64_t body[4], unnamed[4];
	const char *journal[4];
	ut_arena a = UT_ARENA_INIT;
	ut_config cfg;

	ut_config_init(&cfg);
	for (int k = 0; k < 4; k++) {
		ut_graph *g = NULL;
		ut_journal_header h;

		parse(sources[k]);
		body[k] = suite->tests.v[0].body;
		unnamed[k] = suite->tests.v[0].body_unnamed;
		ck_assert_uint_ne(body[k], 0);
		ck_assert_int_eq(ut_graph_from_suite(&g, suite), 0);
		memset(&h, 0, sizeof(h));
		ck_assert_int_eq(ut_journal_fingerprint(&h, &a, g, &cfg), 0);
		journal[k] = h.bodies[0];
		ut_graph_free(g);
	}
	ck_assert_uint_eq(body[0], body[1]);  /* white space: no change */
	ck_assert_str_eq(journal[0], journal[1]);
	ck_assert_uint_ne(body[0], body[2]);  /* a value: a change for both */
	ck_assert_str_ne(journal[0], journal[2]);
	ck_assert_uint_ne(body[0], body[3]);  /* renamed: another body ... */
	ck_assert_uint_eq(unnamed[0], unnamed[3]); /* ... the same without its name */
	ut_config_dispose(&cfg);
	ut_arena_dispose(&a);
}
END_TEST

START_TEST(fixture_params_make_cases)
{
	parse("import pytest\n"
	      "@pytest.fixture(params=['chrome', pytest.param('firefox', id='ff')])\n"
	      "def browser_name(request):\n"
	      "    return request.param\n"
	      "@pytest.fixture\n"
	      "def driver(browser_name):\n"
	      "    return None\n"
	      "@pytest.mark.parametrize('q', ['x'])\n"
	      "def test_q(driver, browser_name, q):\n"
	      "    driver.find_element(By.ID, 'b').send_keys(browser_name)\n");
	/* the fixture's parameters come first in the id */
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(suite->tests.v[0].id, P "test_q[chrome-x]");
	ck_assert_str_eq(suite->tests.v[1].id, P "test_q[ff-x]");
	ck_assert(has(P "test_q[ff-x]", UT_ACT_SUBMIT, "firefox", false));
	ck_assert(!has(P "test_q[ff-x]", UT_ACT_SUBMIT, "chrome", false));
}
END_TEST

START_TEST(loops_submit_what_they_loop_over)
{
	parse("NAMES = ['amy', 'ben']\n"
	      "class Element:\n"
	      "    def __init__(self, el):\n"
	      "        self.element = el\n"
	      "    def send_keys_deliberately(self, keys):\n"
	      "        for k in keys:\n"
	      "            self.element.send_keys(k)\n"
	      "def test_wrapper(driver):\n"
	      "    Element(driver.find_element(By.ID, 't')).send_keys_deliberately('Selenium Component')\n"
	      "def test_list(driver):\n"
	      "    for name in NAMES:\n"
	      "        driver.find_element(By.ID, 'n').send_keys(name)\n");
	ck_assert(has(P "test_wrapper", UT_ACT_SUBMIT, "Selenium Component", false));
	ck_assert(!has(P "test_wrapper", UT_ACT_SUBMIT, "k", true));
	ck_assert(has(P "test_list", UT_ACT_SUBMIT, "amy", false));
	ck_assert(has(P "test_list", UT_ACT_SUBMIT, "ben", false));
}
END_TEST

START_TEST(classes_in_method_resolution_order)
{
	parse("class A:\n"
	      "    def test_a(self): pass\n"
	      "class B(A):\n"
	      "    def test_b(self): pass\n"
	      "class C(A):\n"
	      "    def test_c(self): pass\n"
	      "    def test_a(self): pass\n"
	      "class TestD(B, C):\n"
	      "    def test_d(self): pass\n"
	      "class TestE(A):\n"
	      "    test_a = None\n"
	      "class TestInit:\n"
	      "    def __init__(self): pass\n"
	      "    def test_x(self): pass\n");
	/* pytest: base classes first (reverse MRO D, B, C, A), each in definition order */
	ck_assert_uint_eq(suite->tests.n, 4);
	ck_assert_str_eq(suite->tests.v[0].id, P "TestD::test_c");
	ck_assert_str_eq(suite->tests.v[1].id, P "TestD::test_a");
	ck_assert_str_eq(suite->tests.v[2].id, P "TestD::test_b");
	ck_assert_str_eq(suite->tests.v[3].id, P "TestD::test_d");
	/* the inherited test_a is C's */
	ck_assert_uint_eq(suite->tests.v[1].line, 7);
	ck_assert_uint_gt(diags.items.n, 0); /* TestInit is not collected, and said so */
}
END_TEST

START_TEST(inherited_tests_see_the_concrete_class)
{
	parse("class LoginSteps:\n"
	      "    USER = 'nobody'\n"
	      "    def test_login_as(self, driver):\n"
	      "        driver.find_element(By.ID, 'user').send_keys(self.USER)\n"
	      "class TestAdminLogin(LoginSteps):\n"
	      "    USER = 'admin'\n"
	      "class TestGuestLogin(LoginSteps):\n"
	      "    pass\n"
	      "class AdminPages(LiveServerTestCase):\n"
	      "    def test_z(self): pass\n"
	      "    def test_a(self): pass\n");
	ck_assert_uint_eq(suite->tests.n, 4);
	ck_assert(has(P "TestAdminLogin::test_login_as", UT_ACT_SUBMIT, "admin", false));
	ck_assert(has(P "TestGuestLogin::test_login_as", UT_ACT_SUBMIT, "nobody", false));
	/* a TestCase of a library (Django's) is a unittest class whatever its name */
	ck_assert_str_eq(suite->tests.v[2].id, P "AdminPages::test_a");
	ck_assert_str_eq(suite->tests.v[2].framework, "unittest");
}
END_TEST

START_TEST(hostile_loops_and_cases_stay_bounded)
{
	ut_buf b = UT_BUF_INIT;
	int i;

	ut_buf_init(&b, 1 << 20);
	ut_buf_puts(&b, "import pytest\nL = [");
	for (i = 0; i < 100; i++)
		ut_buf_printf(&b, "'v%d', ", i);
	ut_buf_puts(&b, "]\n");
	for (i = 0; i < 3; i++)
		ut_buf_printf(&b, "@pytest.mark.parametrize('p%d', L)\n", i);
	ut_buf_puts(&b, "def test_many(driver):\n");
	for (i = 0; i < 12; i++)
		ut_buf_printf(&b, "%*sfor x%d in L:\n", 4 * (i + 1), "", i);
	ut_buf_printf(&b, "%*sdriver.find_element(By.ID, 'a').send_keys(x0)\n", 4 * 13, "");
	parse(b.ptr);
	/* 100^3 cases are capped, with a warning; nested loops are walked once, not 100^12 */
	ck_assert_uint_eq(suite->tests.n, 4096);
	ck_assert_uint_gt(diags.items.n, 0);
	ut_buf_dispose(&b);
}
END_TEST

static char tmpdir[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void mkdir_in(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	ck_assert_int_eq(ut_fs_mkdirs(path), 0);
}

static void list_is(const ut_pytest_list *l, const char *const *want)
{
	size_t i;

	for (i = 0; want[i]; i++) {
		ck_assert_uint_gt(l->n, i);
		ck_assert_str_eq(l->v[i], want[i]);
	}
	ck_assert_uint_eq(l->n, i);
}

static void load(ut_pytest_ini *ini, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	ck_assert_int_eq(ut_pytest_ini_load(ini, path, &diags), 0);
}

/* pytest.ini, pyproject.toml, tox.ini, setup.cfg: found from the project up, read as
 * iniconfig, tomllib and getini's "args" type read them */
START_TEST(ini_files_found_and_read_as_pytest_does)
{
	static const char *const files[] = {"check_*.py", "spec *.py", NULL};
	static const char *const classes[] = {"Describe", "Check*", NULL};
	static const char *const funcs[] = {"it_*", "should", NULL};
	static const char *const paths[] = {"spec", "e2e", NULL};
	static const char *const deflt[] = {"test_*.py", "*_test.py", NULL};
	ut_pytest_ini ini;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ut-pytest-ini-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	mkdir_in("a/b/c");
	put("tox.ini", "[tox]\nenvlist = py3\n[pytest]\n# comment\npython_files =\n"
		       "    check_*.py\n    \"spec *.py\"\naddopts = -k smoke -p xdist -p "
		       "no:cacheprovider\n");
	/* setup.cfg's [pytest] is not pytest's: the search goes on to the parent */
	put("a/setup.cfg", "[pytest]\npython_files = never_*.py\n");
	put("a/b/pyproject.toml",
	    "[project]\nname = \"x\"\n[ tool.pytest.ini_options ]\npython_classes = "
	    "\"Describe Check*\"\npython_functions = [\n  \"it_*\",  # it\n  'should',\n]\n"
	    "testpaths = [\"spec\", \"e2e\"]\n[tool.other]\npython_files = [\"x\"]\n");
	load(&ini, "a");
	ck_assert_ptr_nonnull(ini.inifile);
	ck_assert_str_eq(ini.rootdir, tmpdir);
	ck_assert(!ini.root_is_project);
	list_is(&ini.python_files, files);
	ck_assert_uint_eq(diags.items.n, 2); /* -k smoke, -p xdist */
	ck_assert(ut_pytest_ini_test_file(&ini, "x/check_a.py"));
	ck_assert(ut_pytest_ini_test_file(&ini, "spec x.py"));
	ck_assert(!ut_pytest_ini_test_file(&ini, "test_a.py"));
	ut_pytest_ini_dispose(&ini);
	load(&ini, "a/b/c");
	ck_assert(!ini.root_is_project);
	list_is(&ini.python_classes, classes);
	list_is(&ini.python_functions, funcs);
	list_is(&ini.testpaths, paths);
	list_is(&ini.python_files, deflt);
	ck_assert(ut_pytest_ini_function(&ini, "it_adds"));
	ck_assert(ut_pytest_ini_function(&ini, "should_x"));
	ck_assert(!ut_pytest_ini_function(&ini, "test_x"));
	ck_assert(ut_pytest_ini_class(&ini, "CheckCart", 9));
	ck_assert(ut_pytest_ini_class(&ini, "DescribeX", 9));
	ck_assert(!ut_pytest_ini_class(&ini, "TestCart", 8));
	ut_pytest_ini_dispose(&ini);
	/* an empty pytest.ini is the configuration: pytest's defaults, testpaths apply */
	put("a/b/c/pytest.ini", "");
	load(&ini, "a/b/c");
	ck_assert(ini.root_is_project);
	list_is(&ini.python_files, deflt);
	ck_assert(ut_pytest_ini_function(&ini, "test_x"));
	ck_assert(!ut_pytest_ini_class(&ini, "Check", 5));
	ut_pytest_ini_dispose(&ini);
	put("a/b/c/pytest.ini", "[pytest]\nnorecursedirs = helpers */deep/*\n");
	load(&ini, "a/b/c");
	ck_assert(ut_pytest_ini_skip_dir(&ini, "helpers"));
	ck_assert(ut_pytest_ini_skip_dir(&ini, "x/__pycache__"));
	ck_assert(!ut_pytest_ini_skip_dir(&ini, "build")); /* the defaults are replaced */
	ut_pytest_ini_dispose(&ini);
	{
		static const char *const made[] = {"a/b/c/pytest.ini", "a/b/pyproject.toml",
						   "a/setup.cfg", "tox.ini", "a/b/c", "a/b",
						   "a", "", NULL};
		char path[256];
		size_t i;

		for (i = 0; made[i]; i++) {
			snprintf(path, sizeof(path), "%s/%s", tmpdir, made[i]);
			ck_assert_int_eq(remove(path), 0);
		}
	}
}
END_TEST

Suite *pytest_suite(void)
{
	Suite *s = suite_create("pytest");
	TCase *tc = tcase_create("modules");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parametrized_cases_have_their_own_values);
	tcase_add_test(tc, fixture_values_and_unresolved_values);
	tcase_add_test(tc, tuple_constants_are_unpacked);
	tcase_add_test(tc, one_body_fingerprint_for_resume_and_check);
	tcase_add_test(tc, fixture_params_make_cases);
	tcase_add_test(tc, loops_submit_what_they_loop_over);
	tcase_add_test(tc, classes_in_method_resolution_order);
	tcase_add_test(tc, inherited_tests_see_the_concrete_class);
	tcase_add_test(tc, hostile_loops_and_cases_stay_bounded);
	tcase_add_test(tc, ini_files_found_and_read_as_pytest_does);
	suite_add_tcase(s, tc);
	return s;
}
