#ifndef SNM_CLIBPQ_SHIM_H
#define SNM_CLIBPQ_SHIM_H
// libpq is not linked: it is opened on first use (dlopen), so that a start-up that never talks to
// Postgres does not pay for it and the Kerberos, LDAP and TLS libraries it brings (snm --version
// and every client command: about 10M instructions of the dynamic loader's, with libcurl's).
// Each function snm calls is defined here under its own name and forwards to libpq.so.5's.
// The header's declarations of the functions below are renamed away: the shim defines them
// under their own names, forwarding to libpq.so.5's (opened on first use).
#define PQbackendPID snm_pq_declared_PQbackendPID
#define PQcancel snm_pq_declared_PQcancel
#define PQclear snm_pq_declared_PQclear
#define PQcmdStatus snm_pq_declared_PQcmdStatus
#define PQcmdTuples snm_pq_declared_PQcmdTuples
#define PQconnectdb snm_pq_declared_PQconnectdb
#define PQconsumeInput snm_pq_declared_PQconsumeInput
#define PQenterPipelineMode snm_pq_declared_PQenterPipelineMode
#define PQerrorMessage snm_pq_declared_PQerrorMessage
#define PQexec snm_pq_declared_PQexec
#define PQexecParams snm_pq_declared_PQexecParams
#define PQexitPipelineMode snm_pq_declared_PQexitPipelineMode
#define PQfinish snm_pq_declared_PQfinish
#define PQflush snm_pq_declared_PQflush
#define PQfname snm_pq_declared_PQfname
#define PQfreeCancel snm_pq_declared_PQfreeCancel
#define PQfreemem snm_pq_declared_PQfreemem
#define PQftype snm_pq_declared_PQftype
#define PQgetCancel snm_pq_declared_PQgetCancel
#define PQgetCopyData snm_pq_declared_PQgetCopyData
#define PQgetResult snm_pq_declared_PQgetResult
#define PQgetisnull snm_pq_declared_PQgetisnull
#define PQgetlength snm_pq_declared_PQgetlength
#define PQgetvalue snm_pq_declared_PQgetvalue
#define PQisBusy snm_pq_declared_PQisBusy
#define PQnfields snm_pq_declared_PQnfields
#define PQnotifies snm_pq_declared_PQnotifies
#define PQntuples snm_pq_declared_PQntuples
#define PQparameterStatus snm_pq_declared_PQparameterStatus
#define PQpipelineSync snm_pq_declared_PQpipelineSync
#define PQputCopyData snm_pq_declared_PQputCopyData
#define PQresultErrorField snm_pq_declared_PQresultErrorField
#define PQresultErrorMessage snm_pq_declared_PQresultErrorMessage
#define PQresultStatus snm_pq_declared_PQresultStatus
#define PQsendPrepare snm_pq_declared_PQsendPrepare
#define PQsendQueryParams snm_pq_declared_PQsendQueryParams
#define PQsendQueryPrepared snm_pq_declared_PQsendQueryPrepared
#define PQserverVersion snm_pq_declared_PQserverVersion
#define PQsetnonblocking snm_pq_declared_PQsetnonblocking
#define PQsocket snm_pq_declared_PQsocket
#define PQstatus snm_pq_declared_PQstatus
#define PQtransactionStatus snm_pq_declared_PQtransactionStatus
#include <postgresql/libpq-fe.h>
#undef PQbackendPID
#undef PQcancel
#undef PQclear
#undef PQcmdStatus
#undef PQcmdTuples
#undef PQconnectdb
#undef PQconsumeInput
#undef PQenterPipelineMode
#undef PQerrorMessage
#undef PQexec
#undef PQexecParams
#undef PQexitPipelineMode
#undef PQfinish
#undef PQflush
#undef PQfname
#undef PQfreeCancel
#undef PQfreemem
#undef PQftype
#undef PQgetCancel
#undef PQgetCopyData
#undef PQgetResult
#undef PQgetisnull
#undef PQgetlength
#undef PQgetvalue
#undef PQisBusy
#undef PQnfields
#undef PQnotifies
#undef PQntuples
#undef PQparameterStatus
#undef PQpipelineSync
#undef PQputCopyData
#undef PQresultErrorField
#undef PQresultErrorMessage
#undef PQresultStatus
#undef PQsendPrepare
#undef PQsendQueryParams
#undef PQsendQueryPrepared
#undef PQserverVersion
#undef PQsetnonblocking
#undef PQsocket
#undef PQstatus
#undef PQtransactionStatus

