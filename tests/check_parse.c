/* check_parse.c: the parse stage on in-memory sources: values, forwarding, setup code,
 * ordering rules and hostile input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/mocharc.h"
#include "parse/parse.h"
#include "util/buf.h"
#include "util/error.h"

Suite *parse_suite(void);

static ut_suite *suite;
static ut_diags diags;

static void parse(ut_lang lang, const char *name, const char *src)
{
	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	suite = NULL;
	ck_assert_int_eq(ut_parse_buffer(&suite, lang, name, src, strlen(src), &diags), 0);
}

static void teardown(void)
{
	ut_suite_free(suite);
	suite = NULL;
	ut_diags_dispose(&diags);
}

static const ut_test *test_named(const char *name)
{
	size_t i;

	for (i = 0; i < suite->tests.n; i++)
		if (strcmp(suite->tests.v[i].name, name) == 0)
			return &suite->tests.v[i];
	ck_abort_msg("no test named '%s'", name);
	return NULL;
}

/* The first action of `kind` in t holding value v (as value or as unresolved text). */
static const ut_action *action_with(const ut_test *t, ut_action_kind kind, const char *v,
				    bool unresolved)
{
	size_t i, j;

	for (i = 0; i < t->nactions; i++) {
		const ut_action *a = &t->actions[i];
		const char *const *vals = unresolved ? a->unresolved : a->values;
		size_t n = unresolved ? a->nunresolved : a->nvalues;

		if (a->kind != kind)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(vals[j], v) == 0)
				return a;
	}
	return NULL;
}

static void expect(const char *test, ut_action_kind kind, const char *v)
{
	ck_assert_msg(action_with(test_named(test), kind, v, false), "%s: no %s action with '%s'",
		      test, ut_action_kind_name(kind), v);
}

static void parse_dir(const char *dir, ut_lang lang)
{
	char root[1024];
	ut_parse_opts opts;

	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	suite = NULL;
	snprintf(root, sizeof(root), "%s/parse/resolve/%s", UT_FIXTURES, dir);
	memset(&opts, 0, sizeof(opts));
	opts.root = root;
	opts.language = lang;
	ck_assert_int_eq(ut_parse_suite(&suite, &opts, &diags), 0);
}

/* v is an action of `kind` in test, reached through `via` (NULL: in the test itself). */
static void expect_via(const char *test, ut_action_kind kind, const char *v, const char *via)
{
	const ut_action *a = action_with(test_named(test), kind, v, false);

	ck_assert_msg(a, "%s: no %s action with '%s'", test, ut_action_kind_name(kind), v);
	if (via)
		ck_assert_msg(a->via && strcmp(a->via, via) == 0,
			      "%s: '%s' went through '%s', not '%s'", test, v,
			      a->via ? a->via : "(none)", via);
}

/* No action of test holds v as a value: a same-named method of another class was not run. */
static void refute(const char *test, const char *v)
{
	const ut_test *t = test_named(test);
	size_t i, j;

	for (i = 0; i < t->nactions; i++)
		for (j = 0; j < t->actions[i].nvalues; j++)
			ck_assert_msg(strcmp(t->actions[i].values[j], v) != 0,
				      "%s: unexpected %s '%s'", test,
				      ut_action_kind_name(t->actions[i].kind), v);
}

/* The nth action of `kind` in t (from 0), or NULL. */
static const ut_action *nth_of(const ut_test *t, ut_action_kind kind, size_t nth)
{
	size_t i;

	for (i = 0; i < t->nactions; i++)
		if (t->actions[i].kind == kind && nth-- == 0)
			return &t->actions[i];
	return NULL;
}

static size_t count_kind(const char *test, ut_action_kind kind)
{
	const ut_test *t = test_named(test);
	size_t i, n = 0;

	for (i = 0; i < t->nactions; i++)
		n += t->actions[i].kind == kind;
	return n;
}

