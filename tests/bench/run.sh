#!/bin/sh
# Benchmarks ssg against Hugo on generated corpora of the same posts:
# full build, no-change rebuild, one post edited, one added, one deleted.
# Prints a table and writes the results as JSON to tests/bench/results/.
#
#   sh tests/bench/run.sh [--quick]
#
# Environment: BENCH_SIZES (default "1000 10000", --quick "200 1000"),
# BENCH_REPS (best of this many runs; default 5 up to 2000 posts, else 3),
# BENCH_BUDGET (seconds for the whole run; default 840, --quick 75),
# BENCH_TIMEOUT (seconds for one build; default 600), BENCH_SEED (42),
# SSG (default bin/ssg), HUGO (default hugo), CC (default cc).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
BENCH=$ROOT/tests/bench

QUICK=0
for a in "$@"; do
	case $a in
	--quick) QUICK=1 ;;
	-h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: sh tests/bench/run.sh [--quick]" >&2; exit 2 ;;
	esac
done
if [ "$QUICK" -eq 1 ]; then
	SIZES=${BENCH_SIZES:-200 1000}
	BUDGET=${BENCH_BUDGET:-75}
else
	SIZES=${BENCH_SIZES:-1000 10000}
	BUDGET=${BENCH_BUDGET:-840}
fi
TIMEOUT=${BENCH_TIMEOUT:-600}
SEED=${BENCH_SEED:-42}
SSG=${SSG:-$ROOT/bin/ssg}
HUGO=${HUGO:-hugo}
CC=${CC:-cc}
CASES="full nochange edit add delete"

DEB="hugo time" sh "$ROOT/tests/deps.sh" || exit 1
GNUTIME=/usr/bin/time
if ! "$GNUTIME" -f %M true >/dev/null 2>&1; then
	GNUTIME=$(command -v gtime || echo /usr/local/bin/gtime)
fi
if [ ! -x "$SSG" ]; then
	make -C "$ROOT" bin/ssg >/dev/null || exit 1
fi
command -v "$HUGO" >/dev/null 2>&1 || { echo "bench: no hugo" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ssg-bench.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP PIPE
RES=$WORK/results.txt	# n tool case rep wall_s cpu_s rss_kb status
: >"$RES"
FAILED=0

$CC -std=c11 -O2 -Wall -Wextra -o "$WORK/gen" "$BENCH/gen.c" || exit 1
# a copy, so that rebuilding bin/ssg meanwhile does not change the runs
cp "$SSG" "$WORK/ssg" && "$WORK/ssg" --version >/dev/null 2>&1 || {
	sleep 5
	cp "$SSG" "$WORK/ssg" && "$WORK/ssg" --version >/dev/null || exit 1
}
SSG=$WORK/ssg
SSG_DATADIR=${SSG_DATADIR:-$ROOT}	# the copy finds themes/ through this
export SSG_DATADIR

# nanoseconds where date(1) has %N (GNU), else whole seconds in ns; the
# build times then come from GNU time's %e (hundredths)
if date +%N | grep -q '^[0-9][0-9]*$'; then
	NS=1
	now_ns() { date +%s%N; }
else
	NS=0
	now_ns() { echo "$(date +%s)000000000"; }
fi
START=$(now_ns)

# What timing a build costs by itself: timeout, GNU time and date start
# three processes around it (about 5 ms here), which would otherwise count
# as part of a 50 ms build. Measured now, the least of 7 runs with true,
# and taken off every wall time (printed, and in the JSON).
HARNESS_NS=0
if [ "$NS" -eq 1 ]; then
	best=
	for i in 1 2 3 4 5 6 7; do
		t0=$(now_ns)
		timeout 60 "$GNUTIME" -f '%e %U %S %M' -o "$WORK/time.out" \
		    true >/dev/null 2>&1
		t1=$(now_ns)
		d=$((t1 - t0))
		if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	HARNESS_NS=$best
fi

elapsed() {
	echo $((($(now_ns) - START) / 1000000000))
}

# timed N TOOL CASE REP command...: runs the command under GNU time and
# appends one line to $RES.
timed() {
	tn=$1 tt=$2 tc=$3 tr=$4
	shift 4
	# Earlier builds' files go to disk now, not in the kernel's
	# threads while this one is timed, taking CPU from it
	sync
	t0=$(now_ns)
	timeout "$TIMEOUT" "$GNUTIME" -f '%e %U %S %M' -o "$WORK/time.out" \
	    "$@" >"$WORK/build.log" 2>&1
	rc=$?
	t1=$(now_ns)
	set -- $(tail -n 1 "$WORK/time.out" 2>/dev/null) 0 0 0 0
	w=$1
	# less the cost of timeout, time and date themselves (see harness)
	[ "$NS" -eq 1 ] && w=$(awk -v d=$((t1 - t0 - HARNESS_NS)) \
	    'BEGIN { print (d > 0 ? d : 0) / 1e9 }')
	if [ "$rc" -ne 0 ]; then
		echo "bench: $tt $tc (N=$tn, run $tr) failed with status $rc:" >&2
		tail -n 5 "$WORK/build.log" | sed 's/^/    /' >&2
		FAILED=1
	fi
	awk -v n="$tn" -v t="$tt" -v c="$tc" -v r="$tr" -v w="$w" \
	    -v u="$2" -v s="$3" -v m="$4" -v rc="$rc" 'BEGIN {
		printf "%s %s %s %s %.4f %.2f %d %d\n", n, t, c, r,
		    w, u + s, m, rc }' >>"$RES"
}

