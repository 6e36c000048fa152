#ifndef SNM_CCURL_SHIM_H
#define SNM_CCURL_SHIM_H
// libcurl is not linked: it is opened on first use (dlopen), so that a start-up that never makes an
// https:// request does not pay for it and the libraries it brings (GnuTLS, LDAP, Kerberos, SSH:
// about 10M instructions of the dynamic loader's at every start, with libpq's). Each function snm
// calls is defined here under its own name and forwards to libcurl.so.4's.
#define CURL_DISABLE_TYPECHECK
// The header's declarations of the functions below are renamed away: the shim defines them
// under their own names, forwarding to libcurl.so.4's (opened on first use).
#define curl_easy_cleanup snm_curl_declared_curl_easy_cleanup
#define curl_easy_init snm_curl_declared_curl_easy_init
#define curl_easy_reset snm_curl_declared_curl_easy_reset
#define curl_easy_strerror snm_curl_declared_curl_easy_strerror
#define curl_easy_perform snm_curl_declared_curl_easy_perform
#define curl_global_init snm_curl_declared_curl_global_init
#define curl_multi_add_handle snm_curl_declared_curl_multi_add_handle
#define curl_multi_cleanup snm_curl_declared_curl_multi_cleanup
#define curl_multi_info_read snm_curl_declared_curl_multi_info_read
#define curl_multi_init snm_curl_declared_curl_multi_init
#define curl_multi_perform snm_curl_declared_curl_multi_perform
#define curl_multi_poll snm_curl_declared_curl_multi_poll
#define curl_multi_remove_handle snm_curl_declared_curl_multi_remove_handle
#define curl_multi_wakeup snm_curl_declared_curl_multi_wakeup
#define curl_slist_append snm_curl_declared_curl_slist_append
#define curl_slist_free_all snm_curl_declared_curl_slist_free_all
#define curl_easy_setopt snm_curl_declared_curl_easy_setopt
#define curl_easy_getinfo snm_curl_declared_curl_easy_getinfo
#include <curl/curl.h>
#undef curl_easy_cleanup
#undef curl_easy_init
#undef curl_easy_reset
#undef curl_easy_strerror
#undef curl_easy_perform
#undef curl_global_init
#undef curl_multi_add_handle
#undef curl_multi_cleanup
#undef curl_multi_info_read
#undef curl_multi_init
#undef curl_multi_perform
#undef curl_multi_poll
#undef curl_multi_remove_handle
#undef curl_multi_wakeup
#undef curl_slist_append
#undef curl_slist_free_all
#undef curl_easy_setopt
#undef curl_easy_getinfo

#include "../CLazyLibrary/lazy_library.h"

/// The functions snm calls, in the order of their slots in the table of those opened.
#define SNM_CURL_FUNCTIONS(F)                                                                  \
  F(curl_easy_cleanup) F(curl_easy_init) F(curl_easy_reset) F(curl_easy_strerror)              \
  F(curl_easy_perform) F(curl_global_init) F(curl_multi_add_handle) F(curl_multi_cleanup)      \
  F(curl_multi_info_read) F(curl_multi_init) F(curl_multi_perform) F(curl_multi_poll)          \
  F(curl_multi_remove_handle) F(curl_multi_wakeup) F(curl_slist_append) F(curl_slist_free_all) \
  F(curl_easy_setopt) F(curl_easy_getinfo)

/// snm_libcurl_load() and snm_curl() (see SNM_LAZY_LIBRARY). Ask snm_libcurl_load before the
/// first handle: a machine without libcurl still runs snm; a call without asking ends it (exit 1).
SNM_LAZY_LIBRARY(curl, SNM_CURL_FUNCTIONS, "libcurl.so.4", "https:// requests need libcurl4", 1,
                 NULL)

static inline void curl_easy_cleanup(CURL *curl) {
  ((void (*)(CURL *curl))snm_curl()[snm_slot_curl_easy_cleanup])(curl);
}

static inline CURL *curl_easy_init(void) {
  return ((CURL *(*)(void))snm_curl()[snm_slot_curl_easy_init])();
}

static inline void curl_easy_reset(CURL *curl) {
  ((void (*)(CURL *curl))snm_curl()[snm_slot_curl_easy_reset])(curl);
}

static inline const char *curl_easy_strerror(CURLcode code) {
  return ((const char *(*)(CURLcode code))snm_curl()[snm_slot_curl_easy_strerror])(code);
}

