#include "freebsd.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confgen.h"
#include "escape.h"
#include "mem.h"

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

/* argv for one remote line: ssh verifies the host key, never asks. */
static char **
host_argv(const struct spec *s, const char *line)
{
	static char port[16], known[PATH_MAX + 32];
	char **v = xcalloc(32, sizeof(*v));
	size_t n = 0;

	if (s->host == HOST_LOCAL) {
		v[n++] = "/bin/sh";
		v[n++] = "-c";
		v[n++] = (char *)line;
		return v;
	}
	snprintf(port, sizeof(port), "%d", s->ssh_port ? s->ssh_port : 22);
	v[n++] = "ssh";
	v[n++] = "-o";
	v[n++] = "BatchMode=yes";
	v[n++] = "-o";
	v[n++] = "StrictHostKeyChecking=yes";
	v[n++] = "-o";
	v[n++] = "UpdateHostKeys=no";
	v[n++] = "-o";
	v[n++] = "ConnectTimeout=20";
	v[n++] = "-T";
	/* the same choices as the push's transport (transport.c) */
	if (s->ssh_known_hosts != NULL) {
		snprintf(known, sizeof(known), "UserKnownHostsFile=%s",
		    s->ssh_known_hosts);
		v[n++] = "-o";
		v[n++] = known;
		v[n++] = "-o";
		v[n++] = "GlobalKnownHostsFile=/dev/null";
	}
	if (s->ssh_identity != NULL) {
		v[n++] = "-o";
		v[n++] = "IdentitiesOnly=yes";
		v[n++] = "-i";
		v[n++] = (char *)s->ssh_identity;
	}
	v[n++] = "-p";
	v[n++] = port;
	v[n++] = "-l";
	v[n++] = s->ssh_user;
	v[n++] = "--";
	v[n++] = s->ssh_host;
	v[n++] = (char *)line;
	return v;
}

/*
 * Runs argv with input on stdin; stdout into out, stderr into err (kept
 * apart: a warning from ssh must not read as a config file's text).
 */
