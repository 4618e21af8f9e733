/* config_opts.c: untangle.json's suite section as the parse stage's options. */
#include "parse/config_opts.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

/* root/path in the arena (path itself when root is "." or path is absolute). */
static const char *join(ut_arena *arena, const char *root, const char *path)
{
	char *p = ut_path_join(root, path), *out;

	out = p ? ut_arena_strdup(arena, p) : NULL;
	free(p);
	return out;
}

int ut_parse_opts_from_config(ut_parse_opts *out, const ut_config *cfg, const char *root,
			      ut_arena *arena)
{
	const char **paths;

	memset(out, 0, sizeof(*out));
	out->root = root;
	out->npaths = cfg->suite.paths.n;
	out->language = cfg->suite.language ? ut_lang_from_name(cfg->suite.language) : UT_LANG_NONE;
	out->framework = ut_config_framework(cfg);
	out->testng_xml = cfg->suite.testng_xml; /* relative to the root already */
	paths = ut_arena_alloc(arena, (out->npaths + 1) * sizeof(*paths));
	if (!paths)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; i < out->npaths; i++) {
		paths[i] = join(arena, root, cfg->suite.paths.items[i]);
		if (!paths[i])
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	out->paths = paths;
	if (cfg->suite.order_file) {
		out->order_file = join(arena, root, cfg->suite.order_file);
		if (!out->order_file)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}
