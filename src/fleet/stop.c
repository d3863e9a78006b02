// SPDX-License-Identifier: GPL-2.0
/* The signal that stops a worker after the job at hand (stop.h). */
#include "fleet/stop.h"
#include "util/signals.h"

volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

void worker_catch_stop(void)
{
	signals_catch_terminating(on_stop);
}
