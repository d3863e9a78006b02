# SPDX-License-Identifier: GPL-2.0
# Reference values for tests/unit/test_batches.c (src/stats/batches.c).
# Run with Debian's r-base-core: Rscript tests/reference/batches_reference.R
# Every number printed here is pasted into test_batches.c.
#
#   batch_means_test  t.test(new_means, base_means) (Welch): statistic,
#                     parameter (df), p.value, conf.int at 0.95
#   batch_components  anova(lm(x ~ factor(batch))) mean squares; the
#                     variance components from them by the textbook
#                     (Searle) n0 = (N - sum(n_i^2) / N) / (k - 1)
options(digits = 17)

sets <- list(
  # two boots per kernel, five iterations each: boots differ by ~4,
  # iterations within a boot by ~0.5
  two_base = list(x = c(100.1, 100.6, 99.8, 100.3, 100.2,
                        104.2, 103.9, 104.5, 104.0, 104.4),
                  b = c(5, 5)),
  two_new = list(x = c(101.0, 101.4, 100.7, 101.2, 100.9,
                       105.3, 104.8, 105.1, 105.5, 104.9),
                 b = c(5, 5)),
  # unbalanced, three and two batches
  unbal_base = list(x = c(10.2, 10.4, 10.1, 11.0, 11.3, 10.9, 11.1, 11.2,
                          9.8, 9.9, 10.0, 9.7),
                    b = c(3, 5, 4)),
  unbal_new = list(x = c(12.1, 12.4, 12.0, 12.2, 12.5, 12.3, 13.0, 12.9),
                   b = c(6, 2)),
  # no between-batch variance beyond the within (MSB < MSW): share 0
  flat = list(x = c(5.0, 6.0, 4.0, 5.5, 4.5, 5.0), b = c(3, 3))
)

batch <- function(s) factor(rep(seq_along(s$b), s$b))
means <- function(s) tapply(s$x, batch(s), mean)

components <- function(name) {
  s <- sets[[name]]
  a <- anova(lm(s$x ~ batch(s)))
  msb <- a[["Mean Sq"]][1]
  msw <- a[["Mean Sq"]][2]
  N <- length(s$x)
  k <- length(s$b)
  n0 <- (N - sum(s$b^2) / N) / (k - 1)
  vb <- max(0, (msb - msw) / n0)
  cat(sprintf("%s: mean_of_means %.17g sd_of_means %.17g\n", name,
              mean(means(s)), sd(means(s))))
  cat(sprintf("  ms_between %.17g ms_within %.17g var_between %.17g share %.17g\n",
              msb, msw, vb, vb / (vb + msw)))
}

welch <- function(base, new) {
  r <- t.test(means(sets[[new]]), means(sets[[base]]))
  cat(sprintf("%s vs %s: t %.17g df %.17g p %.17g diff %.17g ci %.17g %.17g\n",
              new, base, r$statistic, r$parameter, r$p.value,
              mean(means(sets[[new]])) - mean(means(sets[[base]])),
              r$conf.int[1], r$conf.int[2]))
  cat(sprintf("  spread %.17g\n", sqrt((var(means(sets[[base]])) +
                                          var(means(sets[[new]]))) / 2)))
}

for (n in names(sets)) components(n)
welch("two_base", "two_new")
welch("unbal_base", "unbal_new")
