/* resolve.c: what a call's receiver is and which function the call runs. A receiver's type
 * comes from the declared type of a local, field or parameter, the constructor that built
 * it, what a factory method or pytest fixture returns, `this`/`self`, and the inheritance
 * chain. A receiver of unknown type resolves to nothing, never to a same-named method of an
 * unrelated class; Map, dict, Properties and other types outside the sources have no
 * methods of the suite; a driver is a driver only when nothing else is known of the name. */
#include <ctype.h>
#include <string.h>

#include "parse/internal.h"
#include "util/banned.h"

/* Work one question may cost: every step of the search below counts, so chains of fields,
 * fixtures and factory methods stay cheap even when they loop. */
#define MAX_TYPE_STEPS 96
#define MAX_CHAIN 16

typedef struct {
	const up_index *ix;
	int steps;
} rctx;

static up_ty type_of(rctx *r, const up_env *env, const up_file *f, const ut_syn *n);
static const up_fn *resolve(rctx *r, const up_env *env, const up_file *f, const ut_syn *call,
			    size_t nargs, const up_ty *recv_ty, const up_cls **self, bool *unknown);

static up_ty ty_of(up_ty_kind kind, const up_cls *cls)
{
	up_ty t = {0};

	t.kind = kind;
	t.cls = cls;
	return t;
}

/* Names a driver goes by: driver, webDriver, selenium (pytest-selenium), browser, wd. */
static bool driver_name(const char *s, size_t n)
{
	static const char *const names[] = {"selenium", "browser", "wd", "webdriver", NULL};
	const char *const *p;
	char low[64];
	size_t i;

	if (n == 0 || n >= sizeof(low))
		return false;
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[n] = '\0';
	for (p = names; *p; p++)
		if (strcmp(low, *p) == 0)
			return true;
	return n >= 6 && strcmp(low + n - 6, "driver") == 0;
}

static bool word_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* The type a type name stands for: "po.LoginPage", "List<String>", "WebDriver". */
static up_ty type_named(const up_index *ix, const char *s, size_t n)
{
	size_t end = 0, start;
	const up_cls *k;

	while (end < n && s[end] != '<' && s[end] != '[' && s[end] != '|' && s[end] != '(')
		end++;
	while (end > 0 && isspace((unsigned char)s[end - 1]))
		end--;
	for (start = end;
	     start > 0 && s[start - 1] != '.' && !isspace((unsigned char)s[start - 1]);)
		start--;
	if (start == end)
		return ty_of(UP_TY_UNKNOWN, NULL);
	k = up_index_class(ix, s + start, end - start);
	if (k)
		return ty_of(UP_TY_OBJECT, k);
	if (driver_name(s + start, end - start))
		return ty_of(UP_TY_DRIVER, NULL);
	return ty_of(UP_TY_FOREIGN, NULL);
}

static bool is_findby(const up_file *f, const ut_syn *deco)
{
	static const char *const names[] = {"FindBy",	     "FindAll",	       "FindBys",
					    "AndroidFindBy", "iOSXCUITFindBy", NULL};
	const ut_syn *nm = up_syn_child(deco, UT_R_DECO_NAME);
	const char *s;
	size_t n, i;

	if (!nm)
		return false;
	s = f->src.ptr + nm->start;
	n = nm->end - nm->start;
	for (i = n; i > 0 && s[i - 1] != '.'; i--)
		;
	return up_text_in(f, nm, names) ||
	       (i > 0 && (word_is(s + i, n - i, "FindBy") || word_is(s + i, n - i, "FindAll")));
}

up_ty up_type_declared(const up_index *ix, const up_file *f, const ut_syn *n)
{
	const ut_syn *c, *type = NULL;

	if (n && !up_syn_is(n, UT_R_DECL))
		n = up_syn_parent(n);
	if (!n || !up_syn_is(n, UT_R_DECL))
		return ty_of(UP_TY_UNKNOWN, NULL);
	for (c = up_syn_first(n); c; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_DECO) && is_findby(f, c)) {
			up_ty t = ty_of(UP_TY_ELEMENT, NULL);

			t.file = f;
			t.node = n;
			return t;
		}
		if (up_syn_is(c, UT_R_TYPE) && !type)
			type = c;
	}
	return type ? type_named(ix, f->src.ptr + type->start, type->end - type->start)
		    : ty_of(UP_TY_UNKNOWN, NULL);
}

