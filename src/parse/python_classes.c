/* python_classes.c: Python classes as the interpreter sees them, for collection: bases
 * resolved across modules, the method resolution order (C3), attribute lookup along it,
 * and the names a `from m import a, b as c` brings into a module. */
#include <stdio.h>
#include <string.h>

#include "parse/python.h"
#include "util/fs.h"
#include "util/banned.h"

#define MAX_BASES 8

typedef struct {
	const up_cls *v[UT_PY_MAX_MRO];
	size_t n;
} clist;

/* Is the text of a base, its last dotted segment, `name`? (unittest.TestCase) */
static bool base_named(const up_file *f, const ut_syn *b, const char *name)
{
	size_t len = b->end - b->start, nlen = strlen(name);
	const char *s = f->src.ptr + b->start;

	return len >= nlen && memcmp(s + len - nlen, name, nlen) == 0 &&
	       (len == nlen || s[len - nlen - 1] == '.');
}

/* The file a dotted module name stands for: its last segment is the file's base name. */
static bool module_is(const up_file *f, const char *mod, size_t n)
{
	const char *base = ut_path_basename(f->rel), *dot = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (mod[i] == '.')
			dot = mod + i;
	if (dot) {
		n -= (size_t)(dot + 1 - mod);
		mod = dot + 1;
	}
	if (strcmp(base, "__init__.py") == 0)
		return n > 0; /* a package: its folder would have to match; accept */
	return strlen(base) == n + 3 && memcmp(base, mod, n) == 0 && strcmp(base + n, ".py") == 0;
}

/* The class a name in file f stands for: one of f's own, else one of another Python file
 * (from `mod` when known). NULL for classes outside the suite. */
static const up_cls *class_named(const up_index *ix, const up_file *f, const char *name, size_t n,
				 const char *mod, size_t modlen, const up_cls *skip)
{
	const up_cls *k, *other = NULL;

	for (k = up_index_class(ix, name, n); k; k = k->next_same_name) {
		if (k == skip || k->file->lang != UT_LANG_PYTHON || k->outer)
			continue;
		if (mod ? module_is(k->file, mod, modlen) : k->file == f)
			return k;
		if (!other)
			other = k;
	}
	return other;
}

/* The class `from m import C as name` brings into f, or NULL. */
static const up_cls *imported_class(const up_index *ix, const up_file *f, const char *name,
				    size_t n)
{
	ut_py_import imps[UT_PY_MAX_IMPORTS];
	const ut_syn *c;
	int i, got;

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		if (!up_syn_is(c, UT_R_IMPORT))
			continue;
		got = up_py_imports(ix, f, c, imps, UT_PY_MAX_IMPORTS);
		for (i = 0; i < got; i++)
			if (imps[i].cls && imps[i].nlen == n && memcmp(imps[i].name, name, n) == 0)
				return imps[i].cls;
	}
	return NULL;
}

/* A base's class: the module's own, else the one it imports under that name, else any. */
static const up_cls *base_class(const up_index *ix, const up_cls *k, const char *name, size_t n)
{
	const up_cls *base = class_named(ix, k->file, name, n, NULL, 0, k), *imp;

	if (!base || base->file != k->file) {
		imp = imported_class(ix, k->file, name, n);
		if (imp && imp != k)
			base = imp;
	}
	return base;
}

static size_t bases_of(const up_index *ix, const up_cls *k, const up_cls **out)
{
	const ut_syn *c;
	size_t n = 0;

	for (c = up_syn_first(k->node); c && n < MAX_BASES; c = up_syn_next(c)) {
		const ut_syn *b = c;
		const up_cls *base;

		if (!up_syn_is(c, UT_R_CLASS_SUPER) || up_syn_is(c, UT_R_ARG_KW))
			continue;
		/* a.b.C: the class is C */
		if (up_syn_is(b, UT_R_MEMBER) && up_syn_child(b, UT_R_MEMBER_PROP))
			b = up_syn_child(b, UT_R_MEMBER_PROP);
		base = base_class(ix, k, k->file->src.ptr + b->start, b->end - b->start);
		if (base)
			out[n++] = base;
	}
	return n;
}

static bool in_tail(const clist *l, size_t from, const up_cls *k)
{
	size_t i;

	for (i = from + 1; i < l->n; i++)
		if (l->v[i] == k)
			return true;
	return false;
}

