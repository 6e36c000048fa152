#ifndef SNM_CCRYPTO_FORWARDERS_H
#define SNM_CCRYPTO_FORWARDERS_H
// Written by scripts/openssl-forwarders: change the lists there and write it again.
// libcrypto and libssl are not linked: they are opened on first use (dlopen), so that a start-up
// that needs neither (the prompt, `snm --version`) does not pay for loading them (about 3M
// instructions of the dynamic loader's). Each function snm calls is defined here under its own
// name and forwards to the library's.

#define BIO_ctrl snm_openssl_declared_BIO_ctrl
#define BIO_ctrl_pending snm_openssl_declared_BIO_ctrl_pending
#define BIO_free snm_openssl_declared_BIO_free
#define BIO_new snm_openssl_declared_BIO_new
#define BIO_new_mem_buf snm_openssl_declared_BIO_new_mem_buf
#define BIO_read snm_openssl_declared_BIO_read
#define BIO_s_mem snm_openssl_declared_BIO_s_mem
#define BIO_write snm_openssl_declared_BIO_write
#define BN_bin2bn snm_openssl_declared_BN_bin2bn
#define BN_bn2bin snm_openssl_declared_BN_bn2bin
#define BN_bn2binpad snm_openssl_declared_BN_bn2binpad
#define BN_free snm_openssl_declared_BN_free
#define BN_num_bits snm_openssl_declared_BN_num_bits
#define ECDSA_SIG_free snm_openssl_declared_ECDSA_SIG_free
#define ECDSA_SIG_get0 snm_openssl_declared_ECDSA_SIG_get0
#define ECDSA_SIG_new snm_openssl_declared_ECDSA_SIG_new
#define ECDSA_SIG_set0 snm_openssl_declared_ECDSA_SIG_set0
#define ERR_clear_error snm_openssl_declared_ERR_clear_error
#define ERR_error_string_n snm_openssl_declared_ERR_error_string_n
#define ERR_get_error snm_openssl_declared_ERR_get_error
#define EVP_DigestFinal_ex snm_openssl_declared_EVP_DigestFinal_ex
#define EVP_DigestInit_ex snm_openssl_declared_EVP_DigestInit_ex
#define EVP_DigestSign snm_openssl_declared_EVP_DigestSign
#define EVP_DigestSignInit snm_openssl_declared_EVP_DigestSignInit
#define EVP_DigestUpdate snm_openssl_declared_EVP_DigestUpdate
#define EVP_DigestVerify snm_openssl_declared_EVP_DigestVerify
#define EVP_DigestVerifyInit snm_openssl_declared_EVP_DigestVerifyInit
#define EVP_MD_CTX_free snm_openssl_declared_EVP_MD_CTX_free
#define EVP_MD_CTX_new snm_openssl_declared_EVP_MD_CTX_new
#define EVP_PKEY_CTX_free snm_openssl_declared_EVP_PKEY_CTX_free
#define EVP_PKEY_CTX_new_id snm_openssl_declared_EVP_PKEY_CTX_new_id
#define EVP_PKEY_CTX_set_ec_paramgen_curve_nid snm_openssl_declared_EVP_PKEY_CTX_set_ec_paramgen_curve_nid
#define EVP_PKEY_CTX_set_rsa_keygen_bits snm_openssl_declared_EVP_PKEY_CTX_set_rsa_keygen_bits
#define EVP_PKEY_free snm_openssl_declared_EVP_PKEY_free
#define EVP_PKEY_get_base_id snm_openssl_declared_EVP_PKEY_get_base_id
#define EVP_PKEY_get_bits snm_openssl_declared_EVP_PKEY_get_bits
#define EVP_PKEY_get_bn_param snm_openssl_declared_EVP_PKEY_get_bn_param
#define EVP_PKEY_keygen snm_openssl_declared_EVP_PKEY_keygen
#define EVP_PKEY_keygen_init snm_openssl_declared_EVP_PKEY_keygen_init
#define EVP_md5 snm_openssl_declared_EVP_md5
#define EVP_sha1 snm_openssl_declared_EVP_sha1
#define EVP_sha256 snm_openssl_declared_EVP_sha256
#define HMAC snm_openssl_declared_HMAC
#define PEM_read_bio_PUBKEY snm_openssl_declared_PEM_read_bio_PUBKEY
#define PEM_read_bio_PrivateKey snm_openssl_declared_PEM_read_bio_PrivateKey
#define PEM_write_bio_PrivateKey snm_openssl_declared_PEM_write_bio_PrivateKey
#define RAND_bytes snm_openssl_declared_RAND_bytes
#define SHA224 snm_openssl_declared_SHA224
#define SHA256 snm_openssl_declared_SHA256
#define X509_VERIFY_PARAM_set1_ip_asc snm_openssl_declared_X509_VERIFY_PARAM_set1_ip_asc
#define X509_verify_cert_error_string snm_openssl_declared_X509_verify_cert_error_string
#define d2i_ECDSA_SIG snm_openssl_declared_d2i_ECDSA_SIG
#define i2d_ECDSA_SIG snm_openssl_declared_i2d_ECDSA_SIG
#define SSL_CTX_ctrl snm_openssl_declared_SSL_CTX_ctrl
#define SSL_CTX_free snm_openssl_declared_SSL_CTX_free
#define SSL_CTX_load_verify_locations snm_openssl_declared_SSL_CTX_load_verify_locations
#define SSL_CTX_new snm_openssl_declared_SSL_CTX_new
#define SSL_CTX_set_default_verify_paths snm_openssl_declared_SSL_CTX_set_default_verify_paths
#define SSL_CTX_set_verify snm_openssl_declared_SSL_CTX_set_verify
#define SSL_ctrl snm_openssl_declared_SSL_ctrl
#define SSL_do_handshake snm_openssl_declared_SSL_do_handshake
#define SSL_free snm_openssl_declared_SSL_free
#define SSL_get0_param snm_openssl_declared_SSL_get0_param
#define SSL_get_error snm_openssl_declared_SSL_get_error
#define SSL_get_rbio snm_openssl_declared_SSL_get_rbio
#define SSL_get_verify_result snm_openssl_declared_SSL_get_verify_result
#define SSL_get_wbio snm_openssl_declared_SSL_get_wbio
#define SSL_new snm_openssl_declared_SSL_new
#define SSL_read snm_openssl_declared_SSL_read
#define SSL_set1_host snm_openssl_declared_SSL_set1_host
#define SSL_set_alpn_protos snm_openssl_declared_SSL_set_alpn_protos
#define SSL_set_bio snm_openssl_declared_SSL_set_bio
#define SSL_set_connect_state snm_openssl_declared_SSL_set_connect_state
#define SSL_write snm_openssl_declared_SSL_write
#define TLS_client_method snm_openssl_declared_TLS_client_method
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#undef BIO_ctrl
#undef BIO_ctrl_pending
#undef BIO_free
#undef BIO_new
#undef BIO_new_mem_buf
#undef BIO_read
#undef BIO_s_mem
#undef BIO_write
#undef BN_bin2bn
#undef BN_bn2bin
#undef BN_bn2binpad
#undef BN_free
#undef BN_num_bits
#undef ECDSA_SIG_free
#undef ECDSA_SIG_get0
#undef ECDSA_SIG_new
#undef ECDSA_SIG_set0
#undef ERR_clear_error
#undef ERR_error_string_n
#undef ERR_get_error
#undef EVP_DigestFinal_ex
#undef EVP_DigestInit_ex
#undef EVP_DigestSign
#undef EVP_DigestSignInit
#undef EVP_DigestUpdate
#undef EVP_DigestVerify
#undef EVP_DigestVerifyInit
#undef EVP_MD_CTX_free
#undef EVP_MD_CTX_new
#undef EVP_PKEY_CTX_free
#undef EVP_PKEY_CTX_new_id
#undef EVP_PKEY_CTX_set_ec_paramgen_curve_nid
#undef EVP_PKEY_CTX_set_rsa_keygen_bits
#undef EVP_PKEY_free
#undef EVP_PKEY_get_base_id
#undef EVP_PKEY_get_bits
#undef EVP_PKEY_get_bn_param
#undef EVP_PKEY_keygen
#undef EVP_PKEY_keygen_init
#undef EVP_md5
#undef EVP_sha1
#undef EVP_sha256
#undef HMAC
#undef PEM_read_bio_PUBKEY
#undef PEM_read_bio_PrivateKey
#undef PEM_write_bio_PrivateKey
#undef RAND_bytes
#undef SHA224
#undef SHA256
#undef X509_VERIFY_PARAM_set1_ip_asc
#undef X509_verify_cert_error_string
#undef d2i_ECDSA_SIG
#undef i2d_ECDSA_SIG
#undef SSL_CTX_ctrl
#undef SSL_CTX_free
#undef SSL_CTX_load_verify_locations
#undef SSL_CTX_new
#undef SSL_CTX_set_default_verify_paths
#undef SSL_CTX_set_verify
#undef SSL_ctrl
#undef SSL_do_handshake
#undef SSL_free
#undef SSL_get0_param
#undef SSL_get_error
#undef SSL_get_rbio
#undef SSL_get_verify_result
#undef SSL_get_wbio
#undef SSL_new
#undef SSL_read
#undef SSL_set1_host
#undef SSL_set_alpn_protos
#undef SSL_set_bio
#undef SSL_set_connect_state
#undef SSL_write
#undef TLS_client_method

