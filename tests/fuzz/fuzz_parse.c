/* fuzz_parse.c: libFuzzer target on ut_parse_buffer. The first byte picks the language,
 * the rest is the file. Every input must parse or be refused with warnings that name the
 * file, never crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/lang.h"
#include "model/suite.h"
#include "parse/parse.h"
#include "util/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
	ut_lang lang;
	const char *name;
} langs[] = {
	{UT_LANG_JAVA, "src/test/java/FuzzTest.java"},
	{UT_LANG_PYTHON, "tests/test_fuzz.py"},
	{UT_LANG_JAVASCRIPT, "test/fuzz.spec.js"},
	{UT_LANG_TYPESCRIPT, "test/fuzz.spec.ts"},
	{UT_LANG_TSX, "test/fuzz.spec.tsx"},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ut_suite *suite = NULL;
	ut_diags diags;
	size_t i, pick;

	if (size < 1)
		return 0;
	pick = data[0] % (sizeof(langs) / sizeof(langs[0]));
	ut_diags_init(&diags);
	(void)ut_parse_buffer(&suite, langs[pick].lang, langs[pick].name, (const char *)data + 1,
			      size - 1, &diags);
	/* the contract: every diagnostic about an input names its file and says something */
	for (i = 0; i < diags.items.n; i++)
		if (!diags.items.v[i].file || !diags.items.v[i].message ||
		    !diags.items.v[i].message[0])
			abort();
	ut_suite_free(suite);
	ut_diags_dispose(&diags);
	return 0;
}