typedef struct {
	rctx *r;
	const up_const_def *def;
	up_ty t;
} def_typing;

static void run_def_type(void *arg)
{
	def_typing *d = arg;
	up_env scope;

	up_env_init(&scope, NULL, d->def->file, d->def->cls);
	d->t = type_of(d->r, &scope, d->def->file, d->def->value);
	up_env_dispose(&scope);
}

/* The type of a binding's value expression, in the scope it was defined in. */
static up_ty def_type(rctx *r, up_const_def *def)
{
	def_typing d = {r, def, {0}};

	if (!def || !def->value || !up_def_guarded(r->ix->ctx, def, run_def_type, &d))
		return ty_of(UP_TY_UNKNOWN, NULL);
	return d.t;
}

/* A field of cls or of its superclasses: an @FindBy declaration, else the type of what it
 * was set to, else its declared type. */
static up_ty field_type_found(rctx *r, const up_cls *cls, const char *name, size_t nlen)
{
	int guard = 0;

	for (; cls && guard++ < MAX_CHAIN; cls = up_index_super(r->ix, cls)) {
		const ut_syn *decl = ut_map_get(&cls->fields, name, nlen);
		up_const_def *def = ut_map_get(&cls->constants, name, nlen);
		up_ty declared =
		    decl ? up_type_declared(r->ix, cls->file, decl) : ty_of(UP_TY_UNKNOWN, NULL);
		up_ty set;

		if (!decl && !def)
			continue;
		if (declared.kind == UP_TY_ELEMENT) {
			declared.cls = cls;
			return declared;
		}
		set = def_type(r, def);
		return set.kind != UP_TY_UNKNOWN ? set : declared;
	}
	return ty_of(UP_TY_UNKNOWN, NULL);
}

/* A found field type and the type steps it took. */
typedef struct {
	up_ty ty;
	int steps;
} field_memo;

/* field_type_found, kept by a walking lane: every call on a page's field asks again. The
 * answer depends on the class, the name, the definitions being typed (none, when kept or
 * reused) and the steps left: kept when found within them, reused when as many are left,
 * which are then taken, so that the rest of the question finds what it would have. */
static up_ty field_type(rctx *r, const up_cls *cls, const char *name, size_t nlen)
{
	const up_ctx *ctx = r->ix->ctx;
	up_type_memo *m = ctx->types;
	char buf[sizeof(cls) + 128], *key;
	size_t klen = sizeof(cls) + nlen;
	field_memo *fm;
	int start = r->steps;
	up_ty t;

	if (!m || !cls || klen > sizeof(buf) || up_def_busy(ctx))
		return field_type_found(r, cls, name, nlen);
	memcpy(buf, &cls, sizeof(cls));
	memcpy(buf + sizeof(cls), name, nlen);
	fm = ut_map_get(&m->map, buf, klen);
	if (fm && r->steps >= fm->steps) {
		r->steps -= fm->steps;
		return fm->ty;
	}
	t = field_type_found(r, cls, name, nlen);
	if (fm || r->steps < 0)
		return t;
	fm = ut_arena_alloc(&m->arena, sizeof(*fm));
	key = ut_arena_alloc(&m->arena, klen);
	if (fm && key) { /* out of memory: only not kept */
		memcpy(key, buf, klen);
		fm->ty = t;
		fm->steps = start - r->steps;
		(void)ut_map_put(&m->map, key, klen, fm);
	}
	return t;
}

/* The value last assigned to the local that `ret` names before it: d = webdriver.Chrome()
 * ... yield d. */
