// SPDX-License-Identifier: GPL-2.0
/*
 * The names a repeatable option gathers (name_list.h), for every command
 * that takes a list of names.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/name_list.h"
#include "util/list.h"
#include "util/xalloc.h"

void name_list_add(struct name_list *names, const char *name, size_t len)
{
	names->list = xreallocarray(names->list, names->nr + 2, sizeof(char *));
	names->list[names->nr++] = xstrndup(name, len);
	names->list[names->nr] = NULL;
}

static int add_listed(const char *name, size_t len, void *arg)
{
	name_list_add(arg, name, len);
	return 0;
}

int name_list_add_listed(struct name_list *names, const char *cmd, const char *option,
			 const char *what, const char *arg)
{
	if (command_check_names(cmd, option, what, arg))
		return EXIT_USAGE;
	return comma_list_each(arg, add_listed, names);
}

void name_list_release(struct name_list *names)
{
	for (size_t i = 0; i < names->nr; i++)
		free(names->list[i]);
	free(names->list);
	names->list = NULL;
	names->nr = 0;
}
