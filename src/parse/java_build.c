/* java_build.c: what the project's build file at the root says about its tests: the
 * TestNG suite files Maven Surefire/Failsafe's `suiteXmlFiles` (pom.xml) or Gradle's
 * `useTestNG { suites ... }` (build.gradle, build.gradle.kts) name (the build runs those
 * and no testng.xml lying elsewhere, so they are read before any guess), the include and
 * exclude patterns Maven picks test classes by, and the framework Gradle's test task runs. */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/glob.h"
#include "util/fs.h"
#include "util/xml.h"
#include "util/banned.h"

#define MAX_BUILD_FILE ((size_t)4 << 20)
#define MAX_DEPTH 64
#define MAX_SUITES 256

typedef struct {
	up_index *ix;
	ut_xml *xml;
	const char *stack[MAX_DEPTH]; /* element names from <project> down (in scratch) */
	size_t depth;
	bool in_profile;   /* inside <profiles> */
	ut_buf text;	   /* text of the element being read */
	ut_jstrings main;  /* suiteXmlFile values outside profiles, in order */
	ut_jstrings other; /* those of profiles */
	ut_jstrings props; /* name, value pairs of <project><properties> */
	/* Surefire's and Failsafe's include/exclude patterns, outside profiles */
	size_t plugin;	      /* depth of the <plugin> being read, 0 outside one */
	const char *artifact; /* its artifactId */
	ut_jstrings inc, exc; /* its <includes>, <excludes> */
	ut_jstrings includes, excludes;
	bool surefire, failsafe; /* declared with includes of their own */
	bool failsafe_seen;
	int rc;
} pom_reader;

/* Surefire's and Failsafe's defaults (maven-surefire-plugin 3, maven-failsafe-plugin 3). */
static const char *const surefire_default[] = {"**/Test*.java", "**/*Test.java", "**/*Tests.java",
					       "**/*TestCase.java", NULL};
static const char *const failsafe_default[] = {"**/IT*.java", "**/*IT.java", "**/*ITCase.java",
					       NULL};

static void pom_start(void *data, const char *el, const char **atts)
{
	pom_reader *r = data;

	(void)atts;
	if (r->depth < MAX_DEPTH)
		r->stack[r->depth] = ut_arena_strdup(&r->ix->scratch, el);
	r->depth++;
	r->in_profile |= strcmp(el, "profiles") == 0;
	if (strcmp(el, "plugin") == 0 && !r->plugin) {
		r->plugin = r->depth;
		r->artifact = NULL;
		r->inc.n = r->exc.n = 0;
	}
	ut_buf_clear(&r->text);
}

static void pom_text(void *data, const char *s, size_t n)
{
	pom_reader *r = data;

	if (r->text.len + n < 4096 && ut_buf_put(&r->text, s, n) < 0)
		r->rc = ut_error_set(UT_ENOMEM, "out of memory");
}

/* s[0, n) without the blanks around it, in scratch; NULL when out of memory. */
static const char *trimmed(pom_reader *r, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return ut_arena_strndup(&r->ix->scratch, s, n);
}

