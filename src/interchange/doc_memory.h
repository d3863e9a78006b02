/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_DOC_MEMORY_H
#define SCHEDPERF_DOC_MEMORY_H

#include <stdbool.h>

/*
 * The memory jansson parses a document into. Between doc_memory_begin()
 * and doc_memory_end() its values are cut from large blocks, which go all
 * at once at the end: nothing parsed in between may be used after it.
 */
void doc_memory_begin(void);
void doc_memory_end(void);

/*
 * Whether an allocation failed since doc_memory_begin(): jansson reports
 * one while parsing as an error with no text, not as out of memory.
 */
bool doc_memory_exhausted(void);

#endif
