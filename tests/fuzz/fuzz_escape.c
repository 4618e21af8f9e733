/* fuzz_escape.c: libFuzzer target on the text escapers (util/esc.h) and the report formats
 * that use them. The first byte picks one (0 text, 1 GitHub message, 2 GitHub property,
 * 3 Markdown, 4 a finding named by the input through the text, github and markdown
 * reports); the rest is the name. Besides the sanitizers it checks each escaper's promise
 * (esc.h) and aborts when one is broken: a name that ends a line, holds a control or bidi
 * character, starts a workflow command, ends a table cell, or pings someone. Seeds:
 * tests/fuzz/seeds/fuzz_escape. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "report/report.h"
#include "util/esc.h"
#include "util/jsonw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ZWSP "\xe2\x80\x8b"

/* The code point of the UTF-8 sequence of len bytes at p. */
static unsigned long code_point(const unsigned char *p, size_t len)
{
	unsigned long cp = len == 1 ? p[0] : p[0] & (0xff >> (len + 1));

	for (size_t i = 1; i < len; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

/* Every output is valid UTF-8 without a control (but the newlines allowed), a C1 control,
 * a separator or a bidirectional control. */
static void printable(const char *s, size_t n, bool newlines)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t len = p[i] < 0x80 ? 1 : ut_utf8_valid(p + i, n - i);
		unsigned long cp;

		if (!len)
			abort();
		cp = code_point(p + i, len);
		if ((cp < 0x20 && !(newlines && cp == '\n')) || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0x061c || cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
		    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
			abort();
		i += len;
	}
}

/* The white space .NET's String.Trim removes (GitHub's runner trims a line before it
 * looks for "::"), at the start of s. */
static const char *trim(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (;;) {
		size_t len = *p < 0x80 ? 1 : ut_utf8_valid(p, strlen((const char *)p));
		unsigned long cp = len ? code_point(p, len) : 0;

		if (!len || !((cp >= 0x09 && cp <= 0x0d && cp != 0x0a) || cp == ' ' || cp == 0x85 || cp == 0xa0 ||
			      cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
			      cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000))
			return (const char *)p;
		p += len;
	}
}

/* No line of s starts, after white space, with "::" unless own allows its own commands. */
static void no_command(const char *s, bool own)
{
	const char *line, *nl, *p;

	for (line = s; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		p = trim(line);
		if (strncmp(p, "::", 2) != 0)
			continue;
		if (!own || p != line)
			abort();
		/* ours: ::error, ::warning or ::notice, properties, then "::" once more */
		if (strncmp(p, "::error ", 8) && strncmp(p, "::warning ", 10) &&
		    strncmp(p, "::notice ", 9))
			abort();
	}
}

static void check_text(const char *name)
{
	ut_buf b = UT_BUF_INIT;

	ut_esc_text(&b, name);
	if (b.failed)
		abort();
	printable(b.ptr, b.len, false);
	no_command(b.ptr, false);
	if (!ut_esc_text_needed(name) && strcmp(b.ptr, name) != 0)
		abort();
	ut_buf_dispose(&b);
}

static void check_github(const char *name, bool property)
{
	ut_buf b = UT_BUF_INIT;

	(property ? ut_esc_github_property : ut_esc_github_data)(&b, name);
	if (b.failed)
		abort();
	printable(b.ptr, b.len, false);
	if (property && strpbrk(b.ptr, ":,"))
		abort();
	ut_buf_dispose(&b);
}

static void check_markdown(const char *name)
{
	ut_buf b = UT_BUF_INIT;
	const char *s;

	ut_esc_markdown(&b, name);
	if (b.failed)
		abort();
	s = b.ptr;
	printable(s, b.len, false);
	for (size_t i = 0; i < b.len; i++) {
		bool escaped = i > 0 && s[i - 1] == '\\';

		/* a cell's end, HTML or code: only escaped, but the <br> of a newline */
		if (strncmp(s + i, "<br>", 4) == 0) {
			i += 3;
			continue;
		}
		if (strchr("|<>`", s[i]) && !escaped)
			abort();
		/* a mention or a reference: broken by a zero-width space */
		if (s[i] == '@' && (i == 0 || !isalnum((unsigned char)s[i - 1])) &&
		    strncmp(s + i + 1, ZWSP, 3) != 0)
			abort();
		if (s[i] == '#' && strncmp(s + i + 1, ZWSP, 3) != 0)
			abort();
	}
	ut_buf_dispose(&b);
}

static void check_reports(const char *name)
{
	ut_findings fs;
	ut_finding f;
	ut_finding_test rel = {name, name, 3};
	ut_buf b = UT_BUF_INIT;

	ut_findings_init(&fs);
	memset(&f, 0, sizeof(f));
	f.kind = UT_FINDING_REMOVED;
	f.severity = UT_SEVERITY_ERROR;
	f.test = name;
	f.file = name;
	f.line = 2;
	f.title = name;
	f.message = name;
	f.related = &rel;
	f.nrelated = 1;
	if (ut_findings_add(&fs, &f) < 0)
		abort();
	if (ut_report_text(&b, &fs) == 0) {
		printable(b.ptr, b.len, true);
		no_command(b.ptr, false);
	}
	ut_buf_clear(&b);
	if (ut_report_github(&b, &fs) == 0) {
		printable(b.ptr, b.len, true);
		no_command(b.ptr, true);
		/* one command a finding: a name never adds a line */
		if (strchr(b.ptr, '\n') != b.ptr + b.len - 1)
			abort();
	}
	ut_buf_clear(&b);
	if (ut_report_markdown(&b, &fs, NULL) == 0) {
		printable(b.ptr, b.len, true);
		no_command(b.ptr, false);
	}
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name;

	if (size == 0)
		return 0;
	name = malloc(size);
	if (!name)
		return 0;
	memcpy(name, data + 1, size - 1);
	name[size - 1] = '\0';
	switch (data[0] % 5) {
	case 0: check_text(name); break;
	case 1: check_github(name, false); break;
	case 2: check_github(name, true); break;
	case 3: check_markdown(name); break;
	default: check_reports(name); break;
	}
	free(name);
	return 0;
}
