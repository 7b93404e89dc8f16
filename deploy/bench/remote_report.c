/* What deploy bench --from shows: the table, the JSON, the HTML report
 * with its charts (remote.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "escape.h"
#include "mem.h"
#include "remote.h"

static const char *const tgt_label[TGT_N] = { "new", "old" };

double
bench_remote_success(const struct bench_cell *c)
{
	long long tried = c->requests + c->connect_err + c->read_err +
	    c->write_err + c->timeouts;

	if (!c->ran || tried <= 0)
		return -1;
	return (double)(c->requests - c->bad_status) / (double)tried;
}

void
bench_remote_total(const struct bench_remote *r, const struct bench_step *s,
    int t, int round, struct bench_cell *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	out->dns_ms = out->connect_ms = out->tls_ms = out->ttfb_ms =
	    out->transfer_ms = -1;
	for (i = 0; i < r->nclients; i++) {
		const struct bench_cell *c = &s->cell[t][round][i];

		if (!c->ran)
			continue;
		out->ran = 1;
		out->requests += c->requests;
		out->bad_status += c->bad_status;
		out->connect_err += c->connect_err;
		out->read_err += c->read_err;
		out->write_err += c->write_err;
		out->timeouts += c->timeouts;
		out->rps += c->rps;
		if (c->seconds > out->seconds)
			out->seconds = c->seconds;
		/* Latency of the whole: the worst client's. */
		if (c->p50_ms > out->p50_ms)
			out->p50_ms = c->p50_ms;
		if (c->p90_ms > out->p90_ms)
			out->p90_ms = c->p90_ms;
		if (c->p99_ms > out->p99_ms)
			out->p99_ms = c->p99_ms;
		if (c->max_ms > out->max_ms)
			out->max_ms = c->max_ms;
		if (c->limited[0] != '\0' && out->limited[0] == '\0')
			xsnprintf(out->limited, sizeof(out->limited), "%s",
			    c->limited);
	}
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
mid(double *v, int n)
{
	if (n <= 0)
		return -1;
	xqsort(v, (size_t)n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
bench_remote_median(const struct bench_remote *r, const struct bench_step *s,
    int t, int client, struct bench_cell *out)
{
	struct bench_cell c[BENCH_REMOTE_MAX_ROUNDS];
	double v[9][BENCH_REMOTE_MAX_ROUNDS];
	int n = 0, np = 0, i, k;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	for (i = 0; i < r->rounds; i++) {
		struct bench_cell x;

		if (client < 0)
			bench_remote_total(r, s, t, i, &x);
		else
			x = s->cell[t][i][client];
		if (x.ran)
			c[n++] = x;
	}
	for (i = 0; i < n; i++) {
		out->ran = 1;
		out->seconds += c[i].seconds;
		out->requests += c[i].requests;
		out->bad_status += c[i].bad_status;
		out->connect_err += c[i].connect_err;
		out->read_err += c[i].read_err;
		out->write_err += c[i].write_err;
		out->timeouts += c[i].timeouts;
		out->phase_fail += c[i].phase_fail;
		out->nphase += c[i].nphase;
		if (c[i].cpu > out->cpu)
			out->cpu = c[i].cpu;
		if (c[i].limited[0] != '\0' && out->limited[0] == '\0')
			xsnprintf(out->limited, sizeof(out->limited), "%s",
			    c[i].limited);
		v[0][i] = c[i].rps;
		v[1][i] = c[i].p50_ms;
		v[2][i] = c[i].p90_ms;
		v[3][i] = c[i].p99_ms;
		v[4][i] = c[i].max_ms;
		if (c[i].nphase > 0) {
			v[5][np] = c[i].dns_ms;
			v[6][np] = c[i].connect_ms;
			v[7][np] = c[i].tls_ms;
			v[8][np] = c[i].ttfb_ms;
			np++;
		}
	}
	out->rps = mid(v[0], n);
	out->p50_ms = mid(v[1], n);
	out->p90_ms = mid(v[2], n);
	out->p99_ms = mid(v[3], n);
	out->max_ms = mid(v[4], n);
	out->dns_ms = mid(v[5], np);
	out->connect_ms = mid(v[6], np);
	out->tls_ms = mid(v[7], np);
	out->ttfb_ms = mid(v[8], np);
	/* transfer: not kept apart over rounds, it is small for pages */
	out->transfer_ms = -1;
	for (i = 0, k = 0; i < n; i++)
		if (c[i].nphase > 0 && c[i].transfer_ms >= 0)
			v[0][k++] = c[i].transfer_ms;
	out->transfer_ms = mid(v[0], k);
}

/* The ratio new/old of the total req/s, round by round: median, lowest
 * and highest. 0 when there is no pair. */
static int
ratio(const struct bench_remote *r, const struct bench_step *s, double *m,
    double *lo, double *hi)
{
	double v[BENCH_REMOTE_MAX_ROUNDS];
	int n = 0, i;

	for (i = 0; i < r->rounds; i++) {
		struct bench_cell a, b;

		bench_remote_total(r, s, TGT_NEW, i, &a);
		bench_remote_total(r, s, TGT_OLD, i, &b);
		if (a.ran && b.ran && b.rps > 0)
			v[n++] = a.rps / b.rps;
	}
	if (n == 0)
		return 0;
	*m = mid(v, n);
	*lo = v[0];
	*hi = v[n - 1];
	return 1;
}

static void
ms(char *out, size_t n, double v)
{
	if (v < 0)
		xsnprintf(out, n, "-");
	else if (v < 10)
		xsnprintf(out, n, "%.2f", v);
	else
		xsnprintf(out, n, "%.0f", v);
}

static void
pct(char *out, size_t n, double v)
{
	if (v < 0)
		xsnprintf(out, n, "-");
	else if (v >= 0.9995 && v < 1)
		xsnprintf(out, n, "99.9%%");
	else
		xsnprintf(out, n, "%.1f%%", v * 100);
}

static void
table_row(struct buf *out, int conns, const char *server, const char *who,
    const struct bench_cell *c, const char *note)
{
	char sr[16], p50[16], p90[16], p99[16], mx[16], dn[16], cn[16];
	char tl[16], fb[16], tr[16];

	pct(sr, sizeof(sr), bench_remote_success(c));
	ms(p50, sizeof(p50), c->p50_ms);
	ms(p90, sizeof(p90), c->p90_ms);
	ms(p99, sizeof(p99), c->p99_ms);
	ms(mx, sizeof(mx), c->max_ms);
	ms(dn, sizeof(dn), c->dns_ms);
	ms(cn, sizeof(cn), c->connect_ms);
	ms(tl, sizeof(tl), c->tls_ms);
	ms(fb, sizeof(fb), c->ttfb_ms);
	ms(tr, sizeof(tr), c->transfer_ms);
	buf_printf(out, "%6d %-4s %-10s %8.0f %7s %7lld %7lld %7lld %7lld "
	    "%6s %6s %6s %6s  %5s %6s %6s %6s %5s  %s\n", conns, server, who,
	    c->rps, sr, c->bad_status, c->timeouts, c->connect_err,
	    c->read_err + c->write_err, p50, p90, p99, mx, dn, cn, tl, fb, tr,
	    note);
}

void
bench_remote_table(const struct bench_remote *r, struct buf *out)
{
	size_t s, i;
	int t;

	buf_printf(out, "site %s from %zu client%s, %d round%s of %d s per "
	    "step and server (new, old in turn)\n", r->site, r->nclients,
	    r->nclients == 1 ? "" : "s", r->rounds, r->rounds == 1 ? "" :
	    "s", r->seconds);
	buf_printf(out, "  new: %s\n", r->url[TGT_NEW]);
	if (r->url[TGT_OLD] != NULL)
		buf_printf(out, "  old: %s\n", r->url[TGT_OLD]);
	buf_printf(out, "%6s %-4s %-10s %8s %7s %7s %7s %7s %7s %6s %6s %6s "
	    "%6s  %5s %6s %6s %6s %5s  %s\n", "conns", "", "client", "ok/s",
	    "success", "non2xx", "timeout", "connect", "rd/wr", "p50", "p90",
	    "p99", "max", "dns", "conn", "tls", "1stB", "xfer", "note");
	for (s = 0; s < r->nsteps; s++) {
		const struct bench_step *st = &r->steps[s];
		double m, lo, hi;

		for (t = 0; t < TGT_N; t++) {
			struct bench_cell c;

			if (r->url[t] == NULL)
				continue;
			for (i = 0; i < r->nclients; i++) {
				const char *note = "";
				char nb[80];

				bench_remote_median(r, st, t, (int)i, &c);
				if (!c.ran && !r->clients[i].gone)
					continue;
				if (c.limited[0] != '\0') {
					xsnprintf(nb, sizeof(nb), "limited by "
					    "the client: %s", c.limited);
					note = nb;
				} else if (r->clients[i].gone && (!c.ran ||
				    c.nphase == 0)) {
					note = "client went away";
				} else if (c.ran && bench_remote_success(&c) < 0)
					note = "no answer within the run";
				table_row(out, st->conns, tgt_label[t],
				    r->clients[i].label, &c, note);
			}
			bench_remote_median(r, st, t, -1, &c);
			table_row(out, st->conns, tgt_label[t], "all", &c,
			    c.limited[0] ? "limited by a client" : c.ran &&
			    bench_remote_success(&c) < 0 ?
			    "no answer within the run" : "");
		}
		if (ratio(r, st, &m, &lo, &hi))
			buf_printf(out, "%6d new/old: %.2fx the successful "
			    "answers per second (rounds: %.2f to %.2f)\n",
			    st->conns, m, lo, hi);
		for (t = 0; t < TGT_N; t++)
			if (st->cause[t][0] != '\0')
				buf_printf(out, "%6d %s: %s\n", st->conns,
				    tgt_label[t], st->cause[t]);
	}
	for (i = 0; i < r->nclients; i++)
		if (r->clients[i].gone)
			buf_printf(out, "client %s went away during %s; what it "
			    "measured before is kept\n", r->clients[i].label,
			    r->clients[i].gone_at);
	buf_adds(out, "ok/s: answers 2xx/3xx per second (median round; all: "
	    "the sum); success: those over every request tried (non-2xx, "
	    "timeouts, connect and read/write errors counted apart); latency "
	    "in ms (all: the worst client's); dns..xfer: phases of single "
	    "requests made beside the load (curl), median, ms\n");
}

static void
json_cell(struct buf *out, const struct bench_cell *c)
{
	if (bench_remote_success(c) < 0)
		buf_printf(out, "\"ok_per_s\": %.1f, \"success\": null, ",
		    c->rps);
	else
		buf_printf(out, "\"ok_per_s\": %.1f, \"success\": %.5f, ",
		    c->rps, bench_remote_success(c));
	buf_printf(out,
	    "\"requests\": %lld, \"non_2xx_3xx\": %lld, \"timeouts\": %lld, "
	    "\"connect_errors\": %lld, \"read_errors\": %lld, "
	    "\"write_errors\": %lld, \"p50_ms\": %.3f, \"p90_ms\": %.3f, "
	    "\"p99_ms\": %.3f, \"max_ms\": %.3f", c->requests,
	    c->bad_status, c->timeouts,
	    c->connect_err, c->read_err, c->write_err, c->p50_ms, c->p90_ms,
	    c->p99_ms, c->max_ms);
	if (c->nphase > 0)
		buf_printf(out, ", \"phases_ms\": {\"dns\": %.3f, \"connect\": "
		    "%.3f, \"tls\": %.3f, \"first_byte\": %.3f, \"transfer\": "
		    "%.3f}", c->dns_ms, c->connect_ms, c->tls_ms, c->ttfb_ms,
		    c->transfer_ms);
	if (c->cpu >= 0)
		buf_printf(out, ", \"client_cpu\": %.3f", c->cpu);
	buf_adds(out, ", \"limited_by_client\": ");
	if (c->limited[0] != '\0') {
		buf_addc(out, '"');
		esc_json(out, c->limited, strlen(c->limited));
		buf_addc(out, '"');
	} else
		buf_adds(out, "null");
}

void
bench_remote_json(const struct bench_remote *r, struct buf *out)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t s, i;
	int t;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(out, "{\"date\": \"%s\", \"site\": \"", when);
	esc_json(out, r->site, strlen(r->site));
	buf_printf(out, "\", \"seconds\": %d, \"rounds\": %d, \"pages\": %zu",
	    r->seconds, r->rounds, r->pages);
	for (t = 0; t < TGT_N; t++)
		if (r->url[t] != NULL) {
			buf_printf(out, ", \"%s_url\": \"", tgt_label[t]);
			esc_json(out, r->url[t], strlen(r->url[t]));
			buf_addc(out, '"');
		}
	buf_adds(out, ",\n\"clients\": [");
	for (i = 0; i < r->nclients; i++) {
		buf_adds(out, i ? ", {\"label\": \"" : "{\"label\": \"");
		esc_json(out, r->clients[i].label,
		    strlen(r->clients[i].label));
		buf_printf(out, "\", \"gone\": %s}", r->clients[i].gone ?
		    "true" : "false");
	}
	buf_adds(out, "],\n\"steps\": [\n");
	for (s = 0; s < r->nsteps; s++) {
		const struct bench_step *st = &r->steps[s];
		double m, lo, hi;

		buf_printf(out, "{\"connections\": %d", st->conns);
		for (t = 0; t < TGT_N; t++) {
			struct bench_cell c;

			if (r->url[t] == NULL)
				continue;
			bench_remote_median(r, st, t, -1, &c);
			buf_printf(out, ",\n \"%s\": {", tgt_label[t]);
			json_cell(out, &c);
			buf_printf(out, ", \"listen_overflows\": %lld, "
			    "\"worker_connections_short\": %lld",
			    st->overflows[t], st->wc_short[t]);
			if (st->srv[t].ok)
				buf_printf(out, ", \"backlog\": %d, "
				    "\"somaxconn\": %d", st->srv[t].backlog,
				    st->srv[t].somaxconn);
			buf_adds(out, ", \"cause\": ");
			if (st->cause[t][0] != '\0') {
				buf_addc(out, '"');
				esc_json(out, st->cause[t],
				    strlen(st->cause[t]));
				buf_addc(out, '"');
			} else
				buf_adds(out, "null");
			buf_adds(out, ", \"clients\": {");
			for (i = 0; i < r->nclients; i++) {
				bench_remote_median(r, st, t, (int)i, &c);
				buf_adds(out, i ? ",\n  \"" : "\n  \"");
				esc_json(out, r->clients[i].label,
				    strlen(r->clients[i].label));
				buf_adds(out, "\": {");
				if (c.ran)
					json_cell(out, &c);
				buf_addc(out, '}');
			}
			buf_adds(out, "}}");
		}
		if (ratio(r, st, &m, &lo, &hi))
			buf_printf(out, ",\n \"new_over_old\": %.3f, "
			    "\"new_over_old_min\": %.3f, \"new_over_old_max\": "
			    "%.3f", m, lo, hi);
		buf_printf(out, "}%s\n", s + 1 < r->nsteps ? "," : "");
	}
	buf_adds(out, "]}\n");
}

/* ---- the HTML report: two charts against connections ---- */

static const char *const palette[] = { "#1f5fa8", "#2e8540", "#c05a00",
    "#7b3fa0", "#8a6d00", "#00838f", "#b0306a", "#555" };

/* One chart: a line per client and the total, new solid, old dashed;
 * connections on a log scale. what: 0 ok/s, 1 p99 ms. */
static void
chart(const struct bench_remote *r, struct buf *out, int what)
{
	const int w = 640, h = 340, left = 70, right = 150, top = 40,
	    bottom = 50;
	const int pw = w - left - right, ph = h - top - bottom;
	double ymax = 1, cmin = r->steps[0].conns, cmax = cmin, step, y;
	size_t s, i;
	int t, series;

	for (s = 0; s < r->nsteps; s++) {
		if (r->steps[s].conns < cmin)
			cmin = r->steps[s].conns;
		if (r->steps[s].conns > cmax)
			cmax = r->steps[s].conns;
		for (t = 0; t < TGT_N; t++)
			for (i = 0; i <= r->nclients; i++) {
				struct bench_cell c;
				double v;

				if (r->url[t] == NULL)
					continue;
				bench_remote_median(r, &r->steps[s], t,
				    i == r->nclients ? -1 : (int)i, &c);
				v = what == 0 ? c.rps : c.p99_ms;
				if (c.ran && v > ymax)
					ymax = v;
			}
	}
	for (step = 1; ymax / step > 6; )
		step *= (ymax / step > 30) ? 10 : (ymax / step > 12) ? 5 : 2;
	ymax = step * ceil(ymax / step);
	buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n<title>%s</title>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
	    "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
	    "%s</text>\n", w, h, w, h, what == 0 ?
	    "successful answers per second" : "p99 latency, ms", what == 0 ?
	    "Successful answers per second (more is better)" :
	    "p99 latency in ms (less is better)");
	for (y = 0; y <= ymax + step / 2; y += step) {
		double py = top + ph - ph * y / ymax;

		buf_printf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\" fill=\"#444\">%.0f</text>\n", left,
		    left + pw, py, py, left - 6, py + 4, y);
	}