# change N CASE REP: makes the case's change to both copies of the corpus.
change() {
	case $2 in
	edit)
		printf '\nOne more sentence, appended for run %s.\n' "$3" |
			tee -a "$C/ssg/posts/$EDIT" \
			>>"$C/hugo/content/posts/${EDIT#??????????-}"
		;;
	add)
		# dated after every other post: it goes to the top of the lists
		"$WORK/gen" "$C" "$1" "$SEED" $(($1 + $3)) $(($1 + $3 + 1))
		;;
	delete)
		rm -f "$C"/ssg/posts/2025-*.md \
			"$C"/hugo/content/posts/*-$(($1 + $3)).md
		;;
	esac
}

# urlpath FILE: the page folder of posts/YYYY-MM-DD-slug.md
urlpath() {
	basename "$1" | sed 's,^\(....\)-\(..\)-\(..\)-\(.*\)\.md$,\1/\2/\3/\4,'
}

# verify N CASE REP: the change shows in both outputs (else a tool built
# nothing, and its time means nothing).
verify() {
	bad=""
	case $2 in
	edit)
		u=$(urlpath "$EDIT")
		for o in out-ssg out-hugo; do
			grep -q "appended for run $3\." "$C/$o/$u/index.html" ||
				bad="$bad $o/$u"
		done
		;;
	add)
		u=$(urlpath "$(ls "$C"/ssg/posts/2025-*.md)")
		ADDED=$u
		for o in out-ssg out-hugo; do
			[ -f "$C/$o/$u/index.html" ] &&
			    grep -q "/$u/" "$C/$o/index.html" || bad="$bad $o/$u"
		done
		;;
	delete)
		# Hugo leaves the old file in place; its lists lose the post
		[ ! -e "$C/out-ssg/$ADDED/index.html" ] || bad="$bad out-ssg/$ADDED"
		for o in out-ssg out-hugo; do
			! grep -q "/$ADDED/" "$C/$o/index.html" ||
				bad="$bad $o/index.html"
		done
		;;
	esac
	if [ -n "$bad" ]; then
		echo "bench: $2 (N=$1, run $3) not seen in:$bad" >&2
		FAILED=1
	fi
}

# build N TOOL CASE REP: one timed build of the corpus in $C.
# A full build starts without output: the last one is moved aside, not
# deleted, for both tools. For half a minute after tens of thousands of
# files are deleted, ext4 makes each new one slower to create (it skips
# recently freed inodes, reading their blocks), which would time that
# bookkeeping rather than the builds. The moved trees go with the corpus.
build() {
	if [ "$2" = ssg ]; then
		if [ "$3" = full ]; then
			[ -d "$C/out-ssg" ] && mv "$C/out-ssg" "$C/old-ssg-$4-$$"
			# all but the colours of the code blocks, which a site
			# keeps from the build that first met them
			find "$C/ssg/.ssg-cache" -mindepth 1 ! -name highlight.bin \
			    -exec rm -rf {} + 2>/dev/null
			timed "$@" "$SSG" build -C "$C/ssg" -o "$C/out-ssg" \
			    --force -q
		else
			timed "$@" "$SSG" build -C "$C/ssg" -o "$C/out-ssg" -q
		fi
	else
		# Hugo keeps no state between runs: every case is a full build
		if [ "$3" = full ]; then
			[ -d "$C/out-hugo" ] && mv "$C/out-hugo" "$C/old-hugo-$4-$$"
			rm -rf "$C/hugo-cache" "$C/hugo/resources"
		fi
		timed "$@" "$HUGO" --quiet -s "$C/hugo" -d "$C/out-hugo" \
		    --cacheDir "$C/hugo-cache"
	fi
}

# Page counts of one output folder: "posts home tags tagindex tagfeeds
# feeds html sitemap_urls".
count_pages() {
	o=$1
	posts=$(find "$o" -path "$o/[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/*/index.html" | wc -l)
	# Hugo's /page/1/ is a redirect to /, not a page of posts
	home=$(($(find "$o/page" -name index.html 2>/dev/null |
		grep -v "^$o/page/1/index.html" | wc -l) + 1))
	tags=$(find "$o/tags" -mindepth 2 -name index.html 2>/dev/null | wc -l)
	tagidx=0
	[ -f "$o/tags/index.html" ] && tagidx=1
	tagfeeds=$(find "$o/tags" -mindepth 2 -name rss.xml 2>/dev/null | wc -l)
	other=0
	for f in rss.xml atom.xml sitemap.xml robots.txt 404.html; do
		[ -f "$o/$f" ] && other=$((other + 1))
	done
	html=$(find "$o" -name '*.html' | wc -l)
	urls=$(grep -c '<loc>' "$o/sitemap.xml" 2>/dev/null || echo 0)
	echo "$posts $home $tags $tagidx $tagfeeds $other $html $urls"
}

