/* js.c: mocha, jasmine and jest conventions for JavaScript and TypeScript over every spec
 * file: the order each framework runs what the files register in (mocha's file order,
 * its root suite, .only), the hooks around each test, and ids made of the file and the
 * full title. What one file registers is read by js_scan.c. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "parse/js.h"
#include "util/error.h"
#include "util/banned.h"

static int nomem(void)
{
	return ut_error_set(UT_ENOMEM, "out of memory");
}

static int walk_suite_hooks(up_walker *w, const jsuite *cur, hook_kind k)
{
	size_t h;
	int rc = 0;

	for (h = 0; h < cur->hooks.n && rc == 0; h++) {
		const ut_syn *body;
		up_env env;

		if (cur->hooks.v[h].kind != k)
			continue;
		body = up_syn_child(cur->hooks.v[h].body, UT_R_FUNC_BODY);
		up_env_init(&env, cur->hooks.v[h].env, cur->hooks.v[h].src, NULL);
		rc = up_walk_body(w, &env, cur->hooks.v[h].src, body);
		up_env_dispose(&env);
	}
	return rc;
}

/* The hooks of the test's suites, outermost first or last. mocha's root suite holds the
 * hooks at the top of every file: they run around every test of the run. */
static int walk_hooks(const jsctx *c, up_walker *w, const jsuite *s, hook_kind k, bool outer_first)
{
	const jsuite *chain[64];
	size_t n = 0, i, r;
	int rc = 0;

	for (; s && n < 64; s = s->parent)
		chain[n++] = s;
	for (i = 0; i < n && rc == 0; i++) {
		const jsuite *cur = chain[outer_first ? n - 1 - i : i];

		if (cur->parent || !c->roots)
			rc = walk_suite_hooks(w, cur, k);
		else
			for (r = 0; r < c->nroots && rc == 0; r++)
				rc = walk_suite_hooks(w, c->roots[r], k);
	}
	return rc;
}

/* The id of a test: file::full title; a second test with the same full title (mocha runs
 * both) gets " #2", a third " #3", in mocha's order. ci/runners/mocha-ordered.js numbers
 * them the same way. */
static const char *test_id(jsctx *c, const char *title)
{
	const char *id = ut_arena_printf(c->d->ix->temp, "%s::%s", c->file->rel, title);
	unsigned k;

	for (k = 2; id && ut_map_find(&c->d->ids, id, strlen(id), NULL) && k < 100000; k++)
		id = ut_arena_printf(c->d->ix->temp, "%s::%s #%u", c->file->rel, title, k);
	return id;
}

