/* msg.c: the one family of messages on stderr, and the mapping to exit codes. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/error.h"
#include "util/banned.h"

static bool quiet;
static bool status_open; /* a status line is on the terminal, with no newline yet */

void ut_cli_quiet(bool q)
{
	quiet = q;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	ut_cli_status_end();
	fprintf(stderr, "untangle: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ut_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void ut_warnf(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void ut_infof(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void ut_detailf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void ut_statusf(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	status_open = true;
}

void ut_cli_status_end(void)
{
	if (!status_open)
		return;
	fputc('\n', stderr);
	status_open = false;
}

void ut_cli_print_diags(const ut_diags *d)
{
	size_t i;

	if (quiet)
		return;
	for (i = 0; i < d->items.n; i++) {
		const ut_diag *g = &d->items.v[i];
		const char *level = g->level == UT_DIAG_ERROR ? "error" : "warning";

		if (g->file && g->line)
			fprintf(stderr, "%s:%u: %s: %s\n", g->file, g->line, level, g->message);
		else if (g->file)
			fprintf(stderr, "%s: %s: %s\n", g->file, level, g->message);
		else
			fprintf(stderr, "untangle: %s: %s\n", level, g->message);
	}
	if (d->dropped)
		fprintf(stderr, "untangle: warning: %zu more warnings not shown\n", d->dropped);
}

int ut_cli_exit_code(int rc)
{
	switch (rc) {
	case 0: return UT_EXIT_OK;
	case UT_EINPUT:
	case UT_ENOTFOUND: return UT_EXIT_INPUT;
	case UT_EINTR: return UT_EXIT_INTERRUPTED;
	default: return UT_EXIT_ENV;
	}
}

int ut_cli_chdir(const ut_cli_common *common)
{
	if (common->dir && chdir(common->dir) < 0) {
		ut_errorf("cannot change to '%s': %s", common->dir, strerror(errno));
		return UT_EXIT_INPUT;
	}
	return 0;
}

void ut_cli_print_quoted(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s < 0x20)
			printf("\\x%02x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

#define ESC_SLOTS 16

const char *ut_cli_esc(const char *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char *slots[ESC_SLOTS];
	static size_t next;
	ut_buf b = UT_BUF_INIT;
	const char *p;
	char *out;

	if (!s)
		return "";
	for (p = s; *p && (unsigned char)*p >= 0x20 && *p != 0x7f; p++)
		;
	if (!*p)
		return s; /* nothing to escape: most names */
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\\')
			ut_buf_puts(&b, "\\\\");
		else if (c == '\n')
			ut_buf_puts(&b, "\\n");
		else if (c == '\r')
			ut_buf_puts(&b, "\\r");
		else if (c == '\t')
			ut_buf_puts(&b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			ut_buf_printf(&b, "\\x%02x", c);
		else
			ut_buf_putc(&b, (char)c);
	}
	out = b.failed ? NULL : ut_buf_detach(&b, NULL);
	ut_buf_dispose(&b);
	if (!out)
		return "?"; /* out of memory: never the raw bytes */
	pthread_mutex_lock(&lock);
	free(slots[next]);
	slots[next] = out;
	next = (next + 1) % ESC_SLOTS;
	pthread_mutex_unlock(&lock);
	return out;
}

int ut_cli_stdout_sink(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	return fwrite(p, 1, n, stdout) == n ? 0 : UT_EENV;
}

int ut_cli_emit(ut_buf *out)
{
	int rc = 0;

	ut_buf_putc(out, '\n');
	if (out->failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	else
		fwrite(out->ptr, 1, out->len, stdout);
	ut_buf_dispose(out);
	return rc;
}
