/* config_opts.h: untangle.json's suite section as the parse stage's options (in parse/, not
 * config/: config/ is below runner/, which parse/ spawns through; ci/structure). */
#ifndef UT_PARSE_CONFIG_OPTS_H
#define UT_PARSE_CONFIG_OPTS_H

#include "config/config.h"
#include "parse/parse.h"
#include "util/arena.h"

/* Fills *out for the suite whose root is `root` ("." for the working directory):
 * suite.paths and suite.order_file placed under root (ut_path_join: "." and absolute
 * paths leave them as they are), suite.language, the framework (ut_config_framework) and
 * suite.testng_xml (relative to the root). The strings are allocated in `arena`, which
 * the caller disposes of after the parse; *out borrows root and cfg. jobs is left 0 (one
 * thread per CPU) and no file is checked here. Returns 0 or UT_ENOMEM. */
int ut_parse_opts_from_config(ut_parse_opts *out, const ut_config *cfg, const char *root,
			      ut_arena *arena);

#endif
