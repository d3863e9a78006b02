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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
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

static void (*catcher)(int);
static bool catching;	/* the terminating signals go to catcher, not to the cleanups */
static volatile sig_atomic_t caught;
static void (*volatile wait_ender)(void);

/* Noted for waits in layers below the handler's, which cannot see its flag. */
static void note_and_catch(int sig)
{
	caught = sig;
	if (wait_ender)
		wait_ender();
	catcher(sig);
}

static void run_cleanups(int sig);
static volatile sig_atomic_t nr_cleanups;

void signals_catch_terminating(void (*handler)(int))
{
	if (handler != SIG_DFL)
		catcher = handler;	/* never SIG_DFL: note_and_catch() may still run */
	catching = handler != SIG_DFL;
	if (catching)
		for_each_terminating(note_and_catch);
	else
		for_each_terminating(nr_cleanups ? run_cleanups : SIG_DFL);
}

int signals_caught(void)
{
	return caught;
}

void signals_end_wait_with(void (*end_wait)(void))
{
	wait_ender = end_wait;
}

/*
 * The cleanups held, in the order they were given: cleanups[0] is the
 * oldest and nr_cleanups the count, so that running them from the end is
 * the latest first also after one in the middle was let go. Room for
 * every cleanup of the program at once (output_file's, gnuplot's), with
 * some to spare; running out is a mistake of the program, said at once.
 */
#define MAX_CLEANUPS 4
static void (*volatile cleanups[MAX_CLEANUPS])(void);

static void run_cleanups(int sig)
{
	for (sig_atomic_t i = nr_cleanups; i--;)
		cleanups[i]();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Block the terminating signals around a change to the list, so that the
 * handler never sees it half moved (a cleanup twice, or none where one is).
 */
static void block_terminating(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(terminating); i++)
		sigaddset(&set, terminating[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, old);
}

void signals_hold_cleanup(void (*cleanup)(void))
{
	sigset_t old;

	for (sig_atomic_t i = 0; i < nr_cleanups; i++)
		if (cleanups[i] == cleanup)
			return;
	if ((size_t)nr_cleanups == ARRAY_SIZE(cleanups)) {
		fprintf(stderr, "schedperf: internal error: more than %d cleanups held for a "
			"terminating signal (report it: util/signals.c needs more room)\n",
			MAX_CLEANUPS);
		exit(EXIT_INTERNAL);
	}
	block_terminating(&old);
	cleanups[nr_cleanups] = cleanup;
	nr_cleanups++;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!catching)
		for_each_terminating(run_cleanups);
}

void signals_drop_cleanup(void (*cleanup)(void))
{
	sigset_t old;

	block_terminating(&old);
	for (sig_atomic_t i = 0; i < nr_cleanups; i++) {
		if (cleanups[i] != cleanup)
			continue;
		for (; i + 1 < nr_cleanups; i++)
			cleanups[i] = cleanups[i + 1];
		nr_cleanups--;
		break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!nr_cleanups && !catching)
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