#include "../CLazyLibrary/lazy_library.h"

/// The functions snm calls, in the order of their slots in the table of those opened.
#define SNM_PQ_FUNCTIONS(F)                                                                       \
  F(PQbackendPID) F(PQcancel) F(PQclear) F(PQcmdStatus) F(PQcmdTuples) F(PQconnectdb)             \
  F(PQconsumeInput) F(PQenterPipelineMode) F(PQerrorMessage) F(PQexec) F(PQexecParams)            \
  F(PQexitPipelineMode) F(PQfinish) F(PQflush) F(PQfname) F(PQfreeCancel) F(PQfreemem) F(PQftype) \
  F(PQgetCancel) F(PQgetCopyData) F(PQgetResult) F(PQgetisnull) F(PQgetlength) F(PQgetvalue)      \
  F(PQisBusy) F(PQnfields) F(PQnotifies) F(PQntuples) F(PQparameterStatus) F(PQpipelineSync)      \
  F(PQputCopyData) F(PQresultErrorField) F(PQresultErrorMessage) F(PQresultStatus)                \
  F(PQsendPrepare) F(PQsendQueryParams) F(PQsendQueryPrepared) F(PQserverVersion)                 \
  F(PQsetnonblocking) F(PQsocket) F(PQstatus) F(PQtransactionStatus)

/// snm_libpq_load() and snm_pq() (see SNM_LAZY_LIBRARY). Ask snm_libpq_load before the first
/// connection: a machine without libpq still runs snm; a call without asking ends it (exit 1).
SNM_LAZY_LIBRARY(pq, SNM_PQ_FUNCTIONS, "libpq.so.5", "install libpq5", 1, NULL)

static inline int PQbackendPID(const PGconn *conn) {
  return ((int (*)(const PGconn *conn))snm_pq()[snm_slot_PQbackendPID])(conn);
}

static inline int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) {
  return ((int (*)(PGcancel *cancel, char *errbuf, int
      errbufsize))snm_pq()[snm_slot_PQcancel])(cancel, errbuf, errbufsize);
}

static inline void PQclear(PGresult *res) {
  ((void (*)(PGresult *res))snm_pq()[snm_slot_PQclear])(res);
}

static inline char *PQcmdStatus(PGresult *res) {
  return ((char *(*)(PGresult *res))snm_pq()[snm_slot_PQcmdStatus])(res);
}

static inline char *PQcmdTuples(PGresult *res) {
  return ((char *(*)(PGresult *res))snm_pq()[snm_slot_PQcmdTuples])(res);
}

static inline PGconn *PQconnectdb(const char *conninfo) {
  return ((PGconn *(*)(const char *conninfo))snm_pq()[snm_slot_PQconnectdb])(conninfo);
}

static inline int PQconsumeInput(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQconsumeInput])(conn);
}

static inline int PQenterPipelineMode(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQenterPipelineMode])(conn);
}

static inline char *PQerrorMessage(const PGconn *conn) {
  return ((char *(*)(const PGconn *conn))snm_pq()[snm_slot_PQerrorMessage])(conn);
}

static inline PGresult *PQexec(PGconn *conn, const char *query) {
  return ((PGresult *(*)(PGconn *conn, const char *query))snm_pq()[snm_slot_PQexec])(conn, query);
}

static inline PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid
    *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats,
    int resultFormat) {
  return ((PGresult *(*)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
      const char *const *paramValues, const int *paramLengths, const int *paramFormats, int
      resultFormat))snm_pq()[snm_slot_PQexecParams])(conn, command, nParams, paramTypes,
      paramValues, paramLengths, paramFormats, resultFormat);
}

