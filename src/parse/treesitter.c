/* treesitter.c: the tree-sitter adapter. Parses a file, copies the syntax tree into a
 * flat array, matches our queries (grammars/queries/<language>.scm, see query.h) over it
 * and keeps the captured nodes as the role tree of syntax.h. This is the only file that
 * includes tree-sitter's header. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "parse/query.h"
#include "parse/syntax.h"
#include "proc/process.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/pool.h"
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

struct ut_ts {
	TSParser *parser;
	ut_query *q[UT_LANG__COUNT];
	UT_VEC(ut_qnode) flat;   /* the file being read, reused from file to file */
	UT_VEC(uint32_t) stack;
};

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

static uint16_t symbol_id(const void *ctx, const char *name, size_t len, bool named)
{
	return ts_language_symbol_for_name(ctx, name, (uint32_t)len, named);
}

static uint16_t field_id(const void *ctx, const char *name, size_t len)
{
	return ts_language_field_id_for_name(ctx, name, (uint32_t)len);
}

static int compile_query(ut_ts *ts, ut_lang lang)
{
	ut_query_grammar g;
	size_t len;
	const char *src = query_source(lang, &len);

	g.ctx = grammar(lang);
	g.symbol = symbol_id;
	g.field = field_id;
	/* set only when complete: a failed compilation is retried, never half used */
	return up_query_new(&ts->q[lang], src, len, &g,
			    lang == UT_LANG_TSX ? "typescript" : ut_lang_name(lang));
}

/* Parsing allocates and frees about a million small blocks for 60 files: the pool does it
 * in a tenth of the instructions malloc takes. Set before tree-sitter allocates anything,
 * never changed back (blocks of the two must not mix). */
static void use_pool(void)
{
	ts_set_allocator(ut_pool_malloc, ut_pool_calloc, ut_pool_realloc, ut_pool_free);
}

