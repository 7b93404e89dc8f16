#!/bin/sh
# Fenced code with a language is coloured at build time: token spans with
# the hl-* classes, escaped, inside cmark's <pre><code class="language-X">.
# An unknown language, or no Pygments, leaves the block plain with one
# warning per language per build. The colours are cached in
# .ssg-cache/highlight.bin: a second full build starts no highlighter (a
# python3 wrapper counts its starts). highlight: false turns it off.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S="$T/site"
mkdir -p "$S/posts" "$T/bin"

if ! python3 -c 'import pygments' 2>/dev/null; then
	echo "python3 with Pygments is needed (make deps-test)" >&2
	fail "no Pygments"
	summary
	exit 1
fi
# python3, counting its starts
REAL=$(command -v python3)
cat >"$T/bin/python3" <<SH
#!/bin/sh
echo start >>"$T/starts"
exec "$REAL" "\$@"
SH
chmod +x "$T/bin/python3"
export SSG_PYTHON="$T/bin/python3"
starts() { if [ -f "$T/starts" ]; then wc -l <"$T/starts"; else echo 0; fi; }

cat >"$S/site.yaml" <<'YAML'
site_title: Code
site_url: https://example.org
YAML
# one block per language: name, then code
block() {
	printf '```%s\n%s\n```\n\n' "$1" "$2"
}
{
	printf -- '---\ntitle: Languages\ndate: 2025-01-01\n---\nEvery language.\n\n'
	block c 'int main(void) { return 0; } /* done */'
	block sh 'if [ -f x ]; then echo "yes"; fi # sh'
	block bash 'for i in 1 2; do echo "$i"; done'
	block shell 'export A="b" # shell'
	block console '$ ls -l /tmp
total 0'
	block python 'def f(x):
    return "s" + 1  # py'
	block yaml 'key: "value"  # yaml
n: 12'
	block nginx 'server { listen 80; root /srv/www; }'
	block diff '--- a
+++ b
-old
+new'
	block json '{"a": [1, true, "s"]}'
	block html '<p class="x">Hi &amp; bye</p>'
	block css 'body { color: #123456; margin: 0 }'
	block javascript 'function f(a) { return a + 1; } // js'
	block js 'const x = "s"; let y = 2;'
	block go 'package main
func main() { fmt.Println("hi") }'
	block rust 'fn main() { let x: i32 = 5; println!("{}", x); }'
	block make 'all: x.o
	cc -o x x.o # make'
	block makefile 'CFLAGS = -O2'
	block ini '[section]
key = value ; ini'
	block toml '[table]
key = "value"
n = 1'
	block sql 'SELECT a, COUNT(*) FROM t WHERE b = '"'"'x'"'"' GROUP BY a;'
} >"$S/posts/2025-01-01-languages.md"
cat >"$S/posts/2025-01-02-escaped.md" <<'MD'
---
title: Escaped
date: 2025-01-02
---
Unknown language, twice, and another:

```nosuchlang
x <b>& y
```

```nosuchlang
again <i>
```

```otherlang
z
```

A known one with markup in it:

```python
s = "<b>&"
```

Indented and unfenced code stays as cmark writes it:

    <b>& plain
MD
cat >"$S/posts/2025-01-03-more.md" <<'MD'
---
title: More
date: 2025-01-03
---
```nosuchlang
third
```
MD
cat >"$S/posts/2025-01-04-same.md" <<'MD'
---
title: Same
date: 2025-01-04
---
The same code in two languages:

```c
int y = 1;
```

```python
int y = 1;
```
MD
L="$S/output/2025/01/01/languages/index.html"
E="$S/output/2025/01/02/escaped/index.html"

"$SSG" build -C "$S" -v >"$T/out" 2>"$T/err"
check "builds" test $? -eq 0
# the lines of the block of language $2 in page $1
code_of() {
	sed -n "/<pre><code class=\"language-$2\">/,/<\/code><\/pre>/p" "$1"
}
for lang in c sh bash shell console python yaml nginx diff json html css \
    javascript js go rust make makefile ini toml sql; do
	code_of "$L" "$lang" >"$T/block"
	check "$lang: a block" test -s "$T/block"
	check "$lang: token spans" grep -q '<span class="hl-[a-z]*">' "$T/block"
