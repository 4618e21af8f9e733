/* internal.h: shared types of the parse stage (index, values, action walker, languages).
 * Not part of the public interface; parse.h is.
 *
 * The files of parse/ are layers: a file calls functions of the files below it, never of
 * one above, so each can be read and changed knowing only what is under it (the ctest
 * structure runs ci/structure --acyclic parse, which fails on a circle between them).
 *
 *   parse.c             the driver: which files, loading, discovery, the order file
 *   java.c js.c         one language's discovery each, over its own helpers (java_common.c
 *   python.c              testng*.c java_build.c; js_scan.c js_names.c; python_*.c)
 *   walks.c             the recorded walks, run on several threads; up_suite_append
 *   actions.c           the action walker
 *   cond.c local.c      a static condition's truth; calls that stay on the test machine
 *   eval.c  resolve.c   an expression's value; a receiver's type and the function a call
 *                       runs (the two do not call each other)
 *   index.c             what the files define (functions, classes, constants)
 *   syntax.c env.c      a node's text and a call's parts; scopes, the evaluation context
 *   load.c              reading and parsing the files on several threads
 *   treesitter.c        the role tree (tree-sitter's adapter, syntax.h), over query.c
 *
 * pytest_ini.c, mocharc.c and config_opts.c read configuration files and call none of
 * these.
 *
 * Names: a function parse/'s files share only among themselves is up_<area>_<verb>,
 * declared here or in java.h, js.h, python.h, query.h and syntax.h, which no file outside
 * parse/ includes; what other modules call keeps ut_ (parse.h, config_opts.h, mocharc.h,
 * pytest_ini.h). */
#ifndef UT_PARSE_INTERNAL_H
#define UT_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/suite.h"
#include "parse/syntax.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/map.h"
#include "util/vec.h"

/* Depth limits keep every recursion bounded on hostile input. */
#define UT_MAX_EVAL_DEPTH 64    /* nested expressions and constant chains */
#define UT_MAX_WALK_DEPTH 256   /* nested role nodes walked for actions */
#define UT_MAX_INLINE_DEPTH 8   /* helper calls followed through helpers */
#define UT_MAX_VALUE_LEN 4096   /* longer resolved strings are cut */
#define UT_MAX_SUPER 16         /* superclass levels followed */

typedef struct up_cls up_cls;

/* One analysed source file. */
typedef struct {
	char *path;          /* as opened */
	const char *rel;     /* relative to the suite root (points into path or arena) */
	ut_lang lang;
	ut_buf src;
	ut_syn_tree *tree;
	const char *package; /* Java package, "" when none */
	const char *framework; /* framework guessed from imports, or NULL */
	bool test_file;      /* under the suite paths and named like a test file */
	ut_map constants;    /* module-level name -> const_def* */
	const size_t *requires; /* JavaScript: where each "require(" of src starts (index) */
	size_t nrequires;
	ut_map assigned;     /* JavaScript: name -> up_const_def* of the first `name = value`
				inside a function (a describe's `let page` set in a hook), and
				"this.name" of mocha's shared context */
} up_file;

/* A named binding whose value is an expression in some file. */
typedef struct {
	const up_file *file;
	const ut_syn *value;
	const up_cls *cls;   /* the class it belongs to, NULL for module level */
} up_const_def;

/* The field types one walking lane found (resolve.c): (class, name) -> the type and the
 * type steps finding it took. */
typedef struct {
	ut_map map;
	ut_arena arena;
} up_type_memo;

/* Bounds the chains of definitions followed: eval's depth limit is lower. */
#define UP_MAX_BUSY 256

/* The evaluation context (env.c): what an evaluation depends on besides its expression and
 * scope. The definitions being evaluated or typed (the cycle guard) and the field types
 * kept. Made by whoever evaluates, the driver for discovery and each walking lane for its
 * tests (walks.c), and reached through the index they evaluate with (up_index.ctx): one
 * thread's own, never shared, so the walks of several tests run at once over the same
 * definitions without a lock. */
