'use strict';
// The browser side of tests/bench/search.sh. One mode per run:
//
//   node measure.js ssg OUT QUERY JSON       ssg's /search/?q=QUERY in
//       headless Chromium: the bytes it fetches, the time of the first
//       results, then the time of the same query again (index cached)
//   node measure.js pagefind OUT QUERY JSON  Pagefind's search(QUERY) and
//       the data of its first 10 results, the same way
//   node measure.js zola POSTS SITE_URL JSON Zola's one-file index
//       (search_index.LANG.js) of the posts, made with elasticlunr.js
//   node measure.js report WORK [OUTFILE]    the table of all results
//
// Each mode prints what it measured and writes it as JSON. The pages are
// served from OUT by a server in this process on 127.0.0.1: a file's .gz
// when it has one and the browser asks for gzip, as nginx's gzip_static
// does; other text files gzipped (level 9) as they are sent, as nginx's
// gzip does. Bytes are the bodies the server sent for each request (all
// of them, a worker's too), beside what Chromium's network events say it
// received (CDP Network.loadingFinished encodedDataLength, headers too)
// for the page's own requests; nothing of the form of either index is
// assumed.
//
// Environment: CHROMIUM (/usr/bin/chromium), PLAYWRIGHT (playwright-core,
// default tests/themes/node_modules), SEARCH_RUNS (timed queries, 10).

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const zlib = require('zlib');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const RUNS = Number(process.env.SEARCH_RUNS || 10);
const BUDGET_BYTES = 150 * 1024;
const BUDGET_MS = 50;
const BUDGET_SHARE = 0.15;

const TYPES = {
	'.html': 'text/html; charset=utf-8', '.css': 'text/css',
	'.js': 'text/javascript', '.mjs': 'text/javascript',
	'.json': 'application/json', '.xml': 'application/xml',
	'.txt': 'text/plain', '.svg': 'image/svg+xml',
	'.wasm': 'application/wasm', '.png': 'image/png',
	'.ico': 'image/x-icon', '.webp': 'image/webp',
};
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json',
    '.xml', '.txt', '.svg', '.wasm']);

// The page that runs Pagefind as its UI does: search, then the data of
// the first 10 results.
const PAGEFIND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind</title></head>
<body><ol id="results"></ol>
<script type="module">
const q = new URLSearchParams(location.search).get("q");
const t0 = performance.now();
try {
	const pagefind = await import("/pagefind/pagefind.js");
	window.__pagefind = pagefind;
	const s = await pagefind.search(q);
	const data = await Promise.all(s.results.slice(0, 10).map((r) => r.data()));
	const ol = document.getElementById("results");
	for (const d of data) {
		const li = document.createElement("li");
		li.textContent = (d.meta && d.meta.title) + " " + d.url;
		ol.appendChild(li);
	}
	window.__pf = { count: s.results.length, shown: data.length,
	    first: data.length ? data[0].url : null, ms: performance.now() - t0 };
} catch (e) {
	window.__pf = { error: String(e && e.message || e) };
}
</script></body></html>
`;

function kb(n) {
	return (n / 1024).toFixed(1) + ' KB';
}

function median(a) {
	const s = [...a].sort((x, y) => x - y);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Serves dir; notes how each path was sent (its .gz, gzipped now, as is).
function serve(dir) {
	const how = new Map();
	const log = [];
	const server = http.createServer((req, res) => {
		let u;
		try {
			u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		} catch (e) {
			res.writeHead(400);
			return res.end();
		}
		if (u === '/__bench/pagefind.html') {
			res.writeHead(200, { 'content-type': TYPES['.html'],
			    'cache-control': 'no-store' });
			return res.end(PAGEFIND_PAGE);
		}
		let f = path.join(dir, path.normalize(u));
		if (f !== dir && !f.startsWith(dir + path.sep)) {
			res.writeHead(403);
			return res.end();
		}
		try {
			if (fs.statSync(f).isDirectory())
				f = path.join(f, 'index.html');
		} catch (e) {
			/* not there: 404 below */
		}
		if (!fs.existsSync(f)) {
			how.set(u, '404');
			res.writeHead(404, { 'content-type': 'text/plain' });
			return res.end('not found\n');
		}
		const ext = path.extname(f);
		const gz = /\bgzip\b/.test(req.headers['accept-encoding'] || '');
		const h = { 'content-type': TYPES[ext] || 'application/octet-stream',
		    'cache-control': 'max-age=600', 'vary': 'Accept-Encoding' };
		let body;
		if (gz && fs.existsSync(f + '.gz')) {
			body = fs.readFileSync(f + '.gz');
			h['content-encoding'] = 'gzip';
			how.set(u, 'its .gz');
		} else if (gz && COMPRESSIBLE.has(ext)) {
			body = zlib.gzipSync(fs.readFileSync(f), { level: 9 });
			h['content-encoding'] = 'gzip';
			how.set(u, 'gzipped when sent');
		} else {
			body = fs.readFileSync(f);
			how.set(u, 'as is');
		}
		h['content-length'] = body.length;
		log.push({ path: req.url, bytes: body.length, type: h['content-type'],
		    encoding: h['content-encoding'] || '', sent: how.get(u) });
		res.writeHead(200, h);
		res.end(req.method === 'HEAD' ? undefined : body);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1',
	    () => resolve({ server, how, log,
	    base: `http://127.0.0.1:${server.address().port}` })));
}

