/* pytest_ini.c: the project's pytest configuration, found and read as pytest 7 and 8 do
 * (_pytest/config/findpaths.py locate_config, iniconfig, tomllib, getini's "args" type),
 * and the collection rules it sets (python_files, python_classes, python_functions,
 * norecursedirs, testpaths). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "parse/pytest_ini.h"

#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define UT_PYTEST_INI_MAX (1u << 20) /* larger ini files are not read */

/* the options read; the others are pytest's business */
enum { O_FILES, O_CLASSES, O_FUNCTIONS, O_NORECURSE, O_TESTPATHS, O_ADDOPTS, O__COUNT };
static const char *const option_names[O__COUNT] = {
	"python_files", "python_classes", "python_functions", "norecursedirs", "testpaths",
	"addopts"};

typedef struct {
	bool set[O__COUNT];
	ut_pytest_list v[O__COUNT];
} options;

static int option_of(const char *key, size_t n)
{
	int i;

	for (i = 0; i < O__COUNT; i++)
		if (strlen(option_names[i]) == n && memcmp(option_names[i], key, n) == 0)
			return i;
	return -1;
}

static int push(ut_arena *a, ut_pytest_list *l, const char *s, size_t n)
{
	char *c = ut_arena_strndup(a, s, n);

	if (!c || ut_vec_push(l, c) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

/* shlex.split (POSIX mode, no comments): getini's "args" type for a string value */
static int shlex_split(ut_arena *a, ut_pytest_list *out, const char *s, size_t n)
{
	ut_buf w = UT_BUF_INIT;
	size_t i = 0;
	int rc = 0;

	while (i < n && rc == 0) {
		bool word = false;

		while (i < n && strchr(" \t\r\n", s[i]))
			i++;
		ut_buf_clear(&w);
		while (i < n && !strchr(" \t\r\n", s[i])) {
			char q = s[i];

			word = true;
			if (q == '\'' || q == '"') {
				for (i++; i < n && s[i] != q; i++) {
					if (q == '"' && s[i] == '\\' && i + 1 < n &&
					    strchr("\\\"$`\n", s[i + 1]))
						i++;
					ut_buf_putc(&w, s[i]);
				}
				i++; /* the closing quote */
			} else if (q == '\\' && i + 1 < n) {
				ut_buf_putc(&w, s[i + 1]);
				i += 2;
			} else {
				ut_buf_putc(&w, q);
				i++;
			}
		}
		if (word)
			rc = w.failed ? ut_error_set(UT_ENOMEM, "out of memory")
				      : push(a, out, w.ptr ? w.ptr : "", w.len);
	}
	ut_buf_dispose(&w);
	return rc;
}

static void set_option(options *o, int opt)
{
	o->set[opt] = true;
	o->v[opt].n = 0; /* a later key wins, as in a dict */
}

/* iniconfig: [section], `key = value` or `key: value`, indented continuation lines
 * (joined with newlines), whole-line comments (# ;). Returns whether the section is in
 * the file; its options in o. */
static int read_ini(ut_arena *a, const char *text, size_t len, const char *section, options *o,
		    bool *found)
{
	size_t pos = 0;
	bool in = false;
	int opt = -1, rc = 0;
	ut_buf value = UT_BUF_INIT;

	*found = false;
	while (pos <= len && rc == 0) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos, k = 0;

		pos += n + 1;
		while (n && strchr(" \t\r", s[n - 1]))
			n--;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k == n || s[k] == '#' || s[k] == ';')
			continue;
		if (k > 0) { /* a continuation of the value being read */
			if (in && opt >= 0) {
				ut_buf_putc(&value, '\n');
				ut_buf_put(&value, s + k, n - k);
			}
			continue;
		}
		if (in && opt >= 0) /* the previous value is complete */
			rc = shlex_split(a, &o->v[opt], value.ptr ? value.ptr : "", value.len);
		opt = -1;
		ut_buf_clear(&value);
		if (s[0] == '[') {
			size_t e = 1;

			while (e < n && !strchr("#;]", s[e]))
				e++;
			in = e < n && s[e] == ']' && e - 1 == strlen(section) &&
			     memcmp(s + 1, section, e - 1) == 0;
			*found = *found || in;
		} else if (in) {
			const char *eq = memchr(s, '=', n), *colon = memchr(s, ':', n);
			size_t kl;

			if (eq && colon && colon < eq)
				eq = NULL; /* "name: value" with a colon before any '=' */
			if (!eq && colon)
				eq = colon;
			if (!eq)
				continue;
			kl = (size_t)(eq - s);
			while (kl && strchr(" \t", s[kl - 1]))
				kl--;
			opt = option_of(s, kl);
			if (opt >= 0) {
				set_option(o, opt);
				ut_buf_put(&value, eq + 1, n - (size_t)(eq + 1 - s));
			}
		}
	}
	if (rc == 0 && in && opt >= 0)
		rc = shlex_split(a, &o->v[opt], value.ptr ? value.ptr : "", value.len);
	if (rc == 0 && value.failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	ut_buf_dispose(&value);
	return rc;
}

/* One TOML string at s[*i] (basic or literal, one line); its text in w. */
static bool toml_string(const char *s, size_t n, size_t *i, ut_buf *w)
{
	char q = s[*i];

	ut_buf_clear(w);
	for ((*i)++; *i < n && s[*i] != q && s[*i] != '\n'; (*i)++) {
		if (q == '"' && s[*i] == '\\' && *i + 1 < n) {
			char e = s[++*i];

			ut_buf_putc(w, e == 'n' ? '\n' : e == 't' ? '\t' : e);
		} else {
			ut_buf_putc(w, s[*i]);
		}
	}
	if (*i >= n || s[*i] != q)
		return false;
	(*i)++;
	return true;
}

static void toml_skip(const char *s, size_t n, size_t *i)
{
	while (*i < n) {
		if (s[*i] == '#')
			while (*i < n && s[*i] != '\n')
				(*i)++;
		else if (strchr(" \t\r\n,", s[*i]))
			(*i)++;
		else
			break;
	}
}

/* The [tool.pytest.ini_options] table of a pyproject.toml: strings (shlex-split, as
 * getini does), arrays of strings, and other scalars as their text. */
static int read_toml(ut_arena *a, const char *s, size_t n, options *o, bool *found)
{
	size_t i = 0;
	bool in = false;
	ut_buf w = UT_BUF_INIT;
	int rc = 0;

	*found = false;
	while (i < n && rc == 0) {
		size_t ks, ke;
		int opt;

		while (i < n && strchr(" \t\r\n", s[i]))
			i++;
		if (i >= n)
			break;
		if (s[i] == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (s[i] == '[') { /* a table header: spaces inside do not count */
			ut_buf_clear(&w);
			for (i++; i < n && s[i] != ']' && s[i] != '\n'; i++)
				if (s[i] != ' ' && s[i] != '\t' && s[i] != '"')
					ut_buf_putc(&w, s[i]);
			in = w.ptr && w.len == 23 &&
			     memcmp(w.ptr, "tool.pytest.ini_options", 23) == 0;
			*found = *found || in;
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		ks = i;
		while (i < n && s[i] != '=' && s[i] != '\n')
			i++;
		if (i >= n || s[i] != '=')
			continue;
		ke = i++;
		while (ke > ks && strchr(" \t\"'", s[ke - 1]))
			ke--;
		while (ks < ke && strchr("\"'", s[ks]))
			ks++;
		opt = in ? option_of(s + ks, ke - ks) : -1;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (opt >= 0)
			set_option(o, opt);
		if (i < n && s[i] == '[') { /* an array, maybe over several lines */
			for (i++, toml_skip(s, n, &i); i < n && s[i] != ']'; toml_skip(s, n, &i)) {
				if (s[i] == '"' || s[i] == '\'') {
					if (!toml_string(s, n, &i, &w))
						break;
					if (opt >= 0)
						rc = push(a, &o->v[opt], w.ptr ? w.ptr : "", w.len);
				} else {
					i++;
				}
			}
		} else if (i < n && (s[i] == '"' || s[i] == '\'')) {
			if (toml_string(s, n, &i, &w) && opt >= 0)
				rc = shlex_split(a, &o->v[opt], w.ptr ? w.ptr : "", w.len);
		} else if (opt >= 0) {
			size_t vs = i;

			while (i < n && s[i] != '\n' && s[i] != '#')
				i++;
			rc = shlex_split(a, &o->v[opt], s + vs, i - vs);
		}
		while (i < n && s[i] != '\n')
			i++;
	}
	if (rc == 0 && w.failed)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	ut_buf_dispose(&w);
	return rc;
}

static const char *const config_names[] = {"pytest.ini", ".pytest.ini", "pyproject.toml",
					   "tox.ini", "setup.cfg", NULL};

/* load_config_dict_from_file: whether path is pytest's configuration; its options in o */
static int load_file(ut_arena *a, const char *path, const char *name, options *o, bool *found,
		     ut_diags *diags)
{
	ut_buf text = UT_BUF_INIT;
	int rc = ut_fs_read(&text, path, UT_PYTEST_INI_MAX);
	const char *t;

	*found = false;
	if (rc < 0) {
		if (rc == UT_ENOMEM)
			return rc;
		ut_diags_add(diags, UT_DIAG_WARNING, path, 0,
			     "pytest's configuration cannot be read: %s", ut_error_message());
		return 0;
	}
	t = text.ptr ? text.ptr : "";
	if (strcmp(name, "pyproject.toml") == 0)
		rc = read_toml(a, t, text.len, o, found);
	else
		rc = read_ini(a, t, text.len,
			      strcmp(name, "setup.cfg") == 0 ? "tool:pytest" : "pytest", o, found);
	if (rc == 0 && strcmp(name, "pytest.ini") == 0)
		*found = true; /* the source of configuration even when empty */
	ut_buf_dispose(&text);
	return rc;
}

static int set_list(ut_pytest_ini *ini, ut_pytest_list *dst, const options *o, int opt,
		    const char *defaults)
{
	if (o->set[opt]) {
		size_t i;

		for (i = 0; i < o->v[opt].n; i++)
			if (ut_vec_push(dst, o->v[opt].v[i]) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		return 0;
	}
	return shlex_split(&ini->arena, dst, defaults, strlen(defaults));
}

/* addopts the static reading does not follow: selections and plugins */
static void warn_addopts(ut_pytest_ini *ini, const ut_pytest_list *opts, ut_diags *diags)
{
	size_t i;

	for (i = 0; i < opts->n; i++) {
		const char *a = opts->v[i], *next = i + 1 < opts->n ? opts->v[i + 1] : "";

		if (strcmp(a, "--import-mode=importlib") == 0 ||
		    (strcmp(a, "--import-mode") == 0 && strcmp(next, "importlib") == 0))
			ini->import_importlib = true;
		bool sel = strncmp(a, "-k", 2) == 0 || strncmp(a, "-m", 2) == 0 ||
			   strncmp(a, "--deselect", 10) == 0 || strncmp(a, "--ignore", 8) == 0;
		bool plugin = strncmp(a, "-p", 2) == 0 &&
			      strncmp(a[2] ? a + 2 : next, "no:", 3) != 0;
		bool joined = a[2] || a[1] == '-'; /* -kEXPR, --deselect=...: no value after */

		if (sel || plugin)
			ut_diags_add(diags, UT_DIAG_WARNING, ini->inifile, 0,
				     "addopts '%s%s%s' %s: the static reading does not apply it, "
				     "the runner's list does",
				     a, joined ? "" : " ", joined ? "" : next,
				     sel ? "selects tests"
					 : "loads a plugin that may change collection");
	}
}

int ut_pytest_ini_load(ut_pytest_ini *ini, const char *root, ut_diags *diags)
{
	char *real = realpath(root, NULL), *dir;
	options o;
	bool found = false;
	int rc = 0, i;
	size_t len;

	memset(ini, 0, sizeof(*ini));
	memset(&o, 0, sizeof(o));
	ut_arena_init(&ini->arena);
	if (!real)
		real = strdup(root);
	dir = real ? ut_arena_strdup(&ini->arena, real) : NULL;
	free(real);
	if (!dir)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ini->project = ut_arena_strdup(&ini->arena, dir);
	/* from the project's folder up to '/', the first folder with pytest's section */
	for (len = strlen(dir); rc == 0 && !found;) {
		for (i = 0; config_names[i] && rc == 0 && !found; i++) {
			char *p = ut_arena_printf(&ini->arena, "%.*s/%s", (int)len,
						  len == 1 ? "" : dir, config_names[i]);

			if (!p)
				return ut_error_set(UT_ENOMEM, "out of memory");
			if (!ut_fs_exists(p) || ut_fs_is_dir(p))
				continue;
			rc = load_file(&ini->arena, p, config_names[i], &o, &found, diags);
			if (found) {
				ini->inifile = p;
				ini->rootdir = ut_arena_strndup(&ini->arena, dir, len ? len : 1);
			}
		}
		if (len <= 1)
			break;
		while (len > 1 && dir[len - 1] != '/')
			len--;
		if (len > 1)
			len--; /* the parent, without its final '/' */
	}
	ini->root_is_project = ini->rootdir && strcmp(ini->rootdir, ini->project) == 0;
	if (rc == 0)
		rc = set_list(ini, &ini->python_files, &o, O_FILES, "test_*.py *_test.py");
	if (rc == 0)
		rc = set_list(ini, &ini->python_classes, &o, O_CLASSES, "Test");
	if (rc == 0)
		rc = set_list(ini, &ini->python_functions, &o, O_FUNCTIONS, "test");
	if (rc == 0)
		rc = set_list(ini, &ini->norecursedirs, &o, O_NORECURSE,
			      "*.egg .* _darcs build CVS dist node_modules venv {arch}");
	if (rc == 0)
		rc = set_list(ini, &ini->testpaths, &o, O_TESTPATHS, "");
	if (rc == 0 && ini->inifile)
		warn_addopts(ini, &o.v[O_ADDOPTS], diags);
	for (i = 0; i < O__COUNT; i++)
		ut_vec_free(&o.v[i]);
	return rc;
}

void ut_pytest_ini_dispose(ut_pytest_ini *ini)
{
	ut_vec_free(&ini->python_files);
	ut_vec_free(&ini->python_classes);
	ut_vec_free(&ini->python_functions);
	ut_vec_free(&ini->norecursedirs);
	ut_vec_free(&ini->testpaths);
	ut_vec_free(&ini->args);
	ut_arena_dispose(&ini->arena);
}

/* _pytest.pathlib.fnmatch_ex: a pattern without '/' against the name, else against the
 * whole path ("*" + "/" + pattern when relative) */
static bool fnmatch_ex(const ut_pytest_ini *ini, const char *pattern, const char *rel)
{
	char full[PATH_MAX + 2], pat[PATH_MAX + 2];
	int n;

	if (!strchr(pattern, '/'))
		return fnmatch(pattern, ut_path_basename(rel), FNM_NOESCAPE) == 0;
	n = snprintf(full, sizeof(full), "%s/%s", ini->project, rel);
	if (n < 0 || (size_t)n >= sizeof(full))
		return false;
	n = snprintf(pat, sizeof(pat), "%s%s", pattern[0] == '/' ? "" : "*/", pattern);
	if (n < 0 || (size_t)n >= sizeof(pat))
		return false;
	return fnmatch(pat, full, FNM_NOESCAPE) == 0;
}

bool ut_pytest_ini_test_file(const ut_pytest_ini *ini, const char *rel)
{
	size_t i;

	for (i = 0; i < ini->python_files.n; i++)
		if (fnmatch_ex(ini, ini->python_files.v[i], rel))
			return true;
	return false;
}

/* _pytest.main._in_venv: a folder with an activate script in bin/ or Scripts/ */
static bool in_venv(const char *rel)
{
	static const char *const scripts[] = {"bin/activate", "bin/activate.csh",
					      "bin/activate.fish", "Scripts/activate",
					      "Scripts/activate.bat", "Scripts/Activate.ps1", NULL};
	char p[PATH_MAX];
	size_t i;

	for (i = 0; scripts[i]; i++) {
		int n = snprintf(p, sizeof(p), "%s/%s", rel, scripts[i]);

		if (n > 0 && (size_t)n < sizeof(p) && ut_fs_exists(p))
			return true;
	}
	return false;
}

bool ut_pytest_ini_skip_dir(const ut_pytest_ini *ini, const char *rel)
{
	size_t i;

	if (strcmp(ut_path_basename(rel), "__pycache__") == 0 || in_venv(rel))
		return true;
	for (i = 0; i < ini->norecursedirs.n; i++)
		if (fnmatch_ex(ini, ini->norecursedirs.v[i],
			       ut_path_relative(rel, ini->root ? ini->root : ".")))
			return true;
	return false;
}

/* PyCollector._matches_prefix_or_glob_option */
static bool prefix_or_glob(const ut_pytest_list *l, const char *name, size_t n)
{
	char buf[256];
	size_t i;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, name, n);
	buf[n] = '\0';
	for (i = 0; i < l->n; i++) {
		const char *o = l->v[i];

		if (strncmp(buf, o, strlen(o)) == 0)
			return true;
		if (strpbrk(o, "*?[") && fnmatch(o, buf, FNM_NOESCAPE) == 0)
			return true;
	}
	return false;
}

bool ut_pytest_ini_function(const ut_pytest_ini *ini, const char *name)
{
	return prefix_or_glob(&ini->python_functions, name, strlen(name));
}

bool ut_pytest_ini_class(const ut_pytest_ini *ini, const char *name, size_t n)
{
	return prefix_or_glob(&ini->python_classes, name, n);
}

int ut_pytest_ini_args(ut_pytest_ini *ini, const char *root, const char *const *paths,
		       size_t npaths)
{
	size_t i, k;
	int rc = 0;

	ini->root = root;
	for (i = 0; i < npaths && rc == 0; i++)
		rc = push(&ini->arena, &ini->args, paths[i], strlen(paths[i]));
	for (i = 0; !npaths && ini->root_is_project && i < ini->testpaths.n && rc == 0; i++) {
		const char *tp = ini->testpaths.v[i];
		char *j = ut_path_join(root, tp);
		glob_t g;

		if (!j)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (!strpbrk(tp, "*?[")) { /* glob.iglob: the path when it exists */
			if (ut_fs_exists(j))
				rc = push(&ini->arena, &ini->args, j, strlen(j));
		} else if (glob(j, 0, NULL, &g) == 0) {
			for (k = 0; k < g.gl_pathc && rc == 0; k++)
				rc = push(&ini->arena, &ini->args, g.gl_pathv[k],
					  strlen(g.gl_pathv[k]));
			globfree(&g);
		}
		free(j);
	}
	if (rc == 0 && !ini->args.n) /* the project's folder */
		rc = push(&ini->arena, &ini->args, root, strlen(root));
	return rc;
}

int ut_pytest_ini_arg_of(const ut_pytest_ini *ini, const char *path)
{
	size_t i;

	for (i = 0; i < ini->args.n; i++) {
		const char *arg = ini->args.v[i];
		size_t n = strlen(arg), k;
		char dir[PATH_MAX];
		bool skipped = false;

		if (!ut_path_under(path, arg))
			continue;
		if (strcmp(path, arg) == 0)
			return (int)i; /* an initial path: collected whatever its name */
		if (strcmp(arg, ".") == 0)
			n = 0;
		while (n && arg[n - 1] == '/')
			n--;
		/* the folders between the arg and the file */
		for (k = n ? n + 1 : 0; path[k] && !skipped; k++)
			if (path[k] == '/' && k < sizeof(dir)) {
				memcpy(dir, path, k);
				dir[k] = '\0';
				skipped = ut_pytest_ini_skip_dir(ini, dir);
			}
		if (skipped)
			continue;
		return ut_pytest_ini_test_file(ini, ut_path_relative(path, ini->root)) ? (int)i
											: -1;
	}
	return -1;
}
