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

/* 10^n for n up to 22, which scaled() takes: a table, not a loop of 128-bit products. */
#define TEN19 ((unsigned __int128)10000000000000000000ULL)
static const unsigned __int128 powers_of_ten[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL, TEN19 * 10,
	TEN19 * 100, TEN19 * 1000,
};

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
		n *= powers_of_ten[s];
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
		p = powers_of_ten[-s];
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

static const char two_digits[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The last @n digits (@n even) of @v, ending at @end: two at a time. */
static void put_digits(char *end, uint32_t v, int n)
{
	for (; n > 0; n -= 2, v /= 100) {
		end -= 2;
		memcpy(end, two_digits + 2 * (v % 100), 2);
	}
}

/*
 * The digits of @d (17 of them), the decimal exponent @x, in %g's two
 * forms. The digits in two halves of 32 bits, two at a time: one 64-bit
 * division by 10 after another was most of a number's time.
 */
static int print_g17(char *buf, bool negative, uint64_t d, int x)
{
	char digits[18];
	int n = 17, at = 0;
	uint32_t high = (uint32_t)(d / 100000000), low = (uint32_t)(d % 100000000);

	put_digits(digits + 17, low, 8);
	digits[8] = (char)('0' + high % 10);
	put_digits(digits + 8, high / 10, 8);
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

/*
 * Whole numbers only: the value's bits, not frexp() and ldexp(), and its
 * decimal exponent from its binary one, not log10() (they were a third
 * of the time of an export's numbers).
 */
int format_g17(char *buf, double v)
{
	uint64_t bits, m, q;
	int e, x;
	bool up;

	memcpy(&bits, &v, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	if (e == 0 || e == 0x7ff)	/* zero, subnormal, infinite or NaN */
		return sprintf(buf, "%.17g", v);
	m = (bits & ((1ULL << 52) - 1)) | 1ULL << 52;
	e -= 1075;			/* |v| = m * 2^e, 2^52 <= m < 2^53 */
	/*
	 * The decimal exponent: floor((e + 52) * log10(2)) (78913 / 2^18 is
	 * log10(2) within 3e-8), the exponent of 2^(e + 52) <= |v| and one
	 * short at most of |v|'s; the loop takes it to the right one.
	 */
	x = (e + 52) * 78913 >> 18;
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
			return print_g17(buf, bits >> 63, q, x);
		}
	}
	return sprintf(buf, "%.17g", v);
}

/* From here %f prints digits a double does not hold (309 of them near DBL_MAX). */
#define CHANGE_FIXED_MAX	1e15

const char *format_change(char *buf, size_t len, double change, int decimals)
{
	char num[32];

	if (fabs(change) < CHANGE_FIXED_MAX || !isfinite(change)) {
		snprintf(buf, len, "%+.*f", decimals, change);
		return buf;
	}
	format_shortest(num, sizeof(num), change);
	snprintf(buf, len, "%s%s", change > 0 ? "+" : "", num);
	return buf;
}

const char *format_pct(char *buf, size_t len, double pct, int decimals, const char *none)
{
	size_t used;

	if (!isfinite(pct))
		return none;
	if (fabs(pct) < 0.5 * pow(10, -decimals))
		pct = 0;
	format_change(buf, len, pct, decimals);
	used = strlen(buf);
	snprintf(buf + used, len - used, "%%");
	return buf;
}