async function browser() {
	let pw;
	const where = process.env.PLAYWRIGHT ||
	    path.join(ROOT, 'tests', 'themes', 'node_modules', 'playwright-core');
	try {
		pw = require(where);
	} catch (e) {
		throw new Error(`no playwright-core at ${where} (sh tests/themes/setup.sh)`);
	}
	return pw.chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu',
		    '--disable-quic', '--no-first-run',
		    '--disable-background-networking',
		    '--disable-component-update', '--disable-sync'],
	});
}

// Every request of the page, from the browser's network events: url,
// resource type, status, content-encoding, bytes received (headers and
// body as sent).
async function track(page) {
	const cdp = await page.context().newCDPSession(page);
	const reqs = new Map();
	await cdp.send('Network.enable');
	await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
	cdp.on('Network.requestWillBeSent', (e) => {
		reqs.set(e.requestId, { url: e.request.url, type: e.type,
		    done: false, bytes: 0 });
	});
	cdp.on('Network.responseReceived', (e) => {
		const r = reqs.get(e.requestId);
		if (!r)
			return;
		r.status = e.response.status;
		r.type = e.type || r.type;
		const hd = e.response.headers || {};
		const k = Object.keys(hd).find((x) => x.toLowerCase() === 'content-encoding');
		r.encoding = k ? hd[k] : '';
		r.headerBytes = e.response.encodedDataLength || 0;
	});
	cdp.on('Network.loadingFinished', (e) => {
		const r = reqs.get(e.requestId);
		if (!r)
			return;
		r.bytes = e.encodedDataLength;
		r.done = true;
		r.end = Date.now();
	});
	cdp.on('Network.loadingFailed', (e) => {
		const r = reqs.get(e.requestId);
		if (!r)
			return;
		r.failed = e.errorText;
		r.done = true;
		r.end = Date.now();
	});
	return reqs;
}

// Until no request has been open for quiet ms (at most limit ms).
async function idle(reqs, quiet = 500, limit = 15000) {
	const t0 = Date.now();
	for (;;) {
		const open = [...reqs.values()].some((r) => !r.done);
		const last = Math.max(0, ...[...reqs.values()].map((r) => r.end || 0));
		if (!open && Date.now() - last >= quiet)
			return true;
		if (Date.now() - t0 > limit)
			return false;
		await new Promise((r) => setTimeout(r, 50));
	}
}

// The requests as rows: what the server sent (the body as sent, gzip or
// not; requests of a worker too, which the page's network events miss),
// with the bytes Chromium says it received (headers too) where the page
// saw the request. The page's document and stylesheet (and the favicon)
// are listed but not counted.
async function rows(page, reqs, srv) {
	const seen = new Map();
	for (const r of reqs.values())
		if (r.url.startsWith(srv.base))
			seen.set(r.url.slice(srv.base.length), r);
	const out = [];
	for (const l of srv.log) {
		const r = seen.get(l.path) || {};
		const p = l.path.split('?')[0];
		const counted = !/^text\/(html|css)/.test(l.type) &&
		    p !== '/favicon.ico';
		out.push({ path: l.path, type: r.type || '(worker)',
		    status: 200, encoding: l.encoding, sent: l.sent,
		    body: l.bytes, bytes: r.bytes || 0, counted,
		    failed: r.failed || null });
	}
	return out;
}