#include <string.h>

#include "../CLazyLibrary/lazy_library.h"

/// The functions snm calls, in the order of their slots in the table of those opened.
#define SNM_CRYPTO_FUNCTIONS(F)                                                                  \
  F(BIO_ctrl) F(BIO_ctrl_pending) F(BIO_free) F(BIO_new) F(BIO_new_mem_buf) F(BIO_read)          \
  F(BIO_s_mem) F(BIO_write) F(BN_bin2bn) F(BN_bn2bin) F(BN_bn2binpad) F(BN_free) F(BN_num_bits)  \
  F(ECDSA_SIG_free) F(ECDSA_SIG_get0) F(ECDSA_SIG_new) F(ECDSA_SIG_set0) F(ERR_clear_error)      \
  F(ERR_error_string_n) F(ERR_get_error) F(EVP_DigestFinal_ex) F(EVP_DigestInit_ex)              \
  F(EVP_DigestSign) F(EVP_DigestSignInit) F(EVP_DigestUpdate) F(EVP_DigestVerify)                \
  F(EVP_DigestVerifyInit) F(EVP_MD_CTX_free) F(EVP_MD_CTX_new) F(EVP_PKEY_CTX_free)              \
  F(EVP_PKEY_CTX_new_id) F(EVP_PKEY_CTX_set_ec_paramgen_curve_nid)                               \
  F(EVP_PKEY_CTX_set_rsa_keygen_bits) F(EVP_PKEY_free) F(EVP_PKEY_get_base_id)                   \
  F(EVP_PKEY_get_bits) F(EVP_PKEY_get_bn_param) F(EVP_PKEY_keygen) F(EVP_PKEY_keygen_init)       \
  F(EVP_md5) F(EVP_sha1) F(EVP_sha256) F(HMAC) F(PEM_read_bio_PUBKEY) F(PEM_read_bio_PrivateKey) \
  F(PEM_write_bio_PrivateKey) F(RAND_bytes) F(SHA224) F(SHA256) F(X509_VERIFY_PARAM_set1_ip_asc) \
  F(X509_verify_cert_error_string) F(d2i_ECDSA_SIG) F(i2d_ECDSA_SIG)

