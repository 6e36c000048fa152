#ifndef SNM_CCURL_SHIM_H
#define SNM_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per kind of argument. Each returns curl's code, which the caller checks.

static inline CURLcode snm_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode snm_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode snm_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

typedef size_t (*snm_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode snm_curl_set_callback(CURL *handle, CURLoption option,
                                             snm_curl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode snm_curl_get_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}
#endif
