#ifndef SNM_CCRYPTO_SHIM_H
#define SNM_CCRYPTO_SHIM_H
#include "forwarders.h"

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes). Returns 1 on success, 0 on failure.
static inline int snm_hmac_sha256(const unsigned char *key, int keyLength, const unsigned char *data,
                                  size_t dataLength, unsigned char *out) {
  unsigned int outLength = 0;
  unsigned char *result = HMAC(EVP_sha256(), key, keyLength, data, dataLength, out, &outLength);
  return (result != NULL && outLength == 32) ? 1 : 0;
}

/// HMAC-SHA1 of `data` under `key` into `out` (20 bytes), for TOTP (RFC 6238). Returns 1 on
/// success, 0 on failure.
static inline int snm_hmac_sha1(const unsigned char *key, int keyLength, const unsigned char *data,
                                size_t dataLength, unsigned char *out) {
  unsigned int outLength = 0;
  unsigned char *result = HMAC(EVP_sha1(), key, keyLength, data, dataLength, out, &outLength);
  return (result != NULL && outLength == 20) ? 1 : 0;
}

/// SHA-256 of `data` into `out` (32 bytes). Returns 1 on success, 0 on failure.
static inline int snm_sha256(const unsigned char *data, size_t dataLength, unsigned char *out) {
  return SHA256(data, dataLength, out) != NULL ? 1 : 0;
}

/// SHA-224 of `data` into `out` (28 bytes), GoTrue's hash of a mailed code. Returns 1 on success.
static inline int snm_sha224(const unsigned char *data, size_t dataLength, unsigned char *out) {
  return SHA224(data, dataLength, out) != NULL ? 1 : 0;
}

// Asymmetric JWT signing keys (ES256: EC P-256, RS256: RSA 2048), for the local project's
// signing-key JWTs and JWKS. Kind: 0 is EC P-256, 1 is RSA.

/// A new private key of `kind`, or NULL. Free with EVP_PKEY_free.
static inline EVP_PKEY *snm_key_generate(int kind) {
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(kind == 0 ? EVP_PKEY_EC : EVP_PKEY_RSA, NULL);
  EVP_PKEY *key = NULL;
  if (ctx == NULL) return NULL;
  int ok = EVP_PKEY_keygen_init(ctx) > 0 &&
           (kind == 0 ? EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, NID_X9_62_prime256v1) > 0
                      : EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 2048) > 0);
  if (!ok || EVP_PKEY_keygen(ctx, &key) <= 0) key = NULL;
  EVP_PKEY_CTX_free(ctx);
  return key;
}

/// 0 for an EC P-256 key, 1 for an RSA key of 2048 bits or more, -1 for anything else.
static inline int snm_key_kind(EVP_PKEY *key) {
  int type = EVP_PKEY_get_base_id(key);
  if (type == EVP_PKEY_EC) return EVP_PKEY_get_bits(key) == 256 ? 0 : -1;
  if (type == EVP_PKEY_RSA) return EVP_PKEY_get_bits(key) >= 2048 ? 1 : -1;
  return -1;
}

/// The private key as PEM (PKCS#8) into `out`; its length, or -1 (error or too small a buffer).
static inline long snm_key_write_pem(EVP_PKEY *key, unsigned char *out, long capacity) {
  BIO *bio = BIO_new(BIO_s_mem());
  long written = -1;
  if (bio == NULL) return -1;
  if (PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length > 0 && length <= capacity) {
      memcpy(out, data, (size_t)length);
      written = length;
    }
  }
  BIO_free(bio);
  return written;
}

/// The key `read` (PEM_read_bio_PrivateKey or PEM_read_bio_PUBKEY) finds in PEM `text`, or NULL.
static inline EVP_PKEY *snm_key_read_pem_with(EVP_PKEY *(*read)(BIO *, EVP_PKEY **, pem_password_cb *,
                                                                void *),
                                              const unsigned char *text, int length) {
  BIO *bio = BIO_new_mem_buf(text, length);
  EVP_PKEY *key = NULL;
  if (bio == NULL) return NULL;
  key = read(bio, NULL, NULL, NULL);
  BIO_free(bio);
  return key;
}

