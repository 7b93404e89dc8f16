#include "transport.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "mem.h"
#include "process.h"

#define AGENT_GREETING	"deploy-agent 1"

struct transport;

/* How one kind of transport builds the command that starts the agent. */
struct transport_ops {
	const char	*scheme;
	int		(*argv)(struct transport *, const struct transport_opts *,
			    char ***, struct diag *);
};

struct transport {
	const struct transport_ops *ops;
	char		*name;
	pid_t		 pid;
	int		 in;		/* agent's stdout */
	int		 out;		/* agent's stdin */
	int		 err;		/* temporary file holding agent's stderr */
	struct buf	 wbuf;
	char		 rbuf[65536];
	size_t		 rpos, rlen;
	unsigned long long sent, received;
	int		 broken;
};

static void
argv_free(char **av)
{
	size_t i;

	if (av == NULL)
		return;
	for (i = 0; av[i] != NULL; i++)
		free(av[i]);
	free(av);
}

static void
argv_push(char ***av, size_t *n, size_t *cap, const char *s)
{
	xgrow((void **)av, cap, *n + 2, sizeof(**av));
	(*av)[(*n)++] = s != NULL ? xstrdup(s) : NULL;
	(*av)[*n] = NULL;
}

static const char *
agent_prog(const struct transport_opts *o)
{
	return o->agent != NULL ? o->agent : "deploy";
}

static int
local_argv(struct transport *t, const struct transport_opts *o, char ***out,
    struct diag *d)
{
	char **av = NULL;
	size_t n = 0, cap = 0;

	(void)t;
	(void)d;
	argv_push(&av, &n, &cap, agent_prog(o));
	argv_push(&av, &n, &cap, "agent");
	argv_push(&av, &n, &cap, "--root");
	argv_push(&av, &n, &cap, o->root);
	argv_push(&av, &n, &cap, "--site");
	argv_push(&av, &n, &cap, o->site);
	argv_push(&av, &n, &cap, "serve");
	*out = av;
	return 0;
}

/* Splits ssh://user@host[:port] (user and port optional; an IPv6
 * address in brackets, given to ssh without them). */
static int
parse_ssh_url(const char *url, char **userhost, char **port, struct diag *d)
{
	const char *p = url + strlen("ssh://"), *at, *colon, *end, *host;
	const char *close = NULL;
	struct buf uh = BUF_INIT;
	char *num;
	long v;

	end = p + strcspn(p, "/");
	if (*end != '\0' && end[1] != '\0') {
		diag_error(d, NULL, 0, "%s: a path is not allowed in the host URL", url);
		return -1;
	}
	at = memchr(p, '@', end - p);
	host = at != NULL ? at + 1 : p;
	if (host < end && *host == '[' &&
	    (close = memchr(host, ']', end - host)) == NULL) {
		diag_error(d, NULL, 0, "%s: no ']' after the IPv6 address", url);
		return -1;
	}
	colon = memchr(close != NULL ? close : host, ':',
	    end - (close != NULL ? close : host));
	if (p == end || (at != NULL && at == p) || colon == host ||
	    (close != NULL && close == host + 1) ||
	    (close != NULL && close + 1 != end && close + 1 != colon) ||
	    *p == '-' || *host == '-') {
		diag_error(d, NULL, 0, "%s: expected ssh://user@host[:port]", url);
		return -1;
	}
	if (at != NULL)
		buf_add(&uh, p, (size_t)(host - p));
	if (close != NULL)
		buf_add(&uh, host + 1, (size_t)(close - host - 1));
	else
		buf_add(&uh, host, (size_t)((colon != NULL ? colon : end) - host));
	*userhost = buf_detach(&uh, NULL);
	*port = NULL;
	if (colon != NULL) {
		num = xstrndup(colon + 1, end - colon - 1);
		errno = 0;
		v = strtol(num, NULL, 10);
		if (num[0] == '\0' || num[strspn(num, "0123456789")] != '\0' ||
		    v < 1 || v > 65535) {
			diag_error(d, NULL, 0, "%s: bad port '%s'", url, num);
			free(num);
			free(*userhost);
			return -1;
		}
		*port = num;
	}
	return 0;
}

