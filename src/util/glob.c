/* glob.c: the one file-pattern matcher, shared by the mocha configuration's specs and the
 * Maven and Gradle test patterns. */
#include "util/glob.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

#define GLOB_DEPTH 64
#define GLOB_STEPS 200000L /* calls of match for one pattern: a star-heavy pattern stops */

static bool match(const char *p, const char *s, int depth, long *steps);

/* "[...]" at p against the character c: the end of the class in *end, or NULL when the
 * class is not closed. */
static bool in_class(const char *p, char c, const char **end)
{
	const char *q = p + 1;
	bool neg = *q == '!' || *q == '^', hit = false;

	q += neg;
	for (; *q && *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			hit |= c >= q[0] && c <= q[2];
			q += 2;
		} else {
			hit |= c == *q;
		}
	}
	*end = *q ? q : NULL;
	return hit != neg;
}

/* "{a,b}rest" at p: each alternative followed by the rest. */
static bool alternatives(const char *p, const char *s, int depth, long *steps)
{
	const char *close = strchr(p, '}'), *alt = p + 1, *comma;
	char buf[1024];

	if (!close)
		return *s == '{' && match(p + 1, s + 1, depth + 1, steps);
	for (; alt <= close; alt = comma + 1) {
		for (comma = alt; comma < close && *comma != ','; comma++)
			;
		if (snprintf(buf, sizeof(buf), "%.*s%s", (int)(comma - alt), alt, close + 1) <
			    (int)sizeof(buf) &&
		    match(buf, s, depth + 1, steps))
			return true;
	}
	return false;
}

static bool match(const char *p, const char *s, int depth, long *steps)
{
	const char *pstart = p, *start = s, *end;

	if (depth > GLOB_DEPTH || --*steps < 0)
		return false;
	for (; *p; p++, s++) {
		/* "**" as a whole name: any folders; inside a name it is a '*' */
		if (p[0] == '*' && p[1] == '*' && (p == pstart || p[-1] == '/') &&
		    (p[2] == '/' || !p[2])) {
			if (!p[2])
				return true;
			for (p += 3;; s++) {
				if ((s == start || s[-1] == '/') && match(p, s, depth + 1, steps))
					return true;
				if (!*s)
					return false;
			}
		}
		if (*p == '*') {
			for (;; s++) {
				if (match(p + 1, s, depth + 1, steps))
					return true;
				if (!*s || *s == '/')
					return false;
			}
		}
		if (*p == '{')
			return alternatives(p, s, depth, steps);
		if (!*s)
			return false;
		if (*p == '[') {
			bool hit = in_class(p, *s, &end);

			if (!end)
				return false;
			if (!hit || *s == '/')
				return false;
			p = end;
			continue;
		}
		if (*p == '?' ? *s == '/' : *p != *s)
			return false;
	}
	return !*s;
}

bool ut_glob_match(const char *pattern, const char *path)
{
	long steps = GLOB_STEPS;

	return match(pattern, path, 0, &steps);
}
