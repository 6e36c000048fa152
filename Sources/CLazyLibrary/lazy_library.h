#ifndef SNM_LAZY_LIBRARY_H
#define SNM_LAZY_LIBRARY_H
// A C library snm opens on first use (dlopen) instead of linking it, so that a start-up that does
// not need it does not pay the dynamic loader for it and for the libraries it brings. The shims
// of libpq (CLibPQ), libcurl (CCurl), libcrypto and libssl (CCrypto) include this header: each
// lists its library's functions once (an X-macro), says SNM_LAZY_LIBRARY once, and defines each
// function under its own name, forwarding to the library's through snm_<lib>()[snm_slot_<name>].

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/// Opens `soname` and finds each of its `count` functions `names` into `functions`: NULL when
/// all are there, else why not, written into `message` ("libpq.so.5 could not be loaded: ...",
/// "libpq.so.5 has no PQsocket: it is older than snm needs").
static inline const char *snm_lazy_open(const char *soname, const char *const *names, int count,
                                        void **functions, char *message, size_t capacity) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(message, capacity, "%s could not be loaded: %s", soname,
             reason != NULL ? reason : "no reason given");
    return message;
  }
  for (int index = 0; index < count; index++) {
    functions[index] = dlsym(handle, names[index]);
    if (functions[index] == NULL) {
      snprintf(message, capacity, "%s has no %s: it is older than snm needs", soname, names[index]);
      return message;
    }
  }
  return NULL;
}

/// Ends the process when a function of a library that could not be opened is called without
/// asking first: "snm: <failure> (<remedy>)" on standard error, exit `status`.
static inline void snm_lazy_missing(const char *failure, const char *remedy, int status) {
  fprintf(stderr, "snm: %s (%s)\n", failure, remedy);
  exit(status);
}

/// The slot of function `name` in its library's table, and its name as the library exports it.
#define SNM_LAZY_SLOT(name) snm_slot_##name,
#define SNM_LAZY_NAME(name) #name,

/// Defines, for the library `soname` whose functions `list` names (an X-macro: `list(F)` says
/// F(name) for each, in the order of their slots):
/// - an enum of their slots, `snm_slot_<name>` ..., and `snm_<lib>_count`;
/// - `const char *snm_lib<lib>_load(void)`: opens the library once (the first of the threads
///   asking at once opens it, the others wait for it), after `prerequisite` (an expression: NULL,
///   or another library's load); NULL when it is there, else why not. Ask before the first call
///   where a failure can be told to the user: a machine without the library still runs snm.
/// - `void *const *snm_<lib>(void)`: the library's functions, opened on the first call; a call
///   made without asking first, on a machine without the library, ends the process saying why
///   and what to do (`remedy`), with exit code `status`.
/// The state is each translation unit's own (each Swift module importing a shim has its own;
/// dlopen hands them the same library).
#define SNM_LAZY_LIBRARY(lib, list, soname, remedy, status, prerequisite)                         \
  enum { list(SNM_LAZY_SLOT) snm_##lib##_count };                                              \
                                                                                               \
  typedef struct {                                                                             \
    void *functions[snm_##lib##_count];                                                        \
    const char *failure;                                                                       \
    char message[512];                                                                         \
    pthread_once_t once;                                                                       \
    atomic_bool ready;                                                                         \
  } snm_##lib##_library;                                                                       \
                                                                                               \
  static inline snm_##lib##_library *snm_##lib##_state(void) {                                 \
    static snm_##lib##_library library = {.once = PTHREAD_ONCE_INIT};                          \
    return &library;                                                                           \
  }                                                                                            \
                                                                                               \
  static inline void snm_##lib##_open(void) {                                                  \
    static const char *const names[snm_##lib##_count] = {list(SNM_LAZY_NAME)};                 \
    snm_##lib##_library *library = snm_##lib##_state();                                        \
    library->failure = snm_lazy_open(soname, names, snm_##lib##_count, library->functions,     \
                                     library->message, sizeof library->message);               \
    if (library->failure == NULL) atomic_store_explicit(&library->ready, 1, memory_order_release); \
  }                                                                                            \
                                                                                               \
  static inline const char *snm_lib##lib##_load(void) {                                        \
    const char *before = (prerequisite);                                                       \
    if (before != NULL) return before;                                                         \
    snm_##lib##_library *library = snm_##lib##_state();                                        \
    pthread_once(&library->once, snm_##lib##_open);                                            \
    return library->failure;                                                                   \
  }                                                                                            \
                                                                                               \
  static inline void *const *snm_##lib(void) {                                                 \
    snm_##lib##_library *library = snm_##lib##_state();                                        \
    if (__builtin_expect(!atomic_load_explicit(&library->ready, memory_order_acquire), 0)) {   \
      const char *failure = snm_lib##lib##_load();                                             \
      if (failure != NULL) snm_lazy_missing(failure, remedy, status);                          \
    }                                                                                          \
    return library->functions;                                                                 \
  }

#endif