static int emit(jsctx *c, const jtest *t)
{
	ut_buf title = UT_BUF_INIT;
	ut_arena_mark mark = ut_arena_save(c->d->ix->temp);
	const jsuite *chain[64];
	const jsuite *s;
	size_t n = 0;
	up_walker w;
	up_env env;
	int rc = 0;
	const char *id;

	for (s = t->suite; s && n < 64; s = s->parent)
		if (s->title)
			chain[n++] = s;
	while (n-- > 0)
		ut_buf_printf(&title, "%s ", chain[n]->title);
	ut_buf_puts(&title, t->title);
	id = test_id(c, title.ptr);
	if (!id) {
		ut_buf_dispose(&title);
		return nomem();
	}

	up_walker_init(&w, c->d, t->src->rel);
	w.setup = true;
	rc = walk_hooks(c, &w, t->suite, HOOK_BEFORE_ALL, true);
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_BEFORE_EACH, true);
	w.setup = false;
	up_env_init(&env, t->env, t->src, NULL);
	if (rc == 0)
		rc = up_walk_body(&w, &env, t->src, up_syn_child(t->body, UT_R_FUNC_BODY));
	up_env_dispose(&env);
	w.setup = true;
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_AFTER_EACH, false);
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_AFTER_ALL, false);
	if (rc == 0)
		rc = up_suite_append(c->d, t->src, id, t->title, t->call, c->framework, &w);
	up_walker_dispose(&w);
	ut_buf_dispose(&title);
	ut_arena_restore(c->d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

/* mocha runs a suite's tests before its nested suites; jasmine and jest keep the
 * declaration order. `part` is a mocha root's: its tests (1) or its suites (2), since the
 * files' roots are one suite to mocha; 0 is all of it. */
static int emit_suite(jsctx *c, const jsuite *s, int depth, int part)
{
	bool mocha = strcmp(c->framework, "mocha") == 0;
	size_t ti = part == 2 ? s->tests.n : 0, si = part == 1 ? s->suites.n : 0;
	int rc = 0;

	if (depth > 64 || s->dropped)
		return 0;
	while (rc == 0 && (ti < s->tests.n || si < s->suites.n)) {
		bool take_test =
		    si >= s->suites.n ||
		    (ti < s->tests.n && (mocha || s->tests.v[ti].pos < s->suite_pos.v[si]));

		if (take_test) {
			if (!s->tests.v[ti].dropped)
				rc = emit(c, &s->tests.v[ti]);
			ti++;
		} else {
			rc = emit_suite(c, s->suites.v[si++], depth + 1, 0);
		}
	}
	return rc;
}

/* mocha's .only, as its Suite#hasOnly and Suite#filterOnly apply them to the root suite
 * that holds every file's describes. */
static bool has_only(const jsuite *s, int depth)
{
	size_t i;

	if (depth > 64)
		return false;
	for (i = 0; i < s->tests.n; i++)
		if (s->tests.v[i].only)
			return true;
	for (i = 0; i < s->suites.n; i++)
		if (s->suites.v[i]->only || has_only(s->suites.v[i], depth + 1))
			return true;
	return false;
}

static bool tests_only(const jsuite *s)
{
	size_t i;

	for (i = 0; i < s->tests.n; i++)
		if (s->tests.v[i].only)
			return true;
	return false;
}

/* Marks what mocha leaves out of s; true when something of s is kept. With several file
 * roots (`roots`, `n`), they are together mocha's root suite. */
static bool filter_only(jsuite *const *roots, size_t n, int depth)
{
	bool only_tests = false, kept = false;
	size_t r, i;

	for (r = 0; r < n; r++)
		only_tests |= tests_only(roots[r]);
	for (r = 0; r < n; r++) {
		jsuite *s = roots[r];

		for (i = 0; i < s->tests.n; i++) {
			s->tests.v[i].dropped = !(only_tests && s->tests.v[i].only);
			kept |= !s->tests.v[i].dropped;
		}
		for (i = 0; i < s->suites.n; i++) {
			jsuite *child = s->suites.v[i];

			if (only_tests || depth > 64)
				child->dropped = true;
			else if (child->only) {
				/* a describe.only runs whole unless it has .only inside */
				if (has_only(child, 0))
					filter_only(&child, 1, depth + 1);
				child->dropped = false;
			} else
				child->dropped = !filter_only(&child, 1, depth + 1);
			kept |= !child->dropped;
		}
	}
	return kept;
}

static const char *framework_of(const up_discover *d, const up_file *f)
{
	const ut_syn *c;

	if (d->framework)
		return d->framework;
	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		if (!up_syn_is(c, UT_R_IMPORT) && !up_syn_is(c, UT_R_ASSIGN) &&
		    !up_syn_is(c, UT_R_CALL))
			continue;
		if (memmem(f->src.ptr + c->start, c->end - c->start, "@jest/globals", 13) ||
		    memmem(f->src.ptr + c->start, c->end - c->start, "vitest", 6))
			return "jest";
	}
	if (memmem(f->src.ptr, f->src.len, "jasmine.", 8))
		return "jasmine";
	return "mocha";
}

static void ctx_dispose(jsctx *c)
{
	size_t k;

	for (k = 0; k < c->all.n; k++) {
		up_env_dispose(&c->all.v[k]->env);
		ut_vec_free(&c->all.v[k]->tests);
		ut_vec_free(&c->all.v[k]->suites);
		ut_vec_free(&c->all.v[k]->hooks);
		ut_vec_free(&c->all.v[k]->suite_pos);
	}
	for (k = 0; k < c->scopes.n; k++)
		up_env_dispose(c->scopes.v[k]);
	ut_vec_free(&c->all);
	ut_vec_free(&c->scopes);
	ut_vec_free(&c->later);
	ut_vec_free(&c->aliases);
	ut_arena_dispose(&c->arena);
}

