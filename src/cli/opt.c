/* opt.c: option parsing and --help, both driven by each command's option table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/banned.h"

/* The table ends with an entry that is UT_OPT_REST without a name or a target. */
static bool is_end(const ut_opt *o)
{
	return o->kind == UT_OPT_REST && !o->long_name && !o->target;
}

static const ut_opt *find_long(const ut_opt *opts, const char *name, size_t len)
{
	for (; !is_end(opts); opts++)
		if (opts->long_name && strlen(opts->long_name) == len &&
		    strncmp(opts->long_name, name, len) == 0)
			return opts;
	return NULL;
}

static const ut_opt *find_short(const ut_opt *opts, char c)
{
	for (; !is_end(opts); opts++)
		if (opts->short_name == c)
			return opts;
	return NULL;
}

static const ut_opt *find_rest(const ut_opt *opts)
{
	for (; !is_end(opts); opts++)
		if (opts->kind == UT_OPT_REST)
			return opts;
	return NULL;
}

static void help(const ut_cli_command *cmd, const ut_opt *all)
{
	const ut_opt *o;

	printf("usage: untangle %s %s\n\n%s\n\noptions:\n", cmd->name, cmd->usage, cmd->summary);
	for (o = all; !is_end(o); o++) {
		char left[64];

		if (o->kind == UT_OPT_REST)
			continue;
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->long_name, o->kind != UT_OPT_FLAG ? " " : "",
			 o->kind != UT_OPT_FLAG ? o->value_name : "");
		printf("  %-28s %s\n", left + (o->short_name ? 0 : 1), o->help);
	}
	printf("\nexit codes: 0 success, 1 the check found a problem, 2 bad usage or input,\n"
	       "3 the environment failed\n");
}

/* 0, or -1 when a list could not grow. */
static int set(const ut_opt *o, const char *value, int argc)
{
	ut_cli_rest *list = o->target;

	if (o->kind == UT_OPT_FLAG) {
		*(bool *)o->target = true;
	} else if (o->kind == UT_OPT_LIST) {
		if (!list->items)
			list->items = calloc((size_t)argc + 1, sizeof(char *));
		if (!list->items)
			return -1;
		list->items[list->n++] = value;
	} else {
		*(const char **)o->target = value;
	}
	return 0;
}

int ut_cli_parse(const ut_cli_command *cmd, const ut_opt *opts, ut_cli_common *common,
		 int argc, char **argv)
{
	ut_opt all[64];
	size_t n = 0, i;
	const ut_opt *rest_opt;
	ut_cli_rest *rest;
	bool only_rest = false;
	int a;

	for (i = 0; opts && !is_end(&opts[i]) &&
		    n < 59; i++)
		all[n++] = opts[i];
	all[n++] = (ut_opt){UT_OPT_FLAG, 0, "json", NULL, "machine output (JSON) on stdout", &common->json};
	all[n++] = (ut_opt){UT_OPT_VALUE, 'C', "dir", "DIR", "run as if started in DIR", &common->dir};
	all[n++] = (ut_opt){UT_OPT_FLAG, 'q', "quiet", NULL, "no progress or warnings on stderr", &common->quiet};
	all[n++] = (ut_opt){UT_OPT_FLAG, 'h', "help", NULL, "show this help", &common->help};
	all[n] = (ut_opt){UT_OPT_REST, 0, NULL, NULL, NULL, NULL};
	rest_opt = find_rest(all);
	rest = rest_opt ? rest_opt->target : NULL;
	if (rest) {
		rest->items = calloc((size_t)argc + 1, sizeof(char *));
		rest->n = 0;
		if (!rest->items) {
			ut_errorf("out of memory");
			return UT_EXIT_ENV;
		}
	}
	for (a = 1; a < argc; a++) {
		const char *arg = argv[a];
		const ut_opt *o = NULL;
		const char *value = NULL;

		if (only_rest || arg[0] != '-' || strcmp(arg, "-") == 0) {
			if (!rest) {
				ut_errorf("%s: unexpected argument '%s'", cmd->name, arg);
				return UT_EXIT_INPUT;
			}
			rest->items[rest->n++] = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_rest = true;
			continue;
		}
		if (arg[1] == '-') {
			const char *eq = strchr(arg + 2, '=');

			o = find_long(all, arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
			value = eq ? eq + 1 : NULL;
		} else {
			o = find_short(all, arg[1]);
			value = arg[2] ? arg + 2 : NULL;
		}
		if (!o) {
			ut_errorf("%s: unknown option '%s' (see 'untangle %s --help')", cmd->name, arg,
				  cmd->name);
			return UT_EXIT_INPUT;
		}
		if (o->kind != UT_OPT_FLAG && !value) {
			if (a + 1 >= argc) {
				ut_errorf("%s: option '%s' needs a value", cmd->name, arg);
				return UT_EXIT_INPUT;
			}
			value = argv[++a];
		} else if (o->kind == UT_OPT_FLAG && value) {
			ut_errorf("%s: option '%s' takes no value", cmd->name, arg);
			return UT_EXIT_INPUT;
		}
		if (set(o, value, argc) < 0) {
			ut_errorf("out of memory");
			return UT_EXIT_ENV;
		}
	}
	ut_cli_quiet(common->quiet);
	if (common->help) {
		help(cmd, all);
		return -1;
	}
	return 0;
}
