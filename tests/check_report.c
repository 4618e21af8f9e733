/* check_report.c: the findings model and every report format written from it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "report/report.h"
#include "util/error.h"
#include "util/esc.h"

Suite *report_suite(void);

/* A hostile name: Markdown, HTML, Mermaid, workflow-command and JSON syntax, a line break,
 * a carriage return and non-ASCII letters. */
/* 59 bytes with "tests/": the next character, é, would pass the 60-byte label limit */
#define LONG_PREFIX "01234567890123456789012345678901234567890123456789012"

#define HOSTILE "t\"x|<b>`#;[a](b)%0A:,\r\n::error::ünï 100%"

static void add(ut_findings *fs, ut_finding_kind kind, ut_severity sev, const char *test,
		const char *file, unsigned line, const char *message)
{
	static ut_finding_test rel[2] = {{"tests/a.py::test_add", "tests/a.py", 3},
					 {"tests/a.py::test_edit", NULL, 0}};
	static long ev[2] = {12, 13};
	ut_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.severity = sev;
	f.test = test;
	f.file = file;
	f.line = line;
	f.end_line = line ? line + 4 : 0;
	f.message = message;
	f.related = rel;
	f.nrelated = 2;
	f.evidence = ev;
	f.nevidence = 2;
	ck_assert_int_eq(ut_findings_add(fs, &f), 0);
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0;
	const char *p = s;

	while (*p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static size_t array_len(const ut_json *a)
{
	const ut_json *v;
	size_t n = 0;

	for (v = ut_json_first(a); v; v = ut_json_next(v))
		n++;
	return n;
}

static const ut_json *nth(const ut_json *a, size_t i)
{
	const ut_json *v = ut_json_first(a);

	while (v && i--)
		v = ut_json_next(v);
	return v;
}

/* The string at obj.k1.k2... (keys separated by '.', array indices as numbers). */
static const ut_json *at(const ut_json *v, const char *path)
{
	char key[64];
	const char *p = path;

	while (v && *p) {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if (ut_json_is_array(v))
			v = nth(v, (size_t)strtoul(key, NULL, 10));
		else
			v = ut_json_get(v, key);
		p += n + (p[n] == '.');
	}
	return v;
}

static const char *str_at(const ut_json *v, const char *path)
{
	const char *s = ut_json_string(at(v, path));

	ck_assert_msg(s != NULL, "no string at %s", path);
	return s;
}

START_TEST(findings_sort_most_important_first)
{
	ut_findings fs;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_NOTICE, "n", "f", 1, "m");
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, "w", "f", 1, "m");
	add(&fs, UT_FINDING_REORDER, UT_SEVERITY_ERROR, "b", "f", 1, "second");
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, "z", "f", 1, "m");
	add(&fs, UT_FINDING_REORDER, UT_SEVERITY_ERROR, "b", "f", 1, "third");
	add(&fs, UT_FINDING_REORDER, UT_SEVERITY_ERROR, "a", "f", 1, "first");
	ut_findings_sort(&fs);
	ck_assert_uint_eq(fs.count[UT_SEVERITY_ERROR], 4);
	ck_assert_str_eq(fs.v.v[0].test, "z"); /* removed-prerequisite before reorder */
	ck_assert_str_eq(fs.v.v[1].message, "first");
	ck_assert_str_eq(fs.v.v[2].message, "second"); /* equal keys keep their order */
	ck_assert_str_eq(fs.v.v[3].message, "third");
	ck_assert_str_eq(fs.v.v[4].test, "w");
	ck_assert_str_eq(fs.v.v[5].test, "n");
	ut_findings_dispose(&fs);
	ut_findings_dispose(NULL);
}
END_TEST

/* A root cause: first in every format, its dependents in github's message (no budget),
 * in SARIF's related locations, in the Mermaid picture and back from JSON. */
