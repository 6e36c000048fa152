#ifndef SNM_CCRYPTO_SHIM_H
#define SNM_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes). Returns 1 on success, 0 on failure.
static inline int snm_hmac_sha256(const unsigned char *key, int keyLength, const unsigned char *data,
                                  size_t dataLength, unsigned char *out) {
  unsigned int outLength = 0;
  unsigned char *result = HMAC(EVP_sha256(), key, keyLength, data, dataLength, out, &outLength);
  return (result != NULL && outLength == 32) ? 1 : 0;
}

/// SHA-256 of `data` into `out` (32 bytes). Returns 1 on success, 0 on failure.
static inline int snm_sha256(const unsigned char *data, size_t dataLength, unsigned char *out) {
  return SHA256(data, dataLength, out) != NULL ? 1 : 0;
}
#endif
