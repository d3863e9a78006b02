#!/usr/bin/Rscript
# SPDX-License-Identifier: GPL-2.0
# Reference values for the t interval of the mean (src/stats/mean_ci.c) in
# tests/unit/test_history.c: R's own t.test() (Debian's r-base-core).
# Run: Rscript tests/reference/mean_ci_reference.R
sets <- list(
	small = c(1.0, 2.0, 3.0, 4.0, 5.0),
	lat = c(1012.3, 998.7, 1005.1, 1020.4, 1001.9, 995.2, 1010.0, 1003.3),
	two = c(1.0, 2.0),
	offset = c(1e9 + 1.0, 1e9 + 2.0, 1e9 + 4.0, 1e9 + 3.0)
)
for (name in names(sets)) {
	for (level in c(0.95, 0.99, 0.5)) {
		ci <- t.test(sets[[name]], conf.level = level)$conf.int
		cat(sprintf("{ \"%s\", %.2f, %.17g, %.17g },\n", name, level, ci[1], ci[2]))
	}
}
