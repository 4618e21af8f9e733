/* internal.h: what the files of the runner module share; not for other modules. */
#ifndef UT_RUNNER_INTERNAL_H
#define UT_RUNNER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/junit.h"
#include "runner/runner.h"
#include "util/arena.h"
#include "util/map.h"
#include "util/vec.h"

/* Map values are case indices + 1, so that 0 (NULL) means absent. */
#define UT_JUNIT_SLOT(i) ((void *)(uintptr_t)((i) + 1))
#define UT_JUNIT_INDEX(v) ((size_t)(uintptr_t)(v)-1)

struct ut_junit {
	ut_arena arena;           /* every string of the report */
	UT_VEC(ut_junit_case) cases;
	ut_map by_record;         /* classname "\x01" name -> case, while reading */
	ut_map by_join;           /* every joined spelling -> case (junit_match.c) */
	ut_map by_name;           /* name -> case, or ambiguous (junit_match.c) */
	ut_map by_suffix;         /* each dot-boundary suffix of "classname.name" -> case, or
				     ambiguous: pytest names a case from its rootdir, which may
				     be a parent of the project folder (junit_match.c) */
};

/* Builds by_join, by_name and by_suffix once the report is read. 0 or UT_ENOMEM. */
int ut_junit__index(ut_junit *j);

/* The values of the templates of a run (template.c). */
typedef struct {
	const char *const *tests; /* as the command gets them ({tests}) */
	size_t ntests;
	const char *report;
	int worker;
	const char *runners; /* the helpers folder */
	const char *list;    /* the list file of a list command ({list}), or NULL */
	const char *python;  /* runner.python ({python}) */
	const char *const *roots; /* {roots}, a whole element: one argument each */
	size_t nroots;
} ut_template_vars;

/* Expands the n templates into a NULL-terminated argv in the arena: an element that is
 * exactly "{tests}" becomes the test ids, exactly "{roots}" the roots, "{report}",
 * "{worker}", "{runners}", "{list}" and "{python}" are replaced wherever they appear. NULL when out of
 * memory. */
const char **ut_template_expand(ut_arena *a, const char *const *tmpl, size_t n,
				const ut_template_vars *v);

/* Checks the templates of runner.command (whole == true: "{tests}" required, as a whole
 * element), runner.reset (whole elements only) or env values (never); key names the config
 * key in the message. Counts "{report}" occurrences into *reports. 0 or UT_EINPUT. */
int ut_template_check(const char *const *tmpl, size_t n, const char *key, int tests_rule,
		      size_t *reports);

/* ids with "./" before each that starts with '-' (pytest reads an argument "-p..." as a
 * plugin to load even after "--"; "./-p/x.py::t" is the same node). NULL when out of
 * memory. */
const char *const *ut_runner__dot_dash(ut_arena *a, const char *const *ids, size_t n);

/* The list command template of a preset (docs/collection.md), NULL-terminated, static; NULL
 * for an unknown preset. */
const char *const *ut_runner__list_preset(const char *preset);

enum { UT_TESTS_REQUIRED, UT_TESTS_ALLOWED, UT_TESTS_FORBIDDEN };

/* compiled.c: the folder (in the arena) that holds the Java helper src (class `name`)
 * compiled with javac, run in root with env and pass as a run's (for its CLASSPATH):
 * "WORK/java-NAME-HASH", reused while the source is the same. NULL when it cannot be
 * compiled (no javac, a class path without the framework): the runs then go through the
 * source launcher as before, and say what is missing. No error is left set. */
const char *ut_runner__java_classes(ut_arena *a, const char *src, const char *name,
				    const char *root, const char *work,
				    const char *const *env, const char *const *pass);

/* stale.c: the package of a Java source (its declaration, comments skipped) as a path
 * ("a/b/c") into out[size]: 1; 0 for the default package (out ""); -1 when the declaration
 * cannot be read or does not fit. */
int ut_runner__java_package(const char *text, size_t len, char *out, size_t size);

/* stale.c: the first of the n Java sources (relative to root, or absolute) whose class file,
 * found in the folders of classpath (':'-separated, relative to root), is more than 10 s
 * older than the source (less is a copy of the project): 1 with *out filled; 0 when none is (sources that are not .java, or whose class
 * is not in a folder of the class path, e.g. in a jar, are not compared); UT_ENOMEM or a
 * read error. */
int ut_runner__stale_class(const char *classpath, const char *root,
			   const char *const *sources, size_t n, ut_stale_class *out);

#endif
