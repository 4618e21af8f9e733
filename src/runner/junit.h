/* junit.h: reading JUnit XML reports (expat). */
#ifndef UT_JUNIT_H
#define UT_JUNIT_H

/* "expat_2.5.0" */
const char *ut_junit_xml_version(void);

#endif