char **
transport_ssh_argv(const char *url, const char *known_hosts,
    const char *identity, const char *line, struct diag *d)
{
	char **av = NULL, *userhost, *port;
	size_t n = 0, cap = 0;
	struct buf b = BUF_INIT;

	if (parse_ssh_url(url, &userhost, &port, d) == -1)
		return NULL;
	argv_push(&av, &n, &cap, "ssh");
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "BatchMode=yes");
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "StrictHostKeyChecking=yes");
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "UpdateHostKeys=no");
	/* Fail instead of hanging on an unreachable or vanished host. */
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "ConnectTimeout=20");
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "ServerAliveInterval=15");
	argv_push(&av, &n, &cap, "-o");
	argv_push(&av, &n, &cap, "ServerAliveCountMax=4");
	argv_push(&av, &n, &cap, "-T");
	if (known_hosts != NULL) {
		buf_printf(&b, "UserKnownHostsFile=%s", known_hosts);
		argv_push(&av, &n, &cap, "-o");
		argv_push(&av, &n, &cap, b.ptr);
		argv_push(&av, &n, &cap, "-o");
		argv_push(&av, &n, &cap, "GlobalKnownHostsFile=/dev/null");
	}
	if (identity != NULL) {
		argv_push(&av, &n, &cap, "-o");
		argv_push(&av, &n, &cap, "IdentitiesOnly=yes");
		argv_push(&av, &n, &cap, "-i");
		argv_push(&av, &n, &cap, identity);
	}
	if (port != NULL) {
		argv_push(&av, &n, &cap, "-p");
		argv_push(&av, &n, &cap, port);
	}
	argv_push(&av, &n, &cap, "--");
	argv_push(&av, &n, &cap, userhost);
	argv_push(&av, &n, &cap, line);
	buf_release(&b);
	free(userhost);
	free(port);
	return av;
}

void
transport_argv_free(char **av)
{
	argv_free(av);
}

/* The ssh command line that runs words (quoted for the remote shell) on
 * the host of url. */
static int
ssh_cmd(const char *url, const struct transport_opts *o,
    const char *const *words, char ***out, struct diag *d)
{
	struct buf cmd = BUF_INIT;
	size_t i;

	/* The remote side hands the command to a shell: quote every word. */
	for (i = 0; words[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&cmd, ' ');
		esc_shell(&cmd, words[i], strlen(words[i]));
	}
	*out = transport_ssh_argv(url, o->known_hosts, o->identity, cmd.ptr,
	    d);
	buf_release(&cmd);
	return *out != NULL ? 0 : -1;
}

static int
ssh_argv(struct transport *t, const struct transport_opts *o, char ***out,
    struct diag *d)
{
	const char *words[] = { agent_prog(o), "agent", "--root", o->root,
	    "--site", o->site, "serve", NULL };

	return ssh_cmd(t->name, o, words, out, d);
}

static const struct transport_ops local_ops = { "local", local_argv };
static const struct transport_ops ssh_ops = { "ssh", ssh_argv };

/* The last lines the agent (or ssh) wrote on stderr, for messages. */
static void
err_tail(struct transport *t, struct buf *out)
{
	char chunk[4096];
	off_t size;
	ssize_t r;

	if (t->err == -1)
		return;
	size = lseek(t->err, 0, SEEK_END);
	if (size <= 0)
		return;
	lseek(t->err, size > (off_t)sizeof(chunk) - 1 ?
	    size - (off_t)sizeof(chunk) + 1 : 0, SEEK_SET);
	r = read(t->err, chunk, sizeof(chunk) - 1);
	if (r <= 0)
		return;
	chunk[r] = '\0';
	while (r > 0 && (chunk[r - 1] == '\n' || chunk[r - 1] == '\r'))
		chunk[--r] = '\0';
	buf_add(out, chunk, r);
}

/* Explains a failed start: ssh's host key and login refusals by name. */
static void
explain_failure(struct transport *t, const struct transport_opts *o,
    struct diag *d)
{
	struct buf tail = BUF_INIT;
	char *p;