START_TEST(java_receiver_types)
{
	parse_dir("java", UT_LANG_JAVA);
	/* the superclass's method, not the unrelated TagsPage.alertSays */
	expect_via("inheritedMethod", UT_ACT_LOCATE, "base-alert", "BasePage.alertSays");
	refute("inheritedMethod", "tags-alert");
	/* @FindBy/@FindAll fields locate where they are used */
	expect_via("findByFields", UT_ACT_LOCATE, "category_name", "CategoriesPage.submitCategory");
	expect_via("findByFields", UT_ACT_SUBMIT, "Winters Collection",
		   "CategoriesPage.submitCategory");
	expect("findByFields", UT_ACT_LOCATE, "button.save");
	expect("findByFields", UT_ACT_LOCATE, "category_note");
	expect("findByFields", UT_ACT_LOCATE, "cat-link");
	expect("findByFields", UT_ACT_LOCATE, "//a[@class='cat']");
	ck_assert_uint_eq(count_kind("findByFields", UT_ACT_CLICK), 2);
	/* the superclass's method calls the receiver's overrides (this.m() and bare m()) */
	expect_via("templateMethod", UT_ACT_SUBMIT, "template Winter", "BasePage.save");
	expect_via("templateMethod", UT_ACT_LOCATE, "category_name", "BasePage.save");
	expect_via("templateMethod", UT_ACT_LOCATE, "button.save", "BasePage.save");
	ck_assert_ptr_null(
	    action_with(test_named("templateMethod"), UT_ACT_LOCATE, "base-confirm", false));
	/* factory methods, chains and a page object's own fill() */
	expect_via("factoryAndChain", UT_ACT_SUBMIT, "blue", "TagsPage.add");
	expect_via("factoryAndChain", UT_ACT_SUBMIT, "green", "TagsPage.add");
	expect_via("factoryAndChain", UT_ACT_SUBMIT, "twice", "BasePage.fill");
	expect_via("declaredParameter", UT_ACT_SUBMIT, "red", "ReceiverTest.addTag");
	/* Properties and Map have no methods of the suite */
	ck_assert_uint_eq(count_kind("mapsAndProperties", UT_ACT_NAVIGATE), 0);
	ck_assert_uint_eq(count_kind("mapsAndProperties", UT_ACT_SUBMIT), 0);
	refute("mapsAndProperties", "tags-cleared");
	/* a driver navigates; a page object's get(url) is followed; static calls still are */
	expect("drivers", UT_ACT_NAVIGATE, "http://app.test/web");
	expect_via("drivers", UT_ACT_NAVIGATE, "http://app.test/tab", "TagsPage.get");
	expect_via("drivers", UT_ACT_SUBMIT, "ann", "Helper.login");
	expect("drivers", UT_ACT_NAVIGATE, "http://app.test/getter");
	/* unknown receiver: nothing run, the call marked unresolved */
	ck_assert_ptr_nonnull(action_with(test_named("unknownReceiver"), UT_ACT_OTHER,
					  "widget.add(\"purple\")", true));
	ck_assert_uint_eq(count_kind("unknownReceiver", UT_ACT_SUBMIT), 0);
	refute("unknownReceiver", "tags-cleared");
}
END_TEST

START_TEST(python_receiver_types)
{
	parse_dir("python", UT_LANG_PYTHON);
	ck_assert_uint_eq(count_kind("test_dict_get", UT_ACT_NAVIGATE), 0);
	ck_assert_uint_eq(count_kind("test_dict_get", UT_ACT_SUBMIT), 0);
	/* selenium (an overriding fixture), browser, wd, a fixture yielding a driver, page.driver
	 */
	expect("test_driver_names", UT_ACT_NAVIGATE, "http://app.test/selenium");
	expect("test_driver_names", UT_ACT_NAVIGATE, "http://app.test/browser");
	expect("test_driver_names", UT_ACT_NAVIGATE, "http://app.test/wd");
	expect("test_driver_names", UT_ACT_NAVIGATE, "http://app.test/chrome");
	expect("test_driver_names", UT_ACT_NAVIGATE, "http://app.test/page-driver");
	/* built as a driver; a driver's name bound to something else is not one */
	expect("test_built_drivers", UT_ACT_NAVIGATE, "http://app.test/firefox");
	expect_via("test_built_drivers", UT_ACT_NAVIGATE, "http://app.test/tab-named-wd",
		   "Tab.get");
	ck_assert_ptr_null(
	    action_with(test_named("test_built_drivers"), UT_ACT_NAVIGATE, "name", false));
	ck_assert_uint_eq(count_kind("test_built_drivers", UT_ACT_NAVIGATE), 2);
	/* a fixture's return, a method's return, the superclass, `return self` */
	expect_via("test_fixture_page", UT_ACT_SUBMIT, "ann", "LoginPage.login");
	expect_via("test_fixture_page", UT_ACT_SUBMIT, "cats", "BasePage.search");
	expect_via("test_fixture_page", UT_ACT_SUBMIT, "Work", "HomePage.add_board");
	refute("test_fixture_page", "other-ann");
	expect_via("test_constructed", UT_ACT_SUBMIT, "dogs", "BasePage.search");
	expect_via("test_constructed", UT_ACT_NAVIGATE, "http://app.test/tab", "Tab.get");
	expect_via("test_aliased_class", UT_ACT_SUBMIT, "aliased", "LoginPage.login");
	/* the nearest conftest.py's fixture of that name */
	expect_via("test_nearest_fixture", UT_ACT_SUBMIT, "other-sub", "Unrelated.login");
	/* self.page set in setup */
	expect_via("test_self_field", UT_ACT_SUBMIT, "Self board", "HomePage.add_board");
	expect_via("test_self_field", UT_ACT_SUBMIT, "self search", "BasePage.search");
}
END_TEST