static int
spawn(char **argv, const char *input, struct buf *out, struct buf *err)
{
	struct sigaction ign, old;
	int in[2], o[2], st;
	FILE *ef;
	pid_t pid;
	char chunk[4096];
	ssize_t n;
	size_t m;

	if ((ef = tmpfile()) == NULL)
		return -1;
	if (pipe(in) == -1) {
		fclose(ef);
		return -1;
	}
	if (pipe(o) == -1) {
		close(in[0]);
		close(in[1]);
		fclose(ef);
		return -1;
	}
	if ((pid = fork()) == -1) {
		close(in[0]);
		close(in[1]);
		close(o[0]);
		close(o[1]);
		fclose(ef);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(o[1], 1);
		dup2(fileno(ef), 2);
		close(in[0]);
		close(in[1]);
		close(o[0]);
		close(o[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(o[1]);
	/* A child that exits early must not take deploy down with SIGPIPE. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	/* Inputs are config files, well below a pipe's buffer in practice;
	 * a larger one still works as the child reads while we write. */
	if (input != NULL) {
		size_t len = strlen(input), off = 0;

		while (off < len) {
			n = write(in[1], input + off, len - off);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
	}
	close(in[1]);
	sigaction(SIGPIPE, &old, NULL);
	while ((n = read(o[0], chunk, sizeof(chunk))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0)
			buf_add(out, chunk, (size_t)n);
	close(o[0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR) {
			fclose(ef);
			return -1;
		}
	rewind(ef);
	while ((m = fread(chunk, 1, sizeof(chunk), ef)) > 0)
		buf_add(err, chunk, m);
	fclose(ef);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
	rc = spawn(argv, c->input, out, &e);
	while (e.len > 0 && e.ptr[e.len - 1] == '\n')
		buf_truncate(&e, e.len - 1);
	/* 127: no such program here, or no ssh; 255: ssh itself failed. */
	if (rc == -1 || rc == 127 || (rc == 255 && h->spec->host == HOST_SSH))
		diag_error(d, NULL, 0, "%s: could not run%s%s", line.ptr,
		    e.len ? ": " : "", e.ptr);
	if (err != NULL)
		buf_add(err, e.ptr, e.len);
	free(argv);
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

/* ---- names and paths ---- */

void
fb_jail_name(const struct spec *s, const char *jail, struct buf *out)
{
	buf_printf(out, "%s-%s", s->name, jail);
}

static int
is_proxy(const char *jail)
{
	return strcmp(jail, "proxy") == 0;
}

const char *
fb_server(const struct spec *s, const char *jail)
{
	return is_proxy(jail) && s->proxy.kind == PROXY_CADDY ? "caddy" :
	    "nginx";
}

const char *
fb_conf_file(const struct spec *s, const char *jail)
{
	return is_proxy(jail) && s->proxy.kind == PROXY_CADDY ?
	    FB_CADDY_DIR "/Caddyfile" : FB_NGINX_DIR "/nginx.conf";
}

/* FreeBSD has no www-data: the ports' servers run as www. */
const char *
fb_user(const struct spec *s)
{
	return strcmp(s->user, "www-data") == 0 ? "www" : s->user;
}

void
fb_check_argv(const struct spec *s, const char *jail, const char *tmp,
    const char *argv[8])
{
	size_t n = 0;

	if (strcmp(fb_server(s, jail), "caddy") == 0) {
		argv[n++] = "caddy";
		argv[n++] = "validate";
		argv[n++] = "--config";
		argv[n++] = tmp;
		argv[n++] = "--adapter";
		argv[n++] = "caddyfile";
	} else {
		argv[n++] = "nginx";
		argv[n++] = "-t";
		argv[n++] = "-q";
		argv[n++] = "-c";
		argv[n++] = tmp;
	}
	argv[n] = NULL;
}

void
fb_write_file(struct fb_script *sc, const char *path, const char *text)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash != NULL && slash != dir && strcmp(dir, "/etc/") != 0 &&
	    (slash - dir != 4 || strncmp(dir, "/etc", 4) != 0)) {
		*slash = '\0';
		fb_cmd(sc, "mkdir", "-p", dir, NULL);
	}
	fb_cmd_input(sc, text, "cat", NULL);
	sc->v[sc->n - 1].out_file = xstrdup(path);
	free(dir);
}

size_t
fb_cert_dirs(const struct spec *s, char *dirs[], size_t max)
{
	const char *files[64];
	size_t nf = 0, n = 0, i, k;

	if (s->proxy.kind != PROXY_NGINX)
		return 0;
	if (s->proxy.cert != NULL)
		files[nf++] = s->proxy.cert;
	if (s->proxy.key != NULL)
		files[nf++] = s->proxy.key;
	for (i = 0; i < s->nsites && nf + 2 <= 64; i++) {
		if (s->sites[i].cert != NULL)
			files[nf++] = s->sites[i].cert;
		if (s->sites[i].key != NULL)
			files[nf++] = s->sites[i].key;
	}
	for (i = 0; i < nf && n < max; i++) {
		const char *slash = strrchr(files[i], '/');
		char *dir;
		int dup = 0;

		if (slash == NULL || slash == files[i])
			continue;
		dir = xstrndup(files[i], (size_t)(slash - files[i]));
		for (k = 0; k < n; k++)
			dup |= strcmp(dirs[k], dir) == 0;
		if (dup)
			free(dir);
		else
			dirs[n++] = dir;
	}
	return n;
}

/* ---- network ---- */

void
fb_network_create(const struct spec *s, struct fb_script *sc)
{
	struct buf var = BUF_INIT, val = BUF_INIT;

	fb_cmd(sc, "sysrc", "cloned_interfaces+=lo1", NULL);
	buf_printf(&var, "ifconfig_lo1_name=%s", s->net.bridge);
	fb_cmd(sc, "sysrc", var.ptr, NULL);
	buf_clear(&var);
	buf_printf(&var, "ifconfig_%s=inet %s/%d", s->net.bridge,
	    s->net.gateway_str, s->net.prefix);
	fb_cmd(sc, "sysrc", var.ptr, NULL);
	fb_cmd(sc, "service", "netif", "cloneup", NULL);
	buf_printf(&val, "%s/%d", s->net.gateway_str, s->net.prefix);
	fb_cmd(sc, "ifconfig", s->net.bridge, "inet", val.ptr, NULL);
	buf_release(&var);
	buf_release(&val);
}

void
fb_network_destroy(const struct spec *s, struct fb_script *sc)
{
	struct buf var = BUF_INIT;

	fb_cmd(sc, "ifconfig", s->net.bridge, "destroy", NULL);
	fb_may_fail(sc);
	fb_cmd(sc, "sysrc", "cloned_interfaces-=lo1", NULL);
	buf_printf(&var, "ifconfig_%s", s->net.bridge);
	fb_cmd(sc, "sysrc", "-x", "ifconfig_lo1_name", var.ptr, NULL);
	fb_may_fail(sc);
	buf_release(&var);
}

/* ---- pf ---- */

void
fb_pf_conf(const struct spec *s, const char *ext_if, int ssh_port,
    int anchors, struct buf *out)
{
	size_t i;

	buf_printf(out,
	    "# pf.conf for %s, generated by deploy: do not edit.\n"
	    "ext_if=\"%s\"\n"
	    "jail_net=\"%s\"\n"
	    "proxy=\"%s\"\n"
	    "\n"
	    "set block-policy return\n"
	    "# One state per proxied connection: room for many clients.\n"
	    "set limit states 200000\n"
	    "set skip on lo\n"
	    "scrub in on $ext_if all fragment reassemble\n"
	    "\n"
	    "# Bastille leaves <jails> empty for on-link addresses: NAT the\n"
	    "# whole subnet instead.\n"
	    "table <jails> persist\n"
	    "nat on $ext_if from $jail_net to any -> ($ext_if:0)\n",
	    s->name, ext_if, s->net.subnet_str, s->net.proxy_str);
	for (i = 0; i < s->net.nports; i++) {
		const struct spec_port *p = &s->net.ports[i];

		buf_adds(out, "rdr pass on $ext_if inet proto tcp from any to ");
		if (p->addr != NULL)
			buf_adds(out, p->addr);
		else
			buf_adds(out, "($ext_if)");
		buf_printf(out, " port %d -> $proxy port %d\n", p->port, p->to);
	}
	if (anchors)
		buf_adds(out, "rdr-anchor \"rdr/*\"\n");
	buf_adds(out,
	    "\n"
	    "block in all\n");
	if (anchors)
		buf_adds(out, "anchor \"bastille/*\"\n");
	buf_printf(out,
	    "pass out quick keep state\n"
	    "antispoof for $ext_if inet\n"
	    "# SSH to the host itself; flags any keeps a session that was\n"
	    "# open before pf started.\n"
	    "pass in quick on $ext_if inet proto tcp from any to ($ext_if) "
	    "port %d flags any keep state\n"
	    "pass in quick on $ext_if inet proto icmp all icmp-type "
	    "{ echoreq, unreach }\n", ssh_port);
}

void
fb_pf_load(struct fb_script *sc, const char *text)
{
	/* The first load keeps whatever pf.conf the host had. */
	fb_cmd(sc, "cp", "-p", FB_PF_CONF, FB_PF_CONF ".before-deploy", NULL);
	fb_guard(sc, "test", "-e", FB_PF_CONF ".before-deploy", NULL);
	fb_may_fail(sc);
	fb_write_file(sc, FB_PF_CONF ".new", text);
	fb_cmd(sc, "pfctl", "-nf", FB_PF_CONF ".new", NULL);
	fb_cmd(sc, "mv", FB_PF_CONF ".new", FB_PF_CONF, NULL);
	fb_cmd(sc, "sysrc", "pf_enable=YES", NULL);
	fb_cmd(sc, "kldload", "-n", "pf", NULL);
	fb_cmd(sc, "pfctl", "-f", FB_PF_CONF, NULL);
	fb_cmd(sc, "pfctl", "-e", NULL);
	fb_may_fail(sc);
}

/* ---- parsers ---- */

static void
jails_add(struct fb_jails *js, const char *name, const char *ip,
    const char *path, int up)
{
	struct fb_jail *j;

	js->v = xrealloc(js->v, (js->n + 1) * sizeof(*js->v));
	j = &js->v[js->n++];
	j->name = xstrdup(name);
	j->ip = xstrndup(ip, strcspn(ip, ",/"));
	j->path = xstrdup(path);
	j->up = up;
}

void
fb_jails_release(struct fb_jails *js)
{
	size_t i;

	for (i = 0; i < js->n; i++) {
		free(js->v[i].name);
		free(js->v[i].ip);
		free(js->v[i].path);
	}
	free(js->v);
	js->v = NULL;
	js->n = 0;
}

const struct fb_jail *
fb_jails_find(const struct fb_jails *js, const char *name)
{
	size_t i;

	for (i = 0; i < js->n; i++)
		if (strcmp(js->v[i].name, name) == 0)
			return &js->v[i];
	return NULL;
}

#define MAXF 16

/* Splits line at blanks into at most MAXF fields (line is modified). */
static size_t
fields(char *line, char *f[MAXF])
{
	size_t n = 0;
	char *p = line;

	while (n < MAXF) {
		p += strspn(p, " \t\r");
		if (*p == '\0')
			break;
		f[n++] = p;
		p += strcspn(p, " \t\r");
		if (*p != '\0')
			*p++ = '\0';
	}
	return n;
}

/*
 * Header columns, with the two-word ones joined: "IP Address" and
 * "Published Ports" name one column each.
 */
static size_t
header(char *line, char *f[MAXF])
{
	char *raw[MAXF];
	size_t n = fields(line, raw), i, m = 0;

	for (i = 0; i < n; i++) {
		f[m++] = raw[i];
		if (i + 1 < n && ((strcmp(raw[i], "IP") == 0 &&
		    strcmp(raw[i + 1], "Address") == 0) ||
		    (strcmp(raw[i], "Published") == 0 &&
		    strcmp(raw[i + 1], "Ports") == 0)))
			i++;
	}
	return m;
}

static long
column(char *const *f, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(f[i], name) == 0)
			return (long)i;
	return -1;
}

int
fb_parse_bastille_list(const char *text, struct fb_jails *out)
{
	char *copy = xstrdup(text), *line, *next, *h[MAXF], *f[MAXF];
	size_t nh = 0, nf;
	long cname = -1, cip = -1, cstate = -1, cpath = -1, cjid = -1;
	int rc = -1;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (nh == 0) {
			nh = header(line, h);
			if ((cjid = column(h, nh, "JID")) == -1) {
				nh = 0;
				continue;
			}
			/* 1.x names the jail "Name"; 0.x "Hostname". */
			if ((cname = column(h, nh, "Name")) == -1)
				cname = column(h, nh, "Hostname");
			cip = column(h, nh, "IP");
			cstate = column(h, nh, "State");
			cpath = column(h, nh, "Path");
			if (cname == -1 || cip == -1)
				goto out;
			rc = 0;
			continue;
		}
		nf = fields(line, f);
		if (nf == 0)
			continue;
		/* 1.x lists stopped jails with "-" as JID and State Down. */
		if ((long)nf <= cname || (long)nf <= cip)
			continue;
		jails_add(out, f[cname], strcmp(f[cip], "-") ? f[cip] : "",
		    cpath != -1 && (long)nf > cpath ? f[cpath] : "",
		    cstate != -1 ? (long)nf > cstate &&
		    strcmp(f[cstate], "Up") == 0 : 1);
	}
out:
	free(copy);
	return rc;
}

int
fb_parse_jls(const char *text, struct fb_jails *out)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	size_t nf;
	int rc = 0;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		nf = fields(line, f);
		if (nf == 0)
			continue;
		if (nf != 3) {
			rc = -1;
			continue;
		}
		jails_add(out, f[0], strcmp(f[1], "-") ? f[1] : "", f[2], 1);
	}
	free(copy);
	return rc;
}

void
fb_parse_pfctl(const char *text, struct fb_rules *out)
{
	const char *line = text, *end;
	size_t n;

	while (*line != '\0') {
		end = strchr(line, '\n');
		n = end ? (size_t)(end - line) : strlen(line);
		/* -v adds "  [ Evaluations: ... ]" lines under each rule. */
		if (n > 0 && line[0] != ' ' && line[0] != '\t' &&
		    strncmp(line, "No ALTQ", 7) != 0) {
			const char *p = line;

			if (*p == '@') {
				p += strcspn(p, " ");
				p += strspn(p, " ");
			}
			out->v = xrealloc(out->v, (out->n + 1) *
			    sizeof(*out->v));
			out->v[out->n++] = xstrndup(p, n - (size_t)(p - line));
		}
		line += n + (end != NULL);
	}
}

void
fb_rules_release(struct fb_rules *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

long
fb_rules_find(const struct fb_rules *r, const char *prefix, ...)
{
	va_list ap;
	const char *w;
	size_t i;
	int all;

	for (i = 0; i < r->n; i++) {
		if (strncmp(r->v[i], prefix, strlen(prefix)) != 0)
			continue;
		all = 1;
		va_start(ap, prefix);
		while ((w = va_arg(ap, const char *)) != NULL)
			if (strstr(r->v[i], w) == NULL)
				all = 0;
		va_end(ap);
		if (all)
			return (long)i;
	}
	return -1;
}

int
fb_ifconfig_has(const char *text, const char *addr, int prefix)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	unsigned long mask, want;
	size_t nf;
	int found = 0;

	want = prefix == 0 ? 0 : (0xffffffffUL << (32 - prefix)) &
	    0xffffffffUL;
	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		nf = fields(line, f);
		/* inet 10.17.0.1 netmask 0xffffff00 */
		if (nf >= 4 && strcmp(f[0], "inet") == 0 &&
		    strcmp(f[1], addr) == 0 && strcmp(f[2], "netmask") == 0) {
			mask = strtoul(f[3], NULL, 16);
			if (mask == want)
				found = 1;
		}
	}
	free(copy);
	return found;
}

