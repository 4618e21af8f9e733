/* classpath.h: the Java class path of a project's tests, as `untangle init` proposes it for
 * CLASSPATH in runner.env (the junit4, junit5 and testng presets need it). */
#ifndef UT_INIT_CLASSPATH_H
#define UT_INIT_CLASSPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/suite.h"
#include "util/fs.h"

typedef struct {
	char *value;          /* "folder:jar:jar", relative to the project where inside it;
				 NULL when nothing was found */
	ut_pathlist roots;    /* folders holding compiled test classes (and their main classes) */
	ut_pathlist jars;     /* the project's jars, then the system's */
	size_t project_jars, system_jars;
	size_t test_classes;  /* distinct classes of the suite's Java tests */
	size_t found_classes; /* of those, found compiled in a root */
	char first_class[256]; /* the first test class's file (a/b/C.class), for messages */
	char missing_framework[256]; /* why the framework's jars are missing, or "" */
	bool selenium;        /* a Selenium client jar is among the jars */
} ut_init_classpath;

/* Looks below the working directory (the project) for the compiled test classes of the
 * suite's Java tests and the jars the project keeps (node_modules and build folders
 * included), and adds the framework's jars from /usr/share/java (junit4: junit4 and
 * hamcrest-core; junit5: the console standalone jar; testng: testng, jcommander, bsh)
 * when the project keeps none. *cp belongs to the caller (ut_init_classpath_dispose).
 * Returns 0 (what is missing is in the counts and fields), UT_ENOMEM. */
int ut_init_find_classpath(ut_init_classpath *cp, const ut_suite *suite, const char *framework);
void ut_init_classpath_dispose(ut_init_classpath *cp);

#endif