START_TEST(js_receiver_types)
{
	parse_dir("js", UT_LANG_NONE);
	ck_assert_uint_eq(count_kind("maps are not pages", UT_ACT_SUBMIT), 0);
	refute("maps are not pages", "reset-tags");
	expect_via("inherits", UT_ACT_LOCATE, ".base-alert", "BasePage.alertSays");
	expect_via("inherits", UT_ACT_SUBMIT, "Work", "ListPage.add");
	expect_via("inherits", UT_ACT_SUBMIT, "reset-tags", "TagsPage.clear");
	expect("drives", UT_ACT_NAVIGATE, "http://app.test/built");
	expect("drives", UT_ACT_NAVIGATE, "http://app.test/this-driver");
	expect_via("drives", UT_ACT_SUBMIT, "needle", "search");
	ck_assert_ptr_nonnull(
	    action_with(test_named("unknown"), UT_ACT_OTHER, "mystery.get('k')", true));
	refute("unknown", "tags-k");
	refute("unknown", "reset-tags");
	expect_via("uses the page its hook built", UT_ACT_SUBMIT, "Hooked", "ListPage.add");
	expect_via("uses the page of this", UT_ACT_SUBMIT, "FromThis", "ListPage.add");
	/* a module exporting an instance: module.exports = new P(), export default new P() */
	expect_via("uses exported instances", UT_ACT_SUBMIT, "single", "LoginPage.login");
	expect_via("uses exported instances", UT_ACT_SUBMIT, "found", "SearchPage.search");
	/* TypeScript: declared types of locals and parameters */
	expect_via("uses declared types", UT_ACT_SUBMIT, "TsList", "ListPage.add");
	expect_via("uses declared types", UT_ACT_SUBMIT, "reset-tags", "cleanup");
	expect_via("uses a field declared in the constructor", UT_ACT_SUBMIT, "FromFlow",
		   "Flow.run");
}
END_TEST

START_TEST(java_values_and_forwarding)
{
	parse(UT_LANG_JAVA, "T.java",
	      "package p;\n"
	      "class T {\n"
	      "  static final String DOMAIN = \"@x.test\";\n"
	      "  static final String USER = \"ann\" + DOMAIN;\n"
	      "  void type(String v) { field(v); }\n"
	      "  void field(String w) { driver.findElement(By.id(\"f\")).sendKeys(w); }\n"
	      "  @Before public void up() { driver.findElement(By.id(\"admin\")).sendKeys(\"root\"); }\n"
	      "  @Test public void one() {\n"
	      "    String local = \"tab\\there\\u0041\";\n"
	      "    driver.findElement(By.name(\"n\")).sendKeys(local, Keys.ENTER);\n"
	      "    type(USER);\n"
	      "    driver.findElement(By.id(\"q\")).sendKeys(\"n\" + 42);\n"
	      "    driver.findElement(By.id(\"r\")).sendKeys(random());\n"
	      "    assertEquals(\"Hi \" + USER, header.getText());\n"
	      "  }\n"
	      "}\n");
	ck_assert_uint_eq(suite->tests.n, 1);
	ck_assert_str_eq(suite->tests.v[0].id, "p.T#one");
	ck_assert_str_eq(suite->tests.v[0].framework, "junit4");
	expect("one", UT_ACT_SUBMIT, "tab\there" "A");
	expect("one", UT_ACT_SUBMIT, "n42");
	expect("one", UT_ACT_ASSERT, "Hi ann@x.test");
	expect("one", UT_ACT_LOCATE, "n");
	{
		const ut_action *fwd = action_with(test_named("one"), UT_ACT_SUBMIT, "ann@x.test", false);
		const ut_action *setup = action_with(test_named("one"), UT_ACT_SUBMIT, "root", false);

		ck_assert_ptr_nonnull(fwd);
		ck_assert_str_eq(fwd->via, "T.type");
		ck_assert_uint_eq(fwd->line, 11); /* the call site, two helpers up */
		ck_assert(!fwd->setup);
		ck_assert_ptr_nonnull(setup);
		ck_assert(setup->setup);
	}
	ck_assert_ptr_nonnull(action_with(test_named("one"), UT_ACT_SUBMIT, "random()", true));
	ck_assert_ptr_null(action_with(test_named("one"), UT_ACT_SUBMIT, "Keys.ENTER", true));
}
END_TEST

