// SPDX-License-Identifier: GPL-2.0
/*
 * reaim: our implementation of the AIM Suite VII multiuser model as re-aim
 * (OSDL's reworking of AIM7, osdl-aim-7) runs it, and as MMTests' and
 * LKP's reaim/aim7 configurations sweep it: `users` processes start
 * together, each runs its job mix, and the result is jobs per minute.
 *
 * Where it follows re-aim:
 *  - A workfile weighs small tests by hits: `compute`, `shared` and `dbase`
 *    carry re-aim's data/workfile.compute, .shared and .dbase. Each user
 *    runs a test hits / total hits x `jobs` times, rounded half up and at
 *    least once (re-aim's runloop()), so a user's job count is the sum.
 *  - The tests are re-aim's: the same operations, loop counts, argument
 *    values and buffer sizes (add.c, mul.c, div.c, int_fcns.c, num_fcns.c,
 *    ram.c, creat_clo.c, pipe_test.c, disk1.c); a job is one call of one.
 *  - Every user is forked before the clock starts and all are released at
 *    once; the run ends when the last one exits. Jobs per minute is
 *    jobs per user x users x 60 / elapsed, per user the same without the
 *    users factor; the job timing index is 100 x (1 - CoV) of the users'
 *    elapsed times (100: all finished together).
 *  - The disk tests use files of `filesize` + `poolsize` / users KiB, in
 *    1 KiB blocks (re-aim's FILESIZE and POOLSIZE, MMTests' 10k and 1m).
 *
 * Where it differs:
 *  - A user's jobs run in a random order seeded by the user's number, a
 *    shuffle of its job list; re-aim walks a circular list by rand() seeded
 *    with the pid. The counts are the same; our order repeats run to run.
 *  - Not implemented: disk_src, shell_rtns_1 and misc_rtns_1 (they need
 *    re-aim's fakeh tree, its shell scripts and terminal routines). Their
 *    hits still count in the spread, so every other test runs as often as
 *    in re-aim; their jobs are skipped and a user's job count, the one jobs
 *    per minute counts, is the jobs it runs. With jobs=100 that leaves out
 *    1 of compute's 101 jobs, 7 of shared's 97, none of dbase's 99.
 *  - re-aim runs system("sync") around each disk test unless given -y,
 *    and itself recommends -y; we call sync(2) only with sync=yes.
 *  - udp_test and tcp_test talk over 127.0.0.1 (re-aim: the address of the
 *    host name); exec_test runs schedperf-exec-helper (re-aim: `true`).
 *  - One user count per benchmark: sweep users with -p users=1,2,4 or
 *    --sweep users=stride, instead of re-aim's adaptive increments, and
 *    no pause between forking the users and starting them.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats/rng.h"
#include "util/array.h"
#include "util/io.h"
#include "util/scratch_dir.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/exec_helper.h"
#include "workload/task_end.h"
#include "workload/workload.h"

enum {
	REAIM_PARAM_USERS,
	REAIM_PARAM_WORKFILE,
	REAIM_PARAM_JOBS,
	REAIM_PARAM_FILESIZE,
	REAIM_PARAM_POOLSIZE,
	REAIM_PARAM_SYNC,
	NR_REAIM_PARAMS,
};

static const char *const workfile_choices[] = { "compute", "shared", "dbase", NULL };
static const char *const sync_choices[] = { "no", "yes", NULL };

static const struct param_spec reaim_params[NR_REAIM_PARAMS] = {
	[REAIM_PARAM_USERS] = { "users", PARAM_INT, "4", 1, 10000, NULL,
		"simulated users: processes that run their job mix at once" },
	[REAIM_PARAM_WORKFILE] = { "workfile", PARAM_CHOICE, "compute", 0, 0, workfile_choices,
		"the job mix: re-aim's compute, shared (multiuser shared system) or dbase "
		"(large database) workfile" },
	[REAIM_PARAM_JOBS] = { "jobs", PARAM_INT, "100", 1, 100000, NULL,
		"jobs per user, spread over the workfile's tests by their hits (re-aim -j)" },
	[REAIM_PARAM_FILESIZE] = { "filesize", PARAM_INT, "10", 1, 1048576, NULL,
		"KiB of each disk test's file (re-aim FILESIZE)" },
	[REAIM_PARAM_POOLSIZE] = { "poolsize", PARAM_INT, "1024", 0, 16777216, NULL,
		"KiB shared out among the users' disk files: each adds poolsize/users "
		"(re-aim POOLSIZE)" },
	[REAIM_PARAM_SYNC] = { "sync", PARAM_CHOICE, "no", 0, 0, sync_choices,
		"sync(2) around the disk tests, as re-aim does without -y" },
};

enum {
	REAIM_METRIC_JPM,
	REAIM_METRIC_JPM_USER,
	REAIM_METRIC_ELAPSED,
	REAIM_METRIC_JTI,
	NR_REAIM_METRICS,
};

static const struct metric_spec reaim_metrics[NR_REAIM_METRICS] = {
	[REAIM_METRIC_JPM] = { "jobs_per_min", "jobs/min", BETTER_HIGHER,
		"jobs of all users per minute, as AIM7 reports it" },
	[REAIM_METRIC_JPM_USER] = { "jobs_per_min_per_user", "jobs/min", BETTER_HIGHER,
		"jobs per minute of one user" },
	[REAIM_METRIC_ELAPSED] = { "elapsed", "s", BETTER_LOWER,
		"from the users' release until the last one finished" },
	[REAIM_METRIC_JTI] = { "jti", "%", BETTER_HIGHER,
		"job timing index: 100 x (1 - CoV of the users' times), 100 when all "
		"finish together" },
};

/* ---- what a test has to work with ---- */

#define BLOCK 1024		/* re-aim's NBUFSIZE: disk I/O in 1 KiB blocks */
#define MAXBLK 65536		/* pipe_test.c's largest message */

struct reaim_user {
	int index;
	struct rng rng;
	const char *dir;		/* the run's private directory */
	const char *common;		/* disk_cp's source file, of disk_blocks blocks */
	const char *helper;		/* what exec_test runs */
	long disk_blocks;
	bool sync;
	unsigned long files;		/* names made so far */
	unsigned long message;		/* position in the message sizes */
	char *buffer;			/* MAXBLK + sizeof(double) bytes */
	char why[200];			/* what failed */
};

struct reaim_test {
	const char *name;
	int (*run)(const struct reaim_test *t, struct reaim_user *u);
	double a, b;			/* a test's two arguments, as re-aim registers them */
	long n;				/* its count argument */
};

static int fail(struct reaim_user *u, const struct reaim_test *t, const char *what)
{
	snprintf(u->why, sizeof(u->why), "%s: %s: %s", t->name, what, strerror(errno));
	return -1;
}

/* A fresh file name in the run's directory, as re-aim's aim_mktemp() makes them. */
static void temp_name(struct reaim_user *u, const char *prefix, char *path, size_t len)
{
	snprintf(path, len, "%s/%s.%d.%lu", u->dir, prefix, u->index, u->files++);
}

static unsigned long user_rand(struct reaim_user *u, unsigned long below)
{
	return (unsigned long)rng_below(&u->rng, below ? below : 1);
}

/*
 * Values the compiler cannot see through, as re-aim's came from sscanf():
 * without them the integer loops below would fold into constants.
 */
static volatile double opaque_double;
static volatile long opaque_long;

/* ---- arithmetic: add.c, mul.c, div.c, 12 operations a loop ---- */