/// snm_libcrypto_load() and snm_crypto() (see SNM_LAZY_LIBRARY); a machine without libcrypto.so.3
/// is told to install Debian's libssl3 (exit 3).
SNM_LAZY_LIBRARY(crypto, SNM_CRYPTO_FUNCTIONS, "libcrypto.so.3", "install Debian's libssl3", 3,
                 NULL)

static inline long int BIO_ctrl(BIO *a0, int a1, long int a2, void *a3) {
  return ((long int (*)(BIO *, int, long int, void *))snm_crypto()[snm_slot_BIO_ctrl])(a0, a1, a2, a3);
}

static inline size_t BIO_ctrl_pending(BIO *a0) {
  return ((size_t (*)(BIO *))snm_crypto()[snm_slot_BIO_ctrl_pending])(a0);
}

static inline int BIO_free(BIO *a0) {
  return ((int (*)(BIO *))snm_crypto()[snm_slot_BIO_free])(a0);
}

static inline BIO *BIO_new(const BIO_METHOD *a0) {
  return ((BIO * (*)(const BIO_METHOD *))snm_crypto()[snm_slot_BIO_new])(a0);
}

static inline BIO *BIO_new_mem_buf(const void *a0, int a1) {
  return ((BIO * (*)(const void *, int))snm_crypto()[snm_slot_BIO_new_mem_buf])(a0, a1);
}

static inline int BIO_read(BIO *a0, void *a1, int a2) {
  return ((int (*)(BIO *, void *, int))snm_crypto()[snm_slot_BIO_read])(a0, a1, a2);
}

static inline const BIO_METHOD *BIO_s_mem(void) {
  return ((const BIO_METHOD * (*)(void))snm_crypto()[snm_slot_BIO_s_mem])();
}

static inline int BIO_write(BIO *a0, const void *a1, int a2) {
  return ((int (*)(BIO *, const void *, int))snm_crypto()[snm_slot_BIO_write])(a0, a1, a2);
}

static inline BIGNUM *BN_bin2bn(const unsigned char *a0, int a1, BIGNUM *a2) {
  return ((BIGNUM * (*)(const unsigned char *, int, BIGNUM *))snm_crypto()[snm_slot_BN_bin2bn])(a0, a1, a2);
}

static inline int BN_bn2bin(const BIGNUM *a0, unsigned char *a1) {
  return ((int (*)(const BIGNUM *, unsigned char *))snm_crypto()[snm_slot_BN_bn2bin])(a0, a1);
}

static inline int BN_bn2binpad(const BIGNUM *a0, unsigned char *a1, int a2) {
  return ((int (*)(const BIGNUM *, unsigned char *, int))snm_crypto()[snm_slot_BN_bn2binpad])(a0, a1, a2);
}

static inline void BN_free(BIGNUM *a0) {
  ((void (*)(BIGNUM *))snm_crypto()[snm_slot_BN_free])(a0);
}

static inline int BN_num_bits(const BIGNUM *a0) {
  return ((int (*)(const BIGNUM *))snm_crypto()[snm_slot_BN_num_bits])(a0);
}

static inline void ECDSA_SIG_free(ECDSA_SIG *a0) {
  ((void (*)(ECDSA_SIG *))snm_crypto()[snm_slot_ECDSA_SIG_free])(a0);
}

static inline void ECDSA_SIG_get0(const ECDSA_SIG *a0, const BIGNUM **a1, const BIGNUM **a2) {
  ((void (*)(const ECDSA_SIG *, const BIGNUM **, const BIGNUM **))snm_crypto()[snm_slot_ECDSA_SIG_get0])(a0, a1, a2);
}

static inline ECDSA_SIG *ECDSA_SIG_new(void) {
  return ((ECDSA_SIG * (*)(void))snm_crypto()[snm_slot_ECDSA_SIG_new])();
}

