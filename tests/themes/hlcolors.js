'use strict';
// Writes each theme's colours for highlighted code: measures the
// background and text colour of its code blocks in headless Chromium (in
// the light scheme, and the dark one for dark: auto themes), picks for
// every token class a colour of the class's hue with a contrast of at
// least 4.6:1 against that background, and puts them at the end of
// themes/NAME/style.css as --hl-* custom properties (the block between
// the two "code colours" comments, replaced on each run). The classes use
// them in themes/templates/base.css.
// Usage: node tests/themes/hlcolors.js ROOT [THEME...]
// Environment: SSG (the binary), CHROMIUM.

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawnSync } = require('child_process');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(process.argv[2] || path.join(__dirname, '..', '..'));
const ONLY = process.argv.slice(3);
const SSG = process.env.SSG || path.join(ROOT, 'bin', 'ssg');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MIN = 4.6;	/* WCAG AA is 4.5: a little room for rounding */
const BEGIN = '/* code colours: written by tests/themes/hlcolors.js */';
const END = '/* end of code colours */';

// class: [hue, saturation] (HSL); saturation 0 is grey
const TOKENS = {
	k: [280, 60], t: [190, 70], s: [120, 55], c: [30, 8], n: [25, 80],
	f: [215, 70], b: [170, 65], v: [330, 55], o: [250, 30],
	gd: [0, 70], gi: [130, 60], gh: [205, 60],
};

const POST = `---
title: Code
date: 2025-01-01
---
\`\`\`c
int main(void) { return 0; }
\`\`\`
`;

function lum(c) {
	const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
	return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}

