#ifndef SNM_CCRYPTO_TLS_H
#define SNM_CCRYPTO_TLS_H
#include "forwarders.h"

// A client TLS session over two memory BIOs (the caller moves the bytes over its own socket), for
// wss://. The macros Swift cannot call are wrapped here.

/// A client session for `host` (`isAddress`: an IPv4 or IPv6 literal): TLS 1.2 or later, the
/// peer's certificate verified against `caFile` (NULL: the system's store), its name (or address)
/// checked, SNI for a name, ALPN http/1.1 (the upgrade is HTTP/1.1). NULL with `error` filled
/// (`badCAFile` set when `caFile` could not be read).
static inline SSL *snm_tls_client_new(const char *host, int isAddress, const char *caFile,
                                      char *error, size_t errorSize, int *badCAFile) {
  static const unsigned char alpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  *badCAFile = 0;
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == NULL) {
    snprintf(error, errorSize, "cannot make a TLS context");
    return NULL;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
  int loaded = caFile != NULL ? SSL_CTX_load_verify_locations(ctx, caFile, NULL)
                              : SSL_CTX_set_default_verify_paths(ctx);
  if (loaded != 1) {
    ERR_error_string_n(ERR_get_error(), error, errorSize);
    *badCAFile = caFile != NULL;
    SSL_CTX_free(ctx);
    return NULL;
  }
  SSL *ssl = SSL_new(ctx);
  SSL_CTX_free(ctx);  // the session keeps its own reference
  if (ssl == NULL) {
    snprintf(error, errorSize, "cannot make a TLS session");
    return NULL;
  }
  int named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
                        : (SSL_set1_host(ssl, host) == 1 && SSL_set_tlsext_host_name(ssl, host) == 1);
  BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem());
  if (named != 1 || in == NULL || out == NULL || SSL_set_alpn_protos(ssl, alpn, sizeof alpn) != 0) {
    snprintf(error, errorSize, "cannot set up TLS for '%s'", host);
    BIO_free(in);
    BIO_free(out);
    SSL_free(ssl);
    return NULL;
  }
  BIO_set_mem_eof_return(in, -1);  // no bytes yet is "want read", not the end
  SSL_set_bio(ssl, in, out);
  SSL_set_connect_state(ssl);
  return ssl;
}

/// Bytes waiting in `ssl`'s outgoing BIO.
static inline size_t snm_tls_pending_out(SSL *ssl) { return BIO_ctrl_pending(SSL_get_wbio(ssl)); }

/// Moves up to `capacity` outgoing bytes into `buffer`; the count.
static inline int snm_tls_take_out(SSL *ssl, unsigned char *buffer, int capacity) {
  int count = BIO_read(SSL_get_wbio(ssl), buffer, capacity);
  return count > 0 ? count : 0;
}

/// Hands `count` bytes read from the socket to `ssl`. 1 on success.
static inline int snm_tls_put_in(SSL *ssl, const unsigned char *bytes, int count) {
  return BIO_write(SSL_get_rbio(ssl), bytes, count) == count ? 1 : 0;
}

/// Why the handshake failed: the certificate check's verdict (`*certificate` 1 for a name or
/// address mismatch, 2 for any other), else OpenSSL's first queued error.
static inline void snm_tls_failure(SSL *ssl, char *error, size_t errorSize, int *certificate) {
  long verdict = SSL_get_verify_result(ssl);
  *certificate = 0;
  if (verdict != X509_V_OK) {
    *certificate = (verdict == X509_V_ERR_HOSTNAME_MISMATCH ||
                    verdict == X509_V_ERR_IP_ADDRESS_MISMATCH) ? 1 : 2;
    snprintf(error, errorSize, "%s", X509_verify_cert_error_string(verdict));
    return;
  }
  unsigned long code = ERR_get_error();
  if (code == 0) {
    snprintf(error, errorSize, "the server ended the handshake");
  } else {
    ERR_error_string_n(code, error, errorSize);
  }
}
#endif
