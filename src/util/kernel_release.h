/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_KERNEL_RELEASE_H
#define SCHEDPERF_UTIL_KERNEL_RELEASE_H

/* The longest kernel release schedperf takes, in bytes. */
#define KERNEL_RELEASE_MAX 255

/*
 * What is wrong with @release as the release of a kernel (uname -r), a
 * phrase to follow "the release 'X' ", or NULL when nothing is: it must
 * be valid UTF-8, 1 to KERNEL_RELEASE_MAX bytes, with no control
 * character or mark that reorders a line, and no '/'. A job stores it and
 * a worker compares it with uname -r and gives it to its boot command; the
 * one check serves submit --kernel, worker --home-kernel and the release
 * a kernel bisection reads from its tree, so that none is taken by one
 * and refused, or dropped, by another.
 */
const char *kernel_release_problem(const char *release);

#endif