static inline CURLcode curl_easy_perform(CURL *curl) {
  return ((CURLcode (*)(CURL *curl))snm_curl()[snm_slot_curl_easy_perform])(curl);
}

static inline CURLcode curl_global_init(long flags) {
  return ((CURLcode (*)(long flags))snm_curl()[snm_slot_curl_global_init])(flags);
}

static inline CURLMcode curl_multi_add_handle(CURLM *multi, CURL *easy) {
  return ((CURLMcode (*)(CURLM *multi, CURL
      *easy))snm_curl()[snm_slot_curl_multi_add_handle])(multi, easy);
}

static inline CURLMcode curl_multi_cleanup(CURLM *multi) {
  return ((CURLMcode (*)(CURLM *multi))snm_curl()[snm_slot_curl_multi_cleanup])(multi);
}

static inline CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
  return ((CURLMsg *(*)(CURLM *multi, int *queued))snm_curl()[snm_slot_curl_multi_info_read])(multi,
      queued);
}

static inline CURLM *curl_multi_init(void) {
  return ((CURLM *(*)(void))snm_curl()[snm_slot_curl_multi_init])();
}

static inline CURLMcode curl_multi_perform(CURLM *multi, int *running) {
  return ((CURLMcode (*)(CURLM *multi, int *running))snm_curl()[snm_slot_curl_multi_perform])(multi,
      running);
}

static inline CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int
    extraCount, int timeout, int *ready) {
  return ((CURLMcode (*)(CURLM *multi, struct curl_waitfd extra[], unsigned int extraCount, int
      timeout, int *ready))snm_curl()[snm_slot_curl_multi_poll])(multi, extra, extraCount, timeout,
      ready);
}

static inline CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *easy) {
  return ((CURLMcode (*)(CURLM *multi, CURL
      *easy))snm_curl()[snm_slot_curl_multi_remove_handle])(multi, easy);
}

static inline CURLMcode curl_multi_wakeup(CURLM *multi) {
  return ((CURLMcode (*)(CURLM *multi))snm_curl()[snm_slot_curl_multi_wakeup])(multi);
}

static inline struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
  return ((struct curl_slist *(*)(struct curl_slist *list, const char
      *text))snm_curl()[snm_slot_curl_slist_append])(list, text);
}

static inline void curl_slist_free_all(struct curl_slist *list) {
  ((void (*)(struct curl_slist *list))snm_curl()[snm_slot_curl_slist_free_all])(list);
}

// Each forwarder has the header's prototype.
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_easy_cleanup), __typeof__(snm_curl_declared_curl_easy_cleanup)),
               "curl_easy_cleanup differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_easy_init), __typeof__(snm_curl_declared_curl_easy_init)),
               "curl_easy_init differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_easy_reset), __typeof__(snm_curl_declared_curl_easy_reset)),
               "curl_easy_reset differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_easy_strerror), __typeof__(snm_curl_declared_curl_easy_strerror)),
               "curl_easy_strerror differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_easy_perform), __typeof__(snm_curl_declared_curl_easy_perform)),
               "curl_easy_perform differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_global_init), __typeof__(snm_curl_declared_curl_global_init)),
               "curl_global_init differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_add_handle), __typeof__(snm_curl_declared_curl_multi_add_handle)),
               "curl_multi_add_handle differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_cleanup), __typeof__(snm_curl_declared_curl_multi_cleanup)),
               "curl_multi_cleanup differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_info_read), __typeof__(snm_curl_declared_curl_multi_info_read)),
               "curl_multi_info_read differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_init), __typeof__(snm_curl_declared_curl_multi_init)),
               "curl_multi_init differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_perform), __typeof__(snm_curl_declared_curl_multi_perform)),
               "curl_multi_perform differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_poll), __typeof__(snm_curl_declared_curl_multi_poll)),
               "curl_multi_poll differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_remove_handle), __typeof__(snm_curl_declared_curl_multi_remove_handle)),
               "curl_multi_remove_handle differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_multi_wakeup), __typeof__(snm_curl_declared_curl_multi_wakeup)),
               "curl_multi_wakeup differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_slist_append), __typeof__(snm_curl_declared_curl_slist_append)),
               "curl_slist_append differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(curl_slist_free_all), __typeof__(snm_curl_declared_curl_slist_free_all)),
               "curl_slist_free_all differs from the header's");
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per kind of argument, calling it through its variadic type. Each returns curl's code, which the
// caller checks.
typedef CURLcode (*snm_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*snm_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode snm_curl_set_long(CURL *handle, CURLoption option, long value) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(handle, option, value);
}