int
fb_parse_route(const char *text, struct buf *out)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	int rc = -1;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (fields(line, f) >= 2 && strcmp(f[0], "interface:") == 0) {
			buf_clear(out);
			buf_adds(out, f[1]);
			rc = 0;
		}
	}
	free(copy);
	return rc;
}

int
fb_parse_version(const char *text, struct buf *out)
{
	size_t n = strcspn(text, "\n");
	const char *p;

	/* 14.3-RELEASE-p2 -> 14.3-RELEASE; 15.0-STABLE stays. */
	if (n == 0 || text[0] < '0' || text[0] > '9')
		return -1;
	buf_clear(out);
	buf_add(out, text, n);
	if ((p = strstr(out->ptr, "-p")) != NULL &&
	    p[2] >= '0' && p[2] <= '9')
		buf_truncate(out, (size_t)(p - out->ptr));
	return strchr(out->ptr, '-') != NULL ? 0 : -1;
}

/* ---- the driver core ---- */

struct driver *
fb_driver_open(const struct spec *s, const struct fb_flavour *fl,
    const struct driver_ops *ops, struct diag *d)
{
	struct fb_driver *fd;

	if (s->host == HOST_SSH && (s->ssh_user == NULL || s->ssh_host == NULL)) {
		diag_error(d, s->file, 0, "host: expected ssh://user@host");
		return NULL;
	}
	fd = xcalloc(1, sizeof(*fd));
	fd->pub.ops = ops;
	fd->pub.spec = s;
	fd->fl = fl;
	fd->host = fb_host_new(s);
	return &fd->pub;
}

