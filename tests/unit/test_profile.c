// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the profile monitor: symbols from a kallsyms file with
 * known contents and from this test's own ELF file; a session fed records
 * written here (processes forking and exec'ing, records out of order, call
 * chains with recursion) adding up to exactly the expected self and
 * children weights; and, where this machine lets us sample, a live
 * profile of a child that does nothing but call getppid().
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "monitor/monitor.h"
#include "monitor/profile_session.h"
#include "monitor/symbols.h"
#include "test_helpers.h"

#define GETPPID_CALLS 300000

static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 t __pfx_do_syscall_64\n"
	"ffffffff81001010 T do_syscall_64\n"
	"ffffffff81001010 t __do_syscall_64_alias\n"
	"ffffffff81002000 T __x64_sys_getppid\n"
	"ffffffff81002100 D some_data\n"
	"ffffffff81003000 t schedule\n"
	"ffffffff81003800 t tlb_flush\n"
	"ffffffff81003900 t pick_next\n"
	"ffffffff81003a00 t tlb_flush\n"
	"ffffffff81004000 T _etext\n"
	"ffffffffc0001000 t e1000_xmit\t[e1000]\n";

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/schedperf-test-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void load_fixture(struct symbol_table *kernel)
{
	struct error err = { 0 };
	char *path = write_temp(kallsyms_text);

	assert_int_equal(kallsyms_load(kernel, path, &err), 1);
	unlink(path);
	free(path);
}

static void test_kallsyms(void **state)
{
	struct symbol_table kernel;
	const struct symbol *s;

	load_fixture(&kernel);
	/* _stext and _text alias: one kept; data symbols are not code */
	s = symbol_table_find(&kernel, 0xffffffff81000010ULL);
	assert_string_equal(s->name, "_text");
	assert_string_equal(s->dso, "[kernel.kallsyms]");
	/* the global name wins over a local alias, and a symbol runs to the next */
	s = symbol_table_find(&kernel, 0xffffffff81001fffULL);
	assert_string_equal(s->name, "do_syscall_64");
	s = symbol_table_find(&kernel, 0xffffffff81002abcULL);
	assert_string_equal(s->name, "__x64_sys_getppid");
	s = symbol_table_find(&kernel, 0xffffffff81001004ULL);
	assert_string_equal(s->name, "__pfx_do_syscall_64");
	s = symbol_table_find(&kernel, 0xffffffffc0001008ULL);
	assert_string_equal(s->name, "e1000_xmit");
	assert_string_equal(s->dso, "[e1000]");
	/* below every symbol: the kernel's unknown */
	s = symbol_table_find(&kernel, 0xffffffff80000000ULL);
	assert_ptr_equal(s, &kernel.unknown);
	assert_string_equal(s->name, "[unknown]");
	symbol_table_release(&kernel);
}

/*
 * The tables stay out of forked children (unshared_alloc): a workload's
 * tasks would otherwise map megabytes of them and pay to unmap them at
 * exit. A child that reads them dies of SIGSEGV; the parent still reads.
 */
static void test_tables_not_inherited(void **state)
{
	struct symbol_table kernel;
	int status;
	pid_t pid;

	load_fixture(&kernel);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile uint64_t start;

		signal(SIGSEGV, SIG_DFL);	/* cmocka's handler would catch it */
		start = kernel.symbols[0].start;
		(void)start;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	assert_string_equal(symbol_table_find(&kernel, 0xffffffff81002abcULL)->name,
			    "__x64_sys_getppid");
	symbol_table_release(&kernel);
}

static void test_kallsyms_hidden(void **state)
{
	struct symbol_table kernel;
	struct error err = { 0 };
	char *path = write_temp("0000000000000000 T _stext\n0000000000000000 t schedule\n");

	/* kptr_restrict shows zeros: no table, and that is not an error */
	assert_int_equal(kallsyms_load(&kernel, path, &err), 0);
	unlink(path);
	free(path);
	assert_int_equal(kallsyms_load(&kernel, "/nonexistent/kallsyms", &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
}

/* A function of this file with a name to look for (not static: its symbol is kept). */
int profile_test_marker(int x);

__attribute__((noinline)) int profile_test_marker(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* Where @addr of this process maps to in its file: the map's start and file offset. */
static void map_of(uintptr_t addr, uint64_t *start, uint64_t *end, uint64_t *pgoff,
		   char *path, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		int at = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &o, &at) < 3)
			continue;
		if (addr >= s && addr < e) {
			*start = s;
			*end = e;
			*pgoff = o;
			snprintf(path, len, "%s", line + at);
			path[strcspn(path, "\n")] = '\0';
			fclose(f);
			return;
		}
	}
	fclose(f);
	fail_msg("no map holds %#lx", (unsigned long)addr);
}

