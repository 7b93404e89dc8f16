/* FreeBSD host commands: built as argument arrays, printed as POSIX sh,
 * run over ssh (or answered from recorded outputs). */

#include "freebsd.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "mem.h"
#include "process.h"
#include "transport.h"

#define HEREDOC_END	"DEPLOY_EOF"

/* ---- commands ---- */

static char **
words_v(const char *w0, va_list ap)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	const char *w;

	for (w = w0; w != NULL; w = va_arg(ap, const char *)) {
		xgrow((void **)&v, &cap, n + 2, sizeof(*v));
		v[n++] = xstrdup(w);
	}
	xgrow((void **)&v, &cap, n + 1, sizeof(*v));
	v[n] = NULL;
	return v;
}

static void
words_free(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static struct fb_cmd *
cmd_new(struct fb_script *sc)
{
	struct fb_cmd *c;

	xgrow((void **)&sc->v, &sc->cap, sc->n + 1, sizeof(*sc->v));
	c = &sc->v[sc->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

void
fb_cmd(struct fb_script *sc, const char *w0, ...)
{
	struct fb_cmd *c = cmd_new(sc);
	va_list ap;

	va_start(ap, w0);
	c->argv = words_v(w0, ap);
	va_end(ap);
}

void
fb_cmd_input(struct fb_script *sc, const char *input, const char *w0, ...)
{
	struct fb_cmd *c = cmd_new(sc);
	va_list ap;

	va_start(ap, w0);
	c->argv = words_v(w0, ap);
	va_end(ap);
	c->input = xstrdup(input);
}

void
fb_guard(struct fb_script *sc, const char *w0, ...)
{
	struct fb_cmd *c = &sc->v[sc->n - 1];
	va_list ap;

	va_start(ap, w0);
	words_free(c->guard);
	c->guard = words_v(w0, ap);
	va_end(ap);
}

void
fb_may_fail(struct fb_script *sc)
{
	sc->v[sc->n - 1].may_fail = 1;
}

void
fb_script_release(struct fb_script *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		words_free(sc->v[i].argv);
		words_free(sc->v[i].guard);
		free(sc->v[i].input);
		free(sc->v[i].out_file);
	}
	free(sc->v);
	memset(sc, 0, sizeof(*sc));
}

/* Quotes a word only when sh would read it otherwise: easier to review. */
static void
word(struct buf *out, const char *w)
{
	const char *p;

	for (p = w; *p != '\0'; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_./:=,+@%-", *p) == NULL)
			break;
	if (*w != '\0' && *p == '\0' && *w != '=')
		buf_adds(out, w);
	else
		esc_shell(out, w, strlen(w));
}

static void
words_line(char *const *v, struct buf *out)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++) {
		if (i > 0)
			buf_addc(out, ' ');
		word(out, v[i]);
	}
}

static void
cmd_line(const struct fb_cmd *c, struct buf *out, int heredoc)
{
	if (c->guard != NULL) {
		words_line(c->guard, out);
		/* test(1) says nothing; other guards are only asked. */
		buf_adds(out, strcmp(c->guard[0], "test") == 0 ? " || " :
		    " >/dev/null 2>&1 || ");
	}
	words_line(c->argv, out);
	if (c->out_file != NULL) {
		buf_adds(out, " > ");
		word(out, c->out_file);
	}
	if (heredoc && c->input != NULL)
		buf_adds(out, " <<'" HEREDOC_END "'");
	if (c->may_fail)
		buf_adds(out, " || true");
}

void
fb_cmd_line(const struct fb_cmd *c, struct buf *out)
{
	cmd_line(c, out, 0);
}

static int
input_ok(const char *in, struct diag *d)
{
	size_t n = strlen(in);
	const char *p;

	if (n == 0 || in[n - 1] != '\n') {
		diag_error(d, NULL, 0, "file text does not end with a newline");
		return -1;
	}
	for (p = in; p != NULL && *p != '\0'; p = strchr(p, '\n') ?
	    strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, HEREDOC_END, strlen(HEREDOC_END)) == 0 &&
		    (p[strlen(HEREDOC_END)] == '\n')) {
			diag_error(d, NULL, 0, "file text holds the line "
			    HEREDOC_END);
			return -1;
		}
	return 0;
}

int
fb_script_sh(const struct fb_script *sc, struct buf *out, struct diag *d)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		const struct fb_cmd *c = &sc->v[i];

		if (c->input != NULL && input_ok(c->input, d) == -1)
			return -1;
		cmd_line(c, out, 1);
		if (c->input != NULL)
			buf_printf(out, "\n%s%s", c->input, HEREDOC_END);
		buf_addc(out, '\n');
	}
	return 0;
}

/* ---- running on the host ---- */

struct fb_host {
	const struct spec *spec;
	char		*replay;
	struct buf	 journal;
};

struct fb_host *
fb_host_new(const struct spec *s)
{
	struct fb_host *h = xcalloc(1, sizeof(*h));

	h->spec = s;
	buf_init(&h->journal);
	return h;
}

void
fb_host_replay(struct fb_host *h, const char *dir)
{
	free(h->replay);
	h->replay = xstrdup(dir);
}