static int keep(pom_reader *r, ut_jstrings *v, const char *s, size_t n)
{
	const char *copy;

	if (v->n >= 2 * MAX_SUITES)
		return 0;
	copy = trimmed(r, s, n);
	return copy && ut_vec_push(v, copy) == 0 ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

/* A <plugin> read: Surefire's or Failsafe's patterns join the build's. */
static int end_plugin(pom_reader *r)
{
	const char *a = r->artifact ? r->artifact : "";
	bool surefire = strstr(a, "maven-surefire-plugin") != NULL;
	bool failsafe = strstr(a, "maven-failsafe-plugin") != NULL;
	size_t i;
	int rc = 0;

	if (r->in_profile || (!surefire && !failsafe))
		return 0;
	r->failsafe_seen |= failsafe;
	if (r->inc.n) {
		r->surefire |= surefire;
		r->failsafe |= failsafe;
	}
	for (i = 0; i < r->inc.n && rc == 0; i++)
		rc = ut_vec_push(&r->includes, r->inc.v[i]);
	for (i = 0; i < r->exc.n && rc == 0; i++)
		rc = ut_vec_push(&r->excludes, r->exc.v[i]);
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static void pom_end(void *data, const char *el)
{
	pom_reader *r = data;
	const char *parent =
	    r->depth >= 2 && r->depth - 2 < MAX_DEPTH ? r->stack[r->depth - 2] : "";

	if (r->rc == 0 && strcmp(el, "suiteXmlFile") == 0 && parent &&
	    strcmp(parent, "suiteXmlFiles") == 0)
		r->rc = keep(r, r->in_profile ? &r->other : &r->main,
			     r->text.ptr ? r->text.ptr : "", r->text.len);
	if (r->rc == 0 && r->depth == 3 && parent && strcmp(parent, "properties") == 0) {
		r->rc = keep(r, &r->props, el, strlen(el));
		if (r->rc == 0)
			r->rc = keep(r, &r->props, r->text.ptr ? r->text.ptr : "", r->text.len);
	}
	if (r->rc == 0 && r->plugin && r->depth == r->plugin + 1 && strcmp(el, "artifactId") == 0) {
		r->artifact = trimmed(r, r->text.ptr ? r->text.ptr : "", r->text.len);
		if (!r->artifact)
			r->rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (r->rc == 0 && r->plugin && parent && strcmp(el, "include") == 0 &&
	    strcmp(parent, "includes") == 0)
		r->rc = keep(r, &r->inc, r->text.ptr ? r->text.ptr : "", r->text.len);
	if (r->rc == 0 && r->plugin && parent && strcmp(el, "exclude") == 0 &&
	    strcmp(parent, "excludes") == 0)
		r->rc = keep(r, &r->exc, r->text.ptr ? r->text.ptr : "", r->text.len);
	if (r->rc == 0 && r->plugin == r->depth && strcmp(el, "plugin") == 0) {
		r->rc = end_plugin(r);
		r->plugin = 0;
	}
	if (strcmp(el, "profiles") == 0)
		r->in_profile = false;
	if (r->depth)
		r->depth--;
	ut_buf_clear(&r->text);
	if (r->rc)
		ut_xml_stop(r->xml);
}

static void pom_entity(void *data)
{
	(void)data; /* the parse stops: the pom is not read */
}

static const ut_xml_handlers pom_handlers = {pom_start, pom_end, pom_text, pom_entity};

/* s with ${name} replaced by the pom's property of that name (kept as is when unknown). */
static const char *expand(pom_reader *r, const char *s)
{
	const char *open = strstr(s, "${"), *close = open ? strchr(open, '}') : NULL;
	ut_buf b = UT_BUF_INIT;
	const char *out;
	size_t i;

	if (!close)
		return s;
	ut_buf_put(&b, s, (size_t)(open - s));
	for (i = 0; i + 1 < r->props.n; i += 2)
		if (strlen(r->props.v[i]) == (size_t)(close - open - 2) &&
		    strncmp(r->props.v[i], open + 2, (size_t)(close - open - 2)) == 0)
			break;
	if (i + 1 < r->props.n)
		ut_buf_puts(&b, r->props.v[i + 1]);
	else
		ut_buf_put(&b, open, (size_t)(close - open + 1));
	ut_buf_puts(&b, close + 1);
	out = b.failed ? NULL : ut_arena_strdup(&r->ix->scratch, b.ptr ? b.ptr : "");
	ut_buf_dispose(&b);
	return out;
}

/* Reads pom.xml at path into r (r->rc: the failure); 1 when it could be read, 0 when not
 * (a warning says why). */
static int parse_pom(up_discover *d, const char *path, pom_reader *r)
{
	ut_buf src = UT_BUF_INIT;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->ix = d->ix;
	ut_buf_init(&r->text, 0);
	if (ut_fs_read(&src, path, MAX_BUILD_FILE) < 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, "pom.xml", 0, "cannot read it: %s",
			     ut_error_message());
		goto done;
	}
	r->xml = ut_xml_new(&pom_handlers, r);
	if (!r->xml) {
		r->rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (ut_xml_feed(r->xml, src.ptr ? src.ptr : "", src.len, true) < 0 && r->rc == 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, "pom.xml", (unsigned)ut_xml_line(r->xml),
			     "not a pom.xml that can be read (%s): its test configuration is not "
			     "used",
			     ut_xml_error(r->xml));
		goto done;
	}
	rc = r->rc == 0;
done:
	ut_xml_free(r->xml);
	r->xml = NULL;
	ut_buf_dispose(&src);
	return rc;
}

static void pom_dispose(pom_reader *r)
{
	ut_buf_dispose(&r->text);
	ut_vec_free(&r->main);
	ut_vec_free(&r->other);
	ut_vec_free(&r->props);
	ut_vec_free(&r->inc);
	ut_vec_free(&r->exc);
	ut_vec_free(&r->includes);
	ut_vec_free(&r->excludes);
}

static int read_pom(up_discover *d, const char *path, ut_jstrings *out)
{
	pom_reader r;
	const ut_jstrings *found;
	size_t i;
	int rc = 0;

	if (parse_pom(d, path, &r) > 0) {
		/* the build's own configuration; a profile's when only profiles name suites */
		found = r.main.n ? &r.main : &r.other;
		for (i = 0; i < found->n && rc == 0; i++) {
			const char *s = expand(&r, found->v[i]);

			if (!s || ut_vec_push(out, s) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	rc = rc ? rc : r.rc;
	pom_dispose(&r);
	return rc;
}

static int push_all(ut_jstrings *out, const char *const *v)
{
	for (; *v; v++)
		if (ut_vec_push(out, *v) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int up_java_build_patterns(up_discover *d, ut_jstrings *includes, ut_jstrings *excludes)
{
	char *path = ut_path_join(d->ix->root ? d->ix->root : ".", "pom.xml");
	pom_reader r;
	size_t i;
	int rc = 0, read = 0;

	if (!path)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (ut_fs_exists(path))
		read = parse_pom(d, path, &r);
	else
		memset(&r, 0, sizeof(r));
	free(path);
	rc = r.rc;
	/* a plugin without includes of its own runs its defaults; Surefire always runs */
	if (rc == 0 && read > 0 && !r.surefire)
		rc = push_all(&r.includes, surefire_default);
	if (rc == 0 && read > 0 && r.failsafe_seen && !r.failsafe)
		rc = push_all(&r.includes, failsafe_default);
	for (i = 0; i < r.includes.n && rc == 0; i++) {
		const char *s = expand(&r, r.includes.v[i]);

		rc = s && ut_vec_push(includes, s) == 0 ? 0
							: ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < r.excludes.n && rc == 0; i++) {
		const char *s = expand(&r, r.excludes.v[i]);

		rc = s && ut_vec_push(excludes, s) == 0 ? 0
							: ut_error_set(UT_ENOMEM, "out of memory");
	}
	pom_dispose(&r);
	return rc < 0 ? rc : read > 0;
}

/* Does one of the comma-separated patterns of v match the class's path? */
static bool any_match(const ut_jstrings *v, const char *path)
{
	char pat[512];
	size_t i;

	for (i = 0; i < v->n; i++) {
		const char *p = v->v[i], *end;

		for (; *p; p = *end ? end + 1 : end) {
			size_t n;

			end = strchr(p, ',');
			end = end ? end : p + strlen(p);
			while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
				p++;
			n = (size_t)(end - p);
			while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n'))
				n--;
			if (n >= 7 && strncmp(p, "%regex[", 7) == 0)
				return true; /* not evaluated: counted as a match */
			if (n >= sizeof(pat))
				continue;
			memcpy(pat, p, n);
			pat[n] = '\0';
			/* Foo.java, Foo.class and Foo name the same class */
			if (n > 5 && strcmp(pat + n - 5, ".java") == 0)
				pat[n - 5] = '\0';
			else if (n > 6 && strcmp(pat + n - 6, ".class") == 0)
				pat[n - 6] = '\0';
			if (n && ut_glob_match(pat, path))
				return true;
		}
	}
	return false;
}

bool up_java_build_runs(const ut_jstrings *includes, const ut_jstrings *excludes, const char *path)
{
	return any_match(includes, path) && !any_match(excludes, path);
}

static bool ident_char(char c)
{
	return c == '_' || c == '$' || (c >= '0' && c <= '9') ||
	       ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* The word at s, not part of a longer identifier (p is the text's start). */
static bool word_at(const char *p, const char *s, const char *word)
{
	size_t n = strlen(word);

	return strncmp(s, word, n) == 0 && (s == p || !ident_char(s[-1])) && !ident_char(s[n]);
}

/* The string literals of the `suites` statement starting at s (until the end of its
 * line, lines ending in ',' or inside parentheses continued), appended to out. */
static int gradle_suites(up_index *ix, const char *s, const char *end, ut_jstrings *out)
{
	const char *start = s;
	int parens = 0;

	for (; s < end && out->n < MAX_SUITES; s++) {
		if (*s == '(') {
			parens++;
		} else if (*s == ')') {
			if (--parens < 0)
				return 0;
		} else if (*s == '}' || (*s == '\n' && parens <= 0)) {
			const char *back = s;

			while (back > start &&
			       (back[-1] == ' ' || back[-1] == '\t' || back[-1] == '\r'))
				back--;
			if (*s == '}' || back == start || back[-1] != ',')
				return 0;
		} else if (*s == '"' || *s == '\'') {
			const char *q = memchr(s + 1, *s, (size_t)(end - s - 1));
			const char *str;

			if (!q)
				return 0;
			str = ut_arena_strndup(&ix->scratch, s + 1, (size_t)(q - s - 1));
			if (!str || ut_vec_push(out, str) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
			s = q;
		}
	}
	return 0;
}

/* The test framework a Gradle build names (useTestNG, useJUnitPlatform, useJUnit), or
 * NULL when it names none or several. */
static void gradle_engine(const char **engine, const char *name)
{
	if (*engine && strcmp(*engine, name) != 0)
		*engine = "";
	else if (!*engine)
		*engine = name;
}

static int read_gradle(up_discover *d, const char *path, const char *rel, ut_jstrings *out,
		       const char **engine)
{
	ut_buf src = UT_BUF_INIT;
	const char *p, *s, *end;
	bool testng = false;
	int depth = 0, at = -1, rc = 0;

	if (ut_fs_read(&src, path, MAX_BUILD_FILE) < 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, 0, "cannot read it: %s",
			     ut_error_message());
		ut_buf_dispose(&src);
		return 0;
	}
	p = src.ptr ? src.ptr : "";
	end = p + src.len;
	/* `suites` counts inside the braces of a useTestNG block */
	for (s = p; s < end && rc == 0; s++) {
		if (s[0] == '/' && s + 1 < end && s[1] == '/') {
			while (s < end && *s != '\n')
				s++;
		} else if (s[0] == '/' && s + 1 < end && s[1] == '*') {
			const char *c = strstr(s + 2, "*/");

			s = c ? c + 1 : end;
		} else if (*s == '"' || *s == '\'') {
			const char *q = memchr(s + 1, *s, (size_t)(end - s - 1));

			s = q ? q : end;
		} else if (*s == '{') {
			if (testng && at < 0)
				at = depth;
			depth++;
			testng = false;
		} else if (*s == '}') {
			depth--;
			if (depth == at)
				at = -1;
		} else if (word_at(p, s, "useTestNG")) {
			testng = true;
			gradle_engine(engine, "testng");
			s += 8;
		} else if (word_at(p, s, "useJUnitPlatform")) {
			gradle_engine(engine, "junit5");
			s += 15;
		} else if (word_at(p, s, "useJUnit")) {
			gradle_engine(engine, "junit4");
			s += 7;
		} else if (at >= 0 && word_at(p, s, "suites")) {
			rc = gradle_suites(d->ix, s + 6, end, out);
			s += 5;
		}
	}
	ut_buf_dispose(&src);
	return rc;
}

int up_java_build_engine(up_discover *d, const char **engine)
{
	static const char *const files[] = {"build.gradle", "build.gradle.kts", NULL};
	const char *root = d->ix->root ? d->ix->root : ".";
	ut_jstrings ignored = {0};
	size_t i;
	int rc = 0;

	*engine = NULL;
	for (i = 0; files[i] && rc == 0 && !*engine; i++) {
		char *path = ut_path_join(root, files[i]);

		if (!path)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (ut_fs_exists(path))
			rc = read_gradle(d, path, files[i], &ignored, engine);
		free(path);
	}
	if (*engine && !**engine)
		*engine = NULL;
	ut_vec_free(&ignored);
	return rc;
}

int up_java_build_suites(up_discover *d, ut_jstrings *out, const char **from)
{
	const char *engine = NULL;
	static const char *const files[] = {"pom.xml", "build.gradle", "build.gradle.kts", NULL};
	const char *root = d->ix->root ? d->ix->root : ".";
	size_t i, before = out->n;
	int rc = 0;

	*from = NULL;
	for (i = 0; files[i] && rc == 0 && out->n == before; i++) {
		char *path = ut_path_join(root, files[i]);

		if (!path)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (ut_fs_exists(path))
			rc = i == 0 ? read_pom(d, path, out)
				    : read_gradle(d, path, files[i], out, &engine);
		if (out->n > before)
			*from = files[i];
		free(path);
	}
	return rc;
}
