/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_BLANK_NAME_H
#define SCHEDPERF_UTIL_BLANK_NAME_H

/*
 * What is wrong with well-formed @name as a run's name for its blanks, a
 * phrase to follow "run name 'X' ", or NULL when nothing is; *@fix then
 * says how to give it instead. A name that is blank (utf8_blank()) would
 * show as no name at all, one blank at an end (utf8_blank_at_ends()) like
 * the name without it. The one check serves every name a run is stored
 * under: a command's (run --name, ab, bisect-step, bisect) and an
 * import's, so that none is taken by one and refused by another.
 */
const char *blank_name_problem(const char *name, const char **fix);

#endif