function printRows(list) {
	console.log(`  ${'sent'.padStart(10)} ${'received'.padStart(10)}  ${'type'.padEnd(10)} path`);
	for (const r of list) {
		const note = [r.counted ? '' : '(not counted)',
		    r.status && r.status !== 200 ? `status ${r.status}` : '',
		    r.failed ? `failed: ${r.failed}` : '', r.sent].filter(Boolean).join(', ');
		console.log(`  ${String(r.body).padStart(10)} ${String(r.bytes || '-').padStart(10)}  ${String(r.type).padEnd(10)} ${r.path}${note ? '  ' + note : ''}`);
	}
	const c = list.filter((r) => r.counted);
	const sum = (k) => c.reduce((a, r) => a + r[k], 0);
	console.log(`  ${String(sum('body')).padStart(10)} ${String(sum('bytes')).padStart(10)}  total of ${c.length} requests counted`);
	return { requests: c.length, bytes: sum('body'), received: sum('bytes') };
}

// ---- ssg ----

async function measureSsg(out, query, jsonOut) {
	const res = { q: query, ok: false };
	const srv = await serve(out);
	const b = await browser();
	try {
		const ctx = await b.newContext();
		const page = await ctx.newPage();
		const reqs = await track(page);
		// the time of the first results, from the start of navigation
		await page.addInitScript(() => {
			window.__first = null;
			new MutationObserver(() => {
				const l = document.getElementById('search-results') ||
				    document.querySelector('.search-results');
				if (window.__first === null && l && l.children.length > 0)
					window.__first = performance.now();
			}).observe(document, { childList: true, subtree: true });
		});
		const url = '/search/?q=' + query.split(/\s+/).map(encodeURIComponent).join('+');
		console.log(`ssg: ${url} in headless Chromium (${await b.version()})`);
		await page.goto(srv.base + url, { waitUntil: 'load' });
		try {
			await page.waitForFunction(() => {
				const l = document.getElementById('search-results') ||
				    document.querySelector('.search-results');
				return l && l.children.length > 0;
			}, null, { timeout: 60000 });
		} catch (e) {
			const st = await page.evaluate(() => {
				const s = document.getElementById('search-status');
				return s ? s.textContent : '(no #search-status)';
			});
			throw new Error(`no results for "${query}" (status: ${st})`);
		}
		await idle(reqs);
		const list = await rows(page, reqs, srv);
		console.log(`ssg: what the first query fetched (sent: the body as the server sent it; received: as Chromium counted it, headers too, for the page's own requests):`);
		res.first = printRows(list);
		res.resources = list;
		const script = list.filter((r) => r.counted && /javascript/.test(srv.log.find((l) => l.path === r.path).type));
		res.first.script = script.reduce((a, r) => a + r.body, 0);
		const info = await page.evaluate(() => {
			const l = document.getElementById('search-results') ||
			    document.querySelector('.search-results');
			const s = document.getElementById('search-status');
			return { results: l.children.length,
			    status: s ? s.textContent.trim() : '',
			    first: window.__first };
		});
		res.results = info.results;
		res.status = info.status;
		res.first.ms = info.first;
		console.log(`ssg: ${info.results} results ("${info.status}"), shown ${info.first !== null ? info.first.toFixed(0) : '?'} ms after navigation (loopback, no throttling)`);
		console.log(`ssg: budget ${kb(BUDGET_BYTES)} for the first query with the script: ${kb(res.first.bytes)}, ${res.first.bytes < BUDGET_BYTES ? 'within' : 'OVER'}`);

		// The same query again, the index in memory: typed (input
		// event) and submitted (Enter), from the event to the list
		// holding the results again. Between runs the list is emptied
		// by an empty query.
		await page.fill('#search-q', '');
		await page.press('#search-q', 'Enter');
		await page.fill('#search-q', query);	// typed: input events
		await page.waitForFunction((n) => {
			const l = document.getElementById('search-results');
			return l && l.children.length === n;
		}, info.results, { timeout: 30000 });
		const before = reqs.size;
		const times = await page.evaluate(async ({ q, runs, n }) => {
			const input = document.getElementById('search-q') ||
			    document.querySelector('input[type=search]');
			const form = input.form;
			const list = document.getElementById('search-results') ||
			    document.querySelector('.search-results');
			const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
			async function empty() {
				input.value = '';
				form.requestSubmit();
				for (let i = 0; i < 200 && list.children.length !== 0; i++)
					await frame();
				await frame();
			}
			function once(kind) {
				return new Promise((resolve, reject) => {
					let t0 = 0;
					const mo = new MutationObserver(() => {
						if (list.children.length !== n)
							return;
						const t = performance.now() - t0;
						mo.disconnect();
						clearTimeout(to);
						resolve(t);
					});
					const to = setTimeout(() => {
						mo.disconnect();
						reject(new Error(`${kind}: no ${n} results in 10 s`));
					}, 10000);
					mo.observe(list, { childList: true });
					input.value = q;
					t0 = performance.now();
					if (kind === 'input')
						input.dispatchEvent(new Event('input', { bubbles: true }));
					else
						form.requestSubmit();
				});
			}
			const r = { submit: [], input: [] };
			for (const kind of ['submit', 'input']) {
				await empty();
				await once(kind);	// not counted
				for (let i = 0; i < runs; i++) {
					await empty();
					r[kind].push(await once(kind));
				}
			}
			return r;
		}, { q: query, runs: RUNS, n: info.results });
		const again = [...reqs.values()].slice(before).filter((r) => !r.url.startsWith('data:'));
		res.query = { query, runs: RUNS, submit: times.submit, input: times.input,
		    submit_median: median(times.submit), input_median: median(times.input),
		    requests: again.length };
		console.log(`ssg: the same query again, index cached, ${RUNS} runs each (ms):`);
		console.log(`  Enter (submit) -> results: median ${median(times.submit).toFixed(1)}, min ${Math.min(...times.submit).toFixed(1)}, max ${Math.max(...times.submit).toFixed(1)}`);
		console.log(`  typed (input event) -> results: median ${median(times.input).toFixed(1)}, min ${Math.min(...times.input).toFixed(1)}, max ${Math.max(...times.input).toFixed(1)} (with the script's pause for typing)`);
		console.log(`  requests made by the repeated queries: ${again.length}`);
		console.log(`ssg: target ${BUDGET_MS} ms (Enter -> results): ${median(times.submit) < BUDGET_MS ? 'within' : 'OVER'}`);
		res.ok = true;
		await ctx.close();
	} catch (e) {
		res.error = String(e.message || e).split('\n')[0];
		console.log(`ssg: FAILED: ${res.error}`);
	} finally {
		await b.close().catch(() => {});
		srv.server.close();
	}
	fs.writeFileSync(jsonOut, JSON.stringify(res, null, 1));
	return res.ok;
}

