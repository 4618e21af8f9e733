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

Suite *java_suite(void)
{
	Suite *s = suite_create("java");
	TCase *tc = tcase_create("collect");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, inherited_tests_run_overrides);
	tcase_add_test(tc, root_suite_decides);
	tcase_add_test(tc, junit4_default_order_is_hash_order);
	tcase_add_test(tc, testng_rules);
	tcase_add_test(tc, suite_expansion_is_bounded);
	suite_add_tcase(s, tc);
	return s;
}