static const ut_syn *assigned_before(const up_fn *fn, const ut_syn *body, const ut_syn *ret)
{
	const ut_syn *n, *found = NULL;

	for (n = body + 1; n < ret;) {
		const ut_syn *t;

		if (up_syn_is(n, UT_R_FUNC) || up_syn_is(n, UT_R_CLASS)) {
			n += n->size;
			continue;
		}
		if (up_syn_is(n, UT_R_ASSIGN) &&
		    (t = up_syn_child(n, UT_R_ASSIGN_TARGET)) != NULL &&
		    t->end - t->start == ret->end - ret->start &&
		    memcmp(fn->file->src.ptr + t->start, fn->file->src.ptr + ret->start,
			   ret->end - ret->start) == 0)
			found = up_syn_child(n, UT_R_ASSIGN_VALUE);
		n++;
	}
	return found;
}

/* What a function returns: the first of its returned (or yielded) expressions whose type
 * is known, `this` standing for self_cls. */
static up_ty return_type(rctx *r, const up_fn *fn, const up_cls *self_cls)
{
	const ut_syn *body = fn->body, *n, *end;
	up_env scope;
	up_ty t = ty_of(UP_TY_UNKNOWN, NULL);
	int seen = 0;

	if (!body)
		return t;
	up_env_init(&scope, NULL, fn->file, self_cls ? self_cls : fn->cls);
	if (!up_syn_first(body) ||
	    (body->roles & (UT_ROLE(UT_R_CALL) | UT_ROLE(UT_R_MEMBER) | UT_ROLE(UT_R_IDENT)))) {
		t = type_of(r, &scope, fn->file, body); /* an arrow function's expression */
		goto done;
	}
	end = body + body->size;
	for (n = body + 1; n < end && seen < 8;) {
		if (up_syn_is(n, UT_R_FUNC) || up_syn_is(n, UT_R_CLASS)) {
			n += n->size;
			continue;
		}
		if (up_syn_is(n, UT_R_RET)) {
			const ut_syn *local =
			    up_syn_is(n, UT_R_IDENT) ? assigned_before(fn, body, n) : NULL;

			seen++;
			t = type_of(r, &scope, fn->file, local ? local : n);
			if (t.kind != UP_TY_UNKNOWN)
				break;
			n += n->size;
			continue;
		}
		n++;
	}
done:
	up_env_dispose(&scope);
	return t;
}

/* The import statement of f that names `name` (import helpers; import * as h from ...;
 * import page from './login.page'), or NULL. */
static const ut_syn *import_of(const up_file *f, const char *name, size_t nlen)
{
	const ut_syn *c;

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		const char *s = f->src.ptr + c->start, *p;
		size_t len = c->end - c->start;

		if (!up_syn_is(c, UT_R_IMPORT))
			continue;
		for (p = s; (p = memchr(p, name[0], len - (size_t)(p - s))) != NULL; p++) {
			bool before = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
			size_t rest = len - (size_t)(p - s);

			if (rest < nlen)
				break;
			if (before && memcmp(p, name, nlen) == 0 &&
			    (rest == nlen || !(isalnum((unsigned char)p[nlen]) || p[nlen] == '_')))
				return c;
		}
	}
	return NULL;
}

/* The class a name stands for in f: its own, or the one imported under that alias
 * (from pages import LoginPage as LP; import { LoginPage as LP } from './pages'). */
static const up_cls *class_named(rctx *r, const up_file *f, const char *name, size_t nlen)
{
	const up_cls *k = up_index_class(r->ix, name, nlen);
	const ut_syn *imp;
	const char *s, *p, *end;

	if (k || !(imp = import_of(f, name, nlen)))
		return k;
	s = f->src.ptr + imp->start;
	end = f->src.ptr + imp->end;
	for (p = s; p + 4 + nlen <= end; p++) {
		const char *w;

		if (memcmp(p, " as ", 4) != 0 || memcmp(p + 4, name, nlen) != 0)
			continue;
		for (w = p; w > s && (isalnum((unsigned char)w[-1]) || w[-1] == '_');)
			w--;
		if (w < p)
			return up_index_class(r->ix, w, (size_t)(p - w));
	}
	return NULL;
}

