/* git.h: the version-control stage (libgit2). */
#ifndef UT_GIT_H
#define UT_GIT_H

/* "libgit2 1.5.1" */
const char *ut_git_version(void);

#endif
