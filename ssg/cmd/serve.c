#include "mime.h"
#include "serve.h"

#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "mem.h"
#include "lazy_mhd.h"

#define EVENTS_URL	"/__ssg/events"
#define PING_SECONDS	15

struct server {
	struct MHD_Daemon	*daemon;
	char			*root;
	int			 live;		/* reload script + events */
	pthread_mutex_t		 lock;
	pthread_cond_t		 changed;
	unsigned long		 generation;	/* builds so far */
	char			*error;		/* last build's problems */
	int			 stopping;
};

/* One open events stream. */
struct stream {
	struct server	*s;
	unsigned long	 seen;
	int		 greeted;
};

/*
 * What HTML gets while serving (never the files on disk): a script that
 * reloads the page when a build finishes, and the problems of a failed
 * build over the last good page.
 */
static const char reload_script[] =
    "<script>(function(){if(!window.EventSource)return;"
    "var es=new EventSource(\"" EVENTS_URL "\");"
    "es.addEventListener(\"reload\",function(){location.reload();});"
    "})();</script>\n";

/* 1 if url is a clean absolute path: no "..", no NUL, no backslash. */
static int
url_is_clean(const char *url)
{
	const char *p;

	if (url[0] != '/' || strchr(url, '\\') != NULL)
		return 0;
	for (p = url; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == url || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
			return 0;
	return 1;
}

/* The banner that shows a failed build's problems. */
static void
error_banner(struct buf *out, const char *error)
{
	buf_adds(out, "<div id=\"ssg-build-error\" role=\"alert\" style=\""
	    "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;"
	    "max-height:50vh;overflow:auto;margin:0;padding:1em;"
	    "background:#5c0000;color:#fff;font:14px/1.4 monospace;"
	    "border-top:4px solid #f44\"><strong>ssg: the build failed; "
	    "showing the last good pages.</strong><pre style=\"white-space:"
	    "pre-wrap;margin:.5em 0 0\">");
	esc_html(out, error, strlen(error));
	buf_adds(out, "</pre></div>\n");
}

/* The live parts of a page: the failed build's banner, if any, and the
 * reload script. */
static void
live_parts(struct server *s, struct buf *out)
{
	pthread_mutex_lock(&s->lock);
	if (s->error != NULL)
		error_banner(out, s->error);
	pthread_mutex_unlock(&s->lock);
	buf_adds(out, reload_script);
}

/* Queues r, never to be cached, and drops this reference to it. */
static enum MHD_Result
queue(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r,
    const char *type, int nosniff)
{
	enum MHD_Result ret;

	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	if (nosniff)
		MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Sends a page made in memory; takes page's text over. */
static enum MHD_Result
send_page(struct MHD_Connection *c, unsigned int status, struct buf *page,
    const char *type, int nosniff)
{
	struct MHD_Response *r;
	size_t len = page->len;
	char *text = buf_detach(page, NULL);

	r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(text);
		return MHD_NO;
	}
	return queue(c, status, r, type, nosniff);
}

/* The page with the script (and banner) before its last </body>. */
static enum MHD_Result
send_live_html(struct server *s, struct MHD_Connection *c, const char *path,
    unsigned int status)
{
	struct buf page = BUF_INIT, out = BUF_INIT;
	const char *p, *at = NULL;
	size_t len;

	if (fs_read(path, &page) == -1)
		return MHD_NO;
	for (p = page.ptr; (p = strchr(p, '<')) != NULL; p++)
		if (strncasecmp(p, "</body", 6) == 0)
			at = p;
	len = at ? (size_t)(at - page.ptr) : page.len;
	buf_add(&out, page.ptr, len);
	live_parts(s, &out);
	buf_add(&out, page.ptr + len, page.len - len);
	buf_release(&page);
	return send_page(c, status, &out, mime_type(path), 1);
}

/* No page to show (nothing built yet): the build's problems alone, and
 * the script, so that the page comes once a build works. */
static enum MHD_Result
send_bare_page(struct server *s, struct MHD_Connection *c, unsigned int status)
{
	struct buf page = BUF_INIT;

	buf_adds(&page, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>Not found</title></head><body><h1>Not found</h1>\n");
	live_parts(s, &page);
	buf_adds(&page, "</body></html>\n");
	return send_page(c, status, &page, "text/html; charset=utf-8", 0);
}

/* Streams "reload" events; a comment now and then keeps it open. */
static ssize_t
events_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct stream *st = cls;
	struct server *s = st->s;
	struct timespec until;
	unsigned long gen;
	int n, stopping, timedout = 0;

	(void)pos;
	if (!st->greeted) {
		st->greeted = 1;
		n = snprintf(out, max, "retry: 1000\n: ssg live reload\n\n");
		return n > 0 && (size_t)n < max ? n : 0;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += PING_SECONDS;
	pthread_mutex_lock(&s->lock);
	while (!s->stopping && s->generation == st->seen && !timedout)
		timedout = pthread_cond_timedwait(&s->changed, &s->lock,
		    &until) == ETIMEDOUT;
	gen = s->generation;
	stopping = s->stopping;
	pthread_mutex_unlock(&s->lock);
	if (stopping)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (gen == st->seen)
		n = snprintf(out, max, ": ping\n\n");
	else {
		st->seen = gen;
		n = snprintf(out, max, "event: reload\ndata: %lu\n\n", gen);
	}
	return n > 0 && (size_t)n < max ? n : MHD_CONTENT_READER_END_WITH_ERROR;
}

static enum MHD_Result
send_events(struct server *s, struct MHD_Connection *c)
{
	struct MHD_Response *r;
	struct stream *st = xcalloc(1, sizeof(*st));

	st->s = s;
	pthread_mutex_lock(&s->lock);
	st->seen = s->generation;
	pthread_mutex_unlock(&s->lock);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024,
	    events_read, st, free);
	if (r == NULL) {
		free(st);
		return MHD_NO;
	}
	return queue(c, MHD_HTTP_OK, r, "text/event-stream", 0);
}

static enum MHD_Result
send_file(struct server *s, struct MHD_Connection *c, const char *path,
    unsigned int status)
{
	struct MHD_Response *r;
	struct stat st;
	int fd;

	if (s->live && strncmp(mime_type(path), "text/html", 9) == 0)
		return send_live_html(s, c, path, status);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return MHD_NO;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return MHD_NO;
	}
	r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
	if (r == NULL) {
		close(fd);
		return MHD_NO;
	}
	return queue(c, status, r, mime_type(path), 1);
}

