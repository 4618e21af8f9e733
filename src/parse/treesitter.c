/* treesitter.c: the tree-sitter adapter. Parses a file and turns the captures of our
 * queries (grammars/queries/<language>.scm) into the role tree of syntax.h. This is the
 * only file that includes tree-sitter's header. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include "parse/syntax.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/vec.h"
#include "util/banned.h"

const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);

extern const char ut_query_java[], ut_query_python[], ut_query_javascript[],
	ut_query_typescript[];
extern const size_t ut_query_java_len, ut_query_python_len, ut_query_javascript_len,
	ut_query_typescript_len;

/* A parse that takes longer than this is given up (pathological input). */
#define UT_PARSE_TIMEOUT_US (20 * 1000 * 1000)
/* In-progress query matches kept at once. Without a bound, tree-sitter's query cursor
 * slows down quadratically with nesting depth (100,000 nested brackets ran for hours);
 * ordinary sources never come near it. */
#define UT_QUERY_MATCH_LIMIT 1024

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
};

typedef struct {
	TSQuery *query;
	uint64_t *capture_roles; /* capture id -> role bits */
} lang_query;

struct ut_ts {
	TSParser *parser;
	TSQueryCursor *cursor;
	lang_query q[UT_LANG__COUNT];
};

typedef struct {
	uint32_t start, end, seq;
	const void *id;
	uint64_t roles;
} capture;

static const TSLanguage *grammar(ut_lang lang)
{
	switch (lang) {
	case UT_LANG_JAVA: return tree_sitter_java();
	case UT_LANG_PYTHON: return tree_sitter_python();
	case UT_LANG_JAVASCRIPT: return tree_sitter_javascript();
	case UT_LANG_TYPESCRIPT: return tree_sitter_typescript();
	case UT_LANG_TSX: return tree_sitter_tsx();
	default: return NULL;
	}
}

static const char *query_source(ut_lang lang, size_t *len)
{
	switch (lang) {
	case UT_LANG_JAVA: *len = ut_query_java_len; return ut_query_java;
	case UT_LANG_PYTHON: *len = ut_query_python_len; return ut_query_python;
	case UT_LANG_JAVASCRIPT: *len = ut_query_javascript_len; return ut_query_javascript;
	/* TSX shares the TypeScript query: its node types are a superset */
	case UT_LANG_TYPESCRIPT:
	case UT_LANG_TSX: *len = ut_query_typescript_len; return ut_query_typescript;
	default: *len = 0; return NULL;
	}
}

static const char *query_error_name(TSQueryError e)
{
	switch (e) {
	case TSQueryErrorSyntax: return "syntax error";
	case TSQueryErrorNodeType: return "unknown node type";
	case TSQueryErrorField: return "unknown field";
	case TSQueryErrorCapture: return "unknown capture";
	case TSQueryErrorStructure: return "impossible pattern";
	default: return "error";
	}
}

static int compile_query(lang_query *lq, ut_lang lang)
{
	size_t len;
	const char *src = query_source(lang, &len);
	uint32_t err_off = 0, i, n;
	TSQueryError err = TSQueryErrorNone;

	TSQuery *q = ts_query_new(grammar(lang), src, (uint32_t)len, &err_off, &err);

	if (!q) {
		unsigned line = 1;

		for (i = 0; i < err_off && i < len; i++)
			line += src[i] == '\n';
		return ut_error_set(UT_ERROR, "grammars/queries/%s.scm:%u: %s",
				    lang == UT_LANG_TSX ? "typescript" : ut_lang_name(lang), line,
				    query_error_name(err));
	}
	n = ts_query_capture_count(q);
	free(lq->capture_roles);
	lq->capture_roles = calloc(n ? n : 1, sizeof(uint64_t));
	if (!lq->capture_roles) {
		ts_query_delete(q);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		uint32_t nlen;
		const char *name = ts_query_capture_name_for_id(q, i, &nlen);
		int r;

		for (r = 0; r < UT_R__COUNT; r++)
			if (strlen(role_names[r]) == nlen && memcmp(role_names[r], name, nlen) == 0)
				break;
		if (r == UT_R__COUNT) {
			ts_query_delete(q);
			return ut_error_set(UT_ERROR, "query for %s: unknown capture '@%.*s'",
					    ut_lang_name(lang), (int)nlen, name);
		}
		lq->capture_roles[i] = UT_ROLE(r);
	}
	/* set only when complete: a failed compilation is retried, never half used */
	lq->query = q;
	return 0;
}

