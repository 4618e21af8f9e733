/* query.c: compiles our tree-sitter queries and matches them over a flat syntax tree. */
#include "parse/query.h"

#include <stdlib.h>
#include <string.h>

#include "parse/syntax.h"
#include "util/error.h"
#include "util/vec.h"
#include "util/banned.h"

/* A pattern node has at most this many child patterns, nested this deep. */
#define MAX_KIDS 8
#define MAX_NESTING 8

static const char *const role_names[UT_R__COUNT] = {
	[UT_R_STR] = "str", [UT_R_STR_TEXT] = "str.text", [UT_R_STR_ESC] = "str.esc",
	[UT_R_STR_INTERP] = "str.interp", [UT_R_CONCAT] = "concat",
	[UT_R_CONCAT_PART] = "concat.part", [UT_R_IDENT] = "ident", [UT_R_MEMBER] = "member",
	[UT_R_MEMBER_OBJ] = "member.obj", [UT_R_MEMBER_PROP] = "member.prop", [UT_R_NUM] = "num",
	[UT_R_PAREN] = "paren", [UT_R_SEQ] = "seq", [UT_R_ELEM] = "elem", [UT_R_CALL] = "call",
	[UT_R_CALL_NAME] = "call.name", [UT_R_CALL_RECV] = "call.recv",
	[UT_R_CALL_ARGS] = "call.args", [UT_R_NEW] = "new", [UT_R_ARG] = "arg",
	[UT_R_ARG_KW] = "arg.kw", [UT_R_ARG_KW_NAME] = "arg.kw.name",
	[UT_R_ARG_KW_VALUE] = "arg.kw.value", [UT_R_FUNC] = "func",
	[UT_R_FUNC_NAME] = "func.name", [UT_R_FUNC_PARAMS] = "func.params",
	[UT_R_PARAM] = "param", [UT_R_FUNC_BODY] = "func.body", [UT_R_CLASS] = "class",
	[UT_R_CLASS_NAME] = "class.name", [UT_R_CLASS_SUPER] = "class.super",
	[UT_R_DECO] = "deco", [UT_R_DECO_NAME] = "deco.name", [UT_R_DECO_ARGS] = "deco.args",
	[UT_R_ASSIGN] = "assign", [UT_R_ASSIGN_TARGET] = "assign.target",
	[UT_R_ASSIGN_VALUE] = "assign.value", [UT_R_ASSERT] = "assert",
	[UT_R_IMPORT] = "import", [UT_R_PACKAGE] = "package", [UT_R_CLASSREF] = "classref",
	[UT_R_RET] = "ret", [UT_R_DECL] = "decl", [UT_R_DECL_NAME] = "decl.name",
	[UT_R_TYPE] = "type",
	[UT_R_IF] = "if", [UT_R_IF_COND] = "if.cond", [UT_R_IF_THEN] = "if.then",
	[UT_R_IF_ELSE] = "if.else", [UT_R_LOOP] = "loop", [UT_R_LOOP_VAR] = "loop.var",
	[UT_R_LOOP_ITER] = "loop.iter", [UT_R_LOOP_BODY] = "loop.body", [UT_R_EQ] = "eq",
	[UT_R_NE] = "ne", [UT_R_NOT] = "not", [UT_R_TRUE] = "true", [UT_R_FALSE] = "false",
};

typedef enum {
	STEP_TYPE,      /* (identifier): a named node of that type */
	STEP_ANON,      /* "+": an anonymous node of that type */
	STEP_ANY_NAMED, /* (_): any named node but ERROR */
	STEP_ANY        /* _: any node but ERROR */
} step_kind;

/* One node of a pattern. */
typedef struct {
	uint64_t roles;    /* its captures */
	uint16_t symbol;
	uint16_t field;    /* required field in the parent, 0 for none */
	uint8_t kind;
	uint8_t nkids;
	uint32_t kids;     /* its child patterns: q->kids[kids .. kids + nkids) */
} step;

struct ut_query {
	UT_VEC(step) steps;
	UT_VEC(uint32_t) kids;  /* step indices, each pattern node's children together */
	UT_VEC(uint32_t) tops;  /* the patterns: their root steps */
	uint32_t *by_symbol;    /* roots of symbol s: roots[by_symbol[s] .. by_symbol[s + 1]) */
	uint32_t *roots;
	uint32_t nsymbols;      /* symbols below this have an entry in by_symbol */
	uint8_t field_parents[8192]; /* bit set of up_query_needs_fields, by symbol */
	uint8_t tokens[8192];        /* bit set of up_query_needs_token */
};

