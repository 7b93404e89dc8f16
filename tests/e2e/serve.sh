#!/bin/sh
# ssg serve end to end: pages served with the reload script (never on
# disk), a save rebuilds and sends a reload event, a failed build is shown
# and the last good pages stay, a port in use exits 1, SIGINT/SIGTERM stop.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	sleep 0.2
	for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
S="$T/site"

# wait_for CMD...: up to 5 s for the command to succeed
wait_for() {
	i=0
	while [ $i -lt 50 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# start_serve LOG ARGS...: starts ssg serve on a free port; sets PORT, PID
start_serve() {
	log=$1; shift
	tries=0
	while [ $tries -lt 10 ]; do
		tries=$((tries + 1))
		PORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
		# taken when something answers
		curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/" && continue
		"$SSG" serve "$@" -p "$PORT" >"$log" 2>&1 &
		PID=$!
		PIDS="$PIDS $PID"
		if wait_for grep -q '^Serving' "$log" &&
		    wait_for curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/"; then
			return 0
		fi
		kill "$PID" 2>/dev/null
		wait "$PID" 2>/dev/null
	done
	return 1
}

start_serve "$T/log" -C "$S"
check "serve starts and answers" test $? -eq 0
B="http://127.0.0.1:$PORT"
curl -s -D "$T/h" -o "$T/index.html" "$B/"
check "home page served" grep -q 'Fixture' "$T/index.html"
check "site_url is the local address" grep -q "href=\"/css/style.css?v=" "$T/index.html"
check "HTML gets the reload script" grep -q '/__ssg/events' "$T/index.html"
check "the script sits before </body>" sh -c "grep -A1 '__ssg/events' '$T/index.html' | grep -q '</body>'"
check "the file on disk has no script" sh -c "! grep -rq '__ssg' '$S/output'"
check "HTML is no-cache" grep -qi '^Cache-Control: no-cache' "$T/h"
check "HTML content type" grep -qi '^Content-Type: text/html' "$T/h"
curl -s -D "$T/h" -o "$T/style.css" "$B/css/style.css"
check "CSS content type" grep -qi '^Content-Type: text/css' "$T/h"
check "CSS has no script" sh -c "! grep -q '__ssg' '$T/style.css'"
check "missing page: 404" test "$(curl -s -o /dev/null -w '%{http_code}' "$B/nope/")" = 404
check "folder without slash redirects" test "$(curl -s -o /dev/null -w '%{http_code}' "$B/about")" = 301
check "no way out of the root" test "$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$B/../site.yaml")" = 400

# an edit: an event arrives within 2 s and the new text is served
curl -sN --max-time 4 "$B/__ssg/events" >"$T/events" 2>/dev/null &
EV=$!
PIDS="$PIDS $EV"
wait_for grep -q 'live reload' "$T/events"
check "the events stream opens" grep -q 'live reload' "$T/events"
printf '\nFreshly saved words.\n' >>"$S/pages/about.md"
i=0
while [ $i -lt 20 ] && ! grep -q '^event: reload' "$T/events"; do
	sleep 0.1
	i=$((i + 1))
done
check "a reload event within 2 s of the save" grep -q '^event: reload' "$T/events"
check "the new text is served" sh -c "curl -s '$B/about/' | grep -q 'Freshly saved words'"
check "the terminal says it rebuilt" grep -q 'rebuilt' "$T/log"
wait "$EV" 2>/dev/null

# a new post file (temp file + rename, as editors save) is picked up
printf -- '---\ntitle: Brand new\ndate: 2025-06-01\n---\nNew post body.\n' >"$T/tmp.md"
mv "$T/tmp.md" "$S/posts/2025-06-01-brand-new.md"
check "a new post is built" wait_for sh -c "curl -sf '$B/2025/06/01/brand-new/' | grep -q 'New post body'"

# a broken post: error shown in the page and the terminal, old pages kept
printf -- '---\ntitle: Broken\ndate: 32nd of May\n---\nx\n' >"$S/posts/2025-06-02-broken.md"
check "the error is shown on pages" wait_for sh -c "curl -s '$B/about/' | grep -q 'ssg-build-error'"
curl -s "$B/about/" >"$T/about.html"
check "the banner names the file" grep -q '2025-06-02-broken.md' "$T/about.html"
check "the last good page is still served" grep -q 'Freshly saved words' "$T/about.html"
check "the new post is still served" sh -c "curl -sf '$B/2025/06/01/brand-new/' >/dev/null"
check "the terminal shows the error" grep -q '2025-06-02-broken.md.*error' "$T/log"
rm "$S/posts/2025-06-02-broken.md"
check "a good build clears the banner" wait_for sh -c "! curl -s '$B/about/' | grep -q 'ssg-build-error'"
# site.yaml is watched too
sed -i 's/^site_title: .*/site_title: "Renamed Site"/' "$S/site.yaml"
check "a site.yaml change rebuilds" wait_for sh -c "curl -s '$B/' | grep -q 'Renamed Site'"

# a port in use
"$SSG" serve -C "$S" -p "$PORT" --no-build >"$T/log2" 2>&1 &
P2=$!
PIDS="$PIDS $P2"
wait_for sh -c "! kill -0 $P2"
wait "$P2"
check "port in use: exit 1" test $? -eq 1
check "port in use: a clear message" grep -q 'already in use' "$T/log2"

# SIGTERM stops it, nothing left running
kill -TERM "$PID"
wait_for sh -c "! kill -0 $PID"
check "SIGTERM stops the server" sh -c "! kill -0 $PID"
wait "$PID"
check "... with status 0" test $? -eq 0
check "... and says so" grep -q 'Stopped' "$T/log"
check "the port is free again" sh -c "! curl -s -o /dev/null --max-time 1 '$B/'"

# polling watcher, --no-build, SIGINT
export SSG_WATCH=poll
start_serve "$T/log3" -C "$S" -v
check "serve with polling starts" test $? -eq 0
unset SSG_WATCH
check "polling is used" grep -q "polling" "$T/log3"
printf '\nPolled words.\n' >>"$S/pages/about.md"
check "polling sees a save" wait_for sh -c "curl -s 'http://127.0.0.1:$PORT/about/' | grep -q 'Polled words'"
kill -INT "$PID"
wait_for sh -c "! kill -0 $PID"
check "SIGINT stops the server" sh -c "! kill -0 $PID"
start_serve "$T/log4" -C "$S" --no-build
check "--no-build serves the output" sh -c "curl -s 'http://127.0.0.1:$PORT/' | grep -q 'Renamed Site'"
check "--no-build adds no script" sh -c "! curl -s 'http://127.0.0.1:$PORT/' | grep -q '__ssg'"
kill -TERM "$PID"
wait_for sh -c "! kill -0 $PID"
check "--no-build server stops" sh -c "! kill -0 $PID"

# a first build that fails: the problem is shown until a save fixes it
mkdir -p "$T/fresh/posts"
printf 'site_title: Fresh\ntheme: no-such-theme\n' >"$T/fresh/site.yaml"
printf -- '---\ntitle: First\ndate: 2025-01-01\n---\nFirst words.\n' >"$T/fresh/posts/a.md"
start_serve "$T/log5" -C "$T/fresh"
check "serve starts although the build fails" test $? -eq 0
curl -s "http://127.0.0.1:$PORT/" >"$T/fresh.html"
check "the problem is shown in the browser" grep -q 'no-such-theme' "$T/fresh.html"
check "... in the terminal too" grep -q 'no-such-theme' "$T/log5"
check "... with the reload script" grep -q '__ssg/events' "$T/fresh.html"
printf 'site_title: Fresh\n' >"$T/fresh/site.yaml"
check "fixing site.yaml brings the site" wait_for sh -c "curl -s 'http://127.0.0.1:$PORT/' | grep -q 'First words'"
check "... without the banner" wait_for sh -c "! curl -s 'http://127.0.0.1:$PORT/' | grep -q 'ssg-build-error'"
kill -TERM "$PID"
wait_for sh -c "! kill -0 $PID"
check "stopped" sh -c "! kill -0 $PID"

"$SSG" serve --help >"$T/h" 2>&1
check "serve --help" grep -q 'usage: ssg serve' "$T/h"
# BSSG 0.41's --build-mode: accepted (read before --help), ssg has one
"$SSG" serve --build-mode ram --help >"$T/h" 2>&1
check "serve --build-mode ram is accepted" test $? -eq 0
"$SSG" serve --build-mode normal --help >"$T/h" 2>&1
check "serve --build-mode normal is accepted" test $? -eq 0
check "serve --help tells of --build-mode" grep -q 'build-mode ram|normal' "$T/h"
"$SSG" serve --build-mode fast >/dev/null 2>"$T/h"
check "serve --build-mode fast exits 2" test $? -eq 2
check "... saying what it takes" grep -q 'build-mode takes ram or normal' "$T/h"
"$SSG" serve --bogus >/dev/null 2>"$T/h"
check "serve --bogus exits 2" test $? -eq 2
check "serve --bogus prints usage" grep -q 'usage: ssg serve' "$T/h"
summary
