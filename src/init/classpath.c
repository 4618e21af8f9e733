/* classpath.c: the Java class path the junit4, junit5 and testng presets need (CLASSPATH in
 * runner.env), found in the project: the folders that hold the tests' compiled classes
 * (wherever the build put them), the jars the project keeps (lib/, node_modules, a copy of
 * Maven's dependencies...), and the framework's jars from Debian's /usr/share/java when
 * the project has none. What it cannot find is said, never guessed. */
#include "init/classpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

#define SYSTEM_JARS "/usr/share/java"

static bool class_or_jar(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && strcmp(name + n - 6, ".class") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".jar") == 0);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* "a.b.C#m" -> "a/b/C.class" in buf; false when the id is not a Java test's. */
static bool class_file(const char *id, char *buf, size_t size)
{
	const char *hash = strchr(id, '#');
	size_t i, n = hash ? (size_t)(hash - id) : 0;

	if (!hash || n + 7 > size)
		return false;
	for (i = 0; i < n; i++)
		buf[i] = id[i] == '.' ? '/' : id[i];
	memcpy(buf + n, ".class", 7);
	return true;
}

/* The jar's file name without folders, for matching library names. */
static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool named(const ut_pathlist *jars, const char *prefix)
{
	for (size_t i = 0; i < jars->n; i++)
		if (strncmp(base(jars->paths[i]), prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Class roots: a folder F such that F/<package path>/<Class>.class for some test class. */
static int find_roots(ut_init_classpath *cp, const ut_suite *suite, const ut_pathlist *files)
{
	ut_map roots = UT_MAP_INIT, classes = UT_MAP_INIT; /* keys: names's and cp->roots's */
	ut_pathlist names = {0};
	char cls[1024];
	size_t i, k;
	int rc = 0;

	for (i = 0; i < suite->tests.n && rc == 0; i++) {
		if (!class_file(suite->tests.v[i].id, cls, sizeof(cls)) ||
		    ut_map_get(&classes, cls, strlen(cls)))
			continue;
		rc = ut_pathlist_add(&names, cls);
		if (rc == 0)
			rc = ut_map_put(&classes, names.paths[names.n - 1], strlen(cls), (void *)1);
		if (rc == 0 && ++cp->test_classes == 1)
			snprintf(cp->first_class, sizeof(cp->first_class), "%.255s", cls);
	}
	for (i = 0; i < files->n && rc == 0; i++) {
		const char *p = files->paths[i];

		if (!ends_with(p, ".class"))
			continue;
		/* every suffix that starts after a '/' may be the class's package path */
		for (k = 0; p[k] && rc == 0; k++) {
			const char *tail = p + k;
			size_t rootlen = k ? k - 1 : 0;

			if ((k && p[k - 1] != '/') || !ut_map_get(&classes, tail, strlen(tail)))
				continue;
			cp->found_classes++;
			if (rootlen == 0) {
				p = ".";
				rootlen = 1;
			}
			if (ut_map_get(&roots, p, rootlen))
				break;
			snprintf(cls, sizeof(cls), "%.*s", (int)rootlen, p);
			rc = ut_pathlist_add(&cp->roots, cls);
			if (rc == 0)
				rc = ut_map_put(&roots, cp->roots.paths[cp->roots.n - 1], rootlen,
						(void *)1);
			break;
		}
	}
	ut_map_dispose(&roots);
	ut_map_dispose(&classes);
	ut_pathlist_dispose(&names);
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* A test-classes folder's sibling with the main classes (page objects), when it exists. */
static int add_main_roots(ut_init_classpath *cp)
{
	static const char *const pairs[][2] = {
		{"target/test-classes", "target/classes"},
		{"build/classes/java/test", "build/classes/java/main"},
		{"build/classes/kotlin/test", "build/classes/kotlin/main"},
	};
	size_t n = cp->roots.n, i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
			const char *r = cp->roots.paths[i];
			size_t lr = strlen(r), lt = strlen(pairs[k][0]);
			char main_dir[4096];

			if (lr < lt || strcmp(r + lr - lt, pairs[k][0]))
				continue;
			snprintf(main_dir, sizeof(main_dir), "%.*s%s", (int)(lr - lt), r, pairs[k][1]);
			if (ut_fs_is_dir(main_dir) && ut_pathlist_add(&cp->roots, main_dir) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
	return 0;
}

/* The framework's own jars from /usr/share/java when the project keeps none. */
static int add_system_jars(ut_init_classpath *cp, const char *framework)
{
	static const struct {
		const char *framework, *has, *jars[4];
	} sys[] = {
		{"junit4", "junit", {"junit4.jar", "hamcrest-core.jar", NULL}},
		{"junit5", "junit-platform-console-standalone",
		 {"junit-platform-console-standalone.jar", "junit4.jar", "hamcrest-core.jar", NULL}},
		{"testng", "testng", {"testng.jar", "jcommander.jar", "bsh.jar", NULL}},
	};
	char path[512];
	size_t i, k;

	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		if (!framework || strcmp(framework, sys[i].framework) || named(&cp->jars, sys[i].has))
			continue;
		for (k = 0; sys[i].jars[k]; k++) {
			snprintf(path, sizeof(path), "%s/%s", SYSTEM_JARS, sys[i].jars[k]);
			if (access(path, R_OK) < 0)
				continue;
			if (ut_pathlist_add(&cp->jars, path) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
			cp->system_jars++;
		}
		if (!named(&cp->jars, sys[i].has) && !named(&cp->jars, "junit"))
			snprintf(cp->missing_framework, sizeof(cp->missing_framework),
				 "no %s jar in the project or in %s (Debian: apt-get install %s)",
				 framework, SYSTEM_JARS, framework);
	}
	return 0;
}

static int join(ut_init_classpath *cp)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;

	for (i = 0; i < cp->roots.n; i++)
		ut_buf_printf(&b, "%s%s", b.len ? ":" : "", cp->roots.paths[i]);
	for (i = 0; i < cp->jars.n; i++)
		ut_buf_printf(&b, "%s%s", b.len ? ":" : "", cp->jars.paths[i]);
	if (b.failed) {
		ut_buf_dispose(&b);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	cp->value = ut_buf_detach(&b, NULL);
	return 0;
}

int ut_init_find_classpath(ut_init_classpath *cp, const ut_suite *suite, const char *framework)
{
	ut_pathlist files = {0};
	size_t i;
	int rc;

	memset(cp, 0, sizeof(*cp));
	rc = ut_fs_walk_everything(&files, ".", class_or_jar);
	if (rc == 0)
		rc = find_roots(cp, suite, &files);
	if (rc == 0)
		rc = add_main_roots(cp);
	for (i = 0; rc == 0 && i < files.n; i++) {
		const char *p = files.paths[i];

		while (p[0] == '.' && p[1] == '/')
			p += 2;
		if (ends_with(p, ".jar")) {
			rc = ut_pathlist_add(&cp->jars, p) < 0 ? ut_error_set(UT_ENOMEM, "out of memory")
							       : 0;
			cp->project_jars += rc == 0;
		}
	}
	for (i = 0; rc == 0 && i < cp->roots.n; i++) { /* "./x" -> "x" */
		char *r = cp->roots.paths[i];

		if (r[0] == '.' && r[1] == '/')
			memmove(r, r + 2, strlen(r + 2) + 1);
	}
	if (rc == 0)
		rc = add_system_jars(cp, framework);
	cp->selenium = named(&cp->jars, "selenium") || named(&cp->jars, "client-combined");
	if (rc == 0 && (cp->roots.n || cp->jars.n))
		rc = join(cp);
	ut_pathlist_dispose(&files);
	return rc;
}

void ut_init_classpath_dispose(ut_init_classpath *cp)
{
	if (!cp)
		return;
	ut_pathlist_dispose(&cp->roots);
	ut_pathlist_dispose(&cp->jars);
	free(cp->value);
	cp->value = NULL;
}
