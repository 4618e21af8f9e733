/* mocharc.h: the spec files a project's own mocha configuration names (mocharc.c). */
#ifndef UT_PARSE_MOCHARC_H
#define UT_PARSE_MOCHARC_H

#include <stdbool.h>

#include "util/vec.h"

typedef UT_VEC(char *) ut_strs;

typedef struct {
	ut_strs spec;	    /* files, folders and globs, relative to the root ("./" dropped) */
	ut_strs ext;	    /* extensions without the dot (mocha's default: js, cjs, mjs) */
	bool recursive;	    /* folders' subfolders too */
	const char *source; /* the file read (".mocharc.yml", "package.json"), or NULL */
} ut_mocharc;

/* Reads the configuration mocha would read in root: the first of .mocharc.js, .cjs,
 * .yaml, .yml, .jsonc, .json, else package.json's "mocha", else test/mocha.opts (mocha 5
 * to 7) when it names specs. What cannot be read (a computed value in a .mocharc.js, a
 * broken file) is left out: no spec then. 0, or UT_ENOMEM; dispose rc either way. */
int ut_mocharc_read(ut_mocharc *rc, const char *root);
void ut_mocharc_dispose(ut_mocharc *rc);
/* Whether rel (relative to the root) is a spec file of rc's spec entries: the file
 * itself, a file of a folder (with one of its extensions; its subfolders when
 * recursive), or a match of a glob. */
bool ut_mocharc_is_spec(const ut_mocharc *rc, const char *rel);

#endif
