/* opt.c: option parsing, the usage line and --help, all driven by each command's option
 * table: an option is written once, in its table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/banned.h"

const char *const ut_cli_exit_codes =
	"exit codes: 0 success, 1 the check found a problem, 2 bad usage or input,\n"
	"3 the environment failed, 130 interrupted (the journal kept)\n";

/* The table ends with an entry that is UT_OPT_REST without a name or a target. */
static bool is_end(const ut_opt *o)
{
	return o->kind == UT_OPT_REST && !o->long_name && !o->target;
}

static size_t count(const ut_opt *opts)
{
	size_t n = 0;

	while (opts && !is_end(&opts[n]))
		n++;
	return n;
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

static bool takes_value(const ut_opt *o)
{
	return o->kind != UT_OPT_FLAG && o->kind != UT_OPT_REST;
}

/* usage: untangle detect [--strategy tedd|fast] ... [PATH...]: every option of the
 * table, the required ones without brackets, the positional arguments last. */
static void usage_line(const char *command, const ut_opt *all)
{
	const ut_opt *o, *rest = find_rest(all);
	size_t col;

	col = (size_t)printf("usage: untangle %s", command);
	for (o = all; !is_end(o); o++) {
		char item[160];
		int n;

		if (o->kind == UT_OPT_REST || strcmp(o->long_name, "help") == 0)
			continue;
		/* -C DIR, as every example writes it */
		n = snprintf(item, sizeof(item), "%s%s%s%s%s%s%s", o->required ? "" : "[",
			     o->short_name == 'C' ? "-" : "--",
			     o->short_name == 'C' ? "C" : o->long_name, takes_value(o) ? " " : "",
			     takes_value(o) ? o->value_name : "",
			     o->kind == UT_OPT_LIST ? "]..." : "", o->required || o->kind == UT_OPT_LIST ? "" : "]");
		if (col + 1 + (size_t)n > 90) {
			printf("\n      ");
			col = 6;
		}
		col += (size_t)printf(" %s", item);
	}
	if (rest)
		printf(" %s%s%s%s\n", rest->required ? "" : "[", rest->value_name,
		       rest->max == 1 ? "" : "...", rest->required ? "" : "]");
	else
		printf("\n");
}

static void help(const ut_cli_command *cmd, const ut_opt *all)
{
	const ut_opt *o, *rest = find_rest(all);

	usage_line(cmd->name, all);
	printf("\n%s\n\noptions:\n", cmd->summary);
	for (o = all; !is_end(o); o++) {
		char left[64];

		if (o->kind == UT_OPT_REST)
			continue;
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->long_name, takes_value(o) ? " " : "", takes_value(o) ? o->value_name : "");
		printf("  %-28s %s\n", left + (o->short_name ? 0 : 1), o->help);
	}
	if (rest)
		printf("  %-28s %s\n", rest->value_name, rest->help);
	printf("\n%s", ut_cli_exit_codes);
}

/* Stores value in o's target. UT_EXIT_OK, UT_EXIT_INPUT (a bad number; printed) or
 * UT_EXIT_ENV (a list could not grow; printed). */
static int set(const ut_opt *o, const char *arg, const char *value, int argc)
{
	ut_cli_rest *list = o->target;
	char *end = NULL;

	switch (o->kind) {
	case UT_OPT_FLAG:
		*(bool *)o->target = true;
		break;
	case UT_OPT_LIST:
		if (!list->items)
			list->items = calloc((size_t)argc + 1, sizeof(char *));
		if (!list->items) {
			ut_errorf("out of memory");
			return UT_EXIT_ENV;
		}
		list->items[list->n++] = value;
		break;
	case UT_OPT_INT:
		errno = 0;
		*(long *)o->target = strtol(value, &end, 10);
		if (errno || end == value || *end || *(long *)o->target < o->min ||
		    *(long *)o->target > o->max) {
			if (o->max == LONG_MAX)
				ut_errorf("%s: '%s' is not a number of at least %ld", arg, value,
					  o->min);
			else
				ut_errorf("%s: '%s' is not a number from %ld to %ld", arg, value,
					  o->min, o->max);
			return UT_EXIT_INPUT;
		}
		break;
	case UT_OPT_NUMBER:
		errno = 0;
		*(double *)o->target = strtod(value, &end);
		if (errno || end == value || *end || !(*(double *)o->target > 0)) {
			ut_errorf("%s: '%s' is not a positive number", arg, value);
			return UT_EXIT_INPUT;
		}
		break;
	default:
		*(const char **)o->target = value;
	}
	return UT_EXIT_OK;
}

