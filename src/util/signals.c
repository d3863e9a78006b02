// SPDX-License-Identifier: GPL-2.0
/*
 * One list of the signals that end schedperf, so that every place that
 * must clean up before it goes (the runner, which kills the iteration it
 * runs; export, which removes its temporary file) handles all of them,
 * not the two or three someone thought of.
 */
#include <signal.h>
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

void signals_restore_defaults(void)
{
	for_each_terminating(SIG_DFL);
	set_action(SIGXFSZ, SIG_DFL);
}

void signals_ignore_file_size(void)
{
	set_action(SIGXFSZ, SIG_IGN);
}