START_TEST(root_cause_first_everywhere)
{
	static ut_finding_test deps[3] = {{"t.py::test_login", "t.py", 7},
					  {"t.py::test_logout", "t.py", 9},
					  {"t.py::test_profile", "t.py", 11}};
	ut_findings fs, back;
	ut_finding f;
	ut_buf out = UT_BUF_INIT;
	size_t i;

	ut_findings_init(&fs);
	for (i = 0; i < 12; i++)
		add(&fs, UT_FINDING_BROKEN, UT_SEVERITY_ERROR, "a_broken", "f", 1, "m");
	memset(&f, 0, sizeof(f));
	f.kind = UT_FINDING_REMOVED;
	f.severity = UT_SEVERITY_ERROR;
	f.test = "t.py::test_signup";
	f.file = "t.py";
	f.line = 3;
	f.message = "removed; t.py::test_login, t.py::test_logout and t.py::test_profile fail";
	f.dependents = deps;
	f.ndependents = 3;
	ck_assert_int_eq(ut_findings_add(&fs, &f), 0);
	ut_findings_sort(&fs);
	ck_assert(ut_finding_is_root(&fs.v.v[0]));
	ck_assert_str_eq(fs.v.v[0].test, "t.py::test_signup");
	ck_assert_int_eq(ut_report_github(&out, &fs), 0);
	ck_assert_msg(!strncmp(out.ptr, "::error file=t.py,line=3,title=Removed prerequisite::"
			       "t.py::test_signup: removed; t.py::test_login", 80), "%s", out.ptr);
	ut_buf_clear(&out);
	ck_assert_int_eq(ut_report_sarif(&out, &fs), 0);
	ck_assert_ptr_nonnull(strstr(out.ptr, "t.py::test_profile"));
	ut_buf_clear(&out);
	ck_assert_int_eq(ut_report_markdown(&out, &fs, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out.ptr, "-.->|removed| n0"));
	ut_buf_clear(&out);
	ck_assert_int_eq(ut_report_json(&out, &fs), 0);
	ut_findings_init(&back);
	ck_assert_int_eq(ut_report_json_read(&back, out.ptr, out.len, "f.json"), 0);
	ut_findings_sort(&back);
	ck_assert_uint_eq(back.v.v[0].ndependents, 3);
	ck_assert_str_eq(back.v.v[0].dependents[2].id, "t.py::test_profile");
	ck_assert_uint_eq(back.v.v[0].dependents[2].line, 11);
	ck_assert_uint_eq(back.v.v[1].ndependents, 0);
	ut_findings_dispose(&back);
	ut_findings_dispose(&fs);
	ut_buf_dispose(&out);
}
END_TEST

