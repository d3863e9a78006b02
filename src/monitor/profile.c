// SPDX-License-Identifier: GPL-2.0
/*
 * The profile monitor: the workload's tasks sampled with call chains, as
 * `perf record -g -- WORKLOAD` does, without perf.
 *
 * Per iteration, one sampling event per CPU, each with its ring buffer.
 * Where this user may watch whole CPUs (root, CAP_PERFMON, or
 * kernel.perf_event_paranoid <= 0) the events sample the CPUs, as `perf
 * record -a` does, and the session keeps the samples of the iteration's
 * child and the processes it forks: an event of a task's own is switched
 * out and in with the task at every context switch, a cost a workload that
 * switches often (pipe) pays inside its timed section; an event of a CPU
 * stays. Otherwise the events sample the child, inherited by every
 * task it creates (the kernel refuses to map one buffer for an inherited
 * event on all CPUs, so perf record opens one per CPU too).
 *
 * A thread of ours empties the buffers while the workload runs, woken when
 * one is a quarter full, and adds the samples up per distinct call chain
 * (profile_session.c); the chains are resolved to functions after the
 * iteration, outside anything timed.
 *
 * Whether sampling is possible is decided once, at open, by trying it on
 * ourselves: without permission to sample the kernel (perf_event_paranoid,
 * no CAP_PERFMON) or with kernel addresses hidden (kptr_restrict), the
 * monitor leaves a note saying why and how to allow it, and the run goes
 * on without a profile.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "monitor/profile.h"
#include "monitor/profile_session.h"
#include "monitor/symbols.h"
#include "util/array.h"
#include "util/xalloc.h"

/* Data pages of each CPU's buffer (a power of two): 512 KiB, perf's default mlock budget. */
#define RING_PAGES 128
/*
 * A record is queued until every buffer is past its time; one in flight
 * (stamped, not yet in its buffer) can be this late.
 */
#define ORDER_WINDOW_NS 100000000ULL

struct profile_ring {
	int fd;
	void *base;			/* control page, then the data */
};

struct profile_monitor {
	/* Decided at open, for the whole run. */
	uint32_t type;
	uint64_t config;
	const char *event;		/* "cycles" or "cpu-clock" */
	int frequency;			/* samples a second on each CPU */
	bool whole_cpus;		/* sample the CPUs, keep the workload's samples */
	bool system;			/* profile-system: keep every task's samples */
	struct symbol_table kernel;
	struct dso_cache *dsos;
	size_t page_size, data_size;
	int nr_cpus;

	/* One iteration's, from before() to after(). */
	struct profile_ring *rings;
	size_t nr_rings;
	struct profile_session *session;
	pthread_t drainer;
	bool drainer_running;
	int stop_fd;
	char *record;			/* a record that wraps around its buffer's end */
	struct result_profile *result;	/* the last iteration's, until taken */
};

static void sample_attr(const struct profile_monitor *pm, uint32_t type, uint64_t config,
			bool inherit, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->freq = 1;
	attr->sample_freq = (uint64_t)pm->frequency;
	attr->sample_type = PROFILE_SAMPLE_TYPE;
	attr->disabled = 1;
	attr->inherit = inherit;
	attr->exclude_hv = 1;
	/* What profile_session.c needs to follow processes and their maps. */
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->comm = 1;
	attr->comm_exec = 1;
	attr->task = 1;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	attr->watermark = 1;
	attr->wakeup_watermark = (uint32_t)(pm->data_size / 4);
}

static int sample_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static long read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Try sampling ourselves, kernel included, with cycles and then cpu-clock.
 * Returns 1 when one works (pm->type, config, event set), 0 when sampling
 * is refused or absent (a note says why), -1 on EMFILE.
 */
static int choose_event(struct profile_monitor *pm, struct metric_table *table,
			struct error *err)
{
	static const struct {
		uint32_t type;
		uint64_t config;
		const char *name;
	} events[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
	};
	int last_errno = 0;

