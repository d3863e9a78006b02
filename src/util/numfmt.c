// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"

void format_shortest(char *buf, size_t len, double v)
{
	for (int digits = 1; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

#define TEN16 10000000000000000ULL	/* the smallest number of 17 digits */

static unsigned __int128 power_of_ten(int n)
{
	unsigned __int128 p = 1;

	while (n-- > 0)
		p *= 10;
	return p;
}

/*
 * m * 2^e (0 < m < 2^53) scaled by 10^s, exactly: its whole part in *@q
 * and whether it rounds up from there to the nearest, ties to even, as
 * glibc's printf rounds. -1 where the product does not fit in 128 bits.
 */
static int scaled(uint64_t m, int e, int s, uint64_t *q, bool *up)
{
	unsigned __int128 n = m, whole, r, half;

	if (s >= 0) {
		if (s > 22 || e < -120 || (e > 0 && 53 + 4 * s + e > 127))
			return -1;
		n *= power_of_ten(s);
		if (e >= 0) {
			*q = (uint64_t)(n << e);
			*up = false;
			return 0;
		}
		whole = n >> -e;
		r = n - (whole << -e);
		half = (unsigned __int128)1 << (-e - 1);
	} else {
		unsigned __int128 p;

		if (s < -22 || e < 0 || e > 74)
			return -1;
		p = power_of_ten(-s);
		n <<= e;
		whole = n / p;
		r = n - whole * p;
		half = p / 2;	/* p is even: a tie is r == p / 2 */
	}
	if (whole >= (unsigned __int128)100 * TEN16)
		return -1;
	*q = (uint64_t)whole;
	*up = r > half || (r == half && (whole & 1));
	return 0;
}

/* The digits of @d (17 of them), the decimal exponent @x, in %g's two forms. */
static int print_g17(char *buf, bool negative, uint64_t d, int x)
{
	char digits[18];
	int n = 17, at = 0;

	for (int i = 16; i >= 0; i--, d /= 10)
		digits[i] = (char)('0' + d % 10);
	while (n > 1 && digits[n - 1] == '0')
		n--;	/* %g drops a fraction's trailing zeros */
	if (negative)
		buf[at++] = '-';
	if (x < -4 || x >= 17) {
		buf[at++] = digits[0];
		if (n > 1) {
			buf[at++] = '.';
			memcpy(buf + at, digits + 1, (size_t)n - 1);
			at += n - 1;
		}
		return at + sprintf(buf + at, "e%c%02d", x < 0 ? '-' : '+', abs(x));
	}
	if (x < 0) {
		memcpy(buf + at, "0.000", (size_t)(1 - x));
		at += 1 - x;
		memcpy(buf + at, digits, (size_t)n);
		at += n;
	} else {
		memcpy(buf + at, digits, (size_t)x + 1);
		at += x + 1;
		if (n > x + 1) {
			buf[at++] = '.';
			memcpy(buf + at, digits + x + 1, (size_t)(n - x - 1));
			at += n - x - 1;
		}
	}
	buf[at] = '\0';
	return at;
}

int format_g17(char *buf, double v)
{
	int e, x;
	uint64_t m, q;
	double f;
	bool up;

	if (!isfinite(v) || v == 0)
		return sprintf(buf, "%.17g", v);
	f = frexp(fabs(v), &e);		/* |v| = f * 2^e, 0.5 <= f < 1 */
	m = (uint64_t)ldexp(f, 53);
	e -= 53;
	/* the decimal exponent: log10's, one off at most next to a power of ten */
	x = (int)floor(log10(fabs(v)));
	for (int tries = 0; tries < 3; tries++) {
		if (scaled(m, e, 16 - x, &q, &up))
			break;
		if (q >= 10 * TEN16) {
			x++;
		} else if (q < TEN16) {
			x--;
		} else {
			q += up;
			if (q == 10 * TEN16) {	/* 9.99...9|5 carries into the next power */
				q = TEN16;
				x++;
			}
			return print_g17(buf, signbit(v), q, x);
		}
	}
	return sprintf(buf, "%.17g", v);
}

const char *format_pct(char *buf, size_t len, double pct, int decimals, const char *none)
{
	if (!isfinite(pct))
		return none;
	if (fabs(pct) < 0.5 * pow(10, -decimals))
		pct = 0;
	snprintf(buf, len, "%+.*f%%", decimals, pct);
	return buf;
}
