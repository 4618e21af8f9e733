/* tokenize.c: splits test identifiers and titles into lower-case words. */
#include <string.h>

#include "nlp/internal.h"
#include "util/banned.h"

static bool is_upper(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_lower(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || c >= 0x80;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_wordchar(unsigned char c)
{
	return is_upper(c) || is_lower(c) || is_digit(c);
}

/* U+2019 (right single quotation mark) is the apostrophe of typeset titles. */
static size_t apostrophe_len(const unsigned char *s)
{
	if (s[0] == '\'')
		return 1;
	if (s[0] == 0xe2 && s[1] == 0x80 && s[2] == 0x99)
		return 3;
	return 0;
}

static void emit(ut_nlp_words *out, const unsigned char *s, size_t n)
{
	char *w;
	size_t i;

	if (n == 0 || out->n >= UT_NLP_MAXWORDS)
		return;
	if (n > UT_NLP_MAXWORDLEN)
		n = UT_NLP_MAXWORDLEN;
	w = out->w[out->n++];
	for (i = 0; i < n; i++)
		w[i] = (char)(is_upper(s[i]) ? s[i] - 'A' + 'a' : s[i]);
	w[n] = '\0';
}

/* Whether a word boundary falls between s[i-1] and s[i] of a run of word characters. */
static bool boundary(const unsigned char *s, size_t n, size_t i)
{
	unsigned char prev = s[i - 1], cur = s[i];
	unsigned char next = i + 1 < n ? s[i + 1] : 0;

	if (is_digit(prev) != is_digit(cur))
		return true;
	if (is_lower(prev) && is_upper(cur))
		return true;
	if (is_upper(prev) && is_upper(cur) && is_lower(next)) {
		/* "URLsTest": the "s" makes a plural acronym, not the start of a word. */
		unsigned char after = i + 2 < n ? s[i + 2] : 0;

		return !(next == 's' && !is_lower(after));
	}
	return false;
}

static void split_run(const unsigned char *s, size_t n, ut_nlp_words *out)
{
	size_t start = 0, i;

	for (i = 1; i < n; i++) {
		if (boundary(s, n, i)) {
			emit(out, s + start, i - start);
			start = i;
		}
	}
	emit(out, s + start, n - start);
}

void ut_nlp_split(const char *name, ut_nlp_words *out)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t i = 0, start;

	out->n = 0;
	while (s[i]) {
		if (apostrophe_len(s + i)) {
			i += apostrophe_len(s + i);
			continue;
		}
		if (!is_wordchar(s[i])) {
			i++;
			continue;
		}
		start = i;
		while (is_wordchar(s[i]) && !apostrophe_len(s + i))
			i++;
		split_run(s + start, i - start, out);
		/* user's, doesn't: drop the apostrophe and the letters after it */
		if (apostrophe_len(s + i) && is_wordchar(s[i + apostrophe_len(s + i)])) {
			i += apostrophe_len(s + i);
			while ((is_lower(s[i]) || is_upper(s[i])) && !apostrophe_len(s + i))
				i++;
		}
	}
}