	for (size_t i = 0; i < ARRAY_SIZE(events); i++) {
		struct perf_event_attr attr;
		int fd;

		sample_attr(pm, events[i].type, events[i].config, false, &attr);
		fd = sample_open(&attr, 0, -1);
		if (fd >= 0) {
			close(fd);
			pm->type = events[i].type;
			pm->config = events[i].config;
			pm->event = events[i].name;
			fd = sample_open(&attr, -1, 0);
			pm->whole_cpus = fd >= 0;
			if (fd >= 0)
				close(fd);
			return 1;
		}
		if (errno == EMFILE || errno == ENFILE)
			return error_set(err, EXIT_ENV, "profile: cannot open a sampling event: %s "
					 "(raise the open-file limit, ulimit -n)", strerror(errno));
		if (errno == EINVAL) {
			long max_rate = read_sysctl("/proc/sys/kernel/perf_event_max_sample_rate");

			if (max_rate > 0 && pm->frequency > max_rate)
				return error_set(err, EXIT_USAGE, "--profile-frequency %d: above "
						 "this kernel's limit of %ld samples a second "
						 "(kernel.perf_event_max_sample_rate): give at most "
						 "%ld", pm->frequency, max_rate, max_rate);
		}
		last_errno = errno;
		if (errno == EACCES || errno == EPERM)
			break;	/* cpu-clock would be refused the same way */
	}
	if (last_errno == EACCES || last_errno == EPERM)
		monitor_note(table, "profile: no profile is taken: this user may not sample the "
			     "kernel (kernel.perf_event_paranoid is %ld; run as root or with "
			     "CAP_PERFMON, or sysctl kernel.perf_event_paranoid=1)",
			     read_sysctl("/proc/sys/kernel/perf_event_paranoid"));
	else
		monitor_note(table, "profile: no profile is taken: this kernel cannot sample "
			     "(perf_event_open: %s)", strerror(last_errno));
	return 0;
}

static void iteration_abandon(struct profile_monitor *pm);

/*
 * Every task of the next iteration is a fork of the runner: heap freed here
 * (kallsyms' and the ELF files' loading, an iteration's samples) would stay
 * mapped in each of them and be unmapped again at each exit, inside the
 * timed section of a workload that forks (doc/design.md, "What a profile
 * costs"). Give it back to the kernel first.
 */
static void give_back_heap(void)
{
	malloc_trim(0);
}

static void profile_close(void *state)
{
	struct profile_monitor *pm = state;

	if (!pm)
		return;
	iteration_abandon(pm);
	symbol_table_release(&pm->kernel);
	dso_cache_free(pm->dsos);
	if (pm->result) {
		result_profile_release(pm->result);
		free(pm->result);
	}
	free(pm->record);
	free(pm);
}

static int open_monitor(struct metric_table *table, const struct monitor_options *options,
			void **state, bool system, struct error *err)
{
	struct profile_monitor *pm = xcalloc(1, sizeof(*pm));
	struct error kallsyms_err;
	int rc;

	*state = NULL;
	pm->stop_fd = -1;
	pm->page_size = (size_t)sysconf(_SC_PAGESIZE);
	pm->data_size = RING_PAGES * pm->page_size;
	pm->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	pm->system = system;
	pm->frequency = options->profile_frequency > 0 ? options->profile_frequency :
			PROFILE_FREQUENCY;
	rc = choose_event(pm, table, err);
	if (rc <= 0 || (system && !pm->whole_cpus)) {
		if (rc > 0)
			monitor_note(table, "profile-system: no profile is taken: this user may not "
				     "sample whole CPUs (kernel.perf_event_paranoid is %ld; run as "
				     "root or with CAP_PERFMON, or sysctl kernel.perf_event_paranoid=0)",
				     read_sysctl("/proc/sys/kernel/perf_event_paranoid"));
		profile_close(pm);
		return rc < 0 ? rc : 0;
	}
	rc = kallsyms_load(&pm->kernel, NULL, &kallsyms_err);
	if (rc <= 0) {
		if (rc < 0)
			monitor_note(table, "profile: no profile is taken: %s", kallsyms_err.msg);
		else
			monitor_note(table, "profile: no profile is taken: /proc/kallsyms shows "
				     "this user no kernel addresses (kernel.kptr_restrict is %ld; "
				     "run as root, or sysctl kernel.kptr_restrict=0)",
				     read_sysctl("/proc/sys/kernel/kptr_restrict"));
		profile_close(pm);
		return 0;
	}
	pm->dsos = dso_cache_new();
	give_back_heap();
	monitor_note(table, "%s: %s sampled at %d Hz on each CPU, with the kernel and user "
		     "call chains of %s%s%s", system ? "profile-system" : "profile", pm->event,
		     pm->frequency, system ? "every task" : "the workload's tasks",
		     pm->whole_cpus ? "" : " (on the tasks themselves, which costs each "
		     "context switch: this user may not sample whole CPUs)",
		     strcmp(pm->event, "cycles") ? " (this machine counts no cycles)" : "");
	*state = pm;
	return 0;
}

static int profile_open(struct metric_table *table, const struct monitor_options *options,
			void **state, struct error *err)
{
	return open_monitor(table, options, state, false, err);
}

static int profile_system_open(struct metric_table *table,
			       const struct monitor_options *options, void **state,
			       struct error *err)
{
	return open_monitor(table, options, state, true, err);
}

/* ---- the ring buffers ---- */