static void test_elf_symbols(void **state)
{
	uintptr_t addr = (uintptr_t)profile_test_marker;
	struct dso_cache *cache = dso_cache_new();
	uint64_t start, end, pgoff;
	const struct symbol *s;
	struct dso *dso;
	char path[4096];

	map_of(addr, &start, &end, &pgoff, path, sizeof(path));
	dso = dso_cache_get(cache, path);
	assert_ptr_equal(dso_cache_get(cache, path), dso);
	s = dso_find_symbol(dso, addr - start + pgoff + 2);
	assert_string_equal(s->name, "profile_test_marker");
	assert_string_equal(s->dso, strrchr(path, '/') + 1);
	/* a file that is not there: every address unknown, named after the file */
	dso = dso_cache_get(cache, "/nonexistent/libfoo.so");
	s = dso_find_symbol(dso, 0x1000);
	assert_string_equal(s->name, "[unknown]");
	assert_string_equal(s->dso, "libfoo.so");
	dso_cache_free(cache);
}

/* ---- a session fed records made here ---- */

struct record {
	char bytes[1024];
	size_t size;
};

static void put(struct record *r, const void *data, size_t len)
{
	assert_true(r->size + len <= sizeof(r->bytes));
	memcpy(r->bytes + r->size, data, len);
	r->size += len;
}

static void put_u32(struct record *r, uint32_t v)
{
	put(r, &v, sizeof(v));
}

static void put_u64(struct record *r, uint64_t v)
{
	put(r, &v, sizeof(v));
}

static void begin(struct record *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };

	r->size = 0;
	put(r, &h, sizeof(h));
}

/* Pad to 8 bytes, add the sample_id (pid, tid, time), set the size, queue. */
static void finish(struct profile_session *s, struct record *r, uint32_t pid, uint64_t time)
{
	while (r->size % 8)
		r->bytes[r->size++] = 0;
	put_u32(r, pid);
	put_u32(r, pid);
	put_u64(r, time);
	((struct perf_event_header *)r->bytes)->size = (uint16_t)r->size;
	profile_session_queue(s, r->bytes, r->size);
}

static void queue_mmap(struct profile_session *s, uint32_t pid, uint64_t time, uint64_t start,
		       uint64_t len, uint64_t pgoff, const char *path)
{
	struct record r;

	begin(&r, PERF_RECORD_MMAP2, 0);
	put_u32(&r, pid);
	put_u32(&r, pid);
	put_u64(&r, start);
	put_u64(&r, len);
	put_u64(&r, pgoff);
	put_u64(&r, 0);		/* maj, min */
	put_u64(&r, 0);		/* ino */
	put_u64(&r, 0);		/* ino_generation */
	put_u32(&r, 5);		/* PROT_READ | PROT_EXEC */
	put_u32(&r, 2);		/* MAP_PRIVATE */
	put(&r, path, strlen(path) + 1);
	finish(s, &r, pid, time);
}

static void queue_task(struct profile_session *s, uint32_t type, uint32_t pid, uint32_t ppid,
		       uint64_t time)
{
	struct record r;

	begin(&r, type, 0);
	put_u32(&r, pid);
	put_u32(&r, ppid);
	put_u32(&r, pid);
	put_u32(&r, ppid);
	put_u64(&r, time);
	finish(s, &r, pid, time);
}