static bool listed(const clist *l, const up_cls *k)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == k)
			return true;
	return false;
}

/* C3: k, then the merge of its bases' orders and the list of bases. An inconsistent
 * hierarchy (Python refuses it) falls back to depth-first order. */
static void linearize(const up_index *ix, const up_cls *k, clist *out, int depth)
{
	clist seqs[MAX_BASES + 1];
	const up_cls *bases[MAX_BASES];
	size_t nb, pos[MAX_BASES + 1] = {0}, i, j;

	out->n = 0;
	out->v[out->n++] = k;
	if (depth > 16)
		return;
	nb = bases_of(ix, k, bases);
	for (i = 0; i < nb; i++)
		linearize(ix, bases[i], &seqs[i], depth + 1);
	seqs[nb].n = nb;
	for (i = 0; i < nb; i++)
		seqs[nb].v[i] = bases[i];
	while (out->n < UT_PY_MAX_MRO) {
		const up_cls *head = NULL;

		for (i = 0; i <= nb && !head; i++) {
			if (pos[i] >= seqs[i].n)
				continue;
			head = seqs[i].v[pos[i]];
			for (j = 0; j <= nb && head; j++)
				if (in_tail(&seqs[j], pos[j], head))
					head = NULL;
		}
		if (!head)
			break;
		out->v[out->n++] = head;
		for (i = 0; i <= nb; i++)
			if (pos[i] < seqs[i].n && seqs[i].v[pos[i]] == head)
				pos[i]++;
	}
	for (i = 0; i <= nb; i++) /* left over: inconsistent; depth first for the rest */
		for (j = pos[i]; j < seqs[i].n && out->n < UT_PY_MAX_MRO; j++)
			if (!listed(out, seqs[i].v[j]))
				out->v[out->n++] = seqs[i].v[j];
}

size_t up_py_mro(const up_index *ix, const up_cls *cls, const up_cls **out, size_t max)
{
	clist l;
	size_t i;

	linearize(ix, cls, &l, 0);
	for (i = 0; i < l.n && i < max; i++)
		out[i] = l.v[i];
	return i;
}

/* A base from outside the suite that is a unittest.TestCase: unittest's and the
 * TestCase classes of the libraries Selenium suites build on (Django's *TestCase,
 * SeleniumBase's BaseCase). */
static bool external_testcase(const up_index *ix, const up_cls *k, const ut_syn *b)
{
	const ut_syn *last = b;
	size_t n;

	if (up_syn_is(b, UT_R_MEMBER) && up_syn_child(b, UT_R_MEMBER_PROP))
		last = up_syn_child(b, UT_R_MEMBER_PROP);
	n = last->end - last->start;
	if (base_class(ix, k, k->file->src.ptr + last->start, n))
		return false; /* the suite's own class: its bases decide */
	return base_named(k->file, b, "BaseCase") ||
	       (n >= 8 && memcmp(k->file->src.ptr + last->end - 8, "TestCase", 8) == 0);
}

bool up_py_is_testcase(const up_index *ix, const up_cls *const *mro, size_t n)
{
	size_t i;
	const ut_syn *c;

	for (i = 0; i < n; i++)
		for (c = up_syn_first(mro[i]->node); c; c = up_syn_next(c))
			if (up_syn_is(c, UT_R_CLASS_SUPER) && !up_syn_is(c, UT_R_ARG_KW) &&
			    external_testcase(ix, mro[i], c))
				return true;
	return false;
}

up_fn *up_py_method(const up_index *ix, const up_cls *const *mro, size_t n, const char *name)
{
	size_t i;
	const ut_syn *c;

	for (i = 0; i < n; i++)
		for (c = up_syn_first(mro[i]->node); c; c = up_syn_next(c)) {
			up_fn *fn;

			if (up_syn_is(c, UT_R_FUNC) && (fn = up_index_fn_of(ix, mro[i]->file, c)) &&
			    fn->name && strcmp(fn->name, name) == 0)
				return fn;
		}
	return NULL;
}