check_pages() {
	n=$1
	set -- $(count_pages "$C/out-ssg")
	S="$*"
	set -- $(count_pages "$C/out-hugo")
	H="$*"
	echo "$n ssg $S" >>"$WORK/pages.txt"
	echo "$n hugo $H" >>"$WORK/pages.txt"
	(cd "$C/out-ssg" && find . -path './[0-9]*/index.html' | sort) >"$WORK/u1"
	(cd "$C/out-hugo" && find . -path './[0-9]*/index.html' | sort) >"$WORK/u2"
	diffs=$(comm -3 "$WORK/u1" "$WORK/u2" | wc -l)
	printf '%s\n%s\n' "ssg $S" "hugo $H" | awk -v n="$n" -v d="$diffs" '
	{ t[NR] = $1; for (i = 2; i <= 9; i++) v[NR, i] = $i }
	END {
		printf "pages, N=%d:\n  %-5s %6s %5s %5s %6s %7s %6s %6s %8s\n", n,
		    "", "posts", "home", "tags", "/tags/", "tag rss",
		    "feeds+", "html", "sitemap"
		for (r = 1; r <= 2; r++)
			printf "  %-5s %6d %5d %5d %6d %7d %6d %6d %8d\n",
			    t[r], v[r, 2], v[r, 3], v[r, 4], v[r, 5],
			    v[r, 6], v[r, 7], v[r, 8], v[r, 9]
		printf "  post URLs in one output only: %d\n", d
	}'
	# the page kinds must match, else the comparison is unfair
	if [ "$(echo "$S" | cut -d' ' -f1-6)" != "$(echo "$H" | cut -d' ' -f1-6)" ] ||
	    [ "$diffs" -ne 0 ]; then
		echo "bench: ssg and hugo wrote different page sets for N=$n" >&2
		FAILED=1
	fi
	# a kind of output one tool writes and the other does not
	ls "$C/out-ssg" | grep -v '^[0-9]*$' | sort >"$WORK/u1"
	ls "$C/out-hugo" | grep -v '^[0-9]*$' | sort >"$WORK/u2"
	only=$(comm -23 "$WORK/u1" "$WORK/u2" | tr '\n' ' ')
	[ -z "$only" ] || echo "  warning: only ssg wrote: $only"
	only=$(comm -13 "$WORK/u1" "$WORK/u2" | tr '\n' ' ')
	[ -z "$only" ] || echo "  warning: only hugo wrote: $only"
}

