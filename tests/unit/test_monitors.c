// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the per-iteration monitors: that --monitors lists are
 * checked, that the metric list is fixed and truthful (absent means NAN,
 * never 0; a file the kernel lacks gives no metric), that perf counters
 * follow the workload into the tasks it creates, and that the /proc and
 * cpufreq parsers compute the right deltas from files with known contents.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "monitor/cpufreq.h"
#include "monitor/monitor.h"
#include "monitor/monitor_ops.h"
#include "monitor/procfs.h"
#include "test_helpers.h"
#include "util/array.h"

#define ROUND_TRIPS 1000
/*
 * The child and grandchild share one CPU, so every turn of their ping-pong
 * switches away from the task whose turn ends: two switches a round trip
 * (the first turn aside), however fast or loaded the machine. Other tasks
 * can only add switches.
 */
#define MIN_SWITCHES (2 * ROUND_TRIPS - 1)

static const char *const perf_hardware[] = {
	"cycles", "instructions", "cache_references", "cache_misses",
	"llc_loads", "llc_load_misses",
};

static long metric_index(const struct monitor_set *ms, const char *name)
{
	for (size_t i = 0; i < monitors_nr_metrics(ms); i++)
		if (!strcmp(monitors_metric(ms, i)->name, name))
			return (long)i;
	return -1;
}

static double metric_value(const struct monitor_set *ms, const double *values,
			   const char *name)
{
	long i = metric_index(ms, name);

	assert_true(i >= 0);
	return values[i];
}

/* Its format is checked at each call: vfprintf() of it is then no unchecked format. */
static void __attribute__((format(printf, 2, 3))) write_file(const char *path,
							     const char *fmt, ...)
{
	FILE *f = fopen(path, "w");
	va_list ap;

	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
}

static void free_table(struct metric_table *table)
{
	for (size_t i = 0; i < table->nr; i++)
		free(table->names[i]);
	free(table->names);
	free(table->specs);
}

/* ---- the workload: a child that plays ping-pong with its own child ---- */

static void ping_pong(int in, int out, bool serve)
{
	char byte = 'x';

	for (int i = 0; i < ROUND_TRIPS; i++) {
		if (!serve && write(out, &byte, 1) != 1)
			_exit(1);
		if (read(in, &byte, 1) != 1)
			_exit(1);
		if (serve && write(out, &byte, 1) != 1)
			_exit(1);
	}
}

/* Pin the caller (and the tasks it will create) to one CPU it may use. */
static int pin_to_one_cpu(void)
{
	cpu_set_t allowed, one;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	CPU_ZERO(&one);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &allowed)) {
			CPU_SET(cpu, &one);
			return sched_setaffinity(0, sizeof(one), &one);
		}
	}
	return -1;
}

static void __attribute__((noreturn)) child_main(int go_fd)
{
	int to_grandchild[2], to_child[2], status;
	pid_t grandchild;
	char go;

	if (read(go_fd, &go, 1) != 1 || pin_to_one_cpu())
		_exit(1);
	if (pipe(to_grandchild) < 0 || pipe(to_child) < 0)
		_exit(1);
	grandchild = fork();
	if (grandchild < 0)
		_exit(1);
	if (grandchild == 0) {
		ping_pong(to_grandchild[0], to_child[1], true);
		_exit(0);
	}
	ping_pong(to_child[0], to_grandchild[1], false);
	if (waitpid(grandchild, &status, 0) != grandchild || status)
		_exit(1);
	_exit(0);
}

/* Run the workload between monitors_before and monitors_after. */
static void measure_workload(struct monitor_set *ms, double *values)
{
	struct error err = { 0 };
	int go[2], status;
	pid_t pid;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		child_main(go[0]);
	}
	close(go[0]);
	assert_int_equal(monitors_before(ms, pid, &err), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	monitors_after(ms, values);
}

/* ---- tests ---- */

