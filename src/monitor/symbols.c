// SPDX-License-Identifier: GPL-2.0
/*
 * Function names for the addresses a profile samples. The kernel's come
 * from /proc/kallsyms, read once per run; a file's from its ELF symbol
 * tables, read with libelf the first time a sample lands in it.
 *
 * Several names often share an address (kallsyms' aliases, glibc's
 * __libc_write/__write/write): the one kept is, as perf chooses, a sized
 * one before a sizeless one, global before local, then the one with the
 * fewest leading underscores, then the shortest.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "monitor/symbols.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define UNKNOWN_SYMBOL "[unknown]"
#define KERNEL_DSO "[kernel.kallsyms]"
/* Where Debian installs the symbols stripped from a file (its -dbgsym package). */
#define DEBUG_BUILD_ID_DIR "/usr/lib/debug/.build-id"

/* A symbol as read, before aliases are resolved and ends fixed. */
struct raw_symbol {
	uint64_t start, size;
	size_t name, dso;	/* offsets into the builder's names */
	int global;		/* 1 for a global or weak binding */
};

struct table_builder {
	struct raw_symbol *raw;
	size_t nr, alloc;
	struct strbuf names;
};

static size_t builder_string(struct table_builder *b, const char *s, size_t len)
{
	size_t at = b->names.len;

	strbuf_add(&b->names, s, len);
	strbuf_addch(&b->names, '\0');
	return at;
}

static void builder_add(struct table_builder *b, uint64_t start, uint64_t size,
			const char *name, size_t dso, int global)
{
	struct raw_symbol *r;

	if (b->nr == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 1024;
		b->raw = xreallocarray(b->raw, b->alloc, sizeof(*b->raw));
	}
	r = &b->raw[b->nr++];
	r->start = start;
	r->size = size;
	r->name = builder_string(b, name, strlen(name));
	r->dso = dso;
	r->global = global;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Which of two aliases at one address to keep: negative when @a is better. */
static int alias_order(const struct raw_symbol *a, const struct raw_symbol *b,
		       const char *names)
{
	const char *na = names + a->name, *nb = names + b->name;
	size_t ua, ub, la, lb;

	if (!a->size != !b->size)
		return a->size ? -1 : 1;
	if (a->global != b->global)
		return a->global ? -1 : 1;
	ua = leading_underscores(na);
	ub = leading_underscores(nb);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(na, nb);
}

static const char *sort_names;	/* qsort has no context argument */

static int raw_compare(const void *pa, const void *pb)
{
	const struct raw_symbol *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return alias_order(a, b, sort_names);
}

/*
 * Sort, keep the best alias at each address, and end each symbol at its
 * size or at the next symbol, whichever comes first; a sizeless symbol
 * runs to the next one (kallsyms gives no sizes).
 */
static void builder_finish(struct table_builder *b, struct symbol_table *table,
			   const char *unknown_dso)
{
	size_t n = 0, unknown_dso_at;
	const char *names;

	/* The last string: from here on the names no longer move. */
	unknown_dso_at = builder_string(b, unknown_dso, strlen(unknown_dso));
	/* Kept for the run, out of the workloads' address spaces (unshared_alloc). */
	table->names = memcpy(unshared_alloc(b->names.len), b->names.buf, b->names.len);
	strbuf_release(&b->names);
	names = table->names;
	sort_names = names;
	if (b->nr)
		qsort(b->raw, b->nr, sizeof(*b->raw), raw_compare);
	table->symbols = unshared_alloc((b->nr ? b->nr : 1) * sizeof(*table->symbols));
	for (size_t i = 0; i < b->nr; i++) {
		const struct raw_symbol *r = &b->raw[i];

		if (i && r->start == b->raw[i - 1].start)
			continue;	/* a worse alias */
		table->symbols[n].start = r->start;
		table->symbols[n].end = r->size ? r->start + r->size : 0;
		table->symbols[n].name = names + r->name;
		table->symbols[n].dso = names + r->dso;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		struct symbol *s = &table->symbols[i];
		uint64_t next = i + 1 < n ? table->symbols[i + 1].start : s->start + 4096;

		if (!s->end || s->end > next)
			s->end = next;
	}
	table->nr = n;
	table->unknown.name = UNKNOWN_SYMBOL;
	table->unknown.dso = names + unknown_dso_at;
	free(b->raw);
	b->raw = NULL;
}

const struct symbol *symbol_table_find(const struct symbol_table *table, uint64_t addr)
{
	size_t lo = 0, hi = table->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table->symbols[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < table->symbols[lo - 1].end)
		return &table->symbols[lo - 1];
	return &table->unknown;
}

void symbol_table_release(struct symbol_table *table)
{
	unshared_free(table->symbols);
	unshared_free(table->names);
	memset(table, 0, sizeof(*table));
}

/* ---- the kernel ---- */

/* One line of kallsyms: "ffffffff81000000 T _stext" or "... t name\t[module]". */
static void kallsyms_line(struct table_builder *b, char *line, size_t kernel_dso,
			  int *nonzero)
{
	char *name, *module, *end;
	unsigned long long addr;
	char type;
	size_t dso = kernel_dso;

	addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return;
	type = end[1];
	name = end + 3;
	name[strcspn(name, "\n")] = '\0';
	if (addr)
		*nonzero = 1;
	/* Text only: code is what samples land in. */
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return;
	module = strchr(name, '\t');
	if (module) {
		*module++ = '\0';
		dso = builder_string(b, module, strlen(module));
	}
	builder_add(b, addr, 0, name, dso, isupper((unsigned char)type));
}

int kallsyms_load(struct symbol_table *table, const char *path, struct error *err)
{
	struct table_builder b = { NULL, 0, 0, STRBUF_INIT };
	char line[1024];
	size_t kernel_dso;
	int nonzero = 0;
	FILE *f;

	memset(table, 0, sizeof(*table));
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f)
		return error_set(err, EXIT_ENV, "cannot read %s: %s (mount /proc, or "
				 "profile on a kernel built with CONFIG_KALLSYMS)", path ? path : "/proc/kallsyms",
				 strerror(errno));
	kernel_dso = builder_string(&b, KERNEL_DSO, strlen(KERNEL_DSO));
	while (fgets(line, sizeof(line), f))
		kallsyms_line(&b, line, kernel_dso, &nonzero);
	fclose(f);
	builder_finish(&b, table, KERNEL_DSO);
	if (!nonzero) {
		symbol_table_release(table);
		return 0;
	}
	return 1;
}

