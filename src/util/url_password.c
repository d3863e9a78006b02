// SPDX-License-Identifier: GPL-2.0
/*
 * A store's URL without its password (url_password.h): a message, a hint
 * and a log show the location, and none of them may show a secret.
 */
#include <string.h>
#include <strings.h>

#include "util/strbuf.h"
#include "util/url_password.h"
#include "util/xalloc.h"

/* RFC 3986's characters of a scheme */
#define URL_SCHEME "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* @len bytes of @s percent-decoded into @sb, as libpq decodes a URI's parts. */
static void add_decoded(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && hex_digit(s[i + 1]) >= 0 &&
		    hex_digit(s[i + 2]) >= 0) {
			strbuf_addch(sb, (char)(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2])));
			i += 2;
		} else {
			strbuf_addch(sb, s[i]);
		}
	}
}

/*
 * Whether the query parameter @param, @len bytes, names a secret, in any
 * case: the server's password or sslpassword, the client key's passphrase.
 */
static int is_password(const char *param, size_t len)
{
	struct strbuf key = STRBUF_INIT;
	size_t end = strcspn(param, "=");
	int yes;

	add_decoded(&key, param, end < len ? end : len);
	yes = !strcasecmp(strbuf_str(&key), "password") ||
	      !strcasecmp(strbuf_str(&key), "sslpassword");
	strbuf_release(&key);
	return yes;
}

/*
 * The user's part ends at the last '@' before the query: a password may
 * hold an '@' or a '/' not percent-encoded, which libpq misreads but the
 * user meant as the password, while an '@' in the query (?user=a@b,
 * ?application_name=me@corp) is no part of it.  An '@' that libpq itself
 * takes as the end (the first before the first '/' after "//", in
 * conninfo_uri_parse_options) but that comes after a '?' counts too.
 * Every query parameter that libpq reads as a password (password=,
 * pass%77ord=, sslpassword=, given twice), or that the user meant as one
 * (PASSWORD=, which libpq refuses), has its value left out.
 */
char *url_without_password(const char *location, const char *mark)
{
	const char *scheme = strstr(location, "://"), *at = NULL, *colon, *end, *p;
	struct strbuf sb = STRBUF_INIT;
	char sep = '?';
	size_t n;

	/* a file name is no URL, whatever it holds */
	if (!scheme || scheme == location ||
	    strspn(location, URL_SCHEME) != (size_t)(scheme - location))
		return xstrdup(location);
	end = scheme + 3 + strcspn(scheme + 3, "?");
	for (p = scheme + 3; p < end; p++)
		if (*p == '@')
			at = p;
	p = scheme + 3 + strcspn(scheme + 3, "@/");
	if (!at && *p == '@')
		at = p;
	colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
	p = colon ? at : location;
	if (colon)
		strbuf_addf(&sb, "%.*s", (int)(colon - location), location);
	n = strcspn(p, "?");
	strbuf_addf(&sb, "%.*s", (int)n, p);
	for (p += n; *p; p += n) {
		p++;	/* its '?' or '&' */
		n = strcspn(p, "&");
		if (is_password(p, n) && strcspn(p, "=") < n) {
			if (!mark)
				continue;
			strbuf_addf(&sb, "%c%.*s=%s", sep, (int)strcspn(p, "="), p, mark);
		} else {
			strbuf_addf(&sb, "%c%.*s", sep, (int)n, p);
		}
		sep = '&';
	}
	return strbuf_detach(&sb);
}
