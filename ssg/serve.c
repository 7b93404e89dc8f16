#include "serve.h"

#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <microhttpd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

struct server {
	struct MHD_Daemon	*daemon;
	char			*root;
};

static const struct {
	const char *ext, *type;
} mime_types[] = {
	{ "html", "text/html; charset=utf-8" },
	{ "htm", "text/html; charset=utf-8" },
	{ "css", "text/css; charset=utf-8" },
	{ "js", "text/javascript; charset=utf-8" },
	{ "json", "application/json" },
	{ "xml", "application/xml; charset=utf-8" },
	{ "txt", "text/plain; charset=utf-8" },
	{ "md", "text/plain; charset=utf-8" },
	{ "svg", "image/svg+xml" },
	{ "png", "image/png" },
	{ "jpg", "image/jpeg" },
	{ "jpeg", "image/jpeg" },
	{ "gif", "image/gif" },
	{ "webp", "image/webp" },
	{ "avif", "image/avif" },
	{ "ico", "image/x-icon" },
	{ "woff2", "font/woff2" },
	{ "woff", "font/woff" },
	{ "pdf", "application/pdf" },
	{ "mp4", "video/mp4" },
	{ "webm", "video/webm" },
	{ "mp3", "audio/mpeg" },
	{ "gz", "application/gzip" },
};

const char *
mime_type(const char *path)
{
	const char *ext = path_ext(path);
	size_t i;

	for (i = 0; i < sizeof(mime_types) / sizeof(mime_types[0]); i++)
		if (strcasecmp(ext, mime_types[i].ext) == 0)
			return mime_types[i].type;
	return "application/octet-stream";
}

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

static enum MHD_Result
send_file(struct MHD_Connection *c, const char *path, unsigned int status)
{
	struct MHD_Response *r;
	struct stat st;
	enum MHD_Result ret;
	int fd;

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
	MHD_add_response_header(r, "Content-Type", mime_type(path));
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
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
	if (fs_is_file(path.ptr)) {
		ret = send_file(c, path.ptr, MHD_HTTP_OK);
		goto out;
	}
	nf = path_join(s->root, "404.html");
	ret = fs_is_file(nf) ? send_file(c, nf, MHD_HTTP_NOT_FOUND) :
	    send_text(c, MHD_HTTP_NOT_FOUND, "not found\n", NULL);
	free(nf);
out:
	buf_release(&path);
	buf_release(&loc);
	return ret;
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
	s = xcalloc(1, sizeof(*s));
	s->root = xstrdup(resolved);
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION,
	    (uint16_t)port, NULL, NULL, handle, s,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
	    MHD_OPTION_END);
	if (s->daemon == NULL) {
		diag_error(d, NULL, 0, "cannot listen on %s:%d (is the port "
		    "already in use?)", host, port);
		free(s->root);
		free(s);
		return NULL;
	}
	return s;
}

void
server_stop(struct server *s)
{
	if (s == NULL)
		return;
	MHD_stop_daemon(s->daemon);
	free(s->root);
	free(s);
}