/* What a module exports: module.exports = new P() or export default new P() is a P;
 * anything else is the module's functions. */
static up_ty module_exports(rctx *r, const up_file *m)
{
	const ut_syn *c;
	up_ty t = ty_of(UP_TY_MODULE, NULL);

	for (c = up_syn_first(m->tree->root); c; c = up_syn_next(c)) {
		const ut_syn *target = up_syn_child(c, UT_R_ASSIGN_TARGET);
		const char *s = m->src.ptr;
		uint32_t i = c->start;

		if (up_syn_is(c, UT_R_ASSIGN) && target &&
		    up_text_is(m, target, "module.exports")) {
			up_env scope;

			up_env_init(&scope, NULL, m, NULL);
			t = type_of(r, &scope, m, up_syn_child(c, UT_R_ASSIGN_VALUE));
			up_env_dispose(&scope);
			if (t.kind == UP_TY_OBJECT || t.kind == UP_TY_CLASS)
				return t;
		}
		while (i > 0 && isspace((unsigned char)s[i - 1]))
			i--;
		if (up_syn_is(c, UT_R_NEW) && i >= 7 && memcmp(s + i - 7, "default", 7) == 0)
			return type_of(r, NULL, m, c);
	}
	t = ty_of(UP_TY_MODULE, NULL);
	t.file = m;
	t.node = m->tree->root;
	return t;
}

/* The file a module path ('./pages/login.page', "../helpers") names, by its base name. */
static up_ty module_at(rctx *r, const char *path, size_t n)
{
	size_t i, base;

	for (base = n; base > 0 && path[base - 1] != '/'; base--)
		;
	for (i = 0; i < r->ix->files.n; i++) {
		const up_file *m = r->ix->files.v[i];
		const char *rel = m->rel, *slash = strrchr(rel, '/'), *dot;

		rel = slash ? slash + 1 : rel;
		dot = strrchr(rel, '.');
		if (m->lang == UT_LANG_PYTHON || m->lang == UT_LANG_JAVA || !dot)
			continue;
		if ((size_t)(dot - rel) == n - base && memcmp(rel, path + base, n - base) == 0)
			return module_exports(r, m);
	}
	return ty_of(UP_TY_MODULE, NULL);
}

/* The module path in a require(...) call or an import statement: its last string. */
static up_ty module_named_in(rctx *r, const up_file *f, const ut_syn *n)
{
	const char *s = f->src.ptr + n->start, *q, *open;
	size_t len = n->end - n->start;

	for (q = s + len; q > s && q[-1] != '\'' && q[-1] != '"';)
		q--;
	if (q == s)
		return ty_of(UP_TY_MODULE, NULL);
	for (open = q - 1; open > s && open[-1] != q[-1];)
		open--;
	return open > s ? module_at(r, open, (size_t)(q - 1 - open)) : ty_of(UP_TY_MODULE, NULL);
}

/* How near a fixture defined in file `def` is to a test in file `use`: 0 when not visible
 * (a module's fixtures are its own; a conftest.py's are its folder's), higher when nearer. */
static size_t fixture_rank(const up_file *def, const up_file *use)
{
	const char *slash = strrchr(def->rel, '/');
	size_t dir = slash ? (size_t)(slash - def->rel) : 0;

	if (def == use)
		return (size_t)-1;
	if (strcmp(slash ? slash + 1 : def->rel, "conftest.py") != 0)
		return 0;
	if (dir && (strncmp(use->rel, def->rel, dir) != 0 || use->rel[dir] != '/'))
		return 0;
	return dir + 1;
}