static void queue_exec(struct profile_session *s, uint32_t pid, uint64_t time)
{
	struct record r;

	begin(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put_u32(&r, pid);
	put_u32(&r, pid);
	put(&r, "true", 5);
	finish(s, &r, pid, time);
}

/* A sample of @pid at @time with @period and the chain @ips (0-terminated). */
static void queue_sample(struct profile_session *s, uint32_t pid, uint64_t time,
			 uint64_t period, const uint64_t *ips)
{
	struct record r;
	uint64_t nr = 0;

	while (ips[nr])
		nr++;
	begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put_u64(&r, ips[1]);
	put_u32(&r, pid);
	put_u32(&r, pid);
	put_u64(&r, time);
	put_u64(&r, period);
	put_u64(&r, nr);
	for (uint64_t i = 0; i < nr; i++)
		put_u64(&r, ips[i]);
	((struct perf_event_header *)r.bytes)->size = (uint16_t)r.size;
	profile_session_queue(s, r.bytes, r.size);
}

static const struct result_profile_symbol *find_symbol(const struct result_profile *p,
						       const char *name, const char *dso)
{
	for (size_t i = 0; i < p->nr_symbols; i++)
		if (!strcmp(p->symbols[i].name, name) && !strcmp(p->symbols[i].dso, dso))
			return &p->symbols[i];
	return NULL;
}

static void assert_weights(const struct result_profile *p, const char *name, const char *dso,
			   uint64_t self, uint64_t children)
{
	const struct result_profile_symbol *sym = find_symbol(p, name, dso);

	if (!sym)
		fail_msg("no symbol %s in %s", name, dso);
	if (sym->self != self || sym->children != children)
		fail_msg("%s: self %llu children %llu, expected %llu and %llu", name,
			 (unsigned long long)sym->self, (unsigned long long)sym->children,
			 (unsigned long long)self, (unsigned long long)children);
}

#define K_SYSCALL 0xffffffff81001020ULL	/* in do_syscall_64 */
#define K_GETPPID 0xffffffff81002010ULL	/* in __x64_sys_getppid */
#define K_SCHEDULE 0xffffffff81003010ULL	/* in schedule */
#define CTX_KERNEL ((uint64_t)PERF_CONTEXT_KERNEL)
#define CTX_USER ((uint64_t)PERF_CONTEXT_USER)

static void test_session_weights(void **state)
{
	struct symbol_table kernel;
	struct dso_cache *cache = dso_cache_new();
	struct profile_session *s;
	struct result_profile p = { 0 };
	uint64_t start, end, pgoff, user, base = 0x7f0000000000ULL;
	char path[4096];

	load_fixture(&kernel);
	map_of((uintptr_t)profile_test_marker, &start, &end, &pgoff, path, sizeof(path));
	/* the marker, as mapped at another address in the processes below */
	user = (uintptr_t)profile_test_marker - start + base;
	s = profile_session_new(&kernel, cache);

	queue_mmap(s, 100, 10, base, end - start, pgoff, path);
	/* arrives before the fork it follows: sorted by time, it still resolves */
	{
		const uint64_t chain[] = { CTX_KERNEL, K_GETPPID, K_SYSCALL + 1, CTX_USER,
					   user, user + 3, 0 };

		queue_sample(s, 101, 30, 1000, chain);
	}
	queue_task(s, PERF_RECORD_FORK, 101, 100, 20);
	{
		/* recursion: schedule counted once in children */
		const uint64_t chain[] = { CTX_KERNEL, K_SCHEDULE, K_SCHEDULE + 8, K_SYSCALL + 1,
					   CTX_USER, user, 0 };

		queue_sample(s, 100, 40, 3000, chain);
		queue_sample(s, 100, 41, 3000, chain);
	}
	/* after its exec the process has no maps: its user address is unknown */
	queue_exec(s, 101, 50);
	{
		const uint64_t chain[] = { CTX_USER, user, 0 };

		queue_sample(s, 101, 60, 500, chain);
	}
	/* a cutoff before the fork processes only the mmap: nothing counted yet */
	profile_session_process(s, 15);
	profile_session_process(s, UINT64_MAX);
	profile_session_result(s, &p);

	assert_int_equal(p.samples, 4);
	assert_int_equal(p.lost, 0);
	assert_int_equal(p.total, 7500);
	assert_weights(&p, "__x64_sys_getppid", "[kernel.kallsyms]", 1000, 1000);
	assert_weights(&p, "schedule", "[kernel.kallsyms]", 6000, 6000);
	assert_weights(&p, "do_syscall_64", "[kernel.kallsyms]", 0, 7000);
	assert_weights(&p, "profile_test_marker", strrchr(path, '/') + 1, 0, 7000);
	assert_weights(&p, "[unknown]", "[unknown]", 500, 500);
	/* sorted by self weight, heaviest first */
	assert_string_equal(p.symbols[0].name, "schedule");
	result_profile_release(&p);
	profile_session_free(s);
	dso_cache_free(cache);
	symbol_table_release(&kernel);
}

#define K_FLUSH_A 0xffffffff81003810ULL	/* in the first tlb_flush */
#define K_FLUSH_B 0xffffffff81003a10ULL	/* in the second, of the same name */
#define K_PICK 0xffffffff81003910ULL	/* in pick_next */

/*
 * Two kernel functions of one name (static, in two files) are one symbol
 * of the profile: their self weights add up, and a chain through both
 * counts once in its children.
 */
static void test_session_same_name(void **state)
{
	const uint64_t both[] = { CTX_KERNEL, K_FLUSH_A, K_PICK + 1, K_FLUSH_B + 1, 0 };
	const uint64_t second[] = { CTX_KERNEL, K_FLUSH_B, 0 };
	struct symbol_table kernel;
	struct profile_session *s;
	struct result_profile p = { 0 };
	size_t named = 0;

	load_fixture(&kernel);
	s = profile_session_new(&kernel, NULL);
	queue_sample(s, 100, 10, 200, both);
	queue_sample(s, 100, 11, 50, second);
	profile_session_process(s, UINT64_MAX);
	profile_session_result(s, &p);

	assert_int_equal(p.total, 250);
	assert_weights(&p, "tlb_flush", "[kernel.kallsyms]", 250, 250);
	assert_weights(&p, "pick_next", "[kernel.kallsyms]", 0, 200);
	for (size_t i = 0; i < p.nr_symbols; i++)
		named += !strcmp(p.symbols[i].name, "tlb_flush");
	assert_int_equal(named, 1);
	result_profile_release(&p);
	profile_session_free(s);
	symbol_table_release(&kernel);
}

/*
 * A session that follows a process counts its samples and its
 * descendants', not a stranger's, nor those of a stranger's child that
 * got a followed process's pid again.
 */
static void test_session_follow(void **state)
{
	struct symbol_table kernel;
	struct profile_session *s;
	struct result_profile p = { 0 };
	const uint64_t chain[] = { CTX_KERNEL, K_GETPPID, K_SYSCALL + 1, 0 };

	load_fixture(&kernel);
	s = profile_session_new(&kernel, NULL);
	profile_session_follow(s, 100);
	queue_sample(s, 100, 10, 1, chain);
	queue_sample(s, 200, 11, 10, chain);
	queue_task(s, PERF_RECORD_FORK, 101, 100, 20);
	queue_task(s, PERF_RECORD_FORK, 201, 200, 21);
	queue_sample(s, 101, 30, 100, chain);
	queue_sample(s, 201, 31, 1000, chain);
	queue_task(s, PERF_RECORD_EXIT, 101, 100, 40);
	queue_task(s, PERF_RECORD_FORK, 101, 200, 50);
	queue_sample(s, 101, 60, 10000, chain);
	profile_session_process(s, UINT64_MAX);
	profile_session_result(s, &p);

	assert_int_equal(p.samples, 2);
	assert_int_equal(p.total, 101);
	assert_weights(&p, "__x64_sys_getppid", "[kernel.kallsyms]", 101, 101);
	result_profile_release(&p);
	profile_session_free(s);
	symbol_table_release(&kernel);
}

static void test_session_bad_records(void **state)
{
	struct profile_session *s = profile_session_new(NULL, NULL);
	struct result_profile p = { 0 };
	struct record r;

	/* a sample whose chain claims more entries than it holds is dropped */
	begin(&r, PERF_RECORD_SAMPLE, 0);
	put_u64(&r, 1);
	put_u64(&r, 1);
	put_u64(&r, 1);
	put_u64(&r, 1);
	put_u64(&r, 1000);
	((struct perf_event_header *)r.bytes)->size = (uint16_t)r.size;
	profile_session_queue(s, r.bytes, r.size);
	/* too short to be anything */
	profile_session_queue(s, r.bytes, 4);
	profile_session_process(s, UINT64_MAX);
	profile_session_result(s, &p);
	assert_int_equal(p.samples, 0);
	assert_int_equal(p.nr_symbols, 0);
	result_profile_release(&p);
	profile_session_free(s);
}

/* ---- a live profile, where this machine allows sampling ---- */

static void __attribute__((noreturn)) getppid_child(int go_fd)
{
	pid_t grandchild;
	int status;
	char go;

	if (read(go_fd, &go, 1) != 1)
		_exit(1);
	grandchild = fork();
	for (int i = 0; i < GETPPID_CALLS; i++)
		syscall(SYS_getppid);
	if (grandchild == 0)
		_exit(0);
	if (grandchild < 0 || waitpid(grandchild, &status, 0) != grandchild || status)
		_exit(1);
	_exit(0);
}

static bool profiling_refused(const struct monitor_set *ms)
{
	for (size_t i = 0; i < monitors_nr_notes(ms); i++)
		if (strstr(monitors_note(ms, i), "no profile")) {
			print_message("%s: not checked\n", monitors_note(ms, i));
			return true;
		}
	return false;
}

/* The share of the samples whose call chain holds the function @name. */
static double share(const struct result_profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_symbols; i++)
		if (!strcmp(p->symbols[i].name, name))
			return (double)p->symbols[i].children / (double)p->total;
	return 0;
}

