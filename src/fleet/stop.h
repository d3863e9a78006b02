/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_STOP_H
#define SCHEDPERF_FLEET_STOP_H

#include <signal.h>

/*
 * SIGTERM, SIGINT or SIGHUP: stop after the job at hand, whose command it
 * is passed to, and give the job back (not once its boot command is done:
 * that stop is the reboot's, and the job waits for the boot). 0 until one
 * came; each part of the worker looks at it where it may wait.
 */
extern volatile sig_atomic_t stop_signal;

/* From now on, those signals set stop_signal instead of ending the worker. */
void worker_catch_stop(void);

#endif
