#ifndef SSG_SERVE_H
#define SSG_SERVE_H

struct diag;

/*
 * A small static file server for previewing a built site (libmicrohttpd):
 * index.html for folders, the site's 404.html for missing files, MIME types
 * by extension, no caching so edits show at once. Never serves a path
 * outside root.
 */
struct server;

/* Starts serving root on host:port in background threads. Returns NULL
 * after recording why (port in use, bad address) in d. */
struct server	*server_start(const char *root, const char *host, int port,
		    struct diag *d);
/* Stops and frees; NULL does nothing. */
void		 server_stop(struct server *s);
/* The MIME type for a file name, by extension. */
const char	*mime_type(const char *path);

#endif
