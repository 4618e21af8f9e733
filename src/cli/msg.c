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
#include "util/esc.h"
#include "report/report.h"
#include "util/banned.h"

static bool quiet;
static bool status_open; /* a status line is on the terminal, with no newline yet */

void ut_cli_quiet(bool q)
{
	quiet = q;
}

/* Writes text to stderr a line at a time, each line escaped (util/esc.h): a message names
 * tests and quotes runner output, and neither may drive the terminal or start a workflow
 * command. Lines end with "\n"; the last one gets one. */
static void put_lines(const char *text)
{
	ut_buf b = UT_BUF_INIT;
	const char *p = text;

	for (;;) {
		const char *nl = strchr(p, '\n');
		char *line = nl ? strndup(p, (size_t)(nl - p)) : NULL;

		ut_esc_text(&b, nl ? line : p);
		free(line);
		ut_buf_putc(&b, '\n');
		if (!nl || !nl[1])
			break;
		p = nl + 1;
	}
	if (b.failed)
		fputs("untangle: out of memory writing a message\n", stderr);
	else
		fwrite(b.ptr, 1, b.len, stderr);
	ut_buf_dispose(&b);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	ut_buf b = UT_BUF_INIT;

	ut_cli_status_end();
	ut_buf_printf(&b, "untangle: %s", prefix);
	ut_buf_vprintf(&b, fmt, ap);
	put_lines(b.failed ? "untangle: out of memory writing a message" : b.ptr);
	ut_buf_dispose(&b);
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
	ut_buf b = UT_BUF_INIT, line = UT_BUF_INIT;
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	ut_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	ut_esc_text(&line, b.failed ? "" : b.ptr);
	fputs("\r\033[K", stderr);
	if (!line.failed)
		fwrite(line.ptr, 1, line.len, stderr);
	ut_buf_dispose(&b);
	ut_buf_dispose(&line);
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

		ut_buf b = UT_BUF_INIT;

		if (g->file && g->line)
			ut_buf_printf(&b, "%s:%u: %s: %s", g->file, g->line, level, g->message);
		else if (g->file)
			ut_buf_printf(&b, "%s: %s: %s", g->file, level, g->message);
		else
			ut_buf_printf(&b, "untangle: %s: %s", level, g->message);
		put_lines(b.failed ? "untangle: out of memory writing a message" : b.ptr);
		ut_buf_dispose(&b);
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
	ut_buf b = UT_BUF_INIT;

	ut_esc_quoted(&b, s);
	if (!b.failed)
		fwrite(b.ptr, 1, b.len, stdout);
	ut_buf_dispose(&b);
}

#define ESC_SLOTS 16

const char *ut_cli_esc(const char *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char *slots[ESC_SLOTS];
	static size_t next;
	ut_buf b = UT_BUF_INIT;
	char *out;

	if (!s)
		return "";
	if (!ut_esc_text_needed(s))
		return s; /* nothing to escape: most names */
	ut_esc_text(&b, s);
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

void ut_cli_print_dot(const ut_graph *g, const char *name, ut_report_edge_style style, void *ctx)
{
	ut_buf out = UT_BUF_INIT;

	out.sink = ut_cli_stdout_sink;
	if (ut_report_dot(&out, g, name, style, ctx) == 0)
		ut_buf_flush(&out);
	ut_buf_dispose(&out);
}
