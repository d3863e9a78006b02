// SPDX-License-Identifier: GPL-2.0
/* This machine's identity among the machines of one store (machine.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/machine.h"

void machine_identity(char *buf, size_t len)
{
	FILE *f = fopen("/etc/machine-id", "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, " \t\r\n")] = '\0';
	}
	if (!buf[0] && gethostname(buf, len))
		buf[0] = '\0';
	buf[len - 1] = '\0';
}
