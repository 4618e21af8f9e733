/* local.c: whether a call stays on the machine that runs the tests: the environment, files,
 * processes and threads, logging, the browser's launch options and driver service, the
 * DevTools protocol, an exception's message. Its strings are not values a test gives to or
 * reads from the application, so the action walker does not report them. Anything that can
 * reach the application (HTTP clients, API helpers, the driver, page objects) is not local. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <string.h>

#include "parse/internal.h"
#include "util/banned.h"

#define MAX_FOLLOW 4 /* bindings followed: options = Options(); options.add_argument(...) */

/* Modules of the standard libraries that never talk to the application. */
static const char *const py_modules[] = {
	"os", "sys", "tempfile", "shutil", "pathlib", "logging", "subprocess", "threading",
	"signal", "atexit", "platform", "warnings", "traceback", "glob", "io", "codecs",
	"locale", "getpass", "faulthandler", NULL};
static const char *const py_builtins[] = {"open", "print", NULL};
static const char *const js_modules[] = {
	"fs", "fs/promises", "path", "os", "child_process", "process", "util", "readline",
	"worker_threads", "console", NULL};
static const char *const js_globals[] = {"process", "console", NULL};
static const char *const java_packages[] = {
	"java.io.", "java.nio.", "java.util.logging.", "java.lang.", "org.slf4j.",
	"org.apache.logging.", "org.apache.commons.io.", NULL};
static const char *const java_lang[] = {"System", "Thread", "Runtime", "ProcessBuilder", NULL};
/* The WebDriver libraries' launch configuration: options, services, capabilities. */
static const char *const launch_classes[] = {
	"Options", "ChromeOptions", "FirefoxOptions", "EdgeOptions", "SafariOptions",
	"Service", "ChromeService", "FirefoxService", "EdgeService", "ChromeDriverService",
	"GeckoDriverService", "ServiceBuilder", "DesiredCapabilities", "Capabilities", "Builder",
	"Proxy", "FirefoxProfile", NULL};
/* DevTools protocol commands: method names and parameters, not application data. */
static const char *const cdp_calls[] = {
	"execute_cdp_cmd", "executeCdpCommand", "sendDevToolsCommand", "executeCdp",
	"sendAndGetDevToolsCommand", NULL};

static bool is_js(ut_lang lang)
{
	return lang == UT_LANG_JAVASCRIPT || lang == UT_LANG_TYPESCRIPT || lang == UT_LANG_TSX;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static bool in_list(const char *s, size_t n, const char *const *set)
{
	/* the first letter settles most: every call's names are looked up */
	for (; *set; set++)
		if (n && (*set)[0] == s[0] && strlen(*set) == n && memcmp(*set, s, n) == 0)
			return true;
	return false;
}

static bool has_prefix_in(const char *s, size_t n, const char *const *set)
{
	for (; *set; set++) {
		size_t k = strlen(*set);

		if (n >= k && memcmp(s, *set, k) == 0)
			return true;
	}
	return false;
}

/* Whether one of the dotted names of `chain` (outside brackets) is in set. */
static bool chain_names_in(const char *chain, const char *const *set)
{
	const char *p = chain;
	int nest = 0;

	while (*p) {
		if (*p == '(' || *p == '[') {
			nest++;
			p++;
		} else if (*p == ')' || *p == ']') {
			nest -= nest > 0;
			p++;
		} else if (is_ident(*p)) {
			const char *s = p;

			while (is_ident(*p))
				p++;
			if (!nest && in_list(s, (size_t)(p - s), set))
				return true;
		} else {
			p++;
		}
	}
	return false;
}

/* The first quoted string of s..end, the module of a JavaScript import or require
 * ('node:fs' is 'fs'). Empty when there is none. */
static size_t quoted_module(const char *s, const char *end, const char **mod)
{
	const char *p, *q;

	for (p = s; p < end && *p != '\'' && *p != '"' && *p != '`'; p++)
		;
	if (p == end)
		return 0;
	for (q = p + 1; q < end && *q != *p; q++)
		;
	p++;
	if ((size_t)(q - p) > 5 && memcmp(p, "node:", 5) == 0)
		p += 5;
	*mod = p;
	return (size_t)(q - p);
}

/* A JavaScript `name = require('m')` (or `require('m').x`): what binds a name to a module
 * beside import. Only the value's start is read: a top-level describe, class or
 * module.exports holds the whole file, and every call asks. */
static bool js_require_binding(const up_file *f, const ut_syn *c)
{
	const ut_syn *v = up_syn_is(c, UT_R_ASSIGN) ? up_syn_child(c, UT_R_ASSIGN_VALUE) : NULL;
	const char *p = v ? f->src.ptr + v->start : NULL;

	if (!v)
		return false;
	while (p < f->src.ptr + v->end && (*p == '(' || isspace((unsigned char)*p)))
		p++;
	return (size_t)(f->src.ptr + v->end - p) > 8 && memcmp(p, "require(", 8) == 0;
}

/* The module a top-level import (or JavaScript require) binds `name` from: 'fs',
 * os.path, java.nio.file.Files. Empty when name is not imported. */
static size_t module_of(const up_file *f, const char *name, size_t nlen, const char **mod)
{
	const ut_syn *c;

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		const char *s = f->src.ptr + c->start, *end = f->src.ptr + c->end, *p, *q;
		bool named = false;

		if (!up_syn_is(c, UT_R_IMPORT) && !(is_js(f->lang) && js_require_binding(f, c)))
			continue;
		/* every call asks: the name's first letter is found by memchr, then compared */
		for (p = s; !named && p + nlen <= end &&
			    (p = memchr(p, name[0], (size_t)(end - p) - nlen + 1)) != NULL;
		     p++)
			named = memcmp(p, name, nlen) == 0 && (p == s || !is_ident(p[-1])) &&
				(p + nlen == end || !is_ident(p[nlen]));
		if (!named)
			continue;
		if (is_js(f->lang))
			return quoted_module(s, end, mod);
		if (f->lang == UT_LANG_PYTHON && (size_t)(end - s) > 5 && memcmp(s, "from", 4) == 0)
			p = s + 4;
		else if (f->lang == UT_LANG_PYTHON)
			p = (q = memmem(s, (size_t)(end - s), name, nlen)) ? q : end;
		else
			p = s + 6; /* import */
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (f->lang == UT_LANG_JAVA && (size_t)(end - p) > 7 && memcmp(p, "static ", 7) == 0)
			p += 7;
		for (q = p; q < end && (is_ident(*q) || *q == '.'); q++)
			;
		*mod = p;
		return (size_t)(q - p);
	}
	return 0;
}