/* ---- ELF files ---- */

struct load_segment {
	uint64_t offset, vaddr, size;
};

struct dso {
	char *path;
	bool loaded;
	struct load_segment *segments;
	size_t nr_segments;
	struct symbol_table table;
};

struct dso_cache {
	struct dso **dsos;
	size_t nr, alloc;
};

static void read_segments(Elf *elf, struct dso *dso)
{
	size_t nr = 0;

	if (elf_getphdrnum(elf, &nr))
		return;
	dso->segments = xcalloc(nr ? nr : 1, sizeof(*dso->segments));
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->segments[dso->nr_segments].offset = ph.p_offset;
		dso->segments[dso->nr_segments].vaddr = ph.p_vaddr;
		dso->segments[dso->nr_segments].size = ph.p_filesz;
		dso->nr_segments++;
	}
}

/* The first section of @type, with its header. */
static Elf_Scn *find_section(Elf *elf, GElf_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

static void add_elf_symbols(struct table_builder *b, Elf *elf, Elf_Scn *scn,
			    const GElf_Shdr *shdr, size_t dso)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t nr = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;

	for (size_t i = 0; data && i < nr; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (name && *name)
			builder_add(b, sym.st_value, sym.st_size, name, dso,
				    GELF_ST_BIND(sym.st_info) != STB_LOCAL);
	}
}

/* The GNU build id of @elf as lowercase hex in @hex; false when it has none. */
static bool build_id(Elf *elf, char *hex, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off))) {
			const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;

			if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4) ||
			    nhdr.n_descsz < 2 || 2 * nhdr.n_descsz >= len)
				continue;
			for (size_t i = 0; i < nhdr.n_descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", desc[i]);
			return true;
		}
	}
	return false;
}

