// SPDX-License-Identifier: GPL-2.0
/*
 * go-moremath's algorithms that benchstat's numbers come from
 * (stats/moremath.h), with the same floating-point steps.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/moremath.h"
#include "util/xalloc.h"

/* Choose(n, k): exact in integers up to n = 20, else exp(lgamma...). */
static double choose(int n, int k)
{
	if (k == 0 || k == n)
		return 1;
	if (k < 0 || n < k)
		return 0;
	if (n <= 20) {
		int64_t numer = 1, denom = 1;

		for (int64_t i = n - (k - 1); i <= n; i++)
			numer *= i;
		for (int64_t i = 2; i <= k; i++)
			denom *= i;
		return (double)(numer / denom);
	}
	return exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma((double)(n - k) + 1));
}

static double binom_pmf(int n, double p, int k)
{
	if (k < 0 || k > n)
		return 0;
	return choose(n, k) * pow(p, k) * pow(1 - p, n - k);
}

/* Acklam's inverse normal CDF with one Halley refinement step. */
static double norm_inv_cdf(double p, double mu, double sigma)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	const double plow = 0.02425, phigh = 1 - plow;
	double x, q, r, e, u;

	if (p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p < plow) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (phigh < p) {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	e = 0.5 * erfc(-x / M_SQRT2) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	x = x - u / (1 + x * u / 2);
	return x * sigma + mu;
}

static double norm_cdf(double x, double mu, double sigma)
{
	return erfc(-(x - mu) / (sigma * M_SQRT2)) / 2;
}

void quantile_ci_orders(size_t n_samples, double q, double confidence, size_t *lo, size_t *hi)
{
	int n = (int)n_samples, l, r;

	if (confidence >= 1) {
		*lo = 0;
		*hi = n_samples + 1;
		return;
	}
	if (n <= 30) {
		int x = q == 0 ? 0 : (int)(ceil((n + 1) * q) - 1);
		double accum = binom_pmf(n, q, x), lp, rp;

		l = x;
		r = x + 1;
		lp = binom_pmf(n, q, l - 1);
		rp = binom_pmf(n, q, r);
		while (accum < confidence && (lp > 0 || rp > 0)) {
			if (lp >= rp) {	/* left-biased */
				accum += lp;
				l--;
				lp = binom_pmf(n, q, l - 1);
			} else {
				accum += rp;
				r++;
				rp = binom_pmf(n, q, r);
			}
		}
	} else {
		double mu = n * q, sigma = sqrt(n * q * (1 - q));
		double l1 = norm_inv_cdf((1 - confidence) / 2, mu, sigma), r1 = 2 * mu - l1;
		double conf, biased;

		l = (int)floor(floor(l1 - 0.5) + 0.5) + 1;
		r = (int)floor(ceil(r1 - 0.5) + 0.5) + 1;
		conf = norm_cdf(r - 0.5, mu, sigma) - norm_cdf(l - 0.5, mu, sigma);
		biased = norm_cdf(r - 1 - 0.5, mu, sigma) - norm_cdf(l - 0.5, mu, sigma);
		if (biased >= confidence && biased < conf)
			r--;
	}
	*lo = l < 0 ? 0 : (size_t)l;
	*hi = r > n + 1 ? n_samples + 1 : (size_t)r;
}

double quantile_r8_sorted(const double *sorted, size_t n, double q)
{
	double pos, ipart, frac;
	size_t k;

	if (!n)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	pos = 1 / 3.0 + q * ((double)n + 1 / 3.0);
	frac = modf(pos, &ipart);
	if (ipart <= 0)
		return sorted[0];
	k = (size_t)ipart;
	if (k >= n)
		return sorted[n - 1];
	return sorted[k - 1] + frac * (sorted[k] - sorted[k - 1]);
}

