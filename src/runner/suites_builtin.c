// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in suites, as YAML text parsed by the same code as suite files
 * (schedperf-suite(5)), so a built-in suite is also an example of the
 * format: `schedperf run --suite FILE` with a copy of one behaves the same.
 *
 * Each reproduces a configuration from the source threads or from MMTests;
 * the comments say which. Sweeps expand on the machine that runs them.
 * Key order matters: the last key written varies fastest, as on the
 * command line.
 */
#include <string.h>

#include "runner/suite_file.h"
#include "util/registry.h"

/*
 * quick: perf bench's two scheduler workloads at sizes that finish in about a
 * minute on 2 CPUs with the default 5 iterations: pipe free and pinned to
 * one CPU (perf bench sched pipe; `taskset 1`), messaging over sockets and
 * pipes with processes and threads (perf bench sched messaging, hackbench).
 */
static const char quick_yaml[] =
	"- workload: pipe\n"
	"  params: {loops: 100000, cpus: [any, same]}\n"
	"- workload: messaging\n"
	"  params: {groups: 4, loops: 200, ipc: [socket, pipe]}\n"
	"- workload: messaging\n"
	"  params: {groups: 4, loops: 200, mode: thread}\n";

/*
 * standard: every workload but command (it has no program of its own to
 * run) once, swept over the machine's topology, at sizes and 3 iterations
 * that keep the whole suite to about 9 minutes on 2 CPUs (one iteration of
 * each of its 60 benchmarks took 172 s there), under the 15 the issue
 * allows with room for slower kernels. cyclictest at the normal policy
 * and fairness by nice levels, so that it needs neither root nor the cpu
 * controller (the latency and fairness suites measure those).
 */
static const char standard_yaml[] =
	"- workload: messaging\n"
	"  params: {loops: 200, mode: [process, thread], ipc: [pipe, socket]}\n"
	"  sweep: {groups: \"topology:1..2x\"}\n"
	"  iterations: 3\n"
	"- workload: pipe\n"
	"  params: {loops: 200000, cpus: [any, same]}\n"
	"  iterations: 3\n"
	"- workload: poundtime\n"
	"  sweep: {threads: \"stride:2..4x\"}\n"
	"  params: {call: [times, clock_gettime], calls: 1000000}\n"
	"  iterations: 3\n"
	"- workload: futex-wake\n"
	"  sweep: {threads: \"pow2:1..4x\"}\n"
	"  iterations: 3\n"
	"- workload: futex-hash\n"
	"  params: {runtime: 2}\n"
	"  sweep: {threads: \"topology:1..2x\"}\n"
	"  iterations: 3\n"
	"- workload: schbench\n"
	"  params: {runtime: 5, warmup: 1}\n"
	"  sweep: {workers: \"topology:1..2x\"}\n"
	"  iterations: 3\n"
	"- workload: threads\n"
	"  params: {runtime: 2}\n"
	"  sweep: {threads: \"stride:2..4x\"}\n"
	"  iterations: 3\n"
	"- workload: mutex\n"
	"  params: {locks: 10000}\n"
	"  sweep: {threads: \"stride:2..4x\"}\n"
	"  iterations: 3\n"
	"- workload: aim9\n"
	"  params: {test: [page, brk, exec, fork], duration: 2}\n"
	"  iterations: 3\n"
	"- workload: spawn\n"
	"  params: {count: 500, via: [spawn, shell]}\n"
	"  iterations: 3\n"
	"- workload: forkspread\n"
	"  params: {mode: [thread, process]}\n"
	"  sweep: {tasks: \"topology:1..4x\"}\n"
	"  iterations: 3\n"
	"- workload: reaim\n"
	"  params: {jobs: 50}\n"
	"  iterations: 3\n"
	"- workload: tcp-rr\n"
	"  params: {runtime: 2}\n"
	"  sweep: {pairs: \"topology:1..2x\"}\n"
	"  iterations: 3\n"
	"- workload: cyclictest\n"
	"  params: {policy: other, runtime: 2}\n"
	"  iterations: 3\n"
	"- workload: fairness\n"
	"  params: {mode: nice, weights: \"100:400\", runtime: 3}\n"
	"  iterations: 3\n";

/*
 * poundtime: MMTests' config-global-dhp__workload_poundtime: both
 * calls at 2 .. 4 x CPUs threads by MMTests' large stride, 10 runs each;
 * the thread count outermost and the call innermost, as the shellpack does.
 */
static const char poundtime_yaml[] =
	"- workload: poundtime\n"
	"  sweep: {threads: \"stride:2..4x\"}\n"
	"  params: {call: [times, clock_gettime]}\n"
	"  iterations: 10\n";

/*
 * hackbench: MMTests' scheduler-unbound-hackbench: process and thread mode
 * over pipes and sockets, each over groups by the topology walk up to
 * twice the CPUs.
 */
static const char hackbench_yaml[] =
	"- workload: messaging\n"
	"  params: {mode: [process, thread], ipc: [pipe, socket]}\n"
	"  sweep: {groups: \"topology:1..2x\"}\n";