static void test_live_profile(void **state)
{
	/* A rate of its own, to see it reach the events and the result. */
	const struct monitor_options options = { .profile_frequency = 997 };
	struct monitor_set *ms;
	struct error err = { 0 };
	struct result_profile *p;
	int go[2], status, fds;
	pid_t pid;

	assert_int_equal(monitors_open("profile", &options, &ms, &err), 0);
	assert_int_equal(monitors_nr_metrics(ms), 0);
	if (profiling_refused(ms)) {
		assert_false(monitors_profiling(ms));
		monitors_close(ms);
		return;
	}
	assert_true(monitors_profiling(ms));
	fds = open_fds();
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		getppid_child(go[0]);
	}
	close(go[0]);
	assert_int_equal(monitors_before(ms, pid, &err), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	monitors_after(ms, NULL);
	/* the iteration's events, buffers and thread are gone */
	assert_int_equal(open_fds(), fds);
	assert_int_equal(other_threads(), 0);

	p = monitors_take_profile(ms);
	assert_non_null(p);
	assert_null(monitors_take_profile(ms));
	if (getenv("SCHEDPERF_TEST_VERBOSE"))
		for (size_t i = 0; i < p->nr_symbols && i < 20; i++)
			print_message("%6.2f %6.2f %s %s\n",
				      100.0 * (double)p->symbols[i].children / (double)p->total,
				      100.0 * (double)p->symbols[i].self / (double)p->total,
				      p->symbols[i].name, p->symbols[i].dso);
	assert_true(p->samples > 0);
	assert_true(p->total > 0);
	assert_string_equal(p->scope, "tasks");
	assert_int_equal(p->frequency, 997);
	/*
	 * Both processes did nothing but call getppid() through libc's
	 * syscall(): most samples have it in their chain. A kernel that
	 * records no user chain for a sample taken inside the kernel leaves
	 * libc's function out of those samples, and then the kernel's entry
	 * holds them. The kernel's entry alone is not enough: its share is
	 * about half, more or less from one machine to the next.
	 */
	assert_true(fmax(share(p, "syscall"), share(p, "do_syscall_64")) > 0.5);
	for (size_t i = 0; i < p->nr_symbols; i++) {
		assert_true(p->symbols[i].self <= p->symbols[i].children);
		assert_true(p->symbols[i].children <= p->total);
	}
	result_profile_release(p);
	free(p);
	monitors_close(ms);
}

static void test_all_leaves_profile_out(void **state)
{
	struct monitor_set *ms;
	struct error err = { 0 };

	assert_int_equal(monitors_open("all", NULL, &ms, &err), 0);
	assert_false(monitors_profiling(ms));
	monitors_close(ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_tables_not_inherited),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_elf_symbols),
		cmocka_unit_test(test_session_weights),
		cmocka_unit_test(test_session_same_name),
		cmocka_unit_test(test_session_follow),
		cmocka_unit_test(test_session_bad_records),
		cmocka_unit_test(test_live_profile),
		cmocka_unit_test(test_all_leaves_profile_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
