/* check_java.c: Java collection: inherited tests and overrides, the root suite, TestNG's
 * rules (tests/collect/run checks the same against the real runners). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "parse/parse.h"

static ut_suite *suite;
static ut_diags diags;

static void parse(const char *src)
{
	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	suite = NULL;
	ck_assert_int_eq(ut_parse_buffer(&suite, UT_LANG_JAVA, "T.java", src, strlen(src), &diags),
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

/* The values of the test's actions of `kind`, joined by ",". */
static const char *values(const ut_test *t, ut_action_kind kind)
{
	static char buf[256];
	size_t i, j, len = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nactions; i++)
		for (j = 0; t->actions[i].kind == kind && j < t->actions[i].nvalues; j++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						len ? "," : "", t->actions[i].values[j]);
	return buf;
}

START_TEST(inherited_tests_run_overrides)
{
	parse("import org.junit.Test;\n"
	      "abstract class Base {\n"
	      "  abstract String user();\n"
	      "  String pass() { return \"pw\"; }\n"
	      "  @Test public void login() { el.sendKeys(user()); el.sendKeys(this.pass()); }\n"
	      "}\n"
	      "class Admin extends Base { String user() { return \"admin\"; } }\n"
	      "class Guest extends Base {\n"
	      "  String user() { return \"guest\"; }\n"
	      "  String pass() { return \"none\"; }\n"
	      "}\n");
	/* the abstract class is no test; each subclass runs login with its own overrides */
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(values(test_id("Admin#login"), UT_ACT_SUBMIT), "admin,pw");
	ck_assert_str_eq(values(test_id("Guest#login"), UT_ACT_SUBMIT), "guest,none");
	ck_assert_str_eq(test_id("Admin#login")->file, "T.java");
	ck_assert_uint_eq(test_id("Admin#login")->line, 5);
}
END_TEST

/* A base class's @BeforeMethod is walked once per test class (walks.c keeps its actions),
 * each class with its own overrides. */
START_TEST(hooks_walked_once_per_class)
{
	parse("import org.testng.annotations.*;\n"
	      "class BaseTest {\n"
	      "  String user() { return \"base\"; }\n"
	      "  @BeforeMethod public void signIn() { el.sendKeys(user()); }\n"
	      "}\n"
	      "class AdminTests extends BaseTest {\n"
	      "  String user() { return \"admin\"; }\n"
	      "  @Test public void a1() { el.sendKeys(\"a1\"); }\n"
	      "  @Test public void a2() { el.sendKeys(\"a2\"); }\n"
	      "}\n"
	      "class GuestTests extends BaseTest {\n"
	      "  String user() { return \"guest\"; }\n"
	      "  @Test public void g1() { el.sendKeys(\"g1\"); }\n"
	      "  @Test public void g2() { el.sendKeys(\"g2\"); }\n"
	      "}\n");
	ck_assert_uint_eq(suite->tests.n, 4);
	ck_assert_str_eq(values(test_id("AdminTests#a1"), UT_ACT_SUBMIT), "admin,a1");
	ck_assert_str_eq(values(test_id("AdminTests#a2"), UT_ACT_SUBMIT), "admin,a2");
	ck_assert_str_eq(values(test_id("GuestTests#g1"), UT_ACT_SUBMIT), "guest,g1");
	ck_assert_str_eq(values(test_id("GuestTests#g2"), UT_ACT_SUBMIT), "guest,g2");
	ck_assert(test_id("GuestTests#g2")->actions[0].setup);
	ck_assert(!test_id("GuestTests#g2")->actions[1].setup);
}
END_TEST

START_TEST(root_suite_decides)
{
	parse("import org.junit.Test;\n"
	      "@RunWith(Suite.class) @Suite.SuiteClasses({B.class, Inner.class})\n"
	      "class All {}\n"
	      "@RunWith(Suite.class) @Suite.SuiteClasses({A.class})\n"
	      "class Inner {}\n"
	      "class A { @Test public void a() {} }\n"
	      "class B { @Test public void b() {} }\n"
	      "class Stray { @Test public void s() {} }\n"
	      "class Other { @Test public void o() {} }\n");
	/* nested suites expanded in place; the rest left out, named in one warning */
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(suite->tests.v[0].id, "B#b");
	ck_assert_str_eq(suite->tests.v[1].id, "A#a");
	ck_assert_uint_eq(diags.items.n, 1);
	ck_assert_ptr_nonnull(strstr(diags.items.v[0].message, "2 test classes"));
	ck_assert_ptr_nonnull(strstr(diags.items.v[0].message, "Stray, Other"));
	ck_assert_uint_eq(diags.items.v[0].line, 2);
}
END_TEST

