/* wordnet.h: the NLP stage's dictionary (WordNet 3.0 through libwordnet). */
#ifndef UT_WORDNET_H
#define UT_WORDNET_H

#include <stdbool.h>

/* "WordNet 3.0" */
const char *ut_wordnet_version(void);
/* Opens the WordNet database once; false when its data files are missing. */
bool ut_wordnet_available(void);

#endif