static up_ty ident_type(rctx *r, const up_env *env, const up_file *f, const char *name, size_t nlen)
{
	const up_binding *b = up_env_find(env, name, nlen);
	const up_cls *k;
	const up_fn *fn;
	up_ty t;

	if (b) {
		if (b->ty.kind != UP_TY_UNKNOWN)
			return b->ty;
		if (b->val.kind == UP_V_STR)
			return ty_of(UP_TY_FOREIGN, NULL);
		if (b->val.kind == UP_V_NODE && b->val.file) {
			up_env scope;

			up_env_init(&scope, NULL, b->val.file, b->val.cls);
			t = type_of(r, &scope, b->val.file, b->val.node);
			up_env_dispose(&scope);
			if (t.kind != UP_TY_UNKNOWN)
				return t;
		}
		return driver_name(name, nlen) ? ty_of(UP_TY_DRIVER, NULL)
					       : ty_of(UP_TY_UNKNOWN, NULL);
	}
	t = field_type(r, up_env_class(env), name, nlen);
	if (t.kind == UP_TY_UNKNOWN)
		t = def_type(r, ut_map_get(&f->constants, name, nlen));
	if (t.kind == UP_TY_UNKNOWN)
		t = def_type(r, ut_map_get(&r->ix->globals, name, nlen));
	if (t.kind == UP_TY_UNKNOWN) /* let page; beforeEach(() => { page = new P(driver); }) */
		t = def_type(r, ut_map_get(&f->assigned, name, nlen));
	if (t.kind != UP_TY_UNKNOWN)
		return t;
	k = class_named(r, f, name, nlen);
	if (k)
		return ty_of(UP_TY_CLASS, k);
	/* a test's parameter is what the pytest fixture of that name returns: the one of
	 * its module, else of the nearest conftest.py above it */
	{
		const up_fn *best = NULL;
		size_t best_rank = 0;

		for (fn = up_index_fn(r->ix, name, nlen); fn; fn = fn->next_same_name) {
			size_t rank = fn->is_fixture ? fixture_rank(fn->file, f) : 0;

			if (rank > best_rank) {
				best = fn;
				best_rank = rank;
			}
		}
		t = best ? return_type(r, best, NULL) : ty_of(UP_TY_UNKNOWN, NULL);
		if (t.kind != UP_TY_UNKNOWN)
			return t;
	}
	if (driver_name(name, nlen))
		return ty_of(UP_TY_DRIVER, NULL);
	{
		const ut_syn *imp = import_of(f, name, nlen);

		if (imp)
			return f->lang == UT_LANG_PYTHON ? ty_of(UP_TY_MODULE, NULL)
							 : module_named_in(r, f, imp);
	}
	return ty_of(UP_TY_UNKNOWN, NULL);
}

static up_ty member_type(rctx *r, const up_env *env, const up_file *f, const ut_syn *n)
{
	const ut_syn *obj = up_syn_child(n, UT_R_MEMBER_OBJ);
	const ut_syn *prop = up_syn_child(n, UT_R_MEMBER_PROP);
	const char *pname;
	size_t plen;
	up_ty ot, t = ty_of(UP_TY_UNKNOWN, NULL);

	if (!obj || !prop)
		return t;
	pname = f->src.ptr + prop->start;
	plen = prop->end - prop->start;
	ot = type_of(r, env, f, obj);
	if (ot.kind == UP_TY_UNKNOWN && up_text_is(f, obj, "this")) /* mocha's shared context */
		t = def_type(r, ut_map_get(&f->assigned, f->src.ptr + n->start, n->end - n->start));
	else if (ot.kind == UP_TY_OBJECT || ot.kind == UP_TY_CLASS)
		t = field_type(r, ot.cls, pname, plen);
	else if (ot.kind == UP_TY_MODULE)
		t = def_type(r, ut_map_get(&r->ix->globals, pname, plen));
	else if (ot.kind == UP_TY_DRIVER || ot.kind == UP_TY_FOREIGN)
		return ty_of(UP_TY_FOREIGN, NULL);
	if (t.kind == UP_TY_UNKNOWN && ot.kind != UP_TY_OBJECT) {
		const up_cls *k = up_index_class(r->ix, pname, plen); /* pages.LoginPage */

		if (k)
			return ty_of(UP_TY_CLASS, k);
	}
	if (t.kind == UP_TY_UNKNOWN && driver_name(pname, plen))
		return ty_of(UP_TY_DRIVER, NULL); /* page.driver, self.driver, this.driver */
	return t;
}

