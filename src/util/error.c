/* error.c: one error message per thread, set where a failure is detected. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/banned.h"

static _Thread_local char message[1024];
static _Thread_local int last_code;

int ut_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	last_code = code;
	return code;
}

const char *ut_error_message(void)
{
	return message;
}

int ut_error_code(void)
{
	return last_code;
}

void ut_error_clear(void)
{
	message[0] = '\0';
	last_code = 0;
}