void
fb_driver_replay(struct driver *drv, const char *dir)
{
	fb_host_replay(((struct fb_driver *)drv)->host, dir);
}

void
fb_free(struct driver *drv)
{
	struct fb_driver *fd = (struct fb_driver *)drv;

	fb_host_free(fd->host);
	free(fd->release);
	free(fd->ext_if);
	free(fd->arch);
	free(fd);
}

void
fb_observed_add(struct observed *o, const char *name, int wanted)
{
	struct observed_jail *j;

	o->jails = xrealloc(o->jails, (o->njails + 1) * sizeof(*o->jails));
	j = &o->jails[o->njails++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->wanted = wanted;
	buf_init(&j->config);
}

static struct observed_jail *
observed_find(struct observed *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->njails; i++)
		if (strcmp(o->jails[i].name, name) == 0)
			return &o->jails[i];
	return NULL;
}

/* Runs one observing command; its status (0 = it worked). */
static int
ask(struct fb_driver *fd, struct buf *out, struct diag *d, const char *w0, ...)
{
	struct fb_cmd c;
	va_list ap;
	int rc;

	memset(&c, 0, sizeof(c));
	va_start(ap, w0);
	c.argv = words_v(w0, ap);
	va_end(ap);
	rc = fb_host_run(fd->host, &c, out, d);
	words_free(c.argv);
	return rc;
}

