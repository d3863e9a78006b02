// SPDX-License-Identifier: GPL-2.0
/*
 * libpq, loaded when a PostgreSQL store is first opened rather than linked
 * into schedperf: its libraries (TLS, Kerberos, LDAP and theirs, 22 in all,
 * 110 of a process's 177 mappings) would otherwise be mapped in every
 * process a workload forks, and a process with more mappings takes longer
 * to exit. messaging's 400 workers exited 45 ms later than hackbench's
 * (doc/design.md, "Lean workers"). A run on an SQLite store never maps
 * libpq; one on PostgreSQL unmaps it in each iteration's child
 * (pg_library_forget()).
 *
 * The functions below are libpq's own, declared by libpq-fe.h, so the
 * compiler checks each against its prototype; each calls what dlsym()
 * found. pg_library_load() comes first on every path to them (opening a
 * store); none is called before it succeeded.
 */
#include <dlfcn.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/postgres/lib.h"
#include "util/array.h"

/* Debian's libpq5 (and every libpq since PostgreSQL 8.2) has this soname. */
#define LIBPQ_SONAME "libpq.so.5"

/*
 * The functions used, each once: F(type, name, parameters, arguments), V()
 * for one that returns nothing. Each becomes a slot below, a row of
 * symbols[] and the function itself, which calls its slot.
 */
#define LIBPQ_FUNCTIONS(F, V)							\
	F(int, PQcancel, (PGcancel *cancel, char *errbuf, int size), (cancel, errbuf, size)) \
	V(PQclear, (PGresult *res), (res))					\
	F(PGconn *, PQconnectdbParams, (const char *const *keywords,		\
	  const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
	V(PQconninfoFree, (PQconninfoOption *options), (options))		\
	F(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg),	\
	  (conninfo, errmsg))							\
	F(int, PQconsumeInput, (PGconn *conn), (conn))				\
	F(char *, PQerrorMessage, (const PGconn *conn), (conn))			\
	F(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))	\
	V(PQfinish, (PGconn *conn), (conn))					\
	V(PQfreeCancel, (PGcancel *cancel), (cancel))				\
	V(PQfreemem, (void *ptr), (ptr))					\
	F(PGcancel *, PQgetCancel, (PGconn *conn), (conn))			\
	F(PGresult *, PQgetResult, (PGconn *conn), (conn))			\
	F(int, PQgetisnull, (const PGresult *res, int row, int col), (res, row, col))	\
	F(char *, PQgetvalue, (const PGresult *res, int row, int col), (res, row, col))	\
	F(int, PQisBusy, (PGconn *conn), (conn))				\
	F(int, PQntuples, (const PGresult *res), (res))				\
	F(PostgresPollingStatusType, PQresetPoll, (PGconn *conn), (conn))	\
	F(int, PQresetStart, (PGconn *conn), (conn))				\
	F(char *, PQresultErrorField, (const PGresult *res, int code), (res, code))	\
	F(char *, PQresultErrorMessage, (const PGresult *res), (res))		\
	F(ExecStatusType, PQresultStatus, (const PGresult *res), (res))		\
	F(int, PQsendPrepare, (PGconn *conn, const char *name, const char *query,	\
	  int nr, const Oid *types), (conn, name, query, nr, types))		\
	F(int, PQsendQueryParams, (PGconn *conn, const char *command, int nr,	\
	  const Oid *types, const char *const *values, const int *lengths,	\
	  const int *formats, int result_format),				\
	  (conn, command, nr, types, values, lengths, formats, result_format))	\
	F(int, PQsendQueryPrepared, (PGconn *conn, const char *name, int nr,	\
	  const char *const *values, const int *lengths, const int *formats,	\
	  int result_format), (conn, name, nr, values, lengths, formats, result_format)) \
	F(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc,	\
	  void *arg), (conn, proc, arg))					\
	F(int, PQsocket, (const PGconn *conn), (conn))				\
	F(ConnStatusType, PQstatus, (const PGconn *conn), (conn))		\
	F(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))

#define SLOT(type, name, params, args) type (*name) params;
#define VOID_SLOT(name, params, args) SLOT(void, name, params, args)
static struct {
	void *handle;
	LIBPQ_FUNCTIONS(SLOT, VOID_SLOT)
} lib;

#define SYMBOL(type, name, params, args) { (void **)&lib.name, #name },
#define VOID_SYMBOL(name, params, args) SYMBOL(void, name, params, args)
static const struct {
	void **slot;
	const char *name;
} symbols[] = {
	LIBPQ_FUNCTIONS(SYMBOL, VOID_SYMBOL)
};

int pg_library_load(const char *location, struct error *err)
{
	void *handle;

	if (lib.handle)
		return 0;
	handle = dlopen(LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		return error_set(err, EXIT_ENV, "cannot open store '%s': cannot load %s: %s "
				 "(install libpq5: apt-get install libpq5)", location,
				 LIBPQ_SONAME, dlerror());
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++) {
		*symbols[i].slot = dlsym(handle, symbols[i].name);
		if (!*symbols[i].slot) {
			dlclose(handle);
			return error_set(err, EXIT_ENV, "cannot open store '%s': %s has no %s "
					 "(install a libpq of PostgreSQL 10 or later)", location,
					 LIBPQ_SONAME, symbols[i].name);
		}
	}
	lib.handle = handle;
	return 0;
}

void pg_library_forget(void)
{
	if (!lib.handle)
		return;
	dlclose(lib.handle);
	lib.handle = NULL;
}

/* PQcancel() is async-signal-safe, as libpq's own is, with its buffer the caller's. */
#define CALL(type, name, params, args) type name params { return lib.name args; }
#define VOID_CALL(name, params, args) void name params { lib.name args; }
LIBPQ_FUNCTIONS(CALL, VOID_CALL)
