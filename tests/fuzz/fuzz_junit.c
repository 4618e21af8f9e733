/* fuzz_junit.c: libFuzzer target on the JUnit XML reader and the test-id matcher. Seeds:
 * tests/fuzz/seeds/fuzz_junit (the reader's fixtures). Besides the sanitizers it checks
 * one invariant: every case read is found again by its own classname#name (or its name). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/junit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ids[] = {
		"tests/test_boards.py::test_add_user", "tests/test_x.py::TestA::test_b[1-2]",
		"boards.AddUserTest#addUserTest", "test/boards.spec.js::Boards adds a user", "::", "#",
		"a::", "::b", "a.py::", "[", "x.py::y[::]"};
	ut_junit *j = NULL;
	char id[8192];
	size_t i;

	if (ut_junit_parse(&j, (const char *)data, size, "fuzz.xml") == 0) {
		for (i = 0; i < ut_junit_count(j); i++) {
			const ut_junit_case *c = ut_junit_case_at(j, i);

			snprintf(id, sizeof(id), "%s%s%s", c->classname, *c->classname ? "#" : "",
				 c->name);
			if (strlen(id) < sizeof(id) - 1 && !ut_junit_match(j, id))
				abort();
		}
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			ut_junit_match(j, ids[i]);
	}
	ut_junit_free(j);
	return 0;
}
