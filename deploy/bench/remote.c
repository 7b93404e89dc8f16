/*
 * deploy bench --from: wrk on other machines over ssh, all at once, the
 * site and the old server in turn, and the servers' listen queues read
 * around each run (remote.h).
 */
#define _GNU_SOURCE
#include "remote.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "escape.h"
#include "mem.h"
#include "process.h"
#include "transport.h"

/* What a client must have, and what it can take: one line each. */
static const char preflight_line[] =
    "w=$(command -v wrk 2>/dev/null); [ -n \"$w\" ] && [ -x \"$w\" ] && "
    "[ -f \"$w\" ] || echo NOWRK; "
    "c=$(command -v curl 2>/dev/null); [ -n \"$c\" ] && [ -x \"$c\" ] && "
    "[ -f \"$c\" ] || echo NOCURL; "
    "echo \"NCPU $(getconf _NPROCESSORS_ONLN 2>/dev/null)\"; "
    "echo \"NOFILE $(ulimit -n)\"; "
    "if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then "
    "echo \"PORTS $(cat /proc/sys/net/ipv4/ip_local_port_range)\"; else "
    "echo \"PORTS $(sysctl -n net.inet.ip.portrange.first) "
    "$(sysctl -n net.inet.ip.portrange.last)\"; fi";

int
bench_remote_client(struct bench_remote *r, const char *arg, struct diag *d)
{
	const char *eq = strchr(arg, '=');
	struct bench_client *c;
	size_t n, i;

	if (eq == NULL || eq == arg || strncmp(eq + 1, "ssh://", 6) != 0)
		return diag_error(d, NULL, 0, "--from %s: give LABEL=ssh://"
		    "user@host[:port]", arg);
	if (r->nclients == BENCH_REMOTE_MAX_CLIENTS)
		return diag_error(d, NULL, 0, "--from: at most %d clients",
		    BENCH_REMOTE_MAX_CLIENTS);
	n = (size_t)(eq - arg);
	if (n >= sizeof(r->clients[0].label))
		return diag_error(d, NULL, 0, "--from %s: a label of at most "
		    "%zu characters", arg, sizeof(r->clients[0].label) - 1);
	for (i = 0; i < n; i++)
		if (!(arg[i] == '-' || arg[i] == '_' || arg[i] == '.' ||
		    (arg[i] >= '0' && arg[i] <= '9') ||
		    (arg[i] >= 'a' && arg[i] <= 'z') ||
		    (arg[i] >= 'A' && arg[i] <= 'Z')))
			return diag_error(d, NULL, 0, "--from %s: a label of "
			    "letters, digits, '-', '_' and '.'", arg);
	for (i = 0; i < r->nclients; i++)
		if (strlen(r->clients[i].label) == n &&
		    strncmp(r->clients[i].label, arg, n) == 0)
			return diag_error(d, NULL, 0, "--from: client %.*s "
			    "given twice", (int)n, arg);
	/* Checked as any ssh host is (transport_ssh_argv). */
	{
		char **av = transport_ssh_argv(eq + 1, NULL, NULL, "true", d);

		if (av == NULL)
			return -1;
		transport_argv_free(av);
	}
	c = &r->clients[r->nclients++];
	memset(c, 0, sizeof(*c));
	memcpy(c->label, arg, n);
	c->url = xstrdup(eq + 1);
	return 0;
}

int
bench_remote_ladder(struct bench_remote *r, const char *arg, struct diag *d)
{
	const char *p = arg;
	char *end;
	long n;

	r->nsteps = 0;
	while (*p != '\0') {
		errno = 0;
		n = strtol(p, &end, 10);
		if (end == p || errno != 0 || n < 1 ||
		    n > BENCH_REMOTE_MAX_CONNS || (*end != ',' && *end != '\0'))
			return diag_error(d, NULL, 0, "--connections %s: "
			    "numbers 1 to %d, comma-separated", arg,
			    BENCH_REMOTE_MAX_CONNS);
		if (r->nsteps == BENCH_REMOTE_MAX_STEPS)
			return diag_error(d, NULL, 0, "--connections: at most "
			    "%d steps", BENCH_REMOTE_MAX_STEPS);
		r->steps[r->nsteps++].conns = (int)n;
		p = *end == ',' ? end + 1 : end;
	}
	if (r->nsteps == 0)
		return diag_error(d, NULL, 0, "--connections: none given");
	return 0;
}

