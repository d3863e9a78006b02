/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_PROFILE_SESSION_H
#define SCHEDPERF_MONITOR_PROFILE_SESSION_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "monitor/symbols.h"
#include "results/results.h"

/*
 * What one profiled iteration's perf records add up to (the profile
 * monitor, profile.c, reads them from the kernel and hands them here).
 *
 * Samples are added up per distinct call chain while the iteration runs;
 * only at the end are chains resolved to functions, each distinct chain
 * once. A user-space address means something only in the address space of
 * the process it was sampled in, so a session follows processes as the
 * kernel reports them (fork: the child shares its parent's maps; exec: a
 * new, empty address space; mmap: one more executable map) and keys each
 * chain by the address space it was taken in.
 *
 * The records come from one ring buffer per CPU, each in time order but
 * not with the others, and a fork or exec seen on one CPU must be applied
 * before the samples that follow it on another: records are queued and
 * processed in time order, up to a cutoff that every buffer has passed.
 */

/* The sample layout the session parses: the profile monitor asks for it. */
#define PROFILE_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct profile_session;

/* @kernel and @dsos are borrowed and must outlive the session. */
struct profile_session *profile_session_new(const struct symbol_table *kernel,
					    struct dso_cache *dsos);
void profile_session_free(struct profile_session *s);

/*
 * Start from the executable maps process @pid has now, as
 * /proc/PID/maps lists them (@path: another file, for tests). Returns 0,
 * or -1 when the file cannot be read.
 */
int profile_session_read_maps(struct profile_session *s, pid_t pid, const char *path);

/*
 * Count only the samples of process @pid and of the processes it forks,
 * from then on (records of every process reach a session that samples
 * whole CPUs); without a call, every sample counts.
 */
void profile_session_follow(struct profile_session *s, pid_t pid);

/* Queue one record as the kernel wrote it: a perf_event_header and its body. */
void profile_session_queue(struct profile_session *s, const void *record, size_t size);

/*
 * Process, in time order, the queued records taken before @cutoff
 * (nanoseconds of CLOCK_MONOTONIC; UINT64_MAX: every one).
 */
void profile_session_process(struct profile_session *s, uint64_t cutoff);

/*
 * Resolve every chain to functions and fill @profile's counts and symbols
 * (its event, scope, frequency and seq are the caller's to set).
 */
void profile_session_result(struct profile_session *s, struct result_profile *profile);

#endif
