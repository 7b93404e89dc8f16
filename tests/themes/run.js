'use strict';
// Checks every theme under themes/: builds the fixture site with it, serves
// the result on 127.0.0.1 and opens pages in headless Chromium. Per theme:
// theme.yaml fields, CSS that parses and validates, no external references,
// axe-core WCAG 2.1 A/AA (light, and dark when the theme follows the
// system), no page-level horizontal scrolling at 360 px, visible keyboard
// focus with 3:1 contrast, a skip link that shows on focus, a styled
// aria-current menu entry, motion off under prefers-reduced-motion, the
// declared dark flag, and no request to any host but 127.0.0.1.
// Usage: node run.js ROOT [THEME...]   Last line: "N passed, N failed".
// Environment: SSG (the binary), THEME_FIXTURE (the site), CHROMIUM.

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawnSync } = require('child_process');
const csstree = require('css-tree');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(process.argv[2] || path.join(__dirname, '..', '..'));
const ONLY = process.argv.slice(3);
const SSG = process.env.SSG || path.join(ROOT, 'bin', 'ssg');
const FIXTURE = process.env.THEME_FIXTURE || path.join(ROOT, 'tests', 'fixtures', 'basic');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MAX_CSS = 12 * 1024;
const FAMILIES = ['modern', 'retro', 'os', 'web', 'reading', 'special'];
const WORKERS = Number(process.env.THEME_WORKERS || 2);
const WIDE = '2025/03/20/wide-things/';
// a word of several posts' excerpts in the fixture (search: true)
const SEARCH_WORD = 'text';
// the classes of highlighted code (ssg/highlight.py)
const HL_CLASSES = ['hl-k', 'hl-t', 'hl-s', 'hl-c', 'hl-n', 'hl-f', 'hl-b',
    'hl-v', 'hl-o', 'hl-p', 'hl-gd', 'hl-gi', 'hl-gh', 'hl-gp'];
const PAGES = [
	['home', ''],
	['post', '2025/03/01/tables-lists-and-code/'],
	['wide', WIDE],
	['tags', 'tags/'],
	['404', 'no-such-page/'],
	// results listed by search.js, excerpts with marked words
	['search', `search/?q=${SEARCH_WORD}`],
];

let passed = 0;
let failed = 0;
const failures = [];

function result(theme, what, problems) {
	if (problems.length === 0) {
		passed++;
		return;
	}
	failed++;
	for (const p of problems)
		failures.push(`${theme}: ${what}: ${p}`);
}

function listThemes() {
	const dir = path.join(ROOT, 'themes');
	return fs.readdirSync(dir).filter((n) =>
	    n !== 'templates' &&
	    fs.existsSync(path.join(dir, n, 'style.css')) &&
	    (ONLY.length === 0 || ONLY.includes(n))).sort();
}

// theme.yaml: name, one-line description, family, dark.
function checkYaml(theme) {
	const p = path.join(ROOT, 'themes', theme, 'theme.yaml');
	const problems = [];
	const y = {};
	if (!fs.existsSync(p))
		return [['no theme.yaml'], y];
	for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
		const m = /^([a-z_]+):\s*(.*?)\s*$/.exec(line);
		if (m && /^".*"$/.test(m[2])) {
			try {
				y[m[1]] = JSON.parse(m[2]);
			} catch (e) {
				problems.push(`bad quoted value: ${line}`);
			}
		} else if (m) {
			// A plain YAML scalar cannot hold these; libyaml would refuse.
			if (/: | #|^[-?:,\[\]{}#&*!|>'"%@`]/.test(m[2]))
				problems.push(`${m[1]} must be quoted: ${m[2]}`);
			y[m[1]] = m[2];
		} else if (line.trim() !== '' && !line.startsWith('#'))
			problems.push(`unexpected line: ${line}`);
	}
	if (y.name !== theme)
		problems.push(`name is '${y.name}', expected '${theme}'`);
	if (!y.description)
		problems.push('no description');
	if (!FAMILIES.includes(y.family))
		problems.push(`family '${y.family}' not one of ${FAMILIES.join(', ')}`);
	if (!['true', 'false', 'auto'].includes(y.dark))
		problems.push(`dark '${y.dark}' not true, false or auto`);
	return [problems, y];
}

