/* lang.c: language names and file extensions. */
#include "model/lang.h"

#include <string.h>

#include "util/banned.h"

const char *ut_lang_name(ut_lang lang)
{
	switch (lang) {
	case UT_LANG_JAVA: return "java";
	case UT_LANG_PYTHON: return "python";
	case UT_LANG_JAVASCRIPT: return "javascript";
	case UT_LANG_TYPESCRIPT:
	case UT_LANG_TSX: return "typescript";
	default: return "unknown";
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

ut_lang ut_lang_of_path(const char *path)
{
	if (ends_with(path, ".java"))
		return UT_LANG_JAVA;
	if (ends_with(path, ".py"))
		return UT_LANG_PYTHON;
	if (ends_with(path, ".js") || ends_with(path, ".mjs") || ends_with(path, ".cjs") ||
	    ends_with(path, ".jsx"))
		return UT_LANG_JAVASCRIPT;
	if (ends_with(path, ".d.ts"))
		return UT_LANG_NONE;
	if (ends_with(path, ".ts") || ends_with(path, ".mts") || ends_with(path, ".cts"))
		return UT_LANG_TYPESCRIPT;
	if (ends_with(path, ".tsx"))
		return UT_LANG_TSX;
	return UT_LANG_NONE;
}

ut_lang ut_lang_from_name(const char *name)
{
	if (strcmp(name, "java") == 0)
		return UT_LANG_JAVA;
	if (strcmp(name, "python") == 0 || strcmp(name, "py") == 0)
		return UT_LANG_PYTHON;
	if (strcmp(name, "javascript") == 0 || strcmp(name, "js") == 0)
		return UT_LANG_JAVASCRIPT;
	if (strcmp(name, "typescript") == 0 || strcmp(name, "ts") == 0)
		return UT_LANG_TYPESCRIPT;
	return UT_LANG_NONE;
}

bool ut_lang_is_js(ut_lang lang)
{
	return lang == UT_LANG_JAVASCRIPT || lang == UT_LANG_TYPESCRIPT || lang == UT_LANG_TSX;
}
