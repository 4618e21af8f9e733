/* js.h: the JavaScript/TypeScript discovery's own types, shared by js_scan.c (what a spec
 * file registers) and js.c (mocha's rules over every file, ids, hooks, emission). */
#ifndef UT_PARSE_JS_H
#define UT_PARSE_JS_H

#include "parse/internal.h"

typedef enum { HOOK_BEFORE_ALL, HOOK_BEFORE_EACH, HOOK_AFTER_EACH, HOOK_AFTER_ALL } hook_kind;

typedef struct jsuite jsuite;

typedef struct {
	const ut_syn *call; /* the it(...) call */
	const ut_syn *body; /* its function */
	const char *title;
	jsuite *suite;
	up_env *env;	    /* the scope it was registered in (describe, factory, loop) */
	const up_file *src; /* the file its code is in: the spec's, or a factory's */
	size_t pos;	    /* declaration position among the suite's children */
	bool only;	    /* it.only */
	bool dropped;	    /* left out by mocha's .only rules */
} jtest;

typedef struct {
	hook_kind kind;
	const ut_syn *body;
	up_env *env;
	const up_file *src;
} jhook;

struct jsuite {
	jsuite *parent;
	const char *title; /* NULL for the file's root */
	up_env env;	   /* describe-level bindings */
	UT_VEC(jtest) tests;
	UT_VEC(jsuite *) suites;
	UT_VEC(jhook) hooks;
	UT_VEC(size_t) suite_pos;
	size_t next_pos;
	bool only; /* describe.only */
	bool dropped;
};

/* An async function's body, read after the rest of its file (see up_js_awaits). */
typedef struct {
	jsuite *suite;
	up_env *env;
	const up_file *file;
	const ut_syn *body;
} jlater;

typedef struct {
	up_discover *d;
	const up_file *file; /* the spec: ids are made of its path */
	const up_file *cur;  /* the file being read: the spec, or a factory's */
	const char *framework;
	ut_arena arena; /* suites and scopes of this file */
	UT_VEC(jsuite *) all;
	UT_VEC(up_env *) scopes; /* factory calls and loop iterations */
	UT_VEC(jlater) later;	 /* async functions at the top that await, in order */
	jsuite *root;
	UT_VEC(const char *) aliases; /* names bound to selenium-webdriver/testing */
	size_t expanding;	      /* factory calls being read, nested */
	bool capped;		      /* MAX_SCOPES was reached (warned once) */
	size_t registered;	      /* tests and suites registered so far */
	jsuite *const *roots;	      /* mocha: the roots of every file, one suite to mocha */
	size_t nroots;
	size_t seq; /* position in the index, to keep the order of ties */
} jsctx;

/* A suite of c's file under parent (NULL: the file's root), its describe-level scope
 * inside `scope` (NULL: the file). In c's arena; NULL when out of memory. */
jsuite *up_js_suite_new(jsctx *c, jsuite *parent, up_env *scope, const char *title);
/* Reads what c's file registers into c->root (created here): describes, tests, hooks,
 * factories, loops, conditions. 0, or a negative code (out of memory). */
int up_js_scan_file(jsctx *c);

/* js_names.c. The title expr gives when the spec loads: its value, or the parts of a
 * template or a `+` that have one with ${expression} (its source text) for each part only
 * the run knows: `Suite on ${ENV}`. In the index's arena; "" when out of memory. */
const char *up_js_title(jsctx *c, up_env *env, const ut_syn *expr);
/* The function that `var` (bound by `var = require('./module')` at the top of the file
 * being read) exports: module.exports itself when prop is NULL, else its member prop
 * (exports.prop = function, or a function of the module named prop). NULL when none. */
const up_fn *up_js_required_fn(jsctx *c, const ut_syn *var, const ut_syn *prop);
/* That function for a call: suite(x) or suites.editor(x). */
const up_fn *up_js_required_factory(jsctx *c, const ut_syn *call);
/* The body of the function that `paren` holds when it is called right there:
 * (async () => { ... })(). NULL otherwise. */
const ut_syn *up_js_iife_body(const up_file *f, const ut_syn *paren);
/* Whether that function is async and awaits: what it registers comes after the file's
 * other registrations (mocha's loader awaits the file). */
bool up_js_awaits(const up_file *f, const ut_syn *paren);

#endif
