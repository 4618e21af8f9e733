/* markdown.c: findings as a Markdown summary with a Mermaid picture of the affected graph. */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "util/error.h"
#include "util/esc.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "util/banned.h"

/* Mermaid labels are cut here (bytes, at a character boundary), so that a long name does
 * not stretch the picture. */
#define LABEL_MAX 60

#define REMOVED 3

typedef struct {
	ut_map index; /* test id -> node number + 1 */
	const char **ids;
	unsigned char *cls; /* severity of the worst finding on it, or REMOVED */
	size_t n, max, left;
} nodes;

/* The node number of id, adding it while there is room; -1 when it was left out. */
static long node(nodes *ns, const char *id, unsigned char cls)
{
	void *v = NULL;

	if (ut_map_find(&ns->index, id, strlen(id), &v)) {
		size_t k = (size_t)(uintptr_t)v - 1;

		/* a removed test stays drawn as removed, whatever else points at it */
		if (cls == REMOVED || (ns->cls[k] != REMOVED && cls < ns->cls[k]))
			ns->cls[k] = cls;
		return (long)k;
	}
	if (ns->n == ns->max ||
	    ut_map_put(&ns->index, id, strlen(id), (void *)(uintptr_t)(ns->n + 1))) {
		/* counted once, as the map remembers it with no node */
		ut_map_put(&ns->index, id, strlen(id), NULL);
		ns->left++;
		return -1;
	}
	ns->ids[ns->n] = id;
	ns->cls[ns->n] = cls;
	return (long)ns->n++;
}

static const char *const arrows[UT_FINDING_NKINDS] = {"-->|broken|", "-.->|removed|",
						      "-->|runs later|", "-->|new|"};

static int mermaid(ut_buf *out, const ut_findings *fs, size_t max)
{
	nodes ns;
	ut_buf edges = UT_BUF_INIT;
	size_t i, j;
	int rc = 0;

	memset(&ns, 0, sizeof(ns));
	ns.max = max;
	ns.ids = calloc(max, sizeof(*ns.ids));
	ns.cls = calloc(max, 1);
	if (!ns.ids || !ns.cls) {
		rc = ut_error_set(UT_ENOMEM, "out of memory drawing the graph");
		goto done;
	}
	for (i = 0; i < fs->v.n; i++) {
		const ut_finding *f = &fs->v.v[i];
		long a = ut_finding_is_root(f) ? node(&ns, f->test, REMOVED)
					       : node(&ns, f->test, (unsigned char)f->severity), b;

		for (j = 0; j < f->nrelated; j++) {
			b = node(&ns, f->related[j].id,
				 f->kind == UT_FINDING_REMOVED ? REMOVED : UT_SEVERITY_NOTICE);
			if (a >= 0 && b >= 0)
				ut_buf_printf(&edges, "  n%ld %s n%ld\n", a, arrows[f->kind], b);
		}
		/* a root cause: its dependents point at it */
		for (j = 0; j < f->ndependents; j++) {
			b = node(&ns, f->dependents[j].id, (unsigned char)f->severity);
			if (a >= 0 && b >= 0)
				ut_buf_printf(&edges, "  n%ld %s n%ld\n", b, arrows[f->kind], a);
		}
	}
	ut_buf_puts(out, "```mermaid\nflowchart RL\n");
	for (i = 0; i < ns.n; i++) {
		ut_buf_printf(out, "  n%zu[\"", i);
		ut_esc_mermaid(out, ns.ids[i], LABEL_MAX);
		ut_buf_puts(out, "\"]\n");
	}
	ut_buf_put(out, edges.ptr, edges.len);
	ut_buf_puts(out, "  classDef error stroke:#d73a49,stroke-width:3px\n"
			 "  classDef warning stroke:#dbab09,stroke-width:3px\n"
			 "  classDef removed stroke-dasharray:5 5,color:#6a737d\n");
	for (i = 0; i < ns.n; i++) {
		static const char *const cls[] = {"error", "warning", NULL, "removed"};

		if (cls[ns.cls[i]])
			ut_buf_printf(out, "  class n%zu %s\n", i, cls[ns.cls[i]]);
	}
	ut_buf_puts(out, "```\n");
	if (ns.left)
		ut_buf_printf(out, "\n%zu more test%s not drawn.\n", ns.left,
			      ns.left == 1 ? "" : "s");
	if (edges.failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory drawing the graph");
done:
	ut_buf_dispose(&edges);
	ut_map_dispose(&ns.index);
	free(ns.ids);
	free(ns.cls);
	return rc;
}

static void location(ut_buf *out, const ut_finding *f)
{
	if (!f->file)
		return;
	ut_esc_markdown(out, f->file);
	if (f->line)
		ut_buf_printf(out, ":%u", f->line);
}

int ut_report_markdown(ut_buf *out, const ut_findings *fs, const ut_report_markdown_opts *opts)
{
	static const char *const icons[UT_SEVERITY_N] = {
	    ":x:", ":warning:", ":information_source:"};
	size_t max_rows = opts && opts->max_rows ? opts->max_rows : 100;
	size_t max_nodes = opts && opts->max_nodes ? opts->max_nodes : 40;
	size_t i, j;
	int rc;

	ut_buf_puts(out, "## ");
	ut_esc_markdown(out, opts && opts->title ? opts->title : "untangle check");
	ut_buf_puts(out, "\n\n");
	if (!fs->v.n) {
		ut_buf_puts(out, "No dependency problems found.\n");
		return ut_report__finish(out, NULL);
	}
	ut_buf_printf(out, "%zu error%s, %zu warning%s, %zu notice%s.\n\n", fs->count[0],
		      fs->count[0] == 1 ? "" : "s", fs->count[1], fs->count[1] == 1 ? "" : "s",
		      fs->count[2], fs->count[2] == 1 ? "" : "s");
	ut_buf_puts(out, "| | Finding | Test | Location | Depends on | Details |\n"
			 "|---|---|---|---|---|---|\n");
	for (i = 0; i < fs->v.n && i < max_rows; i++) {
		const ut_finding *f = &fs->v.v[i];

		ut_buf_printf(out, "| %s | ", icons[f->severity]);
		ut_esc_markdown(out, ut_finding_title(f));
		ut_buf_puts(out, " | ");
		ut_esc_markdown(out, f->test);
		ut_buf_puts(out, " | ");
		location(out, f);
		ut_buf_puts(out, " | ");
		for (j = 0; j < f->nrelated; j++) {
			if (j)
				ut_buf_puts(out, "<br>");
			ut_esc_markdown(out, f->related[j].id);
		}
		ut_buf_puts(out, " | ");
		ut_esc_markdown(out, f->message);
		if (f->nevidence) {
			ut_buf_puts(out, "<br>runs:");
			for (j = 0; j < f->nevidence; j++)
				ut_buf_printf(out, " %ld", f->evidence[j]);
		}
		ut_buf_puts(out, " |\n");
	}
	if (fs->v.n > max_rows)
		ut_buf_printf(out, "\n%zu more finding%s not listed.\n", fs->v.n - max_rows,
			      fs->v.n - max_rows == 1 ? "" : "s");
	ut_buf_puts(out, "\n### Affected part of the dependency graph\n\n"
			 "An arrow points from a test to a test it depends on.\n\n");
	rc = mermaid(out, fs, max_nodes);
	return rc ? rc : ut_report__finish(out, NULL);
}
