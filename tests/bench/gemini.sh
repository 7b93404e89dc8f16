#!/bin/sh
# What `gemini: true` costs: the same generated corpus (tests/bench/gen.c)
# built with the capsule off and on, side by side in one run, full build
# and one post edited, best of BENCH_REPS (default 3) runs of each.
# Prints wall and CPU seconds and the on/off ratios (CPU is the steadier
# on a shared machine).
#
#   sh tests/bench/gemini.sh [N]      (N posts, default 10000)
#
# Environment: BENCH_REPS, BENCH_SEED (42), SSG (default bin/ssg), CC,
# BENCH_GEMINI_SET (more site.yaml lines for the "on" site, e.g.
# "gemini_markdown_link: false"), BENCH_RAW (a file to keep every run's "variant case wall cpu sys" in).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
N=${1:-10000}
REPS=${BENCH_REPS:-3}
SEED=${BENCH_SEED:-42}
SSG=${SSG:-$ROOT/bin/ssg}
CC=${CC:-cc}
GNUTIME=/usr/bin/time
"$GNUTIME" -f %e true >/dev/null 2>&1 || { echo "gemini bench: needs GNU time" >&2; exit 1; }
[ -x "$SSG" ] || make -C "$ROOT" bin/ssg >/dev/null || exit 1
SSG_DATADIR=${SSG_DATADIR:-$ROOT}
export SSG_DATADIR

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ssg-gembench.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP PIPE
$CC -std=c11 -O2 -o "$WORK/gen" tests/bench/gen.c || exit 1
cp "$SSG" "$WORK/ssg" || exit 1
mkdir -p "$WORK/c/ssg" "$WORK/c/hugo/content"
"$WORK/gen" "$WORK/c" "$N" "$SEED" 0 "$N" || exit 1
for v in off on; do
	mkdir -p "$WORK/$v"
	cp -R "$WORK/c/ssg/posts" "$WORK/$v/"
	cat >"$WORK/$v/site.yaml" <<-YAML
	site_title: Bench
	site_description: A generated corpus
	site_url: "https://example.org"
	author_name: Bench Author
	posts_per_page: 10
	rss_item_limit: 15
	timezone: UTC
	enable_tag_rss: true
	enable_archives: false
	enable_related_posts: false
	YAML
	[ "$v" = on ] && printf 'gemini: true\ngemini_url: "gemini://example.org"\n%s\n' \
	    "${BENCH_GEMINI_SET:-}" >>"$WORK/$v/site.yaml"
	# the code blocks coloured once, as the builds that wrote the posts did
	"$WORK/ssg" build -C "$WORK/$v" -q >/dev/null 2>&1
done
EDIT=$(ls "$WORK/on/posts" | sed -n "$((N / 2 + 1))p")
RES=$WORK/res
: >"$RES"

# one VARIANT CASE: a timed build; "wall cpu" appended to $RES
one() {
	force=
	if [ "$2" = full ]; then
		# moved aside, not deleted: ext4 makes new files slower for a
		# while after tens of thousands are deleted (see run.sh)
		mkdir -p "$WORK/old"
		for d in output capsule; do
			[ -d "$WORK/$1/$d" ] && mv "$WORK/$1/$d" "$WORK/old/$1-$d-$3"
		done
		find "$WORK/$1/.ssg-cache" -mindepth 1 ! -name highlight.bin \
		    -exec rm -rf {} + 2>/dev/null
		force=--force
	else
		printf '\nOne more sentence, run %s.\n' "$3" >>"$WORK/$1/posts/$EDIT"
	fi
	sync
	"$GNUTIME" -f '%e %U %S' -o "$WORK/t" "$WORK/ssg" build -C "$WORK/$1" -q \
	    $force >/dev/null 2>&1 || echo "gemini bench: $1 $2 failed" >&2
	awk -v v="$1" -v c="$2" '{ printf "%s %s %.2f %.2f %.2f\n", v, c, $1, $2 + $3, $3 }' \
	    "$WORK/t" >>"$RES"
}

r=1
while [ "$r" -le "$REPS" ]; do
	# alternated, so that a busy moment falls on both
	for c in full edit; do
		one off "$c" "$r"
		one on "$c" "$r"
	done
	r=$((r + 1))
done
[ -n "${BENCH_RAW:-}" ] && cp "$RES" "$BENCH_RAW"
echo "gemini: true on N=$N posts, best of $REPS; load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
awk '
{
	k = $1 " " $2
	if (!(k in w) || $3 < w[k]) w[k] = $3
	if (!(k in c) || $4 < c[k]) { c[k] = $4; sy[k] = $5 }
}
END {
	printf "%-5s %16s %16s %12s %16s\n", "case", "off s (cpu)", "on s (cpu)", "on/off (cpu)", "system s off/on"
	split("full edit", C, " ")
	for (i = 1; i <= 2; i++) {
		a = "off " C[i]; b = "on " C[i]
		printf "%-5s %7.2f (%6.2f) %7.2f (%6.2f) %5.2f (%5.2f) %8.2f %6.2f\n", C[i],
		    w[a], c[a], w[b], c[b], (w[a] > 0 ? w[b] / w[a] : 0),
		    (c[a] > 0 ? c[b] / c[a] : 0), sy[a], sy[b]
	}
}' "$RES"
