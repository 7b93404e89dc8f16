/*
 * deploy bench --from (remote.h) without machines: wrk's WRKSUM line,
 * curl's phases and `times` parsed; the success rate with every kind of
 * failure counted; listen readings of Linux and FreeBSD; the cause named
 * for the site and for the old server; a client's --from and the ladder
 * checked; the total and the median over rounds; the table and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "remote.h"
#include "tap.h"

/* wrk: 4 s, 1000 answers of which 50 not 2xx/3xx, errors connect 10,
 * read 20, write 5, timeouts 15; p50 2 ms, p99 40 ms, p90 9 ms, max 80. */
static const char run_out[] =
    "PHASE 0.001000 0.002000 0.052000 0.103000 0.104000 200\n"
    "PHASE 0.001000 0.002000 0.056000 0.107000 0.108000 200\n"
    "PHASE 0.001000 0.002000 0.054000 0.105000 0.106000 200\n"
    "PHASE 0.000000 0.000000 0.000000 0.000000 10.0 0\n"
    "WRKSUM 4000000 1000 123456 10 20 5 50 15 2000 40000 9000 80000\n"
    "TIMES\n"
    "0m0.010s 0m0.020s\n"
    "0m1.000s 0m1.000s\n";

static const char linux_listen[] =
    "OS Linux\n"
    "SOMAXCONN 128\n"
    "TcpExt: SyncookiesSent ListenOverflows ListenDrops TW\n"
    "TcpExt: 0 41233 41240 7\n"
    "IpExt: InNoRoutes\n"
    "IpExt: 0\n"
    "LISTEN 0      128          0.0.0.0:80        0.0.0.0:*\n"
    "LISTEN 0      4096         0.0.0.0:22        0.0.0.0:*\n"
    "NCPU 2\n"
    "NGX worker_processes 1\n"
    "NGX worker_connections 768\n"
    "WCNE 12 768\n";

static const char freebsd_listen[] =
    "OS FreeBSD\n"
    "SOMAXCONN 128\n"
    "LQO 812\n"
    "Current listen queue sizes (qlen/incqlen/maxqlen)\n"
    "Proto Listen                           Local Address\n"
    "tcp4  0/0/128                          *.80\n"
    "tcp4  0/0/4096                         *.443\n";

