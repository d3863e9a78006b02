// SPDX-License-Identifier: GPL-2.0
/*
 * The option tables of the commands: getopt_long's arrays and the option
 * lines of --help are both made from them, so an option is declared once.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "runner/job_env.h"
#include "runner/timeout.h"
#include "util/parse.h"
#include "util/registry.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* Accepted by every command, after its own options in --help, and before one. */
const struct cmd_option common_options[] = {
	OPT_STRING(0, "db", &global.db, "FILE",
		   "results store: an SQLite file or a postgresql:// URL (default "
		   "$SCHEDPERF_DB or ./schedperf.db)"),
	OPT_BOOL('q', "quiet", &global.quiet, "no progress line and no summary"),
	{ CMD_OPTION_HELP, 'h', "help", NULL, NULL, NULL, 0, 0, NULL, 0, 0, NULL },
	OPT_END(),
};

/* What schedperf takes before the command, besides those. */
const struct cmd_option global_only_options[] = {
	OPT_BOOL(0, "version", &global.version, "print the version and exit"),
	OPT_END(),
};

/* getopt_long's code for an option without a short form: past every char. */
#define LONG_ONLY_BASE 256

/* Help layout: options indented, help text in a column, wrapped. */
#define USAGE_INDENT 2
#define USAGE_GAP 2
#define USAGE_SPEC_MAX 22	/* a longer "-x, --name ARG" gets its help below it */
#define USAGE_WIDTH 79

static size_t count_options(const struct cmd_option *options)
{
	size_t n = 0;

	while (options[n].kind != CMD_OPTION_END)
		n++;
	return n;
}

/*
 * The command's options then the common ones, as one array ended by
 * OPT_END(), each row knowing the command @cmd.
 */
static struct cmd_option *all_options(const struct cmd_option *options, const char *cmd,
				      size_t *nr)
{
	size_t own = count_options(options), common = count_options(common_options);
	struct cmd_option *all = xcalloc(own + common + 1, sizeof(*all));

	memcpy(all, options, own * sizeof(*all));
	memcpy(all + own, common_options, (common + 1) * sizeof(*all));
	*nr = own + common;
	for (size_t i = 0; i < *nr; i++)
		all[i].cmd = cmd;
	return all;
}

/*
 * @arg, a value the user gave, for a message: escaped as util/utf8.h
 * does, so that a byte that is not UTF-8 or a control character (an
 * escape sequence) shows as \xHH instead of reaching the terminal, and
 * cut with "..." to fit @buf, never inside a character.
 */
#define SHOWN(buf, arg) (utf8_escape((buf), sizeof(buf), (arg)), (const char *)(buf))
#define SHOWN_VALUE 40		/* about 32 bytes of a value, and "..." */

/* @choice's names: "a|b|c" for a usage line, or with their words for --help. */
static char *choice_names(char *buf, size_t len, const struct option_choice *choice,
			  bool helps)
{
	return registry_names(buf, len, choice->table, choice->row_size, helps ? ", " : "|",
			      helps ? " or " : "|", helps);
}

static int apply_choice(const struct cmd_option *opt, const char *arg)
{
	struct option_choice *choice = opt->value;
	const void *row = registry_find(choice->table, choice->row_size, arg);
	char value[SHOWN_VALUE];
	char names[256];

	if (!row)
		return command_usage_error(opt->cmd, "unknown %s '%s': give %s", opt->long_name,
					   SHOWN(value, arg),
					   registry_names(names, sizeof(names), choice->table,
							  choice->row_size, ", ", " or ", 0));
	choice->chosen = row;
	return 0;
}

static int option_code(const struct cmd_option *all, size_t i)
{
	return all[i].short_name ? all[i].short_name : LONG_ONLY_BASE + (int)i;
}

