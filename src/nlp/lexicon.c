/* lexicon.c: the built-in word lists of the NLP stage: web verbs by read/write, stop words. */
#include <string.h>

#include "nlp/internal.h"
#include "util/banned.h"

/*
 * What a verb means in an end-to-end web test: "read" when the action leaves the
 * application's persistent data as it was (navigating, searching, signing in or out,
 * exporting), "write" when it creates, changes or deletes data (signing up creates an
 * account, checking out places an order). Verbs whose meaning depends on the object
 * ("close" a dialog or an issue, "copy" a link or a file, "reject" a form or a request,
 * "return" to a page or an item, "switch" tabs or plans) are left out on purpose, so
 * that WordNet decides them. Verbs that are mostly nouns in test names ("order",
 * "page") are left out too: they would win over the real verb of the name.
 */
/* signing in and out: sessions, not data */
static const char *const signing[] = {"login",	 "log in",	 "logon",   "log on",  "signin",
				      "sign in", "authenticate", "logout",  "log out", "logoff",
				      "log off", "signout",	 "sign out"};

/* looking at things (and playing media, tracking an order or a shipment) */
static const char *const looking[] = {
    "view",	"show",	  "display",  "render",	   "list",     "open",	   "visit",    "browse",
    "navigate", "go",	  "load",     "reload",	   "refresh",  "read",	   "get",      "fetch",
    "retrieve", "access", "look",     "preview",   "inspect",  "explore",  "scroll",   "zoom",
    "hover",	"expand", "collapse", "highlight", "paginate", "redirect", "land",     "play",
    "pause",	"stream", "listen",   "track",	   "tail",     "jump",	   "spectate", "chart"};

/* finding and taking out */
static const char *const finding[] = {
    "search", "find",	 "filter", "sort",     "query",	 "lookup",   "look up",	  "autocomplete",
    "count",  "compare", "print",  "download", "export", "estimate", "calculate", "reprint"};

/* assertions, and what a test expects to hold ("keeps the cart after reload", "should
 * receive a notification"): the name's verb only when no other lexicon verb follows */
static const char *const asserting[] = {
    "verify", "check", "ensure", "assert", "expect", "validate", "see",	     "appear", "contain",
    "exist",  "match", "keep",	 "remain", "stay",   "persist",	 "remember", "receive"};

/* creating ("new" only as a name's verb: "test_new_list" creates a list; "request" and
 * "confirm" make a request or a booking; "check in" records the guest or passenger) */
static const char *const creating[] = {
    "add",	 "new",	     "create",	  "insert",	"post",	    "submit",	"save",
    "store",	 "register", "signup",	  "sign up",	"enroll",   "enrol",	"join",
    "subscribe", "compose",  "write",	  "draft",	"upload",   "import",	"attach",
    "publish",	 "schedule", "book",	  "reserve",	"place",    "purchase", "buy",
    "pay",	 "checkout", "check out", "donate",	"invite",   "send",	"reply",
    "comment",	 "review",   "rate",	  "vote",	"upvote",   "downvote", "like",
    "unlike",	 "favorite", "favourite", "unfavorite", "bookmark", "star",	"unstar",
    "pin",	 "unpin",    "follow",	  "unfollow",	"block",    "unblock",	"ban",
    "unban",	 "mute",     "unmute",	  "report",	"flag",	    "tag",	"label",
    "mark",	 "clone",    "duplicate", "fork",	"generate", "deploy",	"install",
    "provision", "request",  "confirm",	  "rsvp",	"hire",	    "check in", "checkin",
    "borrow",	 "sell",     "relist",	  "trade",	"tip",	    "appeal",	"claim",
    "forward",	 "opt in",   "opt out",	  "sign off",	"spin up",  "resell",	"log",
    "record"};