done
check "c: keyword and type" sh -c "code_of() { :; }; grep -q '<span class=\"hl-t\">int</span>' '$L' && grep -q '<span class=\"hl-k\">return</span>' '$L'"
check "c: comment" contains "$L" '<span class="hl-c">/* done */</span>'
check "python: string" contains "$L" '<span class="hl-s">&quot;s&quot;</span>'
check "diff: deleted line" contains "$L" '<span class="hl-gd">-old</span>'
check "diff: inserted line" contains "$L" '<span class="hl-gi">+new</span>'
check "console: prompt" grep -q '<span class="hl-gp">\$' "$L"
check "json: number" contains "$L" '<span class="hl-n">1</span>'
M="$S/output/2025/01/04/same/index.html"
check "same code, C: a type" contains "$M" '<code class="language-c"><span class="hl-t">int</span>'
check "same code, Python: a builtin" contains "$M" '<code class="language-python"><span class="hl-b">int</span>'
check "no inline styles" sh -c "! grep -q 'style=' '$L'"
# the text of the page's code is the code: spans out, nothing else changed
sed -e 's/<span class="hl-[a-z]*">//g' -e 's,</span>,,g' "$L" >"$T/stripped"
check "spans only wrap the text" contains "$T/stripped" '<pre><code class="language-c">int main(void) { return 0; } /* done */'
check "html: its markup escaped" contains "$T/stripped" '&lt;p class=&quot;x&quot;&gt;Hi &amp;amp; bye&lt;/p&gt;'

code_of "$E" nosuchlang >"$T/block"
check "unknown language: plain" sh -c "! grep -q '<span' '$T/block'"
check "unknown language: escaped" contains "$E" '<pre><code class="language-nosuchlang">x &lt;b&gt;&amp; y'
check "known language: <b>& escaped" contains "$E" '&quot;&lt;b&gt;&amp;&quot;'
check "no raw <b> in the page" sh -c "! grep -q '<b>' '$E'"
check "indented code: plain" contains "$E" '<pre><code>&lt;b&gt;&amp; plain'
check "one warning for nosuchlang (3 blocks, 2 files)" test "$(grep -c "'nosuchlang'" "$T/err")" -eq 1
check "the warning names a file, line and the language" grep -q "posts/2025-01-0[23]-[a-z]*\.md:[0-9]*: warning: code in 'nosuchlang' is shown plain" "$T/err"
check "one warning for otherlang" test "$(grep -c "'otherlang'" "$T/err")" -eq 1
check "no other warnings" test "$(grep -c warning "$T/err")" -eq 2
check "the helper started" test "$(starts)" -ge 1
# The third 'nosuchlang' block, and the second when two threads ask at
# once, finds the language already known as unknown: 0 to 2 from the cache.
check "verbose: blocks counted" grep -q "^code blocks: 28 with a language, [0-2] from the cache, 4 plain; highlighter started [12] times" "$T/out"
check "the cache is written" test -s "$S/.ssg-cache/highlight.bin"

