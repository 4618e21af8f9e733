/* glob.h: the one file-pattern matcher (mocha's spec globs, Surefire's includes). */
#ifndef UT_GLOB_H
#define UT_GLOB_H

#include <stdbool.h>

/* Whether path matches pattern, as mocha's glob (minimatch) and Ant (Surefire) match:
 * "**" as a whole name stands for any number of whole folders (none too; at the end, for
 * everything below), inside a name it is a '*'; '*' for any text within one name, '?' for one character but '/', "[...]" for one of a class ("[!...]" or "[^...]" for
 * one not in it, "a-z" ranges), "{a,b}" for either alternative. Recursion is bounded: a
 * pathological pattern fails to match rather than runs long. */
bool ut_glob_match(const char *pattern, const char *path);

#endif
