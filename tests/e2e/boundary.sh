#!/bin/sh
# The site boundary: symbolic links that leave the site are not followed
# (warned, not published) unless follow_external_symlinks is set, links
# inside work, a loop is a clear error in bounded time; what is published
# is 0644/0755 whatever the source mode, a private source is warned about,
# hidden and editor files are never copied; ssg serve gives nothing from
# outside its output folder.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
S="$T/site"
mkdir -p "$S/posts" "$S/pages" "$S/static/css" "$T/outside/dir"
printf 'site_title: Boundary\nsite_url: http://example.org\n' >"$S/site.yaml"
printf -- '---\ntitle: Good one\ndate: 2025-01-01\n---\nFine.\n' >"$S/posts/good.md"
echo 'secret' >"$T/outside/secret.txt"
echo 'shared' >"$T/outside/dir/shared.txt"
printf -- '---\ntitle: Stolen\ndate: 2025-01-02\n---\nFrom outside.\n' >"$T/outside/post.md"
echo 'kept' >"$S/static/css/extra.css"

# links out of the site: a file, a folder, a post, a folder of /etc
ln -s "$T/outside/secret.txt" "$S/static/secret.txt"
ln -s "$T/outside/dir" "$S/static/shared"
ln -s /etc "$S/static/x"
ln -s "$T/outside/post.md" "$S/posts/stolen.md"
# links inside: a file and a folder
ln -s css/extra.css "$S/static/alias.css"
ln -s css "$S/static/styles"
# into a hidden folder of the site: never published
mkdir -p "$S/.git" && echo 'repo' >"$S/.git/config"
ln -s ../.git/config "$S/static/gitconfig"

timeout 20 "$SSG" build -C "$S" >"$T/out" 2>"$T/err"
rc=$?
check "a link that leaves the site is a warning, not an error" test "$rc" -eq 0
check "warned: a file link out" contains "$T/err" "static/secret.txt: warning: symbolic link leaves the site (-> $T/outside/secret.txt); not published"
check "warned: a folder link out" contains "$T/err" "static/shared: warning: symbolic link leaves the site (-> $T/outside/dir); not published"
check "warned: ln -s /etc static/x" contains "$T/err" "static/x: warning: symbolic link leaves the site (-> /etc); not published"
check "warned: a post link out" contains "$T/err" "posts/stolen.md: warning: symbolic link leaves the site"
check "not published: the file" test ! -e "$S/output/secret.txt"
check "not published: the folder" test ! -e "$S/output/shared"
check "not published: /etc" test ! -e "$S/output/x"
check "not published: the post" test ! -e "$S/output/2025/01/02"
check "nothing from outside anywhere in the output" sh -c "! grep -rq -e secret -e shared -e 'From outside' '$S/output'"
check "published: a link to a file inside" grep -q kept "$S/output/alias.css"
check "published: a link to a folder inside" grep -q kept "$S/output/styles/extra.css"
check "the good post is built" test -f "$S/output/2025/01/01/good-one/index.html"
check "a link into .git is not published" test ! -e "$S/output/gitconfig"
check "... and said so" grep -q "static/gitconfig: warning: symbolic link leads to a hidden file" "$T/err"
check "the output holds no symbolic link" test -z "$(find "$S/output" -type l)"

# follow_external_symlinks: true publishes them
printf 'follow_external_symlinks: true\n' >>"$S/site.yaml"
"$SSG" config -C "$S" >"$T/config" 2>&1
check "ssg config lists follow_external_symlinks" grep -q "^follow_external_symlinks *true" "$T/config"
rm "$S/static/x"
timeout 20 "$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "opted in: builds" test $? -eq 0
check "opted in: no warning" sh -c "! grep -q 'leaves the site' '$T/err'"
check "opted in: the file is published" grep -q secret "$S/output/secret.txt"
check "opted in: the folder is published" grep -q shared "$S/output/shared/shared.txt"
check "opted in: the post is published" test -f "$S/output/2025/01/02/stolen/index.html"
check "opted in: .git stays out" test ! -e "$S/output/gitconfig"
sed -i '/follow_external_symlinks/d' "$S/site.yaml"
timeout 20 "$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "opted out again: the file is gone from the output" test ! -e "$S/output/secret.txt"
check "opted out again: the post is gone" test ! -e "$S/output/2025/01/02/stolen/index.html"
rm "$S/static/secret.txt" "$S/static/shared" "$S/posts/stolen.md" "$S/static/gitconfig"

