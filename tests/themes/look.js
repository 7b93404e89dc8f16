'use strict';
// A BSSG site looks as BSSG built it: BSSG's own build of the look fixture
// (tests/fixtures/bssg-look.out) and ssg's build of the same site, each
// styled by stylesheets written the way BSSG's themes are written
// (tests/fixtures/bssg-look.themes), are screenshot in headless Chromium
// at 1280 and 390 px with reduced motion, page kind by page kind. A pair
// fails when more than LOOK_MAX (2%) of its pixels differ.
// usage: node look.js ROOT OUT   (OUT: ssg's builds, one folder a sheet,
// made by tests/e2e/bssg_look.sh). Screenshots go to $SHOTS if set.
// Last line: "N passed, N failed".
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { chromium } = require('playwright-core');

const [ROOT, OUT] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MAX = Number(process.env.LOOK_MAX || 0.02);
// LOOK_BSSG: BSSG's build of another site (its site URL http://look.invalid)
const BSSG = process.env.LOOK_BSSG || path.join(ROOT, 'tests', 'fixtures', 'bssg-look.out');
// LOOK_SHEETS and LOOK_PAGES (space-separated) measure other sheets, such
// as BSSG's own themes, or fewer pages.
const SHEETS = process.env.LOOK_SHEETS || path.join(ROOT, 'tests', 'fixtures', 'bssg-look.themes');
const SITE_URL = 'http://look.invalid';
// one page of every kind BSSG writes
const PAGES = ['', 'page/2/', '2025/03/02/river-walk/', '2025/02/14/shell-loops/',
    'about/', 'tags/', 'tags/notes/', 'archives/', 'archives/2025/',
    'archives/2025/03/', 'authors/', 'authors/grace-hopper/'];
if (process.env.LOOK_PAGES) PAGES.splice(0, PAGES.length,
    ...process.env.LOOK_PAGES.split(' ').map((p) => (p === '/' ? '' : p)));
const WIDTHS = [1280, 390];
let passed = 0, failed = 0;
const worst = [];

function check(what, ok, detail) {
	if (ok) passed++;
	else { failed++; console.log(`FAIL ${what}${detail ? ': ' + detail : ''}`); }
}

const TYPES = { '.jpg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp',
    '.avif': 'image/avif', '.gif': 'image/gif', '.svg': 'image/svg+xml' };

// A server for one side of one sheet. BSSG's pages get this server's
// address for their site URL and the build's year for BSSG's (the
// recording's) in the copyright line; its stylesheet is the sheet itself.
function serve(dir, sheet) {
	const year = String(new Date().getUTCFullYear());
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url.split('?')[0]);
		let p = path.join(dir, url);
		if (!p.startsWith(dir)) { res.writeHead(403); res.end(); return; }
		if (sheet && url === '/css/style.css') p = sheet;
		else if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
		if (!fs.existsSync(p)) { res.writeHead(404); res.end(); return; }
		let body = fs.readFileSync(p);
		if (p.endsWith('.html')) {
			let s = body.toString('utf8');
			if (sheet) {
				const base = `http://127.0.0.1:${server.address().port}`;
				s = s.split(SITE_URL).join(base).replace(/&copy; \d{4} /g, `&copy; ${year} `);
			}
			body = Buffer.from(s);
		}
		const type = p.endsWith('.css') ? 'text/css' : p.endsWith('.html') ? 'text/html; charset=utf-8' :
		    TYPES[path.extname(p)] || 'application/octet-stream';
		res.writeHead(200, { 'Content-Type': type });
		res.end(body);
	});
	return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

// Photos compared by their boxes, not their pixels: BSSG publishes the
// original and ssg a copy made for the screen, whose pixels differ by
// what the encoding lost. Lazy ones are loaded first, so that the box of
// each is the one a reader scrolling down gets.
async function photos(page) {
	await page.evaluate(async () => {
		const imgs = [...document.images];
		for (const i of imgs) i.loading = 'eager';
		await Promise.all(imgs.map((i) => i.decode().catch(() => {})));
	});
	await page.addStyleTag({ content: 'img { object-position: -100000px 0 !important; ' +
	    'background: #000 !important; }' });
}