function ratio(a, b) {
	const x = lum(a), y = lum(b);
	return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

function hsl(h, s, l) {
	s /= 100;
	l /= 100;
	const k = (n) => (n + h / 30) % 12;
	const a = s * Math.min(l, 1 - l);
	const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
	return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

function hex(c) {
	return '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
}

// The colour of hue h nearest to the middle that contrasts enough with bg:
// darker on a light background, lighter on a dark one.
function pick(h, s, bgs) {
	const light = lum(bgs[0]) > 0.18;
	for (let i = 0; i <= 100; i++) {
		const l = light ? 50 - i : 55 + i;
		if (l < 0 || l > 100)
			break;
		const c = hsl(h, s, l);
		if (bgs.every((bg) => ratio(c, bg) >= MIN))
			return c;
	}
	return light ? [0, 0, 0] : [255, 255, 255];
}

// bgs: the code background, and with the glow of a text shadow over it
function palette(bgs) {
	return Object.entries(TOKENS).map(([k, [h, s]]) =>
	    `--hl-${k}:${hex(pick(h, s, bgs))}`).join(';');
}

function serve(dir) {
	const server = http.createServer((req, res) => {
		const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		let f = path.join(dir, path.normalize(u));
		if (fs.existsSync(f) && fs.statSync(f).isDirectory())
			f = path.join(f, 'index.html');
		if (!f.startsWith(dir + path.sep) || !fs.existsSync(f)) {
			res.writeHead(404);
			return res.end();
		}
		res.writeHead(200, { 'content-type': f.endsWith('.css') ?
		    'text/css' : 'text/html; charset=utf-8' });
		fs.createReadStream(f).pipe(res);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function parse(c) {
	const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(c);
	return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
}

// A text shadow blurred around the glyphs lightens or darkens what is
// behind them; as axe-core reckons it, each shadow is its colour with
// its alpha scaled by 0.185 / (blur / font size + 0.4).
function shadowed(bg, shadow, fontSize) {
	let out = bg;
	const re = /(rgba?\([^)]*\))\s+(-?[\d.]+)px\s+(-?[\d.]+)px(?:\s+([\d.]+)px)?/g;
	let m;
	while ((m = re.exec(shadow || '')) !== null) {
		const c = parse(m[1]);
		const blur = Number(m[4] || 0);
		if (!c || Math.abs(Number(m[2])) > blur || Math.abs(Number(m[3])) > blur)
			continue;
		const a = c[3] * (blur === 0 ? 1 : 0.185 / (blur / fontSize + 0.4));
		out = [0, 1, 2].map((k) => c[k] * a + out[k] * (1 - a));
	}
	return out;
}

// The background behind the code: composited up from the code element;
// and that with the code's text shadow.
async function codeBg(page) {
	const [layers, shadow, size] = await page.evaluate(() => {
		const out = [];
		const code = document.querySelector('pre code');
		for (let e = code; e; e = e.parentElement)
			out.push(getComputedStyle(e).backgroundColor);
		return [out, getComputedStyle(code).textShadow,
		    parseFloat(getComputedStyle(code).fontSize)];
	});
	let stack = [];
	for (const l of layers) {
		const c = parse(l);
		if (c && c[3] > 0) {
			stack.push(c);
			if (c[3] >= 1)
				break;
		}
	}
	let out = [255, 255, 255];
	for (let i = stack.length - 1; i >= 0; i--) {
		const c = stack[i];
		out = [0, 1, 2].map((k) => c[k] * c[3] + out[k] * (1 - c[3]));
	}
	return [out, shadowed(out, shadow, size)];
}

function strip(css) {
	const i = css.indexOf(BEGIN);
	if (i === -1)
		return css;
	const j = css.indexOf(END, i);
	return (css.slice(0, i) + (j === -1 ? '' : css.slice(j + END.length))).replace(/\n+$/, '\n');
}

async function main() {
	const dir = path.join(ROOT, 'themes');
	const themes = fs.readdirSync(dir).filter((n) => n !== 'templates' &&
	    fs.existsSync(path.join(dir, n, 'style.css')) &&
	    (ONLY.length === 0 || ONLY.includes(n))).sort();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-hl-'));
	const site = path.join(tmp, 'site');
	fs.mkdirSync(path.join(site, 'posts'), { recursive: true });
	fs.writeFileSync(path.join(site, 'site.yaml'), 'site_title: Code\n');
	fs.writeFileSync(path.join(site, 'posts', '2025-01-01-code.md'), POST);
	const server = await serve(path.join(tmp, 'out'));
	const base = `http://127.0.0.1:${server.address().port}`;
	const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(tmp, 'c-')), {
		executablePath: CHROMIUM, headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu'],
	});
	for (const t of themes) {
		const file = path.join(dir, t, 'style.css');
		const css = strip(fs.readFileSync(file, 'utf8'));
		fs.writeFileSync(file, css);	/* measured without the old block */
		const yaml = fs.readFileSync(path.join(dir, t, 'theme.yaml'), 'utf8');
		const auto = /^dark:\s*auto\s*$/m.test(yaml);
		const r = spawnSync(SSG, ['build', '-C', site, '-t', t, '-o',
		    path.join(tmp, 'out', t), '-u', `${base}/${t}/`, '--force', '-q']);
		if (r.status !== 0) {
			console.log(`${t}: ssg build failed`);
			continue;
		}
		const block = [BEGIN];
		for (const scheme of auto ? ['light', 'dark'] : ['light']) {
			const page = await ctx.newPage();
			await page.emulateMedia({ colorScheme: scheme });
			await page.goto(`${base}/${t}/2025/01/01/code/`);
			const bgs = await codeBg(page);
			await page.close();
			const rule = `:root{${palette(bgs)}}`;
			block.push(scheme === 'dark' ?
			    `@media (prefers-color-scheme: dark) {\n${rule}\n}` : rule);
			console.log(`${t} ${scheme}: code background ` +
			    bgs.map((b) => hex(b.map(Math.round))).join(' '));
		}
		block.push(END);
		fs.writeFileSync(file, css.replace(/\n*$/, '\n\n') + block.join('\n') + '\n');
	}
	await ctx.close();
	server.close();
	fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
	console.log(String(e && e.stack || e));
	process.exit(1);
});
