// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf detect: where each series of history changed, by Hunter's
 * change point detection (stats/changepoint.h) on the points' means.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/series_options.h"
#include "cmd/cmd.h"
#include "report/history.h"
#include "util/parse.h"

static const struct cmd_usage detect_usage = {
	"usage: schedperf detect [--pvalue P] [--magnitude PCT] [--window N]\n"
	"                        [--fail-on-regression] [--format {format}]\n"
	"                        [series options] [options]\n"
	"\n"
	"Find the change points of every series that 'schedperf history' shows\n"
	"(or of those chosen), on the points' means, as Hunter and Apache Otava\n"
	"do: E-divisive means splits overlapping windows of --window points where\n"
	"Student's t-test of the two sides passes ten times --pvalue, then the\n"
	"weakest change points are dropped until every one left has p below\n"
	"--pvalue and changes the mean by more than --magnitude. The same data\n"
	"always give the same answer.\n"
	"\n"
	"For each change point: the run where it starts, the mean and standard\n"
	"deviation before and after it (up to the neighbouring change points), the\n"
	"percent change (positive = better) and whether it is a regression or an\n"
	"improvement by the metric's direction.\n",
	NULL,
};

/* A number of [@lo, @hi), read whole as every option's (parse_double()). */
static int parse_fraction(const char *arg, double lo, double hi, double *out)
{
	return parse_double(arg, out) || !(*out >= lo && *out < hi) ? -1 : 0;
}

static int set_pvalue(const struct cmd_option *opt, const char *arg)
{
	double p;

	if (parse_fraction(arg, 0, 1, &p) || p == 0)
		return command_usage_error("detect", "--pvalue '%.32s': give a number "
					   "between 0 and 1, e.g. 0.001", arg);
	*(double *)opt->value = p;
	return 0;
}

static int set_magnitude(const struct cmd_option *opt, const char *arg)
{
	double pct;

	if (parse_fraction(arg, 0, 1e6, &pct))
		return command_usage_error("detect", "--magnitude '%.32s': give a percent "
					   "from 0 to below 1000000, e.g. 2", arg);
	*(double *)opt->value = pct / 100;
	return 0;
}

/*
 * A window of 2 points splits into one a side, whose t-test has no degree
 * of freedom: it would never find a change point (stats/changepoint.h).
 */
static int set_window(const struct cmd_option *opt, const char *arg)
{
	long n;

	if (parse_long(arg, &n) || n < 1 || n > 1000000)
		return command_usage_error("detect", "--window '%.32s': give a whole number "
					   "of points from %d to 1000000, e.g. 50", arg,
					   CHANGE_POINT_MIN_WINDOW);
	if (n < CHANGE_POINT_MIN_WINDOW)
		return command_usage_error("detect", "--window %ld: a window needs at least "
					   "%d points, for the t-test of a split needs one "
					   "degree of freedom (give %d or more, e.g. 50)", n,
					   CHANGE_POINT_MIN_WINDOW, CHANGE_POINT_MIN_WINDOW);
	*(int *)opt->value = (int)n;
	return 0;
}

int cmd_detect(int argc, char **argv)
{
	const struct output_format *f;
	struct option_choice format = OPTION_CHOICE(detect_formats);
	struct series_args a;
	struct change_point_options cp;
	bool fail_on_regression = false;
	int window = 50;
	const struct cmd_option options[] = {
		OPT_CALLBACK(0, "pvalue", &cp.max_pvalue, "P", "a change point's t-test "
			     "p-value must be below P (default 0.001)", set_pvalue),
		OPT_CALLBACK(0, "magnitude", &cp.min_magnitude, "PCT", "and its change of "
			     "the mean above PCT percent, either way round (10 -> 5 is 100; "
			     "default 0; Hunter's --magnitude 0.05 is 5 here)", set_magnitude),
		OPT_CALLBACK(0, "window", &window, "N", "points per window of the split "
			     "step, 3 to 1000000 (default 50)", set_window),
		OPT_BOOL(0, "fail-on-regression", &fail_on_regression, "exit 1 when the "
			 "newest change point of some series is a regression"),
		OPT_FORMAT(&format, "{}"),
		SERIES_OPTIONS(&a),
		OPT_END(),
	};
	struct result_set set = { 0 };
	struct history h = { 0 };
	int code = EXIT_OK;

	series_args_init(&a, "detect");
	change_point_options_init(&cp);
	if (parse_options(argc, argv, options, &detect_usage, &code))
		goto out;
	if (optind < argc) {
		code = command_usage_error("detect", "unexpected argument '%.64s'",
					   argv[optind]);
		goto out;
	}
	if ((code = series_args_load(&a, &set, &h)))
		goto out;
	cp.window = (size_t)window;
	history_detect(&h, &cp);
	f = format.chosen;
	f->write(stdout, &h, NULL);
	if (fail_on_regression && history_newest_is_regression(&h))
		code = EXIT_FOUND;
out:
	history_release(&h);
	result_set_release(&set);
	series_args_release(&a);
	return code;
}