/* changing */
static const char *const changing[] = {
    "update",	  "edit",	"modify",    "change",	  "rename",	 "set",	      "set up",
    "reset",	  "configure",	"customize", "customise", "enable",	 "disable",   "activate",
    "deactivate", "toggle",	"upgrade",   "downgrade", "renew",	 "extend",    "rotate",
    "regenerate", "replace",	"apply",     "redeem",	  "complete",	 "resolve",   "reopen",
    "archive",	  "unarchive",	"restore",   "recover",	  "merge",	 "share",     "unshare",
    "assign",	  "unassign",	"move",	     "drag",	  "reorder",	 "link",      "unlink",
    "connect",	  "disconnect", "grant",     "revoke",	  "promote",	 "demote",    "approve",
    "accept",	  "decline",	"transfer",  "deposit",	  "withdraw",	 "refund",    "charge",
    "reschedule", "lock",	"unlock",    "unpublish", "unsubscribe", "sync",      "migrate",
    "crop",	  "resize",	"freeze",    "unfreeze",  "escalate",	 "reinstate", "waive",
    "pair",	  "unpair",	"arm",	     "disarm",	  "equip",	 "unequip",   "snooze",
    "split",	  "refill",	"top up",    "roll back"};

/* deleting */
static const char *const deleting[] = {
    "delete", "remove", "destroy", "drop",  "erase", "purge",	  "discard",   "trash",	   "wipe",
    "clear",  "empty",	"cancel",  "leave", "kick",  "terminate", "uninstall", "tear down"};

/*
 * Verbs whose class depends on their object, with the objects that make them write:
 * opening a page reads but opening an account or a ticket makes a record; taking a tour
 * reads, taking a quiz stores its answers; pausing a video reads, pausing a job or a
 * subscription changes it; receiving a notification is an expectation, receiving stock
 * books it in; listing boards reads, listing a house for sale publishes it; scanning a
 * barcode looks it up, scanning a parcel or a ticket records it; logging out of one
 * browser keeps no data but logging out of every device or session revokes them.
 */
static const char *const opened_records[] = {"account", "ticket",   "case",    "issue", "claim",
					     "dispute", "incident", "request", "bug",	"position",
					     "vacancy", "store",    "shop"};
static const char *const taken_tests[] = {"quiz",	   "exam",	 "examination", "survey",
					  "questionnaire", "assessment", "poll",	"course",
					  "lesson",	   "backup",	 "snapshot"};
static const char *const paused_services[] = {
    "job",     "subscription", "campaign",   "pipeline", "membership", "account",
    "service", "automation",   "deployment", "schedule", "plan",       "cron"};
static const char *const received_goods[] = {"stock",	 "shipment", "inventory", "goods",
					     "delivery", "payment",  "pallet",	  "return"};
static const char *const listed_for[] = {"sale", "rent", "auction"};
static const char *const scanned_items[] = {"package", "parcel", "ticket", "shipment", "pallet"};
/* plural or "everywhere" only: "logout clears the session" is the one browser's */
static const char *const signed_out_of[] = {"devices", "sessions", "everywhere"};

typedef struct {
	const char *verb;
	const char *const *objects;
	size_t n;
} object_rule;

#define RULE(verb, objects)                                                                        \
	{                                                                                          \
		verb, objects, sizeof(objects) / sizeof(*objects)                                  \
	}
static const object_rule object_rules[] = {
    RULE("open", opened_records),   RULE("take", taken_tests),
    RULE("pause", paused_services), RULE("receive", received_goods),
    RULE("list", listed_for),	    RULE("scan", scanned_items),
    RULE("logout", signed_out_of),  RULE("log out", signed_out_of),
    RULE("logoff", signed_out_of),  RULE("log off", signed_out_of),
    RULE("signout", signed_out_of), RULE("sign out", signed_out_of),
};
#undef RULE