#define XPOS(c) (cmax > cmin ? left + pw * log((c) / cmin) / \
    log(cmax / cmin) : left + pw / 2.0)
	for (s = 0; s < r->nsteps; s++)
		buf_printf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
		    "fill=\"#444\">%d</text>\n", XPOS(r->steps[s].conns),
		    top + ph + 18, r->steps[s].conns);
	buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	    "connections (log scale)</text>\n", left + pw / 2, h - 8);
	series = 0;
	for (i = 0; i <= r->nclients; i++) {
		const char *colour = i == r->nclients ? "#000" :
		    palette[i % (sizeof(palette) / sizeof(palette[0]))];
		const char *label = i == r->nclients ? "all clients" :
		    r->clients[i].label;

		if (r->nclients == 1 && i == 0)
			continue;	/* the total is the one client */
		for (t = 0; t < TGT_N; t++) {
			int first = 1, ly = top + 14 * series;

			if (r->url[t] == NULL)
				continue;
			buf_printf(out, "<polyline fill=\"none\" stroke=\"%s\" "
			    "stroke-width=\"%d\"%s points=\"", colour,
			    i == r->nclients ? 3 : 2, t == TGT_OLD ?
			    " stroke-dasharray=\"6,4\"" : "");
			for (s = 0; s < r->nsteps; s++) {
				struct bench_cell c;

				bench_remote_median(r, &r->steps[s], t,
				    i == r->nclients ? -1 : (int)i, &c);
				/* No answer: no latency to draw (not 0). */
				if (!c.ran || (what == 1 && (c.requests == 0 ||
				    c.p99_ms <= 0)))
					continue;
				buf_printf(out, "%s%.1f,%.1f", first ? "" : " ",
				    XPOS(r->steps[s].conns), top + ph - ph *
				    (what == 0 ? c.rps : c.p99_ms) / ymax);
				first = 0;
			}
			buf_adds(out, "\"/>\n");
			buf_printf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" "
			    "y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>"
			    "<text x=\"%d\" y=\"%d\">", left + pw + 10,
			    left + pw + 34, ly, ly, colour, t == TGT_OLD ?
			    " stroke-dasharray=\"6,4\"" : "", left + pw + 40,
			    ly + 4);
			esc_xml(out, label, strlen(label));
			buf_printf(out, ", %s</text>\n", tgt_label[t]);
			series++;
		}
	}