# Budget: each size gets an equal share of what is left; the runs of a
# size stop early when another run would not fit in its share.
set -- $SIZES
NSIZES=$#
idx=0
for n in $SIZES; do
	idx=$((idx + 1))
	C=$WORK/c$n
	mkdir -p "$C/ssg" "$C/hugo/content" "$C/hugo/static/css"
	cp "$BENCH/site.yaml" "$C/ssg/site.yaml"
	cp -R "$BENCH/hugo/config.toml" "$BENCH/hugo/layouts" "$C/hugo/"
	cp "$ROOT/themes/default/style.css" "$C/hugo/static/css/"
	g0=$(now_ns)
	"$WORK/gen" "$C" "$n" "$SEED" 0 "$n" || exit 1
	# one untimed build colours the code blocks into .ssg-cache, as the
	# builds that wrote a site's posts did
	h0=$(now_ns)
	"$SSG" build -C "$C/ssg" -o "$C/out-ssg" -q >/dev/null 2>&1
	echo "code blocks coloured in $((($(now_ns) - h0) / 1000000)) ms (untimed)"
	echo "corpus N=$n: $(du -sk "$C/ssg/posts" | cut -f1) KB of Markdown, written in $((($(now_ns) - g0) / 1000000)) ms"
	EDIT=$(ls "$C/ssg/posts" | sed -n "$((n / 2 + 1))p")

	reps=${BENCH_REPS:-}
	if [ -z "$reps" ]; then
		if [ "$n" -le 2000 ]; then reps=5; else reps=3; fi
	fi
	left=$((BUDGET - $(elapsed)))
	share=$((left / (NSIZES - idx + 1)))
	s0=$(elapsed)
	rep=1
	while [ "$rep" -le "$reps" ]; do
		r0=$(elapsed)
		for case in $CASES; do
			change "$n" "$case" "$rep"
			build "$n" ssg "$case" "$rep"
			build "$n" hugo "$case" "$rep"
			verify "$n" "$case" "$rep"
			if [ "$rep" -eq 1 ] && [ "$case" = full ]; then
				check_pages "$n"
			fi
		done
		now=$(elapsed)
		echo "  N=$n run $rep done ($((now - r0)) s)"
		# another run like this one, give or take a quarter, must fit
		# in the share
		[ $((now - s0 + (now - r0) * 5 / 4)) -gt "$share" ] && break
		rep=$((rep + 1))
	done
	# kept until the end, like the old outputs (see build)
done

# Best (least) wall and CPU time of each case, the largest max RSS, and the
# number of runs: "n case runs ssg_s ssg_cpu ssg_kb hugo_s hugo_cpu hugo_kb".
awk -v cases="$CASES" -v sizes="$SIZES" '
$8 != 0 { next }	# failed runs do not count
{
	k = $1 SUBSEP $2 SUBSEP $3
	if (!(k in w) || $5 < w[k]) w[k] = $5
	if (!(k in c) || $6 < c[k]) c[k] = $6
	if ($7 > m[k]) m[k] = $7
	runs[k]++
}
END {
	ns = split(sizes, S, " ")
	nc = split(cases, C, " ")
	for (i = 1; i <= ns; i++)
		for (j = 1; j <= nc; j++) {
			a = S[i] SUBSEP "ssg" SUBSEP C[j]
			b = S[i] SUBSEP "hugo" SUBSEP C[j]
			if (!(a in w) || !(b in w))
				continue
			printf "%s %s %d %.4f %.2f %d %.4f %.2f %d\n", S[i], C[j],
			    runs[a], w[a], c[a], m[a], w[b], c[b], m[b]
		}
}' "$RES" >"$WORK/best.txt"