static void set_bit(uint8_t *set, uint16_t i)
{
	set[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static bool bit(const uint8_t *set, uint16_t i)
{
	return set[i >> 3] & (1u << (i & 7));
}

#define ERROR_SYMBOL 0xffff

typedef struct {
	const char *src, *end, *p;
	const ut_query_grammar *g;
	const char *name;
	ut_query *q;
} compiler;

static int fail(const compiler *c, const char *what, const char *at, size_t len)
{
	unsigned line = 1;
	const char *s;

	for (s = c->src; s < c->p && s < c->end; s++)
		line += *s == '\n';
	if (at)
		return ut_error_set(UT_ERROR, "grammars/queries/%s.scm:%u: %s '%.*s'", c->name,
				    line, what, (int)len, at);
	return ut_error_set(UT_ERROR, "grammars/queries/%s.scm:%u: %s", c->name, line, what);
}

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.';
}

/* Skips blanks and ; comments. */
static void skip(compiler *c)
{
	while (c->p < c->end) {
		if (*c->p == ';') {
			while (c->p < c->end && *c->p != '\n')
				c->p++;
		} else if (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r') {
			c->p++;
		} else {
			break;
		}
	}
}

static size_t name_len(const compiler *c)
{
	size_t n = 0;

	while (c->p + n < c->end && name_char(c->p[n]))
		n++;
	return n;
}

/* @name @name ...: the roles of the captures that follow a pattern node. */
static int captures(compiler *c, uint64_t *roles)
{
	for (;;) {
		const char *name;
		size_t len;
		int r;

		skip(c);
		if (c->p >= c->end || *c->p != '@')
			return 0;
		c->p++;
		name = c->p;
		len = name_len(c);
		c->p += len;
		for (r = 0; r < UT_R__COUNT; r++)
			if (strlen(role_names[r]) == len && memcmp(role_names[r], name, len) == 0)
				break;
		if (r == UT_R__COUNT)
			return fail(c, "unknown capture", name - 1, len + 1);
		*roles |= UT_ROLE(r);
	}
}

static int pattern(compiler *c, uint16_t field, int depth, uint32_t *out);

/* "name": an anonymous node, after its opening quote. */
static int anon_step(compiler *c, step *s)
{
	const char *lit = ++c->p;

	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\')
			return fail(c, "escapes in node names are not supported", NULL, 0);
		c->p++;
	}
	if (c->p >= c->end)
		return fail(c, "unterminated string", NULL, 0);
	s->kind = STEP_ANON;
	s->symbol = c->g->symbol(c->g->ctx, lit, (size_t)(c->p - lit), false);
	if (!s->symbol)
		return fail(c, "unknown node type", lit - 1, (size_t)(c->p - lit) + 2);
	c->p++;
	return 0;
}

/* (type field: (child) ...): a named node and its child patterns (their step indexes in
 * kids, s->nkids of them), after its opening parenthesis. */
static int node_step(compiler *c, step *s, int depth, uint32_t *kids)
{
	const char *type;
	size_t len;
	int rc;

	c->p++;
	skip(c);
	type = c->p;
	len = name_len(c);
	c->p += len;
	if (len == 1 && *type == '_') {
		s->kind = STEP_ANY_NAMED;
	} else if (len) {
		s->kind = STEP_TYPE;
		s->symbol = c->g->symbol(c->g->ctx, type, len, true);
		if (!s->symbol)
			return fail(c, "unknown node type", type, len);
	} else {
		return fail(c, "syntax error: a node type must follow '('", NULL, 0);
	}
	for (;;) {
		uint16_t kid_field = 0;
		size_t n;

		skip(c);
		if (c->p >= c->end)
			return fail(c, "syntax error: missing ')'", NULL, 0);
		if (*c->p == ')') {
			c->p++;
			return 0;
		}
		n = name_len(c);
		if (n && c->p + n < c->end && c->p[n] == ':') {
			kid_field = c->g->field(c->g->ctx, c->p, n);
			if (!kid_field)
				return fail(c, "unknown field", c->p, n);
			c->p += n + 1;
		}
		if (s->nkids == MAX_KIDS)
			return fail(c, "too many child patterns", NULL, 0);
		rc = pattern(c, kid_field, depth + 1, &kids[s->nkids]);
		if (rc < 0)
			return rc;
		s->nkids++;
	}
}