static int
ssh_port(const struct spec *s)
{
	return s->host == HOST_SSH && s->ssh_port != 0 ? s->ssh_port : 22;
}

static void
pf_text(struct fb_driver *fd, struct buf *out)
{
	fb_pf_conf(fd->pub.spec, fd->ext_if, ssh_port(fd->pub.spec),
	    fd->fl->pf_anchors, out);
}

static enum obj_state
observe_firewall(struct fb_driver *fd, struct diag *d)
{
	const struct spec *s = fd->pub.spec;
	struct buf have = BUF_INIT, want = BUF_INIT, head = BUF_INIT;
	struct buf r = BUF_INIT, n = BUF_INIT, on = BUF_INIT;
	struct fb_rules fr = { NULL, 0 }, nr = { NULL, 0 };
	enum obj_state st = OBJ_ABSENT;

	buf_printf(&head, "# pf.conf for %s, generated by deploy", s->name);
	if (ask(fd, &have, d, "cat", FB_PF_CONF, NULL) != 0 ||
	    strncmp(have.ptr, head.ptr, head.len) != 0)
		goto out;
	st = OBJ_DIFFERENT;
	pf_text(fd, &want);
	if (strcmp(have.ptr, want.ptr) != 0)
		goto out;
	if (ask(fd, &r, d, "pfctl", "-sr", NULL) != 0 ||
	    ask(fd, &n, d, "pfctl", "-sn", NULL) != 0)
		goto out;
	fb_parse_pfctl(r.ptr, &fr);
	fb_parse_pfctl(n.ptr, &nr);
	buf_printf(&on, "on %s ", fd->ext_if);
	/* Loaded, in order: NAT and rdr (pfctl -sn), block then SSH. */
	if (fb_rules_find(&nr, "nat ", on.ptr, s->net.subnet_str, NULL) >= 0 &&
	    fb_rules_find(&nr, "rdr pass ", on.ptr, s->net.proxy_str,
	    NULL) >= 0 &&
	    fb_rules_find(&fr, "block return in all", NULL) >= 0 &&
	    fb_rules_find(&fr, "block return in all", NULL) <
	    fb_rules_find(&fr, "pass in quick ", on.ptr, "proto tcp",
	    "flags any", NULL))
		st = OBJ_OK;
out:
	fb_rules_release(&fr);
	fb_rules_release(&nr);
	buf_release(&have);
	buf_release(&want);
	buf_release(&head);
	buf_release(&r);
	buf_release(&n);
	buf_release(&on);
	return st;
}

