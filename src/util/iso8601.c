// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an ISO 8601 time into the store's one spelling of it. Import
 * refuses a batch's start that is not one, export refuses to write one
 * that import would refuse, and db check calls a store holding one
 * damaged: the one check, here below all three, so that they agree.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/iso8601.h"

/* The digits of @s from @at, @n of them, as a number. */
static int digits(const char *s, int at, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++)
		v = v * 10 + (s[at + i] - '0');
	return v;
}

static bool leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && leap_year(y) ? 29 : days[m - 1];
}

/* The fraction of a second at @s ("." and digits, or nothing) in microseconds, truncated. */
static long micros(const char **s)
{
	long us = 0;
	int n = 0;

	if (**s != '.')
		return 0;
	for (++*s; isdigit((unsigned char)**s); ++*s)
		if (n++ < 6)
			us = us * 10 + (**s - '0');
	for (; n < 6; n++)
		us *= 10;
	return us;
}

const char *iso8601(const char *s, char *out, size_t len)
{
	/* YYYY-MM-DDTHH:MM:SS, then optional fraction and zone (Z or +HH:MM). */
	static const char pattern[] = "dddd-dd-ddTdd:dd:dd";
	static const char not_iso[] = "not an ISO 8601 time (YYYY-MM-DDTHH:MM:SS...)";
	struct tm tm = { 0 };
	bool leap_second;
	long offset = 0, us;
	time_t t;
	size_t i;

	for (i = 0; pattern[i]; i++) {
		if (pattern[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pattern[i])
			return not_iso;
	}
	tm.tm_year = digits(s, 0, 4) - 1900;
	tm.tm_mon = digits(s, 5, 2) - 1;
	tm.tm_mday = digits(s, 8, 2);
	tm.tm_hour = digits(s, 11, 2);
	tm.tm_min = digits(s, 14, 2);
	tm.tm_sec = digits(s, 17, 2);
	/* Fields in range, so that times sort and print as what they claim to be. */
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 ||
	    tm.tm_mday > days_in_month(tm.tm_year + 1900, tm.tm_mon + 1) ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return not_iso;
	/* a leap second is 60, its minute's last: put it at 59 to check the minute */
	leap_second = tm.tm_sec == 60;
	tm.tm_sec -= leap_second;
	s += i;
	if (*s == '.' && !isdigit((unsigned char)s[1]))
		return not_iso;
	us = micros(&s);
	if (*s == '+' || *s == '-') {
		if (!isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2]) || s[3] != ':' ||
		    !isdigit((unsigned char)s[4]) || !isdigit((unsigned char)s[5]) || s[6] ||
		    digits(s, 1, 2) > 23 || digits(s, 4, 2) > 59)
			return not_iso;
		offset = (*s == '-' ? -60 : 60) * (digits(s, 1, 2) * 60L + digits(s, 4, 2));
	} else if (*s == 'Z' ? s[1] != '\0' : *s != '\0') {
		return not_iso;
	}
	/*
	 * One instant, one spelling: the store's, in UTC, its microseconds
	 * when there are any (2026-01-01T10:00:00Z, 2026-01-01T10:00:00.500000Z),
	 * since a batch is known by its run and start text.
	 */
	t = timegm(&tm) - offset;
	if (!gmtime_r(&t, &tm))
		return not_iso;
	if (tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0)
		return "in UTC not in the years 0000 to 9999 that the store spells";
	/* leap seconds are inserted at 23:59:60 UTC of a month's last day */
	if (leap_second && (tm.tm_hour != 23 || tm.tm_min != 59 ||
			    tm.tm_mday != days_in_month(tm.tm_year + 1900, tm.tm_mon + 1)))
		return "a leap second (:60) not at 23:59:60 UTC of a month's last day";
	if (leap_second) {
		t++;
		gmtime_r(&t, &tm);
		if (tm.tm_year + 1900 > 9999)
			return "in UTC not in the years 0000 to 9999 that the store spells";
	}
	/* four digits of year, as read: strftime's %Y gives 226 for 0226 */
	snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d%s", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, us ? "." : "Z");
	if (us)
		snprintf(out + strlen(out), len - strlen(out), "%06ldZ", us);
	return NULL;
}