static void test_open_all(void **state)
{
	struct monitor_set *ms;
	struct error err = { 0 };
	bool have_schedstat = access("/proc/schedstat", R_OK) == 0;
	int fds = open_fds();

	assert_int_equal(monitors_open(NULL, NULL, &ms, &err), 0);
	/* a few fds held for the run, whatever the number of CPUs */
	assert_true(open_fds() <= fds + 14);
	assert_true(monitors_nr_metrics(ms) >= 10);
	/* perf first, all ten counters, whether the machine has them or not */
	assert_int_equal(metric_index(ms, "task_clock_ms"), 0);
	assert_int_equal(metric_index(ms, "llc_load_misses"), 9);
	assert_string_equal(monitors_metric_source(ms, 0), "perf");
	assert_true(metric_index(ms, "vmstat.pgfault") >= 0);
	assert_true(metric_index(ms, "vmstat.pgalloc") >= 0);
	assert_true(metric_index(ms, "stat.ctxt") >= 0);
	assert_true(metric_index(ms, "stat.intr") >= 0);
	assert_true(metric_index(ms, "stat.cpu0.user") >= 0);
	assert_true(metric_index(ms, "stat.cpu0.softirq") >= 0);
	assert_true(metric_index(ms, "softirqs.SCHED") >= 0);
	assert_true((metric_index(ms, "schedstat.run_ms") >= 0) == have_schedstat);
	for (size_t i = 0; i < monitors_nr_metrics(ms); i++) {
		const struct metric_spec *m = monitors_metric(ms, i);
		const char *source = monitors_metric_source(ms, i);

		assert_non_null(source);
		if (!have_schedstat)
			assert_string_not_equal(source, "schedstat");
		/* names are unique: they are stored as columns */
		assert_int_equal(metric_index(ms, m->name), (long)i);
		if (strcmp(source, "cpufreq"))
			assert_int_equal(m->better, BETTER_LOWER);
	}
	assert_null(monitors_metric(ms, monitors_nr_metrics(ms)));
	monitors_close(ms);
	assert_int_equal(open_fds(), fds);
}

static void test_counts_whole_tree(void **state)
{
	struct monitor_set *ms;
	struct error err = { 0 };
	double *values, switches;
	int fds;

	assert_int_equal(monitors_open(NULL, NULL, &ms, &err), 0);
	values = calloc(monitors_nr_metrics(ms), sizeof(double));
	assert_non_null(values);
	fds = open_fds();
	measure_workload(ms, values);
	if (getenv("SCHEDPERF_TEST_VERBOSE"))
		for (size_t i = 0; i < monitors_nr_metrics(ms); i++)
			print_message("%-10s %-32s %g\n", monitors_metric_source(ms, i),
				      monitors_metric(ms, i)->name, values[i]);
	/* the counters were detached: no fd left open per iteration */
	assert_int_equal(open_fds(), fds);

	switches = metric_value(ms, values, "context_switches");
	if (isnan(switches)) {
		/*
		 * perf_event_open refused altogether (seccomp, paranoid 3), or
		 * kernel counting refused (paranoid 2 without privilege), which
		 * never sees a switch: absent, never 0
		 */
		print_message("context switches not counted here: not checked\n");
		assert_true(isnan(metric_value(ms, values, "cpu_migrations")));
		for (size_t i = 0; isnan(values[0]) && i < 10; i++)
			assert_true(isnan(values[i]));
		switches = 0;
		goto procfs;
	}
	/* the grandchild's half counts: inherited, folded in as it exited */
	assert_true(switches >= MIN_SWITCHES);
	assert_true(metric_value(ms, values, "task_clock_ms") > 0);
	assert_true(metric_value(ms, values, "page_faults") > 0);
	assert_false(isnan(metric_value(ms, values, "cpu_migrations")));
	/* absent on machines without a PMU, never zero */
	for (size_t i = 0; i < ARRAY_SIZE(perf_hardware); i++) {
		double v = metric_value(ms, values, perf_hardware[i]);

		assert_true(isnan(v) || v > 0);
	}
procfs:
	/*
	 * system-wide switches include the workload's: /proc/stat is read
	 * before the counters start and after they are read, so only a switch
	 * under way on some CPU as they start can be counted there alone
	 */
	assert_true(metric_value(ms, values, "stat.ctxt") +
		    (double)sysconf(_SC_NPROCESSORS_CONF) >= switches);
	assert_true(metric_value(ms, values, "stat.processes") >= 1);
	assert_true(metric_value(ms, values, "vmstat.pgfault") > 0);
	assert_false(isnan(metric_value(ms, values, "stat.cpu0.idle")));
	assert_false(isnan(metric_value(ms, values, "softirqs.SCHED")));

	/* a second iteration measures again, from scratch */
	measure_workload(ms, values);
	if (switches)
		assert_true(metric_value(ms, values, "context_switches") >= MIN_SWITCHES);
	assert_int_equal(open_fds(), fds);
	free(values);
	monitors_close(ms);
}

