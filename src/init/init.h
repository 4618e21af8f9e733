/* init.h: `untangle init`: surveys a project's suites (languages, framework, where the
 * tests are, the values nearly every test shares) and proposes its untangle.json. */
#ifndef UT_INIT_H
#define UT_INIT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/diag.h"

typedef struct {
	const char *config_path;  /* the file to write, e.g. "untangle.json" */
	bool force;		  /* replace an existing config_path */
	const char *const *reset; /* runner.reset to write (from --reset), or none */
	size_t nreset;
	bool probe_python; /* look at this machine: for the pytest preset whether python3
			      imports pytest (a child process), for mocha node_modules, for
			      the Java presets the compiled classes and jars; off in unit
			      tests */
	unsigned jobs;	   /* parse threads (ut_parse_opts.jobs): 0 one per CPU, 1 this one */
} ut_init_opts;

/* One value proposed for values.ignore. */
typedef struct {
	const char *value;
	size_t submitters, users;
} ut_init_value;

typedef struct {
	ut_arena arena;
	size_t ntests, nfiles;
	const char *languages;	  /* "python", or "java, javascript" when mixed */
	const char *language;	  /* suite.language to write, NULL when mixed */
	const char *framework;	  /* most tests' framework */
	const char *preset;	  /* the runner preset it implies, or NULL (none fits) */
	const char *path;	  /* suite.paths[0]: the folder holding every test, NULL
				     for the root itself */
	const char *python;	  /* runner.python to write when python3 on PATH lacks
				     pytest and /usr/bin/python3 has it, else NULL */
	const char *classpath;	  /* runner.env CLASSPATH to write (Java presets), or NULL */
	size_t class_roots, project_jars, system_jars; /* what classpath is made of */
	const char *const *reset; /* as given */
	size_t nreset;
	ut_init_value *values; /* proposed for values.ignore, most users first */
	size_t nvalues;
} ut_init;

/* One difference between an existing untangle.json and the proposal. */
typedef struct {
	const char *key;  /* "runner.env.CLASSPATH" */
	const char *was;  /* compact JSON, or NULL when the file does not have it */
	const char *then; /* compact JSON, or NULL when the proposal drops it */
} ut_init_change;

/* `untangle init`: parses the suite below the working directory, fills *out (the caller's,
 * ut_init_free) and writes the configuration it proposes to config_path (atomically).
 * When config_path exists, it is written only with opts->force; either way *changes
 * (nchanges, in the arena of *out) lists what the proposal changes in it, key by key, and
 * *written says whether it was written. Warnings of the parse and of the survey go to
 * diags. The parse's return codes (UT_EINPUT when no test is found), UT_EINPUT naming the
 * file and line for an existing config_path that is not JSON, UT_EENV when the file
 * cannot be written, UT_ENOMEM. */
int ut_init_project(ut_init **out, const ut_init_opts *opts, ut_diags *diags,
		    const ut_init_change **changes, size_t *nchanges, bool *written);
/* The parse and survey alone (nothing written, config_path and force unused). */
int ut_init_survey(ut_init **out, const ut_init_opts *opts, ut_diags *diags);
/* The untangle.json the survey proposes, as pretty JSON text appended to out. */
int ut_init_config_json(const ut_init *in, ut_buf *out);
/* The survey as JSON (for --json), appended to out. */
int ut_init_survey_json(const ut_init *in, ut_buf *out);
void ut_init_free(ut_init *in);
/* Whether a node version ("v20.9.1") satisfies an npm engines range ("^18.18.0 || >=21"):
 * what init checks for the mocha preset. A range it cannot read counts as satisfied. */
bool ut_init_node_satisfies(const char *version, const char *range);

#endif
