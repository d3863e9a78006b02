/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_NAME_LIST_H
#define SCHEDPERF_CLI_NAME_LIST_H

#include <stddef.h>

/*
 * A NULL-terminated list of names, as the repeatable options that take a
 * comma list gather them (--workload, --metric, --ignore-param, -p).
 */
struct name_list {
	char **list;		/* NULL until the first name */
	size_t nr;
};

void name_list_add(struct name_list *names, const char *name, size_t len);
/*
 * Each name of comma list @arg, given to @cmd's @option ("--workload"),
 * once command_check_names() found none empty and all UTF-8 (@what:
 * "workload name"): 0, or its usage error's EXIT_USAGE.
 */
int name_list_add_listed(struct name_list *names, const char *cmd, const char *option,
			 const char *what, const char *arg);
void name_list_release(struct name_list *names);

#endif
