#!/usr/bin/Rscript
# SPDX-License-Identifier: GPL-2.0
# Reference values for the large-sample statistics in tests/unit/test_tests.c:
# the Hodges-Lehmann estimate and interval of samples whose n_base * n_new
# differences are selected without being stored, and the large-sample
# limit of the bootstrap interval of a ratio of means.
#
# Run with Debian's r-base-core: Rscript tests/reference/large_sample_reference.R
#
#   hl     R's own wilcox.test(new, base, conf.int = TRUE) (normal branch,
#          uniroot to 1e-4) on samples rounded to 0.01, whose differences
#          are multiples of 0.01: the interval's ends are rounded to the
#          difference they converge on. The estimate is median(outer()),
#          which R's approximate branch approaches to within 1e-4.
#   limit  the Cornish-Fisher quantiles of log(mean(new*) / mean(base*))
#          from its resampling cumulants, written here from the formulas
#          (k1 = -v/2, k2 = v, k3 = m3 / (n^2 mean^3) - 3 v^2 per side);
#          R's percentile bootstrap of the same samples (B = 200000) is
#          printed beside it as the thing the limit approximates.
options(digits = 17)

# The samples test_tests.c builds: lognormal quantiles, rounded for hl.
quantile_sample <- function(n, sigma, scale) scale * exp(sigma * qnorm((seq_len(n) - 0.5) / n))
rounded <- function(x) floor(x * 100 + 0.5) / 100

hl_base <- rounded(quantile_sample(2000, 0.5, 10))
hl_new <- rounded(quantile_sample(1500, 0.6, 10.3))
w <- wilcox.test(hl_new, hl_base, conf.int = TRUE, exact = FALSE)
d <- outer(hl_new, hl_base, "-")
cat("hl 2000/1500 shift   ", median(d), "\n")
cat("hl 2000/1500 low     ", round(w$conf.int[1], 2), " (R's root", w$conf.int[1], ")\n")
cat("hl 2000/1500 high    ", round(w$conf.int[2], 2), " (R's root", w$conf.int[2], ")\n")
cat("hl 2000/1500 R's estimate (within 1e-4 of shift)", w$estimate, "\n")

side_cumulants <- function(x) {
	m <- mean(x)
	d <- x / m - 1
	n <- length(x)
	v <- mean(d^2) / n
	c(mean = m, k1 = -v / 2, k2 = v, k3 = mean(d^3) / n^2 - 3 * v^2)
}
limit <- function(base, new, level = 0.95) {
	b <- side_cumulants(base)
	s <- side_cumulants(new)
	k1 <- s[["k1"]] - b[["k1"]]
	k2 <- s[["k2"]] + b[["k2"]]
	k3 <- s[["k3"]] - b[["k3"]]
	z <- qnorm(c((1 - level) / 2, (1 + level) / 2))
	q <- k1 + sqrt(k2) * (z + (z^2 - 1) * k3 / (6 * k2^1.5))
	s[["mean"]] / b[["mean"]] * exp(q)
}
boot_base <- quantile_sample(200, 1.0, 1)
boot_new <- quantile_sample(180, 1.1, 1.02)
ends <- limit(boot_base, boot_new)
cat("limit 200/180 low    ", ends[1], "\n")
cat("limit 200/180 high   ", ends[2], "\n")
set.seed(1)
ratios <- replicate(200000, mean(sample(boot_new, replace = TRUE)) /
		    mean(sample(boot_base, replace = TRUE)))
cat("limit 200/180 R's bootstrap (B = 200000)", quantile(ratios, c(0.025, 0.975)), "\n")