/* The module of a JavaScript require('fs') call, empty for any other call. */
static size_t required_module(const up_file *f, const ut_syn *call, const char **mod)
{
	const ut_syn *nm = up_call_name(call), *args = up_call_args(call);

	if (!is_js(f->lang) || !nm || !args || up_call_recv(call) || !up_text_is(f, nm, "require"))
		return 0;
	return quoted_module(f->src.ptr + args->start, f->src.ptr + args->end, mod);
}

/* const { Builder } = require('selenium-webdriver'): a destructuring declaration has no
 * syntax node of its own, so its line is read: the name as a word before require( . */
static size_t js_required_by_line(const up_file *f, const char *name, size_t nlen,
				  const char **mod)
{
	const char *s = f->src.ptr, *end = s + f->src.len, *line;
	size_t i;

	if (!is_js(f->lang))
		return 0;
	for (i = 0; i < f->nrequires; i++) {
		const char *p = s + f->requires[i], *q, *close = memchr(p, ')', (size_t)(end - p));

		for (line = p; line > s && line[-1] != '\n' && line[-1] != ';'; line--)
			;
		for (q = line; q + nlen <= p; q++)
			if (memcmp(q, name, nlen) == 0 && (q == line || !is_ident(q[-1])) &&
			    !is_ident(q[nlen]))
				return quoted_module(p, close ? close : end, mod);
	}
	return 0;
}

static bool module_is_local(ut_lang lang, const char *mod, size_t n)
{
	size_t top = 0;

	if (lang == UT_LANG_JAVA)
		return has_prefix_in(mod, n, java_packages);
	if (is_js(lang))
		return in_list(mod, n, js_modules);
	while (top < n && mod[top] != '.')
		top++;
	return in_list(mod, top, py_modules);
}

static bool module_is_webdriver(const char *mod, size_t n)
{
	return (n >= 8 && memcmp(mod, "selenium", 8) == 0) ||
	       (n >= 19 && memcmp(mod, "org.openqa.selenium", 19) == 0) ||
	       (n >= 11 && memcmp(mod, "webdriverio", 11) == 0);
}

static bool stays_local(const up_index *ix, const up_env *env, const up_file *f,
			const ut_syn *call, int follow);

/* The dotted names of a call: its receiver's, the root's and the method's
 * (webdriver.ChromeOptions(), new Builder().forBrowser('chrome')), written out only when a
 * WebDriver module's launch classes are looked for in them: every call gets here. */