/* Debian's debug file for a stripped @elf, or -1: its .symtab has every function. */
static int open_debug_file(Elf *elf)
{
	char hex[128], path[512];

	if (!build_id(elf, hex, sizeof(hex)))
		return -1;
	snprintf(path, sizeof(path), "%s/%.2s/%s.debug", DEBUG_BUILD_ID_DIR, hex, hex + 2);
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void load_symtab(struct table_builder *b, Elf *elf, size_t dso)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section(elf, SHT_SYMTAB, &shdr);
	int debug_fd;
	Elf *debug;

	if (scn) {
		add_elf_symbols(b, elf, scn, &shdr, dso);
		return;
	}
	/* Stripped: the debug file's full table, else the exported ones. */
	debug_fd = open_debug_file(elf);
	if (debug_fd >= 0) {
		debug = elf_begin(debug_fd, ELF_C_READ_MMAP, NULL);
		if (debug && (scn = find_section(debug, SHT_SYMTAB, &shdr)))
			add_elf_symbols(b, debug, scn, &shdr, dso);
		if (debug)
			elf_end(debug);
		close(debug_fd);
		if (scn)
			return;
	}
	if ((scn = find_section(elf, SHT_DYNSYM, &shdr)))
		add_elf_symbols(b, elf, scn, &shdr, dso);
}

/*
 * The vDSO is in no file, but it is the same image in every process of
 * this kernel: ours, at AT_SYSINFO_EHDR. Copied, so libelf reads plain
 * memory whatever it does with it.
 */
static Elf *open_vdso(char **copy)
{
	const char *image = (const char *)getauxval(AT_SYSINFO_EHDR);
	GElf_Ehdr ehdr;
	Elf *elf;
	size_t size;

	*copy = NULL;
	if (!image || memcmp(image, ELFMAG, SELFMAG))
		return NULL;
	elf = elf_memory((char *)image, sizeof(Elf64_Ehdr));
	if (!elf || !gelf_getehdr(elf, &ehdr)) {
		if (elf)
			elf_end(elf);
		return NULL;
	}
	elf_end(elf);
	size = ehdr.e_shoff + (size_t)ehdr.e_shnum * ehdr.e_shentsize;
	if (size < sizeof(Elf64_Ehdr) || size > (1 << 20))
		return NULL;
	*copy = xmalloc(size);
	memcpy(*copy, image, size);
	return elf_memory(*copy, size);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void dso_load(struct dso *dso)
{
	struct table_builder b = { NULL, 0, 0, STRBUF_INIT };
	const char *name = base_name(dso->path);
	char *vdso_copy = NULL;
	Elf *elf = NULL;
	size_t dso_name;
	int fd = -1;

	dso->loaded = true;
	dso_name = builder_string(&b, name, strlen(name));
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto out;
	if (!strcmp(dso->path, "[vdso]")) {
		elf = open_vdso(&vdso_copy);
	} else if (dso->path[0] == '/') {
		fd = open(dso->path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	}
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	read_segments(elf, dso);
	load_symtab(&b, elf, dso_name);
out:
	builder_finish(&b, &dso->table, name);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(vdso_copy);
}

const struct symbol *dso_find_symbol(struct dso *dso, uint64_t offset)
{
	if (!dso->loaded)
		dso_load(dso);
	for (size_t i = 0; i < dso->nr_segments; i++) {
		const struct load_segment *seg = &dso->segments[i];

		if (offset >= seg->offset && offset < seg->offset + seg->size)
			return symbol_table_find(&dso->table, offset - seg->offset + seg->vaddr);
	}
	return &dso->table.unknown;
}

struct dso_cache *dso_cache_new(void)
{
	return xcalloc(1, sizeof(struct dso_cache));
}

struct dso *dso_cache_get(struct dso_cache *cache, const char *path)
{
	struct dso *dso;

	for (size_t i = 0; i < cache->nr; i++)
		if (!strcmp(cache->dsos[i]->path, path))
			return cache->dsos[i];
	if (cache->nr == cache->alloc) {
		cache->alloc = cache->alloc ? 2 * cache->alloc : 16;
		cache->dsos = xreallocarray(cache->dsos, cache->alloc, sizeof(*cache->dsos));
	}
	dso = xcalloc(1, sizeof(*dso));
	dso->path = xstrdup(path);
	cache->dsos[cache->nr++] = dso;
	return dso;
}

void dso_cache_free(struct dso_cache *cache)
{
	if (!cache)
		return;
	for (size_t i = 0; i < cache->nr; i++) {
		struct dso *dso = cache->dsos[i];

		if (dso->loaded)
			symbol_table_release(&dso->table);
		free(dso->segments);
		free(dso->path);
		free(dso);
	}
	free(cache->dsos);
	free(cache);
}
