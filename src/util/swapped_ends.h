/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SWAPPED_ENDS_H
#define SCHEDPERF_UTIL_SWAPPED_ENDS_H

/*
 * What bisect-step (stored runs) and bisect (measured commits) say when
 * the bad end is clearly better than the good one: the same words, since
 * it is the same mistake, most often --good and --bad given the wrong way
 * round. @bad and @good name the ends ("run 'x'", "bad 0123abcd"), @which
 * what they are ("run", "commit"). Malloc'd:
 * "BAD is better than GOOD, not worse: nothing to bisect as a regression
 * (--good and --bad may be swapped: check which WHICH is which)".
 */
char *swapped_ends_said(const char *bad, const char *good, const char *which);

#endif