/* Whether each required option was given (value options: a non-NULL target). */
static int check_required(const char *command, const ut_opt *all, bool *seen)
{
	size_t i;

	for (i = 0; !is_end(&all[i]); i++) {
		if (!all[i].required)
			continue;
		if (all[i].kind == UT_OPT_REST && ((ut_cli_rest *)all[i].target)->n)
			continue;
		if (all[i].kind != UT_OPT_REST && seen[i])
			continue;
		if (all[i].kind == UT_OPT_REST)
			ut_errorf("%s needs %s (see 'untangle %s --help')", command,
				  all[i].value_name, command);
		else
			ut_errorf("%s needs --%s %s (see 'untangle %s --help')", command,
				  all[i].long_name, all[i].value_name, command);
		return UT_EXIT_INPUT;
	}
	return UT_EXIT_OK;
}

static int parse_args(const ut_cli_command *cmd, const ut_opt *all, bool *seen, int argc,
		      char **argv)
{
	const ut_opt *rest_opt = find_rest(all);
	ut_cli_rest *rest = rest_opt ? rest_opt->target : NULL;
	bool only_rest = false;
	int a, rc;

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
		char name[80];

		if (only_rest || arg[0] != '-' || strcmp(arg, "-") == 0) {
			if (!rest || (rest_opt->max > 0 && rest->n >= (size_t)rest_opt->max)) {
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
		if (takes_value(o) && !value) {
			if (a + 1 >= argc) {
				ut_errorf("%s: option '%s' needs a value", cmd->name, arg);
				return UT_EXIT_INPUT;
			}
			value = argv[++a];
		} else if (!takes_value(o) && value) {
			ut_errorf("%s: option '%s' takes no value", cmd->name, arg);
			return UT_EXIT_INPUT;
		}
		snprintf(name, sizeof(name), "--%s", o->long_name);
		rc = set(o, name, value, argc);
		if (rc)
			return rc;
		seen[o - all] = true;
	}
	return UT_EXIT_OK;
}

/* The lists a stopped parse allocated are freed: the caller has nothing to free. */
static void free_lists(const ut_opt *all)
{
	for (; !is_end(all); all++)
		if (all->kind == UT_OPT_REST || all->kind == UT_OPT_LIST) {
			ut_cli_rest *r = all->target;

			free(r->items);
			r->items = NULL;
			r->n = 0;
		}
}

bool ut_cli_parse(const char *command, const ut_opt *opts, ut_cli_common *common, int argc,
		  char **argv, int *exit_code)
{
	const ut_cli_command *cmd = ut_cli_find(command);
	size_t n = count(opts);
	ut_opt *all = calloc(n + 5, sizeof(*all));
	bool *seen = calloc(n + 5, sizeof(*seen));
	int rc;

	*exit_code = UT_EXIT_ENV;
	if (!all || !seen || !cmd) {
		ut_errorf(cmd ? "out of memory" : "internal error: no command '%s'", command);
		free(all);
		free(seen);
		return false;
	}
	if (n)
		memcpy(all, opts, n * sizeof(*all));
	all[n++] = (ut_opt)UT_OPT_ROW(UT_OPT_FLAG, 0, "json", NULL,
				      "machine output (JSON) on stdout", &common->json);
	all[n++] = (ut_opt)UT_OPT_ROW(UT_OPT_VALUE, 'C', "dir", "DIR", "run as if started in DIR",
				      &common->dir);
	all[n++] = (ut_opt)UT_OPT_ROW(UT_OPT_FLAG, 'q', "quiet", NULL,
				      "no progress or warnings on stderr", &common->quiet);
	all[n++] = (ut_opt)UT_OPT_ROW(UT_OPT_FLAG, 'h', "help", NULL, "show this help",
				      &common->help);
	all[n] = (ut_opt)UT_OPT_END;
	rc = parse_args(cmd, all, seen, argc, argv);
	ut_cli_quiet(common->quiet);
	if (rc == UT_EXIT_OK && common->help) {
		help(cmd, all);
		*exit_code = UT_EXIT_OK;
	} else if (rc == UT_EXIT_OK) {
		rc = check_required(cmd->name, all, seen);
		*exit_code = rc;
	} else {
		*exit_code = rc;
	}
	if (*exit_code != UT_EXIT_OK || common->help)
		free_lists(all);
	free(all);
	free(seen);
	return *exit_code == UT_EXIT_OK && !common->help;
}
