/* report.h: the report formats, all written from one sorted ut_findings (findings.h).
 *
 * Every writer appends to `out` and returns 0, or UT_ENOMEM when the buffer failed (out
 * of memory or over its maximum; what was written stays, truncated). The findings must
 * have been sorted with ut_findings_sort: the writers keep their order, which is "most
 * important first". Nothing here prints; the caller chooses where the text goes. */
#ifndef UT_REPORT_H
#define UT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"
#include "report/findings.h"
#include "util/buf.h"

/* GitHub shows at most this many annotations of each type (error, warning, notice) from
 * one step; the rest of the workflow commands would be dropped silently. */
#define UT_REPORT_GITHUB_PER_TYPE 10

/* Lines for a person, most important first: "SEVERITY: FILE:LINE: TEST: title" and the
 * message below it indented by two spaces (FILE:LINE left out when unknown), then
 * "N errors, M warnings". */
int ut_report_text(ut_buf *out, const ut_findings *fs);

/* GitHub Actions workflow commands for stdout, one per line:
 *   ::error file=F,line=L,endLine=E,title=T::message
 * at most UT_REPORT_GITHUB_PER_TYPE per type, most important first. When findings are left
 * out, the last line is a notice that says how many of each type are in the summary (one
 * notice slot is kept free for it). File, line and endLine are left out when unknown. */
int ut_report_github(ut_buf *out, const ut_findings *fs);

typedef struct {
	const char *title; /* the heading; NULL: "untangle check" */
	size_t max_rows;   /* findings listed in the table; 0: 100 */
	size_t max_nodes;  /* tests drawn in the Mermaid picture; 0: 40 */
} ut_report_markdown_opts;

/* A Markdown summary (for $GITHUB_STEP_SUMMARY, a pull-request comment or a check run):
 * a heading, the counts, a table of the findings, a Mermaid flowchart of the affected
 * part of the graph (every finding's test and its edges to the related tests; capped at
 * max_nodes tests, saying how many were left out) and each finding's message. Table cells
 * and Mermaid labels are escaped so that names cannot break out of them. opts may be NULL. */
int ut_report_markdown(ut_buf *out, const ut_findings *fs, const ut_report_markdown_opts *opts);

/* SARIF 2.1.0: one run of the tool "untangle" with one rule per finding kind; each result
 * has ruleId, ruleIndex, level (error, warning, note), message, the test's location
 * (artifactLocation uri relative to %SRCROOT%, region startLine/endLine), the related
 * tests as relatedLocations, a partial fingerprint and the evidence as properties. */
int ut_report_sarif(ut_buf *out, const ut_findings *fs);

/* GitLab Code Quality: a JSON array of issues with description, check_name, fingerprint
 * (ut_finding_fingerprint), severity (error: major, warning: minor, notice: info) and
 * location.path / location.lines.begin. A finding without a file is placed on
 * "untangle.json", line 1, since GitLab requires a path. */
int ut_report_gitlab(ut_buf *out, const ut_findings *fs);

/* The plain JSON form, which is also what ut_report_json_read reads:
 *   { "version": 1, "summary": { "errors": 1, "warnings": 0, "notices": 0 },
 *     "findings": [ { "kind": "removed-prerequisite", "severity": "error",
 *                     "test": "t.py::test_login", "file": "t.py", "line": 3, "end_line": 9,
 *                     "title": "...", "message": "...", "fingerprint": "...",
 *                     "related": [ { "id": "t.py::test_add", "file": null, "line": 0 } ],
 *                     "evidence": [ 12, 13 ] } ] } */
int ut_report_json(ut_buf *out, const ut_findings *fs);

/* Adds the findings of a document in the plain JSON form to fs (then sort it). `path`
 * names the document in messages. UT_EINPUT with "PATH: ..." for a malformed document. */
int ut_report_json_read(ut_findings *fs, const char *text, size_t len, const char *path);

/* Whether an edge is drawn, and its dot attributes (written into attrs, "" for none). */
typedef bool (*ut_report_edge_style)(const ut_edge *e, void *ctx, char *attrs, size_t size);

/* A graph as Graphviz dot ("digraph NAME", right to left, a box per test labelled with its
 * name through ut_esc_dot, a flaky test dashed) with the edges style draws. Streams through
 * out's sink when it has one. 0 or UT_ENOMEM. */
int ut_report_dot(ut_buf *out, const ut_graph *g, const char *name, ut_report_edge_style style,
		  void *ctx);
/* The same as a Mermaid flowchart (labels through ut_esc_mermaid, uncut): the edges shown
 * accepts, a manifest one solid (-->), another dashed (-.->). */
int ut_report_mermaid(ut_buf *out, const ut_graph *g, bool (*shown)(const ut_edge *e, void *ctx),
		      void *ctx);

#endif
