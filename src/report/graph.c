/* graph.c: a graph as Graphviz dot or Mermaid (untangle graph, untangle candidates --dot);
 * labels through util/esc's one escaper per format. */
#include "report/report.h"

#include "util/error.h"
#include "util/esc.h"
#include "util/banned.h"

int ut_report_dot(ut_buf *out, const ut_graph *g, const char *name, ut_report_edge_style style,
		  void *ctx)
{
	char attrs[128];

	ut_buf_printf(out, "digraph %s {\n  rankdir=RL;\n  node [shape=box];\n", name);
	for (size_t i = 0; i < g->ntests; i++) {
		ut_buf_printf(out, "  t%zu [label=\"", i);
		ut_esc_dot(out, g->tests[i].name);
		ut_buf_printf(out, "\"%s];\n", g->tests[i].flaky ? ", style=dashed" : "");
		ut_buf_drain(out);
	}
	for (size_t i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		attrs[0] = '\0';
		if (style(e, ctx, attrs, sizeof(attrs)))
			ut_buf_printf(out, "  t%u -> t%u%s%s%s;\n", e->dependent, e->dependee,
				      *attrs ? " [" : "", attrs, *attrs ? "]" : "");
		ut_buf_drain(out);
	}
	ut_buf_puts(out, "}\n");
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

int ut_report_mermaid(ut_buf *out, const ut_graph *g, bool (*shown)(const ut_edge *e, void *ctx),
		      void *ctx)
{
	ut_buf_puts(out, "graph RL\n");
	for (size_t i = 0; i < g->ntests; i++) {
		ut_buf_printf(out, "  t%zu[\"", i);
		ut_esc_mermaid(out, g->tests[i].name, 0);
		ut_buf_puts(out, "\"]\n");
		ut_buf_drain(out);
	}
	for (size_t i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (shown(e, ctx))
			ut_buf_printf(out, "  t%u %s t%u\n", e->dependent,
				      e->status == UT_EDGE_MANIFEST ? "-->" : "-.->", e->dependee);
		ut_buf_drain(out);
	}
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