START_TEST(java_orders)
{
	parse(UT_LANG_JAVA, "O.java",
	      "import org.junit.jupiter.api.*;\n"
	      "@TestMethodOrder(MethodOrderer.OrderAnnotation.class)\n"
	      "class O {\n"
	      "  @Test void c() {}\n"
	      "  @Test @Order(2) void b() {}\n"
	      "  @Test @Order(1) void a() {}\n"
	      "}\n"
	      "@FixMethodOrder(MethodSorters.NAME_ASCENDING)\n"
	      "class N { @Test public void z() {} @Test public void y() {} @Ignore @Test public void x() {} }\n");
	/* classes in source order; methods by @Order (unordered last), then by name */
	ck_assert_uint_eq(suite->tests.n, 5);
	ck_assert_str_eq(suite->tests.v[0].id, "O#a");
	ck_assert_str_eq(suite->tests.v[1].id, "O#b");
	ck_assert_str_eq(suite->tests.v[2].id, "O#c");
	ck_assert_str_eq(suite->tests.v[3].id, "N#y");
	ck_assert_str_eq(suite->tests.v[4].id, "N#z");
	ck_assert_str_eq(suite->tests.v[0].framework, "junit5");
}
END_TEST

START_TEST(python_strings_and_classes)
{
	parse(UT_LANG_PYTHON, "tests/test_x.py",
	      "NAME = 'Ann'\n"
	      "def fill(d, who):\n"
	      "    d.find_element(By.ID, 'name').send_keys(who)\n"
	      "def test_f(driver):\n"
	      "    driver.find_element(By.ID, 'a').send_keys(f'{NAME} {{x}}')\n"
	      "    driver.find_element(By.ID, 'b').send_keys(f'{driver.title}!')\n"
	      "    driver.find_element_by_name('legacy').send_keys('one' 'two')\n"
	      "    fill(driver, who=NAME + '!')\n"
	      "    assert 'Ann' in driver.page_source\n"
	      "class TestC(unittest.TestCase):\n"
	      "    def test_z(self): pass\n"
	      "    def test_a(self): pass\n");
	ck_assert_uint_eq(suite->tests.n, 3);
	ck_assert_str_eq(suite->tests.v[0].id, "tests/test_x.py::test_f");
	/* unittest sorts methods by name */
	ck_assert_str_eq(suite->tests.v[1].id, "tests/test_x.py::TestC::test_a");
	ck_assert_str_eq(suite->tests.v[1].framework, "unittest");
	expect("test_f", UT_ACT_SUBMIT, "Ann {x}");
	expect("test_f", UT_ACT_SUBMIT, "onetwo");
	expect("test_f", UT_ACT_LOCATE, "legacy");
	expect("test_f", UT_ACT_SUBMIT, "Ann!");
	expect("test_f", UT_ACT_ASSERT, "Ann");
	ck_assert_ptr_nonnull(action_with(test_named("test_f"), UT_ACT_SUBMIT, "f'{driver.title}!'", true));
}
END_TEST

START_TEST(js_order_hooks_and_skips)
{
	parse(UT_LANG_JAVASCRIPT, "test/a.spec.js",
	      "const login = async (d, user) => { await d.findElement(By.id('u')).sendKeys(user); };\n"
	      "describe('A', () => {\n"
	      "  beforeEach(async () => { await login(driver, `adm${'in'}`); });\n"
	      "  describe('inner', () => { it('second', async () => {}); });\n"
	      "  it('first', async () => { await driver.findElement(By.css('#x')).sendKeys('v'); });\n"
	      "  it.skip('never', async () => {});\n"
	      "  xit('never2', async () => {});\n"
	      "});\n");
	ck_assert_uint_eq(suite->tests.n, 2);
	/* mocha: a suite's own tests before its nested suites */
	ck_assert_str_eq(suite->tests.v[0].id, "test/a.spec.js::A first");
	ck_assert_str_eq(suite->tests.v[1].id, "test/a.spec.js::A inner second");
	expect("first", UT_ACT_SUBMIT, "v");
	ck_assert(action_with(test_named("second"), UT_ACT_SUBMIT, "admin", false)->setup);
}
END_TEST

START_TEST(jest_keeps_declaration_order)
{
	parse(UT_LANG_TYPESCRIPT, "t.test.ts",
	      "import { test, describe } from '@jest/globals';\n"
	      "describe('S', () => {\n"
	      "  describe('inner', () => { test('second', () => {}); });\n"
	      "  test('third', async () => { const v: string = 'x'; await page.fill('#a', v); });\n"
	      "});\n");
	ck_assert_uint_eq(suite->tests.n, 2);
	ck_assert_str_eq(suite->tests.v[0].id, "t.test.ts::S inner second");
	ck_assert_str_eq(suite->tests.v[0].framework, "jest");
	expect("third", UT_ACT_SUBMIT, "x");
}
END_TEST