static inline int ECDSA_SIG_set0(ECDSA_SIG *a0, BIGNUM *a1, BIGNUM *a2) {
  return ((int (*)(ECDSA_SIG *, BIGNUM *, BIGNUM *))snm_crypto()[snm_slot_ECDSA_SIG_set0])(a0, a1, a2);
}

static inline void ERR_clear_error(void) {
  ((void (*)(void))snm_crypto()[snm_slot_ERR_clear_error])();
}

static inline void ERR_error_string_n(long unsigned int a0, char *a1, size_t a2) {
  ((void (*)(long unsigned int, char *, size_t))snm_crypto()[snm_slot_ERR_error_string_n])(a0, a1, a2);
}

static inline long unsigned int ERR_get_error(void) {
  return ((long unsigned int (*)(void))snm_crypto()[snm_slot_ERR_get_error])();
}

static inline int EVP_DigestFinal_ex(EVP_MD_CTX *a0, unsigned char *a1, unsigned int *a2) {
  return ((int (*)(EVP_MD_CTX *, unsigned char *, unsigned int *))snm_crypto()[snm_slot_EVP_DigestFinal_ex])(a0, a1, a2);
}

static inline int EVP_DigestInit_ex(EVP_MD_CTX *a0, const EVP_MD *a1, ENGINE *a2) {
  return ((int (*)(EVP_MD_CTX *, const EVP_MD *, ENGINE *))snm_crypto()[snm_slot_EVP_DigestInit_ex])(a0, a1, a2);
}

static inline int EVP_DigestSign(EVP_MD_CTX *a0, unsigned char *a1, size_t *a2, const unsigned char *a3, size_t a4) {
  return ((int (*)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t))snm_crypto()[snm_slot_EVP_DigestSign])(a0, a1, a2, a3, a4);
}

static inline int EVP_DigestSignInit(EVP_MD_CTX *a0, EVP_PKEY_CTX **a1, const EVP_MD *a2, ENGINE *a3, EVP_PKEY *a4) {
  return ((int (*)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *))snm_crypto()[snm_slot_EVP_DigestSignInit])(a0, a1, a2, a3, a4);
}

static inline int EVP_DigestUpdate(EVP_MD_CTX *a0, const void *a1, size_t a2) {
  return ((int (*)(EVP_MD_CTX *, const void *, size_t))snm_crypto()[snm_slot_EVP_DigestUpdate])(a0, a1, a2);
}

static inline int EVP_DigestVerify(EVP_MD_CTX *a0, const unsigned char *a1, size_t a2, const unsigned char *a3, size_t a4) {
  return ((int (*)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *, size_t))snm_crypto()[snm_slot_EVP_DigestVerify])(a0, a1, a2, a3, a4);
}

static inline int EVP_DigestVerifyInit(EVP_MD_CTX *a0, EVP_PKEY_CTX **a1, const EVP_MD *a2, ENGINE *a3, EVP_PKEY *a4) {
  return ((int (*)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *))snm_crypto()[snm_slot_EVP_DigestVerifyInit])(a0, a1, a2, a3, a4);
}

static inline void EVP_MD_CTX_free(EVP_MD_CTX *a0) {
  ((void (*)(EVP_MD_CTX *))snm_crypto()[snm_slot_EVP_MD_CTX_free])(a0);
}

static inline EVP_MD_CTX *EVP_MD_CTX_new(void) {
  return ((EVP_MD_CTX * (*)(void))snm_crypto()[snm_slot_EVP_MD_CTX_new])();
}

static inline void EVP_PKEY_CTX_free(EVP_PKEY_CTX *a0) {
  ((void (*)(EVP_PKEY_CTX *))snm_crypto()[snm_slot_EVP_PKEY_CTX_free])(a0);
}

static inline EVP_PKEY_CTX *EVP_PKEY_CTX_new_id(int a0, ENGINE *a1) {
  return ((EVP_PKEY_CTX * (*)(int, ENGINE *))snm_crypto()[snm_slot_EVP_PKEY_CTX_new_id])(a0, a1);
}

static inline int EVP_PKEY_CTX_set_ec_paramgen_curve_nid(EVP_PKEY_CTX *a0, int a1) {
  return ((int (*)(EVP_PKEY_CTX *, int))snm_crypto()[snm_slot_EVP_PKEY_CTX_set_ec_paramgen_curve_nid])(a0, a1);
}

static inline int EVP_PKEY_CTX_set_rsa_keygen_bits(EVP_PKEY_CTX *a0, int a1) {
  return ((int (*)(EVP_PKEY_CTX *, int))snm_crypto()[snm_slot_EVP_PKEY_CTX_set_rsa_keygen_bits])(a0, a1);
}

static inline void EVP_PKEY_free(EVP_PKEY *a0) {
  ((void (*)(EVP_PKEY *))snm_crypto()[snm_slot_EVP_PKEY_free])(a0);
}

static inline int EVP_PKEY_get_base_id(const EVP_PKEY *a0) {
  return ((int (*)(const EVP_PKEY *))snm_crypto()[snm_slot_EVP_PKEY_get_base_id])(a0);
}

static inline int EVP_PKEY_get_bits(const EVP_PKEY *a0) {
  return ((int (*)(const EVP_PKEY *))snm_crypto()[snm_slot_EVP_PKEY_get_bits])(a0);
}