/* perfpipe: `taskset 1 perf bench sched pipe` under perf stat --repeat 30. */
static const char perfpipe_yaml[] =
	"- workload: pipe\n"
	"  params: {cpus: same}\n"
	"  iterations: 30\n";

/* aim9: the four tests where fork and exec placement regressions show. */
static const char aim9_yaml[] =
	"- workload: aim9\n"
	"  params: {test: [page, brk, exec, fork]}\n";

/*
 * reaim: MMTests' reaim configurations: re-aim's compute, shared and dbase
 * workfiles, users from one to four times the CPUs by MMTests' large stride.
 */
static const char reaim_yaml[] =
	"- workload: reaim\n"
	"  params: {workfile: [compute, shared, dbase]}\n"
	"  sweep: {users: \"stride:1..4x\"}\n";

/* schbench: the default mode, workers by the topology walk. */
static const char schbench_yaml[] =
	"- workload: schbench\n"
	"  params: {message_threads: 1}\n"
	"  sweep: {workers: \"topology:1..2x\"}\n";

/*
 * sysbench: sysbench threads and mutex as scheduler reports run them
 * (--threads=8, --mutex-num=1), threads by MMTests' large stride.
 */
static const char sysbench_yaml[] =
	"- workload: threads\n"
	"  sweep: {threads: \"stride:2..4x\"}\n"
	"- workload: mutex\n"
	"  params: {num: 1}\n"
	"  sweep: {threads: \"stride:2..4x\"}\n";

/* futex: perf bench futex wake and hash, threads by topology. */
static const char futex_yaml[] =
	"- workload: futex-wake\n"
	"  sweep: {threads: \"topology:1..4x\"}\n"
	"- workload: futex-hash\n"
	"  sweep: {threads: \"topology:1..2x\"}\n";

/*
 * latency: wake-up latency as MMTests' and LKP's latency configurations
 * measure it: cyclictest on every CPU at a real-time and at the normal
 * policy, alone and beside hackbench (pmqtest-style), then the latency of
 * a request/response over loopback by pairs and schbench's, both over the
 * topology. SCHED_FIFO needs root, as cyclictest's does.
 */
static const char latency_yaml[] =
	"- workload: cyclictest\n"
	"  params: {policy: [fifo, other], runtime: 10}\n"
	"- workload: cyclictest\n"
	"  params: {policy: [fifo, other], runtime: 10, load: messaging,\n"
	"           load_params: \"groups=2 loops=1000\"}\n"
	"- workload: tcp-rr\n"
	"  params: {runtime: 10}\n"
	"  sweep: {pairs: \"topology:1..2x\"}\n"
	"- workload: schbench\n"
	"  params: {message_threads: 1, runtime: 10, warmup: 2}\n"
	"  sweep: {workers: \"topology:1..2x\"}\n";

/*
 * fairness: LKP's cgroup fairness question: equal weights, 1:4 and four
 * equal groups, as cgroups and as nice levels, busy tasks and, for 1:4,
 * periodic ones at half duty too (a string parameter's value is never a
 * sweep, so each set of weights is an entry of its own). The cgroup
 * entries need the cpu controller (exit 3 naming why where the machine
 * lacks it).
 */
static const char fairness_yaml[] =
	"- workload: fairness\n"
	"  params: {mode: [cgroup, nice], weights: \"100:100\"}\n"
	"- workload: fairness\n"
	"  params: {mode: [cgroup, nice], weights: \"100:400\", duty_pct: [100, 50]}\n"
	"- workload: fairness\n"
	"  params: {mode: [cgroup, nice], weights: \"100:100:100:100\"}\n";

/*
 * The one list of the built-in suites, in the order help shows them: --suite
 * NAME finds its text here, and its help and errors list these names.
 */
const struct suite_builtin suite_builtins[] = {
	{ { "quick", NULL }, quick_yaml },
	{ { "standard", NULL }, standard_yaml },
	{ { "poundtime", NULL }, poundtime_yaml },
	{ { "hackbench", NULL }, hackbench_yaml },
	{ { "perfpipe", NULL }, perfpipe_yaml },
	{ { "aim9", NULL }, aim9_yaml },
	{ { "reaim", NULL }, reaim_yaml },
	{ { "schbench", NULL }, schbench_yaml },
	{ { "sysbench", NULL }, sysbench_yaml },
	{ { "futex", NULL }, futex_yaml },
	{ { "latency", NULL }, latency_yaml },
	{ { "fairness", NULL }, fairness_yaml },
	{ { NULL, NULL }, NULL },
};

const char *suite_builtin_text(const char *name)
{
	const struct suite_builtin *b = REGISTRY_FIND(suite_builtins, name);

	return b ? b->yaml : NULL;
}

const char *suite_names(void)
{
	static char names[256];

	if (!names[0])
		registry_names(names, sizeof(names), suite_builtins, sizeof(suite_builtins[0]),
			       ", ", ", ", 0);
	return names;
}
