/* java.h: what the JUnit side (java.c) and the TestNG side (testng.c) of Java discovery
 * share (java_common.c): annotations, hooks, a class's framework and superclasses, and the
 * test methods of one class. Internal to the parse stage. */
#ifndef UT_PARSE_JAVA_H
#define UT_PARSE_JAVA_H

#include <stdbool.h>
#include <stdint.h>

#include "parse/internal.h"

typedef UT_VEC(const char *) ut_jstrings;

/* One test method of a class: `fn` is the body that runs (the most derived one). */
typedef struct {
	up_fn *fn;
	const char *name;
	long order;		/* @Order or TestNG priority */
	long level;		/* TestNG: 0 without dependencies, else 1 + its dependencies' */
	size_t pos;		/* declaration position (class chain, then source): stable sorts */
	const ut_syn *test;	/* its @Test annotation, or NULL (TestNG class-level @Test) */
	ut_jstrings depends;	/* TestNG dependsOnMethods: method names of the same class */
	ut_jstrings groups;	/* TestNG groups (the method's and its class's) */
	ut_jstrings dep_groups; /* TestNG dependsOnGroups */
} ut_jmethod;

typedef UT_VEC(ut_jmethod) ut_jmethods;

/* Annotation `name` (simple or qualified) on n before `before` (a member's own
 * annotations, not those of its children), or NULL. */
const ut_syn *up_java_annotation(const up_index *ix, const up_file *f, const ut_syn *n,
				 const char *name, uint32_t before);
/* The same on a method or a class, before its name. */
const ut_syn *up_java_fn_annotation(const up_index *ix, const up_fn *fn, const char *name);
const ut_syn *up_java_cls_annotation(const up_index *ix, const up_cls *k, const char *name);
/* The text of the annotation's arguments, compacted ("enabled=false"); "" for NULL. */
const char *up_java_annotation_args(const up_index *ix, const up_file *f, const ut_syn *a);
/* The integer argument `key` of an annotation (the first positional one for NULL), or dflt. */
long up_java_number_arg(const up_index *ix, const up_file *f, const ut_syn *a, const char *key,
			long dflt);
/* The string values of argument `key` (a string or a {...} list of strings), appended to
 * out (strings in ix->scratch). */
int up_java_strings_arg(up_index *ix, const up_file *f, const ut_syn *a, const char *key,
			ut_jstrings *out);
/* The order the kinds of setup hooks run in: bits of up_java_hook_kinds, -1 ends. */
extern const int ut_java_before_hooks[];
extern const int ut_java_after_hooks[];
/* The framework of a class: its file's imports', else its nearest superclass's (a
 * subclass that imports nothing), else "junit4". */
const char *up_java_framework(const up_index *ix, up_cls *k);
/* Is the class declared abstract? */
bool up_java_is_abstract(const up_cls *k);
/* Bit h set for each hook annotation (BeforeClass, Before, BeforeMethod...) of the method. */
unsigned up_java_hook_kinds(const up_index *ix, const up_fn *fn);

/* k and its superclasses among the sources, k first (UT_MAX_SUPER at most); how many. */
size_t up_java_chain(const up_index *ix, up_cls *k, up_cls *chain[UT_MAX_SUPER]);
/* Member node m of class k as an indexed method, or NULL when it is none. */
up_fn *up_java_method(const up_index *ix, const up_cls *k, const ut_syn *m);

/* TestNG (testng.c): the test methods of k and its superclasses in TestNG's order inside
 * a class (priority, then dependencies, then name). A class whose class-level @Test says
 * `enabled = false` has none. */
int up_testng_methods(up_discover *d, up_cls *k, ut_jmethods *out);
/* The classes the suite's TestNG suite files run, in their order (the files one after
 * another), appended to out (names in ix->scratch): suite.testng_xml, else the files the
 * build names (up_java_build_suites), else a testng.xml at the root or in
 * src/test/resources. The files read, relative to the root, are appended to paths; none
 * when there is no suite file. A file that is missing, cannot be read or parsed is a
 * warning and left out. */
typedef struct {
	const char *name;     /* fully qualified */
	size_t test;	      /* which <test> of the suites lists it (they run one after another) */
	bool preserve;	      /* that <test>'s preserve-order (or its suite's; default true) */
	const char **methods; /* its <methods>' <include> names (`include`), else its
				 <exclude> names (regular expressions, as TestNG reads them) */
	size_t nmethods;
	bool include;
	const char **groups_in; /* its <test>'s and <suite>'s <groups><run> <include>s */
	size_t ngroups_in;
	const char **groups_out; /* their <exclude>s */
	size_t ngroups_out;
} ut_testng_class;
typedef UT_VEC(ut_testng_class) ut_testng_classes;
int up_testng_xml(up_discover *d, ut_testng_classes *out, ut_jstrings *paths);
/* Whether the suite file runs method `name` (of `groups`) of class c: none of an excluded
 * group, one of an included group when the <run> includes some; with <include>s, those they match
 * (*pos: 1 + the place of the include naming it exactly, 0 for a pattern), else all but
 * those an <exclude> matches (*pos 0). */
bool up_testng_runs(const ut_testng_class *c, const char *name, const ut_jstrings *groups,
		    size_t *pos);
/* The TestNG suite files the project's build file at the root names (java_build.c):
 * pom.xml's Surefire/Failsafe suiteXmlFiles (${property} of the pom expanded; a profile's
 * only when the build itself names none), else build.gradle(.kts)'s useTestNG { suites
 * ... }. Appended to out (relative to the root, in ix->scratch); *from the build file's
 * name, NULL when it names none. A build file that cannot be read is a warning. */
int up_java_build_suites(up_discover *d, ut_jstrings *out, const char **from);
/* The include and exclude patterns Maven runs test classes by (pom.xml at the root: its
 * Surefire's, Failsafe's when declared; their defaults when they name none), appended to
 * includes and excludes (in ix->scratch). 1 when a pom.xml was read, 0 when there is none
 * (nothing decides then), UT_ENOMEM. */
int up_java_build_patterns(up_discover *d, ut_jstrings *includes, ut_jstrings *excludes);
/* The test framework build.gradle(.kts) at the root runs: "testng" (useTestNG),
 * "junit5" (useJUnitPlatform), "junit4" (useJUnit); NULL when there is no such file or it
 * names none or several. 0 or UT_ENOMEM. */
int up_java_build_engine(up_discover *d, const char **engine);
/* Whether Maven runs the class at `path` (package folders and class name, "a/b/FooTest")
 * by those patterns (Foo, Foo.java and Foo.class alike; a %regex[] pattern matches). */
bool up_java_build_runs(const ut_jstrings *includes, const ut_jstrings *excludes, const char *path);
/* A TestNG test among those of the suite (testng_order.c). */
typedef struct {
	const void *owner; /* its class (the same for the tests of one class) */
	ut_jmethod *m;
	size_t test;	/* the suite files' <test> (they run one after another), else 0 */
	size_t cls_pos; /* its class's place in the suite files, else among the classes */
	bool preserve;	/* its <test>'s preserve-order (TestNG's default: true) */
	size_t inc_pos; /* 1 + the place of the <include> naming it exactly, else 0 */
} ut_tref;
typedef UT_VEC(ut_tref) ut_trefs;
/* Puts refs in the order TestNG runs them (see testng_order.c). 0 or UT_ENOMEM. */
int up_testng_order(ut_trefs *refs);
/* Frees what up_testng_methods and the JUnit side put in the methods, then the vector. */
void up_jmethods_free(ut_jmethods *v);

#endif