START_TEST(findings_copy_and_reject)
{
	ut_findings fs;
	ut_finding f;
	char test[] = "t1";

	ut_findings_init(&fs);
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(ut_findings_add(&fs, &f), UT_EINPUT);
	f.test = test;
	f.line = 9;
	f.end_line = 2;
	f.severity = UT_SEVERITY_N;
	ck_assert_int_eq(ut_findings_add(&fs, &f), UT_EINPUT);
	f.severity = UT_SEVERITY_WARNING;
	ck_assert_int_eq(ut_findings_add(&fs, &f), 0);
	test[0] = 'X';
	ck_assert_str_eq(fs.v.v[0].test, "t1");
	ck_assert_str_eq(fs.v.v[0].message, "");
	ck_assert_uint_eq(fs.v.v[0].end_line, 9);
	ck_assert_str_eq(ut_finding_title(&fs.v.v[0]), "Broken dependency");
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(fingerprint_is_stable)
{
	ut_findings fs;
	ut_finding_test r2[2] = {{"tests/a.py::test_edit", NULL, 0},
				 {"tests/a.py::test_add", "moved.py", 40}};
	ut_finding f;
	char a[33], b[33], c[33], d[33];
	size_t i;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, "t", "f.py", 3, "one");
	f = fs.v.v[0];
	ut_finding_fingerprint(&f, a);
	ck_assert_uint_eq(strlen(a), 32);
	for (i = 0; i < 32; i++)
		ck_assert(strchr("0123456789abcdef", a[i]));
	/* other lines, message, file and related order: the same thing found again */
	f.line = 90;
	f.message = "two";
	f.file = "g.py";
	f.related = r2;
	ut_finding_fingerprint(&f, b);
	ck_assert_str_eq(a, b);
	f.nrelated = 1;
	ut_finding_fingerprint(&f, c);
	ck_assert_str_ne(a, c);
	f.nrelated = 2;
	f.kind = UT_FINDING_REORDER;
	ut_finding_fingerprint(&f, d);
	ck_assert_str_ne(a, d);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(github_escaping)
{
	ut_buf b = UT_BUF_INIT;

	ut_esc_github_data(&b, "a%b\r\nc:d,e");
	ck_assert_str_eq(b.ptr, "a%25b%0D%0Ac:d,e");
	ut_buf_clear(&b);
	ut_esc_github_property(&b, "a%b\r\nc:d,e");
	ck_assert_str_eq(b.ptr, "a%25b%0D%0Ac%3Ad%2Ce");
	ut_buf_clear(&b);
	ut_esc_github_property(&b, "");
	ck_assert_str_eq(b.ptr, "");
	ut_buf_dispose(&b);
}
END_TEST

START_TEST(github_command_hostile)
{
	ut_findings fs;
	ut_finding f;
	ut_buf b = UT_BUF_INIT;

	ut_findings_init(&fs);
	memset(&f, 0, sizeof(f));
	f.kind = UT_FINDING_REMOVED;
	f.test = "t.py::tëst";
	f.file = "dir/a,b:c.py";
	f.line = 4;
	f.end_line = 9;
	f.title = "x: 1, 2";
	f.message = "gone\n::error::injected 100%\r";
	ck_assert_int_eq(ut_findings_add(&fs, &f), 0);
	f.file = NULL;
	f.kind = UT_FINDING_NEW_EDGE;
	f.severity = UT_SEVERITY_WARNING;
	f.title = NULL;
	f.message = "m";
	ck_assert_int_eq(ut_findings_add(&fs, &f), 0);
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_github(&b, &fs), 0);
	ck_assert_str_eq(b.ptr, "::error file=dir/a%2Cb%3Ac.py,line=4,endLine=9,title=x%3A 1%2C 2::"
				"t.py::tëst: gone%0A::error::injected 100%25%0D\n"
				"::warning title=New dependency::t.py::tëst: m\n");
	/* one command per line: nothing a name holds starts a second one */
	ck_assert_uint_eq(count_lines(b.ptr, "::"), 2);
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(github_ten_per_type_most_important_first)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	char id[32];
	int i;

	ut_findings_init(&fs);
	/* added in reverse, so that only sorting puts e00 first */
	for (i = 14; i >= 0; i--) {
		snprintf(id, sizeof(id), "e%02d", i);
		add(&fs, UT_FINDING_BROKEN, UT_SEVERITY_ERROR, id, "f.py", (unsigned)i + 1, "m");
	}
	for (i = 0; i < 12; i++) {
		snprintf(id, sizeof(id), "n%02d", i);
		add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_NOTICE, id, "f.py", 1, "m");
	}
	for (i = 0; i < 3; i++) {
		snprintf(id, sizeof(id), "w%02d", i);
		add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, id, "f.py", 1, "m");
	}
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_github(&b, &fs), 0);
	ck_assert_uint_eq(count_lines(b.ptr, "::error "), 10);
	ck_assert_uint_eq(count_lines(b.ptr, "::warning "), 3);
	ck_assert_uint_eq(count_lines(b.ptr, "::notice "), 10); /* 9 and the summary line */
	ck_assert_ptr_nonnull(strstr(b.ptr, "::e09: m\n"));
	ck_assert_ptr_null(strstr(b.ptr, "::e10: m\n"));
	ck_assert_ptr_nonnull(strstr(b.ptr, "::n08: m\n"));
	ck_assert_ptr_null(strstr(b.ptr, "::n09: m\n"));
	ck_assert(strncmp(b.ptr, "::error file=f.py,line=1,endLine=5,title=Broken dependency::e00",
			  63) == 0);
	ck_assert(strstr(b.ptr, "::warning") < strstr(b.ptr, "::notice"));
	ck_assert_ptr_nonnull(strstr(b.ptr,
				     "\n::notice title=untangle::5 more errors, 3 more notices "
				     "not annotated here: see the step summary\n"));
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(github_exactly_ten_needs_no_summary)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	int i;

	ut_findings_init(&fs);
	for (i = 0; i < 10; i++)
		add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_NOTICE, "n", "f.py", 1, "m");
	for (i = 0; i < 10; i++)
		add(&fs, UT_FINDING_BROKEN, UT_SEVERITY_ERROR, "e", "f.py", 1, "m");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_github(&b, &fs), 0);
	ck_assert_uint_eq(count_lines(b.ptr, "::notice "), 10);
	ck_assert_uint_eq(count_lines(b.ptr, "::error "), 10);
	ck_assert_ptr_null(strstr(b.ptr, "more"));
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(markdown_escapes_cells_and_labels)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	const char *row, *fence, *end, *p;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, HOSTILE, "a b.py", 7, "line1\nline2 | x");
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, "tests/" LONG_PREFIX "é.py", "a.py", 2,
	    "new");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_markdown(&b, &fs, NULL), 0);
	ck_assert_ptr_nonnull(
	    strstr(b.ptr, "## untangle check\n\n1 error, 1 warning, 0 notices.\n"));
	row = strstr(b.ptr, "| :x: | Removed prerequisite | ");
	ck_assert_ptr_nonnull(row);
	/* the whole row is one line with six cells: no raw | or line break from the names */
	end = strchr(row, '\n');
	ck_assert_ptr_nonnull(strstr(row, "line1<br>line2 \\| x<br>runs: 12 13 |\n"));
	{
		size_t bars = 0;

		for (p = row; p < end; p++)
			bars += *p == '|' && p[-1] != '\\';
		ck_assert_uint_eq(bars, 7);
	}
	ck_assert_ptr_null(memchr(row, '\r', (size_t)(end - row)));
	ck_assert_ptr_nonnull(strstr(row, "\\<b\\>"));
	fence = strstr(b.ptr, "```mermaid\nflowchart RL\n");
	ck_assert_ptr_nonnull(fence);
	ck_assert_ptr_nonnull(strstr(fence,
				     "  n0[\"t#quot;x#124;#60;b#62;#96;#35;#59;#91;a#93;#40;b#41;"
				     "%0A:,#92;r#92;n::error::ünï 100%\"]\n"));
	ck_assert_ptr_nonnull(strstr(fence, "  n0 -.->|removed| n1\n"));
	/* a long name is cut at a character boundary, not inside 'é' */
	ck_assert_ptr_nonnull(strstr(fence, "[\"tests/" LONG_PREFIX "\xe2\x80\xa6\"]\n"));
	ck_assert_ptr_nonnull(strstr(fence, "  class n0 error\n"));
	ck_assert_ptr_nonnull(strstr(fence, "  class n1 removed\n"));
	ck_assert_ptr_nonnull(strstr(fence, "  class n3 warning\n"));
	/* one code fence, closed, and no backtick inside it */
	end = strstr(fence + 3, "```");
	ck_assert_ptr_nonnull(end);
	ck_assert_ptr_null(memchr(fence + 3, '`', (size_t)(end - fence - 3)));
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

