#ifndef SSG_SERVE_H
#define SSG_SERVE_H

struct diag;

/*
 * A small static file server for previewing a built site (libmicrohttpd):
 * index.html for folders, the site's 404.html for missing files, MIME types
 * by extension, no caching (Cache-Control: no-cache) so edits show at once. Never serves a path
 * outside root.
 */
struct server;

/* Starts serving root on host:port in background threads. Returns NULL
 * after recording why (port in use, bad address) in d. */
struct server	*server_start(const char *root, const char *host, int port,
		    struct diag *d);
/*
 * Live reload, off by default: HTML responses get a script (added as they
 * are sent; the files are not changed) that listens on /__ssg/events, a
 * server-sent events stream that says "reload" after each server_notify.
 */
void		 server_set_live(struct server *s, int on);
/* A build finished: error NULL when it went well, else its problems
 * (copied), shown over every page until a build goes well. Wakes the
 * event streams. Thread-safe. */
void		 server_notify(struct server *s, const char *error);
/* Stops and frees; NULL does nothing. Ends open event streams. */
void		 server_stop(struct server *s);

#endif