/* ---- parsing what a client sends back ---- */

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	if (n <= 0)
		return -1;
	xqsort(v, (size_t)n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "1m2.5s": seconds, or -1. */
static double
clock_word(const char *w)
{
	double m, s;

	if (sscanf(w, "%lfm%lfs", &m, &s) != 2)
		return -1;
	return m * 60 + s;
}

int
bench_remote_parse(const char *out, int threads, struct bench_cell *c)
{
	const char *p = strstr(out, "WRKSUM ");
	long long dur, bytes, p50, p99, p90, mx;
	double ph[BENCH_REMOTE_SAMPLES * 4][5];
	double v[BENCH_REMOTE_SAMPLES * 4];
	int nph = 0, i, k;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	c->dns_ms = c->connect_ms = c->tls_ms = c->ttfb_ms = c->transfer_ms
	    = -1;
	if (p == NULL || sscanf(p + 7, "%lld %lld %lld %lld %lld %lld %lld "
	    "%lld %lld %lld %lld %lld", &dur, &c->requests, &bytes,
	    &c->connect_err, &c->read_err, &c->write_err, &c->bad_status,
	    &c->timeouts, &p50, &p99, &p90, &mx) != 12 || dur <= 0)
		return -1;
	c->ran = 1;
	c->seconds = (double)dur / 1e6;
	c->rps = (double)(c->requests - c->bad_status) / c->seconds;
	c->p50_ms = (double)p50 / 1000;
	c->p90_ms = (double)p90 / 1000;
	c->p99_ms = (double)p99 / 1000;
	c->max_ms = (double)mx / 1000;
	/* curl -w: lookup, connect, TLS done, first byte, total (s), code */
	for (p = strstr(out, "PHASE "); p != NULL && nph <
	    BENCH_REMOTE_SAMPLES * 4; p = strstr(p + 1, "PHASE ")) {
		double *x = ph[nph];
		int code;

		if (sscanf(p + 6, "%lf %lf %lf %lf %lf %d", &x[0], &x[1],
		    &x[2], &x[3], &x[4], &code) != 6)
			continue;
		if (code < 200 || code >= 400) {
			c->phase_fail++;
			continue;
		}
		nph++;
	}
	c->nphase = nph;
	for (k = 0; k < 5 && nph > 0; k++) {
		double *dst[] = { &c->dns_ms, &c->connect_ms, &c->tls_ms,
		    &c->ttfb_ms, &c->transfer_ms };

		/* Each phase as its own length: curl's times are from the
		 * start; TLS is 0 over plain HTTP. */
		for (i = 0; i < nph; i++) {
			double prev = k == 0 ? 0 : ph[i][k - 1];

			if (k == 2 && ph[i][2] == 0)
				v[i] = 0;
			else if (k == 3 && ph[i][2] == 0)
				v[i] = ph[i][3] - ph[i][1];
			else
				v[i] = ph[i][k] - prev;
			v[i] *= 1000;
			if (v[i] < 0)
				v[i] = 0;
		}
		*dst[k] = median(v, nph);
	}
	/* `times`, its second line: the CPU of the shell's children. */
	if ((p = strstr(out, "TIMES\n")) != NULL &&
	    (p = strchr(p + 6, '\n')) != NULL) {
		char u[32], s[32];

		if (sscanf(p + 1, "%31s %31s", u, s) == 2 &&
		    clock_word(u) >= 0 && clock_word(s) >= 0 && threads > 0)
			c->cpu = (clock_word(u) + clock_word(s)) /
			    (c->seconds * threads);
	}
	return 0;
}

/* ---- the clients ---- */

struct job {
	struct bench_remote	*r;
	size_t			 client;
	char			**argv;
	const char		*input;
	int			 timeout;
	struct buf		 out;
	struct process_result	 res;
	int			 rc;
	atomic_int		 done;
};

static void *
job_run(void *arg)
{
	struct job *j = arg;
	struct process_opts o;

	memset(&o, 0, sizeof(o));
	o.out = &j->out;
	o.input = j->input;
	o.inlen = j->input != NULL ? strlen(j->input) : 0;
	o.timeout = j->timeout;
	j->rc = process_run(j->argv, &o, &j->res);
	atomic_store(&j->done, 1);
	return NULL;
}

/* Runs jobs[0..n) at once; a live line on stderr when asked. */
static void
run_jobs(struct bench_remote *r, struct job *jobs, size_t n,
    const char *what, int seconds)
{
	pthread_t th[BENCH_REMOTE_MAX_CLIENTS];
	int started[BENCH_REMOTE_MAX_CLIENTS];
	struct timespec t0, now, nap = { 0, 250000000 };
	size_t i, left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		atomic_store(&jobs[i].done, 0);
		started[i] = pthread_create(&th[i], NULL, job_run,
		    &jobs[i]) == 0;
		if (!started[i]) {
			jobs[i].rc = -1;
			atomic_store(&jobs[i].done, 1);
		}
	}
	do {
		left = 0;
		for (i = 0; i < n; i++)
			left += !atomic_load(&jobs[i].done);
		if (r->progress) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			fprintf(stderr, "\r\033[K%s %lds/%ds:", what,
			    (long)(now.tv_sec - t0.tv_sec), seconds);
			for (i = 0; i < n; i++)
				fprintf(stderr, " %s %s",
				    r->clients[jobs[i].client].label,
				    !atomic_load(&jobs[i].done) ? "loading" :
				    jobs[i].rc == 0 ? "done" : "failed");
			fflush(stderr);
		}
		if (left > 0)
			nanosleep(&nap, NULL);
	} while (left > 0);
	if (r->progress)
		fputs("\r\033[K", stderr);
	for (i = 0; i < n; i++)
		if (started[i])
			pthread_join(th[i], NULL);
}