/* mocha sorts the files its spec globs match with localeCompare(b, 'en'): ICU's order,
 * where punctuation comes before digits and digits before letters, letters compare
 * without case first, and lowercase goes first when that is all that differs. */
static int collation_weight(unsigned char ch)
{
	static const char order[] =
	    " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";
	const char *at;

	if (ch >= 'A' && ch <= 'Z')
		ch = (unsigned char)(ch - 'A' + 'a');
	at = ch ? strchr(order, ch) : NULL;
	return at ? (int)(at - order) : 256 + ch; /* other bytes after ASCII, in byte order */
}

static int mocha_file_cmp(const char *a, const char *b)
{
	size_t i;
	int d;

	for (i = 0; a[i] && b[i]; i++) {
		d = collation_weight((unsigned char)a[i]) - collation_weight((unsigned char)b[i]);
		if (d)
			return d;
	}
	if (a[i] || b[i])
		return a[i] ? 1 : -1;
	for (i = 0; a[i]; i++) /* only case differs: lowercase first */
		if (a[i] != b[i])
			return (a[i] >= 'a' && a[i] <= 'z') ? -1 : 1;
	return 0;
}

/* mocha files in mocha's order before the others, which keep theirs. */
static int ctx_cmp(const void *pa, const void *pb)
{
	const jsctx *a = pa, *b = pb;
	bool ma = strcmp(a->framework, "mocha") == 0, mb = strcmp(b->framework, "mocha") == 0;
	int d = ma && mb ? mocha_file_cmp(a->file->rel, b->file->rel) : (int)mb - (int)ma;

	if (d)
		return d;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int up_js_discover(up_discover *d)
{
	UT_VEC(jsctx) ctxs = {0};
	UT_VEC(jsuite *) mocha_roots = {0};
	size_t i;
	int rc = 0;

	/* every file first: mocha's .only in one file leaves out the tests of the others */
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		up_file *f = d->ix->files.v[i];
		jsctx c;

		if (!ut_lang_is_js(f->lang) || !f->test_file)
			continue;
		memset(&c, 0, sizeof(c));
		c.d = d;
		c.file = f;
		c.framework = framework_of(d, f);
		c.seq = ctxs.n;
		ut_arena_init(&c.arena);
		if (ut_vec_push(&ctxs, c) < 0) {
			ut_arena_dispose(&c.arena);
			rc = nomem();
			break;
		}
	}
	if (ctxs.n > 1)
		qsort(ctxs.v, ctxs.n, sizeof(ctxs.v[0]), ctx_cmp);
	for (i = 0; i < ctxs.n && rc == 0; i++) {
		jsctx *c = &ctxs.v[i];

		rc = up_js_scan_file(c);
		if (rc == 0 && strcmp(c->framework, "mocha") == 0 &&
		    ut_vec_push(&mocha_roots, c->root) < 0)
			rc = nomem();
	}
	if (rc == 0) {
		bool any = false;

		for (i = 0; i < mocha_roots.n; i++)
			any |= has_only(mocha_roots.v[i], 0);
		if (any)
			filter_only(mocha_roots.v, mocha_roots.n, 0);
	}
	for (i = 0; i < ctxs.n; i++)
		if (strcmp(ctxs.v[i].framework, "mocha") == 0) {
			ctxs.v[i].roots = mocha_roots.v;
			ctxs.v[i].nroots = mocha_roots.n;
		}
	/* mocha: the tests at the top of every file, then the describes of every file */
	for (i = 0; i < ctxs.n && rc == 0; i++)
		if (strcmp(ctxs.v[i].framework, "mocha") == 0)
			rc = emit_suite(&ctxs.v[i], ctxs.v[i].root, 0, 1);
	for (i = 0; i < ctxs.n && rc == 0; i++)
		rc = emit_suite(&ctxs.v[i], ctxs.v[i].root, 0,
				strcmp(ctxs.v[i].framework, "mocha") == 0 ? 2 : 0);
	if (rc == 0)
		rc = up_walks_run(d); /* while the describes' scopes are there */
	for (i = 0; i < ctxs.n; i++)
		ctx_dispose(&ctxs.v[i]);
	ut_vec_free(&ctxs);
	ut_vec_free(&mocha_roots);
	return rc;
}