typedef struct {
	const up_const_def *busy[UP_MAX_BUSY];
	size_t nbusy;
	up_type_memo *types; /* a walking lane's field types (resolve.c), else NULL: none kept */
} up_ctx;

/* An empty context keeping field types in types (NULL: none kept). */
void up_ctx_init(up_ctx *ctx, up_type_memo *types);
/* Runs run(arg) with def marked in ctx as being evaluated or typed, and unmarks it after:
 * the one way to take the cycle guard, so every mark is given back. false, run not called,
 * when def is marked already (a cycle), when it is up_ambiguous or when too many are. */
bool up_def_guarded(up_ctx *ctx, const up_const_def *def, void (*run)(void *arg), void *arg);
/* How many definitions ctx has marked. */
size_t up_def_busy(const up_ctx *ctx);

/* A function, method or constructor definition. */
typedef struct up_fn up_fn;
struct up_fn {
	const up_file *file;
	const ut_syn *node;
	const char *name;
	up_cls *cls;          /* enclosing class, or NULL */
	const ut_syn *params[16];
	size_t nparams;
	const ut_syn *body;
	up_fn *next_same_name;
	bool is_test;         /* a test or setup hook: never inlined as a helper */
	bool is_fixture;      /* a pytest fixture: a parameter of its name is what it returns */
};

struct up_cls {
	const up_file *file;
	const ut_syn *node;
	const char *name;
	const char *super;    /* name of the superclass, or NULL */
	up_cls *outer;        /* enclosing class, or NULL */
	ut_map constants;     /* name -> up_const_def* (fields, class attributes, this.x = ...) */
	ut_map fields;	      /* name -> const ut_syn* UT_R_DECL: declared fields (resolve.c) */
	up_cls *next_same_name;
};

typedef struct {
	ut_arena *arena;       /* the suite's: strings that end up in the model */
	ut_arena scratch;      /* index entries */
	ut_arena *temp;        /* strings the analysis works with (compact text, values):
				  what one test adds is given back once it is in the model */
	UT_VEC(up_file *) files;
	ut_map fns;            /* name -> up_fn* chain */
	ut_map classes;        /* name -> up_cls* chain, and node -> up_cls* */
	UT_VEC(up_cls *) all_classes; /* every class, to release their constant maps */
	ut_map globals;        /* name -> up_const_def*, or &up_ambiguous when defined twice */
	ut_diags *diags;
	const char *root;
	up_ctx *ctx; /* the evaluating thread's: the driver's, or a walking lane's */
} up_index;

extern up_const_def up_ambiguous;

/* Syntax helpers (syntax.c): a node's text and the parts of a call. */

/* The roles of the nodes that carry a value (what an argument's wrappers are not). */
#define UT_VALUE_ROLES                                                                             \
	(UT_ROLE(UT_R_STR) | UT_ROLE(UT_R_CONCAT) | UT_ROLE(UT_R_IDENT) | UT_ROLE(UT_R_MEMBER) |   \
	 UT_ROLE(UT_R_NUM) | UT_ROLE(UT_R_PAREN) | UT_ROLE(UT_R_SEQ) | UT_ROLE(UT_R_CALL) |        \
	 UT_ROLE(UT_R_FUNC))

/* Text of n with whitespace removed, in ix->temp (dotted names, callee names). */
const char *up_compact_text(const up_index *ix, const up_file *f, const ut_syn *n);
/* The same in buf when it fits (names to compare and forget), else in ix->temp. */
const char *up_compact_text_buf(const up_index *ix, const up_file *f, const ut_syn *n, char *buf,
				size_t size);
