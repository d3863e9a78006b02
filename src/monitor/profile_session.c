// SPDX-License-Identifier: GPL-2.0
/*
 * A profiled iteration's records, in time order: processes and their
 * address spaces followed, samples added up per distinct call chain, and
 * at the end each chain resolved to functions for the self and children
 * weights (profile_session.h says why it is done in this order).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/profile_session.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* One executable mapping of a file: [start, end) maps the file from pgoff. */
struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

/*
 * A process's executable maps. Shared by the processes a fork copied it to
 * until one of them changes it; never changed once a chain refers to it
 * (a copy is changed instead), so that a chain resolves against the maps
 * it was sampled with.
 */
struct addr_space {
	struct map *maps;	/* sorted by start, not overlapping */
	size_t nr, alloc;
	int sharers;		/* processes using it now */
	bool referenced;	/* a chain refers to it */
};

/* A distinct call chain, in the address space it was sampled in. */
struct chain {
	uint64_t hash;
	const struct addr_space *space;
	size_t ips;		/* its entries: s->ips[ips .. ips + nr) */
	uint32_t nr;
	uint64_t weight;	/* sum of the samples' periods */
};

/* A queued record: its bytes in s->queue, its time, its arrival. */
struct queued {
	uint64_t time;
	size_t offset, size, arrival;
};

/* Open addressing, linear probing; a slot holds index + 1, 0 when empty. */
struct index_table {
	uint32_t *slots;
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t used;
};

struct pid_entry {
	uint32_t pid;
	struct addr_space *space;
	bool followed;		/* the root or a process it forked (profile_session_follow()) */
};

struct profile_session {
	const struct symbol_table *kernel;
	struct dso_cache *dsos;

	char *queue;			/* queued records' bytes */
	size_t queue_len, queue_alloc;
	struct queued *queued;
	size_t nr_queued, alloc_queued, arrivals;

	struct pid_entry *pids;		/* the live processes we know */
	size_t nr_pids, alloc_pids;
	struct index_table pid_index;

	bool following;			/* only the followed processes count */

	struct addr_space **spaces;	/* every one ever made, freed at the end */
	size_t nr_spaces, alloc_spaces;

	struct chain *chains;
	size_t nr_chains, alloc_chains;
	struct index_table chain_index;
	uint64_t *ips;
	size_t nr_ips, alloc_ips;

	uint64_t samples, lost;
};

static void *grow(void *array, size_t *alloc, size_t need, size_t size)
{
	if (need <= *alloc)
		return array;
	while (*alloc < need)
		*alloc = *alloc ? 2 * *alloc : 64;
	return xreallocarray(array, *alloc, size);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* ---- index tables ---- */

static void index_init(struct index_table *t)
{
	t->mask = 1023;
	t->used = 0;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
}

/*
 * The slot for @hash where @same(ctx, index) holds, or the empty slot
 * where it would go.
 */
static uint32_t *index_slot(struct index_table *t, uint64_t hash,
			    bool (*same)(const void *ctx, uint32_t index, const void *key),
			    const void *ctx, const void *key)
{
	for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
		uint32_t *slot = &t->slots[i];

		if (!*slot || same(ctx, *slot - 1, key))
			return slot;
	}
}

/* Double the table when it is half full, re-placing each index by @hash_of. */
static void index_maybe_grow(struct index_table *t, uint64_t (*hash_of)(const void *ctx,
									uint32_t index),
			     const void *ctx)
{
	uint32_t *old = t->slots;
	size_t old_size = t->mask + 1;

	if (2 * (t->used + 1) <= old_size)
		return;
	t->mask = 2 * old_size - 1;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	for (size_t i = 0; i < old_size; i++) {
		size_t j;

		if (!old[i])
			continue;
		for (j = hash_of(ctx, old[i] - 1) & t->mask; t->slots[j]; j = (j + 1) & t->mask)
			;
		t->slots[j] = old[i];
	}
	free(old);
}

/* ---- processes and their address spaces ---- */

static bool pid_same(const void *ctx, uint32_t index, const void *key)
{
	const struct profile_session *s = ctx;

	return s->pids[index].pid == *(const uint32_t *)key;
}

static uint64_t pid_hash_of(const void *ctx, uint32_t index)
{
	const struct profile_session *s = ctx;

	return mix(0, s->pids[index].pid);
}

static struct pid_entry *pid_find(struct profile_session *s, uint32_t pid)
{
	uint32_t *slot = index_slot(&s->pid_index, mix(0, pid), pid_same, s, &pid);