static inline int PQexitPipelineMode(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQexitPipelineMode])(conn);
}

static inline void PQfinish(PGconn *conn) {
  ((void (*)(PGconn *conn))snm_pq()[snm_slot_PQfinish])(conn);
}

static inline int PQflush(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQflush])(conn);
}

static inline char *PQfname(const PGresult *res, int field_num) {
  return ((char *(*)(const PGresult *res, int field_num))snm_pq()[snm_slot_PQfname])(res,
      field_num);
}

static inline void PQfreeCancel(PGcancel *cancel) {
  ((void (*)(PGcancel *cancel))snm_pq()[snm_slot_PQfreeCancel])(cancel);
}

static inline void PQfreemem(void *ptr) {
  ((void (*)(void *ptr))snm_pq()[snm_slot_PQfreemem])(ptr);
}

static inline Oid PQftype(const PGresult *res, int field_num) {
  return ((Oid (*)(const PGresult *res, int field_num))snm_pq()[snm_slot_PQftype])(res, field_num);
}

static inline PGcancel *PQgetCancel(PGconn *conn) {
  return ((PGcancel *(*)(PGconn *conn))snm_pq()[snm_slot_PQgetCancel])(conn);
}

static inline int PQgetCopyData(PGconn *conn, char **buffer, int async) {
  return ((int (*)(PGconn *conn, char **buffer, int async))snm_pq()[snm_slot_PQgetCopyData])(conn,
      buffer, async);
}

static inline PGresult *PQgetResult(PGconn *conn) {
  return ((PGresult *(*)(PGconn *conn))snm_pq()[snm_slot_PQgetResult])(conn);
}

static inline int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
  return ((int (*)(const PGresult *res, int tup_num, int
      field_num))snm_pq()[snm_slot_PQgetisnull])(res, tup_num, field_num);
}

static inline int PQgetlength(const PGresult *res, int tup_num, int field_num) {
  return ((int (*)(const PGresult *res, int tup_num, int
      field_num))snm_pq()[snm_slot_PQgetlength])(res, tup_num, field_num);
}

static inline char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
  return ((char *(*)(const PGresult *res, int tup_num, int
      field_num))snm_pq()[snm_slot_PQgetvalue])(res, tup_num, field_num);
}

static inline int PQisBusy(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQisBusy])(conn);
}

static inline int PQnfields(const PGresult *res) {
  return ((int (*)(const PGresult *res))snm_pq()[snm_slot_PQnfields])(res);
}

static inline PGnotify *PQnotifies(PGconn *conn) {
  return ((PGnotify *(*)(PGconn *conn))snm_pq()[snm_slot_PQnotifies])(conn);
}

static inline int PQntuples(const PGresult *res) {
  return ((int (*)(const PGresult *res))snm_pq()[snm_slot_PQntuples])(res);
}

static inline const char *PQparameterStatus(const PGconn *conn, const char *paramName) {
  return ((const char *(*)(const PGconn *conn, const char
      *paramName))snm_pq()[snm_slot_PQparameterStatus])(conn, paramName);
}

static inline int PQpipelineSync(PGconn *conn) {
  return ((int (*)(PGconn *conn))snm_pq()[snm_slot_PQpipelineSync])(conn);
}

static inline int PQputCopyData(PGconn *conn, const char *buffer, int nbytes) {
  return ((int (*)(PGconn *conn, const char *buffer, int
      nbytes))snm_pq()[snm_slot_PQputCopyData])(conn, buffer, nbytes);
}

static inline char *PQresultErrorField(const PGresult *res, int fieldcode) {
  return ((char *(*)(const PGresult *res, int fieldcode))snm_pq()[snm_slot_PQresultErrorField])(res,
      fieldcode);
}

static inline char *PQresultErrorMessage(const PGresult *res) {
  return ((char *(*)(const PGresult *res))snm_pq()[snm_slot_PQresultErrorMessage])(res);
}

