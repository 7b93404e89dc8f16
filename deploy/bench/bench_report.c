/* What a bench shows and keeps: the table, the JSON, the chart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "escape.h"
#include "fsutil.h"
#include "mem.h"

/* Reads the number after "key": in line (up to end), or 0. */
static double
field(const char *line, const char *end, const char *key)
{
	char pat[64];
	const char *p;

	xsnprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(line, pat);
	if (p == NULL || p > end)
		return 0;
	return strtod(p + strlen(pat), NULL);
}

size_t
bench_read(struct bench_result *r, const char *text)
{
	const char *p, *end;
	size_t got = 0;

	/* Our own format: one run object per line. */
	for (p = strstr(text, "{\"site\": "); p != NULL;
	    p = strstr(p + 1, "{\"site\": ")) {
		struct bench_row w;

		memset(&w, 0, sizeof(w));
		if (sscanf(p, "{\"site\": \"%39[^\"]\", \"path\": \"%15[^\"]\", "
		    "\"connections\": %d, \"requests_per_s\": %lf", w.site,
		    w.path, &w.conns, &w.m.rps) != 4)
			continue;
		if ((end = strchr(p, '\n')) == NULL)
			end = p + strlen(p);
		w.m.runs = (int)field(p, end, "runs");
		w.m.p50_ms = field(p, end, "p50_ms");
		w.m.p99_ms = field(p, end, "p99_ms");
		w.m.errors = (long)field(p, end, "errors");
		w.m.bytes_per_s = field(p, end, "bytes_per_s");
		w.m.site_us = field(p, end, "site_cpu_us_per_request");
		w.m.proxy_us = field(p, end, "proxy_cpu_us_per_request");
		r->rows = xrealloc(r->rows, (r->n + 1) * sizeof(*r->rows));
		r->rows[r->n++] = w;
		got++;
	}
	return got;
}

int
bench_compare(struct bench_result *r, const char *path, struct diag *d)
{
	struct bench_result old = { NULL, 0, 0, 0 };
	struct buf text = BUF_INIT;
	size_t i, j;

	if (fs_read(path, &text) == -1) {
		diag_error(d, path, 0, "%s", strerror(errno));
		buf_release(&text);
		return -1;
	}
	bench_read(&old, text.ptr != NULL ? text.ptr : "");
	for (j = 0; j < old.n; j++) {
		const struct bench_row *o = &old.rows[j];

		for (i = 0; i < r->n; i++) {
			struct bench_row *w = &r->rows[i];

			if (strcmp(w->site, o->site) != 0 ||
			    strcmp(w->path, o->path) != 0 || w->conns != o->conns)
				continue;
			w->before_rps = o->m.rps;
			w->before_site_us = o->m.site_us;
			w->before_proxy_us = o->m.proxy_us;
		}
	}
	bench_release(&old);
	buf_release(&text);
	return 0;
}

static void
human_bytes(char *out, size_t n, double v)
{
	if (v >= 1048576)
		xsnprintf(out, n, "%.1f MB/s", v / 1048576);
	else
		xsnprintf(out, n, "%.1f KB/s", v / 1024);
}

/* "±N%": half the range of the runs against the median; "-" for one. */
static void
spread(char *out, size_t n, const struct bench_stat *m)
{
	if (m->runs < 2 || m->rps <= 0)
		xsnprintf(out, n, "-");
	else
		xsnprintf(out, n, "±%.0f%%", 50.0 * (m->rps_max - m->rps_min) /
		    m->rps);
}

static void
micros(char *out, size_t n, double us)
{
	if (us < 0)
		xsnprintf(out, n, "-");
	else
		xsnprintf(out, n, "%.1f", us);
}