/* The top-level function `name` of module mod (another file of the suite), or NULL. */
static up_fn *module_function(const up_index *ix, const up_file *f, const char *name, size_t n,
			      const char *mod, size_t modlen)
{
	up_fn *fn;
	const ut_syn *c;

	for (fn = up_index_fn(ix, name, n); fn; fn = fn->next_same_name) {
		if (fn->cls || fn->file == f || fn->file->lang != UT_LANG_PYTHON ||
		    !module_is(fn->file, mod, modlen))
			continue;
		for (c = up_syn_first(fn->file->tree->root); c; c = up_syn_next(c))
			if (c == fn->node)
				return fn;
	}
	return NULL;
}

static size_t star_classes(const up_index *ix, const up_file *f, const char *mod, size_t modlen,
			   ut_py_import *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < ix->all_classes.n && n < max; i++) {
		const up_cls *k = ix->all_classes.v[i];

		if (k->outer || k->file == f || k->file->lang != UT_LANG_PYTHON ||
		    k->name[0] == '_' || !k->name[0] || !module_is(k->file, mod, modlen))
			continue;
		out[n].cls = k;
		out[n].fn = NULL;
		out[n].name = k->name;
		out[n++].nlen = strlen(k->name);
	}
	return n;
}

int up_py_imports(const up_index *ix, const up_file *f, const ut_syn *imp, ut_py_import *out,
		  size_t max)
{
	const char *s = f->src.ptr + imp->start, *end = f->src.ptr + imp->end, *mod, *p;
	size_t modlen, n = 0;

	if (end - s < 5 || memcmp(s, "from", 4) != 0)
		return 0;
	for (s += 4; s < end && (*s == ' ' || *s == '\t' || *s == '\\' || *s == '\n'); s++)
		;
	mod = s;
	while (s < end && *s != ' ' && *s != '\t' && *s != '\\' && *s != '\n')
		s++;
	modlen = (size_t)(s - mod);
	p = s;
	/* " import " then the names */
	while (p + 6 <= end && memcmp(p, "import", 6) != 0)
		p++;
	if (p + 6 > end)
		return 0;
	p += 6;
	while (p < end && n < max) {
		const char *name, *alias = NULL;
		size_t nlen, alen = 0;

		while (p < end && strchr(" \t\n\r\\(),", *p))
			p++;
		name = p;
		while (p < end && !strchr(" \t\n\r\\(),#", *p))
			p++;
		nlen = (size_t)(p - name);
		while (p < end && strchr(" \t\\", *p))
			p++;
		if (end - p > 3 && memcmp(p, "as", 2) == 0 && strchr(" \t\\", p[2])) {
			for (p += 2; p < end && strchr(" \t\\", *p); p++)
				;
			alias = p;
			while (p < end && !strchr(" \t\n\r\\(),#", *p))
				p++;
			alen = (size_t)(p - alias);
		}
		if (p < end && *p == '#')
			while (p < end && *p != '\n')
				p++;
		if (nlen == 1 && *name == '*' && n < max) {
			/* every public top-level class of the module, in its order */
			n += star_classes(ix, f, mod, modlen, out + n, max - n);
			continue;
		}
		if (!nlen)
			continue;
		out[n].cls = class_named(ix, f, name, nlen, mod, modlen, NULL);
		/* the module's own class is collected where it is defined */
		if (out[n].cls && out[n].cls->file == f)
			out[n].cls = NULL;
		out[n].fn = out[n].cls ? NULL : module_function(ix, f, name, nlen, mod, modlen);
		out[n].name = alias ? alias : name;
		out[n].nlen = alias ? alen : nlen;
		n++;
	}
	return (int)n;
}

const char *up_py_module_name(ut_arena *a, const up_file *f)
{
	const char *base = ut_path_basename(f->path), *start = base;
	const char *end = f->path + strlen(f->path);
	char init[4096];

	if (end - base > 3 && strcmp(end - 3, ".py") == 0)
		end -= 3;
	/* resolve_package_path: up while the folder holds an __init__.py */
	while (start > f->path) {
		const char *dir = start - 1, *up = dir;
		int n;

		while (up > f->path && up[-1] != '/')
			up--;
		n = snprintf(init, sizeof(init), "%.*s/__init__.py", (int)(dir - f->path),
			     f->path);
		if (dir == f->path || n < 0 || (size_t)n >= sizeof(init) || !ut_fs_exists(init))
			break;
		start = up;
	}
	{
		char *name = ut_arena_strndup(a, start, (size_t)(end - start)), *p;

		for (p = name; p && *p; p++)
			if (*p == '/')
				*p = '.';
		return name;
	}
}