static void build_getopt(const struct cmd_option *all, size_t nr, struct option *longopts,
			 char *shortopts)
{
	char *s = shortopts;

	for (size_t i = 0; i < nr; i++) {
		longopts[i].name = all[i].long_name;
		longopts[i].has_arg = all[i].argh ? required_argument : no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = option_code(all, i);
		if (all[i].short_name) {
			*s++ = (char)all[i].short_name;
			if (all[i].argh)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&longopts[nr], 0, sizeof(longopts[nr]));
}

/* A double above @lo and below @hi, or the error that says what to @give. */
static int open_range(const struct cmd_option *opt, const char *arg, double lo, double hi,
		      const char *give)
{
	char value[SHOWN_VALUE];
	double v;

	if (parse_double(arg, &v) || !(v > lo && v < hi))
		return command_usage_error(opt->cmd, "--%s '%s': give %s", opt->long_name,
					   SHOWN(value, arg), give);
	*(double *)opt->value = v;
	return 0;
}

int option_alpha(const struct cmd_option *opt, const char *arg)
{
	return open_range(opt, arg, 0, 0.5, "a number between 0 and 0.5, e.g. 0.05");
}

int option_margin(const struct cmd_option *opt, const char *arg)
{
	return open_range(opt, arg, 0, 100, "a percent between 0 and 100, e.g. 1");
}

int option_seed(const struct cmd_option *opt, const char *arg)
{
	char value[SHOWN_VALUE];
	long v;

	if (parse_long(arg, &v) || v < 0 || v > OPTION_SEED_MAX)
		return command_usage_error(opt->cmd, "--seed '%s': give a whole number from 0 "
					   "to %d", SHOWN(value, arg), OPTION_SEED_MAX);
	*(int *)opt->value = (int)v;
	return 0;
}

int option_timeout(const struct cmd_option *opt, const char *arg)
{
	char value[SHOWN_VALUE];
	double v;

	if (parse_double(arg, &v) || !iteration_timeout_valid(v))
		return command_usage_error(opt->cmd, "--timeout '%s': give "
					   ITERATION_TIMEOUT_RANGE, SHOWN(value, arg));
	*(double *)opt->value = v;
	return 0;
}

int option_machine(const struct cmd_option *opt, const char *arg)
{
	*(const char **)opt->value = arg;
	return command_check_name(opt->cmd, "--machine pattern", arg, 255);
}

int option_job_machine(const struct cmd_option *opt, const char *arg)
{
	if (option_machine(opt, arg))
		return EXIT_USAGE;
	if (strpbrk(arg, "[]"))
		return command_usage_error(opt->cmd, "--machine '%.128s': a job's pattern matches "
					   "workers' host names with * and ? only, no [...] set "
					   "(queue a job per name, or give one pattern with ?)",
					   arg);
	return 0;
}

/* Apply one occurrence of @opt; returns 0 or the exit code to stop with. */
static int apply_option(const char *cmd, const struct cmd_option *opt, const char *arg)
{
	char value[SHOWN_VALUE];
	double number;
	long v;

	switch (opt->kind) {
	case CMD_OPTION_BOOL:
		*(bool *)opt->value = true;
		return 0;
	case CMD_OPTION_STRING:
		*(const char **)opt->value = arg;
		return 0;
	case CMD_OPTION_INTEGER:
		if (parse_long(arg, &v) || v < opt->min || v > opt->max)
			return command_usage_error(cmd, "--%s '%s' is not a whole number "
						   "in %ld..%ld", opt->long_name,
						   SHOWN(value, arg), opt->min, opt->max);
		*(int *)opt->value = (int)v;
		return 0;
	case CMD_OPTION_NUMBER:
		if (parse_double(arg, &number) || !(number > opt->low && number <= opt->high))
			return command_usage_error(cmd, "--%s '%s' is not a number above %g "
						   "and at most %g", opt->long_name,
						   SHOWN(value, arg), opt->low, opt->high);
		*(double *)opt->value = number;
		return 0;
	case CMD_OPTION_CALLBACK:
		return opt->callback(opt, arg);
	case CMD_OPTION_CHOICE:
		return apply_choice(opt, arg);
	case CMD_OPTION_HELP:
	case CMD_OPTION_END:
		break;
	}
	return 0;
}

int option_apply(const char *cmd, const struct cmd_option *opt, const char *arg)
{
	struct cmd_option row = *opt;

	row.cmd = cmd;
	return apply_option(cmd, &row, arg);
}

int option_match(int argc, char **argv, int *i, const struct cmd_option *options,
		 const struct cmd_option **row, const char **arg)
{
	const char *word = argv[*i];

	*arg = NULL;
	for (*row = options; (*row)->kind != CMD_OPTION_END; (*row)++) {
		const struct cmd_option *o = *row;
		size_t len = strlen(o->long_name);
		bool is_long = !strncmp(word, "--", 2) && !strncmp(word + 2, o->long_name, len);

		if (is_long && o->argh && word[2 + len] == '=') {
			*arg = word + 3 + len;
			return 1;
		}
		if (!(is_long && !word[2 + len]) &&
		    !(o->short_name && word[0] == '-' && word[1] == o->short_name && !word[2]))
			continue;
		if (!o->argh)
			return 1;
		if (*i + 1 >= argc)
			return -1;
		*arg = argv[++*i];
		return 1;
	}
	*row = NULL;
	return 0;
}

static int unknown_option(const char *cmd, char **argv)
{
	const char *arg = argv[optind - 1];
	char option[72];

	/* getopt's optopt names a short option the user typed as such */
	if (optopt > 0 && optopt < LONG_ONLY_BASE && isalnum(optopt) && strncmp(arg, "--", 2))
		snprintf(option, sizeof(option), "-%c", optopt);
	else
		SHOWN(option, arg);
	/* the user typed submit's command line, whose options are submit's too */
	if (job_env_check_jobs())
		return command_usage_error("submit", "option '%s' is neither submit's nor %s's, "
					   "or lacks its value (see 'schedperf submit --help' "
					   "and 'schedperf %s --help')", option, cmd, cmd);
	return command_usage_error(cmd, "option '%s' is unknown or lacks its value", option);
}

bool parse_options(int argc, char **argv, const struct cmd_option *options,
		   const struct cmd_usage *usage, int *exit_code)
{
	size_t nr;
	struct cmd_option *all = all_options(options, argv[0], &nr);
	struct option *longopts = xcalloc(nr + 1, sizeof(*longopts));
	char *shortopts = xcalloc(2 * nr + 1, 1);
	int opt, code = 0;

	build_getopt(all, nr, longopts, shortopts);
	while (!code && (opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct cmd_option *o = NULL;

		for (size_t i = 0; i < nr && !o; i++)
			if (option_code(all, i) == opt)
				o = &all[i];
		if (!o) {
			code = unknown_option(argv[0], argv);
		} else if (o->kind == CMD_OPTION_HELP) {
			print_options_usage(stdout, options, usage);
			code = -1;
		} else {
			code = apply_option(argv[0], o, optarg);
		}
	}
	free(shortopts);
	free(longopts);
	free(all);
	*exit_code = code < 0 ? EXIT_OK : code;
	return code != 0;
}

static int option_spec(char *buf, size_t len, const struct cmd_option *opt)
{
	char s[8] = "    ";

	if (opt->short_name)
		snprintf(s, sizeof(s), "-%c, ", opt->short_name);
	return snprintf(buf, len, "%s--%s%s%s", s, opt->long_name, opt->argh ? " " : "",
			opt->argh ? opt->argh : "");
}

/*
 * @text from column @col, wrapped at USAGE_WIDTH at its spaces; the cursor
 * is at @col now. Spaces inside a line are kept as written ("%stddev  %change").
 */
static void print_wrapped(FILE *out, const char *text, int col)
{
	int at = col;

	text += strspn(text, " ");
	while (*text) {
		size_t word = strcspn(text, " "), gap;

		fprintf(out, "%.*s", (int)word, text);
		at += (int)word;
		text += word;
		gap = strspn(text, " ");
		text += gap;
		if (!*text)
			break;
		if (at + (int)gap + (int)strcspn(text, " ") > USAGE_WIDTH) {
			fprintf(out, "\n%*s", col, "");
			at = col;
		} else {
			fprintf(out, "%*s", (int)gap, "");
			at += (int)gap;
		}
	}
	fputc('\n', out);
}

/*
 * @text with "{NAME}" read as the names of the choice option NAME of @all
 * ("{}" for @self's own), as a usage line (|) or a help line lists them.
 */
static char *expand_choices(const char *text, const struct cmd_option *all, size_t nr,
			    const struct cmd_option *self)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text, *open;

	while ((open = strchr(p, '{'))) {
		size_t len = strcspn(open + 1, "}");
		const struct cmd_option *opt = len ? NULL : self;
		char names[512];

		for (size_t i = 0; i < nr && !opt; i++)
			if (all[i].kind == CMD_OPTION_CHOICE && strlen(all[i].long_name) == len &&
			    !strncmp(all[i].long_name, open + 1, len))
				opt = &all[i];
		strbuf_addf(&sb, "%.*s", (int)(open - p), p);
		if (!opt || open[1 + len] != '}') {
			strbuf_addstr(&sb, "{");
			p = open + 1;
			continue;
		}
		strbuf_addstr(&sb, choice_names(names, sizeof(names), opt->value, opt == self));
		p = open + len + 2;
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb);
}

static void print_option_lines(FILE *out, const struct cmd_option *all, size_t nr)
{
	char spec[128];
	int width = 0, len;

	for (size_t i = 0; i < nr; i++) {
		len = option_spec(spec, sizeof(spec), &all[i]);
		if (all[i].help && len <= USAGE_SPEC_MAX && len > width)
			width = len;
	}
	for (size_t i = 0; i < nr; i++) {
		int col = USAGE_INDENT + width + USAGE_GAP;

		if (!all[i].help)
			continue;	/* --help itself */
		len = option_spec(spec, sizeof(spec), &all[i]);
		fprintf(out, "%*s%s", USAGE_INDENT, "", spec);
		if (len > width)
			fprintf(out, "\n%*s", col, "");
		else
			fprintf(out, "%*s", width - len + USAGE_GAP, "");
		if (all[i].kind == CMD_OPTION_CHOICE) {
			char *help = expand_choices(all[i].help, all, nr, &all[i]);

			print_wrapped(out, help, col);
			free(help);
		} else {
			print_wrapped(out, all[i].help, col);
		}
	}
}

void print_options(FILE *out, const struct cmd_option *options)
{
	size_t nr;
	struct cmd_option *all = all_options(options, NULL, &nr);

	print_option_lines(out, all, nr);
	free(all);
}

void print_options_usage(FILE *out, const struct cmd_option *options,
			 const struct cmd_usage *usage)
{
	size_t nr;
	struct cmd_option *all = all_options(options, NULL, &nr);
	char *synopsis = expand_choices(usage->synopsis, all, nr, NULL);

	fputs(synopsis, out);
	free(synopsis);
	fputc('\n', out);
	print_option_lines(out, all, nr);
	if (usage->epilogue) {
		fputc('\n', out);
		fputs(usage->epilogue, out);
	}
	free(all);
}