# the same build again, and full builds with the cache: same pages, no
# highlighter started
n0=$(starts)
cp -R "$S/output" "$T/first"
"$SSG" build -C "$S" -v >"$T/out" 2>"$T/err"
check "again: identical" diff -r "$T/first" "$S/output"
"$SSG" build -C "$S" -v --force >"$T/out" 2>"$T/err"
check "--force: identical" diff -r "$T/first" "$S/output"
check "--force with the cache: no highlighter started" test "$(starts)" -eq "$n0"
check "--force: verbose says so" grep -q '^code blocks: 28 with a language, 28 from the cache, 4 plain; highlighter started 0 times' "$T/out"
check "--force: the unknown language is still warned about, once" test "$(grep -c "'nosuchlang'" "$T/err")" -eq 1
"$SSG" build -C "$S" -q --force -o "$T/other" 2>/dev/null
check "another output folder: no highlighter started" test "$(starts)" -eq "$n0"
check "another output folder: identical" diff -r "$T/first" "$T/other"
# an edited block alone is highlighted again
sed -i 's/return 0;/return 1;/' "$S/posts/2025-01-01-languages.md"
"$SSG" build -C "$S" -v >"$T/out" 2>"$T/err"
check "edit: one block coloured again" grep -q '^code blocks: 21 with a language, 20 from the cache' "$T/out"
check "edit: shown" contains "$L" '<span class="hl-k">return</span> <span class="hl-n">1</span>'
# without the cache file, the helper is needed again
n0=$(starts)
rm -f "$S/.ssg-cache/highlight.bin"
"$SSG" build -C "$S" -q --force 2>/dev/null
check "no cache: the highlighter starts" test "$(starts)" -gt "$n0"
# a damaged cache is set aside, with a warning, never used
printf 'garbage' >>"$S/.ssg-cache/highlight.bin"
"$SSG" build -C "$S" -q --force >"$T/out" 2>"$T/err"
check "damaged cache: a warning" grep -q 'highlight.bin: warning: damaged' "$T/err"
check "damaged cache: still coloured" contains "$L" '<span class="hl-gi">+new</span>'

# no Pygments: plain, escaped, one warning per language; coloured again
# once it is there, without --force
cat >"$T/bin/nopyg" <<SH
#!/bin/sh
exec "$REAL" -S "\$@"
SH
chmod +x "$T/bin/nopyg"
sed -i 's/return 1;/return 2;/' "$S/posts/2025-01-01-languages.md"
SSG_PYTHON="$T/bin/nopyg" "$SSG" build -C "$S" -q >"$T/out" 2>"$T/err"
check "no Pygments: builds" test $? -eq 0
code_of "$L" c >"$T/block"
check "no Pygments: plain" sh -c "! grep -q '<span' '$T/block'"
check "no Pygments: escaped" contains "$L" 'return 2; } /* done */'
check "no Pygments: one warning for c" test "$(grep -c "code in 'c' is shown plain: Pygments is not available" "$T/err")" -eq 1
check "no Pygments: only the new block warned about" test "$(grep -c 'Pygments is not available' "$T/err")" -eq 1
check "no Pygments: unchanged blocks come from the cache" contains "$L" '<span class="hl-gi">+new</span>'
"$SSG" build -C "$S" -q >"$T/out" 2>"$T/err"
check "Pygments back: coloured without --force" contains "$L" '<span class="hl-k">return</span> <span class="hl-n">2</span>'
mv "$S/.ssg-cache/highlight.bin" "$T/hl.bin"
SSG_PYTHON="$T/none/python3" "$SSG" build -C "$S" -q --force -o "$T/nopy" >"$T/out" 2>"$T/err"
mv "$T/hl.bin" "$S/.ssg-cache/highlight.bin"
check "no python3: builds" test $? -eq 0
check "no python3: plain" sh -c "! grep -q 'hl-' '$T/nopy/2025/01/01/languages/index.html'"
check "no python3: says so" grep -q "code in 'c' is shown plain: python3 was not found" "$T/err"

# off
n0=$(starts)
echo 'highlight: false' >>"$S/site.yaml"
"$SSG" build -C "$S" -q >"$T/out" 2>"$T/err"
check "off: builds without --force" test $? -eq 0
check "off: no spans" sh -c "! grep -q 'hl-' '$L'"
check "off: cmark's block" contains "$L" '<pre><code class="language-c">int main(void) { return 2; } /* done */'
check "off: no warnings" test ! -s "$T/err"
check "off: no highlighter started" test "$(starts)" -eq "$n0"
"$SSG" build -C "$S" -q --force -o "$T/offfull" 2>/dev/null
check "off: incremental equals full" diff -r "$S/output" "$T/offfull"
summary