void quantile_ci(const double *sorted, size_t n, double q, double confidence,
		 double *center, double *low, double *high)
{
	size_t lo, hi;

	quantile_ci_orders(n, q, confidence, &lo, &hi);
	*center = quantile_r8_sorted(sorted, n, q);
	*low = lo < 1 ? -INFINITY : sorted[lo - 1];
	*high = hi - 1 >= n ? INFINITY : sorted[hi - 1];
}

double moremath_geomean(const double *x, size_t n)
{
	double m = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return NAN;
		m += (log(x[i]) - m) / (double)(i + 1);
	}
	return exp(m);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * UDist.p: the probabilities of U = 0..@u without ties, by the recurrence
 * p(n, m)(U) = (n p(n-1, m)(U-m) + m p(n, m-1)(U)) / (n + m). The caller
 * frees the row returned.
 */
static double *udist_p(int n1, int n2, int u)
{
	int N = n1 < n2 ? n1 : n2, M = n1 < n2 ? n2 : n1;
	double **memo = xcalloc((size_t)N + 1, sizeof(double *)), *row;

	for (int n = 0; n <= N; n++)
		memo[n] = xcalloc((size_t)u + 1, sizeof(double));
	for (int m = 0; m <= M; m++) {
		int nlim = N < m ? N : m;

		memo[0][0] = 1;
		for (int n = 1; n <= nlim; n++) {
			double *lp = memo[n - 1], *rp = n <= m - 1 ? memo[n] : memo[m - 1];
			double *out = memo[n];
			int ulim = n * m < u ? n * m : u;

			for (int u1 = ulim; u1 >= 0; u1--) {
				double l = u1 - m >= 0 ? n * lp[u1 - m] : 0.0;
				double r = m * rp[u1];

				out[u1] = (l + r) / (double)(n + m);
			}
		}
	}
	row = memo[N];
	for (int n = 0; n < N; n++)
		free(memo[n]);
	free(memo);
	return row;
}

static double udist_cdf_noties(int n1, int n2, double u)
{
	int ui = (int)floor(u), flip;
	double p = 0, *pdfs;

	if (u < 0)
		return 0;
	if (u >= (double)(n1 * n2))
		return 1;
	flip = ui >= (n1 * n2 + 1) / 2;
	if (flip)
		ui = n1 * n2 - ui - 1;
	pdfs = udist_p(n1, n2, ui);
	for (int i = 0; i <= ui; i++)
		p += pdfs[i];
	free(pdfs);
	return flip ? 1 - p : p;
}

/* A set of (n1, 2U) keys with a value: one level of Klotz's recursion. */
struct umap {
	int64_t *keys;
	double *vals;
	size_t cap, len;
};

static int64_t ukey(int n1, int twou)
{
	return (int64_t)n1 << 32 | (uint32_t)twou;
}

