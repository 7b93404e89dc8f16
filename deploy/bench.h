#ifndef DEPLOY_BENCH_H
#define DEPLOY_BENCH_H

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "spec.h"

/*
 * Load tests with wrk, only against addresses this tool created: through
 * the proxy (the host port that reaches it, HTTPS and HTTP) and straight
 * at the site jail (from inside the proxy jail, the only place a site
 * answers). 4 threads; 10 and 50 connections; 10 s per run (3 s quick);
 * a run that does not end 20 s after its time is killed.
 *
 * Each direct run is repeated against a second nginx with the settings
 * of the distribution's stock nginx.conf (no open_file_cache, no
 * gzip_static, default keep-alive, worker_processes auto) serving the
 * same release folder: it runs in a namespace of its own on the jails'
 * bridge (a free address of the subnet, port 80, which the proxy jail
 * may reach) for the length of the bench, and is removed after.
 */
struct bench_opts {
	int		 quick;
	const char	*compare;	/* JSON of an earlier run, or NULL */
};

struct bench_row {
	char		 site[40];
	char		 path[16];	/* "proxy-https", "proxy-http", "direct-http" */
	int		 conns;
	double		 rps;
	double		 p50_ms, p99_ms;
	long		 errors;	/* connect+read+write+timeout+non-2xx/3xx */
	double		 bytes_per_s;
	double		 before_rps;	/* from compare, 0 if none */
	/* direct-http only: the same run against the stock nginx.conf */
	double		 stock_rps;	/* 0 if not measured */
	double		 stock_p99_ms;
	long		 stock_errors;
};

struct bench_result {
	struct bench_row *rows;
	size_t		 n;
};

/*
 * Runs every case for site (NULL: every site). 0, or -1 with d filled (a
 * run that fails is recorded and the others still run).
 */
int	bench_run(struct driver *drv, const char *site,
	    const struct bench_opts *o, struct bench_result *r, struct diag *d);
/* Reads a previous JSON run and fills before_rps of matching rows. 0/-1. */
int	bench_compare(struct bench_result *r, const char *path, struct diag *d);
void	bench_table(const struct bench_result *r, struct buf *out);
void	bench_json(const struct bench_result *r, struct buf *out);
/* A bar chart of requests per second per case. */
void	bench_svg(const struct bench_result *r, struct buf *out);
void	bench_release(struct bench_result *r);

#endif