START_TEST(js_helper_branches_follow_literal_arguments)
{
	parse(UT_LANG_JAVASCRIPT, "test/a.spec.js",
	      "class InvitePage {\n"
	      "  async invite(email, role) {\n"
	      "    if (role === 'viewer') { role = 'follower'; }\n"
	      "    else if (role !== 'owner') role = role + '-member';\n"
	      "    if (!role) role = 'none';\n"
	      "    await this.driver.findElement(By.css(`option[value=${role}]`)).click();\n"
	      "    await this.driver.findElement(By.css('input.email')).sendKeys(email);\n"
	      "  }\n"
	      "}\n"
	      "describe('invites', () => {\n"
	      "  const page = new InvitePage(driver);\n"
	      "  it('editor', async () => {\n"
	      "    const email = helper.newEmail('editor');\n"
	      "    await new InvitePage(driver).invite(email, 'editor');\n"
	      "  });\n"
	      "  it('viewer', async () => { await page.invite('a@b.c', 'viewer'); });\n"
	      "  it('owner', async () => { await page.invite('o@b.c', 'owner'); });\n"
	      "  it('mailer', async () => {\n"
	      "    await driver.findElement(By.id('e')).sendKeys(helper.mail('ann'));\n"
	      "    await driver.get(helper.host('login'));\n"
	      "  });\n"
	      "});\n"
	      "exports.mail = (n) => n + Date.now() + '@x.test';\n"
	      "exports.host = (p) => 'http://app.test/' + p;\n");
	static const char *const located[][2] = {{"editor", "option[value=editor-member]"},
						 {"viewer", "option[value=follower]"},
						 {"owner", "option[value=owner]"}};
	size_t i;

	ck_assert_uint_eq(suite->tests.n, 4);
	for (i = 0; i < 3; i++)
		expect(located[i][0], UT_ACT_LOCATE, located[i][1]);
	ck_assert(!action_with(test_named("editor"), UT_ACT_LOCATE, "option[value=follower]", false));
	/* a call's result is not dropped: unresolved, with its source text */
	ck_assert(action_with(test_named("editor"), UT_ACT_SUBMIT, "helper.newEmail('editor')", true));
	/* an exported one-expression helper is evaluated with its arguments */
	ck_assert(action_with(test_named("mailer"), UT_ACT_SUBMIT, "n + Date.now() + '@x.test'", true));
	expect("mailer", UT_ACT_NAVIGATE, "http://app.test/login");
}
END_TEST

START_TEST(js_registration_forms)
{
	parse(UT_LANG_JAVASCRIPT, "test/a.spec.js",
	      "const test = require('selenium-webdriver/testing');\n"
	      "function suiteFor(name) { describe('Suite ' + name, () => { it('adds', () => {}); }); }\n"
	      "suiteFor('react');\n"
	      "suiteFor('vue');\n"
	      "for (const b of ['x', 'y']) test.describe('loop ' + b, () => { test.it('t', () => {}); });\n"
	      "describe('d', () => { step('s', () => {}); xstep('no', () => {}); it('s', () => {}); });\n"
	      "if (false) { describe('off', () => { it('never', () => {}); }); }\n"
	      "if (null) it('never2', () => {}); else it('on', () => {});\n");
	static const char *const ids[] = {
		"on", "Suite react adds", "Suite vue adds", "loop x t", "loop y t", "d s", "d s #2"};
	size_t i;

	ck_assert_uint_eq(suite->tests.n, sizeof(ids) / sizeof(ids[0]));
	for (i = 0; i < suite->tests.n; i++)
		ck_assert_str_eq(suite->tests.v[i].id + strlen("test/a.spec.js::"), ids[i]);
	ck_assert_str_eq(suite->tests.v[6].name, "s");
}
END_TEST

/* Titles with parts only the run knows keep them as ${expression}; an async function
 * called in place registers after the rest of the file, a loop over what it awaits read
 * once with a warning. */
START_TEST(js_titles_known_at_run_time)
{
	parse(UT_LANG_JAVASCRIPT, "test/t.spec.js",
	      "const SITE = 'shop';\n"
	      "const ENV = process.env.ENV || 'local';\n"
	      "(async () => {\n"
	      "  for (const n of await list()) it('late ' + n, () => {});\n"
	      "})();\n"
	      "describe(`${SITE} on ${ENV}`, () => {\n"
	      "  it('runs on ' + ENV + ' only', () => {});\n"
	      "  it(`in ${  os.type(\n  'x') }`, () => {});\n"
	      "});\n"
	      "it('first', () => {});\n");
	static const char *const ids[] = {"first", "late ${n}", "shop on ${ENV} runs on ${ENV} only",
					  "shop on ${ENV} in ${os.type( 'x')}"};
	size_t i;

	ck_assert_uint_eq(suite->tests.n, sizeof(ids) / sizeof(ids[0]));
	for (i = 0; i < suite->tests.n; i++)
		ck_assert_str_eq(suite->tests.v[i].id + strlen("test/t.spec.js::"), ids[i]);
	ck_assert_uint_eq(diags.items.n, 1);
}
END_TEST

/* mocha's spec entries: a glob with ** and {a,b}, a folder (its subfolders when
 * recursive), a file named without its extension. */