/* Name of a call: the text of its UT_R_CALL_NAME, or "" */
const ut_syn *up_call_name(const ut_syn *call);
const ut_syn *up_call_recv(const ut_syn *call);
const ut_syn *up_call_args(const ut_syn *call);
/* The value-bearing node of an argument (skips wrappers such as spreads). */
const ut_syn *up_arg_expr(const ut_syn *arg);
/* Text equality helpers. */
bool up_text_is(const up_file *f, const ut_syn *n, const char *s);
bool up_text_in(const up_file *f, const ut_syn *n, const char *const *set);
/* The receiver names an object's own members: self, this, cls. */
bool up_is_self(const up_file *f, const ut_syn *n);
/* 1 when fn's first parameter is Python's explicit self or cls, which callers do not
 * pass; else 0. */
size_t up_fn_self_params(const up_fn *fn);
/* How many positional arguments a call passes. */
size_t up_call_nargs(const ut_syn *call);

/* Values of expressions. */
typedef enum {
	UP_V_NONE,  /* not a value (a call result, an object) */
	UP_V_STR,   /* a resolved string */
	UP_V_UNRES, /* meant as a value but not resolvable: s holds the source text */
	UP_V_NODE   /* bound to a non-string expression (a locator such as By.id("x")) */
} up_val_kind;

typedef struct {
	up_val_kind kind;
	const char *s; /* UP_V_STR: value; UP_V_UNRES: source text */
	size_t n;
	const up_file *file;   /* UP_V_NODE */
	const ut_syn *node;
	const up_cls *cls;
} up_val;

/* What an expression refers to, for resolving the methods called on it (resolve.c). */
typedef enum {
	UP_TY_UNKNOWN, /* nothing known: a method called on it resolves to nothing */
	UP_TY_OBJECT,  /* an instance of cls, a class of the analysed sources */
	UP_TY_CLASS,   /* the class cls itself: Helper.m(), a page exported as its class name */
	UP_TY_MODULE,  /* a module or object literal: its functions (within node of file, or
			  any module-level function when file is NULL) */
	UP_TY_FOREIGN, /* a value of a type outside the sources: Map, dict, Properties, String */
	UP_TY_DRIVER,  /* a WebDriver: its get(url) is a navigation */
	UP_TY_ELEMENT  /* an @FindBy/@FindAll field: node is its declaration */
} up_ty_kind;

typedef struct {
	up_ty_kind kind;
	const up_cls *cls;
	const up_file *file;
	const ut_syn *node;
} up_ty;

typedef struct {
	const char *name;
	size_t nlen;
	up_val val;
	up_ty ty; /* its type when it was bound; UP_TY_UNKNOWN when not known */
} up_binding;

/* Lexical environment: local bindings, then the enclosing scopes. */
typedef struct up_env up_env;
struct up_env {
	up_env *parent;        /* describe blocks and other enclosing scopes */
	const up_file *file;
	const up_cls *cls;
	const up_cls *self;    /* the test's object (up_walker.self), inherited from parent */
	UT_VEC(up_binding) locals;
};

void up_env_init(up_env *env, up_env *parent, const up_file *file, const up_cls *cls);
void up_env_dispose(up_env *env);
int up_env_bind(up_env *env, const char *name, size_t nlen, up_val val);
int up_env_bind_typed(up_env *env, const char *name, size_t nlen, up_val val, up_ty ty);
/* The innermost binding of name in env and its enclosing scopes, or NULL. */
const up_binding *up_env_find(const up_env *env, const char *name, size_t nlen);
/* The innermost class of env's scopes, or NULL. */
const up_cls *up_env_class(const up_env *env);

/* Types of receivers (resolve.c). The type of expression n in env. */
up_ty up_type_of(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n);
/* The type a declaration node (UT_R_DECL, or a node inside one) declares; unknown when
 * it declares none. */
up_ty up_type_declared(const up_index *ix, const up_file *f, const ut_syn *n);
/* The function a call runs, resolved by its receiver's type (recv_ty when known, else
 * computed; for a bare call, the enclosing class chain, a static import or module-level
 * functions); NULL when none. *self gets the class
 * `this` stands for inside it (the receiver's, which may be a subclass of the method's).
 * *unknown is set when the receiver's type is unknown while functions of that name exist:
 * the call is then resolved to nothing rather than to a same-named method. */
