#ifndef SNM_CPROCESS_SHIM_H
#define SNM_CPROCESS_SHIM_H
// Process settings from glibc (libc6-dev) that Swift cannot call itself: prctl is variadic.
#include <sys/prctl.h>
#include <sys/resource.h>

/// Makes this process write no core file and refuse other processes of its user a look at its
/// memory (/proc/PID/mem, environ, ptrace): it holds API keys, tokens and passwords. Returns 0 when
/// both settings took, else -1 (errno set by the call that failed).
static inline int snm_forbid_core_dumps(void) {
  struct rlimit none = {0, 0};
  if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
  return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}
#endif