static void test_after_without_before_is_nan(void **state)
{
	struct monitor_set *ms;
	struct error err = { 0 };
	double *values;

	assert_int_equal(monitors_open("perf,stat", NULL, &ms, &err), 0);
	values = calloc(monitors_nr_metrics(ms), sizeof(double));
	assert_non_null(values);
	monitors_after(ms, values);
	for (size_t i = 0; i < monitors_nr_metrics(ms); i++)
		assert_true(isnan(values[i]));
	free(values);
	monitors_close(ms);
}

static void test_unknown_name(void **state)
{
	struct monitor_set *ms = (struct monitor_set *)1;
	struct error err = { 0 };

	assert_int_equal(monitors_open("perf,bogus", NULL, &ms, &err), -1);
	assert_null(ms);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "bogus"));
	for (size_t i = 0; monitor_name(i); i++)
		assert_non_null(strstr(err.msg, monitor_name(i)));
}

static void test_none(void **state)
{
	static const char *const lists[] = { "", "none" };
	struct error err = { 0 };
	double value = 42;

	for (size_t i = 0; i < 2; i++) {
		struct monitor_set *ms;

		assert_int_equal(monitors_open(lists[i], NULL, &ms, &err), 0);
		assert_int_equal(monitors_nr_metrics(ms), 0);
		assert_int_equal(monitors_before(ms, getpid(), &err), 0);
		monitors_after(ms, &value);
		assert_true(value == 42);
		monitors_close(ms);
	}
}

/* Order and content follow the monitors' table, not the list. */
static void test_subset(void **state)
{
	struct monitor_set *ms;
	struct error err = { 0 };
	size_t n;

	assert_int_equal(monitors_open("stat,perf,stat", NULL, &ms, &err), 0);
	n = monitors_nr_metrics(ms);
	assert_true(n > 10);
	assert_string_equal(monitors_metric_source(ms, 0), "perf");
	assert_string_equal(monitors_metric_source(ms, 9), "perf");
	assert_string_equal(monitors_metric_source(ms, 10), "stat");
	assert_string_equal(monitors_metric_source(ms, n - 1), "stat");
	assert_null(monitors_metric_source(ms, n));
	monitors_close(ms);
}

