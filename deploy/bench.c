#define _GNU_SOURCE
#include "bench.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "health.h"
#include "mem.h"
#include "proc.h"

/* wrk prints this line from its done() hook; parsed below. */
static const char wrk_lua[] =
    "done = function(summary, latency, requests)\n"
    "  io.write(string.format(\"WRKSUM %d %d %d %d %d %d %d %d %d %d\\n\",\n"
    "    summary.duration, summary.requests, summary.bytes,\n"
    "    summary.errors.connect, summary.errors.read, summary.errors.write,\n"
    "    summary.errors.status, summary.errors.timeout,\n"
    "    latency:percentile(50), latency:percentile(99)))\n"
    "end\n";

enum how {
	VIA_PROXY,	/* from the host, names resolved to the host port */
	IN_PROXY_JAIL	/* from inside the proxy jail, at the site */
};

struct run {
	enum how	 how;
	const char	*url;
	const char	*host_header;	/* IN_PROXY_JAIL */
	const char	*hosts_file;	/* VIA_PROXY: bound over /etc/hosts */
	const char	*script;
	int		 conns;
	int		 seconds;
};

/* A run is killed when it has not ended this long after its time. */
#define WRK_GRACE	20

/* The stock nginx of one bench, in a namespace of its own. */
struct stock {
	char		 ns[96];	/* "" when not created */
	char		 veth[16];
	char		 addr[16];
	char		*dir;		/* config, pid file, logs */
	pid_t		 pid;		/* its master, our child */
};

static int
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