// The share of pixels that differ between two PNG screenshots, counted over
// the larger of the two (what one has and the other lacks differs).
async function differ(page, a, b) {
	return page.evaluate(async ([a, b]) => {
		const load = (src) => new Promise((ok, no) => {
			const i = new Image();
			i.onload = () => ok(i);
			i.onerror = no;
			i.src = 'data:image/png;base64,' + src;
		});
		const [ia, ib] = await Promise.all([load(a), load(b)]);
		const w = Math.max(ia.width, ib.width), h = Math.max(ia.height, ib.height);
		const px = (img) => {
			const c = document.createElement('canvas');
			c.width = w; c.height = h;
			const g = c.getContext('2d');
			g.fillStyle = '#ff00ff';
			g.fillRect(0, 0, w, h);
			g.drawImage(img, 0, 0);
			return g.getImageData(0, 0, w, h).data;
		};
		const da = px(ia), db = px(ib);
		let n = 0;
		for (let i = 0; i < da.length; i += 4)
			if (Math.abs(da[i] - db[i]) > 8 || Math.abs(da[i + 1] - db[i + 1]) > 8 ||
			    Math.abs(da[i + 2] - db[i + 2]) > 8)
				n++;
		return n / (w * h);
	}, [a.toString('base64'), b.toString('base64')]);
}

async function main() {
	const only = process.env.LOOK_ONLY ? process.env.LOOK_ONLY.split(' ') : null;
	const sheets = fs.readdirSync(SHEETS).filter((f) => f.endsWith('.css'))
	    .filter((f) => !only || only.includes(f.slice(0, -4)))
	    .map((f) => f.slice(0, -4)).sort();
	const servers = [];
	const user = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-look-'));
	const ctx = await chromium.launchPersistentContext(user, {
		executablePath: CHROMIUM, headless: true, reducedMotion: 'reduce',
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
		    '--hide-scrollbars', '--font-render-hinting=none'],
	});
	const page = await ctx.newPage();
	const cmp = await ctx.newPage();
	try {
		for (const sheet of sheets) {
			const b = await serve(BSSG, path.join(SHEETS, sheet + '.css'));
			const s = await serve(path.join(path.resolve(OUT), sheet), null);
			servers.push(b, s);
			const at = (srv) => `http://127.0.0.1:${srv.address().port}/`;
			for (const width of WIDTHS) {
				await page.setViewportSize({ width, height: 800 });
				for (const p of PAGES) {
					const shot = async (srv) => {
						await page.goto(at(srv) + p, { waitUntil: 'load' });
						await photos(page);
						return page.screenshot({ fullPage: true, animations: 'disabled' });
					};
					const A = await shot(b), B = await shot(s);
					const d = await differ(cmp, A, B);
					const name = `${sheet} ${width}px /${p}`;
					worst.push([d, name]);
					check(`${name}: ${(d * 100).toFixed(2)}% of pixels differ (at most ${MAX * 100}%)`, d <= MAX);
					if (process.env.SHOTS) {
						const f = `${sheet}-${width}-${p.replace(/\//g, '_') || 'home'}`;
						fs.writeFileSync(path.join(process.env.SHOTS, f + '-bssg.png'), A);
						fs.writeFileSync(path.join(process.env.SHOTS, f + '-ssg.png'), B);
					}
				}
			}
		}
	} finally {
		await ctx.close();
		for (const s of servers) s.close();
		fs.rmSync(user, { recursive: true, force: true });
	}
	worst.sort((x, y) => y[0] - x[0]);
	const all = worst.map((w) => w[0]).sort((x, y) => x - y);
	console.log(`pairs: ${all.length}, median ${(all[all.length >> 1] * 100).toFixed(2)}%, ` +
	    `worst: ${worst.slice(0, 5).map((w) => `${w[1]} ${(w[0] * 100).toFixed(2)}%`).join('; ')}`);
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}
main().catch((e) => { console.log(String(e)); console.log(`${passed} passed, ${failed + 1} failed`); process.exit(1); });