const up_fn *up_resolve_call(const up_index *ix, const up_env *env, const up_file *f,
			     const ut_syn *call, size_t nargs, const up_ty *recv_ty,
			     const up_cls **self, bool *unknown);

/* Index building. */
int up_index_add_file(up_index *ix, up_file *f);
up_fn *up_index_fn(const up_index *ix, const char *name, size_t nlen);
up_cls *up_index_class(const up_index *ix, const char *name, size_t nlen);
/* The superclass of k among the analysed sources (by its simple name), or NULL. */
up_cls *up_index_super(const up_index *ix, const up_cls *k);
/* The method a call `name(...)` with nargs arguments on `this` (or on nothing) runs from
 * a method of `from` when the object is a `self`: the most derived of self's chain when
 * from is in it (an override), else of from's chain; NULL when none has a body. */
const up_fn *up_index_dispatch(const up_index *ix, const up_cls *self, const up_cls *from,
			       const char *name, size_t nlen, size_t nargs);
/* The class node's up_cls, or NULL. */
up_cls *up_index_class_of(const up_index *ix, const up_file *f, const ut_syn *node);
up_fn *up_index_fn_of(const up_index *ix, const up_file *f, const ut_syn *node);

/* The constant or field `name` of cls, its outer classes and superclasses, or NULL. */
up_const_def *up_class_const(const up_index *ix, const up_cls *cls, const char *name, size_t nlen);

/* Evaluation of an expression node to a value. Strings are allocated in ix->temp. */
up_val up_eval(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n);
/* A condition's truth when it is static (cond.c): 1 true, 0 false, -1 not known. */
int up_cond(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n);
/* The value a name has in env (locals, enclosing scopes, class, module, globals). */
up_val up_lookup(const up_index *ix, const up_env *env, const char *name, size_t nlen);

/* Whether a call stays on the test machine (environment, files, processes, the browser's
 * launch options, DevTools commands, an exception's message): its strings are no values of
 * the application (local.c). */
bool up_call_stays_local(const up_index *ix, const up_env *env, const up_file *f,
			 const ut_syn *call);

typedef struct up_discover up_discover;

/* A body to walk for a test, recorded while its suite is discovered: the scope it was
 * given with its own bindings copied (their strings in the discovery's arena); its
 * enclosing scopes (env.parent and up) are the caller's, which must stay alive and
 * unchanged until up_walks_run. */
typedef struct {
	up_env env;
	const up_file *file;
	const ut_syn *body;
	bool setup;
} up_walk_step;

typedef UT_VEC(up_walk_step) up_walk_steps;

/* The action walker. Discovery's walkers (up_walker_init) record what they are asked to
 * walk; up_walks_run walks it for every test at once, on the parse threads. */
typedef struct {
	const up_index *ix;
	up_discover *d;         /* recording for d; NULL while walking */
	up_walk_steps steps;    /* recorded */
	UT_VEC(ut_action) actions;
	bool setup;             /* actions being recorded come from setup code */
	const char *test_file;  /* rel path of the test: actions elsewhere get `file` */
	/* where inlined actions are reported: the outermost call site */
	const up_file *site_file;
	unsigned site_line;
	const char *via;
	const up_fn *stack[UT_MAX_INLINE_DEPTH];
	size_t depth;
	int walk_depth;
	bool truncated;         /* a depth limit was hit */
	bool in_assert;         /* inside an assertion: helper calls give it their values */
	const up_cls *self;     /* the test's own class: calls on `this` (or on nothing) from
				   its methods and inherited ones dispatch from it, overrides first */
	const up_file *cur_file; /* the call being handled, for locators used through names */
	unsigned cur_line;
} up_walker;

/* A walker that records for d (discovery): up_suite_append hands what it recorded to the
 * test it appends. */