NPROC=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
CPU=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$CPU" ] || CPU=$(sysctl -n hw.model 2>/dev/null)
CPU=$(printf '%s' "$CPU" | tr -d '"\\')
LOAD=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*: //')
# share of the last minute in which runnable tasks waited for a CPU
PSI=$(sed -n 's/^some avg10=[0-9.]* avg60=\([0-9.]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null)
SSGV=$("$SSG" --version 2>/dev/null | head -n 1)
REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
HUGOV=$("$HUGO" version 2>/dev/null | head -n 1 | tr -d '"\\')

echo
echo "ssg: $SSGV ($REV), $HUGOV"
echo "machine: $NPROC CPUs, $CPU; load average now $LOAD"
if [ "$(echo "$LOAD" | awk -v n="$NPROC" '{ print ($1 > n) }')" = 1 ]; then
	echo "warning: the machine is busy (load above $NPROC${PSI:+, tasks waited for a CPU $PSI% of the last minute});"
	echo "  wall times are inflated and noisy: compare the CPU seconds"
fi
echo "best of the runs; time is wall-clock seconds, (CPU seconds, user+system);"
echo "wall times are less the timing harness's own $(awk -v n="$HARNESS_NS" 'BEGIN { printf "%.1f", n / 1e6 }') ms (timeout, time and date, measured with true);"
echo "RSS is the largest max resident set size of the runs."
echo "* Hugo has no persistent incremental build: its rebuild cases are full builds"
echo "  into the existing output folder."
echo
awk '
function kb(x) { return x >= 10240 ? sprintf("%d MB", x / 1024 + 0.5) : sprintf("%d KB", x) }
BEGIN {
	printf "%-9s %6s %4s %18s %18s %8s %9s %9s\n", "case", "N", "runs",
	    "ssg s (cpu)", "hugo s (cpu)", "hugo/ssg", "ssg RSS", "hugo RSS"
}
{
	printf "%-9s %6d %4d %9.3f (%6.2f) %9.3f (%6.2f)%1s %7.1fx %9s %9s\n",
	    $2, $1, $3, $4, $5, $7, $8, ($2 == "full" ? "" : "*"),
	    ($4 > 0 ? $7 / $4 : 0), kb($6), kb($9)
	if ($2 == "full") {
		fs[++nf] = $1; fssg[nf] = $4; fhugo[nf] = $7
		cssg[nf] = $5; chugo[nf] = $8
	}
}
function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
END {
	if (nf >= 2)
		printf "\nfull build scaling N=%d/N=%d (linear: %.1f): ssg %s (cpu %s), hugo %s (cpu %s)\n",
		    fs[nf], fs[1], fs[nf] / fs[1], r(fssg[nf], fssg[1]),
		    r(cssg[nf], cssg[1]), r(fhugo[nf], fhugo[1]),
		    r(chugo[nf], chugo[1])
}' "$WORK/best.txt"

# JSON: one result object per line, so that later runs can compare with awk
mkdir -p "$BENCH/results"
# the newest earlier run with the same sizes, else the newest
SIZESJ="\"sizes\": [$(echo $SIZES | sed 's/ /, /g')]"
PREV=""
for f in $(ls -t "$BENCH"/results/bench-*.json 2>/dev/null); do
	[ -n "$PREV" ] || PREV=$f
	if grep -qF "$SIZESJ" "$f"; then
		PREV=$f
		break
	fi
done
OUT=$BENCH/results/bench-$(date -u +%Y%m%dT%H%M%S).json
{
	printf '{\n"date": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf '"machine": {"nproc": %s, "cpu": "%s", "loadavg": "%s", "cpu_pressure_avg60": %s},\n' \
	    "$NPROC" "$CPU" "$LOAD" "${PSI:-null}"
	printf '"versions": {"ssg": "%s", "ssg_commit": "%s", "hugo": "%s"},\n' \
	    "$SSGV" "$REV" "$HUGOV"
	printf '"seed": %s, "quick": %s, "sizes": [%s],\n' "$SEED" \
	    "$([ "$QUICK" -eq 1 ] && echo true || echo false)" \
	    "$(echo $SIZES | sed 's/ /, /g')"
	printf '"harness_s": %s,\n' "$(awk -v n="$HARNESS_NS" 'BEGIN { printf "%.4f", n / 1e9 }')"
	echo '"note": "seconds are the best of runs (wall less harness_s, the cost of timing a build measured with true; and user+system CPU); rss_kb is the largest max RSS; hugo rebuild cases are full builds",'
	echo '"results": ['
	awk '{
		printf "%s{\"case\": \"%s\", \"n\": %d, \"runs\": %d, \"ssg_s\": %.4f, \"ssg_cpu_s\": %.2f, \"ssg_rss_kb\": %d, \"hugo_s\": %.4f, \"hugo_cpu_s\": %.2f, \"hugo_rss_kb\": %d, \"ratio\": %.3f}\n",
		    (NR > 1 ? "," : ""), $2, $1, $3, $4, $5, $6, $7, $8, $9,
		    ($4 > 0 ? $7 / $4 : 0)
	}' "$WORK/best.txt"
	echo '],'
	echo '"pages": ['
	awk '{
		printf "%s{\"n\": %d, \"tool\": \"%s\", \"posts\": %d, \"home\": %d, \"tags\": %d, \"tag_index\": %d, \"tag_feeds\": %d, \"feeds_etc\": %d, \"html\": %d, \"sitemap_urls\": %d}\n",
		    (NR > 1 ? "," : ""), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
	}' "$WORK/pages.txt"
	echo '],'
	awk '$2 == "full" { n[++k] = $1; s[k] = $4; h[k] = $7; cs[k] = $5; ch[k] = $8 }
	function r(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "null" }
	END {
		if (k >= 2)
			printf "\"scaling\": {\"from\": %d, \"to\": %d, \"ssg_full\": %s, \"ssg_full_cpu\": %s, \"hugo_full\": %s, \"hugo_full_cpu\": %s},\n",
			    n[1], n[k], r(s[k], s[1]), r(cs[k], cs[1]),
			    r(h[k], h[1]), r(ch[k], ch[1])
	}' "$WORK/best.txt"
	echo '"runs": ['
	awk '{
		printf "%s{\"n\": %d, \"tool\": \"%s\", \"case\": \"%s\", \"run\": %d, \"wall_s\": %.4f, \"cpu_s\": %.2f, \"rss_kb\": %d, \"status\": %d}\n",
		    (NR > 1 ? "," : ""), $1, $2, $3, $4, $5, $6, $7, $8
	}' "$RES"
	echo '],'
	printf '"failed": %s\n}\n' "$([ "$FAILED" -eq 0 ] && echo false || echo true)"
} >"$OUT"
echo
echo "results: ${OUT#"$ROOT"/}"

