/* fuzz_json.c: libFuzzer target on the JSON readers a user or a previous run hands untangle:
 * the first byte picks one (0 untangle.json, 1 graph.json, 2 a findings file), the rest is
 * the document. Seeds: tests/fuzz/seeds/fuzz_json. Besides the sanitizers it checks that a
 * refusal always has a message naming the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "graph/graph.h"
#include "graph/graph_json.h"
#include "report/findings.h"
#include "report/report.h"
#include "util/error.h"

#include "load_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1;
	ut_findings fs;
	ut_graph *g = NULL;
	int rc;

	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		rc = load_config(data + 1, size - 1, NULL);
		break;
	case 1:
		rc = ut_graph_read_json(&g, text, size - 1, "fuzz.json");
		ut_graph_free(g);
		break;
	default:
		ut_findings_init(&fs);
		rc = ut_report_json_read(&fs, text, size - 1, "fuzz.json");
		ut_findings_dispose(&fs);
		break;
	}
	if (rc < 0 && rc != UT_ENOMEM && !strstr(ut_error_message(), "json"))
		abort();
	return 0;
}
