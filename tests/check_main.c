/* check_main.c: runs every Check suite of libuntangle. */
#include <check.h>
#include <stdlib.h>

Suite *util_suite(void);
Suite *config_suite(void);
Suite *parse_suite(void);
Suite *pytest_suite(void);
Suite *java_suite(void);
Suite *junit_suite(void);
Suite *process_suite(void);
Suite *runner_suite(void);
Suite *nlp_suite(void);
Suite *graph_suite(void);
Suite *shard_suite(void);
Suite *solver_suite(void);
Suite *minimize_suite(void);
Suite *report_suite(void);
Suite *check_suite(void);
Suite *git_suite(void);
Suite *detect_suite(void);
Suite *project_suite(void);
Suite *detect_sim_suite(void);
Suite *collect_suite(void);
Suite *store_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(util_suite());
	int failed;

	srunner_add_suite(sr, config_suite());
	srunner_add_suite(sr, parse_suite());
	srunner_add_suite(sr, pytest_suite());
	srunner_add_suite(sr, java_suite());
	srunner_add_suite(sr, junit_suite());
	srunner_add_suite(sr, process_suite());
	srunner_add_suite(sr, runner_suite());
	srunner_add_suite(sr, nlp_suite());
	srunner_add_suite(sr, graph_suite());
	srunner_add_suite(sr, shard_suite());
	srunner_add_suite(sr, solver_suite());
	srunner_add_suite(sr, minimize_suite());
	srunner_add_suite(sr, report_suite());
	srunner_add_suite(sr, check_suite());
	srunner_add_suite(sr, git_suite());
	srunner_add_suite(sr, detect_suite());
	srunner_add_suite(sr, project_suite());
	srunner_add_suite(sr, detect_sim_suite());
	srunner_add_suite(sr, collect_suite());
	srunner_add_suite(sr, store_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
