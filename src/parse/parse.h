/* parse.h: the parse stage. Reads Selenium test sources (Java, Python, JavaScript,
 * TypeScript) with tree-sitter and builds the suite model: the tests in their original
 * order with the actions each performs. */
#ifndef UT_PARSE_H
#define UT_PARSE_H

#include <stddef.h>

#include "model/suite.h"
#include "util/diag.h"
#include "util/fs.h"

typedef struct {
	const char *root;         /* the suite root (untangle.json's folder): ids and file
				     names are relative to it; helpers are looked up below it */
	const char *const *paths; /* files or folders holding the tests, relative to the
				     working directory; none = the root */
	size_t npaths;
	ut_lang language;         /* only this language, or UT_LANG_NONE for all */
	const char *framework;    /* the runner preset's framework, or NULL to detect */
	const char *order_file;   /* one test id per line overriding the order, or NULL */
	const char *testng_xml;   /* the TestNG suite file, relative to the root; NULL: the
				     ones pom.xml or build.gradle name, else a testng.xml at
				     the root or in src/test/resources, if any */
	size_t max_file_size;     /* larger files are skipped with a warning; 0 = 16 MiB */
	unsigned jobs;            /* threads that read and parse files: 1 = this one only,
				     0 = one per CPU the process may run on (its affinity
				     mask), at most 64. The result is the same whatever the
				     number (tests, ids, order, warnings and their order). */
} ut_parse_opts;

/* Parses the suite. Problems with single files (syntax errors, binary content, invalid
 * UTF-8, files too large, deep nesting, unknown ids in the order file) become warnings in
 * diags and the rest is still read. Returns UT_EINPUT when no source file could be read
 * at all, UT_ENOTFOUND when a path does not exist, UT_ENOMEM. *out belongs to the caller
 * (ut_suite_free). */
int ut_parse_suite(ut_suite **out, const ut_parse_opts *opts, ut_diags *diags);

/* Appends to out the source files ut_parse_suite reads for opts (every source below
 * opts->root, and those of opts->paths outside it), in the order of ut_fs_walk, without
 * reading them: what a plan's fingerprint covers. Returns 0, UT_ENOMEM, or the walk's
 * error. */
int ut_parse_source_files(ut_pathlist *out, const ut_parse_opts *opts);

/* Parses one in-memory file named `name` as `lang` and discovers its tests, as if it were
 * the whole suite (the fuzzing entry point). Same return codes. */
int ut_parse_buffer(ut_suite **out, ut_lang lang, const char *name, const char *data,
		    size_t len, ut_diags *diags);

#endif