static bool every_edge(const ut_edge *e, void *ctx)
{
	(void)e;
	(void)ctx;
	return true;
}

static bool every_edge_dot(const ut_edge *e, void *ctx, char *attrs, size_t size)
{
	(void)attrs;
	(void)size;
	return every_edge(e, ctx);
}

/* One Mermaid escaper: `untangle graph --format mermaid` writes a hostile name exactly as
 * the Markdown summary's picture does (a second copy that drifts fails here), and dot's
 * label keeps it inside its quotes. */
START_TEST(graph_pictures_escape_as_the_summary_does)
{
	ut_findings fs;
	ut_graph *g = NULL;
	ut_buf md = UT_BUF_INIT, mm = UT_BUF_INIT, dot = UT_BUF_INIT, want = UT_BUF_INIT;
	ut_edge *e;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, HOSTILE, "a b.py", 7, "m");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_markdown(&md, &fs, NULL), 0);
	ck_assert_int_eq(ut_graph_new(&g, 2), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 0, "a", "tests/a.py::test_add", "a.py", 1, 0), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 1, HOSTILE, HOSTILE, "a b.py", 7, 0), 0);
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_report_mermaid(&mm, g, every_edge, NULL), 0);
	ut_buf_puts(&want, "[\"");
	ut_esc_mermaid(&want, HOSTILE, 0);
	ut_buf_puts(&want, "\"]\n");
	ck_assert_ptr_nonnull(strstr(md.ptr, want.ptr));
	ck_assert_ptr_nonnull(strstr(mm.ptr, want.ptr));
	ck_assert_ptr_null(strstr(mm.ptr, "<b>"));
	ck_assert_ptr_nonnull(strstr(mm.ptr, "  t1 --> t0\n"));
	ck_assert_int_eq(ut_report_dot(&dot, g, "untangle", every_edge_dot, NULL), 0);
	ck_assert_ptr_nonnull(strstr(dot.ptr, "  t1 [label=\"t\\\"x|<b>`#;[a](b)%0A:,\\\\r\\\\n::error::"));
	ck_assert_ptr_nonnull(strstr(dot.ptr, "  t1 -> t0;\n"));
	ut_buf_dispose(&md);
	ut_buf_dispose(&mm);
	ut_buf_dispose(&dot);
	ut_buf_dispose(&want);
	ut_graph_free(g);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(markdown_caps_rows_and_nodes)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	ut_report_markdown_opts o = {"pre-merge", 3, 5};
	char id[32];
	int i;

	ut_findings_init(&fs);
	ck_assert_int_eq(ut_report_markdown(&b, &fs, &o), 0);
	ck_assert_str_eq(b.ptr, "## pre\\-merge\n\nNo dependency problems found.\n");
	ut_buf_clear(&b);
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof(id), "t%02d", i);
		add(&fs, UT_FINDING_BROKEN, UT_SEVERITY_ERROR, id, "f.py", 1, "m");
	}
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_markdown(&b, &fs, &o), 0);
	ck_assert_uint_eq(count_lines(b.ptr, "| :x: |"), 3);
	ck_assert_ptr_nonnull(strstr(b.ptr, "\n17 more findings not listed.\n"));
	/* 5 nodes: t00, its two prerequisites, t01 and t02; each of the three has 2 edges */
	ck_assert_uint_eq(count_lines(b.ptr, "  n"), 5 + 6);
	ck_assert_ptr_nonnull(strstr(b.ptr, "\n17 more tests not drawn.\n"));
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(sarif_is_valid_2_1_0)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *run, *res;
	size_t i;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_NOTICE, "n", NULL, 0, "note");
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, HOSTILE, "dir/a b#?.py", 7, "gone \"x\"");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_sarif(&b, &fs), 0);
	ck_assert_int_eq(ut_json_parse(&doc, b.ptr, b.len, "sarif"), 0);
	ck_assert_str_eq(str_at(doc, "version"), "2.1.0");
	ck_assert_str_eq(str_at(doc, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
	ck_assert_uint_eq(array_len(ut_json_get(doc, "runs")), 1);
	run = at(doc, "runs.0");
	ck_assert_str_eq(str_at(run, "tool.driver.name"), "untangle");
	ck_assert(strlen(str_at(run, "tool.driver.version")) > 0);
	ck_assert_uint_eq(array_len(at(run, "tool.driver.rules")), UT_FINDING_NKINDS);
	for (i = 0; i < UT_FINDING_NKINDS; i++) {
		const ut_json *rule = nth(at(run, "tool.driver.rules"), i);

		ck_assert_str_eq(str_at(rule, "id"), ut_finding_kind_name((ut_finding_kind)i));
		str_at(rule, "shortDescription.text");
		str_at(rule, "defaultConfiguration.level");
	}
	ck_assert_uint_eq(array_len(at(run, "results")), 2);
	res = at(run, "results.0");
	ck_assert_str_eq(str_at(res, "ruleId"), "removed-prerequisite");
	ck_assert_int_eq((int)ut_json_number(at(res, "ruleIndex")), UT_FINDING_REMOVED);
	ck_assert_str_eq(str_at(res, "level"), "error");
	ck_assert_str_eq(str_at(res, "message.text"), HOSTILE ": gone \"x\"");
	ck_assert_str_eq(str_at(res, "locations.0.physicalLocation.artifactLocation.uri"),
			 "dir/a%20b%23%3F.py");
	ck_assert_str_eq(str_at(res, "locations.0.physicalLocation.artifactLocation.uriBaseId"),
			 "%SRCROOT%");
	ck_assert_int_eq(
	    (int)ut_json_number(at(res, "locations.0.physicalLocation.region.startLine")), 7);
	ck_assert_int_eq(
	    (int)ut_json_number(at(res, "locations.0.physicalLocation.region.endLine")), 11);
	ck_assert_str_eq(str_at(res, "locations.0.logicalLocations.0.fullyQualifiedName"), HOSTILE);
	ck_assert_uint_eq(array_len(at(res, "relatedLocations")), 2);
	ck_assert_str_eq(str_at(res, "relatedLocations.0.physicalLocation.artifactLocation.uri"),
			 "tests/a.py");
	ck_assert_str_eq(str_at(res, "relatedLocations.1.message.text"), "tests/a.py::test_edit");
	ck_assert_ptr_null(at(res, "relatedLocations.1.physicalLocation"));
	ck_assert_uint_eq(strlen(str_at(res, "partialFingerprints.untangle/v1")), 32);
	ck_assert_uint_eq(array_len(at(res, "properties.evidence")), 2);
	res = at(run, "results.1");
	ck_assert_str_eq(str_at(res, "level"), "note");
	ck_assert_ptr_null(at(res, "locations.0.physicalLocation"));
	str_at(res, "locations.0.logicalLocations.0.fullyQualifiedName");
	ut_json_free(doc);
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(gitlab_code_quality)
{
	ut_findings fs;
	ut_buf b = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *v;
	static const char *const sev[] = {"major", "minor", "info"};
	size_t i = 0;

	ut_findings_init(&fs);
	add(&fs, UT_FINDING_BROKEN, UT_SEVERITY_ERROR, HOSTILE, "x.py", 5, "broke\n\"it\"");
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, "w", "x.py", 5, "m");
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_NOTICE, "n", NULL, 0, "m");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_gitlab(&b, &fs), 0);
	ck_assert_int_eq(ut_json_parse(&doc, b.ptr, b.len, "gl"), 0);
	ck_assert(ut_json_is_array(doc));
	ck_assert_uint_eq(array_len(doc), 3);
	for (v = ut_json_first(doc); v; v = ut_json_next(v), i++) {
		char fp[33];

		ut_finding_fingerprint(&fs.v.v[i], fp);
		str_at(v, "description");
		ck_assert_str_eq(str_at(v, "check_name"), ut_finding_kind_name(fs.v.v[i].kind));
		ck_assert_str_eq(str_at(v, "fingerprint"), fp);
		ck_assert_str_eq(str_at(v, "severity"), sev[i]);
		str_at(v, "location.path");
		ck_assert(ut_json_number(at(v, "location.lines.begin")) >= 1);
	}
	ck_assert_str_eq(str_at(doc, "0.description"),
			 "Broken dependency: " HOSTILE ": broke\n\"it\"");
	ck_assert_int_eq((int)ut_json_number(at(doc, "0.location.lines.end")), 9);
	ck_assert_str_eq(str_at(doc, "2.location.path"), "untangle.json");
	ck_assert_str_ne(str_at(doc, "1.fingerprint"), str_at(doc, "2.fingerprint"));
	ut_json_free(doc);
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
}
END_TEST