# loops: two links to each other, and a link to a folder that holds it
ln -s loop-b "$S/static/loop-a"
ln -s loop-a "$S/static/loop-b"
mkdir -p "$S/static/deep/er"
ln -s ../.. "$S/static/deep/er/up"
ln -s self.md "$S/posts/self.md"
start=$(date +%s)
timeout 20 "$SSG" build -C "$S" >"$T/out" 2>"$T/err"
rc=$?
check "a loop ends in bounded time (not killed by timeout)" test "$rc" -ne 124
check "a loop is an error (exit 1)" test "$rc" -eq 1
check "took under 10 s" test $(($(date +%s) - start)) -lt 10
check "loop of two links: clear error" contains "$T/err" "static/loop-a: error: symbolic link loop"
check "link to a folder that holds it: clear error" contains "$T/err" "static/deep/er/up: error: symbolic link loop (a link to a folder that holds it)"
check "link to itself in posts: clear error" contains "$T/err" "posts/self.md: error: symbolic link loop"
check "the rest is still built" grep -q kept "$S/output/alias.css"
check "the post is still built" test -f "$S/output/2025/01/01/good-one/index.html"
check "no loop copied" test ! -e "$S/output/deep/er/up"
rm "$S/static/loop-a" "$S/static/loop-b" "$S/static/deep/er/up" "$S/posts/self.md"

# modes: a private source is warned about, outputs are 0644 / 0755
echo 'private' >"$S/static/key.pem"
chmod 0600 "$S/static/key.pem"
printf -- '---\ntitle: Private post\ndate: 2025-01-03\n---\nHush.\n' >"$S/posts/private.md"
chmod 0600 "$S/posts/private.md"
chmod 0700 "$S/static/css"
rm -rf "$S/output"
(umask 077; "$SSG" build -C "$S" >"$T/out" 2>"$T/err")
check "private static file: warning names it" contains "$T/err" "static/key.pem: warning: not readable by others (mode 0600); published readable by all (0644)"
check "private post: warning names it" contains "$T/err" "posts/private.md: warning: not readable by others (mode 0600)"
check "a readable file is not warned about" sh -c "! grep -q 'extra.css: warning' '$T/err'"
check "private static file: output 0644" test "$(stat -c %a "$S/output/key.pem")" = 644
check "a page: 0644 under umask 077" test "$(stat -c %a "$S/output/index.html")" = 644
check "private post's page: 0644" test "$(stat -c %a "$S/output/2025/01/03/private-post/index.html")" = 644
check "the output folder: 0755 under umask 077" test "$(stat -c %a "$S/output")" = 755
check "a 0700 source folder gives a 0755 folder" test "$(stat -c %a "$S/output/css")" = 755
check "a page's folder: 0755" test "$(stat -c %a "$S/output/2025/01/03/private-post")" = 755
check "no file in the output is anything but 0644" test -z "$(find "$S/output" -type f ! -perm 0644)"
check "no folder in the output is anything but 0755" test -z "$(find "$S/output" -type d ! -perm 0755)"
# an output left 0600 by some earlier tool is made 0644 again
chmod 0600 "$S/output/key.pem"
"$SSG" build -C "$S" >/dev/null 2>&1
check "an existing 0600 output is put back to 0644" test "$(stat -c %a "$S/output/key.pem")" = 644
rm "$S/static/key.pem" "$S/posts/private.md"
chmod 0755 "$S/static/css"

