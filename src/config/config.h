/* config.h: untangle.json, the project's configuration (DESIGN.md). Every key has a
 * default that works for the detected framework; unknown keys are errors. */
#ifndef UT_CONFIG_H
#define UT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"

typedef struct {
	const char **items;
	size_t n;
} ut_strlist;

typedef struct {
	const char *name;
	const char *value; /* NULL (null in the file): untangle's own value passes through */
} ut_envvar;

typedef struct {
	ut_arena arena;
	const char *path;        /* the file read, or NULL when defaults are used */
	struct {
		ut_strlist paths;
		const char *language; /* NULL: detect */
		const char *order_file;
		const char *testng_xml; /* NULL: testng.xml or src/test/resources/testng.xml */
		const char *collect;    /* "auto" (default: the runner's list when untangle.json
					   configures a runner, else static reading), "runner"
					   (the runner's list or an error), "static" */
		bool allow_outside;	/* paths may lead out of the project folder (by "..",
					   an absolute path or a link); default: an error */
		bool skip_unreadable;	/* shard and run leave out the tests of source files
					   that could not be read; default: they refuse */
	} suite;
	struct {
		const char *preset;   /* pytest, mocha, junit4, junit5, testng, or NULL */
		bool preset_inferred; /* preset chosen from the suite's framework, not the file */
		ut_strlist command;
		ut_strlist list;      /* the list command (docs/collection.md); empty: the preset's */
		ut_strlist reset;
		const char *python;   /* the interpreter of the pytest preset ({python}); default
					 "python3", found on the runner's PATH */
		double timeout_s;
		double preflight_s; /* detect's first run, the first test alone, must end within
				       it (0: no preflight) */
		ut_envvar *env;
		size_t nenv;
		ut_strlist pass_env; /* names or globs ("AWS_*") of untangle's environment the
					runner gets beyond the allow-list (ut_env_allowed) */
	} runner;
	struct {
		const char *extract;  /* string-analysis, original-order */
		const char *filter;   /* none, verb, dobj, noun */
		const char *strategy; /* tedd, fast: the name as written; detect turns it into
					 ut_detect_strategy once (ut_detect_strategy_parse) */
		int workers;
		int reruns;
	} detect;
	struct {
		ut_strlist ignore;
	} values;
	struct {
		ut_strlist read_verbs;
		ut_strlist write_verbs;
	} nlp;
	struct {
		const char *graph;
		const char *notes_ref;
	} store;
} ut_config;

/* Fills cfg with the defaults. */
void ut_config_init(ut_config *cfg);
void ut_config_dispose(ut_config *cfg);
/* Reads path over the defaults. A missing file is not an error when `optional`.
 * UT_EINPUT names the file, the line and the key for invalid JSON, unknown keys, wrong
 * types and unknown values. */
int ut_config_load(ut_config *cfg, const char *path, bool optional);
/* The preset that runs tests of `framework` (unittest tests run under pytest), or NULL when
 * no preset does (jest, jasmine). Static. */
const char *ut_config_preset_for(const char *framework);
/* The framework a preset stands for ("pytest" -> "pytest", "junit4" -> "junit4"), or NULL. */
const char *ut_config_framework(const ut_config *cfg);

#endif
