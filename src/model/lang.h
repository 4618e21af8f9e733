/* lang.h: the languages untangle reads. */
#ifndef UT_LANG_H
#define UT_LANG_H

#include <stdbool.h>

typedef enum {
	UT_LANG_JAVA,
	UT_LANG_PYTHON,
	UT_LANG_JAVASCRIPT,
	UT_LANG_TYPESCRIPT,
	UT_LANG_TSX,
	UT_LANG__COUNT,
	UT_LANG_NONE = -1
} ut_lang;

/* "java", "python", "javascript", "typescript" ("typescript" for TSX too). */
const char *ut_lang_name(ut_lang lang);
/* The language of a file name by its extension, UT_LANG_NONE when not a source we read. */
ut_lang ut_lang_of_path(const char *path);
/* "java" -> UT_LANG_JAVA ...; "js" and "ts" are accepted; UT_LANG_NONE when unknown. */
ut_lang ut_lang_from_name(const char *name);
/* JavaScript and TypeScript share the test conventions. */
bool ut_lang_is_js(ut_lang lang);

#endif
