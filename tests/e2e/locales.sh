#!/bin/sh
# The translations in themes/locales/: each file is a flat map of quoted
# strings with exactly the keys of en.yaml, none empty, none repeated.
# Needs no ssg binary: plain shell and awk.
. "$(dirname "$0")/../lib.sh"
L="$ROOT/themes/locales"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# keys FILE: the sorted keys of a locale file.
keys() {
	awk '/^[ \t]*(#|$)/ { next } { sub(/:.*/, ""); print }' "$1" |
	    LC_ALL=C sort
}

check "en.yaml exists" test -f "$L/en.yaml"
keys "$L/en.yaml" >"$T/en.keys"
check "en.yaml has the month names" test "$(grep -c '^month_' "$T/en.keys")" -eq 12
for lang in en it es fr de pt nl cs ja zh; do
	check "$lang.yaml exists" test -f "$L/$lang.yaml"
done
n=0
for f in "$L"/*.yaml; do
	n=$((n + 1))
	name=${f##*/}
	# Every line is a comment, blank, or `key: "text"` with no stray quote.
	bad=$(awk '/^[ \t]*(#|$)/ { next }
	    !/^[a-z][a-z0-9_]*: "[^"\\]+"$/ { print FILENAME ":" NR ": " $0 }' "$f")
	if [ -z "$bad" ]; then pass; else fail "$name: malformed line: $bad"; fi
	keys "$f" >"$T/keys"
	dup=$(uniq -d "$T/keys")
	if [ -z "$dup" ]; then pass; else fail "$name: repeated keys: $dup"; fi
	if diff "$T/en.keys" "$T/keys" >"$T/diff"; then pass
	else fail "$name: keys differ from en.yaml:"; cat "$T/diff" >&2; fi
	# A date format is a strftime format: it has at least one conversion.
	check "$name: date_format has a conversion" \
	    grep -Eq '^date_format: ".*%[a-zA-Z].*"$' "$f"
done
check "more than one language" test "$n" -ge 10

# BSSG's own messages (locales/bssg/): flat, the keys of its en.yaml.
B="$L/bssg"
keys "$B/en.yaml" >"$T/bssg.keys"
check "bssg/en.yaml has BSSG's 48 messages" test "$(wc -l <"$T/bssg.keys")" -eq 48
for lang in de es fr it ja nl pt zh; do
	f="$B/$lang.yaml"
	check "bssg/$lang.yaml exists" test -f "$f"
	bad=$(awk '/^[ \t]*(#|$)/ { next }
	    !/^[a-z][a-z0-9_]*: "[^"\\]*"$/ { print FILENAME ":" NR ": " $0 }' "$f")
	if [ -z "$bad" ]; then pass; else fail "bssg/$lang.yaml: malformed line: $bad"; fi
	keys "$f" >"$T/keys"
	check "bssg/$lang.yaml has the keys of bssg/en.yaml" diff "$T/bssg.keys" "$T/keys"
done

# A real YAML parser agrees, where one is installed.
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import yaml' >/dev/null 2>&1; then
	for f in "$L"/*.yaml; do
		check "${f##*/} parses as a map of strings" python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
assert isinstance(d, dict) and all(isinstance(v, str) and v for v in d.values())
' "$f"
	done
fi
summary
