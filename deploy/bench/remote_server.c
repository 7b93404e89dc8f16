/*
 * deploy bench --from, the servers' side: their listen queues and nginx's
 * room for connections, read around each run, and the cause of failures
 * named from them (remote.h).
 */
#define _GNU_SOURCE
#include "remote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fsutil.h"
#include "mem.h"
#include "process.h"
#include "transport.h"

/*
 * A server's listen side: Linux counts overflows of the accept queue in
 * /proc/net/netstat and shows each listener's backlog (ss: Send-Q);
 * FreeBSD in netstat -s and netstat -L.
 */
static const char listen_line[] =
    "if [ \"$(uname -s)\" = FreeBSD ]; then echo OS FreeBSD; "
    "echo SOMAXCONN $(sysctl -n kern.ipc.somaxconn); "
    "netstat -s -p tcp | sed -n "
    "'s/^[[:space:]]*\\([0-9][0-9]*\\) listen queue overflow.*/LQO \\1/p'; "
    "netstat -Lan -p tcp; "
    "else echo OS Linux; "
    "echo SOMAXCONN $(cat /proc/sys/net/core/somaxconn); "
    "cat /proc/net/netstat; ss -ltnH; fi; "
    "echo NCPU $(getconf _NPROCESSORS_ONLN 2>/dev/null); "
    "command -v nginx >/dev/null 2>&1 && nginx -T 2>/dev/null | sed -n "
    "'s/^[[:space:]]*\\(worker_[a-z]*\\)[[:space:]][[:space:]]*"
    "\\([0-9a-z]*\\);.*/NGX \\1 \\2/p'; "
    "f=/var/log/nginx/error.log; [ -r \"$f\" ] && echo WCNE "
    "$(grep -c 'worker_connections are not enough' \"$f\") "
    "$(grep -o '[0-9]* worker_connections are not enough' \"$f\" | "
    "tail -n 1)";

void
bench_remote_parse_listen(const char *out, int port, struct bench_listen *l)
{
	const char *p, *names, *vals;
	char os[16];
	long long q;

	l->ok = 0;
	l->overflows = l->drops = 0;
	l->backlog = -1;
	l->somaxconn = -1;
	l->wc_short = -1;
	l->wc = 0;
	l->ngx_conns = l->ngx_workers = 0;
	if ((p = strstr(out, "NGX worker_connections ")) != NULL)
		l->ngx_conns = atoi(p + 23);
	if ((p = strstr(out, "NGX worker_processes ")) != NULL) {
		const char *cpu = strstr(out, "NCPU ");

		l->ngx_workers = strncmp(p + 21, "auto", 4) == 0 ?
		    (cpu != NULL ? atoi(cpu + 5) : 0) : atoi(p + 21);
	} else if (l->ngx_conns > 0)
		l->ngx_workers = 1;	/* nginx's default */
	if ((p = strstr(out, "WCNE ")) != NULL &&
	    sscanf(p + 5, "%lld %d", &l->wc_short, &l->wc) < 1)
		l->wc_short = -1;
	if ((p = strstr(out, "OS ")) == NULL || sscanf(p + 3, "%15s", os) != 1)
		return;
	xsnprintf(l->os, sizeof(l->os), "%s", os);
	if ((p = strstr(out, "SOMAXCONN ")) != NULL)
		l->somaxconn = atoi(p + 10);
	if (strcmp(os, "FreeBSD") == 0) {
		/* tcp4  0/0/128   *.80 */
		if ((p = strstr(out, "LQO ")) != NULL) {
			l->overflows = atoll(p + 4);
			l->ok = 1;
		}
		for (p = out; (p = strstr(p, "\ntcp")) != NULL; p++) {
			char proto[8], qs[32], addr[128];
			long a, b, c;
			const char *dot;

			if (sscanf(p + 1, "%7s %31s %127s", proto, qs, addr) != 3 ||
			    sscanf(qs, "%ld/%ld/%ld", &a, &b, &c) != 3 ||
			    (dot = strrchr(addr, '.')) == NULL ||
			    atoi(dot + 1) != port)
				continue;
			if (l->backlog < 0 || c < l->backlog)
				l->backlog = (int)c;
		}
		return;
	}
	/* TcpExt: names... then TcpExt: values... */
	if ((names = strstr(out, "TcpExt: ")) != NULL &&
	    (vals = strstr(names + 1, "TcpExt: ")) != NULL) {
		const char *n = names + 8, *v = vals + 8;

		while (*n != '\n' && *n != '\0' && *v != '\n' && *v != '\0') {
			size_t len = strcspn(n, " \n");

			q = strtoll(v, NULL, 10);
			if (len == 15 && strncmp(n, "ListenOverflows", len) == 0)
				l->overflows = q;
			else if (len == 11 && strncmp(n, "ListenDrops", len) == 0)
				l->drops = q;
			n += len;
			while (*n == ' ')
				n++;
			v += strcspn(v, " \n");
			while (*v == ' ')
				v++;
		}
		l->ok = 1;
	}
	/* LISTEN 0 4096 0.0.0.0:443 0.0.0.0:* */
	for (p = out; (p = strstr(p, "LISTEN")) != NULL; p++) {
		char addr[128];
		long recvq, sendq;
		const char *colon;

		if (sscanf(p + 6, "%ld %ld %127s", &recvq, &sendq, addr) != 3 ||
		    (colon = strrchr(addr, ':')) == NULL ||
		    atoi(colon + 1) != port)
			continue;
		if (l->backlog < 0 || sendq < l->backlog)
			l->backlog = (int)sendq;
	}
}