/// The private key in PEM `text`, or NULL.
static inline EVP_PKEY *snm_key_read_pem(const unsigned char *text, int length) {
  return snm_key_read_pem_with(PEM_read_bio_PrivateKey, text, length);
}

/// The public key in PEM `text` ("PUBLIC KEY", SubjectPublicKeyInfo), or NULL: a provider's key
/// from its JWKS, which verifies and never signs.
static inline EVP_PKEY *snm_key_read_public_pem(const unsigned char *text, int length) {
  return snm_key_read_pem_with(PEM_read_bio_PUBKEY, text, length);
}

/// A public number of the key, big-endian, into `out`: "qx"/"qy" (EC), "n"/"e" (RSA). Its length,
/// or -1.
static inline int snm_key_public_number(EVP_PKEY *key, const char *name, unsigned char *out,
                                        int capacity) {
  BIGNUM *number = NULL;
  if (EVP_PKEY_get_bn_param(key, name, &number) != 1) return -1;
  int length = BN_num_bytes(number);
  if (length > capacity || BN_bn2bin(number, out) != length) length = -1;
  BN_free(number);
  return length;
}

/// A SHA-256 signature of `data`: for EC the JWS form (r and s, 32 bytes each), for RSA
/// PKCS#1 v1.5. Its length, or -1.
static inline long snm_key_sign(EVP_PKEY *key, const unsigned char *data, size_t length,
                                unsigned char *out, size_t capacity) {
  unsigned char signature[1024];
  size_t size = sizeof signature;
  long result = -1;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (ctx == NULL) return -1;
  if (EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
      EVP_DigestSign(ctx, signature, &size, data, length) == 1) {
    if (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC) {
      const unsigned char *cursor = signature;
      ECDSA_SIG *pair = d2i_ECDSA_SIG(NULL, &cursor, (long)size);
      if (pair != NULL && capacity >= 64) {
        const BIGNUM *r = NULL, *s = NULL;
        ECDSA_SIG_get0(pair, &r, &s);
        if (BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32) result = 64;
      }
      ECDSA_SIG_free(pair);
    } else if (size <= capacity) {
      memcpy(out, signature, size);
      result = (long)size;
    }
  }
  EVP_MD_CTX_free(ctx);
  return result;
}

/// 1 when `signature` (as snm_key_sign writes it) is the key's over `data`, 0 when not, -1 on
/// error.
static inline int snm_key_verify(EVP_PKEY *key, const unsigned char *data, size_t length,
                                 const unsigned char *signature, size_t size) {
  unsigned char der[80];
  const unsigned char *checked = signature;
  size_t checkedSize = size;
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC) {
    if (size != 64) return 0;
    ECDSA_SIG *pair = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, 32, NULL), *s = BN_bin2bn(signature + 32, 32, NULL);
    if (pair == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(pair, r, s) != 1) {
      ECDSA_SIG_free(pair);
      BN_free(r);
      BN_free(s);
      return -1;
    }
    unsigned char *cursor = der;
    int encoded = i2d_ECDSA_SIG(pair, NULL) <= (int)sizeof der ? i2d_ECDSA_SIG(pair, &cursor) : -1;
    ECDSA_SIG_free(pair);
    if (encoded <= 0) return -1;
    checked = der;
    checkedSize = (size_t)encoded;
  }
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (ctx == NULL) return -1;
  int verdict = EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, key) == 1
                    ? EVP_DigestVerify(ctx, checked, checkedSize, data, length)
                    : -1;
  EVP_MD_CTX_free(ctx);
  return verdict == 1 ? 1 : (verdict == 0 ? 0 : -1);
}
#endif
