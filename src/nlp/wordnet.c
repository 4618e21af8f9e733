/* wordnet.c: the libwordnet adapter; the only file that includes wn.h. */
#include "nlp/wordnet.h"

#include <stdio.h>
#include <wn.h>

#include "util/banned.h"

const char *ut_wordnet_version(void)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "WordNet %s", wnrelease ? wnrelease : "?");
	return buf;
}

bool ut_wordnet_available(void)
{
	static int state = -1;

	if (state < 0)
		state = wninit() == 0;
	return state == 1;
}