/* "41,233" */
static void
thousands(char *out, size_t n, long long v)
{
	char digits[32];
	size_t len, i, o = 0;

	xsnprintf(digits, sizeof(digits), "%lld", v < 0 ? -v : v);
	len = strlen(digits);
	if (v < 0 && o + 1 < n)
		out[o++] = '-';
	for (i = 0; i < len && o + 1 < n; i++) {
		if (i > 0 && (len - i) % 3 == 0 && o + 2 < n)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

void
bench_remote_cause(const struct bench_remote *r, struct bench_step *s, int t)
{
	const struct bench_listen *l = &s->srv[t];
	const char *knob = strcmp(l->os, "FreeBSD") == 0 ?
	    "kern.ipc.somaxconn" : "net.core.somaxconn";
	char n[32], who[128];
	struct buf b = BUF_INIT;
	int room = 0;

	s->cause[t][0] = '\0';
	if (!l->ok)
		return;
	if (t == TGT_NEW)
		xsnprintf(who, sizeof(who), "site %s (%s)", r->site, l->where);
	else
		xsnprintf(who, sizeof(who), "the old server");
	if (s->overflows[t] > 0) {
		thousands(n, sizeof(n), s->overflows[t]);
		buf_printf(&b, "listen queue of %s overflowed %s times: ", who,
		    n);
		if (t == TGT_OLD)
			buf_printf(&b, "its backlog is %d (%s is %d); set "
			    "%s=%d and the server's listen backlog to %d "
			    "(nginx: listen ... backlog=%d)", l->backlog, knob,
			    l->somaxconn, knob, BENCH_GOOD_BACKLOG,
			    BENCH_GOOD_BACKLOG, BENCH_GOOD_BACKLOG);
		else if (l->somaxconn >= 0 &&
		    l->somaxconn < BENCH_GOOD_BACKLOG)
			buf_printf(&b, "%s is %d; deploy apply sets %d (run "
			    "it)", knob, l->somaxconn, BENCH_GOOD_BACKLOG);
		else if (l->backlog >= 0 && l->backlog < BENCH_GOOD_BACKLOG)
			buf_printf(&b, "its listen backlog is %d; deploy apply "
			    "sets %d (run it)", l->backlog, BENCH_GOOD_BACKLOG);
		else
			buf_printf(&b, "at a backlog of %d, connections came "
			    "faster than its server accepts them", l->backlog);
	}
	/* Fewer connections than were sent: nginx closes kept-alive ones
	 * to make room, which readers see as read errors. */
	if (t == TGT_OLD && l->ngx_conns > 0 && l->ngx_workers > 0 &&
	    (long)l->ngx_conns * l->ngx_workers < s->conns) {
		struct bench_cell c;

		bench_remote_median(r, s, t, -1, &c);
		if (bench_remote_success(&c) >= 0 &&
		    bench_remote_success(&c) < 1) {
			room = 1;
			thousands(n, sizeof(n), s->conns);
			buf_printf(&b, "%snginx of %s has room for %ld "
			    "connections (worker_processes %d x "
			    "worker_connections %d) and was sent %s: it closes "
			    "kept-alive ones to make room; set "
			    "worker_connections %d and worker_rlimit_nofile %d",
			    b.len ? "; " : "", who,
			    (long)l->ngx_conns * l->ngx_workers,
			    l->ngx_workers, l->ngx_conns, n, BENCH_GOOD_CONNS,
			    2 * BENCH_GOOD_CONNS + 64);
		}
	}
	if (!room && s->wc_short[t] > 0) {
		thousands(n, sizeof(n), s->wc_short[t]);
		buf_printf(&b, "%snginx of %s ran out of connections %s times "
		    "(worker_connections %d): ", b.len ? "; " : "", who, n,
		    l->wc);
		if (t == TGT_OLD)
			buf_printf(&b, "set worker_connections %d and "
			    "worker_rlimit_nofile %d", BENCH_GOOD_CONNS,
			    2 * BENCH_GOOD_CONNS + 64);
		else
			buf_printf(&b, "deploy apply sets %d (run it)",
			    BENCH_GOOD_CONNS);
	}
	/* a cause too long to keep whole ends in "...", not cut unseen */
	if (strfit(s->cause[t], sizeof(s->cause[t]), "%s", b.len ? b.ptr :
	    "") == -1)
		memcpy(s->cause[t] + sizeof(s->cause[t]) - 4, "...", 4);
	buf_release(&b);
}

/* Times the nginx error log at path says it ran out of connections, and
 * the worker_connections it names; -1 when it cannot be read. */
static long long
log_short(const char *path, int *wc)
{
	static const char needle[] = " worker_connections are not enough";
	struct buf text = BUF_INIT;
	const char *p, *q;
	long long n = 0;

	if (path == NULL || fs_read(path, &text) == -1) {
		buf_release(&text);
		return -1;
	}
	for (p = text.ptr; p != NULL && (p = strstr(p, needle)) != NULL;
	    p += sizeof(needle) - 1) {
		n++;
		for (q = p; q > text.ptr && q[-1] >= '0' && q[-1] <= '9'; q--)
			;
		*wc = atoi(q);
	}
	buf_release(&text);
	return n;
}

/* ---- reading the servers ---- */

struct entered {
	struct driver	*drv;
	const char	*jail;
};

static int
enter_jail(void *arg)
{
	const struct entered *e = arg;

	return e->drv->ops->enter(e->drv, e->jail);
}

/* The port a URL asks: its own, else the scheme's. */
static int
url_port(const char *url)
{
	const char *h = strstr(url, "://"), *end, *c;

	if (h == NULL)
		return 80;
	h += 3;
	end = h + strcspn(h, "/?#");
	if (*h == '[' && (c = memchr(h, ']', (size_t)(end - h))) != NULL)
		h = c;
	for (c = end; c > h; c--)
		if (c[-1] == ':')
			return atoi(c);
	return strncmp(url, "https:", 6) == 0 ? 443 : 80;
}

/*
 * Reads the listen side of target t: for the site, its proxy jail (which
 * takes the readers' connections) and its own jail, through drv; for the
 * old server, over ssh when --against-ssh names it. Up to 2 readings.
 */
int
bench_remote_read_listen(const struct bench_remote *r, struct driver *drv,
    int t, struct bench_listen *l)
{
	struct process_opts o;
	struct buf out = BUF_INIT;
	int n = 0;

	memset(&o, 0, sizeof(o));
	o.out = &out;
	o.timeout = 15;
	if (t == TGT_NEW && drv != NULL && drv->ops->enter != NULL) {
		const char *jails[2] = { "proxy", r->site };
		int ports[2] = { 443, 80 };
		char *argv[] = { "sh", "-c", (char *)listen_line, NULL };
		int i;

		for (i = 0; i < 2; i++) {
			struct entered e = { drv, jails[i] };

			buf_clear(&out);
			o.child = enter_jail;
			o.child_arg = &e;
			memset(&l[n], 0, sizeof(l[n]));
			if (process_run(argv, &o, NULL) != 0)
				continue;
			bench_remote_parse_listen(out.ptr, ports[i], &l[n]);
			xsnprintf(l[n].where, sizeof(l[n].where), "%s",
			    i == 0 ? "proxy jail" : "its jail");
			if (drv->ops->log_path != NULL) {
				char *lp = drv->ops->log_path(drv, jails[i]);

				l[n].wc_short = log_short(lp, &l[n].wc);
				free(lp);
			}
			if (l[n].ok)
				n++;
		}
	} else if (t == TGT_OLD && r->against_ssh != NULL) {
		char **av = transport_ssh_argv(r->against_ssh, r->known_hosts,
		    r->identity, listen_line, NULL);

		memset(&l[0], 0, sizeof(l[0]));
		if (av != NULL && process_run(av, &o, NULL) == 0) {
			bench_remote_parse_listen(out.ptr, url_port(r->url[t]),
			    &l[0]);
			xsnprintf(l[0].where, sizeof(l[0].where), "old server");
			if (l[0].ok)
				n = 1;
		}
		transport_argv_free(av);
	}
	buf_release(&out);
	return n;
}

