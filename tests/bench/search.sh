#!/bin/sh
# What ssg's search costs a reader and a build, on the generated corpus
# (tests/bench/gen.c) with search: true, against Zola's one-file index and
# Pagefind. It measures what Chromium fetches, not the index's file names,
# so it holds whatever form the index takes.
#
#   sh tests/bench/search.sh [--quick] [--out DIR]
#
#   1. the bytes a first query fetches: /search/?q=W1+W2 in headless
#      Chromium, served gzipped on 127.0.0.1; everything but the page and
#      its stylesheet (budget 150 KB)
#   2. Zola's index of the same posts (search_index.en.js), made with
#      elasticlunr.js, raw and gzipped: what a Zola reader loads whole
#   3. Pagefind over the built output: search("W1 W2") and the data of
#      the first 10 results, the same way as 1
#   4. the same query again in Chromium, the index in memory: Enter to
#      the results list updated, median of SEARCH_RUNS (target 50 ms)
#   5. ssg build --force with search on and off, side by side, median of
#      BENCH_REPS runs each: the index's share of the build (target 15%)
#
# --quick: 1,000 posts instead of 10,000. --out DIR: the table and all
# the figures also to DIR/search-STAMP.txt and .json.
# Environment: BENCH_SEARCH_N (posts), BENCH_SEARCH_QUERY (two words,
# default "cache typography"), BENCH_REPS (5), SEARCH_RUNS (10),
# BENCH_SEED (42), BENCH_SEARCH_PRECOMPRESS=1 (time the builds with
# precompress_assets on too, and serve their .gz), PAGEFIND=0 (leave
# Pagefind out), ZOLA=0 (leave the Zola index out), SSG (bin/ssg), CHROMIUM (/usr/bin/chromium), CC.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
BENCH=$ROOT/tests/bench
SB=$BENCH/search