static size_t umap_slot(const struct umap *m, int64_t key)
{
	size_t i = (size_t)((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 20) & (m->cap - 1);

	while (m->keys[i] != INT64_MIN && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void umap_init(struct umap *m)
{
	m->cap = 16;
	m->len = 0;
	m->keys = xmalloc(m->cap * sizeof(int64_t));
	m->vals = xcalloc(m->cap, sizeof(double));
	for (size_t i = 0; i < m->cap; i++)
		m->keys[i] = INT64_MIN;
}

static void umap_put(struct umap *m, int64_t key, double val);

static void umap_grow(struct umap *m)
{
	struct umap old = *m;

	m->cap *= 2;
	m->len = 0;
	m->keys = xmalloc(m->cap * sizeof(int64_t));
	m->vals = xcalloc(m->cap, sizeof(double));
	for (size_t i = 0; i < m->cap; i++)
		m->keys[i] = INT64_MIN;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i] != INT64_MIN)
			umap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

static void umap_put(struct umap *m, int64_t key, double val)
{
	size_t i;

	if (2 * (m->len + 1) > m->cap)
		umap_grow(m);
	i = umap_slot(m, key);
	if (m->keys[i] == INT64_MIN) {
		m->keys[i] = key;
		m->len++;
	}
	m->vals[i] = val;
}

static bool umap_get(const struct umap *m, int64_t key, double *val)
{
	size_t i = umap_slot(m, key);

	if (m->keys[i] == INT64_MIN)
		return false;
	*val = m->vals[i];
	return true;
}

static int twou_min(int n1, const int *t, int k_len, const int *a)
{
	int twou = -n1 * n1, n1_k = n1;

	for (int k = 1; k <= k_len; k++) {
		int r = n1_k < t[k - 1] ? n1_k : t[k - 1];

		twou += r * a[k];
		n1_k -= r;
	}
	return twou;
}

static int twou_max(int n1, const int *t, int k_len, const int *a)
{
	int twou = -n1 * n1, n1_k = n1;

	for (int k = k_len; k > 0; k--) {
		int r = n1_k < t[k - 1] ? n1_k : t[k - 1];

		twou += r * a[k];
		n1_k -= r;
	}
	return twou;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/*
 * makeUmemo: the number of arrangements of the tie groups @t (@K of them)
 * with n1 values of the first sample and 2U <= @twou, by Klotz's recursion
 * over the groups (A[k] keyed by n1 and 2U of the first k groups).
 */
static double umemo(int twou, int n1, const int *t, int K)
{
	int *a = xcalloc((size_t)K + 1, sizeof(int)), tsum = 0;
	struct umap *A = xcalloc((size_t)K + 1, sizeof(struct umap));
	double result = 0;

	a[1] = t[0];
	for (int k = 2; k <= K; k++)
		a[k] = a[k - 1] + t[k - 2] + t[k - 1];
	for (int k = 2; k <= K; k++)
		umap_init(&A[k]);
	umap_put(&A[K], ukey(n1, twou), 0);
	for (int k = 0; k < K; k++)
		tsum += t[k];
	for (int k = K - 1; k >= 2; k--) {
		tsum -= t[k];
		for (size_t s = 0; s < A[k + 1].cap; s++) {
			int64_t key = A[k + 1].keys[s];
			int kn1, ktwou, lo, hi;

			if (key == INT64_MIN)
				continue;
			kn1 = (int)(key >> 32);
			ktwou = (int)(int32_t)(uint32_t)key;
			lo = imax(0, kn1 - tsum);
			hi = imin(kn1, t[k]);
			for (int rk = lo; rk <= hi; rk++) {
				int twou_k = ktwou - rk * (a[k + 1] - 2 * kn1 + rk), n1_k = kn1 - rk;

				if (twou_min(n1_k, t, k, a) <= twou_k && twou_k <= twou_max(n1_k, t, k, a))
					umap_put(&A[k], ukey(n1_k, twou_k), 0);
			}
		}
	}
	for (size_t s = 0; s < A[2].cap; s++) {
		int64_t key = A[2].keys[s];
		int kn1, ktwou, n_2 = t[0] + t[1];
		double sum = 0;

		if (key == INT64_MIN)
			continue;
		kn1 = (int)(key >> 32);
		ktwou = (int)(int32_t)(uint32_t)key;
		for (int r2 = imax(0, kn1 - t[0]); r2 <= (ktwou - kn1 * (t[0] - kn1)) / n_2; r2++)
			sum += choose(t[0], kn1 - r2) * choose(t[1], r2);
		A[2].vals[s] = sum;
	}
	tsum = t[0];
	for (int k = 3; k <= K; k++) {
		tsum += t[k - 2];
		for (size_t s = 0; s < A[k].cap; s++) {
			int64_t key = A[k].keys[s];
			int kn1, ktwou;
			double sum = 0;

			if (key == INT64_MIN)
				continue;
			kn1 = (int)(key >> 32);
			ktwou = (int)(int32_t)(uint32_t)key;
			for (int rk = imax(0, kn1 - tsum); rk <= imin(kn1, t[k - 1]); rk++) {
				int twou_k1 = ktwou - rk * (a[k] - 2 * kn1 + rk), n1_k1 = kn1 - rk;
				double x = 0;

				if (!umap_get(&A[k - 1], ukey(n1_k1, twou_k1), &x) &&
				    twou_max(n1_k1, t, k - 1, a) < twou_k1)
					x = choose(tsum, n1_k1);
				sum += x * choose(t[k - 1], rk);
			}
			A[k].vals[s] = sum;
		}
	}
	umap_get(&A[K], ukey(n1, twou), &result);
	for (int k = 2; k <= K; k++) {
		free(A[k].keys);
		free(A[k].vals);
	}
	free(A);
	free(a);
	return result;
}

double moremath_utest(const double *x1, size_t n1s, const double *x2, size_t n2s,
		      const char **err)
{
	int n1 = (int)n1s, n2 = (int)n2s, N = n1 + n2, nt = 0, i = 0, j = 0;
	double *merged, r1 = 0, u1, u2, usmall, p;
	int *labels, *T;
	bool ties = false;

	*err = NULL;
	if (!n1 || !n2) {
		*err = MOREMATH_SAMPLE_TOO_SMALL;
		return NAN;
	}
	merged = xmalloc((size_t)N * sizeof(double));
	labels = xmalloc((size_t)N * sizeof(int));
	T = xmalloc((size_t)N * sizeof(int));
	{
		double *a = xmalloc(n1s * sizeof(double)), *b = xmalloc(n2s * sizeof(double));
		int o = 0;

		memcpy(a, x1, n1s * sizeof(double));
		memcpy(b, x2, n2s * sizeof(double));
		qsort(a, n1s, sizeof(double), cmp_double);
		qsort(b, n2s, sizeof(double), cmp_double);
		while (i < n1 && j < n2) {
			if (a[i] < b[j]) {
				merged[o] = a[i++];
				labels[o++] = 1;
			} else {
				merged[o] = b[j++];
				labels[o++] = 2;
			}
		}
		while (i < n1) {
			merged[o] = a[i++];
			labels[o++] = 1;
		}
		while (j < n2) {
			merged[o] = b[j++];
			labels[o++] = 2;
		}
		free(a);
		free(b);
	}
	for (i = 0; i < N;) {
		int rank1 = i + 1, nx1 = 0;
		double v1 = merged[i];

		for (; i < N && merged[i] == v1; i++)
			nx1 += labels[i] == 1;
		if (nx1)
			r1 += (double)(i + rank1) / 2 * nx1;
		T[nt++] = i - rank1 + 1;
		if (i > rank1)
			ties = true;
	}
	u1 = r1 - (double)(n1 * (n1 + 1)) / 2;
	u2 = (double)(n1 * n2) - u1;
	usmall = fmin(u1, u2);
	if ((!ties && n1 <= 50 && n2 <= 50) || (ties && n1 <= 25 && n2 <= 25)) {
		if (nt == 1) {
			*err = MOREMATH_SAMPLES_EQUAL;
			p = NAN;
		} else if (u1 == u2) {
			p = 1;
		} else if (ties) {
			p = usmall < 0 ? 0 : usmall >= (double)(n1 * n2) ? 1 :
			    umemo((int)(2 * usmall), n1, T, nt) / choose(N, n1);
			p *= 2;
		} else {
			p = udist_cdf_noties(n1, n2, usmall) * 2;
		}
	} else {
		double t = 0, mu = (double)(n1 * n2) / 2, sigma, numer, z, cdf;

		for (int k = 0; k < nt; k++)
			t += (double)(T[k] * T[k] * T[k] - T[k]);
		sigma = sqrt((double)(n1 * n2) * ((N + 1) - t / ((double)N * (N - 1))) / 12);
		if (sigma == 0) {
			*err = MOREMATH_SAMPLES_EQUAL;
			p = NAN;
		} else {
			numer = u1 - mu;
			numer -= (numer > 0 ? 1 : numer < 0 ? -1 : 0) * 0.5;
			z = numer / sigma;
			cdf = erfc(-z / M_SQRT2) / 2;
			p = 2 * fmin(cdf, 1 - cdf);
		}
	}
	free(merged);
	free(labels);
	free(T);
	return p;
}