	return *slot ? &s->pids[*slot - 1] : NULL;
}

static struct addr_space *space_new(struct profile_session *s)
{
	struct addr_space *space = xcalloc(1, sizeof(*space));

	s->spaces = grow(s->spaces, &s->alloc_spaces, s->nr_spaces + 1, sizeof(*s->spaces));
	s->spaces[s->nr_spaces++] = space;
	return space;
}

/* Give @pid the address space @space (NULL: none known). */
static void pid_set(struct profile_session *s, uint32_t pid, struct addr_space *space)
{
	struct pid_entry *e = pid_find(s, pid);
	uint32_t *slot;

	if (space)
		space->sharers++;
	if (e) {
		if (e->space)
			e->space->sharers--;
		e->space = space;
		return;
	}
	index_maybe_grow(&s->pid_index, pid_hash_of, s);
	s->pids = grow(s->pids, &s->alloc_pids, s->nr_pids + 1, sizeof(*s->pids));
	s->pids[s->nr_pids].pid = pid;
	s->pids[s->nr_pids].space = space;
	s->pids[s->nr_pids].followed = false;
	slot = index_slot(&s->pid_index, mix(0, pid), pid_same, s, &pid);
	*slot = (uint32_t)++s->nr_pids;
	s->pid_index.used++;
}

/* Whether @pid's records count: every process's unless the session follows some. */
static bool pid_counts(struct profile_session *s, uint32_t pid)
{
	struct pid_entry *e;

	if (!s->following)
		return true;
	e = pid_find(s, pid);
	return e && e->followed;
}

static struct addr_space *pid_space(struct profile_session *s, uint32_t pid)
{
	struct pid_entry *e = pid_find(s, pid);

	return e ? e->space : NULL;
}

/* The address space of @pid made safe to change: its own, unreferenced. */
static struct addr_space *space_for_change(struct profile_session *s, uint32_t pid)
{
	struct addr_space *space = pid_space(s, pid), *copy;

	if (space && space->sharers <= 1 && !space->referenced)
		return space;
	copy = space_new(s);
	if (space && space->nr) {
		copy->maps = xcalloc(space->nr ? space->nr : 1, sizeof(*copy->maps));
		memcpy(copy->maps, space->maps, space->nr * sizeof(*copy->maps));
		copy->nr = copy->alloc = space->nr;
	}
	pid_set(s, pid, copy);
	return copy;
}

/* Add a map, cutting away what it covers of earlier ones (the kernel replaced them). */
static void space_add_map(struct addr_space *space, const struct map *m)
{
	size_t n = 0;
	struct map *kept = xcalloc(space->nr + 2, sizeof(*kept));

	for (size_t i = 0; i < space->nr; i++) {
		struct map old = space->maps[i];

		if (old.end <= m->start || old.start >= m->end) {
			kept[n++] = old;
			continue;
		}
		if (old.start < m->start) {
			kept[n] = old;
			kept[n++].end = m->start;
		}
		if (old.end > m->end) {
			kept[n] = old;
			kept[n].pgoff += m->end - old.start;
			kept[n++].start = m->end;
		}
	}
	kept[n++] = *m;
	for (size_t i = n - 1; i > 0 && kept[i].start < kept[i - 1].start; i--) {
		struct map t = kept[i];

		kept[i] = kept[i - 1];
		kept[i - 1] = t;
	}
	free(space->maps);
	space->maps = kept;
	space->nr = n;
	space->alloc = space->nr;
}

static const struct map *space_find(const struct addr_space *space, uint64_t addr)
{
	size_t lo = 0, hi = space->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (space->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < space->maps[lo - 1].end)
		return &space->maps[lo - 1];
	return NULL;
}

static void add_map(struct profile_session *s, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff, const char *path)
{
	struct map m = { start, start + len, pgoff, NULL };

	if (!len || m.end < start)
		return;
	m.dso = dso_cache_get(s->dsos, path);
	space_add_map(space_for_change(s, pid), &m);
}

int profile_session_read_maps(struct profile_session *s, pid_t pid, const char *path)
{
	char file[64], line[4096];
	FILE *f;

	if (!path) {
		snprintf(file, sizeof(file), "/proc/%d/maps", (int)pid);
		path = file;
	}
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8];
		int name_at = 0;
		char *name;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &name_at) < 4 || !name_at || !strchr(perms, 'x'))
			continue;
		name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		if (name[0] == '/' || !strcmp(name, "[vdso]"))
			add_map(s, (uint32_t)pid, start, end - start, pgoff, name);
	}
	fclose(f);
	return 0;
}

