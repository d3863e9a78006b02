// SPDX-License-Identifier: GPL-2.0
/*
 * The memory of a document being read (doc_memory.h): its values are cut
 * from blocks, which go all at once when it has been read, instead of a
 * malloc and a free for each of its hundreds of thousands of values (and a
 * walk of the tree to free them): 4 % of an import. Nothing of it outlives
 * the read; what the results keep is copied. A value larger than a
 * quarter of a block has a block of its own, after the one being filled.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "interchange/doc_memory.h"

struct doc_block {
	struct doc_block *next;
	size_t used, size;
	max_align_t data[];
};

#define DOC_BLOCK ((size_t)1 << 20)
#define DOC_ALIGN _Alignof(max_align_t)

static struct doc_block *doc_blocks;
static bool out_of_memory;

/* jansson's allocator outside a read: malloc, with a failure noted. */
static void *json_malloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		out_of_memory = true;
	return p;
}

static void *doc_block_malloc(size_t size)
{
	struct doc_block *b = doc_blocks;
	size_t room;

	if (size > SIZE_MAX / 2)
		goto fail;
	size = (size + DOC_ALIGN - 1) & ~(DOC_ALIGN - 1);
	if (b && b->size - b->used >= size) {
		b->used += size;
		return (char *)b->data + b->used - size;
	}
	room = size > DOC_BLOCK / 4 ? size : DOC_BLOCK;
	b = malloc(sizeof(*b) + room);
	if (!b)
		goto fail;
	*b = (struct doc_block){ .used = size, .size = room };
	if (room == DOC_BLOCK || !doc_blocks) {
		b->next = doc_blocks;
		doc_blocks = b;
	} else {
		b->next = doc_blocks->next;
		doc_blocks->next = b;
	}
	return b->data;
fail:
	out_of_memory = true;
	return NULL;
}

/* A value of the document goes with its block. */
static void doc_block_free(void *p)
{
	(void)p;
}

void doc_memory_begin(void)
{
	out_of_memory = false;
	json_set_alloc_funcs(doc_block_malloc, doc_block_free);
}

/* The document read (every value of it), and jansson back on malloc. */
void doc_memory_end(void)
{
	while (doc_blocks) {
		struct doc_block *b = doc_blocks;

		doc_blocks = b->next;
		free(b);
	}
	json_set_alloc_funcs(json_malloc, free);
}

bool doc_memory_exhausted(void)
{
	return out_of_memory;
}
