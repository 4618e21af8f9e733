/* esc.c: the escaping rules of the text outputs (terminal text, GitHub workflow commands,
 * Markdown); esc.h says what each one guarantees. */
#include "util/esc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/banned.h"

#define ZWSP "\xe2\x80\x8b"

bool ut_esc_hostile(unsigned long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

unsigned long ut_esc_code_point(const unsigned char *p, size_t len)
{
	unsigned long cp = len == 1 ? p[0] : p[0] & (0xff >> (len + 1));

	for (size_t i = 1; i < len; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

/* The length of the sequence at p[0..n) and whether text output must escape it: 1 and
 * true for an invalid byte. */
static size_t scan(const unsigned char *p, size_t n, bool *escape)
{
	size_t len;

	if (p[0] < 0x80) {
		*escape = p[0] < 0x20 || p[0] == 0x7f;
		return 1;
	}
	len = ut_utf8_valid(p, n);
	if (!len) {
		*escape = true;
		return 1;
	}
	*escape = ut_esc_hostile(ut_esc_code_point(p, len));
	return len;
}

/* The text escape of the control, hostile or invalid sequence of len bytes at p. */
static void put_escape(ut_buf *out, const unsigned char *p, size_t len)
{
	if (p[0] == '\n')
		ut_buf_puts(out, "\\n");
	else if (p[0] == '\r')
		ut_buf_puts(out, "\\r");
	else if (p[0] == '\t')
		ut_buf_puts(out, "\\t");
	else if (len == 1)
		ut_buf_printf(out, "\\x%02x", p[0]);
	else
		ut_buf_printf(out, "\\u%04lx", ut_esc_code_point(p, len));
}

/* The length of the white space at p[0..n) that .NET's String.Trim (GitHub's runner)
 * removes before it looks for "::": ASCII spaces and the Unicode spaces text output keeps
 * raw (tabs, the separators and U+0085 are escaped anyway). */
static size_t blank(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t len = p[i] == ' ' ? 1 : p[i] < 0x80 ? 0 : ut_utf8_valid(p + i, n - i);
		unsigned long cp = len > 1 ? ut_esc_code_point(p + i, len) : ' ';

		if (!len ||
		    !(cp == ' ' || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
		      cp == 0x202f || cp == 0x205f || cp == 0x3000))
			break;
		i += len;
	}
	return i;
}

/* The offset of "::" that a line holding s would start with, or -1. */
static long command_start(const char *s)
{
	size_t n = strlen(s), i = blank((const unsigned char *)s, n);

	return s[i] == ':' && s[i + 1] == ':' ? (long)i : -1;
}

bool ut_esc_text_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, i = 0;
	bool escape = false;

	if (!s)
		return false;
	if (command_start(s) >= 0)
		return true;
	n = strlen(s);
	while (i < n) {
		i += scan(p + i, n - i, &escape);
		if (escape)
			return true;
	}
	return false;
}

void ut_esc_text(ut_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long colon;
	size_t n, i = 0, run = 0;
	bool escape = false;

	if (!s)
		return;
	if (!ut_esc_text_needed(s)) {
		/* most names: as they are, backslashes too (they are doubled only beside an
		 * escape, where they could be read as one) */
		ut_buf_puts(out, s);
		return;
	}
	colon = command_start(s);
	n = strlen(s);
	while (i < n) {
		size_t len = scan(p + i, n - i, &escape);

		if (!escape && p[i] != '\\' && (long)i != colon) {
			i += len;
			continue;
		}
		ut_buf_put(out, s + run, i - run);
		if ((long)i == colon)
			ut_buf_puts(out, "\\x3a");
		else if (p[i] == '\\')
			ut_buf_puts(out, "\\\\");
		else
			put_escape(out, p + i, len);
		i += len;
		run = i;
	}
	ut_buf_put(out, s + run, n - run);
}

static void github(ut_buf *out, const char *s, bool property)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i = 0, run = 0;

	while (i < n) {
		bool escape = false;
		size_t len = scan(p + i, n - i, &escape);
		const char *rep = NULL;

		switch (p[i]) {
		case '%':
			rep = "%25";
			break;
		case '\r':
			rep = "%0D";
			break;
		case '\n':
			rep = "%0A";
			break;
		case ':':
			rep = property ? "%3A" : NULL;
			break;
		case ',':
			rep = property ? "%2C" : NULL;
			break;
		default:
			break;
		}
		if (rep || escape) {
			ut_buf_put(out, s + run, i - run);
			/* what GitHub leaves raw (ESC, bidi controls): as text output shows it */
			if (rep)
				ut_buf_puts(out, rep);
			else
				put_escape(out, p + i, len);
			run = i + len;
		}
		i += len;
	}
	ut_buf_put(out, s + run, n - run);
}

