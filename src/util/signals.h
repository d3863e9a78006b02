/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SIGNALS_H
#define SCHEDPERF_UTIL_SIGNALS_H

/*
 * The signals that end a process by default and that a handler can catch:
 * SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1/2, SIGPIPE, SIGALRM, SIGXCPU,
 * the timers, SIGIO, SIGPWR, SIGSTKFLT and the real-time signals. Not those
 * that report a fault of the program itself (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT, SIGTRAP, SIGSYS), whose core dumps must stay, and not
 * SIGXFSZ, which schedperf ignores so that a file-size limit fails the
 * write with EFBIG and is reported instead of killing it without a word.
 */

/*
 * Catch every one of them with @handler (no SA_RESTART: waits see EINTR);
 * SIG_DFL gives them back their default actions.
 */
void signals_catch_terminating(void (*handler)(int));

/* Back to their default actions, with SIGXFSZ: for a forked workload. */
void signals_restore_defaults(void);

/* Ignore SIGXFSZ for the whole process (inherited by threads). */
void signals_ignore_file_size(void);

#endif