static enum MHD_Result
send_text(struct MHD_Connection *c, unsigned int status, const char *text,
    const char *location)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
	    MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (location)
		MHD_add_response_header(r, "Location", location);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	struct buf path = BUF_INIT, loc = BUF_INIT;
	struct stat st;
	enum MHD_Result ret;
	char *nf;

	(void)version;
	(void)upload_data;
	(void)upload_size;
	(void)con_cls;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "method not allowed\n", NULL);
	if (!url_is_clean(url))
		return send_text(c, MHD_HTTP_BAD_REQUEST, "bad path\n", NULL);
	if (s->live && strcmp(url, EVENTS_URL) == 0)
		return send_events(s, c);
	buf_adds(&path, s->root);
	buf_adds(&path, url);
	if (stat(path.ptr, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (url[strlen(url) - 1] != '/') {
			buf_printf(&loc, "%s/", url);
			ret = send_text(c, MHD_HTTP_MOVED_PERMANENTLY,
			    "moved\n", loc.ptr);
			goto out;
		}
		buf_adds(&path, "index.html");
	}
	/* a link in the output that leads out of it is not followed */
	if (fs_is_file(path.ptr) && fs_within(s->root, path.ptr, NULL) == 1) {
		ret = send_file(s, c, path.ptr, MHD_HTTP_OK);
		goto out;
	}
	nf = path_join(s->root, "404.html");
	if (fs_is_file(nf))
		ret = send_file(s, c, nf, MHD_HTTP_NOT_FOUND);
	else if (s->live)
		ret = send_bare_page(s, c, MHD_HTTP_NOT_FOUND);
	else
		ret = send_text(c, MHD_HTTP_NOT_FOUND, "not found\n", NULL);
	free(nf);
out:
	buf_release(&path);
	buf_release(&loc);
	return ret;
}

/* 1 if something already listens on the address (MHD does not say why
 * it could not start, and this is the usual reason). */
static int
port_taken(const struct sockaddr_in *sin)
{
	int fd, one = 1, taken;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	taken = bind(fd, (const struct sockaddr *)sin, sizeof(*sin)) == -1 &&
	    errno == EADDRINUSE;
	close(fd);
	return taken;
}

struct server *
server_start(const char *root, const char *host, int port, struct diag *d)
{
	struct server *s;
	struct sockaddr_in sin;
	char resolved[4096];

	if (port < 1 || port > 65535) {
		diag_error(d, NULL, 0, "port %d is not from 1 to 65535", port);
		return NULL;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	if (strcmp(host, "localhost") == 0)
		host = "127.0.0.1";
	if (inet_pton(AF_INET, host, &sin.sin_addr) != 1) {
		diag_error(d, NULL, 0, "'%s' is not an IPv4 address", host);
		return NULL;
	}
	if (realpath(root, resolved) == NULL) {
		diag_error(d, root, 0, "cannot serve: %s", strerror(errno));
		return NULL;
	}
	if (lazy_mhd_load(d) == -1)
		return NULL;
	if (port_taken(&sin)) {
		diag_error(d, NULL, 0, "cannot listen on %s:%d: the port is "
		    "already in use (choose another with --port)", host, port);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->root = xstrdup(resolved);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION,
	    (uint16_t)port, NULL, NULL, handle, s,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
	    MHD_OPTION_END);
	if (s->daemon == NULL) {
		diag_error(d, NULL, 0, "cannot listen on %s:%d (is the port "
		    "already in use?)", host, port);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->changed);
		free(s->root);
		free(s);
		return NULL;
	}
	return s;
}

void
server_set_live(struct server *s, int on)
{
	s->live = on;
}

void
server_notify(struct server *s, const char *error)
{
	pthread_mutex_lock(&s->lock);
	free(s->error);
	s->error = error ? xstrdup(error) : NULL;
	s->generation++;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

void
server_stop(struct server *s)
{
	if (s == NULL)
		return;
	/* end the event streams, or their threads would hold the stop */
	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	MHD_stop_daemon(s->daemon);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->changed);
	free(s->error);
	free(s->root);
	free(s);
}