int ut_ts_new(ut_ts **out)
{
	ut_ts *ts = calloc(1, sizeof(*ts));
	int rc = 0;

	*out = NULL;
	if (!ts)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ts->parser = ts_parser_new();
	ts->cursor = ts_query_cursor_new();
	if (!ts->parser || !ts->cursor) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	ts_parser_set_timeout_micros(ts->parser, UT_PARSE_TIMEOUT_US);
	ts_query_cursor_set_match_limit(ts->cursor, UT_QUERY_MATCH_LIMIT);
	/* the queries are compiled on first use (ut_ts_parse): most runs read one language */
done:
	if (rc < 0)
		ut_ts_free(ts);
	else
		*out = ts;
	return rc;
}

void ut_ts_free(ut_ts *ts)
{
	int l;

	if (!ts)
		return;
	for (l = 0; l < UT_LANG__COUNT; l++) {
		if (ts->q[l].query)
			ts_query_delete(ts->q[l].query);
		free(ts->q[l].capture_roles);
	}
	if (ts->cursor)
		ts_query_cursor_delete(ts->cursor);
	if (ts->parser)
		ts_parser_delete(ts->parser);
	free(ts);
}

void ut_syn_tree_free(ut_syn_tree *t)
{
	if (!t)
		return;
	free(t->root);
	free(t->lines);
	free(t);
}

/* libtree-sitter 0.20.7 (Debian 12) frees memory twice when a tree nests 65,535 levels
 * deep (fixed upstream in 0.20.8). Every level takes at least two bytes, so only larger
 * files can trigger it: those are parsed once in a child process first, and a file that
 * kills the child is skipped instead of the whole run. */
#define UT_TS_DEPTH_BUG_BYTES (2u * 65535u)

static bool parse_survives(TSParser *parser, const char *src, uint32_t len)
{
	pid_t pid;
	int status = 0;

	pid = fork();
	if (pid < 0)
		return true; /* cannot check: parse and hope */
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		TSTree *tree;

		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		tree = ts_parser_parse_string(parser, NULL, src, len);
		if (tree)
			ts_tree_delete(tree);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int cmp_capture(const void *pa, const void *pb)
{
	const capture *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->id != b->id)
		return a->seq < b->seq ? -1 : 1;
	return 0;
}

/* Real test code nests a few dozen levels. Queries over trees nested thousands of levels
 * deep take time that grows faster than the square of the depth, so such files are not
 * analysed: the limit keeps a hostile file from stalling a run. */
#define UT_MAX_TREE_DEPTH 1500

/* The depth of the tree, iteratively; stops counting once past the limit. *line gets the
 * line where the limit was passed. */
static unsigned tree_depth(TSNode root, unsigned *line)
{
	TSTreeCursor c = ts_tree_cursor_new(root);
	unsigned depth = 0, max = 0;

	for (;;) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (++depth > max) {
				max = depth;
				if (max > UT_MAX_TREE_DEPTH) {
					*line = ts_node_start_point(ts_tree_cursor_current_node(&c)).row + 1;
					break;
				}
			}
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c))
				goto done;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	return max;
}

/* The first ERROR or MISSING node, iteratively (the tree may be very deep). */
static unsigned first_error_line(TSNode root)
{
	TSTreeCursor c = ts_tree_cursor_new(root);
	unsigned line = 0;

	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);

		if (strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n)) {
			line = ts_node_start_point(n).row + 1;
			break;
		}
		if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&c))
			if (!ts_tree_cursor_goto_parent(&c))
				goto done;
	}
done:
	ts_tree_cursor_delete(&c);
	return line ? line : 1;
}

