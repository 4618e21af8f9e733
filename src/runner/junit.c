/* junit.c: the expat adapter; the only file that includes expat's header. expat is a
 * streaming parser: reports of any size are read in bounded memory, and it has no
 * network or entity-expansion features to switch off. */
#include "runner/junit.h"

#include <expat.h>

#include "util/banned.h"

const char *ut_junit_xml_version(void)
{
	return XML_ExpatVersion();
}
