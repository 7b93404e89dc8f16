/*
 * ssg's search page: reads ?q=, fetches the index's manifest, the shards
 * of the query's words and the documents' lengths (search/ beside this
 * script), ranks the posts and pages that hold every word, the last one
 * as the start of a word, by BM25 with the title weighted up, and
 * fetches the pages of the document table (d/K.json) that the best SHOW
 * of them are in. The words are folded as ssg folds them, or only
 * lower-cased where manifest.json says "fold":0
 * (ssg/source/searchword.c), and ranked as `ssg search` ranks them
 * (ssg/render/search_query.c).
 */
(function () {
	"use strict";

	var QUERY_MAX = 1000, WORDS_MAX = 16, WORD_MAX = 64;
	var K1 = 1.2, B = 0.75, TITLE_WEIGHT = 2;
	/* hits shown: the document table is fetched for these only */
	var SHOW = 20;
	/* letters NFD leaves whole, spelt as ssg spells them */
	var SPELL = { "ß": "ss", "ς": "σ", "æ": "ae", "œ": "oe", "ø": "o",
	    "đ": "d", "ð": "d", "ł": "l", "ħ": "h", "ŧ": "t", "ı": "i",
	    "þ": "th", "ŀ": "l", "ĳ": "ij", "ſ": "s" };

	/* The index's alphabet: ASCII, Latin-1, Latin Extended-A, Romanian
	 * ș ț, basic Greek and Cyrillic letters and digits. */
	function isLetter(c) {
		if (c < 0x80)
			return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) ||
			    (c >= 65 && c <= 90);
		if (c === 0xaa || c === 0xb5 || c === 0xba)
			return true;
		if (c >= 0xc0 && c <= 0x17f && c !== 0xd7 && c !== 0xf7)
			return true;
		if (c >= 0x218 && c <= 0x21b)
			return true;
		if (c === 0x386 || (c >= 0x388 && c <= 0x38a) || c === 0x38c ||
		    (c >= 0x38e && c <= 0x3ce && c !== 0x3a2))
			return true;
		return (c >= 0x400 && c <= 0x45f) || c === 0x490 || c === 0x491;
	}

	function isMark(c) {
		return c >= 0x300 && c <= 0x36f;
	}

	function foldChar(ch, fold) {
		var s, out = "";

		/* İ lower-cased is i and a dot above, which goes */
		if (!fold)
			return ch.toLowerCase().replace(/[\u0300-\u036f]/g, "");
		s = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "")
		    .toLowerCase();
		for (var c of s)
			out += SPELL[c] || c;
		return out;
	}

	function bytes(s) {
		return new TextEncoder().encode(s).length;
	}

	/* The words of text, folded unless fold is false (0), as ssg's
	 * search_words makes them. */
	function words(text, fold) {
		var out = [], w = "";

		fold = fold === undefined || !!fold;
		function flush() {
			if (w !== "" && bytes(w) <= WORD_MAX)
				out.push(w);
			w = "";
		}
		for (var ch of text) {
			var c = ch.codePointAt(0);

			if (isMark(c))
				continue;
			if (isLetter(c))
				w += foldChar(ch, fold);
			else
				flush();
		}
		flush();
		return out;
	}

	/* A word's shard: its first two characters, [a-z0-9] as they are,
	 * others as _ and four hex digits. */
	function shardName(w) {
		var n = "", i = 0;

		for (var ch of w) {
			if (i++ === 2)
				break;
			n += /^[a-z0-9]$/.test(ch) ? ch : "_" +
			    ("000" + (ch.codePointAt(0) & 0xffff).toString(16))
			    .slice(-4);
		}
		return n;
	}

	/* The shards the query's words need: the last word is a prefix,
	 * and a one-letter prefix spans every shard it begins. */
	function shardsFor(ws, manifest) {
		var need = [];

		ws.forEach(function (w, i) {
			var n = shardName(w), last = i === ws.length - 1;

			manifest.shards.forEach(function (s) {
				if ((last ? s.indexOf(n) === 0 : s === n) &&
				    need.indexOf(s) < 0)
					need.push(s);
			});
		});
		return need;
	}

	/* [{doc, score}], best first, as search_query ranks them: lens is
	 * len.json, shards the loaded shards by name. A word's postings are
	 * pairs: the document's number less the last one's, 2 tf + (1 if in
	 * the title). */
	function rank(ws, manifest, lens, shards) {
		var n = manifest.docs, avg = n > 0 && manifest.words > 0 ?
		    manifest.words / n : 1, score = {}, hits = {}, out = [];

		ws.forEach(function (w, i) {
			var cur = {}, name = shardName(w), last = i === ws.length - 1;

			manifest.shards.forEach(function (s) {
				var sh = shards[s];

				if (!(last ? s.indexOf(name) === 0 : s === name) ||
				    !sh)
					return;
				Object.keys(sh).forEach(function (t) {
					var p = sh[t], df = p.length / 2, idf, doc = 0;

					if (last ? t.indexOf(w) !== 0 : t !== w)
						return;
					idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
					for (var k = 0; k < p.length; k += 2) {
						var tf = Math.floor(p[k + 1] / 2), s2;

						doc += p[k];
						s2 = idf * tf * (K1 + 1) / (tf + K1 *
						    (1 - B + B * lens[doc] / avg));
						if (p[k + 1] % 2 === 1)
							s2 *= TITLE_WEIGHT;
						if (!(doc in cur) || s2 > cur[doc])
							cur[doc] = s2;
					}
				});
			});
			Object.keys(cur).forEach(function (k) {
				if ((hits[k] || 0) === i) {
					score[k] = (score[k] || 0) + cur[k];
					hits[k] = i + 1;
				}
			});
		});
		Object.keys(hits).forEach(function (k) {
			if (hits[k] === ws.length)
				out.push({ doc: +k, score: score[k] });
		});
		out.sort(function (a, b) {
			/* equal scores: the later document (the newer post) */
			return a.score !== b.score ? b.score - a.score :
			    b.doc - a.doc;
		});
		return out;
	}

	/* The pages of the document table that the hits are in. */
	function pagesFor(hits, manifest) {
		var need = [];

		hits.forEach(function (h) {
			var k = Math.floor(h.doc / manifest.page);

			if (need.indexOf(k) < 0)
				need.push(k);
		});
		return need;
	}

	if (typeof module === "object" && module.exports) {
		module.exports = { words: words, shardName: shardName,
		    shardsFor: shardsFor, rank: rank, pagesFor: pagesFor };
		return;
	}
	if (typeof document === "undefined")
		return;

	var form = document.querySelector(".search-form");
	var input = document.getElementById("search-q");
	var status = document.getElementById("search-status");
	var list = document.getElementById("search-results");

	if (!form || !input || !status || !list)
		return;

	var base = status.getAttribute("data-index") || "./";
	var cache = {}, seq = 0, timer = null;

	function get(rel) {
		if (!cache[rel])
			cache[rel] = fetch(base + rel).then(function (r) {
				if (!r.ok)
					throw new Error(rel + ": " + r.status);
				return r.json();
			});
		return cache[rel];
	}

	function say(key, extra) {
		status.textContent = (status.getAttribute("data-" + key) || "") +
		    (extra === undefined ? "" : " " + extra);
	}

	/* The excerpt with the query's words marked. */
	function marked(text, ws) {
		var frag = document.createDocumentFragment(), run = "";
		var last = ws[ws.length - 1];

		function flush() {
			var f = words(run)[0];

			if (run === "")
				return;
			if (f !== undefined && (ws.indexOf(f) >= 0 ||
			    f.indexOf(last) === 0)) {
				var m = document.createElement("mark");

				m.textContent = run;
				frag.appendChild(m);
			} else
				frag.appendChild(document.createTextNode(run));
			run = "";
		}
		for (var ch of text) {
			var c = ch.codePointAt(0);

			if (!isLetter(c) && !isMark(c)) {
				flush();
				frag.appendChild(document.createTextNode(ch));
			} else
				run += ch;
		}
		flush();
		return frag;
	}

	/* docs: the documents shown, by number; total: how many matched */
	function show(ws, docs, ranked, total) {
		list.textContent = "";
		ranked.forEach(function (r) {
			var d = docs[r.doc], li = document.createElement("li");
			var a = document.createElement("a"), p;

			a.href = d.url;
			a.textContent = d.title;
			li.appendChild(a);
			if (d.date) {
				var t = document.createElement("time");

				t.dateTime = d.date;
				t.textContent = " " + d.date;
				li.appendChild(t);
			}
			if (d.excerpt) {
				p = document.createElement("p");
				p.appendChild(marked(d.excerpt, ws));
				li.appendChild(p);
			}
			list.appendChild(li);
		});
		if (ranked.length === 0)
			say("none");
		else
			say("results", total);
	}

	function search(q) {
		var my = ++seq, ws;

		if (q.length > QUERY_MAX) {
			list.textContent = "";
			return say("long");
		}
		ws = words(q);
		if (ws.length === 0) {
			/* nothing typed, or nothing the index has letters for */
			list.textContent = "";
			return say(/\S/.test(q) ? "nowords" : "empty");
		}
		if (ws.length > WORDS_MAX) {
			list.textContent = "";
			return say("long");
		}
		get("manifest.json").then(function (m) {
			var need;

			ws = words(q, m.fold);
			if (ws.length === 0) {
				list.textContent = "";
				return say("empty");
			}
			need = shardsFor(ws, m);
			return Promise.all([get("len.json")].concat(need.map(
			    function (s) {
				return get("s/" + s + ".json");
			}))).then(function (got) {
				var shards = {}, ranked, top, pages;

				need.forEach(function (s, i) {
					shards[s] = got[i + 1];
				});
				ranked = rank(ws, m, got[0], shards);
				top = ranked.slice(0, SHOW);
				pages = pagesFor(top, m);
				return Promise.all(pages.map(function (k) {
					return get("d/" + k + ".json");
				})).then(function (got2) {
					var docs = {};

					top.forEach(function (h) {
						var e = got2[pages.indexOf(
						    Math.floor(h.doc / m.page))]
						    [h.doc % m.page];

						docs[h.doc] = { title: e[0], url: e[1],
						    date: e[2], excerpt: e[3] };
					});
					if (my === seq)
						show(ws, docs, top, ranked.length);
				});
			});
		}).catch(function () {
			if (my === seq) {
				list.textContent = "";
				say("error");
			}
		});
	}

	/* as /search/?q=words: a URL to share, kept as the reader types */
	function typed() {
		var q = input.value, u = new URL(window.location.href);

		if (q === "")
			u.searchParams.delete("q");
		else
			u.searchParams.set("q", q);
		history.replaceState(null, "", u.toString());
		search(q);
	}

	input.addEventListener("input", function () {
		clearTimeout(timer);
		timer = setTimeout(typed, 120);
	});
	form.addEventListener("submit", function (e) {
		e.preventDefault();
		clearTimeout(timer);
		typed();
	});
	input.value = new URLSearchParams(window.location.search).get("q") ||
	    "";
	search(input.value);
})();