int up_ts_new(ut_ts **out)
{
	static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
	ut_ts *ts = calloc(1, sizeof(*ts));

	*out = NULL;
	pthread_once(&pool_once, use_pool);
	if (!ts)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ts->parser = ts_parser_new();
	if (!ts->parser) {
		up_ts_free(ts);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	ts_parser_set_timeout_micros(ts->parser, UT_PARSE_TIMEOUT_US);
	/* the queries are compiled on first use (up_ts_parse): most runs read one language */
	*out = ts;
	return 0;
}

void up_ts_free(ut_ts *ts)
{
	int l;

	if (!ts)
		return;
	for (l = 0; l < UT_LANG__COUNT; l++)
		up_query_free(ts->q[l]);
	ut_vec_free(&ts->flat);
	ut_vec_free(&ts->stack);
	if (ts->parser)
		ts_parser_delete(ts->parser);
	free(ts);
}

void up_syn_tree_free(ut_syn_tree *t)
{
	if (!t)
		return;
	free(t->root);
	free(t->lines);
	free(t);
}

/* libtree-sitter 0.20.7 (Debian 12) frees memory twice when a tree nests 65,535 levels
 * deep (fixed upstream in 0.20.8). Every level takes at least two bytes, so only larger
 * files can trigger it: those are parsed once in a child process first (the process
 * module's ut_proc_call: its own process group, a time limit, the interrupt), and a file
 * that kills the child is skipped instead of the whole run. The child allocates: a fork
 * while another thread holds an allocator's lock would leave the child waiting for it
 * forever. glibc's malloc and util/pool.c have fork handlers, the sanitizers' allocators
 * do not (a 30 s hang in one run of three under ASan), so up_load_files parses these
 * files only once its other threads have ended (up_ts_forks). */
#define UT_TS_DEPTH_BUG_BYTES (2u * 65535u)
/* the trial parse's limit: the parser's own, plus time to start and to free the tree */
#define UT_TRIAL_TIMEOUT_S (UT_PARSE_TIMEOUT_US / 1e6 + 10.0)

typedef struct {
	TSParser *parser;
	const char *src;
	uint32_t len;
} trial;

bool up_ts_forks(size_t len)
{
	return len >= UT_TS_DEPTH_BUG_BYTES;
}

static int trial_parse(void *arg)
{
	const trial *t = arg;
	TSTree *tree = ts_parser_parse_string(t->parser, NULL, t->src, t->len);

	if (tree)
		ts_tree_delete(tree);
	return 0;
}

/* 0 when the parse survives, UT_EINPUT (message set) when it crashes or hangs,
 * UT_EINTR when interrupted; a child that cannot start is not a verdict (0). */
static int parse_survives(TSParser *parser, const char *path, const char *src, uint32_t len)
{
	trial t = {parser, src, len};
	ut_proc_opts po;
	ut_proc_result res;
	char how[128];
	int rc;

	memset(&po, 0, sizeof(po));
	po.timeout_s = UT_TRIAL_TIMEOUT_S;
	po.grace_s = 0.5;
	po.tail_max = 4096;
	rc = ut_proc_call(&res, &po, "tree-sitter", trial_parse, &t);
	if (rc == UT_EINTR || rc == UT_ENOMEM)
		goto done;
	if (res.state == UT_PROC_NOSTART) {
		rc = 0; /* cannot check: parse and hope */
		goto done;
	}
	if (res.state == UT_PROC_EXITED && res.exit_code == 0) {
		rc = 0;
		goto done;
	}
	rc = ut_error_set(UT_EINPUT, "%s: the parser failed on it in a trial run (%s); "
			  "tree-sitter 0.20.7 fails at 65,535 levels of nesting", path,
			  ut_proc_describe(&res, how, sizeof(how)));
done:
	ut_proc_result_dispose(&res);
	return rc;
}

/* Nodes of the flat copy kept for the next file: a 100 KB source has about 40,000. */
#define UT_FLAT_KEEP ((size_t)1 << 17)

/* Real test code nests a few dozen levels. Trees nested thousands of levels deep are
 * not analysed: the limit keeps a hostile file from stalling a run. */
#define UT_MAX_TREE_DEPTH 1500

/* Copies the tree into ts->flat in pre-order, leaving out the anonymous leaves and the
 * fields no pattern of q looks at. Returns the line where the nesting passes
 * UT_MAX_TREE_DEPTH (the copy is incomplete then), 0 when it does not, or UT_ENOMEM. */
static int flatten(ut_ts *ts, const ut_query *q, TSNode root)
{
	TSTreeCursor c = ts_tree_cursor_new(root);
	/* siblings still to come at each depth: asking the cursor for a sibling after the
	 * last one costs a climb through the hidden nodes above it */
	uint32_t left[UT_MAX_TREE_DEPTH + 2];
	unsigned depth = 0;
	int rc = 0;

	ts->flat.n = 0;
	ts->stack.n = 0;
	left[0] = 0;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		uint32_t kids;
		ut_qnode node;

		node.symbol = ts_node_symbol(n);
		node.named = ts_node_is_named(n);
		if (node.named || up_query_needs_token(q, node.symbol) || ts_node_child_count(n)) {
			uint16_t parent = ts->stack.n ? ts->flat.v[ts->stack.v[ts->stack.n - 1]].symbol
						      : 0;

			node.roles = 0;
			node.start = ts_node_start_byte(n);
			node.end = ts_node_end_byte(n);
			node.size = 1;
			node.field = ts->stack.n && up_query_needs_fields(q, parent)
					     ? ts_tree_cursor_current_field_id(&c)
					     : 0;
			node.missing = ts_node_is_missing(n);
			if (ut_vec_push(&ts->flat, node) < 0 ||
			    ut_vec_push(&ts->stack, (uint32_t)(ts->flat.n - 1)) < 0) {
				rc = ut_error_set(UT_ENOMEM, "out of memory");
				goto done;
			}
			kids = ts_node_child_count(n);
			if (kids && ts_tree_cursor_goto_first_child(&c)) {
				if (++depth > UT_MAX_TREE_DEPTH) {
					rc = (int)ts_node_start_point(
						     ts_tree_cursor_current_node(&c)).row + 1;
					goto done;
				}
				left[depth] = kids - 1;
				continue;
			}
			ts->stack.n--; /* a leaf: its size is 1 */
		}
		/* on to the next sibling, closing the nodes this was the last child of */
		while (!left[depth] || !ts_tree_cursor_goto_next_sibling(&c)) {
			uint32_t open;

			if (!ts_tree_cursor_goto_parent(&c))
				goto done;
			depth--;
			open = ts->stack.v[--ts->stack.n];
			ts->flat.v[open].size = (uint32_t)(ts->flat.n - open);
		}
		left[depth]--;
	}
done:
	ts_tree_cursor_delete(&c);
	return rc;
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
	size_t i = 0, k;
	unsigned line = 1;

	while (i < len) {
		uint64_t word;
		size_t n;

		/* ASCII eight bytes at a time: source code is nearly all ASCII */
		if (len - i >= 8) {
			memcpy(&word, s + i, 8);
			if (!(word & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		n = ut_utf8_valid(s + i, len - i);
		if (!n) {
			for (k = 0; k < i; k++)
				line += s[k] == '\n';
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

/* Keeps the captured nodes of the flat tree, nested as in it, as the role tree. Nodes
 * inserted by error recovery are empty and are left out. */
static int keep(ut_syn_tree *t, ut_ts *ts)
{
	const ut_qnode *flat = ts->flat.v;
	size_t i, n = ts->flat.n, count = 1;
	ut_syn *nodes;

	for (i = 0; i < n; i++)
		count += flat[i].roles && !flat[i].missing && flat[i].end > flat[i].start;
	nodes = calloc(count, sizeof(*nodes));
	if (!nodes)
		return ut_error_set(UT_ENOMEM, "out of memory");
	nodes[0].end = (uint32_t)t->len;
	/* the stack holds the kept ancestors as pairs: node index, end of its flat subtree */
	ts->stack.n = 0;
	if (ut_vec_push(&ts->stack, 0) < 0 || ut_vec_push(&ts->stack, (uint32_t)n) < 0) {
		free(nodes);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	count = 1;
	for (i = 0; i < n; i++) {
		uint32_t top;

		if (!flat[i].roles || flat[i].missing || flat[i].end <= flat[i].start)
			continue;
		for (;;) {
			top = ts->stack.v[ts->stack.n - 2];
			if (ts->stack.n == 2 || i < ts->stack.v[ts->stack.n - 1])
				break;
			nodes[top].size = (uint32_t)(count - top);
			ts->stack.n -= 2;
		}
		nodes[count].roles = flat[i].roles;
		nodes[count].start = flat[i].start;
		nodes[count].end = flat[i].end;
		nodes[count].up = (uint32_t)(count - top);
		if (ut_vec_push(&ts->stack, (uint32_t)count) < 0 ||
		    ut_vec_push(&ts->stack, (uint32_t)(i + flat[i].size)) < 0) {
			free(nodes);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		count++;
	}
	for (; ts->stack.n >= 2; ts->stack.n -= 2) {
		uint32_t open = ts->stack.v[ts->stack.n - 2];

		nodes[open].size = (uint32_t)(count - open);
	}
	t->root = nodes;
	t->nnodes = count - 1;
	return 0;
}

/* tree-sitter's tree of t's source, flattened, matched by the language's query and kept
 * as t's role tree; a syntax error is noted in t and in diags. */
static int read_tree(ut_ts *ts, ut_syn_tree *t, ut_diags *diags)
{
	TSTree *tree = NULL;
	TSNode root;
	int rc = 0;

	if (up_ts_forks(t->len)) {
		rc = parse_survives(ts->parser, t->path, t->src, (uint32_t)t->len);
		if (rc < 0)
			return rc;
	}
	tree = ts_parser_parse_string(ts->parser, NULL, t->src, (uint32_t)t->len);
	if (!tree)
		return ut_error_set(UT_EINPUT, "%s: the parser gave up (time limit)", t->path);
	root = ts_tree_root_node(tree);
	rc = flatten(ts, ts->q[t->lang], root);
	if (rc > 0) {
		unsigned line = (unsigned)rc;

		ut_diags_add_kind(diags, UT_DIAG_WARNING, UT_DIAG_UNREAD, t->path, line,
				  "skipped: nesting deeper than %d levels", UT_MAX_TREE_DEPTH);
		rc = ut_error_set(UT_EINPUT, "%s:%u: nesting deeper than %d levels", t->path, line,
				  UT_MAX_TREE_DEPTH);
	}
	if (rc == 0 && ts_node_has_error(root)) {
		t->has_error = true;
		t->error_line = first_error_line(root);
		ut_diags_add_kind(diags, UT_DIAG_WARNING, UT_DIAG_SYNTAX, t->path, t->error_line,
				  "syntax error; the rest of the file is read as far as possible");
	}
	/* the syntax tree is copied: give its memory back before the role tree is made */
	ts_tree_delete(tree);
	if (rc < 0)
		return rc;
	up_query_match(ts->q[t->lang], ts->flat.v, ts->flat.n);
	rc = keep(t, ts);
	/* the copy is reused from file to file, but one large file's must not stay with the
	 * thread for the rest of the run (32 bytes a node, a node every 3 to 10 bytes) */
	if (ts->flat.cap > UT_FLAT_KEEP) {
		ut_vec_free(&ts->flat);
		ut_vec_free(&ts->stack);
	}
	return rc;
}

int up_ts_parse(ut_ts *ts, ut_syn_tree **out, ut_lang lang, const char *path, const char *src,
		size_t len, ut_diags *diags)
{
	ut_syn_tree *t = NULL;
	int rc = 0;

	*out = NULL;
	if (lang < 0 || lang >= UT_LANG__COUNT)
		return ut_error_set(UT_EINPUT, "'%s': unsupported language", path);
	if (len > UINT32_MAX / 2)
		return ut_error_set(UT_EINPUT, "'%s' is too large to parse", path);
	if (!ts->q[lang]) {
		rc = compile_query(ts, lang);
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
	rc = read_tree(ts, t, diags);
done:
	if (rc < 0)
		up_syn_tree_free(t);
	else
		*out = t;
	return rc;
}

const ut_syn *up_syn_child(const ut_syn *n, ut_role r)
{
	const ut_syn *c;

	for (c = n ? up_syn_first(n) : NULL; c; c = up_syn_next(c))
		if (up_syn_is(c, r))
			return c;
	return NULL;
}

const ut_syn *up_syn_find(const ut_syn *n, ut_role r, uint64_t stop)
{
	const ut_syn *c, *end;

	if (!n)
		return NULL;
	/* the subtree is the array slice after n, in pre-order */
	for (c = n + 1, end = n + n->size; c < end; c = c->roles & stop ? c + c->size : c + 1)
		if (up_syn_is(c, r))
			return c;
	return NULL;
}

unsigned up_syn_line_at(const ut_syn_tree *t, uint32_t offset)
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