START_TEST(junit4_default_order_is_hash_order)
{
	parse("import org.junit.Test;\n"
	      "class H {\n"
	      "  @Test public void zeta() {}\n"
	      "  @Test public void alpha() {}\n"
	      "  @Test public void browse() {}\n"
	      "}\n");
	/* String.hashCode: browse < zeta < alpha, as JUnitCore runs them */
	ck_assert_uint_eq(suite->tests.n, 3);
	ck_assert_str_eq(suite->tests.v[0].name, "browse");
	ck_assert_str_eq(suite->tests.v[1].name, "zeta");
	ck_assert_str_eq(suite->tests.v[2].name, "alpha");
}
END_TEST

START_TEST(testng_rules)
{
	parse("import org.testng.annotations.Test;\n"
	      "@Test(groups = \"g\")\n"
	      "public class T {\n"
	      "  public void create() {}\n"
	      "  @Test(dependsOnMethods = \"create\") public void delete() {}\n"
	      "  @Test(priority = -1) public void login() {}\n"
	      "  public void browse() {}\n"
	      "  @Test(enabled = false) public void off() {}\n"
	      "  void hidden() {}\n"
	      "  @Test(dependsOnGroups = {\"g\"}) public void last() {}\n"
	      "}\n"
	      "@Test(enabled = false)\n"
	      "class Off { @Test public void never() {} public void nor() {} }\n");
	/* priority, then dependents after what they depend on, then name */
	ck_assert_uint_eq(suite->tests.n, 5);
	ck_assert_str_eq(suite->tests.v[0].id, "T#login");
	ck_assert_str_eq(suite->tests.v[1].id, "T#browse");
	ck_assert_str_eq(suite->tests.v[2].id, "T#create");
	ck_assert_str_eq(suite->tests.v[3].id, "T#delete");
	ck_assert_str_eq(suite->tests.v[4].id, "T#last");
	ck_assert_str_eq(suite->tests.v[0].framework, "testng");
	ck_assert_uint_eq(test_id("T#delete")->ndepends, 1);
	ck_assert_str_eq(test_id("T#delete")->depends_on[0], "T#create");
	ck_assert_uint_eq(test_id("T#last")->ndepends, 4); /* every other test of group g */
	ck_assert_uint_eq(test_id("T#login")->ndepends, 0);
}
END_TEST

START_TEST(suite_expansion_is_bounded)
{
	static char src[64 * 1024];
	size_t len = 0;
	int level, i;

	/* S0 lists S1 fifty times, S1 lists S2 fifty times...: 50^6 expansions unless each
	 * suite is expanded once */
	len += (size_t)snprintf(src + len, sizeof(src) - len, "import org.junit.Test;\n");
	for (level = 0; level < 6; level++) {
		len += (size_t)snprintf(src + len, sizeof(src) - len, "@SuiteClasses({");
		for (i = 0; i < 50; i++)
			len += (size_t)snprintf(src + len, sizeof(src) - len, "%sS%d.class",
						i ? ", " : "", level + 1);
		len += (size_t)snprintf(src + len, sizeof(src) - len, "}) class S%d {}\n", level);
	}
	snprintf(src + len, sizeof(src) - len,
		 "@SuiteClasses({A.class}) class S6 {}\n"
		 "class A { @Test public void a() {} }\n");
	parse(src);
	ck_assert_uint_eq(suite->tests.n, 1);
	ck_assert_str_eq(suite->tests.v[0].id, "A#a");
}
END_TEST

/* Reads fixture tests/fixtures/collect/<dir> with its tests in <dir>/<paths> (as
 * untangle.json would say). */
static void parse_fixture(const char *dir, const char *paths)
{
	static char root[1024], tests[1200];
	static const char *pv[1];
	ut_parse_opts opts;

	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	suite = NULL;
	snprintf(root, sizeof(root), "%s/collect/%s", UT_FIXTURES, dir);
	snprintf(tests, sizeof(tests), "%s/%s", root, paths);
	pv[0] = tests;
	memset(&opts, 0, sizeof(opts));
	opts.root = root;
	opts.paths = pv;
	opts.npaths = 1;
	opts.language = UT_LANG_JAVA;
	ck_assert_int_eq(ut_parse_suite(&suite, &opts, &diags), 0);
}

static void expect_roots(const char *first, const char *second)
{
	ck_assert_uint_eq(suite->roots.n, second ? 2 : 1);
	ck_assert_str_eq(suite->roots.v[0], first);
	if (second)
		ck_assert_str_eq(suite->roots.v[1], second);
}

START_TEST(testng_configuration_methods_are_no_tests)
{
	parse("import org.testng.annotations.*;\n"
	      "@Test\n"
	      "public class C {\n"
	      "  @BeforeSuite public void a() {}\n"
	      "  @AfterSuite public void b() {}\n"
	      "  @BeforeTest public void c() {}\n"
	      "  @AfterTest public void d() {}\n"
	      "  @BeforeGroups(\"g\") public void e() {}\n"
	      "  @AfterGroups(\"g\") public void f() {}\n"
	      "  @BeforeClass public void g() {}\n"
	      "  @AfterClass public void h() {}\n"
	      "  @BeforeMethod public void i() {}\n"
	      "  @org.testng.annotations.AfterMethod public void j() {}\n"
	      "  public void test() {}\n"
	      "}\n");
	ck_assert_uint_eq(suite->tests.n, 1);
	ck_assert_str_eq(suite->tests.v[0].id, "C#test");
	/* no suite file: the runner is given the class */
	expect_roots("C", NULL);
}
END_TEST