static void check_utf8(const char *path, const char *src, size_t len, ut_diags *diags)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0;
	unsigned line = 1;

	while (i < len) {
		size_t n;

		if (s[i] < 0x80) {
			line += s[i] == '\n';
			i++;
			continue;
		}
		n = ut_utf8_valid(s + i, len - i);
		if (!n) {
			ut_diags_add(diags, UT_DIAG_WARNING, path, line,
				     "invalid UTF-8 (read as U+FFFD)");
			return;
		}
		i += n;
	}
}

/* Where each line starts, for the line numbers of nodes: counted, then recorded. */
static int index_lines(ut_syn_tree *t)
{
	const char *end = t->src + t->len;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *p = t->src;
		size_t n = 1;

		for (;;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			if (!nl)
				break;
			p = nl + 1;
			if (pass)
				t->lines[n] = (uint32_t)(p - t->src);
			n++;
		}
		if (pass)
			break;
		t->lines = malloc(n * sizeof(*t->lines));
		if (!t->lines)
			return ut_error_set(UT_ENOMEM, "out of memory");
		t->lines[0] = 0;
		t->nlines = n;
	}
	return 0;
}

/* Nests the sorted captures by range into the node array below the root. */
static int build(ut_syn_tree *t, capture *caps, size_t n)
{
	UT_VEC(uint32_t) stack = {0};
	ut_syn *nodes = calloc(n + 1, sizeof(*nodes));
	size_t i, count = 1;
	int rc = 0;

	if (!nodes || ut_vec_push(&stack, 0) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	nodes[0].end = (uint32_t)t->len;
	for (i = 0; i < n; i++) {
		capture *c = &caps[i];
		ut_syn *node;
		uint32_t top;

		if (i + 1 < n && caps[i + 1].id == c->id && caps[i + 1].start == c->start &&
		    caps[i + 1].end == c->end) {
			caps[i + 1].roles |= c->roles; /* the same node captured twice */
			continue;
		}
		/* close the nodes that end before this one: their subtrees are complete; a node
		 * that is not inside the top of the stack cannot be nested in it either */
		for (;;) {
			top = stack.v[stack.n - 1];
			if (stack.n == 1 || (nodes[top].end > c->start && nodes[top].end >= c->end))
				break;
			nodes[top].size = (uint32_t)(count - top);
			stack.n--;
		}
		node = &nodes[count];
		node->roles = c->roles;
		node->start = c->start;
		node->end = c->end;
		node->up = (uint32_t)(count - top);
		if (ut_vec_push(&stack, (uint32_t)count) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
		count++;
	}
	while (stack.n > 0) {
		stack.n--;
		nodes[stack.v[stack.n]].size = (uint32_t)(count - stack.v[stack.n]);
	}
	t->root = nodes;
	t->nnodes = count - 1;
	nodes = NULL;
	/* give back what merged captures did not use */
	if (count < n + 1) {
		ut_syn *fit = realloc(t->root, count * sizeof(*fit));

		if (fit)
			t->root = fit;
	}
done:
	free(nodes);
	ut_vec_free(&stack);
	return rc;
}

int ut_ts_parse(ut_ts *ts, ut_syn_tree **out, ut_lang lang, const char *path, const char *src,
		size_t len, ut_diags *diags)
{
	ut_syn_tree *t = NULL;
	TSTree *tree = NULL;
	TSNode root;
	TSQueryMatch m;
	uint32_t ci;
	UT_VEC(capture) caps = {0};
	lang_query *lq;
	int rc = 0;

	*out = NULL;
	if (lang < 0 || lang >= UT_LANG__COUNT)
		return ut_error_set(UT_EINPUT, "'%s': unsupported language", path);
	if (len > UINT32_MAX / 2)
		return ut_error_set(UT_EINPUT, "'%s' is too large to parse", path);
	lq = &ts->q[lang];
	if (!lq->query) {
		rc = compile_query(lq, lang);
		if (rc < 0)
			return rc;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return ut_error_set(UT_ENOMEM, "out of memory");
	t->lang = lang;
	t->path = path;
	t->src = src;
	t->len = len;
	rc = index_lines(t);
	if (rc < 0)
		goto done;

	check_utf8(path, src, len, diags);
	ts_parser_reset(ts->parser);
	if (!ts_parser_set_language(ts->parser, grammar(lang))) {
		rc = ut_error_set(UT_ERROR, "grammar for %s has an incompatible ABI",
				  ut_lang_name(lang));
		goto done;
	}
	if (len >= UT_TS_DEPTH_BUG_BYTES && !parse_survives(ts->parser, src, (uint32_t)len)) {
		rc = ut_error_set(UT_EINPUT, "%s: nested too deeply for the parser "
				  "(tree-sitter 0.20.7 fails at 65,535 levels)", path);
		goto done;
	}
	tree = ts_parser_parse_string(ts->parser, NULL, src, (uint32_t)len);
	if (!tree) {
		rc = ut_error_set(UT_EINPUT, "%s: the parser gave up (time limit)", path);
		goto done;
	}
	root = ts_tree_root_node(tree);
	{
		unsigned line = 1;

		if (tree_depth(root, &line) > UT_MAX_TREE_DEPTH) {
			ut_diags_add(diags, UT_DIAG_WARNING, path, line,
				     "skipped: nesting deeper than %d levels", UT_MAX_TREE_DEPTH);
			rc = ut_error_set(UT_EINPUT, "%s:%u: nesting deeper than %d levels", path,
					  line, UT_MAX_TREE_DEPTH);
			goto done;
		}
	}
	if (ts_node_has_error(root)) {
		t->has_error = true;
		t->error_line = first_error_line(root);
		ut_diags_add(diags, UT_DIAG_WARNING, path, t->error_line,
			     "syntax error; the rest of the file is read as far as possible");
	}

	ts_query_cursor_exec(ts->cursor, lq->query, root);
	while (ts_query_cursor_next_capture(ts->cursor, &m, &ci)) {
		TSNode node = m.captures[ci].node;
		capture c;

		c.start = ts_node_start_byte(node);
		c.end = ts_node_end_byte(node);
		if (c.end <= c.start || ts_node_is_missing(node))
			continue;
		c.id = node.id;
		c.roles = lq->capture_roles[m.captures[ci].index];
		c.seq = (uint32_t)caps.n;
		if (ut_vec_push(&caps, c) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	if (ts_query_cursor_did_exceed_match_limit(ts->cursor))
		ut_diags_add(diags, UT_DIAG_WARNING, path, ts_node_end_point(root).row + 1,
			     "nesting too deep to analyse completely; some code is not read");
	if (caps.n)
		qsort(caps.v, caps.n, sizeof(capture), cmp_capture);
	rc = build(t, caps.v, caps.n);
done:
	ut_vec_free(&caps);
	if (tree)
		ts_tree_delete(tree);
	if (rc < 0)
		ut_syn_tree_free(t);
	else
		*out = t;
	return rc;
}

const ut_syn *ut_syn_child(const ut_syn *n, ut_role r)
{
	const ut_syn *c;

	for (c = n ? ut_syn_first(n) : NULL; c; c = ut_syn_next(c))
		if (ut_syn_is(c, r))
			return c;
	return NULL;
}

const ut_syn *ut_syn_find(const ut_syn *n, ut_role r, uint64_t stop)
{
	const ut_syn *c, *end;

	if (!n)
		return NULL;
	/* the subtree is the array slice after n, in pre-order */
	for (c = n + 1, end = n + n->size; c < end; c = c->roles & stop ? c + c->size : c + 1)
		if (ut_syn_is(c, r))
			return c;
	return NULL;
}

bool ut_syn_text_eq(const ut_syn_tree *t, const ut_syn *n, const char *s)
{
	size_t len = n->end - n->start;

	return strlen(s) == len && memcmp(t->src + n->start, s, len) == 0;
}

unsigned ut_syn_line_at(const ut_syn_tree *t, uint32_t offset)
{
	size_t lo = 0, hi = t->nlines;

	/* the number of lines that start at or before offset */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->lines[mid] <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (unsigned)lo;
}
