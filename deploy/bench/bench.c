#define _GNU_SOURCE
#include "bench.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
#include "process.h"

/* wrk prints this line from its done() hook; parsed below. */
static const char wrk_done[] =
    "done = function(summary, latency, requests)\n"
    "  io.write(string.format(\"WRKSUM %d %d %d %d %d %d %d %d %d %d %d %d\\n\",\n"
    "    summary.duration, summary.requests, summary.bytes,\n"
    "    summary.errors.connect, summary.errors.read, summary.errors.write,\n"
    "    summary.errors.status, summary.errors.timeout,\n"
    "    latency:percentile(50), latency:percentile(99),\n"
    "    latency:percentile(90), latency.max))\n"
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

struct placed {
	struct driver	*drv;
	const struct run *r;
};

/* In wrk's child: where the run asks it to be. */
static int
place(void *arg)
{
	const struct placed *p = arg;

	if (p->r->how == IN_PROXY_JAIL)
		return p->drv->ops->enter(p->drv, "proxy");
	/* The right server name (SNI, Host) without touching the host's
	 * resolver: a private /etc/hosts. */
	if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mount(p->r->hosts_file, "/etc/hosts", NULL, MS_BIND, NULL) == -1) {
		fprintf(stderr, "private /etc/hosts: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Runs wrk in a child placed as the run asks; its output into out. */
static int
run_wrk(struct driver *drv, const struct run *r, struct buf *out)
{
	char conns[16], dur[16], hdr[300];
	char *argv[20];
	struct placed p = { drv, r };
	struct process_opts o;
	struct process_result res;
	int i = 0;

	xsnprintf(conns, sizeof(conns), "%d", r->conns);
	xsnprintf(dur, sizeof(dur), "%ds", r->seconds);
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
	/* As every browser asks: compressed where the server can. */
	argv[i++] = "-H";
	argv[i++] = "Accept-Encoding: " BENCH_ACCEPT_ENCODING;
	if (r->host_header != NULL) {
		xsnprintf(hdr, sizeof(hdr), "Host: %s", r->host_header);
		argv[i++] = "-H";
		argv[i++] = hdr;
	}
	argv[i++] = (char *)r->url;
	argv[i] = NULL;
	memset(&o, 0, sizeof(o));
	o.out = out;
	o.timeout = r->seconds + WRK_GRACE;
	o.child = place;
	o.child_arg = &p;
	if (process_run(argv, &o, &res) == 0)
		return 0;
	if (res.timed_out)
		buf_printf(out, "\n(killed: still running %d s after its "
		    "time)\n", WRK_GRACE);
	return -1;
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
	xsnprintf(cidr, sizeof(cidr), "%s/%d", st->addr, s->net.prefix);
	xsnprintf(mac, sizeof(mac), "02:de:%02x:%02x:%02x:%02x", a >> 24,
	    (a >> 16) & 255, (a >> 8) & 255, a & 255);
	xsnprintf(st->veth, sizeof(st->veth), "dbs%ld",
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
	xsnprintf(st->ns, sizeof(st->ns), "%s-stock-nginx-%ld", s->name,
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
		/* A session of its own, as the site's nginx has: with the
		 * scheduler's autogroups each session gets an equal share of
		 * a busy machine, so both must be alike to compare. */
		setsid();
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


/* One wrk run's figures. */
struct sample {
	double		 rps, bytes_per_s, p50_ms, p99_ms;
	long		 errors;
	long long	 requests;
	double		 site_us, proxy_us;	/* CPU per request; -1 unknown */
};

static int
parse_wrk(const char *out, struct sample *x)
{
	const char *p = strstr(out, "WRKSUM ");
	long long dur, req, bytes, ec, er, ew, es, et, p50, p99;

	if (p == NULL || sscanf(p + 7, "%lld %lld %lld %lld %lld %lld %lld "
	    "%lld %lld %lld", &dur, &req, &bytes, &ec, &er, &ew, &es, &et,
	    &p50, &p99) != 10 || dur <= 0)
		return -1;
	x->requests = req;
	x->rps = (double)req / ((double)dur / 1e6);
	x->bytes_per_s = (double)bytes / ((double)dur / 1e6);
	x->p50_ms = (double)p50 / 1000.0;
	x->p99_ms = (double)p99 / 1000.0;
	x->errors = (long)(ec + er + ew + es + et);
	return 0;
}

/*
 * CPU time (user + system, clock ticks) of a server: the process and its
 * children (nginx's workers; Caddy is one process). -1 if it is gone.
 * Read around each run, it gives CPU per request, which a busy machine
 * bends far less than requests per second.
 */
static long long
tree_ticks(pid_t master)
{
	char path[300], line[1024], *p;
	long long total = -1, ut, st;
	struct dirent *e;
	long ppid;
	DIR *dir;
	FILE *fp;

	if (master <= 0 || (dir = opendir("/proc")) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		xsnprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if ((fp = fopen(path, "r")) == NULL)
			continue;
		p = fgets(line, sizeof(line), fp);
		fclose(fp);
		/* After "pid (comm) ": state ppid ... utime(14) stime(15). */
		if (p == NULL || (p = strrchr(line, ')')) == NULL ||
		    sscanf(p + 2, "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u "
		    "%*u %lld %lld", &ppid, &ut, &st) != 3)
			continue;
		if (atol(e->d_name) == master || ppid == master)
			total = (total < 0 ? 0 : total) + ut + st;
	}
	closedir(dir);
	return total;
}

static double
ticks_us(long long before, long long after, long long requests)
{
	if (before < 0 || after < 0 || requests <= 0)
		return -1;
	return (double)(after - before) * 1e6 /
	    (double)sysconf(_SC_CLK_TCK) / (double)requests;
}

/* Servers whose CPU a run is charged: the proxy and the site (or the
 * stock nginx, as the "site"). */
struct watch {
	pid_t		 proxy, site;
};

static int
sample_run(struct driver *drv, const struct run *r, const struct watch *w,
    struct sample *x, struct buf *out)
{
	long long p0 = tree_ticks(w->proxy), s0 = tree_ticks(w->site);

	buf_clear(out);
	if (run_wrk(drv, r, out) == -1 || parse_wrk(out->ptr, x) == -1)
		return -1;
	x->proxy_us = ticks_us(p0, tree_ticks(w->proxy), x->requests);
	x->site_us = ticks_us(s0, tree_ticks(w->site), x->requests);
	return 0;
}

static int
by_rps(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return (x->rps > y->rps) - (x->rps < y->rps);
}

/* The median run of n (sorted in place) and the spread of them all. */
static void
summarize(struct sample *x, int n, struct bench_stat *m)
{
	const struct sample *mid;
	int i;

	xqsort(x, (size_t)n, sizeof(*x), by_rps);
	mid = &x[n / 2];
	m->runs = n;
	m->rps = mid->rps;
	m->rps_min = x[0].rps;
	m->rps_max = x[n - 1].rps;
	m->p50_ms = mid->p50_ms;
	m->p99_ms = mid->p99_ms;
	m->bytes_per_s = mid->bytes_per_s;
	m->site_us = mid->site_us;
	m->proxy_us = mid->proxy_us;
	m->errors = 0;
	for (i = 0; i < n; i++)
		m->errors += x[i].errors;
}

static void
add_row(struct bench_result *r, const struct bench_row *row)
{
	r->rows = xrealloc(r->rows, (r->n + 1) * sizeof(*r->rows));
	r->rows[r->n++] = *row;
}

/* Adds one URL path, percent-encoded, as a Lua string to script. */
static void
lua_path(struct buf *script, const char *rel, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	buf_adds(script, "\"/");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)rel[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/-._~", c) != NULL)
			buf_addc(script, (char)c);
		else
			buf_printf(script, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
	buf_adds(script, "\",\n");
}

/* nftw has no user pointer. */
static struct buf *walk_script;
static size_t walk_base, walk_pages;

static int
walk_page(const char *path, const struct stat *sb, int type, struct FTW *f)
{
	const char *rel = path + walk_base;
	size_t n = strlen(rel);

	(void)sb;
	(void)f;
	if (type != FTW_F || n < 5 || strcmp(rel + n - 5, ".html") != 0)
		return 0;
	/* A folder's index is asked for as the folder, as readers do. */
	if (strcmp(rel, "index.html") == 0)
		n = 0;
	else if (n > 11 && strcmp(rel + n - 11, "/index.html") == 0)
		n -= 10;
	lua_path(walk_script, rel, n);
	walk_pages++;
	return 0;
}

/*
 * The wrk script for site: every HTML page of the current release, each
 * thread going round them in turn, so that a run reads the whole site as
 * readers and crawlers do, not one cached page. Returns the page count.
 */
size_t
bench_site_script(const struct spec *s, const struct spec_site *site,
    struct buf *script)
{
	struct buf root = BUF_INIT;
	char *real;

	/* nftw does not follow the symbolic link it starts at. */
	buf_printf(&root, "%s/%s/current", s->releases.root, site->name);
	if ((real = realpath(root.ptr, NULL)) != NULL) {
		buf_clear(&root);
		buf_printf(&root, "%s/", real);
		free(real);
	}
	buf_adds(script, "local paths = {\n");
	walk_script = script;
	walk_base = root.len;
	walk_pages = 0;
	nftw(root.ptr, walk_page, 16, FTW_PHYS);
	if (walk_pages == 0) {
		buf_adds(script, "\"/\",\n");
		walk_pages = 1;
	}
	buf_adds(script, "}\n"
	    "local i = 0\n"
	    "init = function(args) i = math.random(#paths) end\n"
	    "request = function()\n"
	    "  i = i % #paths + 1\n"
	    "  return wrk.format(nil, paths[i])\n"
	    "end\n");
	buf_adds(script, wrk_done);
	buf_release(&root);
	return walk_pages;
}

int
bench_seconds(const struct bench_opts *o)
{
	return o->seconds > 0 ? o->seconds : o->quick ? 3 : 5;
}

/* The paths of one site's bench, in the order they run. */
static const char *const paths[] = { "proxy-https", "proxy-http",
    "direct-http" };

static int
bench_site(struct driver *drv, const struct spec_site *site,
    const struct bench_opts *o, const char *dir, struct bench_result *res,
    struct diag *d)
{
	const struct spec *s = drv->spec;
	static const int conns_full[] = { 10, 50, 100 }, conns_quick[] = {
	    10, 50 }, conns_proxy[] = { 50 };
	const int *conns = o->proxy_only ? conns_proxy : o->quick ?
	    conns_quick : conns_full;
	int nconns = o->proxy_only ? 1 : o->quick ? 2 : 3;
	int runs = o->quick || o->proxy_only ? 1 : 3;
	int kinds = o->proxy_only ? 1 : 3;
	struct buf hosts = BUF_INIT, script = BUF_INIT, url = BUF_INIT;
	struct buf out = BUF_INIT, text = BUF_INIT, stock_url = BUF_INIT;
	struct sample xs[BENCH_MAX_RUNS], ys[BENCH_MAX_RUNS];
	struct watch w = { 0, 0 }, ws = { 0, 0 };
	struct stock st;
	char a443[HEALTH_ADDR_MAX], a80[HEALTH_ADDR_MAX];
	int p443, p80, rc = 0, c, k, n;

	memset(&st, 0, sizeof(st));
	if (health_entry(s, 443, a443, sizeof(a443), &p443) == -1 ||
	    (!o->proxy_only &&
	    health_entry(s, 80, a80, sizeof(a80), &p80) == -1)) {
		diag_error(d, s->file, 0, "network.ports: the proxy's 80 and "
		    "443 must both be reachable from the host to bench (443 "
		    "alone with --proxy-only)");
		return -1;
	}
	buf_printf(&script, "%s/pages.lua", dir);
	buf_printf(&hosts, "%s/hosts", dir);
	buf_printf(&text, "127.0.0.1 localhost\n%s %s\n", a443,
	    site->domains[0]);
	if (write_file(hosts.ptr, text.ptr) == -1) {
		diag_error(d, dir, 0, "%s", strerror(errno));
		rc = -1;
		goto out;
	}
	buf_clear(&text);
	res->pages = bench_site_script(s, site, &text);
	if (write_file(script.ptr, text.ptr) == -1) {
		diag_error(d, dir, 0, "%s", strerror(errno));
		rc = -1;
		goto out;
	}
	if (drv->ops->server_pid != NULL) {
		w.proxy = drv->ops->server_pid(drv, "proxy");
		w.site = drv->ops->server_pid(drv, site->name);
	}
	if (!o->proxy_only) {
		fprintf(stderr, "bench %s: %zu pages; starting nginx with the "
		    "stock settings...\n", site->name, res->pages);
		if (stock_start(s, site, dir, &st, d) == -1)
			rc = -1;
		ws.site = st.pid;
		buf_printf(&stock_url, "http://%s/", st.addr);
	}
	for (k = 0; k < kinds; k++) {
		for (c = 0; c < nconns; c++) {
			struct run r;
			struct bench_row row;
			int ny = 0;

			memset(&r, 0, sizeof(r));
			memset(&row, 0, sizeof(row));
			buf_clear(&url);
			r.script = script.ptr;
			r.conns = conns[c];
			r.seconds = bench_seconds(o);
			r.hosts_file = hosts.ptr;
			if (k == 0)
				buf_printf(&url, "https://%s:%d/",
				    site->domains[0], p443);
			else if (k == 1)
				/* Answered with the redirect to HTTPS. */
				buf_printf(&url, "http://%s:%d/",
				    site->domains[0], p80);
			else {
				r.how = IN_PROXY_JAIL;
				r.host_header = site->domains[0];
				buf_printf(&url, "http://%s/", site->addr_str);
			}
			r.url = url.ptr;
			xsnprintf(row.site, sizeof(row.site), "%s", site->name);
			xsnprintf(row.path, sizeof(row.path), "%s", paths[k]);
			row.conns = conns[c];
			for (n = 0; n < runs; n++) {
				fprintf(stderr, "bench %s %s %d connections, "
				    "run %d of %d...\n", site->name, row.path,
				    row.conns, n + 1, runs);
				if (sample_run(drv, &r, &w, &xs[n], &out) == -1)
					break;
				/* The stock nginx in turn with each run: the
				 * same moment of a busy machine for both. */
				if (k == 2 && st.pid > 0) {
					struct run again = r;

					again.url = stock_url.ptr;
					if (sample_run(drv, &again, &ws,
					    &ys[ny], &out) == 0)
						ny++;
					else
						diag_error(d, NULL, 0, "wrk %s "
						    "(stock nginx, %d connections)"
						    " failed: %s", again.url,
						    row.conns, out.ptr);
				}
			}
			if (n < runs) {
				diag_error(d, NULL, 0, "wrk %s (%s, %d "
				    "connections) failed: %s", url.ptr,
				    row.path, row.conns, out.ptr);
				rc = -1;
				continue;
			}
			summarize(xs, runs, &row.m);
			if (ny > 0)
				summarize(ys, ny, &row.stock);
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
	buf_release(&stock_url);
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
	if (mkdtemp(dir) == NULL)
		return diag_error(d, dir, 0, "mkdtemp: %s", strerror(errno));
	r->seconds = bench_seconds(o);
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
