#ifndef SNM_CLIBPQ_SHIM_H
#define SNM_CLIBPQ_SHIM_H
#include <libpq-fe.h>

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