static inline int EVP_PKEY_get_bn_param(const EVP_PKEY *a0, const char *a1, BIGNUM **a2) {
  return ((int (*)(const EVP_PKEY *, const char *, BIGNUM **))snm_crypto()[snm_slot_EVP_PKEY_get_bn_param])(a0, a1, a2);
}

static inline int EVP_PKEY_keygen(EVP_PKEY_CTX *a0, EVP_PKEY **a1) {
  return ((int (*)(EVP_PKEY_CTX *, EVP_PKEY **))snm_crypto()[snm_slot_EVP_PKEY_keygen])(a0, a1);
}

static inline int EVP_PKEY_keygen_init(EVP_PKEY_CTX *a0) {
  return ((int (*)(EVP_PKEY_CTX *))snm_crypto()[snm_slot_EVP_PKEY_keygen_init])(a0);
}

static inline const EVP_MD *EVP_md5(void) {
  return ((const EVP_MD * (*)(void))snm_crypto()[snm_slot_EVP_md5])();
}

static inline const EVP_MD *EVP_sha1(void) {
  return ((const EVP_MD * (*)(void))snm_crypto()[snm_slot_EVP_sha1])();
}

static inline const EVP_MD *EVP_sha256(void) {
  return ((const EVP_MD * (*)(void))snm_crypto()[snm_slot_EVP_sha256])();
}

static inline unsigned char *HMAC(const EVP_MD *a0, const void *a1, int a2, const unsigned char *a3, size_t a4, unsigned char *a5, unsigned int *a6) {
  return ((unsigned char * (*)(const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *, unsigned int *))snm_crypto()[snm_slot_HMAC])(a0, a1, a2, a3, a4, a5, a6);
}

static inline EVP_PKEY *PEM_read_bio_PUBKEY(BIO *a0, EVP_PKEY **a1, __typeof__(pem_password_cb (*)) a2, void *a3) {
  return ((EVP_PKEY * (*)(BIO *, EVP_PKEY **, pem_password_cb (*), void *))snm_crypto()[snm_slot_PEM_read_bio_PUBKEY])(a0, a1, a2, a3);
}

static inline EVP_PKEY *PEM_read_bio_PrivateKey(BIO *a0, EVP_PKEY **a1, __typeof__(pem_password_cb (*)) a2, void *a3) {
  return ((EVP_PKEY * (*)(BIO *, EVP_PKEY **, pem_password_cb (*), void *))snm_crypto()[snm_slot_PEM_read_bio_PrivateKey])(a0, a1, a2, a3);
}

static inline int PEM_write_bio_PrivateKey(BIO *a0, const EVP_PKEY *a1, const EVP_CIPHER *a2, const unsigned char *a3, int a4, __typeof__(pem_password_cb (*)) a5, void *a6) {
  return ((int (*)(BIO *, const EVP_PKEY *, const EVP_CIPHER *, const unsigned char *, int, pem_password_cb (*), void *))snm_crypto()[snm_slot_PEM_write_bio_PrivateKey])(a0, a1, a2, a3, a4, a5, a6);
}

static inline int RAND_bytes(unsigned char *a0, int a1) {
  return ((int (*)(unsigned char *, int))snm_crypto()[snm_slot_RAND_bytes])(a0, a1);
}

static inline unsigned char *SHA224(const unsigned char *a0, size_t a1, unsigned char *a2) {
  return ((unsigned char * (*)(const unsigned char *, size_t, unsigned char *))snm_crypto()[snm_slot_SHA224])(a0, a1, a2);
}

static inline unsigned char *SHA256(const unsigned char *a0, size_t a1, unsigned char *a2) {
  return ((unsigned char * (*)(const unsigned char *, size_t, unsigned char *))snm_crypto()[snm_slot_SHA256])(a0, a1, a2);
}

static inline int X509_VERIFY_PARAM_set1_ip_asc(X509_VERIFY_PARAM *a0, const char *a1) {
  return ((int (*)(X509_VERIFY_PARAM *, const char *))snm_crypto()[snm_slot_X509_VERIFY_PARAM_set1_ip_asc])(a0, a1);
}

static inline const char *X509_verify_cert_error_string(long int a0) {
  return ((const char * (*)(long int))snm_crypto()[snm_slot_X509_verify_cert_error_string])(a0);
}

static inline ECDSA_SIG *d2i_ECDSA_SIG(ECDSA_SIG **a0, const unsigned char **a1, long int a2) {
  return ((ECDSA_SIG * (*)(ECDSA_SIG **, const unsigned char **, long int))snm_crypto()[snm_slot_d2i_ECDSA_SIG])(a0, a1, a2);
}

static inline int i2d_ECDSA_SIG(const ECDSA_SIG *a0, unsigned char **a1) {
  return ((int (*)(const ECDSA_SIG *, unsigned char **))snm_crypto()[snm_slot_i2d_ECDSA_SIG])(a0, a1);
}


