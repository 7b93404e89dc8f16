#!/bin/sh
# make install into a DESTDIR, then build with the installed program; the
# man pages are clean and document every setting.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

make -s -C "$ROOT" install DESTDIR="$T/root" PREFIX=/usr >"$T/log" 2>&1
check "make install succeeds" test $? -eq 0
check "ssg installed" test -x "$T/root/usr/bin/ssg"
check "themes installed" test -f "$T/root/usr/share/ssg/themes/templates/base.mustache"
check "the highlighter installed beside the themes" test -f "$T/root/usr/share/ssg/highlight.py"
check "ssg(1) installed" test -f "$T/root/usr/share/man/man1/ssg.1"
check "site.yaml(5) installed" test -f "$T/root/usr/share/man/man5/site.yaml.5"
check "deploy installed" test -x "$T/root/usr/bin/deploy"
check "deploy(1) installed" test -f "$T/root/usr/share/man/man1/deploy.1"
check "deploy.yaml(5) installed" test -f "$T/root/usr/share/man/man5/deploy.yaml.5"
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
(unset SSG_DATADIR; "$T/root/usr/bin/ssg" build -C "$T/site" -q)
check "installed ssg finds its themes and builds" test -f "$T/site/output/index.html"
printf -- '---\ntitle: Code\ndate: 2025-02-01\n---\n```c\nint x;\n```\n' >"$T/site/posts/2025-02-01-code.md"
(unset SSG_DATADIR; "$T/root/usr/bin/ssg" build -C "$T/site" -q -o out3 2>"$T/err")
check "installed ssg finds its highlighter" grep -q '<span class="hl-t">int</span>' "$T/site/out3/2025/02/01/code/index.html"
(cd "$T" && PATH="$T/root/usr/bin:$PATH" ssg build -C "$T/site" -o out2 -q)
check "installed ssg found through PATH builds" test -f "$T/site/out2/index.html"

if command -v mandoc >/dev/null 2>&1; then
	check "ssg.1 is clean under mandoc -Tlint" sh -c "cd '$ROOT/ssg' && mandoc -Tlint ssg.1 site.yaml.5"
	check "site.yaml.5 is clean under mandoc -Tlint" sh -c "cd '$ROOT/ssg' && mandoc -Tlint site.yaml.5 ssg.1"
	# deploy's pages name jail.conf(5), which only FreeBSD has: warnings up
	check "deploy.1 and deploy.yaml.5 are clean under mandoc -Tlint -Wwarning" \
	    sh -c "cd '$ROOT/deploy' && mandoc -Tlint -Wwarning deploy.1 deploy.yaml.5"
else
	fail "mandoc is not installed (make deps-test installs it)"
fi
"$SSG" config -C "$T/site" | awk '{print $1}' >"$T/keys"
check "ssg config lists the settings" test "$(wc -l <"$T/keys")" -gt 30
missing=""
while read -r k; do
	grep -q "^\.It Cm $k\$" "$ROOT/ssg/site.yaml.5" || missing="$missing $k"
done <"$T/keys"
check "site.yaml(5) documents every setting:$missing" test -z "$missing"
# The license: the file, and both programs name it.
check "LICENSE is the ISC license" grep -q '^ISC License' "$ROOT/LICENSE"
check "ssg --version names the license" sh -c "'$SSG' --version | grep -qx 'ssg [0-9.]* (ISC license)'"
check "deploy --version names the license" sh -c "'$ROOT/bin/deploy' --version | grep -qx 'deploy [0-9.]* (ISC license)'"
check "README has the table of libraries and licenses" grep -q '^| libgit2 | .* | GPL-2.0 with the linking exception |' "$ROOT/README.md"
summary