static bool recv_last_is(const up_file *f, const ut_syn *recv, const char *word)
{
	const char *s = f->src.ptr + recv->start;
	size_t n = recv->end - recv->start, i;

	for (i = n; i > 0 && s[i - 1] != '.'; i--)
		;
	return word_is(s + i, n - i, word);
}

/* PageFactory.initElements(driver, LoginPage.class) builds a LoginPage. */
static up_ty class_argument(rctx *r, const up_file *f, const ut_syn *call)
{
	const ut_syn *args = up_call_args(call);
	const ut_syn *ref = args ? up_syn_find(args, UT_R_CLASSREF, UT_ROLE(UT_R_CALL)) : NULL;
	const char *s;
	size_t n;

	if (!ref)
		return ty_of(UP_TY_UNKNOWN, NULL);
	s = f->src.ptr + ref->start;
	n = ref->end - ref->start;
	if (n > 6 && memcmp(s + n - 6, ".class", 6) == 0)
		n -= 6;
	return type_named(r->ix, s, n);
}

static up_ty call_type(rctx *r, const up_env *env, const up_file *f, const ut_syn *call)
{
	static const char *const builtins[] = {
	    "dict",	   "list",    "set",	"str",	  "tuple",  "frozenset", "OrderedDict",
	    "defaultdict", "Counter", "String", "Number", "Object", "Array",	 NULL};
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);
	const char *name;
	size_t nlen;
	const up_cls *self = NULL;
	const up_fn *fn;
	bool unknown = false;
	up_ty rt = ty_of(UP_TY_UNKNOWN, NULL);
	char buf[256];

	if (!nm)
		return rt;
	name = f->src.ptr + nm->start;
	nlen = nm->end - nm->start;
	if (up_syn_is(call, UT_R_NEW)) {
		const up_cls *k = class_named(r, f, name, nlen); /* new LP(driver), LP an alias */

		return k ? ty_of(UP_TY_OBJECT, k) : type_named(r->ix, name, nlen);
	}
	if (!recv) {
		const up_cls *k = class_named(r, f, name, nlen);

		if (k)
			return ty_of(UP_TY_OBJECT, k); /* Python: LoginPage(driver) */
		if (word_is(name, nlen, "require"))
			return module_named_in(r, f, call);
		if (up_text_in(f, nm, builtins))
			return ty_of(UP_TY_FOREIGN, NULL);
	} else {
		if (recv_last_is(f, recv, "webdriver") && isupper((unsigned char)name[0]))
			return ty_of(UP_TY_DRIVER, NULL); /* webdriver.Chrome(options=...) */
		if (word_is(name, nlen, "build") &&
		    strstr(up_compact_text_buf(r->ix, f, recv, buf, sizeof(buf)), "Builder"))
			return ty_of(UP_TY_DRIVER, NULL); /* new Builder().forBrowser(..).build() */
		if (word_is(name, nlen, "initElements"))
			return class_argument(r, f, call);
		rt = type_of(r, env, f, recv);
		if (rt.kind == UP_TY_MODULE || rt.kind == UP_TY_UNKNOWN) {
			const up_cls *k = up_index_class(r->ix, name, nlen);

			if (k)
				return ty_of(UP_TY_OBJECT, k); /* pages.LoginPage(driver) */
		}
		if (rt.kind == UP_TY_ELEMENT && word_is(name, nlen, "get"))
			return rt; /* one of an @FindAll list's elements */
		if (rt.kind == UP_TY_DRIVER || rt.kind == UP_TY_FOREIGN || rt.kind == UP_TY_ELEMENT)
			return ty_of(UP_TY_FOREIGN, NULL);
	}
	fn = resolve(r, env, f, call, up_call_nargs(call), recv ? &rt : NULL, &self, &unknown);
	rt = fn ? return_type(r, fn, self) : ty_of(UP_TY_UNKNOWN, NULL);
	/* getDriver(), get_driver(), DriverFactory.driver() of a base class outside the sources */
	if (rt.kind == UP_TY_UNKNOWN && driver_name(name, nlen))
		return ty_of(UP_TY_DRIVER, NULL);
	return rt;
}