void up_walker_init(up_walker *w, up_discover *d, const char *test_file);
void up_walker_dispose(up_walker *w);
/* Walks a function body (or any subtree) in evaluation order, appending actions; a
 * recording walker records it (env's own bindings copied) and returns 0. */
int up_walk_body(up_walker *w, up_env *env, const up_file *f, const ut_syn *body);
/* Walks a method run on an object of class self (a subclass of fn's class: an inherited
 * test or hook; NULL: fn's class), so that this.m(), self.m() and bare m() take self's
 * overrides and fields. Binds nothing. */
int up_walk_fn_as(up_walker *w, const up_fn *fn, const up_cls *self, up_env *parent);

/* A test's recorded walk (up_suite_append), walked by up_walks_run. */
typedef struct {
	size_t test;            /* its index in the suite */
	const char *test_file;
	const up_cls *self;
	up_walk_step *steps;    /* in the discovery's arena; their scopes' bindings not */
	size_t nsteps;
	bool truncated;         /* walked: a depth limit was hit */
	int rc;                 /* walked: 0, or < 0 (the walks' first failure says why) */
} up_walk_plan;

/* Walks the steps of every test recorded in d (walks.c), the tests on d->jobs threads at
 * once, and gives each test its actions (in the suite's arena); warns, in test order, of
 * walks cut by a depth limit. To be called before the suite's tests move (a plan names its
 * test by index) and while the scopes the steps refer to are alive. 0, or < 0 with the
 * error of the earliest test whose walk failed; every plan is released either way. */
int up_walks_run(up_discover *d);
/* Releases the plans not walked (a discovery that failed). Accepts none. */
void up_walks_dispose(up_discover *d);

/* One file to read and parse (load.c). */
typedef struct {
	up_file *f;      /* path, rel, lang, test_file set; src too unless `read` */
	bool read;       /* read f->path from disk into f->src */
	size_t max;      /* a larger file is skipped */
	ut_diags diags;  /* what reading and parsing it said, in order */
	int rc;          /* 1 parsed, 0 skipped (diags say why), < 0 failed; 2 while
			    it waits for the other threads to end (up_ts_forks) */
	char error[256]; /* the message of a failure */
} up_load;

/* Reads and parses every job's file, on `threads` threads (0: one per CPU this process
 * may run on): the calling one with ts, the others with parsers of their own. Files whose
 * parse forks (up_ts_forks) are parsed by the calling thread once the others have ended:
 * a child forked while another thread holds a lock inside malloc (the sanitizers'
 * allocators have no fork handlers) would wait for it forever. */
void up_load_files(up_load *jobs, size_t n, unsigned threads, ut_ts *ts);

/* Per-language discovery: appends the tests of the files of `lang` to the suite, in that
 * framework's execution order. */
struct up_discover {
	up_index *ix;
	ut_suite *suite;
	ut_diags *diags;
	const char *framework; /* preset from the configuration, or NULL */
	ut_map ids;            /* ids of the tests appended so far (values unused) */
	bool keep_all;         /* an order file decides: a root suite leaves nothing out */
	const char *testng_xml; /* suite.testng_xml, or NULL to look for one */
	const struct ut_pytest_ini *pytest; /* the project's pytest options, or NULL: defaults */
	unsigned jobs;         /* threads for the walks (ut_workers_count) */
	UT_VEC(up_walk_plan) plans; /* recorded, not walked yet */
	ut_arena walk_arena;   /* the steps' copied strings */
};

int up_java_discover(up_discover *d);
int up_python_discover(up_discover *d);
int up_js_discover(up_discover *d);

/* Appends a test to the suite, copying strings into the suite's arena, with the walk w
 * recorded for it as its plan (walks.c). */
int up_suite_append(up_discover *d, const up_file *f, const char *id, const char *name,
		    const ut_syn *node, const char *framework, up_walker *w);

#endif
