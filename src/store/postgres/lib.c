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

static struct {
	void *handle;
	int (*cancel)(PGcancel *, char *, int);
	void (*clear)(PGresult *);
	PGconn *(*connectdb_params)(const char *const *, const char *const *, int);
	void (*conninfo_free)(PQconninfoOption *);
	PQconninfoOption *(*conninfo_parse)(const char *, char **);
	char *(*error_message)(const PGconn *);
	PGresult *(*exec)(PGconn *, const char *);
	PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *,
				 const int *, const int *, int);
	PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *,
				   const int *, const int *, int);
	void (*finish)(PGconn *);
	void (*free_cancel)(PGcancel *);
	void (*freemem)(void *);
	PGcancel *(*get_cancel)(PGconn *);
	int (*getisnull)(const PGresult *, int, int);
	char *(*getvalue)(const PGresult *, int, int);
	int (*ntuples)(const PGresult *);
	PGresult *(*prepare)(PGconn *, const char *, const char *, int, const Oid *);
	char *(*result_error_field)(const PGresult *, int);
	char *(*result_error_message)(const PGresult *);
	ExecStatusType (*result_status)(const PGresult *);
	PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
	int (*socket)(const PGconn *);
	ConnStatusType (*status)(const PGconn *);
	PGTransactionStatusType (*transaction_status)(const PGconn *);
} lib;

#define SYMBOL(field, name) { (void **)&lib.field, name }

static const struct {
	void **slot;
	const char *name;
} symbols[] = {
	SYMBOL(cancel, "PQcancel"),
	SYMBOL(clear, "PQclear"),
	SYMBOL(connectdb_params, "PQconnectdbParams"),
	SYMBOL(conninfo_free, "PQconninfoFree"),
	SYMBOL(conninfo_parse, "PQconninfoParse"),
	SYMBOL(error_message, "PQerrorMessage"),
	SYMBOL(exec, "PQexec"),
	SYMBOL(exec_params, "PQexecParams"),
	SYMBOL(exec_prepared, "PQexecPrepared"),
	SYMBOL(finish, "PQfinish"),
	SYMBOL(free_cancel, "PQfreeCancel"),
	SYMBOL(freemem, "PQfreemem"),
	SYMBOL(get_cancel, "PQgetCancel"),
	SYMBOL(getisnull, "PQgetisnull"),
	SYMBOL(getvalue, "PQgetvalue"),
	SYMBOL(ntuples, "PQntuples"),
	SYMBOL(prepare, "PQprepare"),
	SYMBOL(result_error_field, "PQresultErrorField"),
	SYMBOL(result_error_message, "PQresultErrorMessage"),
	SYMBOL(result_status, "PQresultStatus"),
	SYMBOL(set_notice_processor, "PQsetNoticeProcessor"),
	SYMBOL(socket, "PQsocket"),
	SYMBOL(status, "PQstatus"),
	SYMBOL(transaction_status, "PQtransactionStatus"),
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

/* Async-signal-safe, as libpq's own is, with @errbuf the caller's. */
int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize)
{
	return lib.cancel(cancel, errbuf, errbufsize);
}

void PQclear(PGresult *res)
{
	lib.clear(res);
}

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values,
			  int expand_dbname)
{
	return lib.connectdb_params(keywords, values, expand_dbname);
}

char *PQerrorMessage(const PGconn *conn)
{
	return lib.error_message(conn);
}

PGresult *PQexec(PGconn *conn, const char *query)
{
	return lib.exec(conn, query);
}

PGresult *PQexecParams(PGconn *conn, const char *command, int nr_params, const Oid *types,
		       const char *const *values, const int *lengths, const int *formats,
		       int result_format)
{
	return lib.exec_params(conn, command, nr_params, types, values, lengths, formats,
			       result_format);
}

PGresult *PQexecPrepared(PGconn *conn, const char *name, int nr_params,
			 const char *const *values, const int *lengths, const int *formats,
			 int result_format)
{
	return lib.exec_prepared(conn, name, nr_params, values, lengths, formats,
				 result_format);
}

void PQfinish(PGconn *conn)
{
	lib.finish(conn);
}

void PQfreeCancel(PGcancel *cancel)
{
	lib.free_cancel(cancel);
}

void PQfreemem(void *ptr)
{
	lib.freemem(ptr);
}

PGcancel *PQgetCancel(PGconn *conn)
{
	return lib.get_cancel(conn);
}

void PQconninfoFree(PQconninfoOption *options)
{
	lib.conninfo_free(options);
}

PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg)
{
	return lib.conninfo_parse(conninfo, errmsg);
}

int PQgetisnull(const PGresult *res, int row, int field)
{
	return lib.getisnull(res, row, field);
}

char *PQgetvalue(const PGresult *res, int row, int field)
{
	return lib.getvalue(res, row, field);
}

int PQntuples(const PGresult *res)
{
	return lib.ntuples(res);
}

PGresult *PQprepare(PGconn *conn, const char *name, const char *query, int nr_params,
		    const Oid *types)
{
	return lib.prepare(conn, name, query, nr_params, types);
}

char *PQresultErrorField(const PGresult *res, int code)
{
	return lib.result_error_field(res, code);
}

char *PQresultErrorMessage(const PGresult *res)
{
	return lib.result_error_message(res);
}

ExecStatusType PQresultStatus(const PGresult *res)
{
	return lib.result_status(res);
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg)
{
	return lib.set_notice_processor(conn, proc, arg);
}

int PQsocket(const PGconn *conn)
{
	return lib.socket(conn);
}

ConnStatusType PQstatus(const PGconn *conn)
{
	return lib.status(conn);
}

PGTransactionStatusType PQtransactionStatus(const PGconn *conn)
{
	return lib.transaction_status(conn);
}