void profile_session_follow(struct profile_session *s, pid_t pid)
{
	struct pid_entry *e;

	s->following = true;
	if (!pid_find(s, (uint32_t)pid))
		pid_set(s, (uint32_t)pid, NULL);
	e = pid_find(s, (uint32_t)pid);
	e->followed = true;
}

/* ---- call chains ---- */

/* A chain as a sample carries it: @nr entries of 8 bytes at @ips, any alignment. */
struct chain_key {
	const struct addr_space *space;
	const char *ips;
	uint32_t nr;
	uint64_t hash;
};

static bool chain_same(const void *ctx, uint32_t index, const void *key)
{
	const struct profile_session *s = ctx;
	const struct chain *c = &s->chains[index];
	const struct chain_key *k = key;

	return c->hash == k->hash && c->space == k->space && c->nr == k->nr &&
	       !memcmp(s->ips + c->ips, k->ips, k->nr * sizeof(uint64_t));
}

static uint64_t chain_hash_of(const void *ctx, uint32_t index)
{
	const struct profile_session *s = ctx;

	return s->chains[index].hash;
}

static uint64_t get_u64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void add_sample(struct profile_session *s, uint32_t pid, const char *ips,
		       uint32_t nr, uint64_t period)
{
	struct chain_key key = { pid_space(s, pid), ips, nr, 0 };
	struct chain *c;
	uint32_t *slot;

	key.hash = mix(mix(0, (uint64_t)(uintptr_t)key.space), nr);
	for (uint32_t i = 0; i < nr; i++)
		key.hash = mix(key.hash, get_u64(ips + 8 * i));
	s->samples++;
	slot = index_slot(&s->chain_index, key.hash, chain_same, s, &key);
	if (*slot) {
		s->chains[*slot - 1].weight += period;
		return;
	}
	index_maybe_grow(&s->chain_index, chain_hash_of, s);
	slot = index_slot(&s->chain_index, key.hash, chain_same, s, &key);
	s->chains = grow(s->chains, &s->alloc_chains, s->nr_chains + 1, sizeof(*s->chains));
	s->ips = grow(s->ips, &s->alloc_ips, s->nr_ips + nr, sizeof(*s->ips));
	c = &s->chains[s->nr_chains];
	c->hash = key.hash;
	c->space = key.space;
	c->ips = s->nr_ips;
	c->nr = nr;
	c->weight = period;
	memcpy(s->ips + s->nr_ips, ips, nr * sizeof(uint64_t));
	s->nr_ips += nr;
	if (key.space)
		((struct addr_space *)key.space)->referenced = true;
	*slot = (uint32_t)++s->nr_chains;
	s->chain_index.used++;
}

/* ---- records ---- */

static uint32_t get_u32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * A sample as PROFILE_SAMPLE_TYPE lays it out: ip, pid and tid, time,
 * period, the chain's length and entries.
 */
static void process_sample(struct profile_session *s, const char *r, size_t size)
{
	const struct perf_event_header *h = (const void *)r;
	uint64_t nr, period, alone[2];

	if (size < 48)
		return;
	period = get_u64(r + 32);
	nr = get_u64(r + 40);
	if (nr > (size - 48) / 8)
		return;
	if (nr) {
		add_sample(s, get_u32(r + 16), r + 48, (uint32_t)nr, period);
		return;
	}
	/* No chain (the kernel could not walk one): the sampled address alone. */
	alone[0] = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ?
		   PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER;
	alone[1] = get_u64(r + 8);
	add_sample(s, get_u32(r + 16), (const char *)alone, 2, period);
}

/*
 * A new process shares its parent's maps, and is followed when its parent
 * is: a reused pid takes what its new parent has, not what it had before.
 */
static void process_fork(struct profile_session *s, uint32_t pid, uint32_t ppid)
{
	bool followed = pid_counts(s, ppid);

	if (s->following && !followed && !pid_find(s, pid))
		return;		/* a stranger's child: nothing to keep of it */
	pid_set(s, pid, followed ? pid_space(s, ppid) : NULL);
	pid_find(s, pid)->followed = followed;
}