int
fb_observe(struct driver *drv, struct observed *o, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	struct buf out = BUF_INIT, path = BUF_INIT;
	struct observed_jail *j;
	char *line, *next;
	size_t i;
	int rc = -1;

	if (ask(fd, &out, d, "freebsd-version", "-u", NULL) != 0 ||
	    fb_parse_version(out.ptr, &path) == -1) {
		diag_error(d, s->file, 0, "%s: cannot tell the host's FreeBSD "
		    "release (freebsd-version -u)", s->host_str);
		goto out;
	}
	free(fd->release);
	fd->release = buf_detach(&path, NULL);
	if (ask(fd, &out, d, "route", "-n", "get", "default", NULL) != 0 ||
	    fb_parse_route(out.ptr, &path) == -1) {
		diag_error(d, s->file, 0, "%s: no default route: cannot tell "
		    "the external interface (route -n get default)",
		    s->host_str);
		goto out;
	}
	free(fd->ext_if);
	fd->ext_if = buf_detach(&path, NULL);

	o->network = OBJ_ABSENT;
	if (ask(fd, &out, d, "ifconfig", s->net.bridge, NULL) == 0)
		o->network = fb_ifconfig_has(out.ptr, s->net.gateway_str,
		    s->net.prefix) ? OBJ_OK : OBJ_DIFFERENT;

	for (i = 0; i < s->nsites; i++)
		fb_observed_add(o, s->sites[i].name, 1);
	fb_observed_add(o, "proxy", 1);
	if (fd->fl->observe_jails(fd, o, d) == -1)
		goto out;
	/* Site folders: data to keep, or left from a removed site. */
	if (ask(fd, &out, d, "ls", "-1", s->releases.root, NULL) == 0)
		for (line = out.ptr; *line != '\0'; line = next) {
			next = line + strcspn(line, "\n");
			if (*next != '\0')
				*next++ = '\0';
			if (*line == '\0' || *line == '.' ||
			    strcmp(line, "proxy") == 0)
				continue;
			if ((j = observed_find(o, line)) == NULL) {
				fb_observed_add(o, line, 0);
				j = &o->jails[o->njails - 1];
			}
			j->has_data = 1;
		}
	for (i = 0; i < o->njails; i++) {
		j = &o->jails[i];
		if (j->jail == OBJ_ABSENT)
			continue;
		buf_clear(&path);
		fd->fl->jail_root(fd, j->name, &path);
		buf_adds(&path, fb_conf_file(s, j->name));
		if (ask(fd, &out, d, "cat", path.ptr, NULL) == 0) {
			j->has_config = 1;
			buf_clear(&j->config);
			buf_add(&j->config, out.ptr, out.len);
		}
	}
	/* The proxy changed kind: its jail holds the other server. */
	if ((j = observed_find(o, "proxy")) != NULL && j->jail != OBJ_ABSENT) {
		buf_clear(&path);
		fd->fl->jail_root(fd, "proxy", &path);
		buf_adds(&path, s->proxy.kind == PROXY_CADDY ?
		    FB_NGINX_DIR "/nginx.conf" : FB_CADDY_DIR "/Caddyfile");
		if (ask(fd, &out, d, "cat", path.ptr, NULL) == 0)
			j->jail = OBJ_DIFFERENT;
	}
	/* A jail made again loses the config kept inside it. */
	for (i = 0; i < o->njails; i++)
		if (o->jails[i].jail == OBJ_DIFFERENT) {
			o->jails[i].has_config = 0;
			buf_clear(&o->jails[i].config);
		}
	o->firewall = observe_firewall(fd, d);
	fd->pf_ready = o->firewall == OBJ_OK;
	rc = 0;
out:
	buf_release(&out);
	buf_release(&path);
	return rc;
}

