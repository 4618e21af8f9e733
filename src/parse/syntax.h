/* syntax.h: the role tree, our language-neutral view of a parsed source file.
 *
 * The tree-sitter adapter runs grammars/queries/<language>.scm over the concrete syntax
 * tree; every captured node becomes a ut_syn whose `roles` are the capture names it got
 * (a node captured as both @arg and @str has both bits). Nodes nest by source range, so
 * everything the analysis needs is in roles and nesting; uncaptured nodes vanish. */
#ifndef UT_SYNTAX_H
#define UT_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/lang.h"
#include "util/diag.h"

typedef enum {
	UT_R_STR,           /* a string literal (incl. f-strings, template literals) */
	UT_R_STR_TEXT,      /* a literal fragment inside it */
	UT_R_STR_ESC,       /* an escape sequence inside it */
	UT_R_STR_INTERP,    /* an interpolated expression inside it */
	UT_R_CONCAT,        /* concatenation; its parts have UT_R_CONCAT_PART */
	UT_R_CONCAT_PART,
	UT_R_IDENT,         /* an identifier */
	UT_R_MEMBER,        /* a.b; children UT_R_MEMBER_OBJ and UT_R_MEMBER_PROP */
	UT_R_MEMBER_OBJ,
	UT_R_MEMBER_PROP,
	UT_R_NUM,           /* an integer literal */
	UT_R_PAREN,         /* parenthesised expression */
	UT_R_SEQ,           /* tuple, list, array literal; elements have UT_R_ELEM */
	UT_R_ELEM,
	UT_R_CALL,          /* a call (or `new`); UT_R_CALL_NAME, UT_R_CALL_RECV, UT_R_CALL_ARGS */
	UT_R_CALL_NAME,
	UT_R_CALL_RECV,
	UT_R_CALL_ARGS,
	UT_R_NEW,
	UT_R_ARG,           /* one argument inside UT_R_CALL_ARGS or UT_R_DECO_ARGS */
	UT_R_ARG_KW,        /* name=value argument: UT_R_ARG_KW_NAME, UT_R_ARG_KW_VALUE */
	UT_R_ARG_KW_NAME,
	UT_R_ARG_KW_VALUE,
	UT_R_FUNC,          /* function, method, lambda: UT_R_FUNC_NAME, _PARAMS, _BODY */
	UT_R_FUNC_NAME,
	UT_R_FUNC_PARAMS,
	UT_R_PARAM,         /* a parameter's name */
	UT_R_FUNC_BODY,
	UT_R_CLASS,         /* class: UT_R_CLASS_NAME, UT_R_CLASS_SUPER */
	UT_R_CLASS_NAME,
	UT_R_CLASS_SUPER,
	UT_R_DECO,          /* annotation or decorator: UT_R_DECO_NAME, UT_R_DECO_ARGS */
	UT_R_DECO_NAME,
	UT_R_DECO_ARGS,
	UT_R_ASSIGN,        /* binding: UT_R_ASSIGN_TARGET, UT_R_ASSIGN_VALUE */
	UT_R_ASSIGN_TARGET,
	UT_R_ASSIGN_VALUE,
	UT_R_ASSERT,        /* an assert statement */
	UT_R_IMPORT,
	UT_R_PACKAGE,
	UT_R_CLASSREF,      /* Foo.class */
	UT_R_RET,           /* the expression a function returns (or yields) */
	UT_R_DECL,          /* a typed declaration (field, local, parameter): UT_R_TYPE,
			       UT_R_DECL_NAME and its annotations */
	UT_R_DECL_NAME,
	UT_R_TYPE,          /* the declared type */
	UT_R_IF,            /* if statement: UT_R_IF_COND, UT_R_IF_THEN, UT_R_IF_ELSE */
	UT_R_IF_COND,
	UT_R_IF_THEN,
	UT_R_IF_ELSE,
	UT_R_LOOP,          /* for (x of list): UT_R_LOOP_VAR, UT_R_LOOP_ITER, UT_R_LOOP_BODY */
	UT_R_LOOP_VAR,
	UT_R_LOOP_ITER,
	UT_R_LOOP_BODY,
	UT_R_EQ,            /* a == b, a === b: its two operands are its children */
	UT_R_NE,            /* a != b, a !== b */
	UT_R_NOT,           /* !a */
	UT_R_TRUE,          /* a literal that is always true (true) */
	UT_R_FALSE,         /* a literal that is always false (false, null, undefined) */
	UT_R__COUNT
} ut_role;

