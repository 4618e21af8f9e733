/* fuzz_config.c: libFuzzer target on the untangle.json reader (config/config.h over the
 * cJSON adapter): the input is the file. Besides the sanitizers it checks that a refusal
 * always names the file and a line ("PATH:LINE: ..."), and that nothing holding a NUL
 * byte is ever accepted (cJSON would cut a string there). Seeds: tests/fuzz/seeds/fuzz_config. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

#include "load_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = NULL;
	char prefix[80];
	int rc = load_config(data, size, &path);
	const char *msg = ut_error_message();

	snprintf(prefix, sizeof(prefix), "%s:", path);
	/* "PATH:LINE: ..." */
	if (rc < 0 && rc != UT_ENOMEM &&
	    (strncmp(msg, prefix, strlen(prefix)) != 0 ||
	     strspn(msg + strlen(prefix), "0123456789") == 0))
		abort();
	if (rc == 0 && memchr(data, '\0', size))
		abort();
	return 0;
}