void
bench_table(const struct bench_result *r, struct buf *out)
{
	size_t i;
	int stock = 0;

	buf_printf(out, "%-10s %-11s %5s %8s %6s %7s %7s %6s %11s %7s %7s "
	    "%7s %8s %6s %7s\n", "site", "path", "conns", "req/s", "spread",
	    "p50 ms", "p99 ms", "errors", "transfer/s", "site", "proxy",
	    "change", "stock", "/stock", "stock");
	buf_printf(out, "%-10s %-11s %5s %8s %6s %7s %7s %6s %11s %7s %7s "
	    "%7s %8s %6s %7s\n", "", "", "", "", "", "", "", "", "",
	    "µs/req", "µs/req", "", "req/s", "", "µs/req");
	for (i = 0; i < r->n; i++) {
		const struct bench_row *w = &r->rows[i];
		char tr[32], sp[16], su[16], pu[16], ch[16] = "";
		char srps[16] = "", ratio[16] = "", sus[16] = "";

		human_bytes(tr, sizeof(tr), w->m.bytes_per_s);
		spread(sp, sizeof(sp), &w->m);
		micros(su, sizeof(su), w->m.site_us);
		micros(pu, sizeof(pu), w->m.proxy_us);
		if (w->before_rps > 0)
			xsnprintf(ch, sizeof(ch), "%+.1f%%", 100.0 *
			    (w->m.rps - w->before_rps) / w->before_rps);
		if (w->stock.runs > 0 && w->stock.rps > 0) {
			stock = 1;
			xsnprintf(srps, sizeof(srps), "%.0f", w->stock.rps);
			xsnprintf(ratio, sizeof(ratio), "%.2fx",
			    w->m.rps / w->stock.rps);
			micros(sus, sizeof(sus), w->stock.site_us);
		}
		buf_printf(out, "%-10s %-11s %5d %8.0f %6s %7.2f %7.2f %6ld "
		    "%11s %7s %7s %7s %8s %6s %7s\n", w->site, w->path,
		    w->conns, w->m.rps, sp, w->m.p50_ms, w->m.p99_ms,
		    w->m.errors, tr, su, pu, ch, srps, ratio, sus);
	}
	if (r->pages > 0)
		buf_printf(out, "wrk went round the release's %zu pages, "
		    "asking as browsers do (Accept-Encoding: "
		    BENCH_ACCEPT_ENCODING "); "
		    "req/s and latency: the median run; spread: half the range "
		    "of the runs; µs/req: CPU time of the site's and the "
		    "proxy's servers per request\n", r->pages);
	if (stock)
		buf_adds(out, "stock: the same direct runs, each right after "
		    "the site's, against nginx with the distribution's stock "
		    "nginx.conf on the same files behind the same firewall; "
		    "/stock: req/s of the site's nginx / stock\n");
}

static void
json_stat(struct buf *out, const char *pre, const struct bench_stat *m)
{
	buf_printf(out, ", \"%sruns\": %d, \"%srequests_per_s_min\": %.1f, "
	    "\"%srequests_per_s_max\": %.1f, \"%sp50_ms\": %.3f, "
	    "\"%sp99_ms\": %.3f, \"%serrors\": %ld, \"%sbytes_per_s\": %.0f",
	    pre, m->runs, pre, m->rps_min, pre, m->rps_max, pre, m->p50_ms,
	    pre, m->p99_ms, pre, m->errors, pre, m->bytes_per_s);
	if (m->site_us >= 0)
		buf_printf(out, ", \"%ssite_cpu_us_per_request\": %.2f", pre,
		    m->site_us);
	if (m->proxy_us >= 0 && *pre == '\0')
		buf_printf(out, ", \"proxy_cpu_us_per_request\": %.2f",
		    m->proxy_us);
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
	buf_printf(out, "{\"date\": \"%s\", \"pages\": %zu, \"seconds\": %d, "
	    "\"runs\": [\n", when, r->pages, r->seconds);
	for (i = 0; i < r->n; i++) {
		const struct bench_row *w = &r->rows[i];

		buf_adds(out, "{\"site\": \"");
		esc_json(out, w->site, strlen(w->site));
		buf_printf(out, "\", \"path\": \"%s\", \"connections\": %d, "
		    "\"requests_per_s\": %.1f", w->path, w->conns, w->m.rps);
		json_stat(out, "", &w->m);
		if (w->before_rps > 0)
			buf_printf(out, ", \"before_requests_per_s\": %.1f",
			    w->before_rps);
		if (w->stock.runs > 0 && w->stock.rps > 0) {
			buf_printf(out, ", \"stock_requests_per_s\": %.1f",
			    w->stock.rps);
			json_stat(out, "stock_", &w->stock);
			buf_printf(out, ", \"tuned_over_stock\": %.3f",
			    w->m.rps / w->stock.rps);
		}
		buf_printf(out, "}%s\n", i + 1 < r->n ? "," : "");
	}
	buf_adds(out, "]}\n");
}

/* The chart's series: one bar each per group of connections. */
static const struct {
	const char	*path;		/* NULL: the stock nginx */
	const char	*label;
	const char	*colour;
} series[] = {
	{ "proxy-https", "HTTPS through the proxy", "#1f5fa8" },
	{ "proxy-http", "HTTP through the proxy (redirect)", "#8a8f98" },
	{ "direct-http", "HTTP straight at the site's nginx", "#2e8540" },
	{ NULL, "HTTP at a stock nginx.conf, same files", "#c05a00" },
};
#define NSERIES (sizeof(series) / sizeof(series[0]))

