// SPDX-License-Identifier: GPL-2.0
/*
 * Weighted max-min fair shares and Jain's index (see fairness.h). The
 * water level rises until the capacity is spent or every entity is full:
 * each round, the entities not yet capped would split what is left by
 * weight; those whose cap that reaches are fixed at their cap and the
 * round repeats without them. At most n rounds.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/fairness.h"

void fair_shares(const double *weights, const double *caps, size_t n, double capacity,
		 double *out)
{
	bool *fixed = calloc(n, sizeof(*fixed));
	double left = capacity, total = 0;

	if (!fixed) {
		for (size_t i = 0; i < n; i++)
			out[i] = NAN;
		return;
	}
	for (size_t round = 0; round < n; round++) {
		double weight = 0, level;
		bool capped = false;

		for (size_t i = 0; i < n; i++)
			if (!fixed[i])
				weight += weights[i];
		if (weight <= 0)
			break;
		/* Capping an entity frees capacity, so the level only rises. */
		level = left / weight;
		for (size_t i = 0; i < n; i++) {
			if (!fixed[i] && level * weights[i] >= caps[i]) {
				out[i] = caps[i];
				left -= caps[i];
				fixed[i] = capped = true;
			}
		}
		if (capped)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!fixed[i])
				out[i] = left * weights[i] / weight;
		break;
	}
	for (size_t i = 0; i < n; i++)
		total += out[i];
	for (size_t i = 0; i < n; i++)
		out[i] = total > 0 ? out[i] / total : NAN;
	free(fixed);
}

double jain_index(const double *x, size_t n)
{
	double sum = 0, squares = 0;

	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		squares += x[i] * x[i];
	}
	return n && squares > 0 ? sum * sum / ((double)n * squares) : NAN;
}
