#ifndef DEPLOY_CONFGEN_H
#define DEPLOY_CONFGEN_H

#include "buf.h"
#include "spec.h"

/*
 * Configuration files for the jails, generated from the spec. The text
 * is appended to out; nothing touches the disk. Paths are as the server
 * inside the jail sees them, so each driver passes its own.
 */
struct confgen_paths {
	const char	*state;		/* writable: pid file, logs/, tmp/ */
	const char	*root;		/* folder holding current -> releases/ID */
	const char	*mime_types;	/* nginx mime.types */
	const char	*admin;		/* Caddy admin unix socket */
	const char	*data;		/* Caddy storage: certificates, its CA */
	const char	*acme;		/* nginx with tls acme: the ACME folder
					 * (acme.h) as the proxy sees it */
	const char	*brotli_static;	/* nginx's brotli_static module, NULL
					 * where there is none (gzip only) */
	/* A site's nginx: its Unix socket, in a folder of its own that the
	 * proxy sees too. The proxy: the folder holding one such folder
	 * per site, as it sees it (SOCKS/SITE/CONFGEN_SOCK). NULL, or
	 * proxy.upstream tcp: the proxy reaches the sites over TCP. */
	const char	*sock;
	const char	*socks;
};

/* A site's socket under its folder in p->socks: the folder sock/ is
 * what the site's jail may write, and holds nothing else. */
#define CONFGEN_SOCK_DIR	"sock"
#define CONFGEN_SOCK	CONFGEN_SOCK_DIR "/nginx.sock"

/* On linux-netns: Debian's package libnginx-mod-http-brotli-static */
#define CONFGEN_BROTLI_LINUX \
	"/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"

/*
 * nginx for one site jail: listens on the site's address port 80 (and on
 * p->sock, when set, for the proxy), serves
 * root/current, answers /.well-known/release with the release id and sets
 * X-Release on every response. Precompressed .br (where the module is)
 * and .gz files are served as they are; pages are revalidated on every
 * visit (no-cache, with nginx's ETag), and a file whose URL changes with
 * its content (?v=, or a name with a hash) is kept a year. Returns 0.
 */
int	confgen_site_nginx(struct buf *out, const struct spec *s,
	    const struct spec_site *site, const struct confgen_paths *p);

/*
 * Where a release keeps the site's Gemini capsule: a folder of the release
 * beside the HTML, which nginx does not serve and the Gemini server does.
 */
/* Listen backlog of every server deploy starts, and the somaxconn it sets
 * where it can (each jail's namespace on Linux, kern.ipc.somaxconn on
 * FreeBSD): room for a burst of 10,000 readers. */
#define CONFGEN_BACKLOG	4096
/* nginx: connections per worker (a proxied reader holds two) and the open
 * files that takes. */
#define CONFGEN_WORKER_CONNECTIONS	16384
#define CONFGEN_NOFILE	(2 * CONFGEN_WORKER_CONNECTIONS + 64)
#define CONFGEN_CAPSULE	".capsule"	/* = RELEASE_CAPSULE (release.h) */

/*
 * molly-brown (TOML) for the Gemini jail of site: port 1965, the
 * certificate in state/tls, the capsule of root/current. Returns 0.
 */
int	confgen_molly(struct buf *out, const struct spec *s,
	    const struct spec_site *site, const struct confgen_paths *p);

/*
 * gmid for the Gemini jail on FreeBSD: the same server as confgen_molly,
 * run chrooted by gmid itself as user. Returns 0.
 */
int	confgen_gmid(struct buf *out, const struct spec *s,
	    const struct spec_site *site, const struct confgen_paths *p);

/* Caddyfile of the proxy jail (proxy.kind caddy). Returns 0. */
int	confgen_caddy(struct buf *out, const struct spec *s,
	    const struct confgen_paths *p);

/* nginx of the proxy jail (proxy.kind nginx). Returns 0. */
int	confgen_proxy_nginx(struct buf *out, const struct spec *s,
	    const struct confgen_paths *p);

/* Appends s as one nginx string literal ("..."; '$' cannot be escaped in
 * nginx, so it becomes ${dollar}, which the generated configs define). */
void	confgen_nginx_quote(struct buf *out, const char *s);

/* What the sites' nginx on the host of s serves a push's precompressed
 * files with, as a line for `deploy check`, appended to out. */
struct spec;
void	confgen_compression_note(const struct spec *s, struct buf *out);

#endif