int
main(void)
{
	struct bench_cell c;
	struct bench_listen l;
	struct bench_remote *r = calloc(1, sizeof(*r));
	struct bench_step *st;
	struct diag *d = diag_new();
	struct buf out = BUF_INIT;
	struct bench_cell tot, med;

	/* --- one run ---------------------------------------------------- */
	OK(bench_remote_parse(run_out, 2, &c) == 0, "run parsed");
	IS_INT(c.requests, 1000, "answers");
	IS_INT(c.bad_status, 50, "not 2xx/3xx");
	IS_INT(c.connect_err, 10, "connect errors");
	IS_INT(c.read_err, 20, "read errors");
	IS_INT(c.write_err, 5, "write errors");
	IS_INT(c.timeouts, 15, "timeouts");
	OK(c.seconds == 4, "seconds");
	/* ok/s counts only the good answers */
	OK(c.rps > 237.4 && c.rps < 237.6, "ok/s %f", c.rps);
	/* success: 950 good of 1000 + 10 + 20 + 5 + 15 tried */
	OK(bench_remote_success(&c) > 0.9047 && bench_remote_success(&c) <
	    0.9048, "success %f", bench_remote_success(&c));
	OK(c.p50_ms == 2 && c.p90_ms == 9 && c.p99_ms == 40 && c.max_ms == 80,
	    "percentiles %f %f %f %f", c.p50_ms, c.p90_ms, c.p99_ms,
	    c.max_ms);
	IS_INT(c.nphase, 3, "phases of the good single requests");
	IS_INT(c.phase_fail, 1, "a single request that failed");
	OK(c.dns_ms > 0.99 && c.dns_ms < 1.01, "dns %f", c.dns_ms);
	OK(c.connect_ms > 0.99 && c.connect_ms < 1.01, "connect %f",
	    c.connect_ms);
	OK(c.tls_ms > 51.9 && c.tls_ms < 52.1, "tls %f", c.tls_ms);
	OK(c.ttfb_ms > 50.9 && c.ttfb_ms < 51.1, "first byte %f", c.ttfb_ms);
	OK(c.transfer_ms > 0.99 && c.transfer_ms < 1.01, "transfer %f",
	    c.transfer_ms);
	/* children: 2 s of CPU over 4 s with 2 threads */
	OK(c.cpu > 0.249 && c.cpu < 0.251, "client cpu %f", c.cpu);
	OK(bench_remote_parse("wrk: connection refused\n", 2, &c) == -1,
	    "no WRKSUM: not a run");
	memset(&c, 0, sizeof(c));
	OK(bench_remote_success(&c) < 0, "nothing tried: no rate");

	/* --- listen readings ------------------------------------------- */
	bench_remote_parse_listen(linux_listen, 80, &l);
	OK(l.ok, "linux reading");
	IS_INT(l.overflows, 41233, "ListenOverflows");
	IS_INT(l.drops, 41240, "ListenDrops");
	IS_INT(l.backlog, 128, "backlog of port 80");
	IS_INT(l.somaxconn, 128, "somaxconn");
	IS_INT(l.wc_short, 12, "worker_connections not enough, times");
	IS_INT(l.wc, 768, "worker_connections");
	IS_INT(l.ngx_conns, 768, "nginx -T: worker_connections");
	IS_INT(l.ngx_workers, 1, "nginx -T: worker_processes");
	bench_remote_parse_listen("OS Linux\nNCPU 4\nNGX worker_processes "
	    "auto\nNGX worker_connections 1024\n", 80, &l);
	IS_INT(l.ngx_workers, 4, "worker_processes auto: the CPUs");
	bench_remote_parse_listen(linux_listen, 22, &l);
	IS_INT(l.backlog, 4096, "backlog of port 22");
	bench_remote_parse_listen(freebsd_listen, 80, &l);
	OK(l.ok, "freebsd reading");
	IS_STR(l.os, "FreeBSD", "os");
	IS_INT(l.overflows, 812, "listen queue overflows");
	IS_INT(l.backlog, 128, "maxqlen of *.80");
	IS_INT(l.wc_short, -1, "no error log read");

	/* --- clients and the ladder ------------------------------------- */
	OK(bench_remote_client(r, "london=ssh://root@10.0.0.1", d) == 0,
	    "a client");
	OK(bench_remote_client(r, "tokyo=ssh://bench@[2001:db8::1]:2222",
	    d) == 0, "an IPv6 client with a port");
	OK(bench_remote_client(r, "london=ssh://root@10.0.0.2", d) == -1,
	    "a label given twice");
	OK(bench_remote_client(r, "ssh://root@10.0.0.2", d) == -1,
	    "no label");
	OK(bench_remote_client(r, "a b=ssh://root@10.0.0.2", d) == -1,
	    "a label with a space");
	OK(bench_remote_client(r, "x=http://10.0.0.2", d) == -1,
	    "not ssh");
	IS_INT(r->nclients, 2, "two clients");
	IS_STR(r->clients[1].label, "tokyo", "label");
	IS_STR(r->clients[1].url, "ssh://bench@[2001:db8::1]:2222", "url");
	OK(bench_remote_ladder(r, "10,100,1000,10000", d) == 0, "ladder");
	IS_INT(r->nsteps, 4, "four steps");
	IS_INT(r->steps[3].conns, 10000, "10,000");
	OK(bench_remote_ladder(r, "10,,100", d) == -1, "an empty step");
	OK(bench_remote_ladder(r, "0", d) == -1, "no connections");
	OK(bench_remote_ladder(r, "10,x", d) == -1, "not a number");
	OK(bench_remote_ladder(r, "1000", d) == 0, "one step");

	/* --- the cause -------------------------------------------------- */
	r->site = "blog";
	r->rounds = 2;
	r->seconds = 4;
	r->url[TGT_NEW] = strdup("https://blog.test/");
	r->url[TGT_OLD] = strdup("http://old.test/");
	st = &r->steps[0];
	bench_remote_parse_listen(linux_listen, 80, &st->srv[TGT_OLD]);
	st->overflows[TGT_OLD] = 41233;
	st->wc_short[TGT_OLD] = 0;
	bench_remote_cause(r, st, TGT_OLD);
	IS_STR(st->cause[TGT_OLD], "listen queue of the old server overflowed "
	    "41,233 times: its backlog is 128 (net.core.somaxconn is 128); "
	    "set net.core.somaxconn=4096 and the server's listen backlog to "
	    "4096 (nginx: listen ... backlog=4096)", "old server's backlog");
	st->wc_short[TGT_OLD] = 12;
	bench_remote_cause(r, st, TGT_OLD);
	OK(strstr(st->cause[TGT_OLD], "; nginx of the old server ran out of "
	    "connections 12 times (worker_connections 768): set "
	    "worker_connections 16384") != NULL, "and its connections: %s",
	    st->cause[TGT_OLD]);
	/* 1,000 connections sent, room for 768, and failures seen */
	bench_remote_parse(run_out, 2, &st->cell[TGT_OLD][0][0]);
	bench_remote_cause(r, st, TGT_OLD);
	OK(strstr(st->cause[TGT_OLD], "; nginx of the old server has room "
	    "for 768 connections (worker_processes 1 x worker_connections "
	    "768) and was sent 1,000: it closes kept-alive ones to make room;"
	    " set worker_connections 16384 and worker_rlimit_nofile 32832") !=
	    NULL, "room for fewer connections than sent: %s",
	    st->cause[TGT_OLD]);
	memset(&st->cell[TGT_OLD][0][0], 0, sizeof(st->cell[TGT_OLD][0][0]));
	st->overflows[TGT_OLD] = 0;
	st->wc_short[TGT_OLD] = 0;
	st->conns = 500;
	bench_remote_parse(run_out, 2, &st->cell[TGT_OLD][0][0]);
	bench_remote_cause(r, st, TGT_OLD);
	IS_STR(st->cause[TGT_OLD], "", "room enough, no overflow: no cause");
	memset(&st->cell[TGT_OLD][0][0], 0, sizeof(st->cell[TGT_OLD][0][0]));
	st->conns = 1000;
	bench_remote_parse_listen(linux_listen, 80, &st->srv[TGT_NEW]);
	snprintf(st->srv[TGT_NEW].where, sizeof(st->srv[TGT_NEW].where),
	    "proxy jail");
	st->overflows[TGT_NEW] = 7;
	bench_remote_cause(r, st, TGT_NEW);
	IS_STR(st->cause[TGT_NEW], "listen queue of site blog (proxy jail) "
	    "overflowed 7 times: net.core.somaxconn is 128; deploy apply sets "
	    "4096 (run it)", "site's somaxconn");
	st->srv[TGT_NEW].somaxconn = 4096;
	bench_remote_cause(r, st, TGT_NEW);
	IS_STR(st->cause[TGT_NEW], "listen queue of site blog (proxy jail) "
	    "overflowed 7 times: its listen backlog is 128; deploy apply sets "
	    "4096 (run it)", "site's backlog");
	st->overflows[TGT_NEW] = 0;
	bench_remote_cause(r, st, TGT_NEW);
	IS_STR(st->cause[TGT_NEW], "", "nothing overflowed: nothing named");
	bench_remote_parse_listen(freebsd_listen, 80, &st->srv[TGT_NEW]);
	st->overflows[TGT_NEW] = 812;
	bench_remote_cause(r, st, TGT_NEW);
	OK(strstr(st->cause[TGT_NEW], "kern.ipc.somaxconn is 128; deploy "
	    "apply sets 4096") != NULL, "FreeBSD: %s", st->cause[TGT_NEW]);

	/* --- totals, medians, outputs ----------------------------------- */
	bench_remote_parse(run_out, 2, &st->cell[TGT_NEW][0][0]);
	bench_remote_parse(run_out, 2, &st->cell[TGT_NEW][0][1]);
	bench_remote_parse(run_out, 2, &st->cell[TGT_NEW][1][0]);
	bench_remote_parse(run_out, 2, &st->cell[TGT_NEW][1][1]);
	st->cell[TGT_NEW][1][1].rps = 100;
	st->cell[TGT_NEW][1][1].p99_ms = 500;
	bench_remote_parse(run_out, 2, &st->cell[TGT_OLD][0][0]);
	bench_remote_parse(run_out, 2, &st->cell[TGT_OLD][1][0]);
	bench_remote_total(r, st, TGT_NEW, 1, &tot);
	OK(tot.rps > 337.4 && tot.rps < 337.6, "total: the sum %f", tot.rps);
	IS_INT(tot.requests, 2000, "total answers");
	OK(tot.p99_ms == 500, "total: the worst client's p99");
	bench_remote_median(r, st, TGT_NEW, 1, &med);
	OK(med.rps > 168.7 && med.rps < 168.8, "median of two rounds %f",
	    med.rps);
	IS_INT(med.read_err, 40, "counts summed over rounds");
	bench_remote_table(r, &out);
	OK(strstr(out.ptr, "  1000 new/old: ") != NULL, "ratio line:\n%s",
	    out.ptr);
	OK(strstr(out.ptr, "  1000 new: listen queue of site blog") != NULL,
	    "cause line");
	buf_clear(&out);
	bench_remote_json(r, &out);
	OK(strstr(out.ptr, "\"new_over_old\": ") != NULL, "JSON ratio");
	OK(strstr(out.ptr, "\"success\": 0.90476") != NULL, "JSON success");
	buf_clear(&out);
	bench_remote_html(r, &out);
	OK(strstr(out.ptr, "<svg") != NULL && strstr(out.ptr,
	    "stroke-dasharray") != NULL, "HTML with charts, old dashed");

	buf_release(&out);
	bench_remote_release(r);
	free(r);
	diag_free(d);
	return tap_done();
}
