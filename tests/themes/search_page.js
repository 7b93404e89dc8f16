'use strict';
// The search page as a reader uses it, in headless Chromium: the menu's
// Search link, results as the words are typed (no Enter), the shareable
// /search/?q=words, the form's submit, Tab from the field to the first
// result, an edited post found by its new word and not its old one after
// an incremental `ssg build`, a clear status message and no exception for
// bad queries (empty, too long, no letters of the index's alphabet), the
// live regions, and the noscript text when JavaScript is off.
// usage: node search_page.js SITE   (SITE built with search: true, made by
// tests/e2e/search_browser.sh; the test edits and rebuilds it)
// Environment: SSG (the binary), CHROMIUM. Last line: "N passed, N failed".
const fs = require('fs');
const path = require('path');
const http = require('http');
const { spawnSync } = require('child_process');
const { chromium } = require('playwright-core');

const SITE = path.resolve(process.argv[2]);
const OUT = path.join(SITE, 'output');
const SSG = process.env.SSG || path.join(__dirname, '..', '..', 'bin', 'ssg');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const WAIT = 5000;	// ms for anything the page does; it needs a few dozen
const TIDE = 'Tide tables for sailors';
const TIDE_SRC = path.join(SITE, 'posts', 'tide.md');
let passed = 0, failed = 0;

function check(what, ok, detail) {
	if (ok) passed++;
	else {
		failed++;
		console.log(`FAIL ${what}${detail ? ': ' + detail : ''}`);
		// make mutate: one failure is enough (the browser still closes)
		if (process.env.MUTATE_FAIL_FAST === '1')
			throw new Error('stopped at the first failure');
	}
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript',
    '.json': 'application/json', '.css': 'text/css', '.xml': 'application/xml' };

