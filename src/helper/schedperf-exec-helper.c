// SPDX-License-Identifier: GPL-2.0
/*
 * The tiny program that aim9's exec test and the spawn workload execute:
 * it does nothing, so that what they time is process creation, exec and
 * exit, as AIM9's exec_test does with its own tiny child.
 */
int main(void)
{
	return 0;
}