static bool starts_literal(const up_file *f, const ut_syn *n)
{
	char c = n->end > n->start ? f->src.ptr[n->start] : '\0';

	return c == '{' || c == '[' || c == '"' || c == '\'' || c == '`' ||
	       isdigit((unsigned char)c);
}

static up_ty type_of(rctx *r, const up_env *env, const up_file *f, const ut_syn *n)
{
	up_ty unknown = ty_of(UP_TY_UNKNOWN, NULL);

	if (!n || --r->steps < 0)
		return unknown;
	if (up_is_self(f, n)) {
		const up_cls *k = up_env_class(env);

		return k ? ty_of(UP_TY_OBJECT, k) : unknown;
	}
	if (up_text_is(f, n, "super"))
		return ty_of(UP_TY_OBJECT, up_index_super(r->ix, up_env_class(env)));
	if (up_syn_is(n, UT_R_CALL))
		return call_type(r, env, f, n);
	if (up_syn_is(n, UT_R_IDENT))
		return ident_type(r, env, f, f->src.ptr + n->start, n->end - n->start);
	if (up_syn_is(n, UT_R_MEMBER))
		return member_type(r, env, f, n);
	if (up_syn_is(n, UT_R_STR) || up_syn_is(n, UT_R_NUM) || up_syn_is(n, UT_R_CONCAT) ||
	    up_syn_is(n, UT_R_SEQ))
		return ty_of(UP_TY_FOREIGN, NULL);
	if (starts_literal(f, n)) {
		/* a JavaScript object literal holds functions; a dict or list holds none */
		up_ty t =
		    ty_of(f->lang == UT_LANG_PYTHON || f->src.ptr[n->start] != '{' ? UP_TY_FOREIGN
										   : UP_TY_MODULE,
			  NULL);

		if (t.kind == UP_TY_MODULE) {
			t.file = f;
			t.node = n;
		}
		return t;
	}
	{
		/* parentheses and one-operand wrappers (await, casts) stand for their operand */
		const ut_syn *c, *only = NULL;
		int count = 0;

		for (c = up_syn_first(n); c; c = up_syn_next(c))
			if (!up_syn_is(c, UT_R_TYPE)) {
				only = c;
				count++;
			}
		return count == 1 ? type_of(r, env, f, only) : unknown;
	}
}

up_ty up_type_of(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n)
{
	rctx r;

	r.ix = ix;
	r.steps = MAX_TYPE_STEPS;
	return type_of(&r, env, f, n);
}

/* A method is defined directly in its class's body; any other function is a module's. */
static bool is_method(const up_fn *fn)
{
	return fn->cls && up_syn_parent(fn->node) == fn->cls->node;
}

/* Of the functions named `name` that `accept` takes, the one whose parameters fit nargs
 * best (the same count, else the first that takes more). */
typedef bool (*fn_filter)(const up_fn *fn, const void *arg);

static const up_fn *best_fn(const up_index *ix, const char *name, size_t nlen, size_t nargs,
			    fn_filter accept, const void *arg)
{
	const up_fn *fn, *best = NULL;

	for (fn = up_index_fn(ix, name, nlen); fn; fn = fn->next_same_name) {
		size_t np = fn->nparams - up_fn_self_params(fn);

		if (fn->is_test || !fn->body || !accept(fn, arg))
			continue;
		if (np == nargs)
			return fn;
		if (!best && np >= nargs)
			best = fn;
	}
	return best;
}

static bool in_class(const up_fn *fn, const void *cls)
{
	return fn->cls == cls && is_method(fn);
}

static bool module_level(const up_fn *fn, const void *scope)
{
	const up_ty *t = scope;

	if (is_method(fn))
		return false;
	return !t || !t->file ||
	       (fn->file == t->file && fn->node->start >= t->node->start &&
		fn->node->end <= t->node->end);
}