#undef XPOS
	buf_adds(out, "</svg>\n");
}

void
bench_remote_html(const struct bench_remote *r, struct buf *out)
{
	struct buf table = BUF_INIT;
	size_t s;
	int t;

	buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>deploy bench: ");
	esc_html(out, r->site, strlen(r->site));
	buf_adds(out, "</title>\n<style>body{font-family:sans-serif;"
	    "max-width:60em;margin:2em auto;padding:0 1em}pre{overflow-x:"
	    "auto;font-size:.8em}svg{max-width:100%;height:auto}</style>\n"
	    "</head>\n<body>\n<h1>deploy bench: ");
	esc_html(out, r->site, strlen(r->site));
	buf_adds(out, "</h1>\n<p>New: <code>");
	esc_html(out, r->url[TGT_NEW], strlen(r->url[TGT_NEW]));
	buf_adds(out, "</code>");
	if (r->url[TGT_OLD] != NULL) {
		buf_adds(out, "; old: <code>");
		esc_html(out, r->url[TGT_OLD], strlen(r->url[TGT_OLD]));
		buf_adds(out, "</code> (dashed)");
	}
	buf_adds(out, ".</p>\n");
	for (s = 0; s < r->nsteps; s++)
		for (t = 0; t < TGT_N; t++)
			if (r->steps[s].cause[t][0] != '\0') {
				buf_adds(out, "<p><strong>");
				esc_html(out, r->steps[s].cause[t],
				    strlen(r->steps[s].cause[t]));
				buf_printf(out, "</strong> (%d connections)</p>\n",
				    r->steps[s].conns);
			}
	chart(r, out, 0);
	chart(r, out, 1);
	bench_remote_table(r, &table);
	buf_adds(out, "<pre>");
	esc_html(out, table.ptr, table.len);
	buf_adds(out, "</pre>\n</body>\n</html>\n");
	buf_release(&table);
}
