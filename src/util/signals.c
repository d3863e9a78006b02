// SPDX-License-Identifier: GPL-2.0
/*
 * One list of the signals that end schedperf, so that every place that
 * must clean up before it goes (the runner, which kills the iteration it
 * runs; export, which removes its temporary file) handles all of them,
 * not the two or three someone thought of; and one handler for the
 * cleanups several pieces may need at once (report: its page's temporary
 * file and gnuplot's directory).
 */
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "util/array.h"
#include "util/signals.h"

static const int terminating[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
	SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
};

static void set_action(int sig, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void for_each_terminating(void (*handler)(int))
{
	for (size_t i = 0; i < ARRAY_SIZE(terminating); i++)
		set_action(terminating[i], handler);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		set_action(sig, handler);
}

void signals_catch_terminating(void (*handler)(int))
{
	for_each_terminating(handler);
}

static void (*volatile cleanups[4])(void);

static void run_cleanups(int sig)
{
	for (size_t i = ARRAY_SIZE(cleanups); i--;)
		if (cleanups[i])
			cleanups[i]();
	signal(sig, SIG_DFL);
	raise(sig);
}

int signals_hold_cleanup(void (*cleanup)(void))
{
	for (size_t i = 0; i < ARRAY_SIZE(cleanups); i++)
		if (cleanups[i] == cleanup)
			return 0;
	for (size_t i = 0; i < ARRAY_SIZE(cleanups); i++)
		if (!cleanups[i]) {
			cleanups[i] = cleanup;
			for_each_terminating(run_cleanups);
			return 0;
		}
	return -1;
}

void signals_drop_cleanup(void (*cleanup)(void))
{
	bool any = false;

	for (size_t i = 0; i < ARRAY_SIZE(cleanups); i++) {
		if (cleanups[i] == cleanup)
			cleanups[i] = NULL;
		any |= cleanups[i] != NULL;
	}
	if (!any)
		for_each_terminating(SIG_DFL);
}

void signals_restore_defaults(void)
{
	for_each_terminating(SIG_DFL);
	set_action(SIGXFSZ, SIG_DFL);
}

void signals_ignore_file_size(void)
{
	set_action(SIGXFSZ, SIG_IGN);
}
