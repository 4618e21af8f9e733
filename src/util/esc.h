/* esc.h: the one escaping rule of each text output a test name can reach, so that a name
 * stays data wherever it appears: a terminal or log line, a GitHub workflow command, a
 * Markdown comment. JSON (SARIF, GitLab Code Quality, --json) escapes through
 * ut_json_escape (util/jsonw.h). Each function appends to out; NULL appends nothing. */
#ifndef UT_ESC_H
#define UT_ESC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Text for a terminal or a CI log: control characters (C0, DEL, C1), line and paragraph
 * separators and the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
 * U+2066 to U+2069) written as escapes (\n, \r, \t, \x1b, \u202e), invalid UTF-8 bytes as
 * \xNN, backslashes doubled; and a name that starts with "::" after white space (ASCII
 * or Unicode spaces) gets its first colon as \x3a, so that wherever it is printed it never
 * starts a workflow command (GitHub reads one at the start of a line, white space
 * trimmed). The output is one line of printable text. */
void ut_esc_text(ut_buf *out, const char *s);
/* Whether ut_esc_text changes s: false for almost every name. */
bool ut_esc_text_needed(const char *s);
/* A value in double quotes, as the terminal shows it: " and \ escaped with a backslash,
 * control characters as \xNN, what is not ASCII as ut_esc_text escapes it. */
void ut_esc_quoted(ut_buf *out, const char *s);

/* A GitHub workflow command's message (% CR LF as %25 %0D %0A) and a property value
 * (also : and , as %3A %2C); the other characters ut_esc_text escapes as it does (\x1b,
 * \u202e), which GitHub's rule leaves raw for its log to interpret. */
void ut_esc_github_data(ut_buf *out, const char *s);
void ut_esc_github_property(ut_buf *out, const char *s);

/* Inline Markdown text, fit for a table cell (GitHub Flavored Markdown): nothing in s
 * starts Markdown or HTML, ends the cell (|) or the row (a newline is <br>); & is &amp;;
 * mentions (@user, an @ not after a letter or digit) and references (#123) get a
 * zero-width space after their @ or # so that GitHub neither notifies anyone nor links
 * an issue; other control characters are a space; bidirectional controls and
 * separators are shown as text (\u202e). */
void ut_esc_markdown(ut_buf *out, const char *s);

/* A Mermaid node label inside ["..."]: Mermaid reads #name; and #code; as entities, so
 * everything that could end the label, the statement or a Markdown code fence, or be read
 * as HTML or as a mention, is written as one (" as #quot;, # & < > | [ ] { } ( ) ` \ ; @ as
 * #NN;); control and bidirectional characters are first escaped as ut_esc_text shows
 * them, then any control left is a space, invalid UTF-8 U+FFFD. max > 0 cuts the label
 * at that many bytes (at a character boundary) with an ellipsis. */
void ut_esc_mermaid(ut_buf *out, const char *s, size_t max);
/* A Graphviz dot label inside "...": ut_esc_text's escapes, then " as \" and \ doubled
 * (dot reads \n, \l, \N as its own), any control left a space. */
void ut_esc_dot(ut_buf *out, const char *s);

/* Whether code point cp is one the escapes never leave raw beyond ASCII: a C1 control,
 * a line or paragraph separator or a bidirectional control (JSON writes it as \uXXXX). */
bool ut_esc_hostile(unsigned long cp);
/* The code point of the valid UTF-8 sequence of len bytes (1 to 4) at p. */
unsigned long ut_esc_code_point(const unsigned char *p, size_t len);

#endif