typedef struct {
	const up_index *ix;
	const up_file *f;
	const ut_syn *recv;
	const char *root, *name;
} call_names;

static bool names_launch_class(const call_names *c)
{
	char cbuf[256];

	/* the receiver is a whole expression: its brackets close within it */
	return (c->recv &&
		chain_names_in(up_compact_text_buf(c->ix, c->f, c->recv, cbuf, sizeof(cbuf)),
			       launch_classes)) ||
	       chain_names_in(c->root, launch_classes) || chain_names_in(c->name, launch_classes);
}

/* A module's part in it: a local module, or the WebDriver library's launch configuration. */
static bool module_is_local_for(ut_lang lang, const char *mod, size_t m, const call_names *chain)
{
	return module_is_local(lang, mod, m) ||
	       (module_is_webdriver(mod, m) && names_launch_class(chain));
}

/* Whether the object a chain starts from (root, the name of its leftmost object) is
 * local: imported from such a module, a global of that kind, or a name bound to what a
 * local call made. */
static bool root_is_local(const up_index *ix, const up_env *env, const up_file *f,
			  const char *root, const call_names *chain, bool bare, int follow)
{
	const char *mod = NULL;
	size_t n = strlen(root), m;
	up_val v;

	if (!n || up_index_class(ix, root, n) || up_index_fn(ix, root, n))
		return false;
	v = up_lookup(ix, env, root, n);
	if (v.kind == UP_V_NODE && v.node && up_syn_is(v.node, UT_R_CALL)) {
		up_env scope;
		bool local;

		if ((m = required_module(v.file, v.node, &mod)) != 0)
			return module_is_local_for(v.file->lang, mod, m, chain);
		if (follow >= MAX_FOLLOW)
			return false;
		if (v.file == f)
			return stays_local(ix, env, f, v.node, follow + 1);
		up_env_init(&scope, NULL, v.file, v.cls);
		local = stays_local(ix, &scope, v.file, v.node, follow + 1);
		up_env_dispose(&scope);
		return local;
	}
	if (v.kind != UP_V_NONE)
		return false;
	if ((m = module_of(f, root, n, &mod)) != 0 || (m = js_required_by_line(f, root, n, &mod)) != 0)
		return module_is_local_for(f->lang, mod, m, chain);
	if (f->lang == UT_LANG_PYTHON)
		return bare && in_list(root, n, py_builtins);
	if (is_js(f->lang))
		return in_list(root, n, js_globals);
	return f->lang == UT_LANG_JAVA && in_list(root, n, java_lang);
}

/* The leftmost object of a call chain: Builder in new Builder().forBrowser('chrome'),
 * os in os.environ.get("X"). */
static const ut_syn *chain_root(const ut_syn *n)
{
	int guard;

	for (guard = 0; n && guard < UT_MAX_EVAL_DEPTH; guard++) {
		if (up_syn_is(n, UT_R_CALL))
			n = up_call_recv(n) ? up_call_recv(n) : up_call_name(n);
		else if (up_syn_is(n, UT_R_MEMBER))
			n = up_syn_child(n, UT_R_MEMBER_OBJ);
		else
			return n;
	}
	return NULL;
}

static bool stays_local(const up_index *ix, const up_env *env, const up_file *f,
			const ut_syn *call, int follow)
{
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call), *root;
	char nbuf[128], rbuf[128];
	const char *name, *r;
	call_names chain;
	size_t n, k;

	if (!nm)
		return false;
	name = up_compact_text_buf(ix, f, nm, nbuf, sizeof(nbuf));
	n = strlen(name);
	if (in_list(name, n, cdp_calls))
		return true;
	/* raise ValueError("..."), new IllegalStateException("..."): a message */
	if (!recv && ((n >= 5 && strcmp(name + n - 5, "Error") == 0) ||
		      (n >= 9 && strcmp(name + n - 9, "Exception") == 0)))
		return true;
	if (recv && up_is_self(f, recv))
		return false;
	root = chain_root(recv ? recv : nm);
	r = root ? up_compact_text_buf(ix, f, root, rbuf, sizeof(rbuf)) : "";
	for (k = 0; is_ident(r[k]); k++)
		;
	if (!k || r[k])
		return false; /* a literal, a subscript, a parenthesised expression */
	chain.ix = ix;
	chain.f = f;
	chain.recv = recv;
	chain.root = r;
	chain.name = name;
	return root_is_local(ix, env, f, r, &chain, !recv, follow);
}

bool up_call_stays_local(const up_index *ix, const up_env *env, const up_file *f,
			 const ut_syn *call)
{
	return stays_local(ix, env, f, call, 0);
}
