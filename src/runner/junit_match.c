/* junit_match.c: finding the testcase of a test id in a read report: an index of every
 * spelling a runner may give a test, so that matching a schedule is linear, not
 * quadratic. examples/boards/truth (id_forms, outcomes) is the executable reference. */
#include "runner/internal.h"

#include <stdbool.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"

static const char ambiguous_marker;
#define AMBIGUOUS ((void *)&ambiguous_marker)

static const char *const separators[] = {"::", ".", "#", " "};

static int put_join(ut_junit *j, const char *a, const char *sep, const char *b, size_t blen,
		    size_t index)
{
	char *key;
	size_t len;

	if (!*a)
		key = ut_arena_strndup(&j->arena, b, blen);
	else
		key = ut_arena_printf(&j->arena, "%s%s%.*s", a, sep, (int)blen, b);
	if (!key)
		return ut_error_set(UT_ENOMEM, "out of memory");
	len = strlen(key);
	return ut_map_put(&j->by_join, key, len, UT_JUNIT_SLOT(index));
}

static int put_name(ut_junit *j, const char *name, size_t len, size_t index)
{
	void *old = ut_map_get(&j->by_name, name, len);

	if (old && old != UT_JUNIT_SLOT(index))
		return ut_map_put(&j->by_name, name, len, AMBIGUOUS);
	return ut_map_put(&j->by_name, name, len, UT_JUNIT_SLOT(index));
}

/* "a.b.c.name" -> "b.c.name", "c.name": the case as a runner whose root folder is a parent
 * of the project folder names it (pytest's rootdir); the whole spelling is by_join's. */
static int index_suffixes(ut_junit *j, const ut_junit_case *c)
{
	const char *full, *p;
	int rc = 0;

	if (!*c->classname || !strchr(c->classname, '.'))
		return 0;
	full = ut_arena_printf(&j->arena, "%s.%s", c->classname, c->name);
	if (!full)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (p = strchr(full, '.'); p && p < full + strlen(c->classname) && rc == 0;
	     p = strchr(p + 1, '.')) {
		const char *suffix = p + 1;
		size_t len = strlen(suffix);
		void *old = ut_map_get(&j->by_suffix, suffix, len);

		rc = ut_map_put(&j->by_suffix, suffix, len,
				old && old != UT_JUNIT_SLOT(c->index) ? AMBIGUOUS
								       : UT_JUNIT_SLOT(c->index));
	}
	return rc;
}

/* The spellings of one case under one name (the name itself, or without "(...)"). */
static int index_name(ut_junit *j, const ut_junit_case *c, const char *name, size_t len)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < 4 && rc == 0; k++)
		rc = put_join(j, c->classname, separators[k], name, len, c->index);
	if (rc == 0 && c->file && *c->file)
		rc = put_join(j, c->file, "::", name, len, c->index);
	if (rc == 0 && len)
		rc = put_name(j, name, len, c->index);
	return rc;
}

int ut_junit__index(ut_junit *j)
{
	size_t i, len;
	const char *paren;
	int rc = 0;

	for (i = 0; i < j->cases.n && rc == 0; i++) {
		const ut_junit_case *c = &j->cases.v[i];

		len = strlen(c->name);
		rc = index_name(j, c, c->name, len);
		if (rc == 0)
			rc = index_suffixes(j, c);
		/* JUnit 5 names methods "addUserTest()" or "test(String)" */
		paren = len > 2 && c->name[len - 1] == ')' ? strchr(c->name, '(') : NULL;
		if (rc == 0 && paren && paren > c->name)
			rc = index_name(j, c, c->name, (size_t)(paren - c->name));
	}
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static const ut_junit_case *get(const ut_junit *j, const ut_map *m, const char *s, size_t len)
{
	void *v = ut_map_get(m, s, len);

	return v && v != AMBIGUOUS ? &j->cases.v[UT_JUNIT_INDEX(v)] : NULL;
}

/* id with every "::" and "#" read as ".". */
static void dotted(ut_buf *b, const char *id)
{
	const char *p;

	ut_buf_clear(b);
	for (p = id; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			ut_buf_putc(b, '.');
			p++;
		} else
			ut_buf_putc(b, *p == '#' ? '.' : *p);
	}
}

/* pytest's junitxml spelling of a node id (mangle_test_address): the path before the first
 * "::" as a dotted module, the rest split on "::", parameters in brackets left alone.
 * With keep_rest, the rest stays as written (module::Class::test). */
static bool pytest_form(ut_buf *b, const char *id, bool keep_rest)
{
	const char *sep = strstr(id, "::"), *bracket = strchr(id, '['), *p;
	size_t plen;

	if (!sep || (bracket && bracket < sep))
		return false;
	plen = (size_t)(sep - id);
	if (plen > 3 && strncmp(sep - 3, ".py", 3) == 0)
		plen -= 3;
	ut_buf_clear(b);
	for (p = id; p < id + plen; p++)
		ut_buf_putc(b, *p == '/' ? '.' : *p);
	if (keep_rest) {
		ut_buf_puts(b, sep);
		return true;
	}
	for (p = sep; *p; p++) {
		if (p[0] == ':' && p[1] == ':' && (!bracket || p < bracket)) {
			ut_buf_putc(b, '.');
			p++;
		} else
			ut_buf_putc(b, *p);
	}
	return true;
}

static const char *last_part(const char *id)
{
	const char *p, *tail = id;

	for (p = id; *p; p++) {
		if (p[0] == ':' && p[1] == ':')
			tail = p + 2;
		else if (p[0] == '#')
			tail = p + 1;
	}
	return tail;
}

const ut_junit_case *ut_junit_match(const ut_junit *j, const char *id)
{
	const ut_junit_case *c = NULL;
	const char *sep, *rest, *tail;
	ut_buf b = UT_BUF_INIT;

	if (!j || !id || j->cases.n == 0)
		return NULL;
	sep = strstr(id, "::");
	rest = sep ? sep + 2 : NULL;
	tail = last_part(id);
	c = get(j, &j->by_join, id, strlen(id));
	if (!c) {
		dotted(&b, id);
		c = b.failed ? NULL : get(j, &j->by_join, b.ptr, b.len);
	}
	if (!c && pytest_form(&b, id, false) && !b.failed)
		c = get(j, &j->by_join, b.ptr, b.len);
	if (!c && pytest_form(&b, id, true) && !b.failed)
		c = get(j, &j->by_join, b.ptr, b.len);
	if (!c && pytest_form(&b, id, false) && !b.failed)
		c = get(j, &j->by_suffix, b.ptr, b.len);
	if (!c && rest)
		c = get(j, &j->by_join, rest, strlen(rest));
	if (!c)
		c = get(j, &j->by_name, id, strlen(id));
	if (!c && rest)
		c = get(j, &j->by_name, rest, strlen(rest));
	if (!c && tail != id && tail != rest)
		c = get(j, &j->by_name, tail, strlen(tail));
	ut_buf_dispose(&b);
	return c;
}
