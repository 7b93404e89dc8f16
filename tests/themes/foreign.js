'use strict';
// A stylesheet written for BSSG's HTML (knowing nothing of ssg's classes)
// styles ssg's pages as BSSG's look: the skip link stays hidden until it
// is focused, and the menu is one row of links (BSSG's, no list), at 360
// and 1280 px.
// Also ssg's own themes named as BSSG's. Screenshots go to $SHOTS if set.
// usage: node foreign.js ROOT OUT_DIR THEME...   (OUT_DIR: ssg outputs,
// one folder per theme, built by tests/e2e/foreign_css.sh)
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { chromium } = require('playwright-core');

const [ROOT, OUT, ...THEMES] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
let passed = 0, failed = 0;
function check(what, ok, detail) {
	if (ok) passed++;
	else { failed++; console.log(`FAIL ${what}${detail ? ': ' + detail : ''}`); }
}

function serve(dir) {
	const server = http.createServer((req, res) => {
		let p = path.join(dir, decodeURIComponent(req.url.split('?')[0]));
		if (!p.startsWith(dir)) { res.writeHead(403); res.end(); return; }
		if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
		if (!fs.existsSync(p)) { res.writeHead(404); res.end(); return; }
		const type = p.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
		res.writeHead(200, { 'Content-Type': type });
		res.end(fs.readFileSync(p));
	});
	return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

async function main() {
	const server = await serve(path.resolve(OUT));
	const base = `http://127.0.0.1:${server.address().port}`;
	const user = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-foreign-'));
	const ctx = await chromium.launchPersistentContext(user, {
		executablePath: CHROMIUM, headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
	});
	const page = await ctx.newPage();
	for (const theme of THEMES) {
		for (const width of [360, 1280]) {
			await page.setViewportSize({ width, height: 800 });
			await page.goto(`${base}/${theme}/`, { waitUntil: 'load' });
			const r = await page.evaluate(() => {
				const skip = document.querySelector('.skip-link');
				const sr = skip.getBoundingClientRect();
				const items = [...document.querySelectorAll('header nav > a')];
				const tops = new Set(items.map((a) => Math.round(a.getBoundingClientRect().top)));
				return { skipSeen: sr.right > 0 && sr.bottom > 0 &&
				    sr.left < innerWidth && sr.top < innerHeight,
				    rows: tops.size, n: items.length,
				    lists: document.querySelectorAll('header nav ul, header nav li').length };
			});
			const tag = `${theme} at ${width} px`;
			check(`${tag}: skip link hidden until focused`, !r.skipSeen);
			check(`${tag}: menu of links, as BSSG's`, r.n > 1 && r.lists === 0, `${r.n} links, ${r.lists} list elements`);
			if (width === 1280)
				check(`${tag}: menu on one row`, r.rows === 1, `${r.rows} rows`);
			if (process.env.SHOTS)
				await page.screenshot({ path: path.join(process.env.SHOTS, `${theme}-${width}.png`) });
			await page.focus('.skip-link');
			const focused = await page.evaluate(() => {
				const sr = document.querySelector('.skip-link').getBoundingClientRect();
				return sr.right > 0 && sr.left < innerWidth;
			});
			check(`${tag}: skip link shows when focused`, focused);
		}
	}
	await ctx.close();
	server.close();
	fs.rmSync(user, { recursive: true, force: true });
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}
main().catch((e) => { console.log(String(e)); console.log('0 passed, 1 failed'); process.exit(1); });