#define ADD_LOOP(x, x1, x2)						\
	do {								\
		x += x1; x1 += x2; x1 += x2; x2 += x; x2 += x; x += x1;	\
		x += x1; x1 += x2; x1 += x2; x2 += x; x2 += x; x += x1;	\
	} while (0)

#define MUL_LOOP(x, x1, x2)						\
	do {								\
		x *= x1; x1 *= x2; x1 *= x2; x2 *= x1; x2 *= x1; x *= x2;	\
		x *= x1; x1 *= x2; x1 *= x2; x2 *= x1; x2 *= x1; x *= x2;	\
	} while (0)

/* mul.c's floating-point loop alternates differently from its integer one. */
#define FMUL_LOOP(x, x1, x2)						\
	do {								\
		x *= x1; x1 *= x2; x1 *= x2; x2 *= x; x2 *= x; x *= x1;	\
		x *= x1; x1 *= x2; x1 *= x2; x2 *= x; x2 *= x; x *= x1;	\
	} while (0)

#define DIV_LOOP(x, x1, x2)						\
	do {								\
		x /= x1; x /= x2; x1 /= x2; x2 /= x1; x /= x1; x /= x2;	\
		x1 /= x2; x2 /= x1; x /= x1; x /= x2; x1 /= x2; x2 /= x1;	\
	} while (0)

#define FDIV_LOOP(x, x1, x2)						\
	do {								\
		x /= x1; x2 /= x; x1 /= x2; x2 /= x1; x /= x2; x2 /= x;	\
		x /= x1; x2 /= x; x1 /= x2; x2 /= x1; x /= x2; x2 /= x;	\
	} while (0)

/* One function per test: @type's loop, started from @start. */
#define ARITH_TEST(fn, type, loop, start)				\
static int fn(const struct reaim_test *t, struct reaim_user *u)	\
{									\
	type x = (type)(start), x1, x2;					\
									\
	opaque_double = t->a;						\
	x1 = (type)opaque_double;					\
	opaque_double = t->b;						\
	x2 = (type)opaque_double;					\
	for (long n = t->n; n > 0; n--)					\
		loop(x, x1, x2);					\
	opaque_double = (double)x;					\
	return 0;							\
}

ARITH_TEST(add_double, double, ADD_LOOP, 0)
ARITH_TEST(add_float, float, ADD_LOOP, 0)
ARITH_TEST(add_long, long, ADD_LOOP, 0)
ARITH_TEST(add_int, int, ADD_LOOP, 0)
ARITH_TEST(add_short, short, ADD_LOOP, 0)
ARITH_TEST(mul_double, double, FMUL_LOOP, 1)
ARITH_TEST(mul_float, float, FMUL_LOOP, 1)
ARITH_TEST(mul_long, long, MUL_LOOP, 12345678)
ARITH_TEST(mul_int, int, MUL_LOOP, 12345678)
ARITH_TEST(mul_short, short, MUL_LOOP, 1234)
ARITH_TEST(div_double, double, FDIV_LOOP, 1)
ARITH_TEST(div_float, float, FDIV_LOOP, 1)
ARITH_TEST(div_long, long, DIV_LOOP, 12345678)
ARITH_TEST(div_int, int, DIV_LOOP, 12345678)
ARITH_TEST(div_short, short, DIV_LOOP, 1234)

/* ---- int_fcns.c, num_fcns.c, ram.c ---- */

#define SIEVE_PRIMES 78500	/* what re-aim's sieve finds below 1000000, 0 and 1 counted */

static int sieve(const struct reaim_test *t, struct reaim_user *u)
{
	size_t max = (size_t)t->a, primes = 0;
	char *table = malloc(max);

	if (!table)
		return fail(u, t, "malloc");
	for (long iter = 0; iter < t->n; iter++) {
		memset(table, 1, max);
		for (size_t n = 2; n < max; n++)
			if (table[n])
				for (size_t i = n + n; i < max; i += n)
					table[i] = 0;
	}
	for (size_t n = 0; n < max; n++)
		primes += table[n];
	free(table);
	if (primes != SIEVE_PRIMES) {
		errno = EDOM;
		return fail(u, t, "wrong prime count");
	}
	return 0;
}

/* num_fcns.c's vals[]: 0, 1, the smallest double, then halved differences. */
#define NUMVALS 500
static double vals[NUMVALS];
/* Its vals10[]: values in [-10, 10], fixed by our seed where re-aim used rand(). */
#define NUM10VALS 10000
static double vals10[NUM10VALS];
static unsigned long next_val, next_val10;

static void values_init(void)
{
	struct rng rng;
	double tiny = 1.0, half = 1.0;

	while (half > 0.0) {
		tiny = half;
		half /= 2.0;
	}
	vals[0] = 0.0;
	vals[1] = 1.0;
	vals[2] = tiny;
	for (int i = 3; i < NUMVALS; i++)
		vals[i] = fabs(vals[i - 2] - vals[i - 1]) / 2.0;
	rng_seed(&rng, 7);
	for (int i = 0; i < NUM10VALS; i++)
		vals10[i] = i % 1000 ? (double)rng_below(&rng, 2000001) / 100000.0 - 10.0 : tiny;
}

static double next_value(void)
{
	return vals[next_val++ % NUMVALS];
}

static double arg10(void)
{
	return vals10[next_val10++ % NUM10VALS];
}

static int series_1(const struct reaim_test *t, struct reaim_user *u)
{
	for (long n = 0; n < t->n; n++) {
		double d0 = next_value(), d1 = d0, old = 100.0, sine = 0.0;
		double d1_squared = d1 * d1, fact = 1.0, i = 1.0;

		while (sine != old) {
			old = sine;
			sine += d1 / fact;
			fact *= (i + 1) * (i + 2);
			i += 2;
			d1 *= -d1_squared;
		}
		if (fabs(sine - sin(d0)) > .0001) {
			errno = EDOM;
			return fail(u, t, "series does not match sin()");
		}
	}
	return 0;
}

#define MAXTRIES 100

static double raphson_f(double x)
{
	return 1000.0 * sin(x) * cos(x);
}

static double raphson_f_prime(double x)
{
	double c = cos(x), s = sin(x);

	return -(s * s * 1000.0) + (c * c * 1000.0);
}

static int new_raph(const struct reaim_test *t, struct reaim_user *u)
{
	for (long n = 0; n < t->n; n++) {
		double p0 = 0.05 * (double)n, p;
		int i;

		for (i = 1; i < MAXTRIES; i++) {
			p = p0 - raphson_f(p0) / raphson_f_prime(p0);
			if (fabs(p - p0) < 1e-12)
				break;
			p0 = p;
		}
		if (i >= MAXTRIES) {
			errno = EDOM;
			return fail(u, t, "no zero found");
		}
	}
	return 0;
}

static int trig_rtns(const struct reaim_test *t, struct reaim_user *u)
{
	for (long n = 0; n < 100 * t->n; n++) {
		opaque_double = acos(cos(asin(sin(arg10()))));
		opaque_double = tanh(atan(tan(arg10())));
		opaque_double = atan2(sinh(arg10()), cosh(arg10()));
	}
	return 0;
}

static int num_rtns_1(const struct reaim_test *t, struct reaim_user *u)
{
	for (long n = 0; n < t->n; n++) {
		double whole;
		int exponent;

		opaque_double = floor(exp(arg10())) + ceil(log10(arg10() + 10.0001));
		opaque_double = modf(log(arg10() + 10.0001), &whole) +
				frexp(arg10() - 10.0001, &exponent);
		opaque_double = ldexp(arg10(), abs(-exponent)) +
				fabs(fmod(arg10() * 5, arg10() + 10.0001));
		opaque_double = sqrt(pow(arg10() + 10.0001, arg10()));
		srand((unsigned)exponent);
		opaque_long = labs((long)(-rand() + n));
	}
	return 0;
}