static bool any_fn(const up_fn *fn, const void *arg)
{
	(void)arg;
	(void)fn;
	return true;
}

/* The nearest definition up the inheritance chain: an override wins. */
static const up_fn *method_in_chain(const up_index *ix, const up_cls *cls, const char *name,
				    size_t nlen, size_t nargs)
{
	int guard = 0;

	for (; cls && guard++ < MAX_CHAIN; cls = up_index_super(ix, cls)) {
		const up_fn *fn = best_fn(ix, name, nlen, nargs, in_class, cls);

		if (fn)
			return fn;
	}
	return NULL;
}

/* import static a.b.Helper.login; or import static a.b.Helper.*; */
static const up_fn *static_import(const up_index *ix, const up_file *f, const char *name,
				  size_t nlen, size_t nargs)
{
	const ut_syn *c;
	char buf[256];

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		const char *t, *end, *dot;
		const up_cls *k;

		if (!up_syn_is(c, UT_R_IMPORT))
			continue;
		t = up_compact_text_buf(ix, f, c, buf, sizeof(buf));
		if (strncmp(t, "importstatic", 12) != 0 || !(end = strrchr(t, '.')))
			continue;
		if (!(strncmp(end + 1, "*;", 2) == 0 ||
		      (strncmp(end + 1, name, nlen) == 0 && end[1 + nlen] == ';')))
			continue;
		for (dot = end; dot > t && dot[-1] != '.'; dot--)
			;
		k = up_index_class(ix, dot, (size_t)(end - dot));
		if (k)
			return method_in_chain(ix, k, name, nlen, nargs);
	}
	return NULL;
}

static const up_fn *resolve(rctx *r, const up_env *env, const up_file *f, const ut_syn *call,
			    size_t nargs, const up_ty *recv_ty, const up_cls **self, bool *unknown)
{
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);
	const char *name;
	size_t nlen;
	const up_fn *fn = NULL;
	up_ty t;

	*self = NULL;
	*unknown = false;
	if (!nm)
		return NULL;
	name = f->src.ptr + nm->start;
	nlen = nm->end - nm->start;
	if (!recv) {
		const up_cls *k;

		/* a bare call in Java is a method of the class, an outer class or a static
		 * import; elsewhere a function of a module */
		if (f->lang == UT_LANG_JAVA) {
			for (k = up_env_class(env); k && !fn; k = k->outer)
				if ((fn = method_in_chain(r->ix, k, name, nlen, nargs)) != NULL)
					*self = k;
			if (!fn)
				fn = static_import(r->ix, f, name, nlen, nargs);
		}
		if (!fn)
			fn = best_fn(r->ix, name, nlen, nargs, module_level, NULL);
		if (fn && !*self)
			*self = fn->cls;
		return fn;
	}
	t = recv_ty ? *recv_ty : type_of(r, env, f, recv);
	switch (t.kind) {
	case UP_TY_OBJECT:
	case UP_TY_CLASS:
		fn = method_in_chain(r->ix, t.cls, name, nlen, nargs);
		/* super.m() runs in this object; otherwise `this` is the receiver */
		*self = up_text_is(f, recv, "super") ? up_env_class(env) : t.cls;
		break;
	case UP_TY_MODULE:
		fn = best_fn(r->ix, name, nlen, nargs, module_level, &t);
		*self = fn ? fn->cls : NULL;
		break;
	case UP_TY_UNKNOWN:
		*unknown = best_fn(r->ix, name, nlen, nargs, any_fn, NULL) != NULL;
		break;
	default:
		break;
	}
	return fn;
}

const up_fn *up_resolve_call(const up_index *ix, const up_env *env, const up_file *f,
			     const ut_syn *call, size_t nargs, const up_ty *recv_ty,
			     const up_cls **self, bool *unknown)
{
	rctx r;

	r.ix = ix;
	r.steps = MAX_TYPE_STEPS;
	return resolve(&r, env, f, call, nargs, recv_ty, self, unknown);
}
