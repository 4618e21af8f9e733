/* wordnet.h: the NLP stage's dictionary (WordNet 3.0 through libwordnet). */
#ifndef UT_WORDNET_H
#define UT_WORDNET_H

#include <stdbool.h>
#include <stddef.h>

/* Parts of speech, usable as a bit mask. */
enum { UT_WN_NOUN = 1, UT_WN_VERB = 2, UT_WN_ADJ = 4, UT_WN_ADV = 8 };

/* Longest word or collocation (words joined by '_') looked up; longer ones are not in
 * WordNet as far as these functions are concerned (libwordnet has fixed buffers). */
#define UT_WN_MAXWORD 63

/* libwordnet keeps its state in globals (open files, static result buffers), and so do
 * the caches of this adapter, so none of these functions is thread-safe: use WordNet
 * from one thread at a time per process. */

/* "WordNet 3.0" */
const char *ut_wordnet_version(void);
/* Opens the WordNet database once per process; false when its data files are missing.
 * For speed, opening also copies the index files and the verb data into memory (about
 * 10 MB, plus a table of the 155,000 lemmas and the exception lists: some 30 MB in all,
 * 40 ms), which stay until the process ends: lookups then make no system calls. */
bool ut_wordnet_available(void);
/* Like ut_wordnet_available(), as a return code: 0, or UT_EENV with a message naming
 * the data folder (WNSEARCHDIR or the compiled-in default) and the package to install. */
int ut_wordnet_open(void);

/* The lemma of `word` (lower case, no spaces) as part of speech `pos` (one UT_WN_*
 * value): the word itself when WordNet lists it as that part of speech, else the first
 * base form that WordNet's morphology (morphstr) finds ("boards" -> "board", "added" ->
 * "add"). Writes it to out (NUL-terminated; truncated to outsz) and returns 1; returns 0
 * when the word is not in WordNet as `pos`. The database must be open. */
int ut_wordnet_lemma(const char *word, int pos, char *out, size_t outsz);

/* How many senses the lemma `word` has as part of speech `pos`; 0 when none. */
int ut_wordnet_senses(const char *word, int pos);

/* Wu-Palmer similarity of two verb lemmas (collocations joined by '_', such as
 * "log_in"): the largest 2 * depth(lcs) / (depth(a) + depth(b)) over every pair of
 * their senses and every pair of those senses' hypernym paths, with depths counted in
 * synsets from one virtual root above WordNet's verb hierarchies (so the root has depth
 * 1 and any two verbs score above 0). Returns a value in (0, 1], or -1 when either word
 * is not a WordNet verb. The database must be open. */
double ut_wordnet_wup_verb(const char *a, const char *b);

#endif