/* Runs wrk in a child placed as the run asks; its output into out. */
static int
run_wrk(struct driver *drv, const struct run *r, struct buf *out)
{
	char conns[16], dur[16], hdr[300];
	int fds[2], st, killed = 0;
	time_t deadline;
	pid_t pid;
	ssize_t n;
	char chunk[4096];

	snprintf(conns, sizeof(conns), "%d", r->conns);
	snprintf(dur, sizeof(dur), "%ds", r->seconds);
	if (pipe(fds) == -1)
		return -1;
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		char *argv[16];
		int i = 0;

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		if (r->how == IN_PROXY_JAIL) {
			if (drv->ops->enter(drv, "proxy") == -1)
				_exit(126);
		} else {
			/* The right server name (SNI, Host) without touching
			 * the host's resolver: a private /etc/hosts. */
			if (unshare(CLONE_NEWNS) == -1 ||
			    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
			    NULL) == -1 ||
			    mount(r->hosts_file, "/etc/hosts", NULL, MS_BIND,
			    NULL) == -1) {
				fprintf(stderr, "private /etc/hosts: %s\n",
				    strerror(errno));
				_exit(126);
			}
		}
		argv[i++] = "wrk";
		argv[i++] = "-t4";
		argv[i++] = "-c";
		argv[i++] = conns;
		argv[i++] = "-d";
		argv[i++] = dur;
		argv[i++] = "--timeout";
		argv[i++] = "5s";
		argv[i++] = "-s";
		argv[i++] = (char *)r->script;
		if (r->host_header != NULL) {
			snprintf(hdr, sizeof(hdr), "Host: %s", r->host_header);
			argv[i++] = "-H";
			argv[i++] = hdr;
		}
		argv[i++] = (char *)r->url;
		argv[i] = NULL;
		execvp(argv[0], argv);
		fprintf(stderr, "wrk: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	deadline = time(NULL) + r->seconds + WRK_GRACE;
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		time_t left = deadline - time(NULL);

		if (left <= 0) {
			kill(pid, SIGKILL);
			buf_printf(out, "\n(killed: still running %d s after "
			    "its time)\n", WRK_GRACE);
			killed = 1;
			break;
		}
		if (poll(&pfd, 1, (int)left * 1000) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
			buf_add(out, chunk, (size_t)n);
		else if (n == 0 || errno != EINTR)
			break;
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	return !killed && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int
parse_wrk(const char *out, struct bench_row *row)
{
	const char *p = strstr(out, "WRKSUM ");
	long long dur, req, bytes, ec, er, ew, es, et, p50, p99;

	if (p == NULL || sscanf(p + 7, "%lld %lld %lld %lld %lld %lld %lld "
	    "%lld %lld %lld", &dur, &req, &bytes, &ec, &er, &ew, &es, &et,
	    &p50, &p99) != 10 || dur <= 0)
		return -1;
	row->rps = (double)req / ((double)dur / 1e6);
	row->bytes_per_s = (double)bytes / ((double)dur / 1e6);
	row->p50_ms = (double)p50 / 1000.0;
	row->p99_ms = (double)p99 / 1000.0;
	row->errors = (long)(ec + er + ew + es + et);
	return 0;
}

static void
add_row(struct bench_result *r, const struct bench_row *row)
{
	r->rows = xrealloc(r->rows, (r->n + 1) * sizeof(*r->rows));
	r->rows[r->n++] = *row;
}

/* The highest address of the subnet no jail, nor the bridge, uses. */
static uint32_t
free_addr(const struct spec *s)
{
	uint32_t size = s->net.prefix >= 31 ? 0 :
	    (uint32_t)1 << (32 - s->net.prefix);
	uint32_t a;
	size_t i;

	for (a = s->net.net + size - 2; size > 0 && a > s->net.net; a--) {
		if (a == s->net.gateway || a == s->net.proxy)
			continue;
		for (i = 0; i < s->nsites; i++)
			if (s->sites[i].addr == a)
				break;
		if (i == s->nsites)
			return a;
	}
	return 0;
}

/*
 * Debian's stock /etc/nginx/nginx.conf with sites-available/default, as
 * installed: only the paths are this bench's, and TLS lines, unused
 * here, are left out.
 */
static void
stock_conf(struct buf *out, const struct spec *s, const struct spec_site *site,
    const struct stock *st)
{
	buf_printf(out,
	    "# The distribution's stock settings, for comparison.\n"
	    "user %s;\n"
	    "worker_processes auto;\n"
	    "pid %s/nginx.pid;\n"
	    "error_log %s/error.log;\n"
	    "events {\n"
	    "\tworker_connections 768;\n"
	    "}\n"
	    "http {\n"
	    "\tsendfile on;\n"
	    "\ttcp_nopush on;\n"
	    "\ttypes_hash_max_size 2048;\n"
	    "\tinclude /etc/nginx/mime.types;\n"
	    "\tdefault_type application/octet-stream;\n"
	    "\taccess_log %s/access.log;\n"
	    "\tgzip on;\n"
	    "\tclient_body_temp_path %s/tmp;\n"
	    "\tproxy_temp_path %s/tmp;\n"
	    "\tfastcgi_temp_path %s/tmp;\n"
	    "\tuwsgi_temp_path %s/tmp;\n"
	    "\tscgi_temp_path %s/tmp;\n"
	    "\tserver {\n"
	    "\t\tlisten %s:80 default_server;\n"
	    "\t\troot %s/%s/current;\n"
	    "\t\tindex index.html index.htm index.nginx-debian.html;\n"
	    "\t\tserver_name _;\n"
	    "\t\tlocation / {\n"
	    "\t\t\ttry_files $uri $uri/ =404;\n"
	    "\t\t}\n"
	    "\t}\n"
	    "}\n", s->user, st->dir, st->dir, st->dir, st->dir, st->dir,
	    st->dir, st->dir, st->dir, st->addr, s->releases.root, site->name);
}

static void
stock_stop(struct stock *st)
{
	struct timespec ts = { 0, 100000000 };
	int i, status;

	if (st->pid > 0) {
		/* QUIT: the workers finish and go with the master. */
		kill(st->pid, SIGQUIT);
		for (i = 0; i < 50; i++) {
			if (waitpid(st->pid, &status, WNOHANG) != 0)
				break;
			nanosleep(&ts, NULL);
		}
		if (i == 50) {
			kill(st->pid, SIGKILL);
			waitpid(st->pid, &status, 0);
		}
		st->pid = 0;
	}
	if (st->ns[0] != '\0') {
		char *del[] = { "ip", "netns", "delete", st->ns, NULL };
		char *link[] = { "ip", "link", "delete", st->veth, NULL };

		proc_must(NULL, del);
		proc_must(NULL, link);
		st->ns[0] = '\0';
	}
}

/* Starts the stock nginx for site; st->pid > 0 once it listens. 0/-1. */
static int
stock_start(const struct spec *s, const struct spec_site *site,
    const char *dir, struct stock *st, struct diag *d)
{
	struct buf conf = BUF_INIT, path = BUF_INIT, text = BUF_INIT;
	char cidr[24], mac[18];
	uint32_t a = free_addr(s);
	struct stat sb;
	int i, status, rc = -1;

	if (a == 0) {
		diag_error(d, s->file, s->net.subnet_line, "bench: no free "
		    "address in %s for the stock nginx", s->net.subnet_str);
		return -1;
	}
	spec_ntoa(a, st->addr);
	snprintf(cidr, sizeof(cidr), "%s/%d", st->addr, s->net.prefix);
	snprintf(mac, sizeof(mac), "02:de:%02x:%02x:%02x:%02x", a >> 24,
	    (a >> 16) & 255, (a >> 8) & 255, a & 255);
	snprintf(st->veth, sizeof(st->veth), "dbs%ld",
	    (long)getpid() % 100000000L);
	buf_printf(&path, "%s/stock", dir);
	st->dir = buf_detach(&path, NULL);
	buf_printf(&path, "%s/tmp", st->dir);
	if (mkdir(st->dir, 0755) == -1 || mkdir(path.ptr, 0700) == -1) {
		diag_error(d, st->dir, 0, "mkdir: %s", strerror(errno));
		goto out;
	}
	{
		char *flush[] = { "ip", "neigh", "flush", "to", st->addr,
		    "dev", s->net.bridge, NULL };

		proc_must(NULL, flush);
	}
	snprintf(st->ns, sizeof(st->ns), "%s-stock-nginx-%ld", s->name,
	    (long)getpid());
	{
		char *add[] = { "ip", "netns", "add", st->ns, NULL };
		char *veth[] = { "ip", "link", "add", st->veth, "type",
		    "veth", "peer", "name", "eth0", "address", mac, "netns",
		    st->ns, NULL };
		char *master[] = { "ip", "link", "set", st->veth, "master",
		    s->net.bridge, "up", NULL };
		char *addr[] = { "ip", "-n", st->ns, "addr", "add", cidr,
		    "dev", "eth0", NULL };
		char *up[] = { "ip", "-n", st->ns, "link", "set", "eth0", "up",
		    NULL };
		char *lo[] = { "ip", "-n", st->ns, "link", "set", "lo", "up",
		    NULL };

		if (proc_must(d, add) == -1) {
			st->ns[0] = '\0';
			goto out;
		}
		if (proc_must(d, veth) == -1 || proc_must(d, master) == -1 ||
		    proc_must(d, addr) == -1 || proc_must(d, up) == -1 ||
		    proc_must(d, lo) == -1)
			goto out;
	}
	/* The site jail's firewall too: the same per-packet work. */
	buf_clear(&path);
	buf_printf(&path, "%s/sites/%s/jail.nft", s->state, site->name);
	{
		char *nft[] = { "ip", "netns", "exec", st->ns, "nft", "-f",
		    path.ptr, NULL };

		if (proc_must(d, nft) == -1)
			goto out;
	}
	buf_clear(&path);
	buf_printf(&path, "%s/nginx.conf", st->dir);
	stock_conf(&conf, s, site, st);
	if (write_file(path.ptr, conf.ptr) == -1) {
		diag_error(d, path.ptr, 0, "%s", strerror(errno));
		goto out;
	}
	if ((st->pid = fork()) == -1) {
		st->pid = 0;
		diag_error(d, NULL, 0, "fork: %s", strerror(errno));
		goto out;
	}
	if (st->pid == 0) {
		char *argv[] = { "ip", "netns", "exec", st->ns, "nginx", "-p",
		    st->dir, "-c", path.ptr, "-e", NULL, "-g", "daemon off;",
		    NULL };
		int fd;

		buf_printf(&text, "%s/error.log", st->dir);
		argv[10] = text.ptr;
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	/* It listens once its pid file is written. */
	buf_clear(&path);
	buf_printf(&path, "%s/nginx.pid", st->dir);
	for (i = 0; i < 100; i++) {
		struct timespec ts = { 0, 50000000 };

		if (stat(path.ptr, &sb) == 0 && sb.st_size > 0) {
			rc = 0;
			goto out;
		}
		if (waitpid(st->pid, &status, WNOHANG) == st->pid) {
			st->pid = 0;
			break;
		}
		nanosleep(&ts, NULL);
	}
	buf_clear(&text);
	buf_printf(&text, "%s/error.log", st->dir);
	diag_error(d, text.ptr, 0, "bench: the stock nginx did not start");
out:
	buf_release(&conf);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

/* The direct run r again, at the stock nginx: fills row's stock_*. */
static int
stock_run(struct driver *drv, const struct run *r, const struct stock *st,
    struct bench_row *row, struct buf *out, struct diag *d)
{
	struct run again = *r;
	struct bench_row srow;
	struct buf url = BUF_INIT;
	int rc = 0;

	memset(&srow, 0, sizeof(srow));
	buf_printf(&url, "http://%s/", st->addr);
	again.url = url.ptr;
	buf_clear(out);
	fprintf(stderr, "bench %s stock-nginx %d connections...\n", row->site,
	    row->conns);
	if (run_wrk(drv, &again, out) == -1 || parse_wrk(out->ptr,
	    &srow) == -1) {
		diag_error(d, NULL, 0, "wrk %s (stock nginx, %d connections) "
		    "failed: %s", url.ptr, row->conns, out->ptr);
		rc = -1;
	} else {
		row->stock_rps = srow.rps;
		row->stock_p99_ms = srow.p99_ms;
		row->stock_errors = srow.errors;
	}
	buf_release(&url);
	return rc;
}

static int
bench_site(struct driver *drv, const struct spec_site *site,
    const struct bench_opts *o, const char *dir, struct bench_result *res,
    struct diag *d)
{
	const struct spec *s = drv->spec;
	static const int conns[] = { 10, 50 };
	struct buf hosts = BUF_INIT, script = BUF_INIT, url = BUF_INIT;
	struct buf out = BUF_INIT, text = BUF_INIT;
	struct stock st;
	char a443[16], a80[16];
	int p443, p80, rc = 0;
	size_t c, k;

	memset(&st, 0, sizeof(st));

	if (health_entry(s, 443, a443, &p443) == -1 ||
	    health_entry(s, 80, a80, &p80) == -1) {
		diag_error(d, s->file, 0, "network.ports: the proxy's 80 and "
		    "443 must both be reachable from the host to bench");
		return -1;
	}
	buf_printf(&script, "%s/summary.lua", dir);
	buf_printf(&hosts, "%s/hosts", dir);
	buf_printf(&text, "127.0.0.1 localhost\n%s %s\n", a443,
	    site->domains[0]);
	if (write_file(script.ptr, wrk_lua) == -1 ||
	    write_file(hosts.ptr, text.ptr) == -1) {
		diag_error(d, dir, 0, "%s", strerror(errno));
		rc = -1;
		goto out;
	}
	fprintf(stderr, "bench %s: starting nginx with the stock "
	    "settings...\n", site->name);
	if (stock_start(s, site, dir, &st, d) == -1)
		rc = -1;
	for (k = 0; k < 3; k++) {
		for (c = 0; c < 2; c++) {
			struct run r;
			struct bench_row row;

			memset(&r, 0, sizeof(r));
			memset(&row, 0, sizeof(row));
			buf_clear(&url);
			buf_clear(&out);
			r.script = script.ptr;
			r.conns = conns[c];
			r.seconds = o->quick ? 3 : 10;
			r.hosts_file = hosts.ptr;
			if (k == 0) {
				buf_printf(&url, "https://%s:%d/",
				    site->domains[0], p443);
				snprintf(row.path, sizeof(row.path),
				    "proxy-https");
			} else if (k == 1) {
				/* Answered with the redirect to HTTPS. */
				buf_printf(&url, "http://%s:%d/",
				    site->domains[0], p80);
				snprintf(row.path, sizeof(row.path),
				    "proxy-http");
			} else {
				r.how = IN_PROXY_JAIL;
				r.host_header = site->domains[0];
				buf_printf(&url, "http://%s/", site->addr_str);
				snprintf(row.path, sizeof(row.path),
				    "direct-http");
			}
			r.url = url.ptr;
			snprintf(row.site, sizeof(row.site), "%s", site->name);
			row.conns = conns[c];
			fprintf(stderr, "bench %s %s %d connections...\n",
			    site->name, row.path, row.conns);
			if (run_wrk(drv, &r, &out) == -1 ||
			    parse_wrk(out.ptr, &row) == -1) {
				diag_error(d, NULL, 0, "wrk %s (%s, %d "
				    "connections) failed: %s", url.ptr,
				    row.path, row.conns, out.ptr);
				rc = -1;
				continue;
			}
			if (k == 2 && st.pid > 0 && stock_run(drv, &r, &st,
			    &row, &out, d) == -1)
				rc = -1;
			add_row(res, &row);
		}
	}
out:
	stock_stop(&st);
	if (st.dir != NULL) {
		struct buf p = BUF_INIT;
		static const char *const files[] = { "nginx.conf",
		    "nginx.pid", "error.log", "access.log", NULL };

		for (k = 0; files[k] != NULL; k++) {
			buf_clear(&p);
			buf_printf(&p, "%s/%s", st.dir, files[k]);
			unlink(p.ptr);
		}
		buf_clear(&p);
		buf_printf(&p, "%s/tmp", st.dir);
		rmdir(p.ptr);
		rmdir(st.dir);
		buf_release(&p);
		free(st.dir);
	}
	unlink(script.ptr);
	unlink(hosts.ptr);
	buf_release(&hosts);
	buf_release(&script);
	buf_release(&url);
	buf_release(&out);
	buf_release(&text);
	return rc;
}

int
bench_run(struct driver *drv, const char *site, const struct bench_opts *o,
    struct bench_result *r, struct diag *d)
{
	const struct spec *s = drv->spec;
	char dir[] = "/tmp/deploy-bench.XXXXXX";
	size_t i;
	int rc = 0;

	if (drv->ops->enter == NULL) {
		diag_error(d, NULL, 0, "bench: not on this platform yet");
		return -1;
	}
	if (mkdtemp(dir) == NULL) {
		diag_error(d, dir, 0, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < s->nsites; i++) {
		if (site != NULL && strcmp(site, s->sites[i].name) != 0)
			continue;
		if (bench_site(drv, &s->sites[i], o, dir, r, d) == -1)
			rc = -1;
	}
	rmdir(dir);
	if (rc == 0 && o->compare != NULL)
		rc = bench_compare(r, o->compare, d);
	return rc;
}

int
bench_compare(struct bench_result *r, const char *path, struct diag *d)
{
	struct buf text = BUF_INIT;
	char chunk[4096];
	const char *p;
	size_t n, i;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		diag_error(d, path, 0, "%s", strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&text, chunk, n);
	fclose(fp);
	/* Our own format: one run object per line. */
	for (p = strstr(text.ptr, "{\"site\": "); p != NULL;
	    p = strstr(p + 1, "{\"site\": ")) {
		char site[40], path_[16];
		int conns;
		double rps;

		if (sscanf(p, "{\"site\": \"%39[^\"]\", \"path\": \"%15[^\"]\", "
		    "\"connections\": %d, \"requests_per_s\": %lf", site, path_,
		    &conns, &rps) != 4)
			continue;
		for (i = 0; i < r->n; i++)
			if (strcmp(r->rows[i].site, site) == 0 &&
			    strcmp(r->rows[i].path, path_) == 0 &&
			    r->rows[i].conns == conns)
				r->rows[i].before_rps = rps;
	}
	buf_release(&text);
	return 0;
}

static void
human_bytes(char *out, size_t n, double v)
{
	if (v >= 1048576)
		snprintf(out, n, "%.1f MB/s", v / 1048576);
	else
		snprintf(out, n, "%.1f KB/s", v / 1024);
}

void
bench_table(const struct bench_result *r, struct buf *out)
{
	size_t i;

	buf_printf(out, "%-12s %-12s %5s %10s %8s %8s %7s %12s %8s %10s "
	    "%8s\n", "site", "path", "conns", "req/s", "p50 ms", "p99 ms",
	    "errors", "transfer/s", "change", "stock r/s", "/stock");
	for (i = 0; i < r->n; i++) {
		const struct bench_row *w = &r->rows[i];
		char tr[32], ch[16] = "", srps[16] = "", ratio[16] = "";

		human_bytes(tr, sizeof(tr), w->bytes_per_s);
		if (w->before_rps > 0)
			snprintf(ch, sizeof(ch), "%+.1f%%", 100.0 *
			    (w->rps - w->before_rps) / w->before_rps);
		if (w->stock_rps > 0) {
			snprintf(srps, sizeof(srps), "%.0f", w->stock_rps);
			snprintf(ratio, sizeof(ratio), "%.2fx",
			    w->rps / w->stock_rps);
		}
		buf_printf(out, "%-12s %-12s %5d %10.0f %8.2f %8.2f %7ld %12s "
		    "%8s %10s %8s\n", w->site, w->path, w->conns, w->rps,
		    w->p50_ms, w->p99_ms, w->errors, tr, ch, srps, ratio);
	}
	for (i = 0; i < r->n; i++)
		if (r->rows[i].stock_rps > 0) {
			buf_adds(out, "stock r/s: the same direct runs against "
			    "nginx with the distribution's stock nginx.conf, "
			    "behind the same firewall; /stock: req/s of the "
			    "site's nginx / stock\n");
			break;
		}
}

void
bench_json(const struct bench_result *r, struct buf *out)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(out, "{\"date\": \"%s\", \"runs\": [\n", when);
	for (i = 0; i < r->n; i++) {
		const struct bench_row *w = &r->rows[i];

		buf_adds(out, "{\"site\": \"");
		esc_json(out, w->site, strlen(w->site));
		buf_printf(out, "\", \"path\": \"%s\", \"connections\": %d, "
		    "\"requests_per_s\": %.1f, \"p50_ms\": %.3f, "
		    "\"p99_ms\": %.3f, \"errors\": %ld, \"bytes_per_s\": %.0f",
		    w->path, w->conns, w->rps, w->p50_ms, w->p99_ms, w->errors,
		    w->bytes_per_s);
		if (w->before_rps > 0)
			buf_printf(out, ", \"before_requests_per_s\": %.1f",
			    w->before_rps);
		if (w->stock_rps > 0)
			buf_printf(out, ", \"stock_requests_per_s\": %.1f, "
			    "\"stock_p99_ms\": %.3f, \"stock_errors\": %ld, "
			    "\"tuned_over_stock\": %.3f", w->stock_rps,
			    w->stock_p99_ms, w->stock_errors,
			    w->rps / w->stock_rps);
		buf_printf(out, "}%s\n", i + 1 < r->n ? "," : "");
	}
	buf_adds(out, "]}\n");
}

void
bench_svg(const struct bench_result *r, struct buf *out)
{
	const int bar = 22, gap = 8, left = 260, width = 460;
	double max = 1;
	size_t i;
	int h = (int)r->n * (bar + gap) + 50;

	for (i = 0; i < r->n; i++) {
		if (r->rows[i].rps > max)
			max = r->rows[i].rps;
		if (r->rows[i].before_rps > max)
			max = r->rows[i].before_rps;
	}
	buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
	    "font-size=\"12\">\n"
	    "<title>Requests per second</title>\n"
	    "<text x=\"10\" y=\"20\" font-size=\"14\">Requests per second"
	    "</text>\n", left + width + 90, h);
	for (i = 0; i < r->n; i++) {
		const struct bench_row *w = &r->rows[i];
		int y = 35 + (int)i * (bar + gap);
		int len = (int)(width * w->rps / max);
		char label[96];

		snprintf(label, sizeof(label), "%s %s c=%d", w->site, w->path,
		    w->conns);
		buf_printf(out, "<text x=\"10\" y=\"%d\">", y + 15);
		esc_xml(out, label, strlen(label));
		buf_printf(out, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" fill=\"%s\"/>\n", left, y, len > 0 ? len : 1,
		    bar, strncmp(w->path, "direct", 6) == 0 ? "#4a7" :
		    "#37a");
		if (w->before_rps > 0)
			buf_printf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" "
			    "y2=\"%d\" stroke=\"#000\" stroke-width=\"2\"/>\n",
			    left + (int)(width * w->before_rps / max),
			    left + (int)(width * w->before_rps / max), y - 2,
			    y + bar + 2);
		buf_printf(out, "<text x=\"%d\" y=\"%d\">%.0f</text>\n",
		    left + (len > 0 ? len : 1) + 6, y + 15, w->rps);
	}
	buf_adds(out, "</svg>\n");
}

void
bench_release(struct bench_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
}