/* Parse known contents: sums, deltas, units, and a key that disappears. */
static void test_procfs_deltas(void **state)
{
	static char padding[64 * 1024];
	char dir[] = "/tmp/schedperf-monXXXXXX", path[128];
	struct metric_table table = { 0 };
	struct error err = { 0 };
	void *vm, *ss;
	double values[8];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/vmstat", dir);
	write_file(path, "nr_free_pages 100\npgalloc_dma 1\npgalloc_normal 10\n"
		   "pgfault 5\nnuma_hit 7\n");
	assert_int_equal(procfs_open_path(&vmstat_monitor, path, &table, &vm, &err), 0);
	assert_non_null(vm);
	assert_int_equal(table.nr, 3);	/* nr_free_pages is a gauge: dropped */
	assert_string_equal(table.specs[0].name, "vmstat.pgalloc");
	assert_string_equal(table.specs[1].name, "vmstat.pgfault");
	assert_string_equal(table.specs[2].name, "vmstat.numa_hit");
	assert_int_equal(vmstat_monitor.before(vm, 0, &err), 0);
	/* and grown past the buffers sized at open */
	for (size_t i = 0, used = 0; i < 2000; i++)
		used += (size_t)snprintf(padding + used, sizeof(padding) - used,
					 "nr_padding_%zu 1\n", i);
	write_file(path, "nr_free_pages 50\n%spgalloc_dma 3\npgalloc_normal 30\n"
		   "pgfault 9\nthp_fault_alloc 1\n", padding);
	vmstat_monitor.after(vm, values);
	assert_true(values[0] == 22);
	assert_true(values[1] == 4);
	assert_true(isnan(values[2]));	/* numa_hit vanished */
	vmstat_monitor.close(vm);

	snprintf(path, sizeof(path), "%s/schedstat", dir);
	write_file(path, "version 15\ntimestamp 1\n"
		   "cpu0 0 0 0 0 0 0 1000000 2000000 10\ndomain0 3 1 2 3\n"
		   "cpu1 0 0 0 0 0 0 3000000 4000000 20\n");
	assert_int_equal(procfs_open_path(&schedstat_monitor, path, &table, &ss, &err), 0);
	assert_int_equal(table.nr, 6);
	assert_string_equal(table.specs[3].name, "schedstat.run_ms");
	assert_string_equal(table.specs[3].unit, "ms");
	assert_string_equal(table.specs[5].name, "schedstat.timeslices");
	assert_int_equal(schedstat_monitor.before(ss, 0, &err), 0);
	write_file(path, "version 15\ntimestamp 2\n"
		   "cpu0 0 0 0 0 0 0 2000000 2000000 15\ndomain0 3 1 2 3\n"
		   "cpu1 0 0 0 0 0 0 5000000 4500000 21\n");
	schedstat_monitor.after(ss, values);
	assert_true(fabs(values[0] - 3.0) < 1e-9);	/* run: 1 + 2 ms */
	assert_true(fabs(values[1] - 0.5) < 1e-9);	/* wait */
	assert_true(values[2] == 6);			/* timeslices */
	schedstat_monitor.close(ss);

	/* a missing file: no metric at all, not zeros */
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(procfs_open_path(&schedstat_monitor, path, &table, &ss, &err), 0);
	assert_null(ss);
	assert_int_equal(table.nr, 6);
	free_table(&table);

	snprintf(path, sizeof(path), "%s/vmstat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	unlink(path);
	rmdir(dir);
}

static void make_cpu(const char *dir, int cpu, bool cpufreq, bool stats)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/cpu%d", dir, cpu);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!cpufreq)
		return;
	snprintf(path, sizeof(path), "%s/cpu%d/cpufreq", dir, cpu);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!stats)
		return;
	snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/stats", dir, cpu);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void test_cpufreq(void **state)
{
	char dir[] = "/tmp/schedperf-cpufreqXXXXXX", path[256], cmd[300];
	char states[256], cur0[256], cur1[256];
	struct metric_table table = { 0 };
	struct error err = { 0 };
	double values[2];
	void *cm;

	assert_non_null(mkdtemp(dir));
	make_cpu(dir, 0, true, true);	/* time_in_state */
	make_cpu(dir, 1, true, false);	/* scaling_cur_freq only */
	make_cpu(dir, 2, false, false);	/* nothing: no metric */
	snprintf(path, sizeof(path), "%s/cpufreq", dir);	/* not a CPU */
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(states, sizeof(states), "%s/cpu0/cpufreq/stats/time_in_state", dir);
	snprintf(cur0, sizeof(cur0), "%s/cpu0/cpufreq/scaling_cur_freq", dir);
	snprintf(cur1, sizeof(cur1), "%s/cpu1/cpufreq/scaling_cur_freq", dir);
	write_file(states, "3000000 100\n2000000 50\n1000000 10\n");
	write_file(cur0, "1000000\n");
	write_file(cur1, "2000000\n");

	assert_int_equal(cpufreq_open_at(dir, &table, &cm, &err), 0);
	assert_non_null(cm);
	assert_int_equal(table.nr, 2);
	assert_string_equal(table.specs[0].name, "cpufreq.cpu0");
	assert_string_equal(table.specs[1].name, "cpufreq.cpu1");
	assert_string_equal(table.specs[0].unit, "MHz");

	assert_int_equal(cpufreq_monitor.before(cm, 0, &err), 0);
	/* cpu0: 30 ticks at 3 GHz, 10 at 1 GHz; cpu1: 2 GHz then 3 GHz */
	write_file(states, "3000000 130\n2000000 50\n1000000 20\n");
	write_file(cur1, "3000000\n");
	cpufreq_monitor.after(cm, values);
	assert_true(fabs(values[0] - 2500) < 1e-9);
	assert_true(fabs(values[1] - 2500) < 1e-9);

	/* no time_in_state progress (a short iteration): cur_freq instead */
	assert_int_equal(cpufreq_monitor.before(cm, 0, &err), 0);
	cpufreq_monitor.after(cm, values);
	assert_true(fabs(values[0] - 1000) < 1e-9);
	cpufreq_monitor.close(cm);
	free_table(&table);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_all),
		cmocka_unit_test(test_counts_whole_tree),
		cmocka_unit_test(test_after_without_before_is_nan),
		cmocka_unit_test(test_unknown_name),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_subset),
		cmocka_unit_test(test_procfs_deltas),
		cmocka_unit_test(test_cpufreq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
