/* graph_json.h: graph.json (DESIGN.md "Files it writes"): writing and reading. */
#ifndef UT_GRAPH_JSON_H
#define UT_GRAPH_JSON_H

#include "graph/graph.h"
#include "util/buf.h"
#include "util/jsonw.h"

/* Writes the members "tests" and "edges" (every edge, filtered and refuted ones too: what
 * `candidates --json` shows) into an open object. */
void ut_graph_write_members(ut_jsonw *w, const ut_graph *g);
/* Whether graph.json keeps an edge: what was proven (manifest, declared) and what could not
 * be validated (an unfiltered candidate of a flaky or failing test). Filtered candidates and
 * refuted edges are not kept: the file grows with what was learned, not with the square of
 * the suite; each test's "passed_in" run (ut_graph_test.pass_run) and the journal hold the
 * evidence against them. */
bool ut_graph_edge_stored(const ut_edge *e);
/* The whole graph.json document (the edges ut_graph_edge_stored keeps), indented;
 * 0 or UT_ENOMEM. */
int ut_graph_write_json(ut_buf *out, const ut_graph *g);
/* The same without indentation: the git note's text. */
int ut_graph_write_note(ut_buf *out, const ut_graph *g);
/* Reads graph.json text. UT_EINPUT with "PATH:LINE: ..." for anything malformed (unknown
 * test ids in edges, edges against the original order, wrong types, a newer version). */
int ut_graph_read_json(ut_graph **out, const char *text, size_t len, const char *path);

#endif