/* Queue the records the kernel added to @ring since the last call. */
static void ring_drain(struct profile_monitor *pm, struct profile_ring *ring)
{
	struct perf_event_mmap_page *control = ring->base;
	const char *data = (const char *)ring->base + pm->page_size;
	uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = control->data_tail;
	size_t mask = pm->data_size - 1;

	while (tail < head) {
		struct perf_event_header header;
		size_t at = tail & mask, first;

		/* Headers are 8-byte aligned and never split; a record may wrap. */
		memcpy(&header, data + at, sizeof(header));
		if (header.size < sizeof(header) || header.size > head - tail)
			break;
		first = pm->data_size - at;
		if (header.size <= first) {
			profile_session_queue(pm->session, data + at, header.size);
		} else {
			memcpy(pm->record, data + at, first);
			memcpy(pm->record + first, data, header.size - first);
			profile_session_queue(pm->session, pm->record, header.size);
		}
		tail += header.size;
	}
	__atomic_store_n(&control->data_tail, tail, __ATOMIC_RELEASE);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void drain_round(struct profile_monitor *pm, uint64_t cutoff)
{
	for (size_t i = 0; i < pm->nr_rings; i++)
		ring_drain(pm, &pm->rings[i]);
	profile_session_process(pm->session, cutoff);
}

/*
 * The drainer: sleeps until a buffer is a quarter full, then empties them
 * all. A buffer whose tasks are gone reports POLLHUP for good: it is left
 * out of the poll from then on, and emptied once more at the end.
 */
static void *drain_main(void *arg)
{
	struct profile_monitor *pm = arg;
	struct pollfd *fds = xcalloc(pm->nr_rings + 1, sizeof(*fds));

	fds[0].fd = pm->stop_fd;
	fds[0].events = POLLIN;
	for (size_t i = 0; i < pm->nr_rings; i++) {
		fds[i + 1].fd = pm->rings[i].fd;
		fds[i + 1].events = POLLIN;
	}
	for (;;) {
		uint64_t start;

		if (poll(fds, pm->nr_rings + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[0].revents)
			break;
		for (size_t i = 1; i <= pm->nr_rings; i++)
			if (fds[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				fds[i].fd = -1;
		start = monotonic_ns();
		drain_round(pm, start > ORDER_WINDOW_NS ? start - ORDER_WINDOW_NS : 0);
	}
	free(fds);
	return NULL;
}

static void rings_close(struct profile_monitor *pm)
{
	for (size_t i = 0; i < pm->nr_rings; i++) {
		if (pm->rings[i].base)
			munmap(pm->rings[i].base, pm->page_size + pm->data_size);
		close(pm->rings[i].fd);
	}
	free(pm->rings);
	pm->rings = NULL;
	pm->nr_rings = 0;
}

/* One event and buffer per CPU that takes one (offline CPUs do not). */
static int rings_open(struct profile_monitor *pm, pid_t pid, struct error *err)
{
	struct perf_event_attr attr;
	int saved = ENODEV;

	sample_attr(pm, pm->type, pm->config, !pm->whole_cpus, &attr);
	pm->rings = xcalloc((size_t)pm->nr_cpus, sizeof(*pm->rings));
	for (int cpu = 0; cpu < pm->nr_cpus; cpu++) {
		struct profile_ring *ring = &pm->rings[pm->nr_rings];
		int fd = sample_open(&attr, pm->whole_cpus ? -1 : pid, cpu);

		if (fd < 0) {
			saved = errno;
			if (saved == EMFILE || saved == ENFILE || saved == ESRCH)
				goto fail;
			continue;	/* an offline CPU */
		}
		ring->fd = fd;
		pm->nr_rings++;
		ring->base = mmap(NULL, pm->page_size + pm->data_size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
		if (ring->base == MAP_FAILED) {
			saved = errno;
			ring->base = NULL;
			rings_close(pm);
			return error_set(err, EXIT_ENV, "profile: cannot map a sample buffer: %s "
					 "(raise kernel.perf_event_mlock_kb or 'ulimit -l')",
					 strerror(saved));
		}
	}
	if (pm->nr_rings)
		return 0;
fail:
	rings_close(pm);
	return error_set(err, EXIT_ENV, "profile: cannot sample process %d: %s%s", (int)pid,
			 strerror(saved), saved == EMFILE || saved == ENFILE ?
			 " (raise the open-file limit, 'ulimit -n')" : "");
}

static int drainer_start(struct profile_monitor *pm, struct error *err)
{
	sigset_t all, old;
	int rc;

	pm->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (pm->stop_fd < 0)
		return error_set(err, EXIT_ENV, "profile: eventfd: %s (raise the open-file "
				 "limit, 'ulimit -n')", strerror(errno));
	/* Signals are for the runner's thread: the drainer blocks them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&pm->drainer, NULL, drain_main, pm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		close(pm->stop_fd);
		pm->stop_fd = -1;
		return error_set(err, EXIT_ENV, "profile: cannot start a thread: %s (free "
				 "some memory, or raise the process limit, 'ulimit -u')",
				 strerror(rc));
	}
	pm->drainer_running = true;
	return 0;
}

static void drainer_stop(struct profile_monitor *pm)
{
	uint64_t one = 1;

	if (!pm->drainer_running)
		return;
	if (write(pm->stop_fd, &one, sizeof(one)) != sizeof(one))
		pthread_cancel(pm->drainer);
	pthread_join(pm->drainer, NULL);
	pm->drainer_running = false;
	close(pm->stop_fd);
	pm->stop_fd = -1;
}

/* Undo before(): no profile for this iteration. */
static void iteration_abandon(struct profile_monitor *pm)
{
	drainer_stop(pm);
	rings_close(pm);
	profile_session_free(pm->session);
	pm->session = NULL;
}

/*
 * profile-system: the maps of every process running now, so that their
 * user-space addresses resolve too (as perf record -a reads them); one
 * that has gone meanwhile has nothing to read.
 */
static void read_every_maps(struct profile_session *session)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;

	if (!proc)
		return;
	while ((d = readdir(proc))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (pid > 0 && !*end)
			profile_session_read_maps(session, (pid_t)pid, NULL);
	}
	closedir(proc);
}

static int profile_before(void *state, pid_t pid, struct error *err)
{
	struct profile_monitor *pm = state;

	iteration_abandon(pm);	/* a before() without its after() must not leak */
	if (!pm->record)
		pm->record = xmalloc(1 << 16);
	pm->session = profile_session_new(&pm->kernel, pm->dsos);
	if (pm->system)
		read_every_maps(pm->session);
	else if (pm->whole_cpus)
		profile_session_follow(pm->session, pid);
	/* The child is a copy of us, waiting for the go: its maps are ours until it runs. */
	if (profile_session_read_maps(pm->session, pid, NULL))
		profile_session_read_maps(pm->session, pid, "/proc/self/maps");
	if (rings_open(pm, pid, err) || drainer_start(pm, err)) {
		iteration_abandon(pm);
		return -1;
	}
	return 0;
}

static void profile_start(void *state)
{
	struct profile_monitor *pm = state;

	for (size_t i = 0; i < pm->nr_rings; i++)
		ioctl(pm->rings[i].fd, PERF_EVENT_IOC_ENABLE, 0);
}

/*
 * Leave out the symbols under 1/PROFILE_KEEP of the weight, self and
 * children: a profile's long tail of functions sampled once or twice says
 * nothing a comparison can use, and would be most of what is stored.
 */
#define PROFILE_KEEP 10000

static void prune(struct result_profile *p)
{
	size_t kept = 0;

	for (size_t i = 0; i < p->nr_symbols; i++) {
		struct result_profile_symbol *sym = &p->symbols[i];

		if (sym->children * PROFILE_KEEP >= p->total) {
			p->symbols[kept++] = *sym;
			continue;
		}
		free(sym->name);
		free(sym->dso);
	}
	p->nr_symbols = kept;
}

static void profile_after(void *state, double *values)
{
	struct profile_monitor *pm = state;
	struct result_profile *p;

	if (!pm->session)
		return;
	for (size_t i = 0; i < pm->nr_rings; i++)
		ioctl(pm->rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	drainer_stop(pm);
	drain_round(pm, UINT64_MAX);
	if (pm->result) {
		result_profile_release(pm->result);
		free(pm->result);
	}
	p = pm->result = xcalloc(1, sizeof(*p));
	p->event = xstrdup(pm->event);
	p->scope = xstrdup(pm->system ? "system" : "tasks");
	p->frequency = (uint64_t)pm->frequency;
	profile_session_result(pm->session, p);
	prune(p);
	iteration_abandon(pm);
	give_back_heap();
}

static struct result_profile *profile_take(void *state)
{
	struct profile_monitor *pm = state;
	struct result_profile *p = pm->result;

	pm->result = NULL;
	return p;
}

const struct monitor_ops profile_monitor = {
	.name = "profile",
	.open = profile_open,
	.before = profile_before,
	.start = profile_start,
	.after = profile_after,
	.close = profile_close,
	.take_profile = profile_take,
};

const struct monitor_ops profile_system_monitor = {
	.name = "profile-system",
	.open = profile_system_open,
	.before = profile_before,
	.start = profile_start,
	.after = profile_after,
	.close = profile_close,
	.take_profile = profile_take,
};