# hidden and editor files in static/ are never copied
mkdir -p "$S/static/.git" "$S/static/.ssg-cache" "$S/static/.ssg-backups" "$S/static/sub"
echo x >"$S/static/.git/HEAD"
echo x >"$S/static/.ssg-cache/sources.bin"
echo x >"$S/static/.ssg-backups/b.tar"
echo x >"$S/static/.index.html.swp"
echo x >"$S/static/sub/.notes.md.swp"
echo x >"$S/static/page.html~"
echo x >"$S/static/#page.html#"
echo x >"$S/static/.hidden"
echo x >"$S/static/sub/visible.txt"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "builds with hidden files in static/" test $? -eq 0
check ".git never copied" test ! -e "$S/output/.git"
check ".ssg-cache never copied" test ! -e "$S/output/.ssg-cache"
check ".ssg-backups never copied" test ! -e "$S/output/.ssg-backups"
check "vim swap file never copied" test ! -e "$S/output/.index.html.swp"
check "swap file in a subfolder never copied" test ! -e "$S/output/sub/.notes.md.swp"
check "backup file~ never copied" test ! -e "$S/output/page.html~"
check "#autosave# never copied" test ! -e "$S/output/#page.html#"
check "other hidden files never copied" test ! -e "$S/output/.hidden"
check "the visible file beside them is" test -f "$S/output/sub/visible.txt"
check "a backup~ of a post is not a post" sh -c "cp '$S/posts/good.md' '$S/posts/good.md~' && '$SSG' build -C '$S' -q && ! grep -rq 'good.md~' '$S/output'"
rm -f "$S/posts/good.md~"

# the site's own theme and translations are sources too
mkdir -p "$S/themes/mine" "$S/themes/locales" "$T/outside/theme" "$T/outside/locales"
echo 'body { color: #123456 }' >"$T/outside/theme/style.css"
echo 'body { color: #654321 }' >"$S/themes/mine/style.css"
printf 'home: "OUTSIDE-WORDS"\n' >"$T/outside/locales/en.yaml"
ln -s "$T/outside/locales/en.yaml" "$S/themes/locales/en.yaml"
ln -s "$T/outside/theme" "$S/themes/far"
printf 'theme: far\n' >>"$S/site.yaml"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "a theme folder linked from outside: warned" grep -q "themes/far/style.css: warning: symbolic link leaves the site" "$T/err"
check "... and not used: no such theme" grep -q "theme 'far' not found" "$T/err"
check "... its stylesheet is not published" sh -c "! grep -rq 123456 '$S/output'"
sed -i 's/^theme: far$/theme: mine/' "$S/site.yaml"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "a translation linked from outside: warned" grep -q "themes/locales/en.yaml: warning: symbolic link leaves the site" "$T/err"
check "... and its words are not published" sh -c "! grep -rq OUTSIDE-WORDS '$S/output'"
check "the site's own theme inside is used" grep -q 654321 "$S/output/css/style.css"
sed -i '/^theme: mine$/d' "$S/site.yaml"
rm -rf "$S/themes"

# ssg serve: nothing from outside the output folder
if command -v curl >/dev/null 2>&1 && "$SSG" serve --help >/dev/null 2>&1; then
	ln -s "$T/outside/secret.txt" "$S/output/leak.txt"
	ln -s "$T/outside/dir" "$S/output/leakdir"
	served=0
	tries=0
	while [ $tries -lt 10 ] && [ $served -eq 0 ]; do
		tries=$((tries + 1))
		PORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
		curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/" && continue
		"$SSG" serve -C "$S" --no-build -p "$PORT" >"$T/serve" 2>&1 &
		PID=$!
		PIDS="$PIDS $PID"
		i=0
		while [ $i -lt 50 ]; do
			if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/"; then
				served=1
				break
			fi
			sleep 0.1
			i=$((i + 1))
		done
		[ $served -eq 1 ] || kill "$PID" 2>/dev/null
	done
	B="http://127.0.0.1:$PORT"
	check "serve starts" test $served -eq 1
	check "serve: a page inside is served" test "$(curl -s -o /dev/null -w '%{http_code}' "$B/alias.css")" = 200
	check "serve: an output link leading out is not served" test "$(curl -s -o /dev/null -w '%{http_code}' "$B/leak.txt")" = 404
	check "serve: nor a file in a linked folder out" test "$(curl -s -o /dev/null -w '%{http_code}' "$B/leakdir/shared.txt")" = 404
	check "serve: its text is never sent" sh -c "! curl -s '$B/leak.txt' | grep -q secret"
	check "serve: .. is refused" test "$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$B/../site.yaml")" = 400
	check "serve: encoded .. is refused" sh -c "code=\$(curl -s -o /dev/null -w '%{http_code}' --path-as-is '$B/%2e%2e/site.yaml'); test \"\$code\" = 400 || test \"\$code\" = 404"
	rm -f "$S/output/leak.txt" "$S/output/leakdir"
fi

