/* banned.h: unbounded string functions are compile errors in untangle's sources. */
#ifndef UT_BANNED_H
#define UT_BANNED_H

#define UT_BANNED(func) sorry_##func##_is_banned_use_ut_buf_or_snprintf

#undef strcpy
#define strcpy(x, y) UT_BANNED(strcpy)
#undef strcat
#define strcat(x, y) UT_BANNED(strcat)
#undef sprintf
#define sprintf(...) UT_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) UT_BANNED(vsprintf)
#undef gets
#define gets(x) UT_BANNED(gets)
#undef atoi
#define atoi(x) UT_BANNED(atoi)
#undef strtok
#define strtok(x, y) UT_BANNED(strtok)

#endif