#define M_SIZE 4

static int matrix_rtns(const struct reaim_test *t, struct reaim_user *u)
{
	double v1[M_SIZE], v2[M_SIZE][M_SIZE], v3[M_SIZE], prod = 0.0;

	for (long n = 0; n < t->n; n++) {
		for (int i = 0; i < M_SIZE; i++)
			v1[i] = next_value();
		for (int i = 0; i < M_SIZE; i++)
			for (int j = 0; j < M_SIZE; j++)
				v2[i][j] = next_value();
		for (int i = 0; i < M_SIZE; i++) {
			v3[i] = 0.0;
			for (int j = 0; j < M_SIZE; j++)
				v3[i] += v1[j] * v2[i][j];
		}
		prod += v3[0] * v3[1] * v3[2];
		opaque_double = (long)(v3[0] * 1280.0) + (long)(v3[1] * 1024.0) +
				(long)(v3[2] * 8192.0) + prod;
	}
	return 0;
}

#define A_HEIGHT 100

/* Gauss-Jordan on a high x (high + 1) system, as num_fcns.c's solve_array(). */
static bool solve_array(double *a, int wide, int high)
{
	for (int i = 0; i < high; i++) {
		double scale = a[i + wide * i];

		if (scale == 0.0)
			return false;
		for (int j = i; j < wide; j++)
			a[j + wide * i] /= scale;
		for (int j = i + 1; j < high; j++) {
			double f = a[i + wide * j];

			for (int k = 0; k < wide; k++)
				a[k + wide * j] -= f * a[k + wide * i];
		}
	}
	for (int i = high - 1; i > 0; i--)
		for (int j = i - 1; j >= 0; j--) {
			double f = a[i + wide * j];

			for (int k = 0; k < wide; k++)
				a[k + wide * j] -= f * a[k + wide * i];
		}
	return true;
}

static int array_rtns(const struct reaim_test *t, struct reaim_user *u)
{
	static double a[A_HEIGHT * (A_HEIGHT + 1)], orig[A_HEIGHT * (A_HEIGHT + 1)];
	double val = 1.0;
	int high = 5;

	for (long n = 0; n < t->n; n++, high += 5) {
		int wide;

		if (high > A_HEIGHT)
			high = 5;
		wide = high + 1;
		for (int j = 0; j < high; j++)
			for (int k = 0; k < wide; k++) {
				a[k + wide * j] = val;
				val = val * 1.00001 + 1.0;
				if (val > 1e20)
					val -= 1e19;
			}
		memcpy(orig, a, sizeof(a));
		if (!solve_array(a, wide, high)) {
			errno = EDOM;
			return fail(u, t, "singular system");
		}
		/* re-aim's check: each row of the original, times the solution */
		for (int i = 0; i < high; i++) {
			double sum = 0.0;

			for (int j = 0; j < high; j++)
				sum += orig[j + wide * i] * a[wide - 1 + wide * j];
			opaque_double = fabs(orig[wide - 1 + wide * i] - sum);
		}
	}
	return 0;
}

static int string_rtns(const struct reaim_test *t, struct reaim_user *u)
{
	static const char text[] =
		" \t\n\r\b0123456789 abcde fghij klmno pqrst uvwxy z ABCDE FGHIJ KLMNO "
		"PQRST UVWXY Z .,;:!@#$%^&*()_-+=|\\\"'`[]}{";
	const char *name = "What is your name?";
	char buffer[1024], *p;
	long count = 0;
	time_t now = time(NULL);

	memset(buffer, 0, sizeof(buffer));
	for (long n = 0; n < t->n; n++) {
		double d = (double)count / 1000.0;
		long l;

		/* As re-aim: the counter goes round through text and comes back itself. */
		snprintf(buffer, sizeof(buffer), "%g", d);
		d = atof(buffer);
		opaque_double = strtod(buffer, &p);
		l = (long)(1000 * d);
		snprintf(buffer, sizeof(buffer), "%ld", l);
		opaque_long = atol(buffer) + strtol(buffer, &p, 10);
		count = atoi(buffer);
		snprintf(buffer, sizeof(buffer), "%s", text);
		for (p = buffer; p != &buffer[sizeof(buffer) - 1]; p++) {
			unsigned char c = (unsigned char)*p;

			count += !!isalnum(c) + !!isalpha(c) + !!iscntrl(c) + !!isdigit(c) +
				 !!isgraph(c) + !!isprint(c) + !!ispunct(c) + !!isspace(c) +
				 !!isxdigit(c);
			if (islower(c))
				*p = (char)tolower(toupper(c));
			else if (isupper(c))
				*p = (char)toupper(tolower(c));
		}
		strcpy(buffer, name);
		while (sizeof(buffer) - strlen(buffer) > strlen(name)) {
			strcat(buffer, name);
			count += !strcmp(buffer, name);
		}
		strcpy(buffer, name);
		while (sizeof(buffer) - strlen(buffer) > strlen(name)) {
			size_t end = strlen(buffer);

			/* strncat(buffer, name, 10) */
			memcpy(buffer + end, name, 10);
			buffer[end + 10] = '\0';
			count += !strncmp(buffer, name, 10);
		}
		p = ctime(&now);
		now++;
		snprintf(buffer, sizeof(buffer), "%s", p ? p : "");
		count += !strcoll(buffer, name) + (strcspn(buffer, "jfamsond") > 4) +
			 !strpbrk(buffer, " ;\n") + !strrchr(buffer, '\n') +
			 (strspn(buffer, "abcdefghijklmnopqrstuvwxyz") > 5) +
			 (strstr(buffer, buffer) != buffer);
	}
	opaque_long = count;
	return 0;
}

/* Allocation sizes of mem_rtns_1 and mem_rtns_2, "roughly real world". */
static const int op_sizes[] = {
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095,
	11, 33, 65, 129, 1024, 1, 3, 5, 7, 9, 11, 33, 65, 129, 1024,
	1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
};
#define NR_OP_SIZES ARRAY_SIZE(op_sizes)
#define MAXSTRINGS 100

static int mem_rtns_1(const struct reaim_test *t, struct reaim_user *u)
{
	static const char str[] = "Hello, this is an average length string 1234";
	char *array[3 * MAXSTRINGS];
	long count = 0;

	for (long n = 0; n < t->n; n++) {
		for (int i = 0, j = 0; i < MAXSTRINGS; i++) {
			array[j] = malloc(sizeof(str));
			if (array[j])
				memcpy(array[j], str, sizeof(str));
			j++;
			array[j++] = malloc((size_t)op_sizes[i % NR_OP_SIZES]);
			array[j++] = calloc((size_t)op_sizes[(i + 1) % NR_OP_SIZES], 1);
		}
		for (int i = 0; i < 3 * MAXSTRINGS; i++) {
			if (!array[i]) {
				for (int k = 0; k < 3 * MAXSTRINGS; k++)
					free(array[k]);
				return fail(u, t, "malloc");
			}
			count += *array[i];
		}
		for (int i = 3 * MAXSTRINGS - 3; i >= 0; i -= 3) {
			free(array[i]);
			free(array[i + 2]);
			free(array[i + 1]);
		}
	}
	opaque_long = count;
	return 0;
}