// The output folder on 127.0.0.1, revalidated on every load as deploy's
// nginx serves it (Cache-Control: no-cache), a folder as its index.html,
// anything missing as 404.html with status 404.
function serve(dir) {
	const server = http.createServer((req, res) => {
		let f = path.join(dir, path.normalize(decodeURIComponent(
		    new URL(req.url, 'http://x').pathname)));
		let status = 200;
		if (!f.startsWith(dir + path.sep) && f !== dir) {
			res.writeHead(403);
			return res.end();
		}
		if (fs.existsSync(f) && fs.statSync(f).isDirectory())
			f = path.join(f, 'index.html');
		if (!fs.existsSync(f)) {
			status = 404;
			f = path.join(dir, '404.html');
		}
		res.writeHead(status, { 'content-type': TYPES[path.extname(f)] ||
		    'application/octet-stream', 'cache-control': 'no-cache' });
		fs.createReadStream(f).pipe(res);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// A page that records uncaught exceptions and console errors.
async function watched(ctx) {
	const page = await ctx.newPage();
	page.errors = [];
	page.on('pageerror', (e) => page.errors.push(`exception: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error')
			page.errors.push(`console: ${m.text()}`);
	});
	return page;
}

// Checks and forgets the errors seen since the last call.
function noErrors(page, what) {
	check(`${what}: no exception or console error`, page.errors.length === 0,
	    page.errors.slice(0, 3).join(' / '));
	page.errors.length = 0;
}

const state = () => {
	const s = document.getElementById('search-status');
	return { status: s ? s.textContent : null,
	    titles: [...document.querySelectorAll('#search-results > li > a')]
	    .map((a) => a.textContent) };
};

// Waits until pred(state, arg) holds in the page; returns the last state
// either way.
async function until(page, pred, arg) {
	const fn = `(${state.toString()})()`;
	try {
		await page.waitForFunction(`(${pred.toString()})(${fn}, ${JSON.stringify(arg)})`,
		    null, { timeout: WAIT, polling: 20 });
	} catch (e) {
		// the check that follows says what was there instead
	}
	return page.evaluate(fn);
}

const show = (s) => `status '${s.status}', results [${s.titles.join(', ')}]`;

async function main() {
	const server = await serve(OUT);
	const base = `http://127.0.0.1:${server.address().port}`;
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic',
		    '--no-first-run', '--disable-background-networking',
		    '--disable-component-update', '--disable-sync'],
	});
	try {
		await reader(browser, base);
		await noScript(browser, base);
	} finally {
		await browser.close();
		server.close();
	}
}

async function reader(browser, base) {
	const ctx = await browser.newContext();
	// nothing but the test's server
	await ctx.route((u) => !u.href.startsWith(base + '/'), (r) => r.abort());
	const page = await watched(ctx);

	// 1. The menu leads to the search page and marks it.
	await page.goto(base + '/');
	const link = page.locator('.site-nav a[href="/search/"]');
	const links = await link.count();
	check('the menu has one Search link', links === 1 &&
	    (await link.textContent()).trim() === 'Search', `${links} links`);
	if (links === 1)
		await link.click();
	else
		await page.goto(base + '/search/');
	await page.waitForURL(base + '/search/', { timeout: WAIT }).catch(() => {});
	check('the Search link opens /search/', page.url() === base + '/search/', page.url());
	check('on the search page the Search link is aria-current',
	    await page.locator('.site-nav a[href="/search/"][aria-current="page"]').count() === 1);
	const msg = await page.$eval('#search-status', (e) => ({ ...e.dataset }));
	let s = await until(page, (x) => x.status !== '');
	check('with no query the status asks for words', s.status === msg.empty, show(s));
	check('the results are a live region', await page.$eval('#search-results',
	    (e) => e.getAttribute('aria-live')) === 'polite');
	check('the status line is a status region', await page.$eval('#search-status',
	    (e) => e.getAttribute('role')) === 'status');
	noErrors(page, 'the empty page');

	// 2. Typed key by key, the results come as the reader types.
	await page.evaluate(() => { window.sameDocument = true; });
	await page.click('#search-q');
	await page.keyboard.type('moo', { delay: 30 });
	s = await until(page, (x) => x.titles.length > 1);
	check('"moo", half a word, lists the posts with moon, the title\'s first, ' +
	    'without Enter', s.titles.length === 2 && s.titles[0] === 'Watching the moon', show(s));
	await page.keyboard.type('n lighth', { delay: 30 });
	s = await until(page, (x, q) => x.titles.length === 1 &&
	    new URLSearchParams(location.search).get('q') === q, 'moon lighth');
	check('typing on narrows the results as it goes',
	    s.titles.length === 1 && s.titles[0] === TIDE, show(s));
	check('the address keeps the query to share',
	    new URL(page.url()).searchParams.get('q') === 'moon lighth', page.url());
	check('no Enter, no reload', await page.evaluate(() => window.sameDocument === true));
	await page.keyboard.press('Control+A');
	await page.keyboard.press('Backspace');
	s = await until(page, (x, w) => x.status === w, msg.empty);
	check('an emptied field empties the list', s.titles.length === 0, show(s));
	await page.keyboard.type('lighth', { delay: 30 });
	s = await until(page, (x, t) => x.titles[0] === t, TIDE);
	check('"lighth" puts the post that holds lighthouse first', s.titles[0] === TIDE, show(s));
	check('the status gives the number of results', s.status === `${msg.results} ${s.titles.length}`,
	    show(s));
	noErrors(page, 'typing');

	// 3. Tab from the field reaches the first result; Enter opens it.
	await page.focus('#search-q');
	let reached = false;
	for (let i = 0; i < 3 && !reached; i++) {
		await page.keyboard.press('Tab');
		reached = await page.evaluate(() => document.activeElement ===
		    document.querySelector('#search-results > li:first-child > a'));
	}
	check('Tab from the field reaches the first result link', reached);
	if (reached) {
		const href = await page.evaluate(() => document.activeElement.href);
		await Promise.all([page.waitForURL(href, { timeout: WAIT }).catch(() => {}),
		    page.keyboard.press('Enter')]);
		check('Enter on the result opens the post', page.url() === href &&
		    /Tide tables/.test(await page.title()), page.url());
	}

	// 4. /search/?q=words opened directly; the form's submit.
	await page.goto(base + '/search/?q=lighthouse');
	s = await until(page, (x) => x.titles.length > 0);
	check('/search/?q=lighthouse shows the post', s.titles[0] === TIDE, show(s));
	check('the field holds the query of the address',
	    await page.inputValue('#search-q') === 'lighthouse');
	// the value set without an input event: only the submit searches
	await page.evaluate(() => { document.getElementById('search-q').value = 'crème'; });
	await page.click('.search-form button[type="submit"]');
	s = await until(page, (x) => x.titles[0] === 'Sourdough bread');
	check('submitting the form searches ("crème", accent folded)',
	    s.titles[0] === 'Sourdough bread', show(s));
	check('the submitted query is in the address',
	    new URL(page.url()).searchParams.get('q') === 'crème', page.url());
	noErrors(page, 'the address and the form');

	// 5. Queries that find nothing to search for: a message, no exception.
	const bad = [
		['an emptied field', async () => {
			await page.click('#search-q');
			await page.keyboard.press('Control+A');
			await page.keyboard.press('Backspace');
		}, msg.empty],
		['"★★★" typed', async () => {
			await page.click('#search-q');
			await page.keyboard.press('Control+A');
			await page.keyboard.type('★★★', { delay: 20 });
		}, msg.nowords],
		['"漢字" in the address', async () =>
			page.goto(base + '/search/?q=' + encodeURIComponent('漢字')), msg.nowords],
		['emoji', async () => page.fill('#search-q', '🔍🙂🦀'), msg.nowords],
		['punctuation only', async () => page.fill('#search-q', '?! -- ...'), msg.nowords],
		['10,000 characters typed in', async () =>
			page.fill('#search-q', 'tide '.repeat(2000)), msg.long],
		['10,000 characters in the address', async () =>
			page.goto(base + '/search/?q=' + 'x'.repeat(10000)), msg.long],
		['17 words', async () => page.fill('#search-q',
			Array.from({ length: 17 }, (v, i) => 'w' + i).join(' ')), msg.long],
		['a word no post has', async () => page.fill('#search-q', 'zebra'), msg.none],
	];
	for (const [what, act, want] of bad) {
		// from a page with results, so that a stale list would show
		await page.goto(base + '/search/?q=moon');
		await until(page, (x) => x.titles.length > 0);
		await act();
		s = await until(page, (x, w) => x.status === w && x.titles.length === 0, want);
		check(`${what}: the status says '${want}'`, s.status === want && s.titles.length === 0,
		    show(s));
		noErrors(page, what);
	}
	// The index has no stop words (ssg/source/searchword.c): the
	// commonest words are found like any other, and a letter outside
	// the alphabet beside a word leaves the word.
	await page.fill('#search-q', 'the');
	s = await until(page, (x) => x.titles.length > 0);
	check('"the" is a word like any other', s.titles.length >= 2, show(s));
	await page.fill('#search-q', '★ sourdough 漢字');
	s = await until(page, (x) => x.titles[0] === 'Sourdough bread');
	check('"★ sourdough 漢字" finds Sourdough bread', s.titles[0] === 'Sourdough bread' &&
	    s.titles.length === 1, show(s));
	noErrors(page, 'common and mixed words');

	// 6. Edit the post, build again (incremental), reload: the new word
	// is found and the old one is gone.
	await page.goto(base + '/search/?q=lighthouse');
	await until(page, (x) => x.titles.length > 0);
	const text = fs.readFileSync(TIDE_SRC, 'utf8');
	check('the post holds "Lighthouse keepers"', text.includes('Lighthouse keepers'));
	// the new word in the excerpt (the first paragraph) too, to be marked
	fs.writeFileSync(TIDE_SRC, text.replace('Lighthouse keepers', 'Harbourmasters')
	    .replace('The moon pulls', 'Harbourmasters say the moon pulls'));
	const b = spawnSync(SSG, ['build', '-C', SITE, '-q'], { encoding: 'utf8' });
	check('ssg build after the edit', b.status === 0, (b.stderr || '').trim());
	await page.reload();
	s = await until(page, (x) => x.status !== '' && x.titles.length === 0);
	check('reloaded, "lighthouse" finds nothing', s.status === msg.none &&
	    s.titles.length === 0, show(s));
	await page.fill('#search-q', 'harbourmasters');
	s = await until(page, (x) => x.titles.length > 0);
	check('the new word finds the post', s.titles[0] === TIDE, show(s));
	const mark = await page.evaluate(() => [...document.querySelectorAll('#search-results mark')]
	    .map((m) => m.textContent));
	check('the excerpt marks the new word', mark.includes('Harbourmasters'), mark.join(', '));
	noErrors(page, 'after the rebuild');
	await ctx.close();
}

// Without JavaScript the page says search needs it and links the lists.
async function noScript(browser, base) {
	const ctx = await browser.newContext({ javaScriptEnabled: false });
	const page = await ctx.newPage();
	await page.goto(base + '/search/?q=harbourmasters');
	const p = page.locator('noscript p');
	check('without JavaScript the noscript text shows', await p.count() === 1 &&
	    await p.isVisible() && /JavaScript/.test(await p.textContent()));
	for (const [name, href] of [['archives', '/archives/'], ['tags', '/tags/']]) {
		const a = page.locator(`noscript p a[href="${href}"]`);
		check(`without JavaScript the ${name} are linked`, await a.count() === 1 &&
		    await a.isVisible());
	}
	check('without JavaScript no result is listed',
	    await page.locator('#search-results > li').count() === 0);
	await ctx.close();
}

const t0 = Date.now();
// A hung browser must not hang the suite.
const guard = setTimeout(() => {
	console.log('FAIL the test took more than 90 s');
	console.log(`${passed} passed, ${failed + 1} failed`);
	process.exit(1);
}, 90000);
main().then(() => {
	clearTimeout(guard);
	console.log(`search page in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}, (e) => {
	clearTimeout(guard);
	console.log(String(e && e.stack || e));
	console.log(`${passed} passed, ${failed + 1} failed`);
	process.exit(1);
});