/// The functions snm calls, in the order of their slots in the table of those opened.
#define SNM_SSL_FUNCTIONS(F)                                                                    \
  F(SSL_CTX_ctrl) F(SSL_CTX_free) F(SSL_CTX_load_verify_locations) F(SSL_CTX_new)               \
  F(SSL_CTX_set_default_verify_paths) F(SSL_CTX_set_verify) F(SSL_ctrl) F(SSL_do_handshake)     \
  F(SSL_free) F(SSL_get0_param) F(SSL_get_error) F(SSL_get_rbio) F(SSL_get_verify_result)       \
  F(SSL_get_wbio) F(SSL_new) F(SSL_read) F(SSL_set1_host) F(SSL_set_alpn_protos) F(SSL_set_bio) \
  F(SSL_set_connect_state) F(SSL_write) F(TLS_client_method)

/// snm_libssl_load() and snm_ssl() (see SNM_LAZY_LIBRARY); a machine without libssl.so.3 is told to
/// install Debian's libssl3 (exit 3). libssl needs libcrypto: without it, that one is what is
/// missing.
SNM_LAZY_LIBRARY(ssl, SNM_SSL_FUNCTIONS, "libssl.so.3", "install Debian's libssl3", 3,
                 snm_libcrypto_load())

static inline long int SSL_CTX_ctrl(SSL_CTX *a0, int a1, long int a2, void *a3) {
  return ((long int (*)(SSL_CTX *, int, long int, void *))snm_ssl()[snm_slot_SSL_CTX_ctrl])(a0, a1, a2, a3);
}

static inline void SSL_CTX_free(SSL_CTX *a0) {
  ((void (*)(SSL_CTX *))snm_ssl()[snm_slot_SSL_CTX_free])(a0);
}

static inline int SSL_CTX_load_verify_locations(SSL_CTX *a0, const char *a1, const char *a2) {
  return ((int (*)(SSL_CTX *, const char *, const char *))snm_ssl()[snm_slot_SSL_CTX_load_verify_locations])(a0, a1, a2);
}

static inline SSL_CTX *SSL_CTX_new(const SSL_METHOD *a0) {
  return ((SSL_CTX * (*)(const SSL_METHOD *))snm_ssl()[snm_slot_SSL_CTX_new])(a0);
}

static inline int SSL_CTX_set_default_verify_paths(SSL_CTX *a0) {
  return ((int (*)(SSL_CTX *))snm_ssl()[snm_slot_SSL_CTX_set_default_verify_paths])(a0);
}

static inline void SSL_CTX_set_verify(SSL_CTX *a0, int a1, SSL_verify_cb a2) {
  ((void (*)(SSL_CTX *, int, SSL_verify_cb))snm_ssl()[snm_slot_SSL_CTX_set_verify])(a0, a1, a2);
}

static inline long int SSL_ctrl(SSL *a0, int a1, long int a2, void *a3) {
  return ((long int (*)(SSL *, int, long int, void *))snm_ssl()[snm_slot_SSL_ctrl])(a0, a1, a2, a3);
}

static inline int SSL_do_handshake(SSL *a0) {
  return ((int (*)(SSL *))snm_ssl()[snm_slot_SSL_do_handshake])(a0);
}

static inline void SSL_free(SSL *a0) {
  ((void (*)(SSL *))snm_ssl()[snm_slot_SSL_free])(a0);
}

static inline X509_VERIFY_PARAM *SSL_get0_param(SSL *a0) {
  return ((X509_VERIFY_PARAM * (*)(SSL *))snm_ssl()[snm_slot_SSL_get0_param])(a0);
}

static inline int SSL_get_error(const SSL *a0, int a1) {
  return ((int (*)(const SSL *, int))snm_ssl()[snm_slot_SSL_get_error])(a0, a1);
}

static inline BIO *SSL_get_rbio(const SSL *a0) {
  return ((BIO * (*)(const SSL *))snm_ssl()[snm_slot_SSL_get_rbio])(a0);
}

static inline long int SSL_get_verify_result(const SSL *a0) {
  return ((long int (*)(const SSL *))snm_ssl()[snm_slot_SSL_get_verify_result])(a0);
}

static inline BIO *SSL_get_wbio(const SSL *a0) {
  return ((BIO * (*)(const SSL *))snm_ssl()[snm_slot_SSL_get_wbio])(a0);
}

static inline SSL *SSL_new(SSL_CTX *a0) {
  return ((SSL * (*)(SSL_CTX *))snm_ssl()[snm_slot_SSL_new])(a0);
}

static inline int SSL_read(SSL *a0, void *a1, int a2) {
  return ((int (*)(SSL *, void *, int))snm_ssl()[snm_slot_SSL_read])(a0, a1, a2);
}

static inline int SSL_set1_host(SSL *a0, const char *a1) {
  return ((int (*)(SSL *, const char *))snm_ssl()[snm_slot_SSL_set1_host])(a0, a1);
}

static inline int SSL_set_alpn_protos(SSL *a0, const unsigned char *a1, unsigned int a2) {
  return ((int (*)(SSL *, const unsigned char *, unsigned int))snm_ssl()[snm_slot_SSL_set_alpn_protos])(a0, a1, a2);
}

static inline void SSL_set_bio(SSL *a0, BIO *a1, BIO *a2) {
  ((void (*)(SSL *, BIO *, BIO *))snm_ssl()[snm_slot_SSL_set_bio])(a0, a1, a2);
}

static inline void SSL_set_connect_state(SSL *a0) {
  ((void (*)(SSL *))snm_ssl()[snm_slot_SSL_set_connect_state])(a0);
}