/* One pattern node with its children and captures; *out gets its step index. */
static int pattern(compiler *c, uint16_t field, int depth, uint32_t *out)
{
	step s;
	uint32_t kids[MAX_KIDS];
	size_t i;
	int rc;

	memset(&s, 0, sizeof(s));
	s.field = field;
	skip(c);
	if (depth > MAX_NESTING)
		return fail(c, "patterns nest too deeply", NULL, 0);
	if (c->p < c->end && *c->p == '"') {
		rc = anon_step(c, &s);
	} else if (c->p < c->end && *c->p == '_' && name_len(c) == 1) {
		s.kind = STEP_ANY;
		c->p++;
		rc = 0;
	} else if (c->p < c->end && *c->p == '(') {
		rc = node_step(c, &s, depth, kids);
	} else {
		/* predicates, quantifiers, alternations, anchors: not used, not supported */
		return fail(c, "unsupported query syntax", c->p, c->p < c->end ? 1 : 0);
	}
	if (rc == 0)
		rc = captures(c, &s.roles);
	if (rc < 0)
		return rc;
	s.kids = (uint32_t)c->q->kids.n;
	for (i = 0; i < s.nkids; i++)
		if (ut_vec_push(&c->q->kids, kids[i]) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	*out = (uint32_t)c->q->steps.n;
	return ut_vec_push(&c->q->steps, s) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* Indexes the patterns by the symbol of their root; notes which parents' children are
 * matched by field and which anonymous nodes patterns name. */
static int index_roots(ut_query *q)
{
	size_t i, k;

	for (i = 0; i < q->steps.n; i++) {
		const step *s = &q->steps.v[i];

		if (s->kind == STEP_ANON)
			set_bit(q->tokens, s->symbol);
		if (s->kind == STEP_ANY) /* `_` takes any node: keep them all */
			memset(q->tokens, 0xff, sizeof(q->tokens));
		for (k = 0; k < s->nkids; k++) {
			if (!q->steps.v[q->kids.v[s->kids + k]].field)
				continue;
			if (s->kind == STEP_TYPE || s->kind == STEP_ANON)
				set_bit(q->field_parents, s->symbol);
			else
				memset(q->field_parents, 0xff, sizeof(q->field_parents));
		}
	}

	q->nsymbols = 0;
	for (i = 0; i < q->tops.n; i++)
		if (q->steps.v[q->tops.v[i]].symbol >= q->nsymbols)
			q->nsymbols = q->steps.v[q->tops.v[i]].symbol + 1u;
	q->by_symbol = calloc(q->nsymbols + 1, sizeof(*q->by_symbol));
	q->roots = calloc(q->tops.n + 1, sizeof(*q->roots));
	if (!q->by_symbol || !q->roots)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < q->tops.n; i++)
		q->by_symbol[q->steps.v[q->tops.v[i]].symbol + 1]++;
	for (i = 0; i < q->nsymbols; i++)
		q->by_symbol[i + 1] += q->by_symbol[i];
	/* place in pattern order, counting up from each symbol's start */
	for (i = 0; i < q->tops.n; i++) {
		uint16_t sym = q->steps.v[q->tops.v[i]].symbol;
		size_t at = q->by_symbol[sym];

		while (q->roots[at])
			at++;
		q->roots[at] = q->tops.v[i] + 1; /* +1: 0 marks a free slot */
	}
	for (i = 0; i < q->tops.n; i++)
		q->roots[i]--;
	return 0;
}

int up_query_new(ut_query **out, const char *src, size_t len, const ut_query_grammar *g,
		 const char *name)
{
	ut_query *q = calloc(1, sizeof(*q));
	compiler c;
	int rc = 0;

	*out = NULL;
	if (!q)
		return ut_error_set(UT_ENOMEM, "out of memory");
	c.src = c.p = src;
	c.end = src + len;
	c.g = g;
	c.name = name;
	c.q = q;
	for (;;) {
		uint32_t top = 0;

		skip(&c);
		if (c.p >= c.end)
			break;
		if (*c.p != '(') {
			rc = fail(&c, "unsupported query syntax", c.p, 1);
			goto done;
		}
		rc = pattern(&c, 0, 0, &top);
		if (rc < 0)
			goto done;
		if (q->steps.v[top].kind != STEP_TYPE) {
			rc = fail(&c, "a pattern must start with a node type", NULL, 0);
			goto done;
		}
		if (ut_vec_push(&q->tops, top) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	rc = index_roots(q);
done:
	if (rc < 0)
		up_query_free(q);
	else
		*out = q;
	return rc;
}

void up_query_free(ut_query *q)
{
	if (!q)
		return;
	ut_vec_free(&q->steps);
	ut_vec_free(&q->kids);
	ut_vec_free(&q->tops);
	free(q->by_symbol);
	free(q->roots);
	free(q);
}

bool up_query_needs_fields(const ut_query *q, uint16_t parent)
{
	return bit(q->field_parents, parent);
}

bool up_query_needs_token(const ut_query *q, uint16_t symbol)
{
	return bit(q->tokens, symbol);
}

static bool match(const ut_query *q, ut_qnode *nodes, uint32_t i, const step *s, bool apply);

/* The next sibling of child j of parent p, or p's end. */
static inline uint32_t next_kid(const ut_qnode *nodes, uint32_t j)
{
	return j + nodes[j].size;
}

/* Matches s's child patterns in order against i's children. `first[k]` gets the earliest
 * child that kid k can take when kids 0..k-1 take the earliest possible ones. */
static bool arrange(const ut_query *q, ut_qnode *nodes, uint32_t i, const step *s,
		    uint32_t *first)
{
	uint32_t end = next_kid(nodes, i), j = i + 1;
	unsigned k;

	for (k = 0; k < s->nkids; k++) {
		const step *kid = &q->steps.v[q->kids.v[s->kids + k]];

		while (j < end && !match(q, nodes, j, kid, false))
			j = next_kid(nodes, j);
		if (j >= end)
			return false;
		first[k] = j;
		j = next_kid(nodes, j);
	}
	return true;
}

/* Does pattern node s match node i? With apply, also records the roles of every
 * capture of every way it matches. */
static bool match(const ut_query *q, ut_qnode *nodes, uint32_t i, const step *s, bool apply)
{
	const ut_qnode *n = &nodes[i];
	uint32_t first[MAX_KIDS], last[MAX_KIDS], end;
	unsigned k;

	if (s->field && n->field != s->field)
		return false;
	if (s->kind == STEP_TYPE || s->kind == STEP_ANON) {
		if (n->symbol != s->symbol)
			return false;
	} else if (n->symbol == ERROR_SYMBOL || (s->kind == STEP_ANY_NAMED && !n->named)) {
		return false;
	}
	if (s->nkids == 1 && apply) {
		/* one child pattern: every child it fits is a match of its own */
		const step *kid = &q->steps.v[q->kids.v[s->kids]];
		uint32_t j;
		bool any = false;

		end = next_kid(nodes, i);
		for (j = i + 1; j < end; j = next_kid(nodes, j))
			any |= match(q, nodes, j, kid, true);
		if (any)
			nodes[i].roles |= s->roles;
		return any;
	}
	if (s->nkids && !arrange(q, nodes, i, s, first))
		return false;
	if (!apply)
		return true;
	nodes[i].roles |= s->roles;
	if (!s->nkids)
		return true;
	/* last[k]: the latest child kid k can take with kids k+1.. after it */
	end = next_kid(nodes, i);
	for (k = s->nkids; k-- > 0;) {
		const step *kid = &q->steps.v[q->kids.v[s->kids + k]];
		uint32_t limit = k + 1 < s->nkids ? last[k + 1] : end, j;

		last[k] = first[k];
		for (j = next_kid(nodes, first[k]); j < limit; j = next_kid(nodes, j))
			if (match(q, nodes, j, kid, false))
				last[k] = j;
	}
	/* every child between the earliest end of the kids before and the latest start of
	 * the kids after can take kid k in some match */
	for (k = 0; k < s->nkids; k++) {
		const step *kid = &q->steps.v[q->kids.v[s->kids + k]];
		uint32_t j;

		for (j = first[k]; j <= last[k]; j = next_kid(nodes, j))
			match(q, nodes, j, kid, true);
	}
	return true;
}

void up_query_match(const ut_query *q, ut_qnode *nodes, size_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint16_t sym = nodes[i].symbol;
		uint32_t r;

		if (sym >= q->nsymbols)
			continue;
		for (r = q->by_symbol[sym]; r < q->by_symbol[sym + 1]; r++)
			match(q, nodes, i, &q->steps.v[q->roots[r]], true);
	}
}