START_TEST(json_round_trip)
{
	ut_findings fs, back;
	ut_buf a = UT_BUF_INIT, b = UT_BUF_INIT;

	ut_findings_init(&fs);
	ut_findings_init(&back);
	add(&fs, UT_FINDING_REORDER, UT_SEVERITY_ERROR, HOSTILE, "ü.py", 5, "m\n\"q\"");
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, "w", NULL, 0, "");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_json(&a, &fs), 0);
	ck_assert_int_eq(ut_report_json_read(&back, a.ptr, a.len, "f.json"), 0);
	ut_findings_sort(&back);
	ck_assert_int_eq(ut_report_json(&b, &back), 0);
	ck_assert_str_eq(a.ptr, b.ptr);
	ck_assert_uint_eq(back.count[UT_SEVERITY_ERROR], 1);
	ck_assert_str_eq(back.v.v[0].test, HOSTILE);
	ck_assert_ptr_null(back.v.v[0].related[1].file);
	ck_assert_int_eq(back.v.v[0].evidence[1], 13);
	ut_buf_dispose(&a);
	ut_buf_dispose(&b);
	ut_findings_dispose(&fs);
	ut_findings_dispose(&back);
}
END_TEST

START_TEST(json_read_rejects_bad_input)
{
	static const char *const bad[][2] = {
	    {"{\"version\":2,\"findings\":[]}", "version 1"},
	    {"{\"version\":1,\"findings\":{}}", "must be an array"},
	    {"{\"version\":1,\"findings\":[{\"kind\":\"oops\",\"test\":\"t\"}]}", "'oops'"},
	    {"{\"version\":1,\"findings\":[{\"kind\":\"reorder\"}]}", "findings[0]: no test"},
	    {"{\"version\":1,\"findings\":[{\"kind\":\"reorder\",\"test\":\"t\",\"line\":-1}]}",
	     "findings[0].line"},
	    {"{\"version\":1,\"findings\":[{\"kind\":\"reorder\",\"test\":\"t\",\"related\":[{}]}]"
	     "}",
	     "no id"},
	    {"{\"version\":1,\"findings\":[{\"kind\":\"reorder\",\"test\":\"t\",\"severity\":\"x\"}"
	     "]}",
	     "severity"},
	    {"{\"version\":1,", "f.json"},
	};
	ut_findings fs;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ut_findings_init(&fs);
		ck_assert_int_eq(ut_report_json_read(&fs, bad[i][0], strlen(bad[i][0]), "f.json"),
				 UT_EINPUT);
		ck_assert_msg(strstr(ut_error_message(), bad[i][1]) != NULL, "%zu: %s", i,
			      ut_error_message());
		ut_findings_dispose(&fs);
	}
}
END_TEST