static inline int SSL_write(SSL *a0, const void *a1, int a2) {
  return ((int (*)(SSL *, const void *, int))snm_ssl()[snm_slot_SSL_write])(a0, a1, a2);
}

static inline const SSL_METHOD *TLS_client_method(void) {
  return ((const SSL_METHOD * (*)(void))snm_ssl()[snm_slot_TLS_client_method])();
}

// Each forwarder has the header's prototype.
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_ctrl), __typeof__(snm_openssl_declared_BIO_ctrl)),
               "BIO_ctrl differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_ctrl_pending), __typeof__(snm_openssl_declared_BIO_ctrl_pending)),
               "BIO_ctrl_pending differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_free), __typeof__(snm_openssl_declared_BIO_free)),
               "BIO_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_new), __typeof__(snm_openssl_declared_BIO_new)),
               "BIO_new differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_new_mem_buf), __typeof__(snm_openssl_declared_BIO_new_mem_buf)),
               "BIO_new_mem_buf differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_read), __typeof__(snm_openssl_declared_BIO_read)),
               "BIO_read differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_s_mem), __typeof__(snm_openssl_declared_BIO_s_mem)),
               "BIO_s_mem differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BIO_write), __typeof__(snm_openssl_declared_BIO_write)),
               "BIO_write differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BN_bin2bn), __typeof__(snm_openssl_declared_BN_bin2bn)),
               "BN_bin2bn differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BN_bn2bin), __typeof__(snm_openssl_declared_BN_bn2bin)),
               "BN_bn2bin differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BN_bn2binpad), __typeof__(snm_openssl_declared_BN_bn2binpad)),
               "BN_bn2binpad differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BN_free), __typeof__(snm_openssl_declared_BN_free)),
               "BN_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(BN_num_bits), __typeof__(snm_openssl_declared_BN_num_bits)),
               "BN_num_bits differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ECDSA_SIG_free), __typeof__(snm_openssl_declared_ECDSA_SIG_free)),
               "ECDSA_SIG_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ECDSA_SIG_get0), __typeof__(snm_openssl_declared_ECDSA_SIG_get0)),
               "ECDSA_SIG_get0 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ECDSA_SIG_new), __typeof__(snm_openssl_declared_ECDSA_SIG_new)),
               "ECDSA_SIG_new differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ECDSA_SIG_set0), __typeof__(snm_openssl_declared_ECDSA_SIG_set0)),
               "ECDSA_SIG_set0 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ERR_clear_error), __typeof__(snm_openssl_declared_ERR_clear_error)),
               "ERR_clear_error differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ERR_error_string_n), __typeof__(snm_openssl_declared_ERR_error_string_n)),
               "ERR_error_string_n differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(ERR_get_error), __typeof__(snm_openssl_declared_ERR_get_error)),
               "ERR_get_error differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestFinal_ex), __typeof__(snm_openssl_declared_EVP_DigestFinal_ex)),
               "EVP_DigestFinal_ex differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestInit_ex), __typeof__(snm_openssl_declared_EVP_DigestInit_ex)),
               "EVP_DigestInit_ex differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestSign), __typeof__(snm_openssl_declared_EVP_DigestSign)),
               "EVP_DigestSign differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestSignInit), __typeof__(snm_openssl_declared_EVP_DigestSignInit)),
               "EVP_DigestSignInit differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestUpdate), __typeof__(snm_openssl_declared_EVP_DigestUpdate)),
               "EVP_DigestUpdate differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestVerify), __typeof__(snm_openssl_declared_EVP_DigestVerify)),
               "EVP_DigestVerify differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_DigestVerifyInit), __typeof__(snm_openssl_declared_EVP_DigestVerifyInit)),
               "EVP_DigestVerifyInit differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_MD_CTX_free), __typeof__(snm_openssl_declared_EVP_MD_CTX_free)),
               "EVP_MD_CTX_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_MD_CTX_new), __typeof__(snm_openssl_declared_EVP_MD_CTX_new)),
               "EVP_MD_CTX_new differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_CTX_free), __typeof__(snm_openssl_declared_EVP_PKEY_CTX_free)),
               "EVP_PKEY_CTX_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_CTX_new_id), __typeof__(snm_openssl_declared_EVP_PKEY_CTX_new_id)),
               "EVP_PKEY_CTX_new_id differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_CTX_set_ec_paramgen_curve_nid), __typeof__(snm_openssl_declared_EVP_PKEY_CTX_set_ec_paramgen_curve_nid)),
               "EVP_PKEY_CTX_set_ec_paramgen_curve_nid differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_CTX_set_rsa_keygen_bits), __typeof__(snm_openssl_declared_EVP_PKEY_CTX_set_rsa_keygen_bits)),
               "EVP_PKEY_CTX_set_rsa_keygen_bits differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_free), __typeof__(snm_openssl_declared_EVP_PKEY_free)),
               "EVP_PKEY_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_get_base_id), __typeof__(snm_openssl_declared_EVP_PKEY_get_base_id)),
               "EVP_PKEY_get_base_id differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_get_bits), __typeof__(snm_openssl_declared_EVP_PKEY_get_bits)),
               "EVP_PKEY_get_bits differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_get_bn_param), __typeof__(snm_openssl_declared_EVP_PKEY_get_bn_param)),
               "EVP_PKEY_get_bn_param differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_keygen), __typeof__(snm_openssl_declared_EVP_PKEY_keygen)),
               "EVP_PKEY_keygen differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_PKEY_keygen_init), __typeof__(snm_openssl_declared_EVP_PKEY_keygen_init)),
               "EVP_PKEY_keygen_init differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_md5), __typeof__(snm_openssl_declared_EVP_md5)),
               "EVP_md5 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_sha1), __typeof__(snm_openssl_declared_EVP_sha1)),
               "EVP_sha1 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(EVP_sha256), __typeof__(snm_openssl_declared_EVP_sha256)),
               "EVP_sha256 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(HMAC), __typeof__(snm_openssl_declared_HMAC)),
               "HMAC differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PEM_read_bio_PUBKEY), __typeof__(snm_openssl_declared_PEM_read_bio_PUBKEY)),
               "PEM_read_bio_PUBKEY differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PEM_read_bio_PrivateKey), __typeof__(snm_openssl_declared_PEM_read_bio_PrivateKey)),
               "PEM_read_bio_PrivateKey differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(PEM_write_bio_PrivateKey), __typeof__(snm_openssl_declared_PEM_write_bio_PrivateKey)),
               "PEM_write_bio_PrivateKey differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(RAND_bytes), __typeof__(snm_openssl_declared_RAND_bytes)),
               "RAND_bytes differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SHA224), __typeof__(snm_openssl_declared_SHA224)),
               "SHA224 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SHA256), __typeof__(snm_openssl_declared_SHA256)),
               "SHA256 differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(X509_VERIFY_PARAM_set1_ip_asc), __typeof__(snm_openssl_declared_X509_VERIFY_PARAM_set1_ip_asc)),
               "X509_VERIFY_PARAM_set1_ip_asc differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(X509_verify_cert_error_string), __typeof__(snm_openssl_declared_X509_verify_cert_error_string)),
               "X509_verify_cert_error_string differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(d2i_ECDSA_SIG), __typeof__(snm_openssl_declared_d2i_ECDSA_SIG)),
               "d2i_ECDSA_SIG differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(i2d_ECDSA_SIG), __typeof__(snm_openssl_declared_i2d_ECDSA_SIG)),
               "i2d_ECDSA_SIG differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_ctrl), __typeof__(snm_openssl_declared_SSL_CTX_ctrl)),
               "SSL_CTX_ctrl differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_free), __typeof__(snm_openssl_declared_SSL_CTX_free)),
               "SSL_CTX_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_load_verify_locations), __typeof__(snm_openssl_declared_SSL_CTX_load_verify_locations)),
               "SSL_CTX_load_verify_locations differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_new), __typeof__(snm_openssl_declared_SSL_CTX_new)),
               "SSL_CTX_new differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_set_default_verify_paths), __typeof__(snm_openssl_declared_SSL_CTX_set_default_verify_paths)),
               "SSL_CTX_set_default_verify_paths differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_CTX_set_verify), __typeof__(snm_openssl_declared_SSL_CTX_set_verify)),
               "SSL_CTX_set_verify differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_ctrl), __typeof__(snm_openssl_declared_SSL_ctrl)),
               "SSL_ctrl differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_do_handshake), __typeof__(snm_openssl_declared_SSL_do_handshake)),
               "SSL_do_handshake differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_free), __typeof__(snm_openssl_declared_SSL_free)),
               "SSL_free differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_get0_param), __typeof__(snm_openssl_declared_SSL_get0_param)),
               "SSL_get0_param differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_get_error), __typeof__(snm_openssl_declared_SSL_get_error)),
               "SSL_get_error differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_get_rbio), __typeof__(snm_openssl_declared_SSL_get_rbio)),
               "SSL_get_rbio differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_get_verify_result), __typeof__(snm_openssl_declared_SSL_get_verify_result)),
               "SSL_get_verify_result differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_get_wbio), __typeof__(snm_openssl_declared_SSL_get_wbio)),
               "SSL_get_wbio differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_new), __typeof__(snm_openssl_declared_SSL_new)),
               "SSL_new differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_read), __typeof__(snm_openssl_declared_SSL_read)),
               "SSL_read differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_set1_host), __typeof__(snm_openssl_declared_SSL_set1_host)),
               "SSL_set1_host differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_set_alpn_protos), __typeof__(snm_openssl_declared_SSL_set_alpn_protos)),
               "SSL_set_alpn_protos differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_set_bio), __typeof__(snm_openssl_declared_SSL_set_bio)),
               "SSL_set_bio differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_set_connect_state), __typeof__(snm_openssl_declared_SSL_set_connect_state)),
               "SSL_set_connect_state differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(SSL_write), __typeof__(snm_openssl_declared_SSL_write)),
               "SSL_write differs from the header's");
_Static_assert(__builtin_types_compatible_p(__typeof__(TLS_client_method), __typeof__(snm_openssl_declared_TLS_client_method)),
               "TLS_client_method differs from the header's");
#endif