static void process_record(struct profile_session *s, const char *r, size_t size)
{
	const struct perf_event_header *h = (const void *)r;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (size >= 24 && pid_counts(s, get_u32(r + 16)))
			process_sample(s, r, size);
		break;
	case PERF_RECORD_MMAP2:
		/* pid, tid, addr, len, pgoff, device or build id, prot, flags, file name */
		if (size > 72 && memchr(r + 72, '\0', size - 72) && pid_counts(s, get_u32(r + 8)))
			add_map(s, get_u32(r + 8), get_u64(r + 16), get_u64(r + 24),
				get_u64(r + 32), r + 72);
		break;
	case PERF_RECORD_COMM:
		/* An exec: the process starts over in a new address space. */
		if (size >= 16 && (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    pid_counts(s, get_u32(r + 8)))
			pid_set(s, get_u32(r + 8), space_new(s));
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a new process (not thread) shares its parent's maps */
		if (size >= 24 && get_u32(r + 8) != get_u32(r + 12))
			process_fork(s, get_u32(r + 8), get_u32(r + 12));
		break;
	case PERF_RECORD_EXIT:
		if (size >= 24 && get_u32(r + 8) == get_u32(r + 16) && pid_find(s, get_u32(r + 8)))
			pid_set(s, get_u32(r + 8), NULL);
		break;
	case PERF_RECORD_LOST:
		if (size >= 24)
			s->lost += get_u64(r + 16);
		break;
	default:
		break;
	}
}

/* A sample's time follows its ip and pid; every other record ends with it. */
static uint64_t record_time(const char *r, size_t size)
{
	const struct perf_event_header *h = (const void *)r;

	if (h->type == PERF_RECORD_SAMPLE)
		return size >= 32 ? get_u64(r + 24) : 0;
	return size >= 16 ? get_u64(r + size - 8) : 0;
}

void profile_session_queue(struct profile_session *s, const void *record, size_t size)
{
	struct queued *q;

	if (size < sizeof(struct perf_event_header))
		return;
	s->queue = grow(s->queue, &s->queue_alloc, s->queue_len + size, 1);
	memcpy(s->queue + s->queue_len, record, size);
	s->queued = grow(s->queued, &s->alloc_queued, s->nr_queued + 1, sizeof(*s->queued));
	q = &s->queued[s->nr_queued++];
	q->time = record_time(record, size);
	q->offset = s->queue_len;
	q->size = size;
	q->arrival = s->arrivals++;
	s->queue_len += size;
}

static int queued_compare(const void *pa, const void *pb)
{
	const struct queued *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->arrival < b->arrival ? -1 : a->arrival > b->arrival;
}

void profile_session_process(struct profile_session *s, uint64_t cutoff)
{
	size_t done = 0, kept_len = 0;
	char *kept;

	if (!s->nr_queued)
		return;
	qsort(s->queued, s->nr_queued, sizeof(*s->queued), queued_compare);
	while (done < s->nr_queued && s->queued[done].time < cutoff) {
		process_record(s, s->queue + s->queued[done].offset, s->queued[done].size);
		done++;
	}
	/* What is left waits for the next round, packed at the front. */
	kept = xmalloc(s->queue_alloc ? s->queue_alloc : 1);
	for (size_t i = done; i < s->nr_queued; i++) {
		struct queued *q = &s->queued[i - done];

		*q = s->queued[i];
		memcpy(kept + kept_len, s->queue + q->offset, q->size);
		q->offset = kept_len;
		kept_len += q->size;
	}
	free(s->queue);
	s->queue = kept;
	s->queue_len = kept_len;
	s->nr_queued -= done;
}

/* ---- the result ---- */

struct symbol_weight {
	const struct symbol *symbol;
	uint64_t self, children;
	size_t last_chain;	/* the chain that last counted it as children, + 1 */
};

struct weights {
	struct symbol_weight *all;
	size_t nr, alloc;
	struct index_table index;
};

/*
 * A symbol is its name and DSO, not its address: a kernel holds several
 * static functions of one name (a static inline of a header, in each file
 * that calls it), and a profile that listed each apart would name one
 * symbol twice, which the store's readers (and import) take for a symbol
 * counted twice. Their samples are one symbol's, children counted once a
 * chain.
 */
static bool weight_same(const void *ctx, uint32_t index, const void *key)
{
	const struct symbol *a = ((const struct weights *)ctx)->all[index].symbol, *b = key;

	return a == b || (!strcmp(a->name, b->name) && !strcmp(a->dso, b->dso));
}

static uint64_t symbol_hash(const struct symbol *sym)
{
	uint64_t h = fnv1a(FNV1A_INIT, sym->name, strlen(sym->name) + 1);

	return fnv1a(h, sym->dso, strlen(sym->dso));
}

