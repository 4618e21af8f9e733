/* nlp.h: NLP on test names (thesis 5.2.2.2): words, verb, read/write class, direct
 * object and nouns of a name, and the verb/dobj/noun filters on candidate edges. */
#ifndef UT_NLP_H
#define UT_NLP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

typedef enum { UT_VERB_UNKNOWN, UT_VERB_READ, UT_VERB_WRITE } ut_verb_class;

/* The three filter configurations of thesis 5.2.2.2. */
typedef enum { UT_NLP_VERB, UT_NLP_DOBJ, UT_NLP_NOUN } ut_nlp_config;

typedef enum { UT_NLP_TAG_OTHER, UT_NLP_TAG_VERB, UT_NLP_TAG_NOUN, UT_NLP_TAG_ADJ } ut_nlp_tag;

/* The CRUD verbs that Wu-Palmer similarity compares a verb with, in this order. */
enum { UT_NLP_CREATE, UT_NLP_READ, UT_NLP_UPDATE, UT_NLP_DELETE, UT_NLP_NCRUD };

typedef struct ut_nlp ut_nlp;

typedef struct {
	const char *text;  /* the word as split from the name, lower case */
	const char *lemma; /* its base form for its tag ("boards" -> "board"); for a word
			    * WordNet does not know, the word or its singular ("todos" ->
			    * "todo") */
	ut_nlp_tag tag;	   /* the name's verb (both words of "log in") is VERB; other words
			    * are NOUN when WordNet has them as nouns (an adjective that is
			    * also a noun is ADJ before a noun: "duplicate user") or does
			    * not know them at all (domain words such as "todo"), else ADJ,
			    * else VERB, else OTHER; stop words are OTHER */
	bool in_wordnet;   /* WordNet knows the word as some part of speech */
	const char *stop;  /* why the word is ignored, or NULL: "stop word", "number",
			    * "in every suite name" */
} ut_nlp_token;

/* The analysis of one name. Every pointer is borrowed from the ut_nlp that made it and
 * stays valid until ut_nlp_free(). */
typedef struct {
	const char *name;
	ut_nlp_token *tokens;
	size_t ntokens;
	const char *verb;	  /* lemma of the name's verb ("add", "log in"), or NULL */
	size_t verb_at;		  /* its first token */
	size_t verb_words;	  /* its number of tokens: 2 for "log in", 0 without a verb */
	ut_verb_class verb_class; /* UNKNOWN when there is no verb or WordNet ties */
	const char *verb_reason;  /* why: "lexicon: 'log in' is a read verb", the Wu-Palmer
				   * scores, or "no verb in the name"; never NULL */
	double wup[UT_NLP_NCRUD]; /* Wu-Palmer similarity to create/read/update/delete when
				   * WordNet classified the verb, else all -1 */
	const char *dobj;	  /* direct object: the last noun of the noun phrase right
				   * after the verb ("adds a work board" -> "board";
				   * "addListToBoard" -> "list"), or NULL */
	const char **nouns;	  /* distinct noun lemmas of the name, in order, verb excluded */
	size_t nnouns;
} ut_name_info;

/*
 * Opens WordNet (once per process) and makes an analyzer with the built-in web-verb
 * lexicon plus the user's verbs (config nlp.read_verbs / nlp.write_verbs: base forms or
 * two-word phrasal verbs such as "sign in"; case, '-' and '_' do not matter). The user's
 * verbs win over the built-in ones. *out belongs to the caller (ut_nlp_free).
 * Returns 0; UT_EENV when the WordNet data files are missing; UT_EINPUT when a user verb
 * is empty, has more than two words or is in both lists; UT_ENOMEM.
 *
 * Neither an analyzer nor WordNet is thread-safe: use them from one thread at a time.
 * Lookups are cached per word, verb and name, so analyzing the names of a suite reads
 * WordNet about once per distinct word.
 */
