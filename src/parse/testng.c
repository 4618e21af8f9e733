/* testng.c: TestNG's rules for the tests of one class: method- and class-level @Test,
 * `enabled = false`, groups, dependsOnMethods/dependsOnGroups, and TestNG's order inside a
 * class (checked against TestNG 6.9 on compiled fixtures, tests/collect/java). */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/banned.h"

static bool word_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* Is `word` among the modifiers of n (the text before its name)? */
static bool has_modifier(const up_file *f, const ut_syn *n, ut_role name_role, const char *word)
{
	const ut_syn *nm = up_syn_child(n, name_role);
	const char *s = f->src.ptr + n->start, *hit;
	size_t len = (nm ? nm->start : n->end) - n->start, wl = strlen(word);

	for (hit = s; (size_t)(hit - s) + wl < len; hit++)
		if (memcmp(hit, word, wl) == 0 && (hit == s || !word_char(hit[-1])) &&
		    !word_char(hit[wl]))
			return true;
	return false;
}

/* TestNG's configuration annotations: such a method is never a test, also in a class with a
 * class-level @Test (the setup hooks among them are walked as setup, java_common.c). */
static const char *const config_names[] = {
    "BeforeSuite",  "AfterSuite",  "BeforeTest",  "AfterTest",
    "BeforeGroups", "AfterGroups", "BeforeClass", "AfterClass",
    "BeforeMethod", "AfterMethod", NULL};

static bool configuration(const up_index *ix, const up_fn *fn)
{
	size_t i;

	for (i = 0; config_names[i]; i++)
		if (up_java_fn_annotation(ix, fn, config_names[i]))
			return true;
	return false;
}

static bool disabled(const up_index *ix, const up_file *f, const ut_syn *test)
{
	return test && strstr(up_java_annotation_args(ix, f, test), "enabled=false") != NULL;
}

/* One method of the chain: a test when it has @Test, or when it is public and a class of
 * the chain has a class-level @Test. */
static int add_method(up_discover *d, up_cls *owner, up_fn *fn, const ut_syn *cls_test,
		      const up_cls *cls_test_of, ut_jmethods *out)
{
	const ut_syn *t = up_java_fn_annotation(d->ix, fn, "Test");
	ut_jmethod jm;
	size_t i;
	int rc;

	if (up_java_hook_kinds(d->ix, fn) || configuration(d->ix, fn)) {
		fn->is_test = true;
		return 0;
	}
	for (i = 0; i < out->n; i++)
		if (strcmp(out->v[i].name, fn->name) == 0)
			return 0; /* overridden: the most derived one counts */
	if (!t && (!cls_test || !fn->body || strcmp(fn->name, owner->name) == 0 ||
		   !has_modifier(fn->file, fn->node, UT_R_FUNC_NAME, "public")))
		return 0;
	fn->is_test = true;
	if (disabled(d->ix, fn->file, t))
		return 0;
	memset(&jm, 0, sizeof(jm));
	jm.fn = fn;
	jm.name = fn->name;
	jm.test = t;
	jm.pos = out->n;
	jm.order = up_java_number_arg(
	    d->ix, fn->file, t, "priority",
	    cls_test ? up_java_number_arg(d->ix, cls_test_of->file, cls_test, "priority", 0) : 0);
	rc = up_java_strings_arg(d->ix, fn->file, t, "groups", &jm.groups);
	if (rc == 0 && cls_test)
		rc = up_java_strings_arg(d->ix, cls_test_of->file, cls_test, "groups", &jm.groups);
	if (rc == 0)
		rc = up_java_strings_arg(d->ix, fn->file, t, "dependsOnMethods", &jm.depends);
	if (rc == 0)
		rc = up_java_strings_arg(d->ix, fn->file, t, "dependsOnGroups", &jm.dep_groups);
	if (rc == 0 && cls_test)
		rc = up_java_strings_arg(d->ix, cls_test_of->file, cls_test, "dependsOnGroups",
					 &jm.dep_groups);
	if (rc == 0 && ut_vec_push(out, jm) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0) {
		ut_vec_free(&jm.groups);
		ut_vec_free(&jm.depends);
		ut_vec_free(&jm.dep_groups);
	}
	return rc;
}

int up_testng_methods(up_discover *d, up_cls *k, ut_jmethods *out)
{
	up_cls *chain[UT_MAX_SUPER];
	const ut_syn *cls_test = NULL;
	const up_cls *cls_test_of = NULL;
	size_t n, l;
	int rc = 0;

	n = up_java_chain(d->ix, k, chain);
	for (l = 0; l < n && !cls_test; l++)
		if ((cls_test = up_java_cls_annotation(d->ix, chain[l], "Test")) != NULL)
			cls_test_of = chain[l];
	/* `enabled = false` on the class disables its methods, their own @Test too */
	if (cls_test && disabled(d->ix, cls_test_of->file, cls_test))
		return 0;
	for (l = 0; l < n && rc == 0; l++) {
		const ut_syn *m;

		for (m = up_syn_first(chain[l]->node); m && rc == 0; m = up_syn_next(m)) {
			up_fn *fn = up_java_method(d->ix, chain[l], m);

			if (fn && fn->name)
				rc = add_method(d, chain[l], fn, cls_test, cls_test_of, out);
		}
	}
	return rc;
}