if [ -n "$PREV" ]; then
	echo
	echo "change against ${PREV#"$ROOT"/} (old -> new best wall seconds; change of wall, of CPU):"
	sed -n 's/.*"case": "\([a-z]*\)", "n": \([0-9]*\),.*"ssg_s": \([0-9.]*\), "ssg_cpu_s": \([0-9.]*\),.*"hugo_s": \([0-9.]*\), "hugo_cpu_s": \([0-9.]*\),.*/\1 \2 \3 \4 \5 \6/p' \
	    "$PREV" >"$WORK/prev.txt"
	awk 'NR == FNR { o[$1 " " $2] = $0; next }
	function pct(a, b) { return b > 0 ? sprintf("%+.0f%%", (a - b) * 100 / b) : "-" }
	{
		k = $2 " " $1
		if (!(k in o)) { printf "  %-9s %6d  (not in the old run)\n", $2, $1; next }
		split(o[k], v, " ")
		printf "  %-9s %6d  ssg %7.3f -> %7.3f %6s %6s   hugo %7.3f -> %7.3f %6s %6s\n",
		    $2, $1, v[3], $4, pct($4, v[3]), pct($5, v[4]),
		    v[5], $7, pct($7, v[5]), pct($8, v[6])
	}' "$WORK/prev.txt" "$WORK/best.txt"
fi

if [ "$FAILED" -ne 0 ]; then
	echo "bench: some builds failed or the page sets differ (see above)" >&2
	exit 1
fi
exit 0
