/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_PROCESS_H
#define SCHEDPERF_UTIL_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A process as it can be recognised later, after its pid may have been
 * given to another: the boot it ran in, its pid and its start time (clock
 * ticks after boot, field 22 of /proc/PID/stat). Two processes of one boot
 * never share pid and start time, so a record of a writer that was killed
 * can never be mistaken for a live process (src/store/transactions.c, "Writers").
 */
struct process_id {
	char boot[40];		/* /proc/sys/kernel/random/boot_id; "" = unknown */
	int64_t pid;		/* 0: no process */
	uint64_t start;
};

/* The identity of process @pid now: 0, or -1 when it does not exist. */
int process_id_of(pid_t pid, struct process_id *out);

/* Whether @id is this very process. */
bool process_is_self(const struct process_id *id);

/*
 * Whether @id still runs: same boot, same pid and start time, and not a
 * zombie or killed (SIGKILL pending: it cannot run another instruction).
 * A process of another boot is gone.
 */
bool process_alive(const struct process_id *id);

/*
 * Whether any task of the process group that @leader led (its pgid is the
 * leader's pid) still runs, the leader having exited or not. A pgid cannot
 * be given to a new process while its group has members, so a live process
 * with the leader's pid and another start time means the group is gone.
 */
bool process_group_alive(const struct process_id *leader);

#endif