START_TEST(mocharc_spec_entries)
{
	ut_mocharc rc;
	char *spec[] = {"test/**/*.{spec,e2e}.js", "checks", "one/login"};
	char *ext[] = {"js", "ts"};

	memset(&rc, 0, sizeof(rc));
	rc.spec.v = spec;
	rc.spec.n = 3;
	rc.ext.v = ext;
	rc.ext.n = 2;
	ck_assert(ut_mocharc_is_spec(&rc, "test/a.spec.js"));
	ck_assert(ut_mocharc_is_spec(&rc, "test/deep/er/b.e2e.js"));
	ck_assert(!ut_mocharc_is_spec(&rc, "test/lib/helper.js"));
	ck_assert(!ut_mocharc_is_spec(&rc, "other/a.spec.js"));
	ck_assert(ut_mocharc_is_spec(&rc, "checks/x.ts"));
	ck_assert(!ut_mocharc_is_spec(&rc, "checks/x.json"));
	ck_assert(!ut_mocharc_is_spec(&rc, "checks/sub/y.js"));
	rc.recursive = true;
	ck_assert(ut_mocharc_is_spec(&rc, "checks/sub/y.js"));
	ck_assert(ut_mocharc_is_spec(&rc, "one/login.js"));
	ck_assert(!ut_mocharc_is_spec(&rc, "one/logout.js"));
}
END_TEST

/* Code that stays on the test machine (environment, temporary files, file output, the
 * browser's launch options and service, DevTools commands, exception messages) gives no
 * values; an HTTP client or an API helper does, and so does the browser's own script. */
static void local_calls(const char *dir, ut_lang lang, const char *test)
{
	static const char *const local[] = {
		"shop-profile-", "--headless", "--window-size=800,600", "SHOP_URL",
		"http://shop.test", "/usr/bin/chromedriver", "Profiler.takePreciseCoverage",
		"coverage.json", "w", "utf-8", "saved coverage", "SHOP_URL is empty", "chrome",
		"started", "no profile directory", "webdriver.chrome.driver",
		"cannot create a profile directory", "quit-browser", NULL};
	const char *const *v;

	parse_dir(dir, lang);
	for (v = local; *v; v++)
		refute(test, *v);
	expect(test, UT_ACT_OTHER, "http://shop.test/api/users");
	expect(test, UT_ACT_NAVIGATE, "http://shop.test/cart");
	expect(test, UT_ACT_SUBMIT, "3");
}

START_TEST(local_calls_give_no_values)
{
	local_calls("local_py", UT_LANG_PYTHON, "test_buy");
	expect("test_buy", UT_ACT_OTHER, "name=seed-user");
	expect("test_buy", UT_ACT_OTHER, "Seeded Lamp");
	expect("test_buy", UT_ACT_OTHER, "localStorage.setItem('coupon', 'SPRING')");
	local_calls("local_js", UT_LANG_NONE, "buys");
	expect("buys", UT_ACT_OTHER, "Seeded Lamp");
	local_calls("local_java", UT_LANG_JAVA, "buy");
	expect("buy", UT_ACT_OTHER, "name=seed-user");
}
END_TEST

START_TEST(hostile_input_never_crashes)
{
	static const ut_lang langs[] = {UT_LANG_JAVA, UT_LANG_PYTHON, UT_LANG_JAVASCRIPT,
					UT_LANG_TYPESCRIPT, UT_LANG_TSX};
	char *deep = malloc(200001);
	unsigned char junk[4096];
	size_t i, l;

	ck_assert_ptr_nonnull(deep);
	for (i = 0; i < 100000; i++) {
		deep[i] = '(';
		deep[200000 - 1 - i] = ')';
	}
	deep[200000] = '\0';
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)((i * 2654435761u) >> 13);
	for (l = 0; l < sizeof(langs) / sizeof(langs[0]); l++) {
		ut_suite *s = NULL;
		ut_diags d;
		int rc;

		ut_diags_init(&d);
		rc = ut_parse_buffer(&s, langs[l], "deep", deep, 200000, &d);
		ck_assert(rc == 0 || rc == UT_EINPUT);
		ut_suite_free(s);
		s = NULL;
		rc = ut_parse_buffer(&s, langs[l], "junk", (const char *)junk, sizeof(junk), &d);
		ck_assert(rc == 0 || rc == UT_EINPUT);
		ck_assert_uint_gt(d.items.n, 0); /* a warning names the file */
		ck_assert_str_eq(d.items.v[0].file, "deep");
		/* its tests are missing: shard and run decide on the kind (issue 29) */
		ck_assert_int_eq(d.items.v[0].kind, UT_DIAG_UNREAD);
		ut_suite_free(s);
		ut_diags_dispose(&d);
	}
	free(deep);
}
END_TEST

/* A syntax error is told apart from other warnings by its kind, not by its wording, and
 * keeps it when a suite's files are parsed in jobs and their diagnostics gathered. */