_Static_assert(UT_R__COUNT <= 64, "a node's roles are the bits of a uint64_t");
#define UT_ROLE(r) ((uint64_t)1 << (r))

/* The nodes of a tree are one array in pre-order (source order): a node's first child
 * follows it, its next sibling follows its subtree. 24 bytes a node: a test of 30
 * statements has about 575. */
typedef struct ut_syn ut_syn;
struct ut_syn {
	uint64_t roles;
	uint32_t start, end; /* byte range in the source */
	uint32_t size;       /* nodes in the subtree, this one included */
	uint32_t up;         /* how many nodes back the parent is; 0 for the root */
};

typedef struct {
	ut_lang lang;
	const char *path;  /* borrowed */
	const char *src;   /* borrowed; must outlive the tree */
	size_t len;
	ut_syn *root;      /* the array; the root covers the whole file and has no roles */
	size_t nnodes;     /* nodes below the root */
	uint32_t *lines;   /* byte offset where each line starts: lines[0] = 0 */
	size_t nlines;
	bool has_error;    /* the grammar reported a syntax error */
	unsigned error_line;
} ut_syn_tree;

typedef struct ut_ts ut_ts;

/* A parser with the compiled queries of every language. One per thread. */
int up_ts_new(ut_ts **out);
void up_ts_free(ut_ts *ts);

/* Parses src as lang into a role tree. Problems with the input (syntax errors, invalid
 * UTF-8) are added to diags as warnings naming path and line; the tree is still built
 * from what could be parsed. Returns UT_EINPUT only when nothing could be parsed
 * (parser time limit), UT_ENOMEM on allocation failure. *out belongs to the caller. */
int up_ts_parse(ut_ts *ts, ut_syn_tree **out, ut_lang lang, const char *path, const char *src,
		size_t len, ut_diags *diags);
void up_syn_tree_free(ut_syn_tree *t);
/* True when up_ts_parse forks a child (a trial parse) for a source of len bytes. */
bool up_ts_forks(size_t len);

static inline bool up_syn_is(const ut_syn *n, ut_role r)
{
	return n && (n->roles & UT_ROLE(r)) != 0;
}

/* First child, next sibling, parent; NULL when there is none. */
static inline const ut_syn *up_syn_first(const ut_syn *n)
{
	return n->size > 1 ? n + 1 : NULL;
}

static inline const ut_syn *up_syn_parent(const ut_syn *n)
{
	return n->up ? n - n->up : NULL;
}

static inline const ut_syn *up_syn_next(const ut_syn *n)
{
	const ut_syn *p = up_syn_parent(n);

	return p && n + n->size < p + p->size ? n + n->size : NULL;
}

/* First child with role r, or NULL. */
const ut_syn *up_syn_child(const ut_syn *n, ut_role r);
/* First descendant with role r (depth first, in source order), not looking inside
 * nodes that have any role of `stop` (a bit mask); NULL when none. */
const ut_syn *up_syn_find(const ut_syn *n, ut_role r, uint64_t stop);
/* The node's source text; not NUL-terminated. */
static inline const char *up_syn_text(const ut_syn_tree *t, const ut_syn *n, size_t *len)
{
	*len = n->end - n->start;
	return t->src + n->start;
}
/* The 1-based line of a byte offset of the source. */
unsigned up_syn_line_at(const ut_syn_tree *t, uint32_t offset);
/* The line the node starts on and the line it ends on. */
static inline unsigned up_syn_line(const ut_syn_tree *t, const ut_syn *n)
{
	return up_syn_line_at(t, n->start);
}

static inline unsigned up_syn_end_line(const ut_syn_tree *t, const ut_syn *n)
{
	return up_syn_line_at(t, n->end);
}

#endif