int
fb_config(struct driver *drv, const char *jail, struct buf *out, char **path,
    struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct spec s = *drv->spec;
	const struct spec_site *site = NULL;
	struct confgen_paths p;
	struct buf hp = BUF_INIT;
	int rc;

	if (!is_proxy(jail) && (site = spec_site(&s, jail)) == NULL) {
		diag_error(d, s.file, 0, "unknown site '%s'", jail);
		return -1;
	}
	s.user = (char *)fb_user(drv->spec);
	p.state = FB_JAIL_STATE;
	p.root = FB_JAIL_ROOT;
	p.mime_types = FB_NGINX_DIR "/mime.types";
	p.admin = FB_CADDY_ADMIN;
	p.data = FB_CADDY_DATA;
	if (site != NULL)
		rc = confgen_site_nginx(out, &s, site, &p);
	else if (s.proxy.kind == PROXY_CADDY)
		rc = confgen_caddy(out, &s, &p);
	else
		rc = confgen_proxy_nginx(out, &s, &p);
	fd->fl->jail_root(fd, jail, &hp);
	buf_adds(&hp, fb_conf_file(&s, jail));
	*path = buf_detach(&hp, NULL);
	return rc;
}

static int
commands(struct fb_driver *fd, const struct action *a, struct fb_script *sc,
    struct diag *d)
{
	struct buf text = BUF_INIT;

