/* query.h: the part of tree-sitter's query language that grammars/queries use
 * (node patterns, fields, anonymous nodes, wildcards, captures), compiled once per
 * language and matched in one pass over a flat copy of a syntax tree.
 *
 * Matching gives what tree-sitter's query cursor gives: a node gets the roles of every
 * capture of every match, over all the ways a pattern's children can be matched in
 * order. It takes time linear in the nodes (a cursor holds every unfinished match: a
 * list of 2,000 elements holds 2,000 and it had to be capped) and needs no sorting,
 * because the flat tree is already in source order. Kept apart from tree-sitter: the
 * adapter (treesitter.c) resolves names and fills the nodes. */
#ifndef UT_QUERY_H
#define UT_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One node of the concrete syntax tree. A tree is an array of them in pre-order: a
 * node's first child follows it, its next sibling follows its subtree. */
typedef struct {
	uint64_t roles;  /* set by up_query_match: UT_ROLE bits of syntax.h */
	uint32_t start, end; /* byte range */
	uint32_t size;   /* nodes in the subtree, this one included */
	uint16_t symbol; /* the grammar's public symbol; 0xffff for ERROR */
	uint16_t field;  /* the field it has in its parent, 0 for none */
	bool named;
	bool missing;    /* inserted by error recovery, empty */
} ut_qnode;

/* What the compiler needs from the grammar: ids for names, 0 when unknown. */
typedef struct {
	const void *ctx;
	uint16_t (*symbol)(const void *ctx, const char *name, size_t len, bool named);
	uint16_t (*field)(const void *ctx, const char *name, size_t len);
} ut_query_grammar;

typedef struct ut_query ut_query;

/* Compiles query text for a grammar. Errors (UT_ERROR, with the message set) name
 * grammars/queries/<name>.scm and the line. *out belongs to the caller. */
int up_query_new(ut_query **out, const char *src, size_t len, const ut_query_grammar *g,
		 const char *name);
void up_query_free(ut_query *q);

/* What the flat tree must hold for the matches to be complete: the field of the children
 * of a node of symbol `parent`, and anonymous leaves (punctuation, operators) of
 * `symbol`. Leaving out what is not needed only saves time. */
bool up_query_needs_fields(const ut_query *q, uint16_t parent);
bool up_query_needs_token(const ut_query *q, uint16_t symbol);

/* ORs into nodes[i].roles the roles every match captures in the tree of n nodes. */
void up_query_match(const ut_query *q, ut_qnode *nodes, size_t n);

#endif