# Bounded inputs: each bound, just under builds, just over is an error
# "path:line: error: ..." in bounded time, the rest of the site is built,
# and the build's peak memory stays under twice that of the site without
# the bad input.
B="$T/bounds"
mkdir -p "$B/posts" "$B/templates"
printf 'site_title: Bounds\nsite_url: http://example.org\n' >"$B/site.yaml"
printf -- '---\ntitle: Good one\ndate: 2025-01-01\n---\nFine.\n' >"$B/posts/good.md"
# peak KB: the build's peak resident memory (GNU time, else getrusage via
# python), or 0 when neither can tell
peak() {
	if /usr/bin/time -f '%M' true >/dev/null 2>&1; then
		/usr/bin/time -o "$T/peak" -f '%M' timeout 60 "$SSG" build -C "$B" --force "$@" >"$T/out" 2>"$T/err"
		rc=$?
		tail -n 1 "$T/peak"
	else
		timeout 60 "$SSG" build -C "$B" --force "$@" >"$T/out" 2>"$T/err"
		rc=$?
		echo 0
	fi
	return $rc
}
# head: the front matter of a post titled $1
head_of() { printf -- '---\ntitle: %s\ndate: 2025-01-02\n---\n' "$1"; }
base=$(peak)
check "the site without bad input builds" test $? -eq 0
limit=$((2 * base))
[ "$base" -gt 0 ] || limit=999999999

# 10 MB for one source
{ head_of big; awk 'BEGIN { for (i = 0; i < 100000; i++) { print "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."; if (i % 10 == 9) print "" } }'; } >"$B/posts/big.md"
size=$(wc -c <"$B/posts/big.md")
pad=$((10485760 - size))
[ "$pad" -gt 0 ] && head -c "$pad" /dev/zero | tr '\0' 'x' >>"$B/posts/big.md"
check "just under: 10485760 bytes" test "$(wc -c <"$B/posts/big.md")" -eq 10485760
under=$(peak)
check "a 10 MB post builds" test $? -eq 0
check "... and is published" test -f "$B/output/2025/01/02/big/index.html"
printf 'y' >>"$B/posts/big.md"
start=$(date +%s)
over=$(peak)
rc=$?
check "10 MB + 1 byte: exit 1" test "$rc" -eq 1
check "10 MB + 1 byte: path:line: error" grep -q "posts/big.md:1: error: larger than 10 MB (10485761 bytes)" "$T/err"
check "10 MB + 1 byte: the rest is built" test -f "$B/output/2025/01/01/good-one/index.html"
check "10 MB + 1 byte: not published" test ! -e "$B/output/2025/01/02/big/index.html"
check "10 MB + 1 byte: in bounded time" test $(($(date +%s) - start)) -lt 10
check "10 MB + 1 byte: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
echo "bound size: base ${base}KB under ${under}KB over ${over}KB" >&2
rm "$B/posts/big.md"

# 1 MB for one line
{ head_of long; head -c 1048576 /dev/zero | tr '\0' 'a'; echo; } >"$B/posts/long.md"
under=$(peak)
check "a 1 MB line builds" test $? -eq 0
{ head_of long; echo intro; echo; head -c 1048577 /dev/zero | tr '\0' 'a'; echo; } >"$B/posts/long.md"
start=$(date +%s)
over=$(peak)
rc=$?
check "1 MB + 1 line: exit 1" test "$rc" -eq 1
check "1 MB + 1 line: path:line: error" grep -q "posts/long.md:7: error: line longer than 1 MB (1048577 bytes)" "$T/err"
check "1 MB + 1 line: the rest is built" test -f "$B/output/2025/01/01/good-one/index.html"
check "1 MB + 1 line: in bounded time" test $(($(date +%s) - start)) -lt 10
check "1 MB + 1 line: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
echo "bound line: base ${base}KB under ${under}KB over ${over}KB" >&2
rm "$B/posts/long.md"