static inline ExecStatusType PQresultStatus(const PGresult *res) {
  return ((ExecStatusType (*)(const PGresult *res))snm_pq()[snm_slot_PQresultStatus])(res);
}

static inline int PQsendPrepare(PGconn *conn, const char *stmtName, const char *query, int nParams,
    const Oid *paramTypes) {
  return ((int (*)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid
      *paramTypes))snm_pq()[snm_slot_PQsendPrepare])(conn, stmtName, query, nParams, paramTypes);
}

static inline int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid
    *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats,
    int resultFormat) {
  return ((int (*)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char
      *const *paramValues, const int *paramLengths, const int *paramFormats, int
      resultFormat))snm_pq()[snm_slot_PQsendQueryParams])(conn, command, nParams, paramTypes,
      paramValues, paramLengths, paramFormats, resultFormat);
}

static inline int PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams, const char
    *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
  return ((int (*)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
      const int *paramLengths, const int *paramFormats, int
      resultFormat))snm_pq()[snm_slot_PQsendQueryPrepared])(conn, stmtName, nParams, paramValues,
      paramLengths, paramFormats, resultFormat);
}

static inline int PQserverVersion(const PGconn *conn) {
  return ((int (*)(const PGconn *conn))snm_pq()[snm_slot_PQserverVersion])(conn);
}

static inline int PQsetnonblocking(PGconn *conn, int arg) {
  return ((int (*)(PGconn *conn, int arg))snm_pq()[snm_slot_PQsetnonblocking])(conn, arg);
}

static inline int PQsocket(const PGconn *conn) {
  return ((int (*)(const PGconn *conn))snm_pq()[snm_slot_PQsocket])(conn);
}

static inline ConnStatusType PQstatus(const PGconn *conn) {
  return ((ConnStatusType (*)(const PGconn *conn))snm_pq()[snm_slot_PQstatus])(conn);
}

static inline PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
  return ((PGTransactionStatusType (*)(const PGconn
      *conn))snm_pq()[snm_slot_PQtransactionStatus])(conn);
}

