#!/bin/sh
# The documentation in content/ is current: it builds, no post or page
# says a part of the project is still to come ("being written", "not
# finished", "will do"), and every ssg or deploy command shown in a code
# block is one that the program's --help lists.
. "$(dirname "$0")/../lib.sh"
DEPLOY=${DEPLOY:-"$ROOT/bin/deploy"}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -R "$ROOT/content" "$T/site"
rm -rf "$T/site/output" "$T/site/.ssg-cache"

"$SSG" build -C "$T/site" -q >"$T/build.out" 2>&1
check "content/ builds with status 0" test $? -eq 0

# Sources: every post and page, Markdown or HTML.
find "$ROOT/content/posts" "$ROOT/content/pages" -type f \
    \( -name '*.md' -o -name '*.html' \) | sort >"$T/sources"
check "there are posts and pages to read" test -s "$T/sources"

# Words that describe the project as unfinished.
while IFS= read -r f; do
	rel=${f#"$ROOT"/}
	if grep -n -i -E 'being written|not finished|will do' "$f" >"$T/stale"; then
		fail "$rel: says the work is unfinished: $(tr '\n' ' ' <"$T/stale")"
	else
		pass
	fi
done <"$T/sources"

# Commands in code blocks: Markdown ``` fences and HTML <pre><code>. A
# line "ssg WORD ..." or "deploy WORD ..." (after an optional "$ "
# prompt) names the command WORD; options (-x, --x) and placeholders in
# capitals (ssg COMMAND) name none. Prints "program command file".
while IFS= read -r f; do
	awk -v file="${f#"$ROOT"/}" '
	function take(line,   w) {
		sub(/^[ \t]*/, "", line)
		sub(/^\$ /, "", line)
		if (line !~ /^(ssg|deploy) /)
			return
		split(line, w, /[ \t]+/)
		if (w[2] == "" || w[2] ~ /^-/ || w[2] ~ /^[A-Z][A-Z_]*$/)
			return
		print w[1], w[2], file
	}
	!pre && /^[ \t]*```/ { fence = !fence; next }
	fence { take($0); next }
	!pre && /<pre[^>]*>[ \t]*<code[^>]*>/ {
		pre = 1
		sub(/.*<pre[^>]*>[ \t]*<code[^>]*>/, "")
	}
	pre {
		done = sub(/<\/code>[ \t]*<\/pre>.*/, "")
		take($0)
		if (done)
			pre = 0
	}' "$f"
done <"$T/sources" >"$T/commands"
check "code blocks show ssg and deploy commands" test -s "$T/commands"

"$SSG" --help >"$T/ssg.help" 2>&1
"$DEPLOY" --help >"$T/deploy.help" 2>&1
# Both list a command as a line "  NAME ..." (two spaces, then the name).
listed() {	# listed HELPFILE NAME
	awk -v c="$2" '/^  [^ ]/ && $1 == c { found = 1 } END { exit !found }' "$1"
}
sort -u -k1,2 "$T/commands" | while read -r prog cmd _; do
	files=$(awk -v p="$prog" -v c="$cmd" '$1 == p && $2 == c { print $3 }' \
	    "$T/commands" | sort -u | tr '\n' ' ')
	if listed "$T/$prog.help" "$cmd"; then
		echo pass
	else
		echo "fail content: '$prog $cmd' is a command $prog --help lists (in ${files% })"
	fi
done >"$T/results"
while IFS= read -r line; do
	case $line in
	pass) pass ;;
	fail\ *) fail "${line#fail }" ;;
	esac
done <"$T/results"
check "content: commands were really checked" grep -q . "$T/results"
summary
