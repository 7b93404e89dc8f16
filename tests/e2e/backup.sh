#!/bin/sh
# ssg backup, backups, restore: a round trip is byte for byte, a damaged or
# unsafe archive changes nothing.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/tests/fixtures/basic" "$T/site"
S="$T/site"
mkdir -p "$S/templates" "$S/static/empty"
printf '<p>{{title}}</p>\n' >"$S/templates/post.mustache.example"

# a listing of every source: type, mode, size, checksum, path
snap() {
	(cd "$S" && find posts pages drafts static templates site.yaml \
	    -exec sh -c 'for f; do
		if [ -d "$f" ]; then echo "d $f"; else
		echo "f $(cksum <"$f") $f"; fi; done' sh {} + | LC_ALL=C sort)
}
snap >"$T/before"

"$SSG" backup -C "$S" >"$T/id" 2>"$T/err"
check "backup exits 0" test $? -eq 0
ID=$(cat "$T/id")
check "backup prints an id" test -n "$ID"
A="$S/.ssg-backups/$ID.tar.gz"
check "the archive exists" test -f "$A"
check "the archive is gzip" sh -c "od -An -tx1 -N2 '$A' | grep -q '1f 8b'"
check "the archive lists the sources" sh -c "tar -tzf '$A' | grep -q '^posts/2025-04-07-escaping.md$'"
check "site.yaml is in it" sh -c "tar -tzf '$A' | grep -q '^site.yaml$'"
check "output is not in it" sh -c "! tar -tzf '$A' | grep -q '^output'"
"$SSG" backups -C "$S" >"$T/list"
check "backups lists it" grep -q "^$ID	" "$T/list"

# change everything, then restore
printf 'changed\n' >>"$S/posts/2025-04-07-escaping.md"
rm "$S/pages/about.md"
printf -- '---\ntitle: New\n---\nnew\n' >"$S/posts/2026-01-01-new.md"
rm -r "$S/static/empty"
printf 'site_title: Changed\n' >"$S/site.yaml"
"$SSG" restore -C "$S" "$ID" >"$T/out" 2>&1
check "restore exits 0" test $? -eq 0
snap >"$T/after"
if cmp -s "$T/before" "$T/after"; then pass
else fail "restore is not byte for byte:"; diff "$T/before" "$T/after" >&2; fi
check "restore removed the new post" test ! -e "$S/posts/2026-01-01-new.md"
check "restore saved the state before" test "$(ls "$S/.ssg-backups" | wc -l)" -eq 2
check "no staging folder left" sh -c "! ls -a '$S' | grep -q ssg-restore"

# --no-config and --no-content
printf 'site_title: Changed again\n' >"$S/site.yaml"
printf 'x\n' >>"$S/pages/about.md"
"$SSG" restore -C "$S" --no-config "$ID" >/dev/null 2>&1
check "--no-config keeps site.yaml" grep -q 'Changed again' "$S/site.yaml"
check "--no-config restores content" sh -c "! grep -q '^x$' '$S/pages/about.md'"
printf 'x\n' >>"$S/pages/about.md"
"$SSG" restore -C "$S" --no-content "$T/../$(basename "$T")/site/.ssg-backups/$ID.tar.gz" >/dev/null 2>&1
check "restore takes a file path" test $? -eq 0
check "--no-content restores site.yaml" grep -q 'Fixture' "$S/site.yaml"
check "--no-content keeps the content" grep -q '^x$' "$S/pages/about.md"

# a damaged archive changes nothing
snap >"$T/before"
N=$(ls "$S/.ssg-backups" | wc -l)
SIZE=$(wc -c <"$A")
head -c $((SIZE / 2)) "$A" >"$T/truncated.tar.gz"
"$SSG" restore -C "$S" "$T/truncated.tar.gz" >/dev/null 2>"$T/err"
check "truncated archive: exit 1" test $? -eq 1
check "truncated archive: says so" grep -q 'nothing was changed' "$T/err"
snap >"$T/after"
check "truncated archive: no change" cmp -s "$T/before" "$T/after"
check "truncated archive: no backup made" test "$(ls "$S/.ssg-backups" | wc -l)" -eq "$N"
cp "$A" "$T/flipped.tar.gz"
printf '\377\377\377\377\377\377\377\377' | dd of="$T/flipped.tar.gz" bs=1 \
	seek=$((SIZE / 2)) conv=notrunc 2>/dev/null
"$SSG" restore -C "$S" "$T/flipped.tar.gz" >/dev/null 2>&1
check "corrupted archive: exit 1" test $? -eq 1
snap >"$T/after"
check "corrupted archive: no change" cmp -s "$T/before" "$T/after"
printf 'not an archive' >"$T/junk.tar.gz"
"$SSG" restore -C "$S" "$T/junk.tar.gz" >/dev/null 2>&1
check "junk: exit 1" test $? -eq 1

# unsafe entries: .. and absolute paths
mkdir -p "$T/evil/posts"
printf 'x\n' >"$T/evil/posts/ok.md"
printf 'pwned\n' >"$T/evil/p.txt"
(cd "$T/evil" && tar -czf "$T/dotdot2.tar.gz" posts/ok.md --transform 's|^posts/ok.md|posts/../../escaped.md|' 2>/dev/null)
tar -czPf "$T/abs.tar.gz" "$T/evil/p.txt" 2>/dev/null
check "the test archive holds .." sh -c "tar -tzf '$T/dotdot2.tar.gz' | grep -q '\.\./\.\./escaped'"
check "the test archive holds an absolute path" sh -c "tar -tzPf '$T/abs.tar.gz' | grep -q '^/'"
for a in dotdot2 abs; do
	"$SSG" restore -C "$S" "$T/$a.tar.gz" >/dev/null 2>"$T/err"
	check "$a: exit 1" test $? -eq 1
	check "$a: names the unsafe entry" grep -q 'unsafe entry' "$T/err"
done
check "nothing escaped the site" test ! -e "$T/escaped.md"
snap >"$T/after"
check "unsafe archives: no change" cmp -s "$T/before" "$T/after"

"$SSG" restore -C "$T" >/dev/null 2>&1
check "restore with no backups: exit 1" test $? -eq 1
"$SSG" restore -C "$S" no-such-id >/dev/null 2>&1
check "restore of an unknown id: exit 1" test $? -eq 1
for c in backup backups restore; do
	"$SSG" $c --help >"$T/h" 2>&1
	check "$c --help" grep -q "usage: ssg $c" "$T/h"
	"$SSG" $c --bogus >/dev/null 2>"$T/h"
	check "$c --bogus exits 2" test $? -eq 2
	check "$c --bogus prints usage" grep -q "usage: ssg $c" "$T/h"
done
summary