// Each forwarder has the header's prototype.
_Static_assert(__builtin_types_compatible_p(__typeof__(PQbackendPID), __typeof__(snm_pq_declared_PQbackendPID)),
               "PQbackendPID differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQcancel), __typeof__(snm_pq_declared_PQcancel)),
               "PQcancel differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQclear), __typeof__(snm_pq_declared_PQclear)),
               "PQclear differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQcmdStatus), __typeof__(snm_pq_declared_PQcmdStatus)),
               "PQcmdStatus differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQcmdTuples), __typeof__(snm_pq_declared_PQcmdTuples)),
               "PQcmdTuples differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQconnectdb), __typeof__(snm_pq_declared_PQconnectdb)),
               "PQconnectdb differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQconsumeInput), __typeof__(snm_pq_declared_PQconsumeInput)),
               "PQconsumeInput differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQenterPipelineMode), __typeof__(snm_pq_declared_PQenterPipelineMode)),
               "PQenterPipelineMode differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQerrorMessage), __typeof__(snm_pq_declared_PQerrorMessage)),
               "PQerrorMessage differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQexec), __typeof__(snm_pq_declared_PQexec)),
               "PQexec differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQexecParams), __typeof__(snm_pq_declared_PQexecParams)),
               "PQexecParams differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQexitPipelineMode), __typeof__(snm_pq_declared_PQexitPipelineMode)),
               "PQexitPipelineMode differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQfinish), __typeof__(snm_pq_declared_PQfinish)),
               "PQfinish differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQflush), __typeof__(snm_pq_declared_PQflush)),
               "PQflush differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQfname), __typeof__(snm_pq_declared_PQfname)),
               "PQfname differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQfreeCancel), __typeof__(snm_pq_declared_PQfreeCancel)),
               "PQfreeCancel differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQfreemem), __typeof__(snm_pq_declared_PQfreemem)),
               "PQfreemem differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQftype), __typeof__(snm_pq_declared_PQftype)),
               "PQftype differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetCancel), __typeof__(snm_pq_declared_PQgetCancel)),
               "PQgetCancel differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetCopyData), __typeof__(snm_pq_declared_PQgetCopyData)),
               "PQgetCopyData differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetResult), __typeof__(snm_pq_declared_PQgetResult)),
               "PQgetResult differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetisnull), __typeof__(snm_pq_declared_PQgetisnull)),
               "PQgetisnull differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetlength), __typeof__(snm_pq_declared_PQgetlength)),
               "PQgetlength differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQgetvalue), __typeof__(snm_pq_declared_PQgetvalue)),
               "PQgetvalue differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQisBusy), __typeof__(snm_pq_declared_PQisBusy)),
               "PQisBusy differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQnfields), __typeof__(snm_pq_declared_PQnfields)),
               "PQnfields differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQnotifies), __typeof__(snm_pq_declared_PQnotifies)),
               "PQnotifies differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQntuples), __typeof__(snm_pq_declared_PQntuples)),
               "PQntuples differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQparameterStatus), __typeof__(snm_pq_declared_PQparameterStatus)),
               "PQparameterStatus differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQpipelineSync), __typeof__(snm_pq_declared_PQpipelineSync)),
               "PQpipelineSync differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQputCopyData), __typeof__(snm_pq_declared_PQputCopyData)),
               "PQputCopyData differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQresultErrorField), __typeof__(snm_pq_declared_PQresultErrorField)),
               "PQresultErrorField differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQresultErrorMessage), __typeof__(snm_pq_declared_PQresultErrorMessage)),
               "PQresultErrorMessage differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQresultStatus), __typeof__(snm_pq_declared_PQresultStatus)),
               "PQresultStatus differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQsendPrepare), __typeof__(snm_pq_declared_PQsendPrepare)),
               "PQsendPrepare differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQsendQueryParams), __typeof__(snm_pq_declared_PQsendQueryParams)),
               "PQsendQueryParams differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQsendQueryPrepared), __typeof__(snm_pq_declared_PQsendQueryPrepared)),
               "PQsendQueryPrepared differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQserverVersion), __typeof__(snm_pq_declared_PQserverVersion)),
               "PQserverVersion differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQsetnonblocking), __typeof__(snm_pq_declared_PQsetnonblocking)),
               "PQsetnonblocking differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQsocket), __typeof__(snm_pq_declared_PQsocket)),
               "PQsocket differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQstatus), __typeof__(snm_pq_declared_PQstatus)),
               "PQstatus differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PQtransactionStatus), __typeof__(snm_pq_declared_PQtransactionStatus)),
               "PQtransactionStatus differs from the header's");
/// Sends one parameterised statement with text parameters and text results (no binary formats).
static inline int snm_pq_send_text_params(PGconn *conn, const char *command, int nParams,
                                          const char *const *values) {
  return PQsendQueryParams(conn, command, nParams, NULL, values, NULL, NULL, 0);
}

/// Runs one parameterised statement with text parameters and text results.
static inline PGresult *snm_pq_exec_text_params(PGconn *conn, const char *command, int nParams,
                                                const char *const *values) {
  return PQexecParams(conn, command, nParams, NULL, values, NULL, NULL, 0);
}
/// Sends a PREPARE of `command` as the named statement `name` (parameter types inferred).
static inline int snm_pq_send_prepare(PGconn *conn, const char *name, const char *command,
                                      int nParams) {
  return PQsendPrepare(conn, name, command, nParams, NULL);
}

/// Sends an execution of the prepared statement `name` with text parameters and text results.
static inline int snm_pq_send_query_prepared(PGconn *conn, const char *name, int nParams,
                                             const char *const *values) {
  return PQsendQueryPrepared(conn, name, nParams, values, NULL, NULL, 0);
}
#endif
