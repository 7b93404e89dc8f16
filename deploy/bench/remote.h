#ifndef DEPLOY_BENCH_REMOTE_H
#define DEPLOY_BENCH_REMOTE_H

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "spec.h"

/*
 * The published site loaded as its readers reach it: wrk started on
 * other machines (clients) over ssh, all at once, against the site's own
 * URL and, alternately, against another server (--against, the old
 * host), along a ladder of connections. Beside the load each client
 * makes a few single requests with curl, whose libcurl timings give the
 * phases (name lookup, connect, TLS, first byte, transfer). Around each
 * run the servers' listen queues are read (the site's jails here, the
 * old server over ssh when given) and, when failures line up with them,
 * the setting is named.
 *
 * Connections are the total a step puts on the server, shared out among
 * the clients. Every run ends by itself: wrk's own duration, and a child
 * still there BENCH_REMOTE_GRACE s after it is killed.
 */
#define BENCH_REMOTE_MAX_CLIENTS	16
#define BENCH_REMOTE_MAX_STEPS		8
#define BENCH_REMOTE_MAX_ROUNDS		9
#define BENCH_REMOTE_MAX_CONNS		100000
#define BENCH_REMOTE_GRACE		30
/* single requests beside the load, per client and run */
#define BENCH_REMOTE_SAMPLES		4
/* what deploy apply sets: listen backlogs and somaxconn */
#define BENCH_GOOD_BACKLOG		4096	/* = CONFGEN_BACKLOG */
#define BENCH_GOOD_CONNS		16384	/* = CONFGEN_WORKER_CONNECTIONS */

enum { TGT_NEW, TGT_OLD, TGT_N };

struct bench_client {
	char		 label[32];
	char		*url;		/* ssh://user@host[:port] */
	int		 ncpu;		/* from the preflight; 0 unknown */
	long		 nofile;	/* ulimit -n; 0 unknown */
	long		 ports;		/* ephemeral ports; 0 unknown */
	int		 gone;		/* went away: left out from then on */
	char		 gone_at[96];	/* "new, 1000 connections, round 2" */
};

/* One client's run (or, summed, all clients' in one round). */
struct bench_cell {
	int		 ran;		/* 0: not measured */
	double		 seconds;
	long long	 requests;	/* answers, any status */
	long long	 bad_status;	/* answers not 2xx/3xx */
	long long	 connect_err, read_err, write_err, timeouts;
	double		 rps;
	double		 p50_ms, p90_ms, p99_ms, max_ms;
	double		 cpu;		/* wrk's CPU over what its threads
					 * could use, 0..1; -1 unknown */
	/* phases from the single requests (median), ms; -1 none */
	int		 nphase;
	double		 dns_ms, connect_ms, tls_ms, ttfb_ms, transfer_ms;
	int		 phase_fail;	/* single requests that failed */
	char		 limited[48];	/* "" or what the client ran out of */
};

/* The server's listen side, read before and after a run. */
struct bench_listen {
	int		 ok;
	long long	 overflows, drops;
	int		 backlog;	/* of the listener on the port, -1 */
	int		 somaxconn;	/* -1 unknown */
	/* nginx's error log: "N worker_connections are not enough" */
	long long	 wc_short;	/* times logged; -1 log not read */
	int		 wc;		/* its N, or 0 */
	/* nginx's own settings (nginx -T), 0 when unknown */
	int		 ngx_conns;	/* worker_connections */
	int		 ngx_workers;	/* worker_processes (auto: CPUs) */
	char		 where[64];	/* "site blog (proxy jail)" */
	char		 os[16];
};

struct bench_step {
	int		 conns;
	/* [target][round][client] */
	struct bench_cell cell[TGT_N][BENCH_REMOTE_MAX_ROUNDS]
	    [BENCH_REMOTE_MAX_CLIENTS];
	long long	 overflows[TGT_N];	/* summed over rounds */
	struct bench_listen srv[TGT_N];	/* the last reading after a run */
	long long	 wc_short[TGT_N];	/* summed over rounds */
	char		 cause[TGT_N][640];	/* "" when nothing named */
};

struct bench_remote {
	const char	*site;		/* its name */
	char		*url[TGT_N];	/* what the clients load; [OLD] NULL */
	const char	*against_ssh;	/* reads the old server, or NULL */
	const char	*known_hosts, *identity;
	struct bench_client clients[BENCH_REMOTE_MAX_CLIENTS];
	size_t		 nclients;
	struct bench_step steps[BENCH_REMOTE_MAX_STEPS];
	size_t		 nsteps;
	int		 rounds;
	int		 seconds;
	int		 progress;	/* a live line on stderr */
	struct buf	 script;	/* the wrk script (pages, done hook) */
	size_t		 pages;
};

/*
 * Parses "LABEL=ssh://user@host[:port]" into the next client of r. 0, or
 * -1 with the reason in d.
 */
int	bench_remote_client(struct bench_remote *r, const char *arg,
	    struct diag *d);
/* Parses "10,100,1000" into r's steps. 0 or -1 (said in d). */
int	bench_remote_ladder(struct bench_remote *r, const char *arg,
	    struct diag *d);

/*
 * Runs the bench: every client checked first (ssh, wrk, curl: what to
 * install is said), then each step, each round, the site and the old
 * server in turn. drv (may be NULL) reads the site's jails. 0, or -1
 * with d filled; what was measured stays in r (a client that went away
 * is said in d, the others' runs kept).
 */
int	bench_remote_run(struct bench_remote *r, struct driver *drv,
	    struct diag *d);
void	bench_remote_release(struct bench_remote *r);

/* wrk's --timeout for a run of seconds: 2 s under it, 1 to 5 s. */
int	bench_remote_timeout(int seconds);
/* Parses wrk's WRKSUM line, the PHASE lines and `times` into c. 0/-1. */
int	bench_remote_parse(const char *out, int threads, struct bench_cell *c);
/* remote_server.c */
/*
 * Reads the listen side of target t into l (up to 2 readings): for the
 * site, its proxy jail and its own jail through drv (NULL: none); for the
 * old server, over ssh when r->against_ssh names it. Returns how many.
 */
int	bench_remote_read_listen(const struct bench_remote *r,
	    struct driver *drv, int t, struct bench_listen *l);
/* Parses a listen reading (remote_server.c's script's output). */
void	bench_remote_parse_listen(const char *out, int port,
	    struct bench_listen *l);
/* The cause of a step's failures on target t (its overflows summed over
 * the rounds, the last reading), named in s->cause[t]. */
void	bench_remote_cause(const struct bench_remote *r, struct bench_step *s,
	    int t);

/* remote_report.c */
/* All clients of a round summed (rps, counts) or worst (latency). */
void	bench_remote_total(const struct bench_remote *r,
	    const struct bench_step *s, int t, int round, struct bench_cell *out);
/* The median over rounds of a client's (or the total, client -1) cell. */
void	bench_remote_median(const struct bench_remote *r,
	    const struct bench_step *s, int t, int client, struct bench_cell *out);
/* Successful answers over attempts, 0..1; -1 when nothing was tried. */
double	bench_remote_success(const struct bench_cell *c);
void	bench_remote_table(const struct bench_remote *r, struct buf *out);
void	bench_remote_json(const struct bench_remote *r, struct buf *out);
void	bench_remote_html(const struct bench_remote *r, struct buf *out);

#endif