/* A round step for about 5 grid lines up to max. */
static double
grid_step(double max)
{
	double mag = 1, f;

	while (max / 5 >= mag * 10)
		mag *= 10;
	f = max / 5 / mag;
	return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

static const struct bench_stat *
bar_of(const struct bench_row *w, size_t k)
{
	if (series[k].path == NULL)
		return strcmp(w->path, "direct-http") == 0 &&
		    w->stock.runs > 0 ? &w->stock : NULL;
	return strcmp(w->path, series[k].path) == 0 ? &w->m : NULL;
}

void
bench_svg(const struct bench_result *r, struct buf *out)
{
	const int bar = 16, left = 170, plot = 520, top = 96;
	double max = 1, step, x;
	size_t i, j, k, g, ngroups = 0;
	int y, h, bars = 0;
	struct { const char *site; int conns; } groups[64];

	for (i = 0; i < r->n && ngroups < 64; i++) {
		const struct bench_row *w = &r->rows[i];

		if (w->m.rps_max > max)
			max = w->m.rps_max;
		if (w->stock.rps_max > max)
			max = w->stock.rps_max;
		if (w->before_rps > max)
			max = w->before_rps;
		for (g = 0; g < ngroups; g++)
			if (groups[g].conns == w->conns &&
			    strcmp(groups[g].site, w->site) == 0)
				break;
		if (g == ngroups) {
			groups[ngroups].site = w->site;
			groups[ngroups++].conns = w->conns;
		}
	}
	for (g = 0; g < ngroups; g++)
		for (k = 0; k < NSERIES; k++)
			for (i = 0; i < r->n; i++)
				if (r->rows[i].conns == groups[g].conns &&
				    strcmp(r->rows[i].site,
				    groups[g].site) == 0 &&
				    bar_of(&r->rows[i], k) != NULL)
					bars++;
	step = grid_step(max);
	max = step * (double)(long)((max + step - 1) / step);
	h = top + bars * (bar + 4) + (int)ngroups * 28 + 50;
	buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n"
	    "<title>deploy bench: requests per second</title>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
	    "<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">"
	    "Requests per second (more is better)</text>\n"
	    "<text x=\"10\" y=\"40\" fill=\"#444\">wrk, every page of the "
	    "release in turn (%zu pages); bars: median run, whiskers: "
	    "slowest and fastest run</text>\n", left + plot + 80, h,
	    left + plot + 80, h, r->pages);
	/* The legend: a swatch per series, two to a row. */
	for (k = 0; k < NSERIES; k++) {
		int lx = 10 + (int)(k % 2) * 330, ly = 52 + (int)(k / 2) * 18;

		buf_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" "
		    "height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s"
		    "</text>\n", lx, ly, series[k].colour, lx + 16, ly + 10,
		    series[k].label);
	}
	/* Grid and scale. */
	for (x = 0; x <= max + step / 2; x += step) {
		double px = left + plot * x / max;

		buf_printf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
		    "y2=\"%d\" stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\" fill=\"#444\">%.0f</text>\n", px, px,
		    top, h - 34, px, h - 20, x);
	}
	buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	    "requests per second</text>\n", left + plot / 2, h - 4);
	y = top;
	for (g = 0; g < ngroups; g++) {
		char label[96];

		xsnprintf(label, sizeof(label), "%s, %d connections",
		    groups[g].site, groups[g].conns);
		buf_printf(out, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">",
		    y + 16);
		esc_xml(out, label, strlen(label));
		buf_adds(out, "</text>\n");
		y += 24;
		for (k = 0; k < NSERIES; k++) {
			for (j = 0; j < r->n; j++) {
				const struct bench_row *w = &r->rows[j];
				const struct bench_stat *m;
				double len, lo, hi;

				if (w->conns != groups[g].conns ||
				    strcmp(w->site, groups[g].site) != 0 ||
				    (m = bar_of(w, k)) == NULL)
					continue;
				len = plot * m->rps / max;
				lo = left + plot * m->rps_min / max;
				hi = left + plot * m->rps_max / max;
				buf_printf(out, "<text x=\"%d\" y=\"%d\" "
				    "text-anchor=\"end\" fill=\"#444\">%s"
				    "</text>\n", left - 6, y + 12,
				    series[k].path ? series[k].path :
				    "stock nginx");
				buf_printf(out, "<rect x=\"%d\" y=\"%d\" "
				    "width=\"%.1f\" height=\"%d\" fill=\"%s\">"
				    "<title>%.0f req/s</title></rect>\n", left,
				    y, len > 1 ? len : 1, bar,
				    series[k].colour, m->rps);
				if (m->runs > 1)
					buf_printf(out, "<line x1=\"%.1f\" "
					    "x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
					    "stroke=\"#000\"/>\n", lo, hi,
					    y + bar / 2, y + bar / 2);
				if (series[k].path != NULL &&
				    w->before_rps > 0) {
					double bx = left + plot *
					    w->before_rps / max;

					buf_printf(out, "<line x1=\"%.1f\" "
					    "x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
					    "stroke=\"#000\" stroke-width=\"2\" "
					    "stroke-dasharray=\"3,2\"/>\n", bx,
					    bx, y - 2, y + bar + 2);
				}
				buf_printf(out, "<text x=\"%.1f\" y=\"%d\">"
				    "%.0f</text>\n", left + (hi > left + len ?
				    hi - left : len) + 6, y + 12, m->rps);
				y += bar + 4;
			}
		}
		y += 4;
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