#define SIZBUF 8192

static int mem_rtns_2(const struct reaim_test *t, struct reaim_user *u)
{
	char buff1[SIZBUF + sizeof(double)], buff2[SIZBUF + sizeof(double)];

	for (long n = 0; n < t->n; n++) {
		size_t off1 = (size_t)n % sizeof(double);
		size_t off2 = ((size_t)n / sizeof(double)) % sizeof(double);
		size_t size = (size_t)op_sizes[n % NR_OP_SIZES];
		char *p;

		memset(buff1 + off1, 'A', size);
		memset(buff2 + off2, 'A', size);
		(buff1 + off1)[(size_t)n % size] = 'Z';
		p = memchr(buff1 + off1, 'Z', size);
		if (memcmp(buff1 + off1, buff2 + off2, size) > 0 && p)
			*p = 'A';
		memcpy(buff1 + off1, buff2 + off2, size);
		memmove(buff2 + off1, buff1 + off2, size);
	}
	opaque_long = buff2[0];
	return 0;
}

#define MAXSORTSIZE 10000

static int int_ascending(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int int_descending(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

static int sort_rtns_1(const struct reaim_test *t, struct reaim_user *u)
{
	static int table[MAXSORTSIZE];
	long missing = 0;

	for (int i = 0; i < MAXSORTSIZE; i++)
		table[i] = i;
	for (long n = 0; n < t->n; n += 5) {
		qsort(table, MAXSORTSIZE, sizeof(table[0]), int_ascending);
		qsort(table, MAXSORTSIZE, sizeof(table[0]), int_descending);
		qsort(table, MAXSORTSIZE, sizeof(table[0]), int_ascending);
		for (int i = 0; i < MAXSORTSIZE * 2; i += 10)
			missing += !bsearch(&i, table, MAXSORTSIZE, sizeof(table[0]),
					    int_ascending);
	}
	opaque_long = missing;
	return 0;
}

static const int copy_sizes[] = {
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63, 7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 127, 256, 1001, 1200, 1492, 1500,
	1024, 2048, 3172, 4096, 8192, 16384, 32768, 65536, 512, 7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63, 7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7,
};

static int ram_copy(const struct reaim_test *t, struct reaim_user *u)
{
	static char a[65536 + sizeof(double)], b[65536 + sizeof(double)];
	size_t nr = ARRAY_SIZE(copy_sizes);

	for (long n = 0; n < t->n; n++)
		memcpy(&b[(size_t)n % sizeof(double)],
		       &a[((size_t)n / sizeof(double)) % sizeof(double)],
		       (size_t)copy_sizes[n % (long)nr]);
	opaque_long = b[t->n];
	return 0;
}

/* ---- creat_clo.c: the system's ---- */

/* Grow the break by 1 MiB, then n times give back 16 pages and take them one by one. */
static int brk_pages(const struct reaim_test *t, struct reaim_user *u, bool touch)
{
	char *old = sbrk(0);

	if (old == (void *)-1 || sbrk(1024 * 1024) == (void *)-1)
		return fail(u, t, "sbrk");
	for (long n = t->n; n > 0; n--) {
		sbrk(-4096 * 16);
		for (int i = 0; i < 16; i++) {
			char *page = sbrk(4096);

			if (page == (void *)-1) {
				brk(old);
				return fail(u, t, "sbrk");
			}
			for (int j = 0; touch && j < 4096; j += 128)
				page[j] = ' ';
		}
	}
	brk(old);
	return 0;
}

static int page_test(const struct reaim_test *t, struct reaim_user *u)
{
	return brk_pages(t, u, true);
}

static int brk_test(const struct reaim_test *t, struct reaim_user *u)
{
	return brk_pages(t, u, false);
}

static int creat_clo(const struct reaim_test *t, struct reaim_user *u)
{
	char path[PATH_MAX];

	temp_name(u, "tmpb", path, sizeof(path));
	for (long n = t->n; n > 0; n--) {
		int fd = creat(path, 0777);

		if (fd < 0 || close(fd) < 0) {
			unlink(path);
			return fail(u, t, "creat");
		}
	}
	unlink(path);
	return 0;
}

#define LINK_LOOP 9
#define LINKS 8

static int link_test(const struct reaim_test *t, struct reaim_user *u)
{
	char names[LINKS][PATH_MAX];
	int fd, rc = 0;

	for (int i = 0; i < LINKS; i++)
		temp_name(u, "link", names[i], sizeof(names[i]));
	fd = creat(names[0], 0777);
	if (fd < 0)
		return fail(u, t, "creat");
	for (int i = 1; i < LINKS && !rc; i++)
		if (link(names[0], names[i]))
			rc = fail(u, t, "link");
	for (int n = 0; n < LINK_LOOP && !rc; n++)
		for (int i = 1; i < LINKS && !rc; i++)
			if (unlink(names[i]) || link(names[0], names[i]))
				rc = fail(u, t, "unlink and link");
	for (int i = 0; i < LINKS; i++)
		unlink(names[i]);
	close(fd);
	return rc;
}

static jmp_buf jump_back;
static void jump_down(int depth);
/* Called through a pointer: the compiler takes the longjmp for the only way out. */
static void (*volatile descend)(int) = jump_down;

static void __attribute__((noinline)) jump_down(int depth)
{
	if (!depth)
		longjmp(jump_back, 1);
	descend(depth - 1);
	opaque_long = depth;	/* not a tail call: each level keeps its frame */
}

static int jmp_test(const struct reaim_test *t, struct reaim_user *u)
{
	for (volatile long n = 0; n < t->n; n++)
		if (!setjmp(jump_back))
			jump_down(10);
	return 0;
}

static volatile sig_atomic_t signals_caught;

static void count_signal(int sig)
{
	signals_caught++;
}

static int signal_test(const struct reaim_test *t, struct reaim_user *u)
{
	struct sigaction sa, old;
	pid_t self = getpid();
	int rc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_signal;
	sigaction(SIGUSR2, &sa, &old);
	signals_caught = 0;
	while (signals_caught < t->n)
		if (kill(self, SIGUSR2)) {
			rc = fail(u, t, "kill");
			break;
		}
	sigaction(SIGUSR2, &old, NULL);
	return rc;
}

/* fork_test and exec_test: a child that exits or runs a tiny program, waited for. */
static int spawn_and_wait(const struct reaim_test *t, struct reaim_user *u, bool exec)
{
	for (long n = t->n; n > 0; n--) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return fail(u, t, "fork");
		if (pid == 0) {
			if (exec)
				execl(u->helper, u->helper, (char *)NULL);
			_exit(exec ? 127 : 0);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return fail(u, t, "waitpid");
		if (WIFSIGNALED(status)) {
			char how[96];

			/* Killed from outside: this iteration fails, the run goes on. */
			task_end_describe(status, how, sizeof(how));
			snprintf(u->why, sizeof(u->why), "%s: its child %s", t->name, how);
			return 1;
		}
		if (!task_end_clean(status)) {
			errno = ECHILD;
			return fail(u, t, "the child failed");
		}
	}
	return 0;
}

static int fork_test(const struct reaim_test *t, struct reaim_user *u)
{
	return spawn_and_wait(t, u, false);
}

static int exec_test(const struct reaim_test *t, struct reaim_user *u)
{
	return spawn_and_wait(t, u, true);
}

static int dir_rtns_1(const struct reaim_test *t, struct reaim_user *u)
{
	DIR *dir = opendir("/bin");
	long ends = 0;

	if (!dir)
		return fail(u, t, "opendir /bin");
	for (long n = 0; n < 100 * t->n; n++)
		if (!readdir(dir)) {
			ends++;
			rewinddir(dir);
		}
	closedir(dir);
	opaque_long = ends;
	return 0;
}

/* ---- pipe_test.c: messages through pipes, sockets and shared memory ---- */

static const int message_sizes[] = {
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048, 4096,
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048, 4096,
	32, 32, 32, 32, 32, 32, 512, 512, 512, 512, 512, 2048, 2048, 2048, 2048,
};
#define NR_MESSAGE_SIZES ARRAY_SIZE(message_sizes)

static size_t next_message(struct reaim_user *u)
{
	return (size_t)message_sizes[u->message++ % NR_MESSAGE_SIZES];
}

/* re-aim's read_write_close(): n - 1 messages written then read back, one process. */
static int write_read(const struct reaim_test *t, struct reaim_user *u, int rd, int wr)
{
	int rc = 0;

	for (long n = t->n; --n > 0;) {
		size_t size = next_message(u);

		if (write_full(wr, u->buffer, size) || read_full(rd, u->buffer, size)) {
			rc = fail(u, t, "message");
			break;
		}
	}
	close(rd);
	close(wr);
	return rc;
}

static int pipe_cpy(const struct reaim_test *t, struct reaim_user *u)
{
	int fds[2];

	if (pipe(fds))
		return fail(u, t, "pipe");
	return write_read(t, u, fds[0], fds[1]);
}

static int socket_pair(const struct reaim_test *t, struct reaim_user *u, int type)
{
	int fds[2];

	if (socketpair(AF_UNIX, type, 0, fds))
		return fail(u, t, "socketpair");
	return write_read(t, u, fds[0], fds[1]);
}

static int stream_pipe(const struct reaim_test *t, struct reaim_user *u)
{
	return socket_pair(t, u, SOCK_STREAM);
}

static int dgram_pipe(const struct reaim_test *t, struct reaim_user *u)
{
	return socket_pair(t, u, SOCK_DGRAM);
}

/* A socket of @type bound to 127.0.0.1 on a port the kernel picks. */
static int loopback_socket(int type, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int udp_test(const struct reaim_test *t, struct reaim_user *u)
{
	struct sockaddr_in wr_addr, rd_addr;
	int wr = loopback_socket(SOCK_DGRAM, &wr_addr), rd;

	if (wr < 0)
		return fail(u, t, "socket");
	rd = loopback_socket(SOCK_DGRAM, &rd_addr);
	if (rd < 0 || connect(wr, (struct sockaddr *)&rd_addr, sizeof(rd_addr))) {
		close(wr);
		if (rd >= 0)
			close(rd);
		return fail(u, t, "socket");
	}
	return write_read(t, u, rd, wr);
}

static int tcp_test(const struct reaim_test *t, struct reaim_user *u)
{
	struct sockaddr_in addr;
	int listener = loopback_socket(SOCK_STREAM, &addr), rd, wr, on = 1;

	if (listener < 0)
		return fail(u, t, "socket");
	setsockopt(listener, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	rd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen(listener, 5) || rd < 0 ||
	    connect(rd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(listener);
		if (rd >= 0)
			close(rd);
		return fail(u, t, "connect");
	}
	while ((wr = accept(listener, NULL, NULL)) < 0 && errno == EINTR)
		;
	close(listener);
	if (wr < 0) {
		close(rd);
		return fail(u, t, "accept");
	}
	return write_read(t, u, rd, wr);
}

/* A semaphore-guarded copy into and out of a shared segment, 100 times. */
static int shared_memory(const struct reaim_test *t, struct reaim_user *u)
{
	struct sembuf down = { 0, -1, 0 }, up = { 0, 1, 0 };
	int shmid, sem, rc = 0;
	char *shared;

	shmid = shmget(IPC_PRIVATE, MAXBLK, IPC_CREAT | 0600);
	if (shmid < 0)
		return fail(u, t, "shmget");
	sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	shared = sem < 0 ? (void *)-1 : shmat(shmid, NULL, 0);
	if (shared == (void *)-1 || semctl(sem, 0, SETVAL, 1) < 0) {
		rc = fail(u, t, sem < 0 ? "semget" : "shmat");
		goto out;
	}
	for (long n = 0; n < t->n && !rc; n++) {
		size_t size = next_message(u);

		if (semop(sem, &down, 1)) {
			rc = fail(u, t, "semop");
			break;
		}
		memcpy(shared, u->buffer, size);
		semop(sem, &up, 1);
		if (semop(sem, &down, 1)) {
			rc = fail(u, t, "semop");
			break;
		}
		memcpy(u->buffer, shared, size);
		semop(sem, &up, 1);
	}
out:
	if (shared != (void *)-1)
		shmdt(shared);
	shmctl(shmid, IPC_RMID, NULL);
	if (sem >= 0)
		semctl(sem, 0, IPC_RMID);
	return rc;
}

/* ---- disk1.c: files in 1 KiB blocks ---- */

enum disk_kind {
	DISK_READ,		/* write the file, read it through */
	DISK_WRITE,		/* write the file */
	DISK_RANDOM_READ,	/* write the file, read random blocks */
	DISK_RANDOM_WRITE,	/* write the file, write random blocks */
	DISK_COPY,		/* copy the run's common file */
	DISK_UPDATE,		/* write the file, read and rewrite half its blocks at random */
};

struct disk_test {
	enum disk_kind kind;
	bool synchronous;	/* the sync_ tests: O_SYNC writes, half the blocks */
};

static const struct disk_test disk_tests[] = {
	[0] = { DISK_READ, false },
	[1] = { DISK_WRITE, false },
	[2] = { DISK_RANDOM_READ, false },
	[3] = { DISK_RANDOM_WRITE, false },
	[4] = { DISK_COPY, false },
	[5] = { DISK_WRITE, true },
	[6] = { DISK_RANDOM_WRITE, true },
	[7] = { DISK_COPY, true },
	[8] = { DISK_UPDATE, true },
};

static int write_blocks(int fd, const char *block, long blocks)
{
	for (long i = 0; i < blocks; i++)
		if (write(fd, block, BLOCK) != BLOCK)
			return -1;
	return 0;
}

/* Random blocks of @fd: read (and with @rewrite, write back) or write @count of them. */
static int random_blocks(struct reaim_user *u, int fd, long blocks, long count, bool read_first,
			 bool write_after)
{
	for (long i = 0; i < count; i++) {
		off_t at = (off_t)user_rand(u, (unsigned long)blocks) * BLOCK;

		if (lseek(fd, at, SEEK_SET) < 0)
			return -1;
		if (read_first && read(fd, u->buffer, BLOCK) != BLOCK)
			return -1;
		if (write_after && write(fd, u->buffer, BLOCK) != BLOCK)
			return -1;
	}
	return 0;
}

static int disk_body(const struct disk_test *d, struct reaim_user *u, const char *path)
{
	long blocks = d->synchronous && d->kind != DISK_UPDATE ? u->disk_blocks / 2 :
			u->disk_blocks;
	int sync_flag = d->synchronous ? O_SYNC : 0, fd, src, rc;

	if (d->kind == DISK_COPY) {
		src = open(u->common, O_RDONLY | O_CLOEXEC);
		if (src < 0)
			return -1;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | sync_flag, 0777);
		rc = fd < 0 ? -1 : 0;
		for (long i = 0; !rc && i < blocks; i++)
			rc = read(src, u->buffer, BLOCK) == BLOCK &&
			     write(fd, u->buffer, BLOCK) == BLOCK ? 0 : -1;
		close(src);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		  (d->kind == DISK_WRITE ? sync_flag : 0), 0777);
	if (fd < 0)
		return -1;
	rc = write_blocks(fd, u->buffer, blocks);
	close(fd);
	if (rc || d->kind == DISK_WRITE)
		return rc;
	fd = open(path, (d->kind == DISK_READ || d->kind == DISK_RANDOM_READ ? O_RDONLY :
			 d->kind == DISK_UPDATE ? O_RDWR : O_WRONLY) | O_CLOEXEC | sync_flag);
	if (fd < 0)
		return -1;
	switch (d->kind) {
	case DISK_READ:
		for (long i = 0; !rc && i < blocks; i++)
			rc = read(fd, u->buffer, BLOCK) == BLOCK ? 0 : -1;
		break;
	case DISK_RANDOM_READ:
		rc = random_blocks(u, fd, blocks, blocks, true, false);
		break;
	case DISK_RANDOM_WRITE:
		rc = random_blocks(u, fd, blocks, blocks, false, true);
		break;
	default:
		rc = random_blocks(u, fd, blocks, blocks / 2, true, true);
		break;
	}
	close(fd);
	return rc;
}

static int disk(const struct reaim_test *t, struct reaim_user *u)
{
	const struct disk_test *d = &disk_tests[t->n];
	char path[PATH_MAX];
	int rc;

	temp_name(u, "tmpd", path, sizeof(path));
	if (u->sync && !d->synchronous)
		sync();
	rc = disk_body(d, u, path);
	if (rc)
		fail(u, t, "file I/O");
	unlink(path);
	if (u->sync && !d->synchronous)
		sync();
	return rc;
}

/* ---- the tests and the workfiles ---- */

#define PI 3.14159

static const struct reaim_test tests[] = {
	{ "add_double", add_double, PI, -PI, 1500000 },
	{ "add_float", add_float, 3.5, -3.5, 1000000 },
	{ "add_long", add_long, 3, -3, 5000000 },
	{ "add_int", add_int, 3, -3, 5000000 },
	{ "add_short", add_short, 3, -3, 2000000 },
	{ "mul_double", mul_double, PI, 1.0 / PI, 1000000 },
	{ "mul_float", mul_float, 4.0, 0.25, 1000000 },
	{ "mul_long", mul_long, 1, 1, 20000 },
	{ "mul_int", mul_int, 1, 1, 20000 },
	{ "mul_short", mul_short, 1, 1, 25000 },
	{ "div_double", div_double, 4.0, 0.25, 250000 },
	{ "div_float", div_float, 4.0, 0.25, 250000 },
	{ "div_long", div_long, 1, 1, 75000 },
	{ "div_int", div_int, 1, 1, 75000 },
	{ "div_short", div_short, 1, 1, 75000 },
	{ "sieve", sieve, 1000000, 0, 5 },
	{ "series_1", series_1, 0, 0, 100 },
	{ "new_raph", new_raph, 0, 0, 200 },
	{ "trig_rtns", trig_rtns, 0, 0, 100 },
	{ "num_rtns_1", num_rtns_1, 0, 0, 100 },
	{ "matrix_rtns", matrix_rtns, 0, 0, 100 },
	{ "array_rtns", array_rtns, 0, 0, 20 },
	{ "string_rtns", string_rtns, 0, 0, 100 },
	{ "mem_rtns_1", mem_rtns_1, 0, 0, 100 },
	{ "mem_rtns_2", mem_rtns_2, 0, 0, 100 },
	{ "sort_rtns_1", sort_rtns_1, 0, 0, 10 },
	{ "ram_copy", ram_copy, 0, 0, 100 },
	{ "page_test", page_test, 0, 0, 100 },
	{ "brk_test", brk_test, 0, 0, 1000 },
	{ "creat_clo", creat_clo, 0, 0, 1000 },
	{ "link_test", link_test, 0, 0, 0 },
	{ "jmp_test", jmp_test, 0, 0, 1000 },
	{ "signal_test", signal_test, 0, 0, 1000 },
	{ "fork_test", fork_test, 0, 0, 100 },
	{ "exec_test", exec_test, 0, 0, 5 },
	{ "dir_rtns_1", dir_rtns_1, 0, 0, 100 },
	{ "shared_memory", shared_memory, 0, 0, 100 },
	{ "stream_pipe", stream_pipe, 0, 0, 100 },
	{ "dgram_pipe", dgram_pipe, 0, 0, 100 },
	{ "pipe_cpy", pipe_cpy, 0, 0, 100 },
	{ "udp_test", udp_test, 0, 0, 100 },
	{ "tcp_test", tcp_test, 0, 0, 90 },
	/* for the disk tests, n picks the kind in disk_tests[] */
	{ "disk_rd", disk, 0, 0, 0 },
	{ "disk_wrt", disk, 0, 0, 1 },
	{ "disk_rr", disk, 0, 0, 2 },
	{ "disk_rw", disk, 0, 0, 3 },
	{ "disk_cp", disk, 0, 0, 4 },
	{ "sync_disk_wrt", disk, 0, 0, 5 },
	{ "sync_disk_rw", disk, 0, 0, 6 },
	{ "sync_disk_cp", disk, 0, 0, 7 },
	{ "sync_disk_update", disk, 0, 0, 8 },
	/* not implemented: their jobs are skipped */
	{ "disk_src", NULL, 0, 0, 0 },
	{ "shell_rtns_1", NULL, 0, 0, 0 },
	{ "misc_rtns_1", NULL, 0, 0, 0 },
};

#define NR_TESTS ARRAY_SIZE(tests)

struct workfile_line {
	int hits;
	const char *test;
};

/* re-aim's data/workfile.compute: "Compute Server Mix", unchanged from AIM. */
static const struct workfile_line compute[] = {
	{ 50, "add_double" }, { 30, "add_int" }, { 30, "add_long" }, { 10, "array_rtns" },
	{ 10, "disk_cp" }, { 30, "disk_rd" }, { 10, "disk_src" }, { 20, "disk_wrt" },
	{ 40, "div_double" },
	{ 30, "div_int" }, { 50, "matrix_rtns" }, { 40, "mem_rtns_1" }, { 40, "mem_rtns_2" },
	{ 50, "mul_double" }, { 30, "mul_int" }, { 30, "mul_long" }, { 40, "new_raph" },
	{ 40, "num_rtns_1" }, { 50, "page_test" }, { 40, "series_1" },
	{ 10, "shared_memory" }, { 30, "sieve" }, { 20, "stream_pipe" },
	{ 30, "string_rtns" }, { 40, "trig_rtns" }, { 20, "udp_test" }, { 0, NULL },
};

/* data/workfile.shared: "Multiuser Shared System Mix". */
static const struct workfile_line shared[] = {
	{ 30, "add_double" }, { 30, "add_float" }, { 30, "add_int" }, { 30, "add_long" },
	{ 30, "add_short" }, { 10, "array_rtns" }, { 10, "brk_test" }, { 10, "creat_clo" },
	{ 10, "dgram_pipe" }, { 10, "dir_rtns_1" }, { 20, "disk_cp" }, { 20, "disk_rd" },
	{ 20, "disk_rr" }, { 20, "disk_rw" }, { 20, "disk_src" }, { 20, "disk_wrt" },
	{ 10, "div_double" },
	{ 10, "div_float" }, { 10, "div_int" }, { 10, "div_long" }, { 10, "div_short" },
	{ 20, "exec_test" }, { 10, "fork_test" }, { 10, "jmp_test" }, { 10, "link_test" },
	{ 10, "matrix_rtns" }, { 10, "mem_rtns_1" }, { 10, "mem_rtns_2" },
	{ 10, "misc_rtns_1" }, { 20, "mul_double" }, { 20, "mul_float" }, { 20, "mul_int" },
	{ 20, "mul_long" },
	{ 20, "mul_short" }, { 10, "new_raph" }, { 10, "num_rtns_1" }, { 10, "page_test" },
	{ 10, "pipe_cpy" }, { 10, "ram_copy" }, { 10, "series_1" }, { 10, "shared_memory" },
	{ 10, "sieve" }, { 20, "shell_rtns_1" }, { 10, "signal_test" }, { 10, "sort_rtns_1" },
	{ 10, "stream_pipe" }, { 30, "string_rtns" }, { 10, "sync_disk_cp" }, { 10, "sync_disk_rw" },
	{ 10, "sync_disk_wrt" }, { 10, "tcp_test" }, { 10, "trig_rtns" }, { 10, "udp_test" },
	{ 0, NULL },
};

/* data/workfile.dbase: "Large Database Mix". */
static const struct workfile_line dbase[] = {
	{ 20, "add_int" }, { 20, "add_long" }, { 20, "add_short" }, { 40, "disk_rd" },
	{ 40, "disk_rr" }, { 10, "div_int" }, { 10, "div_long" }, { 10, "div_short" },
	{ 10, "jmp_test" }, { 40, "mem_rtns_1" }, { 40, "mem_rtns_2" }, { 10, "mul_int" },
	{ 10, "mul_long" }, { 10, "mul_short" }, { 40, "page_test" }, { 20, "ram_copy" },
	{ 40, "shared_memory" }, { 30, "sieve" }, { 30, "sort_rtns_1" }, { 10, "stream_pipe" },
	{ 30, "string_rtns" }, { 30, "sync_disk_rw" }, { 30, "sync_disk_update" }, { 0, NULL },
};

static const struct workfile_line *const workfiles[] = { compute, shared, dbase };

static const struct reaim_test *test_find(const char *name)
{
	for (size_t i = 0; i < NR_TESTS; i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	return NULL;
}

/*
 * How many times one user runs each test of @wf, as re-aim's runloop()
 * spreads `jobs`: hits / total x jobs, rounded half up, and at least once
 * when that is not a whole number. Fills @counts[line] and returns the
 * user's job count: those of the tests it runs.
 */
static long spread_jobs(const struct workfile_line *wf, long jobs, long *counts)
{
	long total_hits = 0, total = 0;

	for (const struct workfile_line *l = wf; l->test; l++)
		total_hits += l->hits;
	for (size_t i = 0; wf[i].test; i++) {
		double share = (double)wf[i].hits / (double)total_hits * (double)jobs;
		long whole = (long)share;

		if (share - (double)whole >= 0.5)
			whole++;
		else if (share != (double)whole && whole == 0)
			whole = 1;
		counts[i] = whole;
		if (test_find(wf[i].test)->run)
			total += whole;
	}
	return total;
}

/* ---- users ---- */

/* What a user sends the parent when it is done. */
struct user_report {
	int index;
	int status;			/* 0; 1 with why: a task of it ended; -1 with why */
	double finished;		/* time_now() */
	char why[200];
};

/* One user: its job list shuffled, each job run; then the report. */
static int user_jobs(struct reaim_user *u, const struct workfile_line *wf, const long *counts,
		     long nr_jobs)
{
	const struct reaim_test **jobs = xcalloc((size_t)nr_jobs, sizeof(*jobs));
	long n = 0;
	int rc = 0;

	for (size_t i = 0; wf[i].test; i++) {
		const struct reaim_test *t = test_find(wf[i].test);

		for (long k = 0; t->run && k < counts[i]; k++)
			jobs[n++] = t;
	}
	for (long i = nr_jobs - 1; i > 0; i--) {
		long j = (long)user_rand(u, (unsigned long)i + 1);
		const struct reaim_test *swap = jobs[i];

		jobs[i] = jobs[j];
		jobs[j] = swap;
	}
	for (long i = 0; i < nr_jobs && !rc; i++)
		rc = jobs[i]->run(jobs[i], u);
	free(jobs);
	return rc;
}

static void __attribute__((noreturn))
user_main(struct reaim_user *u, const struct workfile_line *wf, const long *counts,
	  long nr_jobs, int ready_fd, int go_fd, int report_fd)
{
	struct user_report report;
	char go = 'r';

	memset(&report, 0, sizeof(report));
	report.index = u->index;
	/*
	 * Ready; then EOF is the go: the parent closes its end once all are
	 * ready. The ready end is dropped first: a user killed before it is
	 * ready then ends the parent's wait (users_ready()) as the others close.
	 */
	if (write_full(ready_fd, &go, 1))
		_exit(1);
	close(ready_fd);
	if (read(go_fd, &go, 1) != 0)
		_exit(1);
	close(go_fd);
	report.status = user_jobs(u, wf, counts, nr_jobs);
	report.finished = time_now();
	memcpy(report.why, u->why, sizeof(report.why));
	_exit(write_full(report_fd, &report, sizeof(report)) ? 1 : 0);
}

/* ---- the run ---- */

struct reaim_run {
	long users;
	const struct workfile_line *wf;
	long counts[64];
	long jobs;			/* per user */
	char dir[PATH_MAX];
	bool own_dir;			/* made here, not the runner's (workload_scratch_dir()) */
	char common[PATH_MAX];
	char helper[PATH_MAX];
	struct reaim_user proto;
	pid_t *pids;
	long forked;
	int ready[2], go[2], reports[2];
};

static int reaim_check(const struct param_value *values, struct workload_needs *needs,
		       struct error *err)
{
	long users = values[REAIM_PARAM_USERS].num;

	/* Each user and the child of its fork or exec test, and us. */
	needs->tasks = 2 * users + 1;
	/* A user's pipes or sockets, a file, and ours to the parent. */
	needs->fds = 16;
	return 0;
}

static long reaim_memory_kb(const struct param_value *values)
{
	/* sieve's table and page_test's break, a user's largest at once, and its buffers */
	return values[REAIM_PARAM_USERS].num * 4096;
}

/* A user's disk file, and the common one: filesize + poolsize / users KiB. */
static long disk_blocks(const struct param_value *values)
{
	return values[REAIM_PARAM_FILESIZE].num +
	       values[REAIM_PARAM_POOLSIZE].num / values[REAIM_PARAM_USERS].num;
}

/* At most at once: the common file and one disk test's file of each user. */
static long reaim_scratch_kb(const struct param_value *values)
{
	return (values[REAIM_PARAM_USERS].num + 1) * disk_blocks(values);
}

/*
 * The run's directory with disk_cp's common file in it: the iteration's
 * scratch directory, which the runner removes however the iteration ends;
 * outside the runner (a unit test) one of our own.
 */
static int make_files(struct reaim_run *r, struct error *err)
{
	const char *given = workload_scratch_dir();
	char *block;
	int fd, rc;

	if (given) {
		snprintf(r->dir, sizeof(r->dir), "%s", given);
	} else {
		char *dir = scratch_dir_make("reaim", err);

		if (!dir)
			return -1;
		snprintf(r->dir, sizeof(r->dir), "%s", dir);
		r->own_dir = true;
		free(dir);
	}
	snprintf(r->common, sizeof(r->common), "%s/tmpa.common", r->dir);
	fd = open(r->common, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	block = xcalloc(1, BLOCK);
	rc = fd < 0 || write_blocks(fd, block, r->proto.disk_blocks) ? -1 : 0;
	if (fd >= 0)
		close(fd);
	free(block);
	if (rc)
		return error_set(err, EXIT_ENV, "reaim: cannot write %s: %s (free space in "
				 "TMPDIR, or lower filesize and poolsize)", r->common,
				 strerror(errno));
	return 0;
}

/* Every file, the users' too: one that failed or was killed in a disk test leaves its file. */
static void remove_files(struct reaim_run *r)
{
	if (!r->dir[0])
		return;
	if (r->own_dir)
		scratch_dir_remove(r->dir);
	else
		scratch_dir_empty(r->dir);
}

static int fork_users(struct reaim_run *r, struct error *err)
{
	for (r->forked = 0; r->forked < r->users; r->forked++) {
		pid_t pid = fork();

		if (pid < 0)
			return error_set(err, EXIT_ENV, "reaim: cannot fork user %ld of %ld: %s "
					 "(raise 'ulimit -u' or kernel.threads-max)",
					 r->forked + 1, r->users, strerror(errno));
		if (pid == 0) {
			struct reaim_user u = r->proto;

			close(r->ready[0]);
			close(r->go[1]);
			close(r->reports[0]);
			u.index = (int)r->forked;
			rng_seed(&u.rng, (uint64_t)r->forked + 1);
			u.buffer = xcalloc(1, MAXBLK + sizeof(double));
			user_main(&u, r->wf, r->counts, r->jobs, r->ready[1], r->go[0],
				  r->reports[1]);
		}
		r->pids[r->forked] = pid;
	}
	return 0;
}

/* Collect every user's report and exit; the run's metrics from their times. */
static int reap_users(struct reaim_run *r, double start, double *metrics, struct error *err)
{
	double sum = 0, sumsq = 0, last = start;
	struct user_report report;
	long reported = 0;
	int rc = 0, cause = 0;

	while (reported < r->users && !read_full(r->reports[0], &report, sizeof(report))) {
		double took = report.finished - start;

		reported++;
		if (report.status && !rc) {
			report.why[sizeof(report.why) - 1] = '\0';
			rc = error_set(err, EXIT_ENV, "reaim: user %d failed in %s", report.index,
				       report.why);
			if (report.status > 0)
				rc = 1;
		}
		sum += took;
		sumsq += took * took;
		if (report.finished > last)
			last = report.finished;
	}
	for (long i = 0; i < r->forked; i++) {
		int status = 0;

		while (waitpid(r->pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!task_end_clean(status) && task_end_clean(cause))
			cause = status;
	}
	if (rc)
		return rc;
	if (reported < r->users) {
		char more[64];

		snprintf(more, sizeof(more), "; %ld of %ld users ended without a report",
			 r->users - reported, r->users);
		if (task_end_clean(cause))
			return error_set(err, EXIT_INTERNAL, "reaim: %s", more + 2);
		return task_end_fail(err, "reaim", "user", cause, more);
	}
	{
		double elapsed = last - start, mean = sum / (double)r->users;
		/* re-aim's population deviation of the users' times */
		double sd = sqrt(fmax(0, (sumsq - sum * sum / (double)r->users) / (double)r->users));
		double cov = mean > 0 ? sd / mean : 0;

		metrics[REAIM_METRIC_ELAPSED] = elapsed;
		metrics[REAIM_METRIC_JPM_USER] = (double)r->jobs / elapsed * 60.0;
		metrics[REAIM_METRIC_JPM] = metrics[REAIM_METRIC_JPM_USER] * (double)r->users;
		metrics[REAIM_METRIC_JTI] = r->users == 1 ? 100.0 : fmax(0, (1 - cov) * 100.0);
	}
	return 0;
}

static void close_pair(int fds[2])
{
	for (int i = 0; i < 2; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

static int check_workfile(const struct workfile_line *wf, struct error *err)
{
	for (const struct workfile_line *l = wf; l->test; l++)
		if (!test_find(l->test))
			return error_set(err, EXIT_INTERNAL, "reaim: the workfile names test "
					 "'%s', which is not implemented", l->test);
	return 0;
}

/* Wait for every user's ready byte; false when one died first. */
static bool users_ready(struct reaim_run *r)
{
	for (long ready = 0; ready < r->users;) {
		char buf[256];
		size_t want = (size_t)(r->users - ready) < sizeof(buf) ?
			      (size_t)(r->users - ready) : sizeof(buf);
		ssize_t n = read(r->ready[0], buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		ready += n;
	}
	return true;
}

static int reaim_run(const struct param_value *values, double *metrics, struct error *err)
{
	struct reaim_run r;
	double start;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	r.ready[0] = r.ready[1] = r.go[0] = r.go[1] = r.reports[0] = r.reports[1] = -1;
	r.users = values[REAIM_PARAM_USERS].num;
	r.wf = workfiles[values[REAIM_PARAM_WORKFILE].num];
	r.proto.disk_blocks = disk_blocks(values);
	r.proto.sync = values[REAIM_PARAM_SYNC].num == 1;
	values_init();
	if (check_workfile(r.wf, err) || exec_helper_find(r.helper, sizeof(r.helper), err) ||
	    make_files(&r, err))
		goto out;
	r.jobs = spread_jobs(r.wf, values[REAIM_PARAM_JOBS].num, r.counts);
	r.proto.dir = r.dir;
	r.proto.common = r.common;
	r.proto.helper = r.helper;
	if (pipe2(r.ready, O_CLOEXEC) || pipe2(r.go, O_CLOEXEC) || pipe2(r.reports, O_CLOEXEC)) {
		error_set(err, EXIT_ENV, "reaim: cannot create a pipe: %s (raise 'ulimit -n')",
			  strerror(errno));
		goto out;
	}
	r.pids = xcalloc((size_t)r.users, sizeof(*r.pids));
	rc = fork_users(&r, err);
	close(r.ready[1]);
	close(r.go[0]);
	close(r.reports[1]);
	r.ready[1] = r.go[0] = r.reports[1] = -1;
	/* A user that ended before it was ready was killed or failed: this iteration fails. */
	if (!rc && !users_ready(&r)) {
		error_set(err, EXIT_ENV, "reaim: a user ended before it was ready (killed, or "
			  "out of memory)");
		rc = 1;
	}
	if (rc) {
		/* Those forked read EOF on go and run, unless killed first. */
		for (long i = 0; i < r.forked; i++)
			kill(r.pids[i], SIGKILL);
		close_pair(r.go);
		reap_users(&r, time_now(), metrics, NULL);
		goto out;
	}
	start = time_now();
	close_pair(r.go);	/* every user reads EOF: go */
	rc = reap_users(&r, start, metrics, err);
out:
	close_pair(r.ready);
	close_pair(r.go);
	close_pair(r.reports);
	free(r.pids);
	remove_files(&r);
	return rc;
}

const struct workload workload_reaim = {
	.name = "reaim",
	.summary = "AIM7 multiuser model as re-aim runs it: users running a job mix, jobs/min",
	.params = reaim_params,
	.nr_params = NR_REAIM_PARAMS,
	.metrics = reaim_metrics,
	.nr_metrics = NR_REAIM_METRICS,
	.check = reaim_check,
	.ready = exec_helper_ready,
	.memory_kb = reaim_memory_kb,
	.scratch_kb = reaim_scratch_kb,
	.run = reaim_run,
};