static const ut_nlp_lexgroup groups[] = {
    {signing, sizeof(signing) / sizeof(*signing), UT_VERB_READ, false},
    {looking, sizeof(looking) / sizeof(*looking), UT_VERB_READ, false},
    {finding, sizeof(finding) / sizeof(*finding), UT_VERB_READ, false},
    {asserting, sizeof(asserting) / sizeof(*asserting), UT_VERB_READ, true},
    {creating, sizeof(creating) / sizeof(*creating), UT_VERB_WRITE, false},
    {changing, sizeof(changing) / sizeof(*changing), UT_VERB_WRITE, false},
    {deleting, sizeof(deleting) / sizeof(*deleting), UT_VERB_WRITE, false},
};

bool ut_nlp_lexicon_creates(const char *verb)
{
	size_t i;

	for (i = 0; verb && i < sizeof(creating) / sizeof(*creating); i++)
		if (strcmp(verb, creating[i]) == 0)
			return true;
	return false;
}

bool ut_nlp_lexicon_object_writes(const char *verb, const char *word)
{
	size_t i, j;

	for (i = 0; i < sizeof(object_rules) / sizeof(*object_rules); i++)
		if (strcmp(verb, object_rules[i].verb) == 0)
			for (j = 0; j < object_rules[i].n; j++)
				if (strcmp(word, object_rules[i].objects[j]) == 0)
					return true;
	return false;
}

const ut_nlp_lexgroup *ut_nlp_lexicon(size_t *n)
{
	*n = sizeof(groups) / sizeof(groups[0]);
	return groups;
}

/* Words that say nothing about what a test does: the test frameworks' own words
 * (test, spec, should, it), BDD keywords, modals, auxiliaries, pronouns, conjunctions,
 * prepositions, contraction stubs ("doesn" of "doesn't") and filler adverbs. */
static const char *const stopwords[] = {
    "test",	    "tests",	 "testing",  "spec",  "specs",	"e2e",	   "it",      "its",
    "should",	    "shall",	 "must",     "can",   "cannot", "could",   "will",    "would",
    "may",	    "might",	 "when",     "then",  "given",	"and",	   "or",      "but",
    "nor",	    "if",	 "so",	     "than",  "as",	"is",	   "are",     "was",
    "were",	    "be",	 "been",     "being", "am",	"do",	   "does",    "did",
    "done",	    "has",	 "have",     "had",   "having", "not",	   "no",      "to",
    "of",	    "at",	 "by",	     "for",   "from",	"with",	   "without", "into",
    "onto",	    "via",	 "about",    "after", "before", "between", "during",  "under",
    "within",	    "against",	 "upon",     "while", "where",	"which",   "who",     "whom",
    "what",	    "how",	 "why",	     "i",     "me",	"we",	   "us",      "you",
    "he",	    "him",	 "she",	     "they",  "them",	"there",   "here",    "also",
    "just",	    "only",	 "too",	     "very",  "again",	"still",   "yet",     "already",
    "successfully", "correctly", "properly", "doesn", "don",	"isn",	   "aren",    "wasn",
    "weren",	    "hasn",	 "haven",    "hadn",  "didn",	"won",	   "shouldn", "couldn",
    "wouldn",	    "mustn",	 "ain",	     "able",  "unable",
};

static const char *const determiners[] = {
    "a",       "an",	"the",	 "this",    "that", "these", "those", "my",   "your",
    "our",     "their", "his",	 "her",	    "all",  "some",  "any",   "each", "every",
    "another", "both",	"other", "several", "many", "few",   "more",  "most",
};

static const char *const particles[] = {
    "in", "out", "up", "down", "on", "off", "over", "back", "away", "through",
};

static bool in_list(const char *word, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(word, list[i]) == 0)
			return true;
	return false;
}

#define IN(word, list) in_list((word), (list), sizeof(list) / sizeof((list)[0]))

ut_nlp_wordclass ut_nlp_wordclass_of(const char *word)
{
	if (IN(word, particles))
		return UT_NLP_PARTICLE;
	if (IN(word, determiners))
		return UT_NLP_DETERMINER;
	if (IN(word, stopwords))
		return UT_NLP_STOPWORD;
	return UT_NLP_WORD;
}