QUICK=0
OUTDIR=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--out) [ $# -ge 2 ] || { echo "search.sh: --out needs a folder" >&2; exit 2; }
		OUTDIR=$2; shift ;;
	--out=*) OUTDIR=${1#--out=} ;;
	-h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: sh tests/bench/search.sh [--quick] [--out DIR]" >&2; exit 2 ;;
	esac
	shift
done
if [ "$QUICK" -eq 1 ]; then
	N=${BENCH_SEARCH_N:-1000}
else
	N=${BENCH_SEARCH_N:-10000}
fi
QUERY=${BENCH_SEARCH_QUERY:-cache typography}
REPS=${BENCH_REPS:-5}
SEED=${BENCH_SEED:-42}
SSG=${SSG:-$ROOT/bin/ssg}
CC=${CC:-cc}
SITE_URL=https://example.org
if [ -n "$OUTDIR" ]; then
	mkdir -p "$OUTDIR" && OUTDIR=$(cd "$OUTDIR" && pwd) || exit 1
fi

# What the run needs: GNU time; Chromium, node and playwright-core (as the
# theme tests install them); elasticlunr and pagefind, pinned here.
DEB="time" sh "$ROOT/tests/deps.sh" >&2 || exit 1
sh "$ROOT/tests/themes/setup.sh" || exit 1
if [ ! -f "$SB/node_modules/.package-lock.json" ] ||
    [ "$SB/package-lock.json" -nt "$SB/node_modules/.package-lock.json" ]; then
	(cd "$SB" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
		{ echo "search.sh: npm ci in tests/bench/search failed" >&2; exit 1; }
fi
GNUTIME=/usr/bin/time
if [ ! -x "$SSG" ]; then
	make -C "$ROOT" bin/ssg >/dev/null || exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ssg-search-bench.XXXXXX") || exit 1
CHILD=
cleanup() {
	# the one program running now, if any (node with its server and
	# Chromium, or pagefind)
	[ -n "$CHILD" ] && kill "$CHILD" 2>/dev/null && wait "$CHILD" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

# run CMD...: in the background, so that a signal to this script ends it
# too (see cleanup); returns its status.
run() {
	"$@" &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=
	return $rc
}

T_START=$(date +%s)
# nanoseconds where date(1) has %N (GNU), else whole seconds in ns
if date +%N | grep -q '^[0-9][0-9]*$'; then
	now_ns() { date +%s%N; }
else
	now_ns() { echo "$(date +%s)000000000"; }
fi
$CC -std=c11 -O2 -Wall -Wextra -o "$WORK/gen" "$BENCH/gen.c" || exit 1
# a copy, so that rebuilding bin/ssg meanwhile does not change the runs
cp "$SSG" "$WORK/ssg" && "$WORK/ssg" --version >/dev/null || exit 1
SSG=$WORK/ssg
SSG_DATADIR=${SSG_DATADIR:-$ROOT}	# the copy finds themes/ through this
export SSG_DATADIR

C=$WORK/c
mkdir -p "$C/ssg" "$C/hugo/content"
# run.sh's site (tests/bench/site.yaml) served here; search and
# precompression are set on the command line
sed "s|^site_url: .*|site_url: \"$SITE_URL\"|" "$BENCH/site.yaml" >"$C/ssg/site.yaml"
t0=$(now_ns)
"$WORK/gen" "$C" "$N" "$SEED" 0 "$N" || exit 1
rm -rf "$C/hugo"
echo "corpus N=$N: $(du -sk "$C/ssg/posts" | cut -f1) KB of Markdown, written in $((($(now_ns) - t0) / 1000000)) ms"

# How many posts hold each word of the query, and all of them (whole
# words, any case): the query must find something.
set -- $QUERY
[ $# -ge 1 ] || { echo "search.sh: empty query" >&2; exit 2; }
WORDS=
for w in "$@"; do
	c=$(grep -rliw -- "$w" "$C/ssg/posts" | wc -l)
	WORDS="$WORDS${WORDS:+, }$w: $c posts"
done
files=$(grep -rliw -- "$1" "$C/ssg/posts")
shift
for w in "$@"; do
	[ -z "$files" ] && break
	files=$(printf '%s\n' "$files" | tr '\n' '\0' | xargs -0 grep -liw -- "$w")
done
ALL=$(printf '%s' "$files" | grep -c .)
WORDS="$WORDS, all: $ALL"
echo "query \"$QUERY\": $WORDS"
[ "$ALL" -gt 0 ] || { echo "search.sh: no post holds every word of \"$QUERY\"" >&2; exit 1; }

# one untimed build colours the code blocks into .ssg-cache (see run.sh)
t0=$(now_ns)
"$SSG" build -C "$C/ssg" -o "$C/out-warm" -q --set search=true >"$WORK/build.log" 2>&1 || {
	tail -n 5 "$WORK/build.log" >&2; exit 1; }
echo "code blocks coloured in $((($(now_ns) - t0) / 1000000)) ms (untimed)"
rm -rf "$C/out-warm"

# 5. full builds, search off and on, with precompression off (as make
# bench builds) and, with BENCH_SEARCH_PRECOMPRESS=1, on (as deploy push
# builds), one after the other in each run. Each goes to a new folder: none is deleted before the end
# (ext4 is slow to create files just after many are freed, see README).
PRECOMPRESS=false
[ "${BENCH_SEARCH_PRECOMPRESS:-0}" = 1 ] && PRECOMPRESS="false true"
PCLAST=${PRECOMPRESS##* }
FAILED=0
: >"$WORK/builds.txt"	# precompress search rep wall cpu
rep=1
while [ "$rep" -le "$REPS" ]; do
	for pc in $PRECOMPRESS; do
		# alternate which side goes first
		if [ $((rep % 2)) -eq 1 ]; then sides="false true"; else sides="true false"; fi
		for s in $sides; do
			find "$C/ssg/.ssg-cache" -mindepth 1 ! -name highlight.bin \
			    -exec rm -rf {} + 2>/dev/null
			o=$C/out-$rep-$pc-$s
			sync
			t0=$(now_ns)
			timeout 600 "$GNUTIME" -f '%U %S' -o "$WORK/time.out" \
			    "$SSG" build -C "$C/ssg" -o "$o" --force -q \
			    --set search=$s --set precompress_assets=$pc \
			    >"$WORK/build.log" 2>&1
			rc=$?
			t1=$(now_ns)
			if [ "$rc" -ne 0 ]; then
				echo "search.sh: build (search $s, precompress $pc) failed:" >&2
				tail -n 5 "$WORK/build.log" | sed 's/^/    /' >&2
				FAILED=1
				continue
			fi
			cpu=$(awk '{ print $1 + $2 }' "$WORK/time.out" | tail -n 1)
			echo "$pc $s $rep $(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.4f", d / 1e9 }') $cpu" >>"$WORK/builds.txt"
		done
	done
	echo "  builds, run $rep of $REPS done"
	rep=$((rep + 1))
done
[ "$FAILED" -eq 0 ] || exit 1
# medians, as JSON for the report
awk '
function med(k,   n, i, j, t, a) {
	n = split(v[k], a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	w[$1, $2] = w[$1, $2] " " $4; c[$1, $2] = c[$1, $2] " " $5
}
END {
	printf "{"
	sep = ""
	np = split(pcs, P, " ")
	for (i = 1; i <= np; i++) {
		p = P[i]
		for (k in w) v[k] = w[k]
		fw = med(p SUBSEP "false"); nw = med(p SUBSEP "true")
		for (k in c) v[k] = c[k]
		fc = med(p SUBSEP "false"); nc = med(p SUBSEP "true")
		printf "%s\"%s\": {\"off_wall\": %.4f, \"on_wall\": %.4f, \"off_cpu\": %.2f, \"on_cpu\": %.2f, \"share_wall\": %.4f, \"share_cpu\": %.4f}", \
		    sep, (p == "true" ? "on" : "off"), fw, nw, fc, nc, \
		    (nw > 0 ? (nw - fw) / nw : 0), (nc > 0 ? (nc - fc) / nc : 0)
		sep = ", "
	}
	printf "}\n"
}' pcs="$PRECOMPRESS" "$WORK/builds.txt" >"$WORK/builds.json"
echo "build times (wall s, cpu s), median of $REPS:"
awk '{ printf "  precompress %-5s search %-5s run %s: %7.3f s (%6.2f)\n", $1, $2, $3, $4, $5 }' "$WORK/builds.txt" | sort

# The output served: the last run's build with search on (precompressed
# with BENCH_SEARCH_PRECOMPRESS=1; else the server gzips as it sends)
OUT=$C/out-$REPS-$PCLAST-true
[ -f "$OUT/search/index.html" ] || { echo "search.sh: no $OUT/search/index.html" >&2; exit 1; }
IDX_FILES=$(find "$OUT/search" -type f ! -name '*.gz' ! -name '*.br' | wc -l)
IDX_BYTES=$(find "$OUT/search" -type f ! -name '*.gz' ! -name '*.br' -exec cat {} + | wc -c)
IDX_GZ=$(find "$OUT/search" -type f -name '*.gz' -exec cat {} + | wc -c)
echo "search/: $IDX_FILES files (page, script and index), $IDX_BYTES bytes, $IDX_GZ as .gz"
qj=$(printf '%s' "$QUERY" | sed 's/\\/\\\\/g; s/"/\\"/g')
printf '{"n": %d, "query": "%s", "words": "%s", "seed": %d, "reps": %d, "ssg": "%s", "commit": "%s", "date": "%s", "index": {"files": %d, "bytes": %d, "gz": %d}}\n' \
    "$N" "$qj" "$WORDS" "$SEED" "$REPS" \
    "$("$SSG" --version 2>/dev/null | head -n 1 | tr -d '"\\')" \
    "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$IDX_FILES" "$IDX_BYTES" "$IDX_GZ" >"$WORK/meta.json"

# 1 and 4: ssg's search page in Chromium
echo
run node "$SB/measure.js" ssg "$OUT" "$QUERY" "$WORK/ssg.json" || FAILED=1

# 2: Zola's index of the same posts
if [ "${ZOLA:-1}" != 0 ]; then
	echo
	run node --max-old-space-size=8192 "$SB/measure.js" zola "$C/ssg/posts" \
	    "$SITE_URL" "$WORK/zola.json" || FAILED=1
fi

# 3: Pagefind over the same output, the posts' pages only (ssg's index
# holds the posts and pages; the corpus has no pages)
if [ "${PAGEFIND:-1}" != 0 ]; then
	echo
	PF=$SB/node_modules/.bin/pagefind
	years=$(ls "$OUT" | grep '^[0-9][0-9][0-9][0-9]$' | tr '\n' ',' | sed 's/,$//')
	t0=$(now_ns)
	if run timeout 900 "$PF" --site "$OUT" --glob "{$years}/**/*.html" \
	    >"$WORK/pagefind.log" 2>&1; then
		t1=$(now_ns)
		pf_files=$(find "$OUT/pagefind" -type f | wc -l)
		pf_bytes=$(find "$OUT/pagefind" -type f -exec cat {} + | wc -c)
		pages=$(sed -n 's/.*Indexed \([0-9,]*\) page.*/\1/p' "$WORK/pagefind.log" | head -n 1)
		echo "pagefind $("$PF" --version 2>/dev/null | head -n 1): indexed ${pages:-?} pages in $(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.2f", d / 1e9 }') s; $pf_files files, $pf_bytes bytes"
		awk -v d=$((t1 - t0)) -v f="$pf_files" -v b="$pf_bytes" \
		    'BEGIN { printf "{\"index_s\": %.3f, \"index_files\": %d, \"index_bytes\": %d}\n", d / 1e9, f, b }' \
		    >"$WORK/pagefind.json"
		run node "$SB/measure.js" pagefind "$OUT" "$QUERY" "$WORK/pagefind.json" || FAILED=1
	else
		echo "pagefind could not run:"
		tail -n 5 "$WORK/pagefind.log" | sed 's/^/    /'
		printf '{"ok": false, "error": "pagefind failed: %s"}\n' \
		    "$(tail -n 1 "$WORK/pagefind.log" | tr -d '"\\')" >"$WORK/pagefind.json"
		FAILED=1
	fi
fi

NPROC=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
LOAD=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*: //')
echo
echo "ssg: $("$SSG" --version 2>/dev/null | head -n 1) ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)); machine: $NPROC CPUs, load average now $LOAD"
echo "bytes: the gzip bodies sent, all but the page and its stylesheet;"
echo "build times: median of $REPS, wall s (cpu s); the index share is (on - off) / on; whole run $(($(date +%s) - T_START)) s"
echo
STAMP=
[ -n "$OUTDIR" ] && STAMP=$OUTDIR/search-$(date -u +%Y%m%dT%H%M%S)
node "$SB/measure.js" report "$WORK" $STAMP || FAILED=1
[ -n "$STAMP" ] && echo "written: $STAMP.txt, $STAMP.json"
exit $FAILED
