/* A Gemini request over OpenSSL (see gemini.h). */

#include "gemini.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netdb.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "mem.h"

#define GEMINI_MAX_BODY	(1024 * 1024)
#define GEMINI_MAX_URL	1024

void
gemini_reply_init(struct gemini_reply *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->meta);
	buf_init(&r->body);
}

void
gemini_reply_release(struct gemini_reply *r)
{
	buf_release(&r->meta);
	buf_release(&r->body);
}

static int
dial(const char *addr, int port, long timeout, struct buf *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct timeval tv = { timeout > 0 ? timeout : 10, 0 };
	char serv[16];
	int fd = -1, e, saved = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	xsnprintf(serv, sizeof(serv), "%d", port);
	if ((e = getaddrinfo(addr, serv, &hints, &res)) != 0) {
		buf_printf(err, "%s: %s", addr, gai_strerror(e));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, SOCK_STREAM, 0)) == -1) {
			saved = errno;
			continue;
		}
		/* On Linux and FreeBSD the send timeout bounds connect too. */
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		buf_printf(err, "connect %s port %d: %s", addr, port,
		    strerror(saved));
	return fd;
}

static void
tls_error(struct buf *err, const char *what)
{
	unsigned long e = ERR_get_error();
	char msg[256];

	if (e != 0) {
		ERR_error_string_n(e, msg, sizeof(msg));
		buf_printf(err, "%s: %s", what, msg);
	} else
		buf_printf(err, "%s failed", what);
	ERR_clear_error();
}

static void
fingerprint(SSL *ssl, char out[65])
{
	X509 *cert = SSL_get1_peer_certificate(ssl);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	out[0] = '\0';
	if (cert == NULL)
		return;
	if (X509_digest(cert, EVP_sha256(), md, &n) == 1 && n == 32)
		for (i = 0; i < n; i++)
			xsnprintf(out + 2 * i, 3, "%02x", md[i]);
	X509_free(cert);
}

/* "NN META\r\n" at the start of all; the body follows. 0 or -1. */
static int
split_header(struct buf *all, struct gemini_reply *r, struct buf *err)
{
	char *eol = memchr(all->ptr, '\n', all->len);
	size_t hlen;

	if (eol == NULL || eol - all->ptr > GEMINI_MAX_URL + 3 ||
	    all->len < 3 || all->ptr[0] < '1' || all->ptr[0] > '6' ||
	    all->ptr[1] < '0' || all->ptr[1] > '9' ||
	    (all->ptr[2] != ' ' && all->ptr[2] != '\r')) {
		buf_adds(err, "the answer has no Gemini header line");
		return -1;
	}
	r->status = (all->ptr[0] - '0') * 10 + (all->ptr[1] - '0');
	hlen = (size_t)(eol - all->ptr);
	if (hlen > 0 && all->ptr[hlen - 1] == '\r')
		hlen--;
	if (hlen > 3)
		buf_add(&r->meta, all->ptr + 3, hlen - 3);
	buf_add(&r->body, eol + 1, all->len - (size_t)(eol + 1 - all->ptr));
	return 0;
}

int
gemini_fetch(const char *addr, int port, const char *host, const char *url,
    long timeout, struct gemini_reply *r, struct buf *err)
{
	SSL_CTX *ctx = NULL;
	SSL *ssl = NULL;
	struct buf req = BUF_INIT, all = BUF_INIT;
	char chunk[16384];
	int fd = -1, n, rc = -1;

	if (strlen(url) > GEMINI_MAX_URL) {
		buf_adds(err, "URL longer than 1024 bytes");
		return -1;
	}
	if ((fd = dial(addr, port, timeout, err)) == -1)
		return -1;
	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL ||
	    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1 ||
	    (ssl = SSL_new(ctx)) == NULL) {
		tls_error(err, "TLS setup");
		goto out;
	}
	/* trust on first use: the caller compares the fingerprint */
	SSL_set_verify(ssl, SSL_VERIFY_NONE, NULL);
	if (SSL_set_tlsext_host_name(ssl, host) != 1 ||
	    SSL_set_fd(ssl, fd) != 1) {
		tls_error(err, "TLS setup");
		goto out;
	}
	if (SSL_connect(ssl) != 1) {
		tls_error(err, "TLS handshake");
		goto out;
	}
	fingerprint(ssl, r->fingerprint);
	buf_printf(&req, "%s\r\n", url);
	if (SSL_write(ssl, req.ptr, (int)req.len) != (int)req.len) {
		tls_error(err, "sending the request");
		goto out;
	}
	while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
		if (all.len < GEMINI_MAX_BODY)
			buf_add(&all, chunk, (size_t)n);
	/* Gemini ends an answer by closing; some servers skip the TLS
	 * close_notify, so what arrived counts. */
	ERR_clear_error();
	if (all.len == 0) {
		buf_printf(err, "%s: no answer", url);
		goto out;
	}
	if (split_header(&all, r, err) == -1)
		goto out;
	rc = 0;
out:
	if (ssl != NULL) {
		SSL_shutdown(ssl);
		SSL_free(ssl);
	}
	SSL_CTX_free(ctx);
	if (fd != -1)
		close(fd);
	buf_release(&req);
	buf_release(&all);
	return rc;
}
