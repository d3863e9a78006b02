/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_URL_PASSWORD_H
#define SCHEDPERF_UTIL_URL_PASSWORD_H

/*
 * @location without the password a URL of it may hold, malloc'd; a
 * location that is no URL (a file name: no SCHEME:// first) as it is.
 * libpq reads a password in the user part (user:PASSWORD@host) and in the
 * query (password=, in any case, its key percent-encoded, given twice):
 * the user part's goes, and a query parameter's value is @mark
 * (password=...), or the parameter goes whole when @mark is NULL, for a
 * command a message suggests, which then takes the password where libpq
 * finds it otherwise (~/.pgpass, $PGPASSWORD, a service file).
 */
char *url_without_password(const char *location, const char *mark);

#endif