static inline CURLcode snm_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(handle, option, value);
}

static inline CURLcode snm_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(handle, option, value);
}

typedef size_t (*snm_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode snm_curl_set_callback(CURL *handle, CURLoption option,
                                             snm_curl_data_callback callback) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(handle, option,
                                                                          callback);
}

typedef int (*snm_curl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size,
                                       void *context);

/// CURLOPT_DEBUGFUNCTION.
static inline CURLcode snm_curl_set_debug_callback(CURL *handle, snm_curl_debug_callback callback) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(
      handle, CURLOPT_DEBUGFUNCTION, callback);
}

typedef int (*snm_curl_prereq_callback)(void *context, char *primary_ip, char *local_ip,
                                        int primary_port, int local_port);

/// CURLOPT_PREREQFUNCTION (libcurl 7.80): called each time the request is about to be sent.
static inline CURLcode snm_curl_set_prereq_callback(CURL *handle, snm_curl_prereq_callback callback) {
  return ((snm_curl_setopt_function)snm_curl()[snm_slot_curl_easy_setopt])(
      handle, CURLOPT_PREREQFUNCTION, callback);
}

static inline CURLcode snm_curl_get_long(CURL *handle, CURLINFO info, long *value) {
  return ((snm_curl_getinfo_function)snm_curl()[snm_slot_curl_easy_getinfo])(handle, info, value);
}

/// curl_easy_header (libcurl 7.83), looked up on its own: an older libcurl still serves every
/// https:// request, and only the status below is not to be had from it.
typedef CURLHcode (*snm_curl_header_function)(CURL *, const char *, size_t, unsigned int, int,
                                              struct curl_header **);

typedef struct {
  snm_curl_header_function function;
  pthread_once_t once;
} snm_curl_header_lookup;

/// The one lookup (a function's own static: the importer emits no file-scope static variable).
static inline snm_curl_header_lookup *snm_curl_header_state(void) {
  static snm_curl_header_lookup lookup = {.function = NULL, .once = PTHREAD_ONCE_INIT};
  return &lookup;
}

static inline void snm_curl_header_find(void) {
  // libcurl.so.4 is open by now (a transfer ran): RTLD_NOLOAD only finds it again.
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (library != NULL) {
    snm_curl_header_state()->function =
        (snm_curl_header_function)dlsym(library, "curl_easy_header");
  }
}

/// The status of the last head the transfer on `handle` received over HTTP/2, kept by libcurl
/// from the frame itself (its `:status`, `CURLH_PSEUDO`) before any of the head is handed over,
/// or -1 when none came (or this libcurl keeps none). libcurl 7.88 drops the rest of a head and
/// body whose stream was closed (RST_STREAM NO_ERROR) while the request's body still went out.
static inline long snm_curl_last_http2_status(CURL *handle) {
  snm_curl_header_lookup *lookup = snm_curl_header_state();
  pthread_once(&lookup->once, snm_curl_header_find);
  snm_curl_header_function found = lookup->function;
  if (found == NULL) return -1;
  struct curl_header *header = NULL;
  if (found(handle, ":status", 0, CURLH_PSEUDO, -1, &header) != CURLHE_OK ||
      header == NULL) {
    return -1;
  }
  size_t last = header->amount - 1;
  if (last > 0 &&
      (found(handle, ":status", last, CURLH_PSEUDO, -1, &header) != CURLHE_OK ||
       header == NULL)) {
    return -1;
  }
  const char *value = header->value;
  if (value == NULL || value[0] < '1' || value[0] > '9' || value[1] < '0' || value[1] > '9' ||
      value[2] < '0' || value[2] > '9' || value[3] != 0) {
    return -1;
  }
  return (value[0] - '0') * 100 + (value[1] - '0') * 10 + (value[2] - '0');
}

/// A `CURLINFO_*_T` figure (bytes sent, received, a length).
static inline CURLcode snm_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
  return ((snm_curl_getinfo_function)snm_curl()[snm_slot_curl_easy_getinfo])(handle, info, value);
}
#endif