static uint64_t weight_hash_of(const void *ctx, uint32_t index)
{
	const struct weights *w = ctx;

	return symbol_hash(w->all[index].symbol);
}

static struct symbol_weight *weight_of(struct weights *w, const struct symbol *sym)
{
	uint64_t hash = symbol_hash(sym);
	uint32_t *slot = index_slot(&w->index, hash, weight_same, w, sym);

	if (*slot)
		return &w->all[*slot - 1];
	index_maybe_grow(&w->index, weight_hash_of, w);
	slot = index_slot(&w->index, hash, weight_same, w, sym);
	w->all = grow(w->all, &w->alloc, w->nr + 1, sizeof(*w->all));
	memset(&w->all[w->nr], 0, sizeof(w->all[w->nr]));
	w->all[w->nr].symbol = sym;
	*slot = (uint32_t)++w->nr;
	w->index.used++;
	return &w->all[w->nr - 1];
}

/* Where no map or no kernel symbol table says more. */
static const struct symbol unknown_user = { 0, 0, "[unknown]", "[unknown]" };
static const struct symbol unknown_kernel = { 0, 0, "[unknown]", "[kernel.kallsyms]" };

static const struct symbol *resolve(const struct profile_session *s,
				    const struct addr_space *space, bool kernel, uint64_t ip)
{
	const struct map *m;

	if (kernel)
		return s->kernel ? symbol_table_find(s->kernel, ip) : &unknown_kernel;
	if (!space || !(m = space_find(space, ip)))
		return &unknown_user;
	return dso_find_symbol(m->dso, ip - m->start + m->pgoff);
}

/*
 * One chain's weight: self to the function of its first address, children
 * to every function on it, once however often it appears. Addresses after
 * the first of each context are return addresses: one is subtracted, so
 * that a call that ends a function is not taken for the next function.
 */
static void add_chain(const struct profile_session *s, const struct chain *c, size_t index,
		      struct weights *w)
{
	bool kernel = false, first_in_context = true, self_done = false;

	for (uint32_t i = 0; i < c->nr; i++) {
		uint64_t ip = s->ips[c->ips + i];
		struct symbol_weight *sw;

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			first_in_context = true;
			continue;
		}
		if (!first_in_context && ip)
			ip--;
		first_in_context = false;
		sw = weight_of(w, resolve(s, c->space, kernel, ip));
		if (!self_done) {
			sw->self += c->weight;
			self_done = true;
		}
		if (sw->last_chain != index + 1) {
			sw->children += c->weight;
			sw->last_chain = index + 1;
		}
	}
}

static int weight_compare(const void *pa, const void *pb)
{
	const struct symbol_weight *a = pa, *b = pb;
	int c;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->children != b->children)
		return a->children > b->children ? -1 : 1;
	c = strcmp(a->symbol->name, b->symbol->name);
	return c ? c : strcmp(a->symbol->dso, b->symbol->dso);
}

void profile_session_result(struct profile_session *s, struct result_profile *profile)
{
	struct weights w = { NULL, 0, 0, { NULL, 0, 0 } };

	index_init(&w.index);
	profile->samples = s->samples;
	profile->lost = s->lost;
	profile->total = 0;
	for (size_t i = 0; i < s->nr_chains; i++) {
		add_chain(s, &s->chains[i], i, &w);
		profile->total += s->chains[i].weight;
	}
	if (w.nr)
		qsort(w.all, w.nr, sizeof(*w.all), weight_compare);
	for (size_t i = 0; i < w.nr; i++)
		result_profile_add_symbol(profile, w.all[i].symbol->name, w.all[i].symbol->dso,
					  w.all[i].self, w.all[i].children);
	free(w.all);
	free(w.index.slots);
}

/* ---- the session ---- */

struct profile_session *profile_session_new(const struct symbol_table *kernel,
					    struct dso_cache *dsos)
{
	struct profile_session *s = xcalloc(1, sizeof(*s));

	s->kernel = kernel;
	s->dsos = dsos;
	index_init(&s->pid_index);
	index_init(&s->chain_index);
	return s;
}

void profile_session_free(struct profile_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_spaces; i++) {
		free(s->spaces[i]->maps);
		free(s->spaces[i]);
	}
	free(s->spaces);
	free(s->pids);
	free(s->pid_index.slots);
	free(s->chains);
	free(s->chain_index.slots);
	free(s->ips);
	free(s->queue);
	free(s->queued);
	free(s);
}
