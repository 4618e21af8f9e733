/* internal.h: what the files of the NLP stage share; not part of its API (see nlp.h). */
#ifndef UT_NLP_INTERNAL_H
#define UT_NLP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "nlp/nlp.h"
#include "nlp/wordnet.h"
#include "util/arena.h"
#include "util/map.h"

/* Words of one name: at most UT_NLP_MAXWORDS, each at most UT_NLP_MAXWORDLEN bytes
 * (longer words are cut; words past the limit are ignored). */
#define UT_NLP_MAXWORDS 64
#define UT_NLP_MAXWORDLEN UT_WN_MAXWORD

typedef struct {
	char w[UT_NLP_MAXWORDS][UT_NLP_MAXWORDLEN + 1];
	size_t n;
} ut_nlp_words;

/* Splits an identifier or a title into lower-case words: at every character that is
 * not a letter or digit, between a lower-case and an upper-case letter, before the
 * last capital of a run followed by lower case ("URLTest" -> url, test; a plural
 * acronym stays whole: "URLsTest" -> urls, test), and between letters and digits.
 * An apostrophe and the letters after it are dropped ("user's" -> user, "doesn't" ->
 * doesn). Bytes >= 0x80 count as letters. */
void ut_nlp_split(const char *name, ut_nlp_words *out);

/* A group of the built-in web-verb lexicon: base forms or two-word phrases with one
 * space ("log in"), all of class `cls`. Weak verbs are assertion verbs ("verify",
 * "check"): one is the name's verb only when no other lexicon verb follows it. */
typedef struct {
	const char *const *verbs;
	size_t n;
	ut_verb_class cls;
	bool weak;
} ut_nlp_lexgroup;

/* Whether a lexicon verb (base form) is one of the built-in creating verbs. */
bool ut_nlp_lexicon_creates(const char *verb);
/* Whether `word` (a noun lemma or a word of the name after the verb) makes the read verb
 * `verb` a write: "open" an account, "take" a quiz, "log out" of every device. */
bool ut_nlp_lexicon_object_writes(const char *verb, const char *word);
const ut_nlp_lexgroup *ut_nlp_lexicon(size_t *ngroups);

/* Word classes of the built-in lists. */
typedef enum {
	UT_NLP_WORD = 0,   /* an ordinary word */
	UT_NLP_STOPWORD,   /* a stop word: function words, modals, "test", "should" */
	UT_NLP_DETERMINER, /* a stop word that may open a noun phrase: a, the, my, all */
	UT_NLP_PARTICLE	   /* a stop word that may end a phrasal verb: in, out, up */
} ut_nlp_wordclass;

ut_nlp_wordclass ut_nlp_wordclass_of(const char *word);

/* A verb of the analyzer's lexicon: built in or from the user's lists. */
typedef struct {
	const char *verb; /* "add", "log in" */
	ut_verb_class cls;
	bool weak;
	bool user;	    /* from nlp.read_verbs or nlp.write_verbs */
	const char *reason; /* "lexicon: 'log in' is a read verb" */
} ut_nlp_lexverb;

/* What the analyzer knows about one word; looked up once and cached. */
typedef struct {
	const char *text;
	const char *noun, *verb, *adj; /* WordNet lemmas, or NULL */
	bool adv;		       /* WordNet knows it as an adverb */
	const char *plain; /* the word, or for one WordNet does not know its singular ("todos") */
	int noun_senses, verb_senses;
	ut_nlp_wordclass wclass;
	const char *stop;     /* "stop word", "number" or NULL (suite words aside) */
	const char *bases[4]; /* the word and its base forms, tried against the lexicon */
	size_t nbases;
	const ut_nlp_lexverb *lex; /* the lexicon verb of the word or a base form, or NULL */
	bool inflected;		   /* lex, or else verb, came from an -s/-ed/-ing form */
} ut_nlp_word;

/* A verb classified by Wu-Palmer similarity to the CRUD verbs. */
typedef struct {
	ut_verb_class cls;
	const char *reason;
	double wup[UT_NLP_NCRUD];
} ut_nlp_wnverb;

struct ut_nlp {
	ut_arena arena; /* every string and info handed out */
	ut_map lexicon; /* verb or "verb particle" -> ut_nlp_lexverb */
	ut_map words;	/* word -> ut_nlp_word */
	ut_map wnverbs; /* WordNet verb lemma -> ut_nlp_wnverb */
	ut_map names;	/* name -> ut_name_info */
	ut_map suite;	/* word found in every suite name -> itself */
	bool rules;	/* the rules beyond the thesis' WordNet-only classifier: objects that
			 * make a read verb write ("openAccount"), and negative tests
			 * ("guestCannotCheckout") read */
};

/* The cached facts about `text` (a word, or a WordNet collocation such as "log_in").
 * *out is borrowed from nlp. 0 or UT_ENOMEM. */
int ut_nlp_word_get(ut_nlp *nlp, const char *text, const ut_nlp_word **out);
/* The lexicon verb `key` ("add", "log in"), or NULL. */
const ut_nlp_lexverb *ut_nlp_lexicon_find(const ut_nlp *nlp, const char *key);
/* The Wu-Palmer class of a WordNet verb lemma, cached. 0 or UT_ENOMEM. */
int ut_nlp_wnverb_get(ut_nlp *nlp, const char *lemma, const ut_nlp_wnverb **out);
/* Analyzes a name that is not in the cache (analyze.c). 0 or UT_ENOMEM. */
int ut_nlp_analyze_name(ut_nlp *nlp, const char *name, ut_name_info **out);

#endif
