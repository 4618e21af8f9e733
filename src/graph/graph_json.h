/* graph_json.h: graph.json (DESIGN.md "Files it writes"): writing and reading. */
#ifndef UT_GRAPH_JSON_H
#define UT_GRAPH_JSON_H

#include "graph/graph.h"
#include "util/buf.h"
#include "util/jsonw.h"

/* Writes the members "tests" and "edges" into an open object. */
void ut_graph_write_members(ut_jsonw *w, const ut_graph *g);
/* The whole graph.json document; 0 or UT_ENOMEM. */
int ut_graph_write_json(ut_buf *out, const ut_graph *g);
/* Reads graph.json text. UT_EINPUT with "PATH:LINE: ..." for anything malformed (unknown
 * test ids in edges, edges against the original order, wrong types, a newer version). */
int ut_graph_read_json(ut_graph **out, const char *text, size_t len, const char *path);
/* Reads the file; UT_ENOTFOUND when it does not exist. */
int ut_graph_load(ut_graph **out, const char *path);
/* Writes the file atomically. */
int ut_graph_save(const ut_graph *g, const char *path);

#endif