const char *
fb_host_journal(const struct fb_host *h)
{
	return h->journal.ptr;
}

void
fb_host_free(struct fb_host *h)
{
	if (h == NULL)
		return;
	free(h->replay);
	buf_release(&h->journal);
	free(h);
}

void
fb_replay_key(char *const argv[], struct buf *out)
{
	const char *p;
	size_t i;

	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			buf_addc(out, '_');
		for (p = argv[i]; *p != '\0'; p++)
			buf_addc(out, strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-", *p) ?
			    *p : '_');
	}
}

static int
replay_run(struct fb_host *h, const struct fb_cmd *c, struct buf *out)
{
	struct buf path = BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *fp;

	buf_printf(&path, "%s/", h->replay);
	fb_replay_key(c->argv, &path);
	fp = fopen(path.ptr, "r");
	buf_release(&path);
	if (fp == NULL)
		return 1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(out, chunk, n);
	fclose(fp);
	return 0;
}

/* argv for one line: here, sh -c; on an ssh host, through the OpenSSH
 * client as every other ssh command of deploy (transport.h). */
static char **
host_argv(const struct spec *s, const char *line)
{
	static const char *const sh[] = { "/bin/sh", "-c" };
	char **v;

	if (s->host != HOST_LOCAL)
		return transport_ssh_argv(s->host_str, s->ssh_known_hosts,
		    s->ssh_identity, line, NULL);
	v = xcalloc(4, sizeof(*v));
	v[0] = xstrdup(sh[0]);
	v[1] = xstrdup(sh[1]);
	v[2] = xstrdup(line);
	return v;
}

/*
 * Runs argv with input on stdin; stdout into out, stderr into err (kept
 * apart: a warning from ssh must not read as a config file's text).
 */
static int
spawn(char **argv, const char *input, struct buf *out, struct buf *err)
{
	struct process_opts o;

	memset(&o, 0, sizeof(o));
	o.input = input;
	o.inlen = input != NULL ? strlen(input) : 0;
	o.out = out;
	o.err = err;
	return process_run(argv, &o, NULL);
}

/* The exit status; stderr into err when not NULL. */
static int
host_run(struct fb_host *h, const struct fb_cmd *c, struct buf *out,
    struct buf *err, struct diag *d)
{
	struct buf line = BUF_INIT, e = BUF_INIT;
	char **argv;
	int rc;

	buf_clear(out);
	if (h->replay != NULL)
		return replay_run(h, c, out);
	fb_cmd_line(c, &line);
	argv = host_argv(h->spec, line.ptr);
	rc = argv != NULL ? spawn(argv, c->input, out, &e) : -1;
	while (e.len > 0 && e.ptr[e.len - 1] == '\n')
		buf_truncate(&e, e.len - 1);
	/* 127: no such program here, or no ssh; 255: ssh itself failed. */
	if (rc == -1 || rc == 127 || (rc == 255 && h->spec->host == HOST_SSH))
		diag_error(d, NULL, 0, "%s: could not run%s%s", line.ptr,
		    e.len ? ": " : "", e.ptr);
	if (err != NULL)
		buf_add(err, e.ptr, e.len);
	transport_argv_free(argv);
	buf_release(&line);
	buf_release(&e);
	return rc == 127 || (rc == 255 && h->spec->host == HOST_SSH) ? -1 : rc;
}

int
fb_host_run(struct fb_host *h, const struct fb_cmd *c, struct buf *out,
    struct diag *d)
{
	return host_run(h, c, out, NULL, d);
}

int
fb_host_exec(struct fb_host *h, const struct fb_script *sc, struct diag *d)
{
	struct buf out = BUF_INIT, err = BUF_INIT, line = BUF_INIT;
	size_t i;
	int rc = 0;

	if (h->replay != NULL)
		return fb_script_sh(sc, &h->journal, d);
	for (i = 0; i < sc->n && rc == 0; i++) {
		buf_clear(&err);
		rc = host_run(h, &sc->v[i], &out, &err, d);
		if (rc == 0 || rc == -1)
			continue;
		buf_clear(&line);
		fb_cmd_line(&sc->v[i], &line);
		/* What the command said, on stderr or else on stdout. */
		if (err.len == 0) {
			buf_add(&err, out.ptr, out.len);
			while (err.len > 0 && err.ptr[err.len - 1] == '\n')
				buf_truncate(&err, err.len - 1);
		}
		diag_error(d, NULL, 0, "%s: exit %d%s%s", line.ptr, rc,
		    err.len ? ": " : "", err.ptr);
		rc = -1;
	}
	buf_release(&out);
	buf_release(&err);
	buf_release(&line);
	return rc == 0 ? 0 : -1;
}

/* Runs one observing command; its status (0 = it worked). */
int
fb_host_ask(struct fb_host *h, struct buf *out, struct diag *d,
    const char *w0, ...)
{
	struct fb_cmd c;
	va_list ap;
	int rc;

	memset(&c, 0, sizeof(c));
	va_start(ap, w0);
	c.argv = words_v(w0, ap);
	va_end(ap);
	rc = fb_host_run(h, &c, out, d);
	words_free(c.argv);
	return rc;
}