	err_tail(t, &tail);
	for (p = tail.ptr; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	if (t->ops == &ssh_ops && strstr(tail.ptr,
	    "REMOTE HOST IDENTIFICATION HAS CHANGED") != NULL)
		diag_error(d, NULL, 0, "%s: the host key has CHANGED since it "
		    "was recorded in %s; refusing to connect (if the host was "
		    "really reinstalled, replace its entry)", t->name,
		    o->known_hosts != NULL ? o->known_hosts : "known_hosts");
	else if (t->ops == &ssh_ops && strstr(tail.ptr,
	    "Host key verification failed") != NULL)
		diag_error(d, NULL, 0, "%s: the host key is not known (not in "
		    "%s); refusing to connect: add the host's key to that file "
		    "first", t->name, o->known_hosts != NULL ? o->known_hosts :
		    "known_hosts");
	else if (t->ops == &ssh_ops && strstr(tail.ptr,
	    "Permission denied") != NULL)
		diag_error(d, NULL, 0, "%s: login refused: %s", t->name, tail.ptr);
	else
		diag_error(d, NULL, 0, "%s: the agent did not start%s%s",
		    t->name, tail.len > 0 ? ": " : "", tail.ptr);
	buf_release(&tail);
}

static int
reap(struct transport *t, struct diag *d, int quiet)
{
	int status;
	pid_t r;

	if (t->pid <= 0)
		return 0;
	do
		r = waitpid(t->pid, &status, 0);
	while (r == -1 && errno == EINTR);
	t->pid = -1;
	if (r == -1) {
		if (!quiet && d != NULL)
			diag_error(d, NULL, 0, "%s: waitpid: %s", t->name,
			    strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!quiet && d != NULL) {
		if (WIFEXITED(status))
			diag_error(d, NULL, 0, "%s: agent exited with status %d",
			    t->name, WEXITSTATUS(status));
		else
			diag_error(d, NULL, 0, "%s: agent killed by signal %d",
			    t->name, WTERMSIG(status));
	}
	return -1;
}

struct transport *
transport_open(const struct transport_opts *o, struct diag *d)
{
	struct transport *t;
	char **av = NULL;
	int to[2] = { -1, -1 }, from[2] = { -1, -1 };
	struct buf line = BUF_INIT;
	struct diag *quiet;
	struct sigaction sa;

	if (o->host == NULL || o->root == NULL || o->site == NULL) {
		diag_error(d, NULL, 0, "transport: host, root and site are required");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->in = t->out = t->err = -1;
	t->pid = -1;
	buf_init(&t->wbuf);
	t->name = xstrdup(o->host);
	if (strcmp(o->host, "local") == 0)
		t->ops = &local_ops;
	else if (strncmp(o->host, "ssh://", 6) == 0)
		t->ops = &ssh_ops;
	else {
		diag_error(d, NULL, 0, "%s: unknown host (expected \"local\" or "
		    "ssh://user@host[:port])", o->host);
		goto fail;
	}
	if (t->ops->argv(t, o, &av, d) == -1)
		goto fail;

	/* A dead agent must surface as an error on write, not kill us. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	/* The agent's stderr goes to a file: read only to explain failures. */
	if ((t->err = process_tmpfile()) == -1) {
		diag_error(d, NULL, 0, "a temporary file: %s", strerror(errno));
		goto fail;
	}
	if (process_pipe(to) == -1 || process_pipe(from) == -1) {
		diag_error(d, NULL, 0, "pipe: %s", strerror(errno));
		goto fail;
	}
	fflush(NULL);
	if ((t->pid = fork()) == -1) {
		diag_error(d, NULL, 0, "fork: %s", strerror(errno));
		goto fail;
	}
	if (t->pid == 0) {
		if (dup2(to[0], 0) == -1 || dup2(from[1], 1) == -1 ||
		    dup2(t->err, 2) == -1)
			_exit(127);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		close(t->err);
		execvp(av[0], av);
		dprintf(2, "%s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	to[0] = from[1] = -1;
	t->out = to[1];
	t->in = from[0];
	argv_free(av);
	av = NULL;

	quiet = diag_new();
	if (transport_readline(t, &line, quiet) == -1 ||
	    strncmp(line.ptr, AGENT_GREETING, strlen(AGENT_GREETING)) != 0) {
		diag_free(quiet);
		close(t->out);
		t->out = -1;
		reap(t, NULL, 1);
		explain_failure(t, o, d);
		goto fail;
	}
	diag_free(quiet);
	buf_release(&line);
	return t;
fail:
	buf_release(&line);
	argv_free(av);
	if (to[0] != -1)
		close(to[0]);
	if (from[1] != -1)
		close(from[1]);
	if (t->pid > 0) {
		kill(t->pid, SIGTERM);
		reap(t, NULL, 1);
	}
	t->pid = -1;
	transport_close(t, NULL);
	return NULL;
}

int
transport_write(struct transport *t, const void *p, size_t n, struct diag *d)
{
	buf_add(&t->wbuf, p, n);
	if (t->wbuf.len >= 65536)
		return transport_flush(t, d);
	return 0;
}

int
transport_printf(struct transport *t, struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&t->wbuf, fmt, ap);
	va_end(ap);
	if (t->wbuf.len >= 65536)
		return transport_flush(t, d);
	return 0;
}

int
transport_flush(struct transport *t, struct diag *d)
{
	size_t off = 0;
	ssize_t w;

	if (t->broken || t->out == -1) {
		diag_error(d, NULL, 0, "%s: connection to the agent is closed",
		    t->name);
		return -1;
	}
	while (off < t->wbuf.len) {
		w = write(t->out, t->wbuf.ptr + off, t->wbuf.len - off);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1) {
			struct buf tail = BUF_INIT;

			t->broken = 1;
			err_tail(t, &tail);
			diag_error(d, NULL, 0, "%s: writing to the agent: %s%s%s",
			    t->name, strerror(errno), tail.len ? ": " : "",
			    tail.ptr);
			buf_release(&tail);
			buf_clear(&t->wbuf);
			return -1;
		}
		off += w;
		t->sent += w;
	}
	buf_clear(&t->wbuf);
	return 0;
}

int
transport_readline(struct transport *t, struct buf *line, struct diag *d)
{
	ssize_t r;
	char *nl;

	buf_clear(line);
	if (t->wbuf.len > 0 && transport_flush(t, d) == -1)
		return -1;
	for (;;) {
		if (t->rpos < t->rlen) {
			nl = memchr(t->rbuf + t->rpos, '\n', t->rlen - t->rpos);
			if (nl != NULL) {
				buf_add(line, t->rbuf + t->rpos,
				    nl - (t->rbuf + t->rpos));
				t->rpos = nl - t->rbuf + 1;
				return 0;
			}
			buf_add(line, t->rbuf + t->rpos, t->rlen - t->rpos);
			t->rpos = t->rlen;
		}
		if (t->in == -1)
			r = 0;
		else
			r = read(t->in, t->rbuf, sizeof(t->rbuf));
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			struct buf tail = BUF_INIT;

			err_tail(t, &tail);
			diag_error(d, NULL, 0, "%s: the agent closed the "
			    "connection%s%s", t->name, tail.len ? ": " : "",
			    tail.ptr);
			buf_release(&tail);
			t->broken = 1;
			return -1;
		}
		t->received += r;
		t->rpos = 0;
		t->rlen = r;
	}
}

void
transport_bytes(const struct transport *t, unsigned long long *sent,
    unsigned long long *received)
{
	if (sent != NULL)
		*sent = t->sent + t->wbuf.len;
	if (received != NULL)
		*received = t->received;
}

const char *
transport_name(const struct transport *t)
{
	return t->name;
}

int
transport_close(struct transport *t, struct diag *d)
{
	struct diag *scratch;
	int rc = 0;

	if (t == NULL)
		return 0;
	if (t->out != -1) {
		if (!t->broken) {
			scratch = diag_new();
			buf_adds(&t->wbuf, "quit\n");
			transport_flush(t, scratch);
			diag_free(scratch);
		}
		close(t->out);
	}
	if (t->in != -1)
		close(t->in);
	if (t->pid > 0 && reap(t, d, d == NULL) == -1)
		rc = -1;
	if (t->err != -1)
		close(t->err);
	buf_release(&t->wbuf);
	free(t->name);
	free(t);
	return rc;
}

int
transport_run(const struct transport_opts *o, const char *const *words,
    const char *input, size_t inlen, struct buf *out, struct diag *d)
{
	struct process_opts so;
	struct process_result r;
	struct buf how = BUF_INIT;
	char **av = NULL;
	size_t n = 0, cap = 0, i;
	int rc;

	if (o->host != NULL && strncmp(o->host, "ssh://", 6) == 0) {
		if (ssh_cmd(o->host, o, words, &av, d) == -1)
			return -1;
	} else
		for (i = 0; words[i] != NULL; i++)
			argv_push(&av, &n, &cap, words[i]);
	memset(&so, 0, sizeof(so));
	so.input = input != NULL ? input : "";
	so.inlen = input != NULL ? inlen : 0;
	so.out = out;
	rc = process_run(av, &so, &r);
	if (rc == -1) {
		process_describe(&r, 0, &how);
		diag_error(d, NULL, 0, "%s: %s", av[0], how.ptr);
	}
	buf_release(&how);
	argv_free(av);
	return rc;
}