START_TEST(syntax_error_has_its_kind)
{
	static const char bad[] = "def test_a():\n    pass\n\ndef test_b(:\n    x = (\n";
	char dir[] = "/tmp/ut-parse-kind-XXXXXX", path[256];
	const char *const paths[] = {dir};
	ut_parse_opts opts;
	size_t syntax = 0, other = 0;
	FILE *f;

	parse(UT_LANG_PYTHON, "bad.py", bad);
	ck_assert_uint_eq(diags.items.n, 1);
	ck_assert_int_eq(diags.items.v[0].kind, UT_DIAG_SYNTAX);
	parse(UT_LANG_PYTHON, "utf8.py", "def test_a():\n    x = '\xff'\n");
	ck_assert_uint_eq(diags.items.n, 1);
	ck_assert_int_eq(diags.items.v[0].kind, UT_DIAG_INPUT);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/test_bad.py", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(bad, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/test_empty.py", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ut_suite_free(suite);
	suite = NULL;
	ut_diags_dispose(&diags);
	ut_diags_init(&diags);
	memset(&opts, 0, sizeof(opts));
	opts.root = dir;
	opts.paths = paths;
	opts.npaths = 1;
	opts.language = UT_LANG_PYTHON;
	opts.jobs = 2;
	ck_assert_int_eq(ut_parse_suite(&suite, &opts, &diags), 0);
	for (size_t i = 0; i < diags.items.n; i++) {
		if (diags.items.v[i].kind == UT_DIAG_SYNTAX) {
			ck_assert_str_eq(diags.items.v[i].file, "test_bad.py");
			syntax++;
		} else {
			other++; /* the empty file */
		}
	}
	ck_assert_uint_eq(syntax, 1);
	ck_assert_uint_eq(other, 1);
	snprintf(path, sizeof(path), "%s/test_bad.py", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/test_empty.py", dir);
	remove(path);
	rmdir(dir);
}
END_TEST

/* Tests are walked after discovery, several at once: each keeps its own actions and values,
 * and a walk cut by the depth limit is said of its test, with the test's line, while the
 * rest of the test is still walked. */
START_TEST(walks_cut_and_kept_per_test)
{
	ut_buf src = UT_BUF_INIT;
	const ut_diag *cut = NULL;
	size_t i;

	ut_buf_puts(&src, "def test_shallow():\n"
			  "    driver.find_element(By.ID, 'a').send_keys('first')\n\n"
			  "def test_deep():\n"
			  "    driver.find_element(By.ID, 'b').send_keys('before')\n"
			  "    x = ");
	for (i = 0; i < 300; i++)
		ut_buf_puts(&src, "f(");
	ut_buf_puts(&src, "'inner'");
	for (i = 0; i < 300; i++)
		ut_buf_puts(&src, ")");
	ut_buf_puts(&src, "\n    driver.find_element(By.ID, 'c').send_keys('after')\n\n"
			  "def test_last():\n"
			  "    driver.find_element(By.ID, 'd').send_keys('last')\n");
	parse(UT_LANG_PYTHON, "test_deep.py", src.ptr);
	ut_buf_dispose(&src);
	for (i = 0; i < diags.items.n; i++)
		if (strstr(diags.items.v[i].message, "nests deeper"))
			cut = &diags.items.v[i];
	ck_assert_ptr_nonnull(cut);
	ck_assert_str_eq(cut->file, "test_deep.py");
	ck_assert_uint_eq(cut->line, 4);
	ck_assert_ptr_nonnull(strstr(cut->message, "test_deep.py::test_deep"));
	expect("test_shallow", UT_ACT_SUBMIT, "first");
	expect("test_deep", UT_ACT_SUBMIT, "before");
	expect("test_deep", UT_ACT_SUBMIT, "after");
	expect("test_last", UT_ACT_SUBMIT, "last");
	refute("test_shallow", "before");
	refute("test_last", "after");
}
END_TEST

/* A hook is walked once for the tests of its describe (walks.c keeps its actions): the
 * same hook body in another describe instance gives that one's values, and a hook cut by
 * the depth limit warns for every test it runs before. */
START_TEST(hooks_walked_once_per_scope)
{
	ut_buf src = UT_BUF_INIT;
	size_t i, one = 0, two = 0;

	ut_buf_puts(&src, "const { By } = require('selenium-webdriver');\n"
			  "function suiteFor(name) {\n"
			  "  describe('Suite ' + name, function () {\n"
			  "    beforeEach(async function () {\n"
			  "      await driver.findElement(By.id('user')).sendKeys(name);\n"
			  "    });\n"
			  "    it('one', async function () { await el.sendKeys('1'); });\n"
			  "    it('two', async function () { await el.sendKeys('2'); });\n"
			  "  });\n"
			  "}\n"
			  "suiteFor('react');\n"
			  "suiteFor('vue');\n"
			  "describe('deep', function () {\n"
			  "  beforeEach(function () { x = ");
	for (i = 0; i < 300; i++)
		ut_buf_puts(&src, "f(");
	ut_buf_puts(&src, "'inner'");
	for (i = 0; i < 300; i++)
		ut_buf_puts(&src, ")");
	ut_buf_puts(&src, "; });\n"
			  "  it('three', function () { el.sendKeys('3'); });\n"
			  "  it('four', function () { el.sendKeys('4'); });\n"
			  "});\n");
	parse(UT_LANG_JAVASCRIPT, "a.spec.js", src.ptr);
	ut_buf_dispose(&src);
	ck_assert_uint_eq(suite->tests.n, 6);
	for (i = 0; i < 4; i++) {
		const ut_test *t = &suite->tests.v[i];
		const ut_action *a = action_with(t, UT_ACT_SUBMIT, i < 2 ? "react" : "vue", false);

		ck_assert_msg(a && a->setup, "%s: no setup submit of its describe's name", t->id);
		ck_assert_ptr_null(action_with(t, UT_ACT_SUBMIT, i < 2 ? "vue" : "react", false));
		ck_assert_ptr_nonnull(action_with(t, UT_ACT_SUBMIT, i % 2 ? "2" : "1", false));
	}
	for (i = 0; i < diags.items.n; i++) {
		one += strstr(diags.items.v[i].message, "deep three' nests deeper") != NULL;
		two += strstr(diags.items.v[i].message, "deep four' nests deeper") != NULL;
	}
	ck_assert_uint_eq(one, 1);
	ck_assert_uint_eq(two, 1);
	expect("four", UT_ACT_SUBMIT, "4");
}
END_TEST

/* Definitions that refer to each other in a circle end at the first one met again, and the
 * cycle guard is given back after each: the same definition reached again, later in the test
 * or in another test walked by the same lane or another, gives the same value, and an
 * unrelated chain of definitions is followed as far as it goes. */
START_TEST(cyclic_definitions_end_and_give_the_guard_back)
{
	static const char src[] = "from selenium.webdriver.common.by import By\n\n"
				  "A = B + '-a'\n"
				  "B = A + '-b'\n"
				  "C = 'c-' + D\n"
				  "D = 'd-' + E\n"
				  "E = 'e'\n\n"
				  "def test_one(driver):\n"
				  "    driver.find_element(By.ID, 'one').send_keys(A)\n"
				  "    driver.find_element(By.ID, 'two').send_keys(C)\n"
				  "    driver.find_element(By.ID, 'three').send_keys(A)\n\n"
				  "def test_two(driver):\n"
				  "    driver.find_element(By.ID, 'four').send_keys(B + C)\n";
	static const struct {
		const char *test;
		size_t nth;
		const char *value, *unresolved;
	} want[] = {{"test_one", 0, NULL, "B + '-a'"},
		    {"test_one", 1, "c-d-e", NULL},
		    {"test_one", 2, NULL, "B + '-a'"}, /* not "": A is not marked still */
		    {"test_two", 0, NULL, "B + C"}};
	size_t i;

	parse(UT_LANG_PYTHON, "test_cyc.py", src);
	ck_assert_uint_eq(suite->tests.n, 2);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const ut_action *a = nth_of(test_named(want[i].test), UT_ACT_SUBMIT, want[i].nth);

		ck_assert_msg(a, "%s: no submit %zu", want[i].test, want[i].nth);
		ck_assert_uint_eq(a->nvalues, want[i].value ? 1 : 0);
		ck_assert_uint_eq(a->nunresolved, want[i].unresolved ? 1 : 0);
		if (want[i].value)
			ck_assert_str_eq(a->values[0], want[i].value);
		if (want[i].unresolved)
			ck_assert_str_eq(a->unresolved[0], want[i].unresolved);
	}
}
END_TEST

Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("buffers");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, java_values_and_forwarding);
	tcase_add_test(tc, walks_cut_and_kept_per_test);
	tcase_add_test(tc, hooks_walked_once_per_scope);
	tcase_add_test(tc, java_orders);
	tcase_add_test(tc, python_strings_and_classes);
	tcase_add_test(tc, js_order_hooks_and_skips);
	tcase_add_test(tc, jest_keeps_declaration_order);
	tcase_add_test(tc, js_helper_branches_follow_literal_arguments);
	tcase_add_test(tc, js_registration_forms);
	tcase_add_test(tc, js_titles_known_at_run_time);
	tcase_add_test(tc, mocharc_spec_entries);
	tcase_add_test(tc, local_calls_give_no_values);
	tcase_add_test(tc, hostile_input_never_crashes);
	tcase_add_test(tc, cyclic_definitions_end_and_give_the_guard_back);
	tcase_add_test(tc, syntax_error_has_its_kind);
	suite_add_tcase(s, tc);
	tc = tcase_create("receivers");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, java_receiver_types);
	tcase_add_test(tc, python_receiver_types);
	tcase_add_test(tc, js_receiver_types);
	suite_add_tcase(s, tc);
	return s;
}
