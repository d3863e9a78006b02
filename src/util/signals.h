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
/*
 * The last signal such a handler caught, or 0: a wait in a lower layer (the
 * store's for a write lock) ends at it as the caller would have it end.
 */
int signals_caught(void);
/*
 * While a lower layer waits where a signal does not wake it (libpq, for
 * PostgreSQL's write lock), @end_wait (async-signal-safe; NULL: none) is
 * run by such a handler as it notes the signal, before the handler's own.
 */
void signals_end_wait_with(void (*end_wait)(void));

/*
 * What must be undone before a terminating signal ends us: a named
 * temporary file (util/output_file.h), a temporary directory (gnuplot's).
 * While any @cleanup is held, every terminating signal runs them all, the
 * latest first, then ends the process as the signal would. Each must be
 * async-signal-safe, and is held once however often it is given. At most
 * 4 at a time: one more is a mistake of the program, which then exits
 * with EXIT_INTERNAL and says so, rather than forget a cleanup.
 * Where a handler of signals_catch_terminating() catches the signals, the
 * process goes on after one and its own code undoes what it made, so the
 * handler stays and the cleanups held do not run (a store made while run
 * or import catch them, store/sqlite/open.c); otherwise letting the last
 * go gives the signals their default actions back.
 */
void signals_hold_cleanup(void (*cleanup)(void));
/* Let @cleanup go (nothing when it is not held). */
void signals_drop_cleanup(void (*cleanup)(void));

/* Back to their default actions, with SIGXFSZ: for a forked workload. */
void signals_restore_defaults(void);

/* Ignore SIGXFSZ for the whole process (inherited by threads). */
void signals_ignore_file_size(void);

#endif