/* The text format: one finding in two lines, most important first, the place left out
 * when unknown, and the counts with their plurals. */
START_TEST(text_lines_for_a_person)
{
	ut_findings fs;
	ut_buf out = UT_BUF_INIT;
	char want[512];

	ut_findings_init(&fs);
	ck_assert_int_eq(ut_report_text(&out, &fs), 0);
	ck_assert_str_eq(out.ptr, "0 errors, 0 warnings\n");
	ut_buf_dispose(&out);
	add(&fs, UT_FINDING_NEW_EDGE, UT_SEVERITY_WARNING, "t.py::w", NULL, 0, "holds");
	add(&fs, UT_FINDING_REMOVED, UT_SEVERITY_ERROR, "t.py::e", "t.py", 7, "gone");
	ut_findings_sort(&fs);
	ck_assert_int_eq(ut_report_text(&out, &fs), 0);
	snprintf(want, sizeof(want),
		 "error: t.py:7: t.py::e: %s\n  gone\n"
		 "warning: t.py::w: %s\n  holds\n"
		 "1 error, 1 warning\n",
		 ut_finding_title(&fs.v.v[0]), ut_finding_title(&fs.v.v[1]));
	ck_assert_str_eq(out.ptr, want);
	ut_buf_dispose(&out);
	ut_findings_dispose(&fs);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, findings_sort_most_important_first);
	tcase_add_test(tc, text_lines_for_a_person);
	tcase_add_test(tc, findings_copy_and_reject);
	tcase_add_test(tc, root_cause_first_everywhere);
	tcase_add_test(tc, fingerprint_is_stable);
	tcase_add_test(tc, github_escaping);
	tcase_add_test(tc, github_command_hostile);
	tcase_add_test(tc, github_ten_per_type_most_important_first);
	tcase_add_test(tc, github_exactly_ten_needs_no_summary);
	tcase_add_test(tc, markdown_escapes_cells_and_labels);
	tcase_add_test(tc, graph_pictures_escape_as_the_summary_does);
	tcase_add_test(tc, markdown_caps_rows_and_nodes);
	tcase_add_test(tc, sarif_is_valid_2_1_0);
	tcase_add_test(tc, gitlab_code_quality);
	tcase_add_test(tc, json_round_trip);
	tcase_add_test(tc, json_read_rejects_bad_input);
	suite_add_tcase(s, tc);
	return s;
}