int ut_nlp_new(ut_nlp **out, const char *const *read_verbs, size_t nread,
	       const char *const *write_verbs, size_t nwrite);
/* The thesis' classifier alone, for comparison (tests/bench/nlp): no lexicon, every
 * verb classified by Wu-Palmer similarity. Same returns as ut_nlp_new(). */
int ut_nlp_new_wordnet_only(ut_nlp **out);
/* Accepts NULL. */
void ut_nlp_free(ut_nlp *nlp);

/*
 * Tells the analyzer every name of the suite. With 3 or more names, a word found in
 * every name (a describe title, a class prefix) is a stop word at its first occurrence
 * in each name ("Boards counts the boards" keeps its second "boards"). With fewer names
 * nothing is common by chance, so the call only clears the list. Names analyzed before
 * are analyzed again on their next ut_nlp_analyze() (their old infos stay valid).
 * Returns 0 or UT_ENOMEM.
 */
int ut_nlp_set_suite_names(ut_nlp *nlp, const char *const *names, size_t n);

/*
 * Analyzes a test name (an identifier such as "addListToBoardTest" or
 * "test_add_list_to_board", or a title such as "adds a list to a board"):
 * splits it into words, marks stop words, tags each word with WordNet, picks the verb
 * and classifies it, finds the direct object and the nouns. The verb is the first
 * lexicon verb of the name (a two-word phrasal verb when the next word is its particle);
 * a later one when the first word is a noun followed by a subject-verb form
 * ("orderHistoryDisplaysOrders" -> display) or is an assertion verb followed by an
 * action ("verifyUserCanDeleteBoard" -> delete); in given/when/then names the "when"
 * part is searched first. Without a lexicon verb, the first WordNet verb is classified
 * by Wu-Palmer similarity to create/read/update/delete (read counts READ, the others
 * WRITE; a tie is UNKNOWN).
 * *out is borrowed from nlp (valid until ut_nlp_free); the same name gives the same
 * pointer; NULL is analyzed as "". Returns 0 or UT_ENOMEM.
 */
int ut_nlp_analyze(ut_nlp *nlp, const char *name, const ut_name_info **out);

/*
 * Whether configuration `cfg` filters the candidate edge dependent -> dependee (the
 * dependent runs later and needs the dependee), as thesis 5.2.2.2 defines it:
 *   verb: drop read-after-read and write-after-read (the dependee's verb is READ and
 *         the dependent's is READ or WRITE); keep read-after-write and write-after-write;
 *   dobj: also drop read/write-after-write when both names have a direct object and the
 *         two differ;
 *   noun: also drop read/write-after-write when both names have nouns and share none
 *         (this configuration does not look at direct objects).
 * An UNKNOWN verb on either side is no verdict: the edge is kept. So is a missing
 * direct object or a name without nouns. When reason is not NULL, a human-readable
 * reason for the verdict, kept or dropped, is written to it (truncated to reasonsz).
 */
bool ut_nlp_drops(ut_nlp_config cfg, const ut_name_info *dependent, const ut_name_info *dependee,
		  char *reason, size_t reasonsz);

/* "unknown", "read", "write" */
const char *ut_verb_class_name(ut_verb_class c);
/* "verb", "dobj", "noun" */
const char *ut_nlp_config_name(ut_nlp_config cfg);
/* Parses "verb", "dobj" or "noun"; 0, or UT_EINPUT with a message naming the value. */
int ut_nlp_config_parse(const char *s, ut_nlp_config *out);
/* "other", "verb", "noun", "adjective" */
const char *ut_nlp_tag_name(ut_nlp_tag tag);

/* Appends to `out` the explanation printed by `untangle candidates --explain-name`:
 * the words with their tags, lemmas and stop reasons, the verb with its class and why,
 * the direct object and the nouns, one item per line. Returns 0 or UT_ENOMEM. */
int ut_nlp_explain(const ut_name_info *info, ut_buf *out);

#endif