/* The last line of out that says something, for messages. */
static void
last_words(const struct buf *out, struct buf *b)
{
	const char *p = out->ptr, *end = out->ptr + out->len;
	const char *s;

	while (end > p && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (s = end; s > p && s[-1] != '\n'; s--)
		;
	if (end > s)
		buf_add(b, s, (size_t)(end - s));
	else
		buf_adds(b, "no output");
}

static int
preflight(struct bench_remote *r, struct diag *d)
{
	struct job jobs[BENCH_REMOTE_MAX_CLIENTS];
	size_t i;
	int rc = 0;

	memset(jobs, 0, sizeof(jobs));
	for (i = 0; i < r->nclients; i++) {
		jobs[i].r = r;
		jobs[i].client = i;
		jobs[i].timeout = 30;
		jobs[i].argv = transport_ssh_argv(r->clients[i].url,
		    r->known_hosts, r->identity, preflight_line, d);
		if (jobs[i].argv == NULL)
			return -1;
	}
	run_jobs(r, jobs, r->nclients, "checking the clients", 0);
	for (i = 0; i < r->nclients; i++) {
		struct bench_client *c = &r->clients[i];
		const char *p, *o = jobs[i].out.ptr;
		long lo, hi;

		if (jobs[i].rc != 0) {
			struct buf w = BUF_INIT;

			last_words(&jobs[i].out, &w);
			diag_error(d, NULL, 0, "client %s (%s) cannot be "
			    "reached over ssh: %s", c->label, c->url, w.ptr);
			buf_release(&w);
			rc = -1;
		} else if (strstr(o, "NOWRK") != NULL ||
		    strstr(o, "NOCURL") != NULL) {
			diag_error(d, NULL, 0, "client %s (%s) has no %s%s%s: "
			    "install it there (Debian: apt install%s%s; "
			    "FreeBSD: pkg install%s%s)", c->label, c->url,
			    strstr(o, "NOWRK") ? "wrk" : "",
			    strstr(o, "NOWRK") && strstr(o, "NOCURL") ?
			    " and no " : "", strstr(o, "NOCURL") ? "curl" : "",
			    strstr(o, "NOWRK") ? " wrk" : "",
			    strstr(o, "NOCURL") ? " curl" : "",
			    strstr(o, "NOWRK") ? " wrk" : "",
			    strstr(o, "NOCURL") ? " curl" : "");
			rc = -1;
		}
		if ((p = strstr(o, "NCPU ")) != NULL)
			c->ncpu = atoi(p + 5);
		if ((p = strstr(o, "NOFILE ")) != NULL)
			c->nofile = atol(p + 7);
		if ((p = strstr(o, "PORTS ")) != NULL &&
		    sscanf(p + 6, "%ld %ld", &lo, &hi) == 2 && hi >= lo)
			c->ports = hi - lo + 1;
		transport_argv_free(jobs[i].argv);
		buf_release(&jobs[i].out);
	}
	return rc;
}

int
bench_remote_timeout(int seconds)
{
	int t = seconds - 2;

	return t < 1 ? 1 : t > 5 ? 5 : t;
}

/* The remote line of one run: the script on stdin into a file, curl's
 * single requests beside wrk, then wrk's CPU (times). */
static void
run_line(struct buf *b, const char *url, int conns, int threads,
    int seconds)
{
	double gap = (double)seconds / (BENCH_REMOTE_SAMPLES + 1);

	buf_adds(b, "s=$(mktemp) || exit 1; cat > \"$s\"; ( ");
	buf_printf(b, "sleep %.1f; i=0; while [ $i -lt %d ]; do ", gap,
	    BENCH_REMOTE_SAMPLES);
	buf_adds(b, "curl -k -s -o /dev/null -m 10 -H 'Accept-Encoding: "
	    BENCH_ACCEPT_ENCODING "' -w 'PHASE %{time_namelookup} "
	    "%{time_connect} %{time_appconnect} %{time_starttransfer} "
	    "%{time_total} %{http_code}\\n' ");
	esc_shell(b, url, strlen(url));
	buf_printf(b, "; i=$((i + 1)); sleep %.1f; done ) & ", gap);
	/* wrk counts a request as timed out only when it checks, every 2 s:
	 * a timeout under the run's length makes a request that is never
	 * answered count, not vanish when the run ends. */
	buf_printf(b, "wrk -t%d -c%d -d%ds --timeout %ds -s \"$s\" -H "
	    "'Accept-Encoding: " BENCH_ACCEPT_ENCODING "' ", threads, conns,
	    seconds, bench_remote_timeout(seconds));
	esc_shell(b, url, strlen(url));
	buf_adds(b, "; rc=$?; wait; rm -f \"$s\"; echo TIMES; times; "
	    "exit $rc");
}

static const char *const tgt_name[TGT_N] = { "new", "old" };

/* The step's connections shared out: client k of n active. */
static int
share(int conns, int k, int n)
{
	int c = conns / n + (k < conns % n);

	return c > 0 ? c : 1;
}

/* What a client ran out of at c connections, or NULL. */
static const char *
client_limit(const struct bench_client *cl, const struct bench_cell *c,
    int conns)
{
	if (cl->nofile > 0 && conns + 16 > cl->nofile)
		return "open files";
	if (cl->ports > 0 && conns > cl->ports)
		return "ephemeral ports";
	if (c->cpu >= 0.9)
		return "CPU";
	return NULL;
}

static void
one_run(struct bench_remote *r, struct bench_step *st, int t, int round,
    struct diag *d)
{
	struct job jobs[BENCH_REMOTE_MAX_CLIENTS];
	size_t idx[BENCH_REMOTE_MAX_CLIENTS];
	int threads[BENCH_REMOTE_MAX_CLIENTS], conns[BENCH_REMOTE_MAX_CLIENTS];
	char what[96];
	struct buf line = BUF_INIT;
	size_t i, n = 0;
	int k;

	for (i = 0; i < r->nclients; i++)
		if (!r->clients[i].gone)
			idx[n++] = i;
	if (n == 0)
		return;
	xsnprintf(what, sizeof(what), "%s, %d connections, round %d of %d",
	    tgt_name[t], st->conns, round + 1, r->rounds);
	memset(jobs, 0, sizeof(jobs));
	for (k = 0; k < (int)n; k++) {
		const struct bench_client *c = &r->clients[idx[k]];
		int cpus = c->ncpu > 0 ? c->ncpu : 2;

		conns[k] = share(st->conns, k, (int)n);
		threads[k] = conns[k] < cpus ? conns[k] : cpus;
		if (threads[k] > 4)
			threads[k] = 4;
		buf_clear(&line);
		run_line(&line, r->url[t], conns[k], threads[k], r->seconds);
		jobs[k].r = r;
		jobs[k].client = idx[k];
		jobs[k].input = r->script.ptr;
		jobs[k].timeout = r->seconds + BENCH_REMOTE_GRACE;
		jobs[k].argv = transport_ssh_argv(c->url, r->known_hosts,
		    r->identity, line.ptr, d);
		if (jobs[k].argv == NULL) {
			buf_release(&line);
			return;
		}
	}
	run_jobs(r, jobs, n, what, r->seconds);
	for (k = 0; k < (int)n; k++) {
		struct bench_client *c = &r->clients[idx[k]];
		struct bench_cell *cell = &st->cell[t][round][idx[k]];
		const char *lim;

		if (bench_remote_parse(jobs[k].out.ptr, threads[k],
		    cell) == 0) {
			if ((lim = client_limit(c, cell, conns[k])) != NULL)
				xsnprintf(cell->limited, sizeof(cell->limited),
				    "%s", lim);
		} else {
			struct buf w = BUF_INIT;

			/* ssh says 255 when the connection went; a run that
			 * did not end in time is gone as well. */
			last_words(&jobs[k].out, &w);
			if (jobs[k].rc == 255 || jobs[k].res.timed_out ||
			    jobs[k].res.signal != 0) {
				c->gone = 1;
				xsnprintf(c->gone_at, sizeof(c->gone_at), "%s",
				    what);
				diag_error(d, NULL, 0, "client %s (%s) went "
				    "away during %s: %s; its runs until then "
				    "and the other clients' are kept", c->label,
				    c->url, what, w.ptr);
			} else
				diag_error(d, NULL, 0, "client %s: wrk against "
				    "%s (%s) failed: %s", c->label, r->url[t],
				    what, w.ptr);
			buf_release(&w);
		}
		transport_argv_free(jobs[k].argv);
		buf_release(&jobs[k].out);
	}
	buf_release(&line);
}

int
bench_remote_run(struct bench_remote *r, struct driver *drv, struct diag *d)
{
	size_t s, i;
	int t, round, rc = 0;

	if (r->nclients == 0 || r->nsteps == 0 || r->url[TGT_NEW] == NULL)
		return diag_error(d, NULL, 0, "bench: nothing to run");
	if (preflight(r, d) == -1)
		return -1;
	for (s = 0; s < r->nsteps; s++) {
		struct bench_step *st = &r->steps[s];

		for (round = 0; round < r->rounds; round++) {
			/* A, B, A, B: drift in the network hits both. */
			for (t = 0; t < TGT_N; t++) {
				struct bench_listen before[2], after[2];
				int nb, na;

				if (r->url[t] == NULL)
					continue;
				nb = bench_remote_read_listen(r, drv, t, before);
				one_run(r, st, t, round, d);
				na = bench_remote_read_listen(r, drv, t, after);
				for (i = 0; i < (size_t)na &&
				    i < (size_t)nb; i++) {
					long long dl = after[i].overflows -
					    before[i].overflows;
					long long dw = after[i].wc_short -
					    before[i].wc_short;

					if (dl < 0)
						dl = 0;
					if (dw < 0 || before[i].wc_short < 0)
						dw = 0;
					/* The reading that overflowed most
					 * speaks for the target. */
					if (i == 0 || dl > 0 || dw > 0)
						st->srv[t] = after[i];
					st->overflows[t] += dl;
					st->wc_short[t] += dw;
				}
			}
		}
		for (t = 0; t < TGT_N; t++)
			if (r->url[t] != NULL)
				bench_remote_cause(r, st, t);
	}
	for (i = 0; i < r->nclients; i++)
		if (r->clients[i].gone)
			rc = -1;
	return rc;
}

void
bench_remote_release(struct bench_remote *r)
{
	size_t i;

	for (i = 0; i < r->nclients; i++)
		free(r->clients[i].url);
	for (i = 0; i < TGT_N; i++)
		free(r->url[i]);
	buf_release(&r->script);
}
