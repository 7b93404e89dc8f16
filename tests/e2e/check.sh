#!/bin/sh
# ssg check end to end: broken internal links and anchors are reported as
# "page: link: problem" with exit 1, a clean site passes; --external checks
# outside links against a local HTTP server this test starts (never the
# internet): 404s, HEAD refused (405) then GET, redirects, refused
# connections, at most 2 at once per host, and the one-day cache.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
SRV=""
cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# a clean site passes
cp -R "$ROOT/tests/fixtures/basic" "$T/clean"
"$SSG" build -C "$T/clean" -q >/dev/null 2>&1
"$SSG" check -C "$T/clean" >"$T/out" 2>&1
check "a clean site passes (exit 0)" test $? -eq 0
check "... and says 0 broken" grep -q ' 0 broken' "$T/out"

# a broken link and a broken anchor
cp -R "$ROOT/tests/fixtures/basic" "$T/bad"
cat >"$T/bad/pages/links.md" <<'EOS'
---
title: Links
---
A [good one](/blog/about/), a [missing page](/blog/no-such-page/) and
a [missing anchor](/blog/2025/04/07/escaping-script-alert-x-script-quotes/#no-such-id),
and [one here](#nowhere).
Relative: [up](../about/), [itself](./), [up and broken](../no-such-page/)
and [an image beside it](./missing.png), [too far](../../../x/).
EOS
"$SSG" build -C "$T/bad" -q >/dev/null 2>&1
"$SSG" check -C "$T/bad" >"$T/out" 2>&1
check "broken links: exit 1" test $? -eq 1
check "missing page as page: link: problem" grep -qx \
	'links/index.html: /blog/no-such-page/: no such file in the output' "$T/out"
check "missing anchor in another page" grep -qx \
	'links/index.html: /blog/2025/04/07/escaping-script-alert-x-script-quotes/#no-such-id: no element with this id' "$T/out"
check "missing anchor in the same page" grep -qx \
	'links/index.html: #nowhere: no element with this id' "$T/out"
check "the good link is not reported" sh -c "! grep -q '/blog/about/:' '$T/out'"
check "relative ../ link to a page that exists passes" sh -c "! grep -q ': \.\./about/:' '$T/out'"
check "relative ./ link to the page itself passes" sh -c "! grep -q ': \./:' '$T/out'"
check "broken relative ../ link reported" grep -qx \
	'links/index.html: ../no-such-page/: no such file in the output' "$T/out"
check "broken relative ./ image reported" grep -qx \
	'links/index.html: ./missing.png: no such file in the output' "$T/out"
check "a link above the site's root reported" grep -q \
	'links/index.html: ../../../x/: ' "$T/out"
check "6 broken" grep -q ': 6 broken' "$T/out"
rm -rf "$T/nobuild"; mkdir "$T/nobuild"
"$SSG" check -C "$T/nobuild" >/dev/null 2>"$T/err"
check "no built site: exit 1" test $? -eq 1
check "no built site: says so" grep -q 'run ssg build first' "$T/err"

if ! command -v python3 >/dev/null 2>&1; then
	echo "python3 not found: the --external checks need it" >&2
	fail "python3 is needed for the local HTTP server"
	summary
	exit
fi

# the local server: /ok, /missing (404), /nohead (405 for HEAD), /redirect,
# /slow/N (0.3 s, to count requests in flight); it logs every request
cat >"$T/server.py" <<'EOS'
import http.server, sys, threading, time
lock = threading.Lock()
state = {"now": 0, "max": 0}
log = open(sys.argv[2], "a", buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def answer(self, body):
        log.write("%s %s\n" % (self.command, self.path))
        p = self.path
        if p.startswith("/slow/"):
            with lock:
                state["now"] += 1
                state["max"] = max(state["max"], state["now"])
                log.write("max %d\n" % state["max"])
            time.sleep(0.3)
            with lock:
                state["now"] -= 1
            code = 200
        elif p in ("/ok", "/ok?a=1&b=2", "/target"):
            code = 200
        elif p == "/nohead":
            code = 405 if self.command == "HEAD" else 200
        elif p == "/redirect":
            self.send_response(301)
            self.send_header("Location", "/target")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        else:
            code = 404
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "3")
        self.end_headers()
        if body:
            self.wfile.write(b"ok\n")
    def do_HEAD(self): self.answer(False)
    def do_GET(self): self.answer(True)
http.server.ThreadingHTTPServer.allow_reuse_address = False
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOS
tries=0
while [ $tries -lt 10 ]; do
	tries=$((tries + 1))
	PORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
	curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/" && continue
	python3 "$T/server.py" "$PORT" "$T/requests" 2>"$T/server.err" &
	SRV=$!
	i=0
	while [ $i -lt 50 ] && ! curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/ok"; do
		sleep 0.1; i=$((i + 1))
	done
	curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/ok" && break
	kill "$SRV" 2>/dev/null; SRV=""
done
check "the local server runs" test -n "$SRV"
: >"$T/requests"
H="http://127.0.0.1:$PORT"

S="$T/ext"
"$SSG" init "$S" >/dev/null
{
	printf -- '---\ntitle: Outside\ndate: 2025-01-01\n---\n'
	printf '[ok](%s/ok) [again](%s/ok#part) [query](%s/ok?a=1&b=2)\n' "$H" "$H" "$H"
	printf '[missing](%s/missing) [nohead](%s/nohead)\n' "$H" "$H"
	printf '[redirect](%s/redirect) [refused](http://127.0.0.1:1/x)\n' "$H"
	for n in 1 2 3 4 5 6 7 8; do printf '[slow %s](%s/slow/%s)\n' $n "$H" $n; done
} >"$S/posts/2025-01-01-outside.md"
printf -- '---\ntitle: Also\ndate: 2025-01-02\n---\n[missing](%s/missing)\n' "$H" >"$S/posts/2025-01-02-also.md"
"$SSG" build -C "$S" -q >/dev/null 2>&1
"$SSG" check -C "$S" >"$T/out" 2>&1
check "without --external outside links are not fetched" test ! -s "$T/requests"
check "without --external: exit 0" "$SSG" check -C "$S"

START=$(date +%s)
"$SSG" check -C "$S" --external --timeout 5 >"$T/out" 2>&1
check "--external with broken links: exit 1" test $? -eq 1
check "--external is bounded in time" test $(($(date +%s) - START)) -le 10
P=2025/01/01/outside/index.html
check "404 reported as page: link: problem" grep -qx "$P: $H/missing: HTTP 404" "$T/out"
check "the same URL on another page too" grep -qx "2025/01/02/also/index.html: $H/missing: HTTP 404" "$T/out"
check "refused connection reported" grep -q "^$P: http://127.0.0.1:1/x: " "$T/out"
check "/ok passes" sh -c "! grep -q '/ok' '$T/out'"
check "HEAD refused (405): GET passes" sh -c "! grep -q 'nohead' '$T/out'"
check "HEAD tried first" grep -qx 'HEAD /nohead' "$T/requests"
check "then GET" grep -qx 'GET /nohead' "$T/requests"
check "HEAD for the rest" sh -c "! grep -q '^GET /ok' '$T/requests'"
check "redirect asked" grep -qx 'HEAD /redirect' "$T/requests"
check "redirect followed" grep -qx 'HEAD /target' "$T/requests"
check "redirect passes" sh -c "! grep -q 'redirect' '$T/out'"
check "&amp; decoded, fragment dropped" grep -qx 'HEAD /ok?a=1&b=2' "$T/requests"
check "each URL fetched once" test "$(grep -cx 'HEAD /ok' "$T/requests")" -eq 1
check "all slow links fetched" test "$(grep -c '^HEAD /slow/' "$T/requests")" -eq 8
MAX=$(grep '^max ' "$T/requests" | cut -d' ' -f2 | sort -n | tail -n 1)
check "at most 2 requests at once to one host (saw $MAX)" test "$MAX" -le 2
check "the summary line" grep -q 'outside links checked (0 from the cache): 3 broken' "$T/out"
check "the cache file is written" test -s "$S/.ssg-cache/links.tsv"
check "the cache holds good links only" sh -c "grep -q '/ok$' '$S/.ssg-cache/links.tsv' && ! grep -q missing '$S/.ssg-cache/links.tsv'"

# the cache: good links are not fetched again, broken ones are
: >"$T/requests"
"$SSG" check -C "$S" --external --timeout 5 >"$T/out" 2>&1
check "second run: good links from the cache" sh -c "! grep -q '/ok' '$T/requests'"
check "second run: broken links fetched again" grep -qx 'HEAD /missing' "$T/requests"
check "second run: counts the cache" grep -q 'from the cache' "$T/out"
check "second run: same problems" grep -qx "$P: $H/missing: HTTP 404" "$T/out"
# an entry older than a day is stale
sed -i 's/^[0-9]*\t/1000\t/' "$S/.ssg-cache/links.tsv"
: >"$T/requests"
"$SSG" check -C "$S" --external --timeout 5 >/dev/null 2>&1
check "a day-old entry is fetched again" grep -qx 'HEAD /ok' "$T/requests"
: >"$T/requests"
"$SSG" check -C "$S" --external --no-cache --timeout 5 >/dev/null 2>&1
check "--no-cache fetches everything" grep -qx 'HEAD /ok' "$T/requests"

# a site whose outside links all work passes
rm "$S/posts/2025-01-02-also.md"
printf -- '---\ntitle: Outside\ndate: 2025-01-01\n---\n[ok](%s/ok) [nohead](%s/nohead)\n' "$H" "$H" >"$S/posts/2025-01-01-outside.md"
"$SSG" build -C "$S" -q >/dev/null 2>&1
"$SSG" check -C "$S" --external --timeout 5 >"$T/out" 2>&1
check "all outside links good: exit 0" test $? -eq 0

# --against: the URLs an older build had that this one no longer has.
cp -R "$S/output" "$T/old"
"$SSG" check -C "$S" --against "$T/old" >"$T/out" 2>&1
check "against an identical build: exit 0" test $? -eq 0
check "against: counts what it compared" grep -q "URLs of $T/old checked: 0 gone" "$T/out"
mkdir -p "$T/old/2019/05/01/old-post" "$T/old/css"
echo old >"$T/old/2019/05/01/old-post/index.html"
echo old >"$T/old/feed.xml"
echo old >"$T/old/feed.xml.gz"
"$SSG" check -C "$S" --against "$T/old" >"$T/out" 2>&1
check "against: a page gone is an error" test $? -eq 1
check "against: the page's URL is named" grep -qx \
    "/2019/05/01/old-post/: gone (the old build had 2019/05/01/old-post/index.html)" "$T/out"
check "against: a file gone is named" grep -qx "/feed.xml: gone" "$T/out"
check "against: compressed siblings are not URLs" sh -c "! grep -q 'feed.xml.gz' '$T/out'"
check "against: the count" grep -q "checked: 2 gone" "$T/out"
"$SSG" check -C "$S" --against "$T/nowhere" >"$T/out" 2>&1
check "against a missing folder: exit 1" test $? -eq 1
check "against a missing folder: says so" grep -q "nowhere: not a folder" "$T/out"

"$SSG" check --help >"$T/h" 2>&1
check "check --help" grep -q 'usage: ssg check' "$T/h"
"$SSG" check --bogus >/dev/null 2>"$T/h"
check "check --bogus exits 2" test $? -eq 2
check "check --bogus prints usage" grep -q 'usage: ssg check' "$T/h"
"$SSG" check --timeout 0 >/dev/null 2>&1
check "check --timeout 0 exits 2" test $? -eq 2
summary
