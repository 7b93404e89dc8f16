#ifndef DEPLOY_BENCH_H
#define DEPLOY_BENCH_H

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "spec.h"

/*
 * Load tests with wrk, only against addresses this tool created: through
 * the proxy (the host port that reaches it, HTTPS, and HTTP, which answers
 * with the redirect) and straight at the site jail (from inside the proxy
 * jail, the only place a site answers). wrk goes round every HTML page of
 * the current release and asks for gzip, as browsers do. 10, 50 and 100 connections, 3 runs of 5 s each,
 * the median shown with the spread (--quick: 10 and 50, one run of 3 s;
 * --seconds sets a run's length).
 * A run that does not end 20 s after its time is killed.
 *
 * Around each run the CPU time of the proxy's and the site's servers is
 * read from /proc: CPU per request, which a busy machine bends far less
 * than requests per second.
 *
 * Each direct run is followed by the same run against a second nginx with
 * the settings of the distribution's stock nginx.conf serving the same
 * release folder: it runs in a namespace of its own on the jails' bridge
 * (a free address of the subnet, port 80, which the proxy jail may reach)
 * for the length of the bench, and is removed after.
 */
/* what every request of a run accepts: what browsers send */
#define BENCH_ACCEPT_ENCODING	"gzip, br"
#define BENCH_MAX_RUNS	3
/* --seconds: a longer run is a soak test, not this bench. */
#define BENCH_MAX_SECONDS	600

struct bench_opts {
	int		 quick;
	int		 seconds;	/* each run's length; 0: 5, or 3 quick */
	int		 proxy_only;	/* one run, 50 connections, HTTPS */
	const char	*compare;	/* JSON of an earlier run, or NULL */
};

/* One cell: the median run and the spread of its runs. */
struct bench_stat {
	int		 runs;		/* 0: not measured */
	double		 rps, rps_min, rps_max;
	double		 p50_ms, p99_ms;
	double		 bytes_per_s;
	long		 errors;	/* all runs: connect+read+write+timeout+non-2xx/3xx */
	double		 proxy_us;	/* CPU µs per request, -1 unknown */
	double		 site_us;
};

struct bench_row {
	char		 site[40];
	char		 path[16];	/* "proxy-https", "proxy-http", "direct-http" */
	int		 conns;
	struct bench_stat m;
	struct bench_stat stock;	/* direct-http: the stock nginx.conf */
	double		 before_rps;	/* from compare, 0 if none */
	double		 before_site_us, before_proxy_us;
};

/* How long each wrk run lasts, in seconds. */
int	bench_seconds(const struct bench_opts *o);

struct bench_result {
	struct bench_row *rows;
	size_t		 n;
	size_t		 pages;		/* the pages wrk went round */
	int		 seconds;	/* each run's length */
};

/*
 * Runs every case for site (NULL: every site). 0, or -1 with d filled (a
 * run that fails is recorded and the others still run).
 */
int	bench_run(struct driver *drv, const char *site,
	    const struct bench_opts *o, struct bench_result *r, struct diag *d);

/*
 * The wrk script for site: every HTML page of its current release in
 * turn, and the done() hook printing the WRKSUM line (duration µs,
 * requests, bytes, errors connect read write status timeout, latency µs
 * p50 p99 p90 max), appended to script. Returns the page count.
 */
size_t	bench_site_script(const struct spec *s, const struct spec_site *site,
	    struct buf *script);

/* bench_report.c: what a run shows and keeps. */
/* Reads a previous JSON run and fills the before_* of matching rows. 0/-1. */
int	bench_compare(struct bench_result *r, const char *path, struct diag *d);
/*
 * Appends to r the rows of bench_json's text (its runs, one per line:
 * site, path, connections, requests/s, p99, errors, bytes/s). Returns how
 * many it read.
 */
size_t	bench_read(struct bench_result *r, const char *text);
void	bench_table(const struct bench_result *r, struct buf *out);
void	bench_json(const struct bench_result *r, struct buf *out);
/* A bar chart of requests per second, grouped by connections. */
void	bench_svg(const struct bench_result *r, struct buf *out);
void	bench_release(struct bench_result *r);

#endif
