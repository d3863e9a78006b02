// SPDX-License-Identifier: GPL-2.0
/* This machine's identity among the machines of one store (machine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/machine.h"
#include "util/xalloc.h"

/* The first line of @path into @buf, trimmed; "" when unreadable. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, " \t\r\n")] = '\0';
}

bool machine_simulated(void)
{
	const char *dir = getenv("SCHEDPERF_TEST_MACHINE");

	return dir && *dir;
}

/* A file of the simulated machine's directory; false when not simulated. */
static bool simulated(const char *file, char *buf, size_t len)
{
	char path[4096];

	if (!machine_simulated())
		return false;
	snprintf(path, sizeof(path), "%s/%s", getenv("SCHEDPERF_TEST_MACHINE"), file);
	first_line(path, buf, len);
	return true;
}

void machine_identity(char *buf, size_t len)
{
	if (simulated("name", buf, len))
		return;
	first_line("/etc/machine-id", buf, len);
	if (!buf[0] && gethostname(buf, len))
		buf[0] = '\0';
	buf[len - 1] = '\0';
}

char *machine_key(const char *id, const char *host)
{
	return xasprintf("%s/%s", id ? id : "", host ? host : "");
}

void machine_batch_key(char *buf, size_t len)
{
	char id[256], host[256], *key;

	if (!simulated("name", id, sizeof(id)))
		first_line("/etc/machine-id", id, sizeof(id));
	machine_host_name(host, sizeof(host));
	key = machine_key(id, host);
	snprintf(buf, len, "%s", key);
	free(key);
}

void machine_host_name(char *buf, size_t len)
{
	if (simulated("name", buf, len))
		return;
	if (gethostname(buf, len))
		buf[0] = '\0';
	buf[len - 1] = '\0';
}

void machine_release(char *buf, size_t len)
{
	struct utsname uts;

	if (simulated("release", buf, len))
		return;
	buf[0] = '\0';
	if (!uname(&uts))
		snprintf(buf, len, "%s", uts.release);
}

void machine_boot_id(char *buf, size_t len)
{
	if (simulated("boot_id", buf, len) && buf[0])
		return;
	first_line("/proc/sys/kernel/random/boot_id", buf, len);
}