void ut_esc_github_data(ut_buf *out, const char *s)
{
	github(out, s, false);
}

void ut_esc_github_property(ut_buf *out, const char *s)
{
	github(out, s, true);
}

void ut_esc_markdown(ut_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i = 0;

	while (i < n) {
		bool escape = false;
		size_t len = scan(p + i, n - i, &escape);
		unsigned char c = p[i];

		if (len > 1 && escape)
			/* shown, as the terminal shows it; the backslash escaped for Markdown */
			ut_buf_printf(out, "\\\\u%04lx", ut_esc_code_point(p + i, len));
		else if (len > 1)
			ut_buf_put(out, s + i, len);
		else if (c == '\n')
			ut_buf_puts(out, "<br>");
		else if (c == '&')
			ut_buf_puts(out, "&amp;");
		else if (c == '@' && (i == 0 || !isalnum(p[i - 1])))
			/* a mention, not an address (a@b.c) */
			ut_buf_puts(out, "@" ZWSP);
		else if (c == '#')
			ut_buf_puts(out, "\\#" ZWSP);
		else if (escape)
			ut_buf_putc(out, ' ');
		else if (strchr("\\`*_{}[]()<>+-.!|~", c))
			ut_buf_printf(out, "\\%c", c);
		else
			ut_buf_putc(out, (char)c);
		i += len;
	}
}

void ut_esc_mermaid(ut_buf *out, const char *s, size_t max)
{
	ut_buf text = UT_BUF_INIT;
	const unsigned char *p;
	size_t n, i = 0;

	if (!out || !s)
		return;
	ut_esc_text(&text, s);
	s = text.failed ? "?" : text.ptr ? text.ptr : "";
	p = (const unsigned char *)s;
	n = strlen(s);
	while (i < n) {
		size_t len = p[i] < 0x80 ? 1 : ut_utf8_valid(p + i, n - i);

		if (max && i + (len ? len : 1) > max) {
			ut_buf_puts(out, "\xe2\x80\xa6"); /* … */
			break;
		}
		if (!len)
			ut_buf_puts(out, "\xef\xbf\xbd");
		else if (p[i] < 0x20 || p[i] == 0x7f)
			ut_buf_putc(out, ' ');
		else if (p[i] == '"')
			ut_buf_puts(out, "#quot;");
		else if (len == 1 && strchr("#&<>|[]{}()`\\;@", p[i]))
			ut_buf_printf(out, "#%u;", p[i]);
		else
			ut_buf_put(out, (const char *)p + i, len);
		i += len ? len : 1;
	}
	ut_buf_dispose(&text);
}

void ut_esc_dot(ut_buf *out, const char *s)
{
	ut_buf text = UT_BUF_INIT;

	if (!out || !s)
		return;
	ut_esc_text(&text, s);
	for (s = text.failed ? "?" : text.ptr ? text.ptr : ""; *s; s++) {
		if (*s == '"' || *s == '\\')
			ut_buf_putc(out, '\\');
		ut_buf_putc(out, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
	}
	ut_buf_dispose(&text);
}

void ut_esc_quoted(ut_buf *out, const char *s)
{
	if (!s)
		return;
	ut_buf_putc(out, '"');
	while (*s) {
		/* the text escape's rule for what is not ASCII; quotes and backslashes always */
		size_t n = 1;
		char *piece;

		while ((unsigned char)*s >= 0x80 && (unsigned char)s[n] >= 0x80)
			n++;
		if (*s == '"' || *s == '\\') {
			ut_buf_putc(out, '\\');
			ut_buf_putc(out, *s);
		} else if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			ut_buf_printf(out, "\\x%02x", (unsigned char)*s);
		} else if ((unsigned char)*s < 0x80) {
			ut_buf_putc(out, *s);
		} else {
			piece = strndup(s, n);
			ut_esc_text(out, piece ? piece : "?");
			free(piece);
		}
		s += n;
	}
	ut_buf_putc(out, '"');
}