// The stylesheet: parses, every declaration matches the CSS grammar, no
// external references or web fonts, a reduced-motion block, small size.
function checkCss(theme) {
	const file = path.join(ROOT, 'themes', theme, 'style.css');
	const text = fs.readFileSync(file, 'utf8');
	const problems = [];
	let rules = 0;
	let ast;
	try {
		ast = csstree.parse(text, {
			positions: true,
			onParseError: (e) => problems.push(`parse error line ${e.line}: ${e.message}`),
		});
	} catch (e) {
		return [[`parse failed: ${e.message}`], 0];
	}
	let reduced = false;
	const vars = {};
	const decls = [];
	csstree.walk(ast, (node) => {
		if (node.type === 'Rule')
			rules++;
		if (node.type === 'Atrule') {
			const prelude = node.prelude ? csstree.generate(node.prelude) : '';
			if (node.name === 'import')
				problems.push('@import is not allowed');
			if (node.name === 'font-face')
				problems.push('@font-face is not allowed (system fonts only)');
			if (node.name === 'media' && /prefers-reduced-motion:\s*reduce/.test(prelude))
				reduced = true;
		}
		if (node.type === 'Url' && !/^data:/i.test(node.value))
			problems.push(`url(${node.value}) is not a data: URL`);
		if (node.type === 'Declaration' && node.property.startsWith('--') && !(node.property in vars))
			vars[node.property] = csstree.generate(node.value).trim();
		if (node.type === 'Declaration' && !node.property.startsWith('--'))
			decls.push(node);
	});
	// Values that use custom properties are checked with the first value
	// the stylesheet gives each property.
	for (const node of decls) {
		let value = node.value;
		let text = csstree.generate(value);
		if (/var\(/.test(text)) {
			for (let i = 0; i < 5 && /var\(/.test(text); i++)
				text = text.replace(/var\(\s*(--[\w-]+)\s*(?:,([^()]*))?\)/g,
				    (all, name, fb) => vars[name] !== undefined ? vars[name] : (fb || 'initial'));
			try {
				value = csstree.parse(text, { context: 'value' });
			} catch (e) {
				problems.push(`${node.property}: cannot parse '${text}'`);
				continue;
			}
		}
		const m = csstree.lexer.matchProperty(node.property, value);
		if (m.error) {
			const where = node.loc ? ` line ${node.loc.start.line}` : '';
			problems.push(`invalid${where}: ${node.property}: ` +
			    `${text} (${m.error.message.split('\n')[0]})`);
		}
	}
	if (/https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\//i.test(text.replace(/url\(\s*["']?data:[^)]*\)/gi, '')))
		problems.push('mentions a URL to another host');
	// css-tree closes blocks left open at the end; a stray brace is still
	// a mistake.
	const bare = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
	const open = (bare.match(/{/g) || []).length;
	const close = (bare.match(/}/g) || []).length;
	if (open !== close)
		problems.push(`${open} '{' but ${close} '}'`);
	if (!reduced)
		problems.push('no @media (prefers-reduced-motion: reduce) block');
	if (text.length > MAX_CSS)
		problems.push(`${text.length} bytes, more than ${MAX_CSS}`);
	return [problems, rules];
}

// Extra content for the checks: a wide table, a long code line, a long
// word, nested elements the fixture lacks.
const WIDE_POST = `---
title: Wide things
date: 2025-03-20
tags: [markdown]
---
## A second level heading

| Column one | Column two | Column three | Column four | Column five | Column six | Column seven |
|------------|------------|--------------|-------------|-------------|------------|--------------|
| a long cell value | another long cell value | and yet another one | more | more text here | even more | the end |

\`\`\`
a_very_long_line_of_code_that_does_not_wrap(with, many, arguments, that, keep, going, and, going, far, past, the, edge);
\`\`\`

![The river at the mill, high after the rain](/images/river.jpg)

> A quotation with *emphasis*, a [link](/about/) and \`code\`.
>
> — Someone

### A third level heading

Text with <kbd>Ctrl</kbd>+<kbd>C</kbd>, <mark>marked</mark>, **strong**, a
Supercalifragilisticexpialidociousandthensomemorelettersthatgoonandon word,
and https://example.com/a/very/long/path/that/keeps/going/and/going/index.html.

#### A fourth level heading

1. One
   - nested
2. Two

Highlighted code, every token class:

\`\`\`c
int f(void) { return 1 + "s"; } /* c */
\`\`\`

\`\`\`sh
echo $HOME
\`\`\`

\`\`\`console
$ ls
\`\`\`

\`\`\`diff
@@ -1 +1 @@
-a
+b
\`\`\`
`;

function buildSites(tmp, themes, base) {
	const site = path.join(tmp, 'site');
	fs.cpSync(FIXTURE, site, { recursive: true });
	fs.writeFileSync(path.join(site, 'posts', '2025-03-20-wide-things.md'), WIDE_POST);
	// a photo wider than a phone: its <picture> scaled down by every theme
	fs.mkdirSync(path.join(site, 'static', 'images'), { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'tests', 'fixtures', 'bssg-look', 'static', 'images', 'river.jpg'),
	    path.join(site, 'static', 'images', 'river.jpg'));
	const problems = {};
	for (const t of themes) {
		const out = path.join(tmp, 'out', t);
		const r = spawnSync(SSG, ['build', '-C', site, '-t', t, '-o', out,
		    '-u', `${base}/${t}/`, '--force', '-q'], { encoding: 'utf8' });
		problems[t] = [];
		if (r.status !== 0)
			problems[t].push(`ssg build ${r.signal ? 'killed by ' + r.signal : 'exit ' + r.status}: ` +
			    (r.stderr || '').trim().split('\n').slice(0, 3).join(' / '));
		else if (!fs.existsSync(path.join(out, WIDE, 'index.html')))
			problems[t].push('built site lacks the test post');
	}
	return problems;
}

const TYPES = {
	'.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
	'.png': 'image/png', '.xml': 'application/xml', '.txt': 'text/plain',
	'.svg': 'image/svg+xml', '.js': 'text/javascript', '.json': 'application/json',
};

function serve(dir) {
	const server = http.createServer((req, res) => {
		if (req.url === AXE_PATH) {
			res.writeHead(200, { 'content-type': 'text/javascript',
			    'cache-control': 'max-age=86400' });
			return res.end(AXE_SOURCE);
		}
		let u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		const theme = u.split('/')[1];
		let f = path.join(dir, path.normalize(u));
		if (!f.startsWith(dir + path.sep)) {
			res.writeHead(403);
			return res.end();
		}
		if (fs.existsSync(f) && fs.statSync(f).isDirectory())
			f = path.join(f, 'index.html');
		let status = 200;
		if (!fs.existsSync(f)) {
			status = 404;
			f = path.join(dir, theme || '', '404.html');
			if (!fs.existsSync(f)) {
				res.writeHead(404);
				return res.end();
			}
		}
		res.writeHead(status, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream' });
		fs.createReadStream(f).pipe(res);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// In the page: the contrast of a color against what is painted behind an
// element, and a description of how the element looks.
const PAGE_HELPERS = `
window.__t = {
	parse(c) {
		const m = /rgba?\\(([\\d.]+),? ([\\d.]+),? ([\\d.]+)(?:,? \\/? ?([\\d.]+))?\\)/.exec(c);
		if (!m) return null;
		return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
	},
	lum(c) {
		const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
	},
	ratio(a, b) {
		const x = this.lum(a), y = this.lum(b);
		return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
	},
	// The solid color behind el (alpha-composited up the tree); null when
	// an image is in the way.
	bg(el) {
		const layers = [];
		for (let e = el; e; e = e.parentElement) {
			const s = getComputedStyle(e);
			if (s.backgroundImage !== 'none' && !s.backgroundImage.startsWith('url("data:'))
				return null;
			const c = this.parse(s.backgroundColor);
			if (c && c[3] > 0) {
				layers.push(c);
				if (c[3] >= 1) break;
			}
		}
		let out = [255, 255, 255];
		for (let i = layers.length - 1; i >= 0; i--) {
			const c = layers[i];
			out = [0, 1, 2].map((k) => c[k] * c[3] + out[k] * (1 - c[3]));
		}
		return out;
	},
	focusInfo() {
		const el = document.activeElement;
		if (!el || el === document.body) return null;
		const s = getComputedStyle(el);
		const r = el.getBoundingClientRect();
		const info = {
			tag: el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''),
			text: (el.textContent || '').trim().slice(0, 30),
			outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1,
			shadow: s.boxShadow !== 'none',
			visible: r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 &&
			    r.left < innerWidth && r.top < innerHeight,
			ratio: null,
		};
		const oc = this.parse(info.outline ? s.outlineColor : '');
		const behind = this.bg(el.parentElement || el);
		if (oc && behind) {
			info.ratio = this.ratio(oc, behind);
		}
		return info;
	},
	look(el) {
		const s = getComputedStyle(el);
		return [s.color, s.backgroundColor, s.fontWeight, s.textDecorationLine,
		    s.textDecorationStyle, s.borderBottomStyle, s.borderBottomColor,
		    s.borderTopStyle, s.borderLeftStyle, s.boxShadow, s.fontStyle,
		    s.outlineStyle, s.backgroundImage, s.textTransform, s.paddingLeft,
		    getComputedStyle(el, '::before').content,
		    getComputedStyle(el, '::after').content].join('|');
	},
	// bg with the glow of el's text shadow over it, as axe-core reckons
	// it: each shadow's alpha scaled by 0.185 / (blur / font size + 0.4).
	shadowed(bg, s) {
		if (!bg) return null;
		const re = /(rgba?\\([^)]*\\))\\s+(-?[\\d.]+)px\\s+(-?[\\d.]+)px(?:\\s+([\\d.]+)px)?/g;
		const size = parseFloat(s.fontSize);
		let m, out = bg;
		while ((m = re.exec(s.textShadow === 'none' ? '' : s.textShadow)) !== null) {
			const c = this.parse(m[1]);
			const blur = Number(m[4] || 0);
			if (!c || Math.abs(Number(m[2])) > blur || Math.abs(Number(m[3])) > blur)
				continue;
			const a = c[3] * (blur === 0 ? 1 : 0.185 / (blur / size + 0.4));
			out = [0, 1, 2].map((k) => c[k] * a + out[k] * (1 - a));
		}
		return out;
	},
	// The least contrast of each hl-* class in code blocks against what
	// is behind it: { 'hl-k': [ratio, color, background] ... }.
	code() {
		const out = {};
		for (const e of document.querySelectorAll('pre code [class^="hl-"]')) {
			const s = getComputedStyle(e);
			const c = this.parse(s.color);
			const b = this.shadowed(this.bg(e), s);
			const r = c && b ? this.ratio(c, b) : 0;
			const k = e.className;
			if (!(k in out) || r < out[k][0])
				out[k] = [r, getComputedStyle(e).color, b ? 'rgb(' + b.map(Math.round).join(', ') + ')' : 'an image'];
		}
		return out;
	},
	moving() {
		const out = [];
		for (const e of document.querySelectorAll('*')) {
			for (const p of [null, '::before', '::after']) {
				const s = getComputedStyle(e, p);
				const dur = (v) => v.split(',').some((x) => parseFloat(x) > 0.01);
				if ((s.animationName !== 'none' && dur(s.animationDuration)) || dur(s.transitionDuration))
					out.push(e.tagName.toLowerCase() + (p || '') + (e.className ? '.' + e.className : ''));
			}
		}
		return out.slice(0, 5);
	},
	scheme() {
		return this.lum(this.bg(document.body) || [255, 255, 255]);
	},
};
`;

// axe-core is served by the test's server, cacheable, so that Chromium
// compiles it once and not on each of some 500 pages (inline, it cost
// half of the whole check's CPU time).
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const AXE_PATH = '/__axe/axe.min.js';

// The rules of WCAG 2.1 A/AA whose outcome a stylesheet can change:
// colours, what looks like a link or a heading, what scrolls, what is
// hidden yet focusable, orientation. Every theme's HTML is the same, so
// the other rules, about markup, run in full on one page of each theme
// (and on every page of the default theme); these run on every page.
const STYLE_RULES = ['color-contrast', 'link-in-text-block', 'p-as-heading',
    'scrollable-region-focusable', 'aria-hidden-focus', 'css-orientation-lock'];

async function axe(page, base, full) {
	await page.addScriptTag({ url: base + AXE_PATH });
	return page.evaluate(async (rules) => {
		// Token spans of highlighted code are left to the code colours
		// check (the same contrast, text shadows included): checked by axe
		// one by one, they would cost a second a theme.
		const r = await window.axe.run({ include: [document],
		    exclude: [['pre code [class^="hl-"]']] }, {
			runOnly: rules ? { type: 'rule', values: rules } :
			    { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
			resultTypes: ['violations', 'incomplete'],
		});
		const fmt = (v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) =>
		    n.target.join(' ') + (n.any[0] && n.any[0].data && n.any[0].data.contrastRatio ?
		    ` (${n.any[0].data.contrastRatio}:1 ${n.any[0].data.fgColor} on ${n.any[0].data.bgColor})` : '')
		    ).join('; ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`;
		// Findings about the generated markup, which no stylesheet can
		// change: task-list checkboxes without labels, pre lang="c" from
		// the Markdown renderer, and overflow boxes without tabindex
		// (Chromium lets the keyboard scroll them anyway).
		const markup = { 'label': 'li > input[type="checkbox"][disabled]',
		    'valid-lang': 'pre[lang]', 'scrollable-region-focusable': 'table, pre' };
		for (const v of r.violations)
			if (markup[v.id])
				v.nodes = v.nodes.filter((n) => !document.querySelector(n.target[0]).matches(markup[v.id]));
		const out = r.violations.filter((v) => v.nodes.length).map(fmt);
		// Contrast axe could not decide (text over an image or gradient)
		// counts too: the requirement is against the actual background.
		// Cells a table or pre scrolls out of its own box are "partially
		// obscured" to axe; their colours are those of the cells it did
		// check.
		const clipped = (n) => {
			const e = document.querySelector(n.target[0]);
			const box = e && e.closest('table, pre');
			return box && box.scrollWidth > box.clientWidth + 1;
		};
		for (const v of r.incomplete) {
			v.nodes = v.nodes.filter((n) => !clipped(n));
			if (v.nodes.length && v.id === 'color-contrast')
				out.push('undecidable ' + fmt(v) + ' ' +
				    v.nodes.slice(0, 1).map((n) => n.any[0] && n.any[0].message).join(''));
		}
		return out;
	}, full ? null : STYLE_RULES);
}

// One page per worker, kept from theme to theme: a new tab is a new
// renderer process, which cost more than the checks of a small page.
// Requests to any host but the test's own are recorded in page.net and
// refused.
async function checkPage(ctx, base) {
	const page = await ctx.newPage();
	page.net = [];
	await page.addInitScript({ content: PAGE_HELPERS });
	page.on('request', (r) => {
		const u = r.url();
		if (!u.startsWith(base + '/') && !u.startsWith('data:'))
			page.net.push(u);
	});
	await page.route((u) => !u.href.startsWith(base + '/') && !u.href.startsWith('data:'),
	    (route) => route.abort());
	return page;
}

async function checkTheme(page, base, theme, yaml) {
	const net = page.net = [];
	const res = { axe: [], width: [], focus: [], skip: [], current: [], motion: [], dark: [], code: [], net };
	const modes = yaml.dark === 'auto' ? ['light', 'dark'] : ['light'];
	for (const scheme of modes) {
		await page.setViewportSize({ width: 1024, height: 800 });
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		for (const [name, rel] of PAGES) {
			if (scheme === 'dark' && name !== 'home' && name !== 'post' && name !== 'wide')
				continue;
			const url = `${base}/${theme}/${rel}`;
			const resp = await page.goto(url, { waitUntil: 'load' });
			if (!resp || (resp.status() !== 200 && !(name === '404' && resp.status() === 404))) {
				res.axe.push(`${name}: HTTP ${resp && resp.status()}`);
				continue;
			}
			const tag = `${name}${scheme === 'dark' ? ' (dark)' : ''}`;
			if (name === 'search' && !await page.waitForSelector('#search-results mark',
			    { timeout: 5000 }).catch(() => null)) {
				res.axe.push(`${tag}: no results with marked words for '${SEARCH_WORD}'`);
				continue;
			}
			const full = theme === 'default' || (name === 'post' && scheme === 'light');
			for (const v of await axe(page, base, full))
				res.axe.push(`${tag}: ${v}`);
			if (name === 'wide') {
				// Every token class of highlighted code, against the
				// code's background (WCAG AA: 4.5:1).
				const code = await page.evaluate(() => __t.code());
				for (const k of HL_CLASSES) {
					if (!(k in code))
						res.code.push(`${tag}: no ${k} token (is code highlighted?)`);
					else if (code[k][0] < 4.5)
						res.code.push(`${tag}: ${k} ${code[k][1]} on ${code[k][2]}: ` +
						    `${code[k][0].toFixed(2)}:1 < 4.5:1`);
				}
			}
			if (name === 'home') {
				const lum = await page.evaluate(() => __t.scheme());
				const want = scheme === 'dark' || yaml.dark === 'true' ? 'dark' : 'light';
				const got = lum < 0.18 ? 'dark' : lum > 0.3 ? 'light' : 'mid';
				if (got !== want)
					res.dark.push(`${tag}: body background is ${got} ` +
					    `(luminance ${lum.toFixed(2)}), theme.yaml says dark: ${yaml.dark}`);
				const m = await page.evaluate(() => __t.moving());
				if (m.length)
					res.motion.push(`${tag}: still animated under reduced motion: ${m.join(', ')}`);
				// The current menu entry must look different from the others.
				const cur = await page.evaluate(() => {
					const a = document.querySelector('.site-nav a[aria-current="page"]');
					const b = document.querySelector('.site-nav a:not([aria-current])');
					return a && b ? __t.look(a) !== __t.look(b) : null;
				});
				if (cur !== true)
					res.current.push(`${tag}: aria-current menu link looks like the others`);
			}
			if (scheme === 'light' && (name === 'home' || name === 'post')) {
				// Keyboard: the skip link comes first and shows; every
				// focused link has a visible, contrasting indicator.
				await page.evaluate(() => document.activeElement && document.activeElement.blur());
				await page.mouse.click(1, 1).catch(() => {});
				for (let i = 0; i < 5; i++) {
					await page.keyboard.press('Tab');
					const f = await page.evaluate(() => __t.focusInfo());
					if (!f) {
						res.focus.push(`${tag}: Tab ${i + 1} focused nothing`);
						break;
					}
					if (i === 0 && (!/skip-link/.test(f.tag) || !f.visible))
						res.skip.push(`${tag}: first Tab stop is ${f.tag} '${f.text}', visible ${f.visible}`);
					if (!f.outline && !f.shadow)
						res.focus.push(`${tag}: ${f.tag} '${f.text}' has no outline or box-shadow on focus`);
					else if (f.outline && f.ratio !== null && f.ratio < 3)
						res.focus.push(`${tag}: ${f.tag} '${f.text}' outline contrast ${f.ratio.toFixed(2)}:1 < 3:1`);
				}
			}
			// Narrow screen: nothing makes the page itself scroll sideways.
			await page.setViewportSize({ width: 360, height: 740 });
			const w = await page.evaluate(() => ({
				doc: document.documentElement.scrollWidth,
				body: document.body.scrollWidth,
			}));
			if (w.doc > 360 || w.body > 360)
				res.width.push(`${tag}: scrollWidth ${w.doc} (body ${w.body}) > 360 at a 360 px viewport`);
			// a photo keeps its shape however the theme scales it
			const bent = await page.evaluate(async () => {
				const out = [];
				for (const i of document.images) {
					i.loading = 'eager';
					await i.decode().catch(() => {});
					// the content box: a theme's border, padding or
					// turn (transform) is not the image's shape
					const cs = getComputedStyle(i);
					const w = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
					const h = i.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
					if (i.naturalWidth && w > 0 && Math.abs(h / w -
					    i.naturalHeight / i.naturalWidth) > 0.02)
						out.push(`${i.getAttribute('src')} shown ${Math.round(w)}x${Math.round(h)}, ` +
						    `its copy ${i.naturalWidth}x${i.naturalHeight}`);
				}
				return out;
			});
			for (const b of bent)
				res.width.push(`${tag}: an image stretched at 360 px: ${b}`);
			await page.setViewportSize({ width: 1024, height: 800 });
		}
	}
	return res;
}

async function main() {
	const t0 = Date.now();
	const themes = listThemes();
	if (themes.length === 0) {
		console.log('no themes found');
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-themes-'));
	const server = await serve(path.join(tmp, 'out'));
	const base = `http://127.0.0.1:${server.address().port}`;
	fs.mkdirSync(path.join(tmp, 'out'));
	const built = buildSites(tmp, themes, base);
	const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-themes-chromium-'));
	// One browser for all themes, with a fresh profile (--user-data-dir).
	const ctx = await chromium.launchPersistentContext(userData, {
		executablePath: CHROMIUM,
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		    '--no-first-run', '--disable-background-networking',
		    '--disable-component-update', '--disable-sync'],
		serviceWorkers: 'block',
	}).catch((e) => {
		console.log(String(e.message || e).split('\n')[0]);
		return null;
	});
	if (!ctx) {
		console.log(`cannot start ${CHROMIUM}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
	const yamls = {};
	for (const t of themes) {
		const [yp, y] = checkYaml(t);
		yamls[t] = y;
		result(t, 'theme.yaml', yp);
		const [cp] = checkCss(t);
		result(t, 'css', cp);
		result(t, 'build', built[t]);
	}
	const queue = themes.filter((t) => built[t].length === 0);
	const worker = async () => {
		let page = null;
		while (queue.length) {
			const t = queue.shift();
			let r;
			try {
				page = page || await checkPage(ctx, base);
				r = await checkTheme(page, base, t, yamls[t]);
			} catch (e) {
				// a page in an unknown state is not reused
				if (page)
					await page.close().catch(() => {});
				page = null;
				result(t, 'browser', [String(e.message || e).split('\n')[0]]);
				continue;
			}
			result(t, 'axe WCAG 2.1 AA', r.axe);
			result(t, '360px width', r.width);
			result(t, 'keyboard focus', r.focus);
			result(t, 'skip link', r.skip);
			result(t, 'aria-current', r.current);
			result(t, 'reduced motion', r.motion);
			result(t, 'dark flag', r.dark);
			result(t, 'code colours', r.code);
			result(t, 'network', [...new Set(r.net)].map((u) => `request to ${u}`));
			const bad = failures.filter((f) => f.startsWith(t + ': ')).length;
			console.log(`${bad ? 'FAIL' : 'ok  '} ${t}`);
		}
	};
	await Promise.all(Array.from({ length: WORKERS }, worker));
	await ctx.close();
	server.close();
	fs.rmSync(tmp, { recursive: true, force: true });
	fs.rmSync(userData, { recursive: true, force: true });
	for (const f of failures)
		console.log('FAIL ' + f);
	console.log(`${themes.length} themes in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	console.log(String(e && e.stack || e));
	console.log(`${passed} passed, ${failed + 1} failed`);
	process.exit(1);
});
