#ifndef SNM_CLIBUV_SHIM_H
#define SNM_CLIBUV_SHIM_H
#include <uv.h>

/// The generic handle of a poll, async or timer handle (for uv_close and uv_handle_t fields).
static inline uv_handle_t *snm_uv_handle(void *handle) { return (uv_handle_t *)handle; }
#endif