# Markdown nesting: 100 levels
gt() { head -c "$1" /dev/zero | tr '\0' '>'; echo ' deep'; }
{ head_of deep; echo intro; echo; gt 99; } >"$B/posts/deep.md"
under=$(peak)
check "99 nested quotes build" test $? -eq 0
check "... and are published" test -f "$B/output/2025/01/02/deep/index.html"
{ head_of deep; echo intro; echo; gt 100; } >"$B/posts/deep.md"
peak >/dev/null
check "100 nested quotes: exit 1" test $? -eq 1
check "100 nested quotes: path:line: error" grep -q "posts/deep.md:7: error: nested deeper than 100 levels" "$T/err"
check "100 nested quotes: the rest is built" test -f "$B/output/2025/01/01/good-one/index.html"
check "100 nested quotes: not published" test ! -e "$B/output/2025/01/02/deep/index.html"
{ head_of deep; echo intro; echo; awk 'BEGIN { for (i = 0; i < 60; i++) { s = ""; for (j = 0; j < i; j++) s = s "  "; print s "- item" } }'; } >"$B/posts/deep.md"
peak >/dev/null
check "lists nested 60 deep by indentation: error at the line" grep -q "posts/deep.md:5[0-9]: error: nested deeper than 100 levels" "$T/err"
# a line of a million '>': 430 MB and 2 s in cmark; refused before parsing
{ head_of deep; echo intro; echo; gt 1000000; gt 1000000; } >"$B/posts/deep.md"
start=$(date +%s)
over=$(peak)
check "a million nested quotes: path:line: error" grep -q "posts/deep.md:7: error: nested deeper than 100 levels" "$T/err"
check "a million nested quotes: in bounded time" test $(($(date +%s) - start)) -lt 10
check "a million nested quotes: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
echo "bound nesting: base ${base}KB under ${under}KB over ${over}KB" >&2
rm "$B/posts/deep.md"

# Mustache: a partial that includes itself whatever the data is found
# before anything is written; one that loops on the data is cut short
builtin="$ROOT/themes/templates"
cp "$builtin/footer.mustache" "$B/templates/footer.mustache"
printf '{{#site.title}}{{>footer}}{{/site.title}}\n' >>"$B/templates/footer.mustache"
start=$(date +%s)
over=$(peak)
rc=$?
check "partial looping on the data: exit 1" test "$rc" -eq 1
check "partial looping on the data: template:line: in the error" grep -q "error: footer:[0-9]*: 'footer' is included more than 64 deep" "$T/err"
check "partial looping on the data: in bounded time" test $(($(date +%s) - start)) -lt 10
check "partial looping on the data: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
cp "$builtin/footer.mustache" "$B/templates/footer.mustache"
printf '{{>meta}}\n' >>"$B/templates/footer.mustache"
cp "$builtin/meta.mustache" "$B/templates/meta.mustache"
printf '{{>footer}}\n' >>"$B/templates/meta.mustache"
over=$(peak)
rc=$?
check "partials including each other: exit 1" test "$rc" -eq 1
check "partials including each other: name:line: error" grep -Eq "^(footer|meta):[0-9]+: error: '(meta|footer)' includes itself outside any section" "$T/err"
check "partials including each other: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
rm "$B/templates/footer.mustache" "$B/templates/meta.mustache"

# YAML aliases: in front matter and in site.yaml
printf -- '---\ntitle: Laughs\ndate: 2025-01-02\ntags:\n  - &a [x, x, x, x, x, x, x, x, x]\n  - &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n  - &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n  - &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n  - &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n  - &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n  - &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n  - &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n---\nx\n' >"$B/posts/lol.md"
start=$(date +%s)
over=$(peak)
rc=$?
check "front matter with aliases: exit 1" test "$rc" -eq 1
check "front matter with aliases: path:line: error" grep -q "posts/lol.md:6: error: YAML aliases are not supported" "$T/err"
check "front matter with aliases: the rest is built" test -f "$B/output/2025/01/01/good-one/index.html"
check "front matter with aliases: in bounded time" test $(($(date +%s) - start)) -lt 10
check "front matter with aliases: peak memory $over KB under 2x $base KB" test "$over" -lt "$limit"
printf -- '---\ntitle: Anchored\ndate: 2025-01-02\ntags:\n  - &a one\n  - two\n---\nx\n' >"$B/posts/lol.md"
peak >/dev/null
check "an anchor without an alias builds" test $? -eq 0
rm "$B/posts/lol.md"
printf 'site_title: &t Bounds\nsite_description: *t\n' >"$B/site.yaml"
peak >/dev/null
check "site.yaml with an alias: exit 1" test $? -eq 1
check "site.yaml with an alias: path:line: error" grep -q "site.yaml:2: error: YAML aliases are not supported" "$T/err"

summary
