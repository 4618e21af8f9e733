/* load_config.h: the untangle.json reader on a fuzz input, for fuzz_json and fuzz_config.
 * ut_config_load reads a file: the input goes to one per process, at the path returned. */
#ifndef UT_FUZZ_LOAD_CONFIG_H
#define UT_FUZZ_LOAD_CONFIG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config/config.h"

/* ut_config_load's result on data; *path_out: the file it read (static). */
static int load_config(const uint8_t *data, size_t size, const char **path_out)
{
	static char path[64];
	ut_config cfg;
	FILE *f;
	int rc;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz_config_%ld.json", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	ut_config_init(&cfg);
	rc = ut_config_load(&cfg, path, false);
	ut_config_dispose(&cfg);
	unlink(path);
	if (path_out)
		*path_out = path;
	return rc;
}

#endif