	switch (a->kind) {
	case ACT_JAIL_CREATE:
		/*
		 * A new jail installs its server with pkg, through the NAT:
		 * pf.conf goes in before the first jail. It holds nothing
		 * that depends on the jails, so the plan's last action
		 * finds it loaded (an rdr to a proxy not yet up is refused).
		 */
		if (fd->pf_ready)
			break;
		pf_text(fd, &text);
		fb_pf_load(sc, text.ptr);
		buf_release(&text);
		fd->pf_ready = 1;
		break;
	case ACT_FIREWALL_LOAD:
		if (fd->pf_ready) {
			fb_cmd(sc, "pfctl", "-f", FB_PF_CONF, NULL);
			return 0;
		}
		pf_text(fd, &text);
		fb_pf_load(sc, text.ptr);
		buf_release(&text);
		fd->pf_ready = 1;
		return 0;
	case ACT_FIREWALL_REMOVE:
		fb_cmd(sc, "pfctl", "-d", NULL);
		fb_may_fail(sc);
		fb_cmd(sc, "sysrc", "pf_enable=NO", NULL);
		fb_cmd(sc, "mv", FB_PF_CONF, FB_PF_CONF ".removed-by-deploy",
		    NULL);
		return 0;
	default:
		break;
	}
	return fd->fl->commands(fd, a, sc, d);
}

int
fb_execute(struct driver *drv, const struct action *a, struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct fb_script sc = { NULL, 0, 0 };
	int rc = -1;

	if (fd->release == NULL) {
		diag_error(d, NULL, 0, "observe the host before acting on it");
		return -1;
	}
	if (commands(fd, a, &sc, d) == 0)
		rc = fb_host_exec(fd->host, &sc, d);
	fb_script_release(&sc);
	return rc;
}

int
freebsd_plan_script(struct driver *drv, const struct plan *p, struct buf *out,
    struct diag *d)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	struct fb_script sc;
	size_t i, j;
	int rc = 0, ready = fd->pf_ready;

	if (strncmp(drv->ops->platform, "freebsd-", 8) != 0) {
		diag_error(d, s->file, 0, "no script for platform %s",
		    drv->ops->platform);
		return -1;
	}
	buf_printf(out,
	    "#!/bin/sh\n"
	    "# deploy: %zu action%s for %s (platform %s, host %s),\n"
	    "# FreeBSD %s, external interface %s. Runs as root on the host.\n"
	    "set -eu\n", p->n, p->n == 1 ? "" : "s", s->name,
	    drv->ops->platform, s->host_str ? s->host_str : "local",
	    fd->release ? fd->release : "?", fd->ext_if ? fd->ext_if : "?");
	for (i = 0; i < p->n && rc == 0; i++) {
		const struct action *a = &p->v[i];

		buf_printf(out, "\n# %zu/%zu %s %s", i + 1, p->n,
		    action_name(a->kind), a->target);
		for (j = 0; j < ACTION_ARGS && a->args[j] != NULL; j++)
			buf_printf(out, " %s", a->args[j]);
		buf_addc(out, '\n');
		memset(&sc, 0, sizeof(sc));
		if (commands(fd, a, &sc, d) == -1 ||
		    fb_script_sh(&sc, out, d) == -1)
			rc = -1;
		fb_script_release(&sc);
	}
	fd->pf_ready = ready;
	return rc;
}

void
fb_describe(struct driver *drv, const char *jail, struct buf *out)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	const struct spec *s = drv->spec;
	const struct spec_site *site = spec_site(s, jail);

	buf_adds(out, "jail ");
	fb_jail_name(s, jail, out);
	buf_printf(out, " (%s), address %s, %s, config ", fd->fl->platform,
	    site ? site->addr_str : s->net.proxy_str, fb_server(s, jail));
	fd->fl->jail_root(fd, jail, out);
	buf_adds(out, fb_conf_file(s, jail));
}

/* Caddy's local CA lives on the jail host, not where deploy runs. */
const char *
fb_proxy_ca(struct driver *drv)
{
	(void)drv;
	return NULL;
}

/* There is no jail network to join from another machine. */
int
fb_enter(struct driver *drv, const char *jail)
{
	(void)drv;
	(void)jail;
	return -1;
}

char *
fb_log_path(struct driver *drv, const char *jail)
{
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct buf b = BUF_INIT;

	fd->fl->jail_root(fd, jail, &b);
	buf_adds(&b, FB_JAIL_STATE "/logs/error.log");
	return buf_detach(&b, NULL);
}