START_TEST(testng_order_is_testng_rounds)
{
	/* a dependee of a higher priority runs before its dependent (round by round, the
	 * lowest priority of the tests whose dependencies have run) */
	parse("import org.testng.annotations.Test;\n"
	      "class S {\n"
	      "  @Test(priority = 2) public void byName() {}\n"
	      "  @Test(dependsOnMethods = \"byName\") public void filter() {}\n"
	      "  @Test public void empty() {}\n"
	      "}\n");
	ck_assert_uint_eq(suite->tests.n, 3);
	ck_assert_str_eq(suite->tests.v[0].id, "S#empty");
	ck_assert_str_eq(suite->tests.v[1].id, "S#byName");
	ck_assert_str_eq(suite->tests.v[2].id, "S#filter");
}
END_TEST

START_TEST(junit_roots)
{
	parse("import org.junit.Test;\n"
	      "@SuiteClasses({B.class, A.class}) class All {}\n"
	      "class A { @Test public void a() {} }\n"
	      "class B { @Test public void b() {} }\n");
	expect_roots("All", NULL);
	parse("import org.junit.Test;\n"
	      "class B { @Test public void b() {} }\n"
	      "class A { @Test public void a() {} }\n");
	expect_roots("B", "A"); /* no root suite: the classes, in order */
}
END_TEST

START_TEST(root_suite_outside_the_test_paths)
{
	parse_fixture("junit-roots", "src/test/java/shop");
	ck_assert_uint_eq(suite->tests.n, 5);
	ck_assert_str_eq(suite->tests.v[0].id, "shop.cart.PayTest#addItem");
	ck_assert_str_eq(suite->tests.v[4].id, "shop.ZebraTest#stripes");
	expect_roots("suites.AllTests", NULL);
	ck_assert_uint_eq(diags.items.n, 0);
}
END_TEST

START_TEST(suite_file_the_build_names)
{
	parse_fixture("testng-pom", "src/test/java");
	expect_roots("src/test/resources/suites/smoke.xml", NULL);
	ck_assert_ptr_null(ut_suite_find(suite, "store.DecoyTests#decoy"));
	ck_assert_ptr_null(ut_suite_find(suite, "store.CartTests#openBrowser"));
	parse_fixture("testng-gradle", "src/test/java");
	expect_roots("src/test/resources/gradle-suite.xml", NULL);
	ck_assert_ptr_null(ut_suite_find(suite, "checkout.LegacyTests#legacy"));
	/* useTestNG: Gradle runs no JUnit class */
	ck_assert_ptr_null(ut_suite_find(suite, "checkout.ReceiptTest#receipt"));
	ck_assert_uint_eq(suite->tests.n, 5);
	/* the suite file it names first, then its own <test> in preserve-order */
	ck_assert_str_eq(suite->tests.v[0].id, "checkout.CouponTests#redeem");
	ck_assert_str_eq(suite->tests.v[3].id, "checkout.PaymentTests#openWallet");
}
END_TEST

START_TEST(maven_includes_decide_the_test_classes)
{
	/* Surefire's includes and excludes (a ${property} expanded), Failsafe's defaults */
	parse_fixture("maven-includes", "src/test/java");
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(suite->tests.v[0].id, "shop.CartCheck#open");
	ck_assert_str_eq(suite->tests.v[1].id, "shop.CheckoutIT#open");
	expect_roots("shop.CartCheck", "shop.CheckoutIT");
	ck_assert_uint_eq(diags.items.n, 1);
	ck_assert_ptr_nonnull(strstr(diags.items.v[0].message, "shop.LoginTest, shop.SlowCheck"));
}
END_TEST

Suite *java_suite(void)
{
	Suite *s = suite_create("java");
	TCase *tc = tcase_create("collect");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, inherited_tests_run_overrides);
	tcase_add_test(tc, hooks_walked_once_per_class);
	tcase_add_test(tc, root_suite_decides);
	tcase_add_test(tc, junit4_default_order_is_hash_order);
	tcase_add_test(tc, testng_rules);
	tcase_add_test(tc, suite_expansion_is_bounded);
	tcase_add_test(tc, testng_configuration_methods_are_no_tests);
	tcase_add_test(tc, testng_order_is_testng_rounds);
	tcase_add_test(tc, junit_roots);
	tcase_add_test(tc, root_suite_outside_the_test_paths);
	tcase_add_test(tc, suite_file_the_build_names);
	tcase_add_test(tc, maven_includes_decide_the_test_classes);
	suite_add_tcase(s, tc);
	return s;
}