// ---- Pagefind ----

async function measurePagefind(out, query, jsonOut) {
	const res = { q: query, ok: false };
	const srv = await serve(out);
	const b = await browser();
	try {
		const ctx = await b.newContext();
		const page = await ctx.newPage();
		const reqs = await track(page);
		await page.goto(`${srv.base}/__bench/pagefind.html?q=${encodeURIComponent(query)}`,
		    { waitUntil: 'load' });
		await page.waitForFunction(() => window.__pf, null, { timeout: 60000 });
		const pf = await page.evaluate(() => window.__pf);
		if (pf.error)
			throw new Error(pf.error);
		await idle(reqs);
		const list = await rows(page, reqs, srv);
		console.log(`pagefind: search("${query}") and the data of the first ${pf.shown} results (sent: body as sent, worker requests too; received: as the page's network events counted it):`);
		res.first = printRows(list);
		res.first.ms = pf.ms;
		res.resources = list;
		res.results = pf.count;
		console.log(`pagefind: ${pf.count} results, first ${pf.first}; ${pf.ms.toFixed(0)} ms from the script's start (loopback)`);
		const before = reqs.size;
		const times = await page.evaluate(async ({ q, runs }) => {
			const pagefind = window.__pagefind;
			const t = [];
			for (let i = 0; i <= runs; i++) {
				const t0 = performance.now();
				const s = await pagefind.search(q);
				await Promise.all(s.results.slice(0, 10).map((r) => r.data()));
				if (i > 0)
					t.push(performance.now() - t0);
			}
			return t;
		}, { q: query, runs: RUNS });
		res.query = { runs: RUNS, times, median: median(times),
		    requests: reqs.size - before };
		console.log(`pagefind: the same search again (index cached): median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}; requests: ${reqs.size - before}`);
		res.ok = true;
		await ctx.close();
	} catch (e) {
		res.error = String(e.message || e).split('\n')[0];
		console.log(`pagefind: FAILED: ${res.error}`);
	} finally {
		await b.close().catch(() => {});
		srv.server.close();
	}
	let prev = {};
	try {
		prev = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
	} catch (e) {
		/* no index-time figures */
	}
	fs.writeFileSync(jsonOut, JSON.stringify(Object.assign(prev, res), null, 1));
	return res.ok;
}

// ---- Zola's index, with elasticlunr.js ----

// Markdown as plain text, simply: the front matter, markup characters,
// link targets, table rules and fence lines go; the code stays (Zola
// indexes the page's text, code included).
function plain(md) {
	return md
	    .replace(/^```.*$/gm, '')
	    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
	    .replace(/^\|?[-:| ]+\|?$/gm, '')
	    .replace(/^#{1,6}\s+/gm, '')
	    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
	    .replace(/[*_`|]/g, ' ')
	    .replace(/[ \t]+/g, ' ')
	    .replace(/\n{3,}/g, '\n\n')
	    .trim();
}

function frontField(fm, key) {
	const m = new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(fm);
	if (!m)
		return '';
	let v = m[1].trim();
	if (/^".*"$/.test(v))
		v = v.slice(1, -1);
	return v;
}

async function measureZola(posts, siteUrl, jsonOut) {
	const res = { ok: false };
	let elasticlunr;
	try {
		elasticlunr = require(path.join(__dirname, 'node_modules', 'elasticlunr'));
	} catch (e) {
		res.error = 'no elasticlunr in tests/bench/search/node_modules';
		console.log(`zola: FAILED: ${res.error}`);
		fs.writeFileSync(jsonOut, JSON.stringify(res, null, 1));
		return false;
	}
	const t0 = Date.now();
	// Zola's default: title and body (include_title, include_content);
	// the description too, as with include_description: true. The
	// document store keeps each field (include_content: the whole text).
	const idx = elasticlunr(function () {
		this.setRef('id');
		this.addField('title');
		this.addField('description');
		this.addField('body');
		this.saveDocument(true);
	});
	const files = fs.readdirSync(posts).filter((f) => f.endsWith('.md')).sort();
	const base = siteUrl.replace(/\/$/, '');
	for (const f of files) {
		const src = fs.readFileSync(path.join(posts, f), 'utf8');
		const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(src);
		const fm = m ? m[1] : '';
		const body = m ? m[2] : src;
		const u = /^(\d{4})-(\d\d)-(\d\d)-(.*)\.md$/.exec(f);
		const id = u ? `${base}/${u[1]}/${u[2]}/${u[3]}/${u[4]}/` : `${base}/${f}`;
		idx.addDoc({ id, title: frontField(fm, 'title'),
		    description: frontField(fm, 'description'), body: plain(body) });
	}
	const t1 = Date.now();
	const js = 'window.searchIndex = ' + JSON.stringify(idx.toJSON()) + ';';
	const raw = Buffer.byteLength(js);
	const gz = zlib.gzipSync(js, { level: 9 }).length;
	const br = zlib.brotliCompressSync(js, { params: {
	    [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
	    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw } }).length;
	Object.assign(res, { ok: true, docs: files.length, raw, gz, br,
	    index_s: (t1 - t0) / 1000, version: elasticlunr.version,
	    fields: ['title', 'description', 'body'] });
	console.log(`zola: search_index.en.js for ${files.length} posts, Zola's format (window.searchIndex = elasticlunr index JSON, fields title, description, body, with the document store), made with elasticlunr.js ${elasticlunr.version} because Zola itself is not installable here`);
	console.log(`zola: ${(raw / 1048576).toFixed(2)} MB raw, ${(gz / 1048576).toFixed(2)} MB gzipped (level 9), ${(br / 1048576).toFixed(2)} MB brotli 9; a reader loads it whole before the first result; indexed in ${res.index_s.toFixed(1)} s`);
	fs.writeFileSync(jsonOut, JSON.stringify(res, null, 1));
	return true;
}

// ---- the table ----

function readJson(f) {
	try {
		return JSON.parse(fs.readFileSync(f, 'utf8'));
	} catch (e) {
		return null;
	}
}

function report(work, outFile) {
	const meta = readJson(path.join(work, 'meta.json')) || {};
	const ssg = readJson(path.join(work, 'ssg.json')) || { ok: false, error: 'not run' };
	const zola = readJson(path.join(work, 'zola.json')) || { ok: false, error: 'not run' };
	const pf = readJson(path.join(work, 'pagefind.json')) || { ok: false, error: 'not run' };
	const builds = readJson(path.join(work, 'builds.json')) || {};
	const L = [];
	const row = (name, value, target, verdict) =>
	    L.push(`${name.padEnd(46)} ${String(value).padStart(14)} ${String(target || '').padStart(10)}  ${verdict || ''}`);
	const ok = (c) => (c ? 'ok' : 'OVER');
	L.push(`search, N=${meta.n} posts, query "${meta.query}" (${meta.words || ''})`);
	row('', 'value', 'target', '');
	if (ssg.ok) {
		row('ssg first query: bytes fetched', kb(ssg.first.bytes), '< 150 KB', ok(ssg.first.bytes < BUDGET_BYTES));
		row(`  requests (script ${kb(ssg.first.script)})`, ssg.first.requests, '', '');
		row('  received, with headers (Chromium)', kb(ssg.first.received), '', '');
		if (typeof ssg.first.ms === 'number')
			row('  results shown after navigation', ssg.first.ms.toFixed(0) + ' ms', '', '(loopback)');
		row('ssg same query again, Enter -> results', ssg.query.submit_median.toFixed(1) + ' ms', '< 50 ms', ok(ssg.query.submit_median < BUDGET_MS));
		row('  typed (input event, with the pause)', ssg.query.input_median.toFixed(1) + ' ms', '', '');
	} else
		row('ssg search page', 'failed', '', ssg.error || '');
	for (const pc of ['off', 'on']) {
		const b = builds[pc];
		if (!b)
			continue;
		row(`ssg build --force, precompress ${pc}: search off`, `${b.off_wall.toFixed(2)} s (${b.off_cpu.toFixed(2)})`, '', '');
		row(`  search on`, `${b.on_wall.toFixed(2)} s (${b.on_cpu.toFixed(2)})`, '', '');
		row(`  index share of the build, wall (cpu)`, `${(b.share_wall * 100).toFixed(1)}% (${(b.share_cpu * 100).toFixed(1)}%)`, '< 15%', ok(b.share_wall < BUDGET_SHARE));
	}
	if (meta.index)
		row('ssg search/ folder: files, bytes', `${meta.index.files}, ${kb(meta.index.bytes)}`, '', meta.index.gz ? `(${kb(meta.index.gz)} as .gz)` : '');
	if (zola.ok) {
		row('Zola one-file index (elasticlunr.js): raw', (zola.raw / 1048576).toFixed(2) + ' MB', '', '');
		row('  gzipped: what a reader loads first', (zola.gz / 1048576).toFixed(2) + ' MB', '', ssg.ok ? `${(zola.gz / ssg.first.bytes).toFixed(0)}x ssg's first query` : '');
	} else
		row('Zola one-file index', zola.error === 'not run' ? 'not measured' : 'failed', '', zola.error || '');
	if (pf.ok) {
		row('Pagefind first query: bytes fetched', kb(pf.first.bytes), '', ssg.ok ? `${(pf.first.bytes / ssg.first.bytes).toFixed(2)}x ssg's` : '');
		row('  requests', pf.first.requests, '', '');
		row('  same search again (+10 results data)', pf.query.median.toFixed(1) + ' ms', '', '');
		if (pf.index_s !== undefined)
			row('  pagefind indexing (after the build)', pf.index_s.toFixed(2) + ' s', '', pf.index_bytes ? `${kb(pf.index_bytes)} in ${pf.index_files} files` : '');
	} else
		row('Pagefind', 'not measured', '', pf.error || '');
	const text = L.join('\n');
	console.log(text);
	if (outFile) {
		fs.writeFileSync(outFile + '.txt', text + '\n');
		fs.writeFileSync(outFile + '.json', JSON.stringify({ meta, builds, ssg, zola, pagefind: pf }, null, 1));
	}
	return ssg.ok;
}

async function main() {
	const [mode, a, b, c] = process.argv.slice(2);
	let ok;
	switch (mode) {
	case 'ssg':
		ok = await measureSsg(path.resolve(a), b, c);
		break;
	case 'pagefind':
		ok = await measurePagefind(path.resolve(a), b, c);
		break;
	case 'zola':
		ok = await measureZola(path.resolve(a), b, c);
		break;
	case 'report':
		ok = report(path.resolve(a), b);
		break;
	default:
		console.error('usage: node measure.js ssg|pagefind OUT QUERY JSON | zola POSTS SITE_URL JSON | report WORK [OUTFILE]');
		process.exit(2);
	}
	process.exit(ok ? 0 : 1);
}

main().catch((e) => {
	console.error(String(e && e.stack || e));
	process.exit(1);
});
