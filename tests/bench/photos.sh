#!/bin/sh
# Benchmarks ssg's images against Hugo's: one site, 60 photos in 5 posts.
# The photos are Debian's mate-backgrounds (its 15 JPEG photos, each also
# cropped three ways with libvips: 60 files, 1280 to 5640 px wide).
# Both tools publish each photo as 480, 960 and 1600 px WebP and JPEG
# copies (none wider than the photo): ssg with image_formats: [webp]
# (AVIF off), Hugo 0.111 through a render hook; ssg also writes each
# original without its metadata. Prints cold build CPU and wall time,
# side by side in one run, a no-change rebuild, and the bytes a reader
# fetches per post against the originals. Then Lighthouse (mobile, its
# simulated slow 4G) on the first post, 12 photos: before, the originals
# as they are (images: false), and after, as ssg publishes them by default
# (AVIF and WebP).
#
#   sh tests/bench/photos.sh
#
# Environment: BENCH_REPS (cold builds per tool, the best kept; default 2),
# LIGHTHOUSE=0 (no Lighthouse), SSG (default bin/ssg), HUGO (default hugo).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
REPS=${BENCH_REPS:-2}
SSG=${SSG:-$ROOT/bin/ssg}
HUGO=${HUGO:-hugo}
case ${1:-} in
-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

DEB="hugo time mate-backgrounds libvips-tools" sh "$ROOT/tests/deps.sh" || exit 1
[ -x "$SSG" ] || make -C "$ROOT" bin/ssg >/dev/null || exit 1
SSG_DATADIR=${SSG_DATADIR:-$ROOT}
export SSG_DATADIR
W=$(mktemp -d "${TMPDIR:-/tmp}/ssg-photos.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP PIPE

# --- the photos -----------------------------------------------------------
MATE=/usr/share/backgrounds/mate
P=$W/photos
mkdir -p "$P"
n=0
for f in "$MATE"/nature/*.jpg "$MATE"/abstract/Elephants*.jpg; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	cp "$f" "$P/photo-$n-a.jpg"
	# three crops of the same photo: other parts, other sizes
	vips thumbnail "$f" "$P/photo-$n-b.jpg[Q=90]" 2400 --height 1600 --crop low
	vips thumbnail "$f" "$P/photo-$n-c.jpg[Q=90]" 1800 --height 1800 --crop high
	vips thumbnail "$f" "$P/photo-$n-d.jpg[Q=90]" 1280 --height 960 --crop centre
done
NPHOTOS=$(ls "$P" | wc -l)
[ "$NPHOTOS" -ge 50 ] || { echo "photos: only $NPHOTOS photos in $MATE" >&2; exit 1; }

# --- the two sites ---------------------------------------------------------
S=$W/ssg H=$W/hugo
mkdir -p "$S/posts" "$S/static/images" "$H/content/posts" "$H/assets/images" \
    "$H/layouts/_default/_markup"
cp "$P"/* "$S/static/images/"
cp "$P"/* "$H/assets/images/"
cat >"$S/site.yaml" <<'EOF'
site_title: Photos
site_url: https://example.org
image_formats: [webp]
EOF
cat >"$H/config.toml" <<'EOF'
baseURL = "https://example.org/"
title = "Photos"
timeout = "30m"
disableKinds = ["section", "taxonomy", "term", "RSS", "sitemap"]
[imaging]
quality = 82
resampleFilter = "Lanczos"
[imaging.exif]
disableDate = true
disableLatLong = true
EOF
cat >"$H/layouts/_default/baseof.html" <<'EOF'
<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body>{{ block "main" . }}{{ end }}</body></html>
EOF
cat >"$H/layouts/_default/single.html" <<'EOF'
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
EOF
cp "$H/layouts/_default/single.html" "$H/layouts/_default/list.html"
# the widths ssg makes, in WebP and the photo's own format, none wider
cat >"$H/layouts/_default/_markup/render-image.html" <<'EOF'
{{- $img := resources.Get (strings.TrimPrefix "/" .Destination) -}}
{{- if $img -}}
{{- $webp := slice -}}{{- $jpeg := slice -}}{{- $mid := "" -}}
{{- range slice 480 960 1600 -}}
{{- if le . $img.Width -}}
{{- $w := $img.Resize (printf "%dx webp q75" .) -}}
{{- $j := $img.Resize (printf "%dx q82" .) -}}
{{- $webp = $webp | append (printf "%s %dw" $w.RelPermalink .) -}}
{{- $jpeg = $jpeg | append (printf "%s %dw" $j.RelPermalink .) -}}
{{- $mid = $j -}}
{{- end -}}
{{- end -}}
{{- if not $mid -}}{{- $mid = $img.Resize (printf "%dx q82" $img.Width) -}}{{- end -}}
<picture><source type="image/webp" srcset="{{ delimit $webp ", " }}"><img src="{{ $mid.RelPermalink }}" srcset="{{ delimit $jpeg ", " }}" width="{{ $mid.Width }}" height="{{ $mid.Height }}" alt="{{ .Text }}" loading="lazy"></picture>
{{- end -}}
EOF
POSTS=5
i=0
for k in $(seq 1 $POSTS); do
	{
		printf -- '---\ntitle: Photos %d\ndate: 2025-01-%02d\n---\n' "$k" "$k"
		j=0
		for f in $(ls "$P" | sort); do
			j=$((j + 1))
			[ $(( (j - 1) % POSTS + 1)) -eq "$k" ] || continue
			printf '\nA photo:\n\n![%s](/images/%s)\n' "$f" "$f"
		done
	} >"$S/posts/2025-01-0$k-photos-$k.md"
	sed 's/^date: \(.*\)$/date: \1T00:00:00Z/' "$S/posts/2025-01-0$k-photos-$k.md" \
	    >"$H/content/posts/photos-$k.md"
done

# --- timing ---------------------------------------------------------------
# timed LABEL command...: "LABEL wall cpu" on stdout, the best of REPS
timed() {
	label=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$W/t" "$@" >"$W/log" 2>&1 || {
		echo "photos: $label failed:" >&2
		tail -n 5 "$W/log" >&2
		exit 1
	}
	awk -v l="$label" '{ printf "%s %.2f %.2f\n", l, $1, $2 + $3 }' "$W/t"
}
best() {
	sort -k3 -n | head -n 1
}

: >"$W/runs"
for r in $(seq 1 "$REPS"); do
	# cold: no output, no cache, for either tool
	rm -rf "$S/output" "$S/.ssg-cache"
	timed ssg-cold "$SSG" build -q -C "$S" >>"$W/runs.ssg"
	rm -rf "$H/public" "$H/resources" "$W/hugo-cache"
	timed hugo-cold "$HUGO" --quiet -s "$H" --cacheDir "$W/hugo-cache" \
	    >>"$W/runs.hugo"
done
sc=$(best <"$W/runs.ssg")
hc=$(best <"$W/runs.hugo")
: >"$W/nochange"
for r in 1 2 3 4 5; do
	timed ssg-nochange "$SSG" build -q -C "$S" >>"$W/nochange.ssg"
	timed hugo-nochange "$HUGO" --quiet -s "$H" --cacheDir "$W/hugo-cache" \
	    >>"$W/nochange.hugo"
done
sn=$(sort -k2 -n "$W/nochange.ssg" | head -n 1)
hn=$(sort -k2 -n "$W/nochange.hugo" | head -n 1)

# --- bytes per post ---------------------------------------------------------
# what a browser fetches for a post's photos: the 960 px copy (a phone of
# 390 CSS px at 2.5x, or a desktop column of 800 px at 1x) against the
# originals the page linked before
orig=0 ssg960=0 ssg480=0
for f in $(cd "$P" && ls | sort); do
	orig=$((orig + $(stat -c %s "$P/$f")))
	b=${f%.jpg}
	c=$(ls "$S/output/images/$b"-960.*.webp 2>/dev/null | head -n 1)
	[ -n "$c" ] || c=$(ls "$S/output/images/$b"-*.webp | tail -n 1)
	ssg960=$((ssg960 + $(stat -c %s "$c")))
	c=$(ls "$S/output/images/$b"-480.*.webp | head -n 1)
	ssg480=$((ssg480 + $(stat -c %s "$c")))
done

set -- $sc
s_wall=$2 s_cpu=$3
set -- $hc
h_wall=$2 h_cpu=$3
set -- $sn
sn_wall=$2
set -- $hn
hn_wall=$2
awk -v n="$NPHOTOS" -v p="$POSTS" -v sw="$s_wall" -v sc="$s_cpu" \
    -v hw="$h_wall" -v hc="$h_cpu" -v snw="$sn_wall" -v hnw="$hn_wall" \
    -v o="$orig" -v s9="$ssg960" -v s4="$ssg480" 'BEGIN {
	printf "%d photos (%.1f MB) in %d posts; WebP and JPEG at 480/960/1600 px\n", n, o / 1e6, p
	printf "%-22s %10s %10s %10s\n", "", "ssg", "hugo", "hugo/ssg"
	printf "%-22s %10.2f %10.2f %9.1fx\n", "cold build CPU s", sc, hc, hc / (sc > 0 ? sc : 0.01)
	printf "%-22s %10.2f %10.2f %9.1fx\n", "cold build wall s", sw, hw, hw / (sw > 0 ? sw : 0.01)
	printf "%-22s %10.3f %10.3f %9.1fx\n", "no-change rebuild s", snw, hnw, hnw / (snw > 0 ? snw : 0.001)
	printf "bytes per post: originals %.0f KB, WebP 960 px %.0f KB (%.1fx less), WebP 480 px %.0f KB (%.1fx less)\n",
	    o / p / 1e3, s9 / p / 1e3, o / s9, s4 / p / 1e3, o / s4
}'

# --- Lighthouse ---------------------------------------------------------------
[ "${LIGHTHOUSE:-1}" = 0 ] && exit 0
LH=$ROOT/tests/bench/lighthouse
if ! command -v npm >/dev/null 2>&1 || [ ! -x /usr/bin/chromium ]; then
	DEB="nodejs npm chromium" sh "$ROOT/tests/deps.sh" >&2 || exit 1
fi
if [ ! -f "$LH/node_modules/.package-lock.json" ] ||
    [ "$LH/package-lock.json" -nt "$LH/node_modules/.package-lock.json" ]; then
	(cd "$LH" && npm ci --no-audit --no-fund --loglevel=error >&2) || exit 1
fi
"$SSG" build -q -C "$S" -o "$W/before" --set images=false || exit 1
"$SSG" build -q -C "$S" -o "$W/after" --set 'image_formats=[avif, webp]' ||
    exit 1
PORT=$((20000 + $$ % 20000))
POST=2025/01/01/photos-1/
# lighthouse NAME: the post served from $W/NAME, its report in $W/NAME.json
lighthouse() {
	python3 -m http.server "$PORT" --bind 127.0.0.1 -d "$W/$1" \
	    >/dev/null 2>&1 &
	srv=$!
	sleep 1
	CHROME_PATH=/usr/bin/chromium timeout 300 "$LH/node_modules/.bin/lighthouse" \
	    "http://127.0.0.1:$PORT/$POST" --only-categories=performance \
	    --output=json --output-path="$W/$1.json" --quiet \
	    --chrome-flags="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
	    >/dev/null 2>&1
	rc=$?
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	PORT=$((PORT + 1))
	return $rc
}
lighthouse before && lighthouse after || {
	echo "photos: lighthouse failed" >&2
	exit 1
}
mkdir -p "$ROOT/tests/bench/results"
stamp=$(date -u +%Y%m%dT%H%M%S)
for k in before after; do
	cp "$W/$k.json" "$ROOT/tests/bench/results/photos-lighthouse-$stamp-$k.json"
done
python3 - "$W/before.json" "$W/after.json" <<'PY'
import json, re, sys
rows = [("performance", "performance score"),
        ("largest-contentful-paint", "LCP"),
        ("speed-index", "speed index"), ("total-byte-weight", "bytes fetched"),
        ("uses-responsive-images", "properly size images"),
        ("modern-image-formats", "next-gen formats"),
        ("unsized-images", "width and height given"),
        ("image-delivery-insight", "image delivery (insight)")]
r = [json.load(open(f)) for f in sys.argv[1:]]
print("Lighthouse %s, mobile, the post with 12 photos" % r[0]["lighthouseVersion"])
print("%-26s %24s %24s" % ("", "before (originals)", "after (ssg's default)"))
for key, label in rows:
    cells = []
    for x in r:
        if key == "performance":
            cells.append("%d" % round(100 * x["categories"]["performance"]["score"]))
            continue
        a = x["audits"].get(key)
        if a is None:
            cells.append("-")
            continue
        v = re.sub(r"^(Total size was|Est savings of) ", "", a.get("displayValue") or "")
        if key in ("largest-contentful-paint", "speed-index", "total-byte-weight"):
            cells.append(v)
            continue
        s = a.get("score")
        n = len((a.get("details") or {}).get("items") or [])
        cells.append("n/a" if s is None else "pass" if s >= 0.9 else
                     "FAIL, %d image%s, %s" % (n, "" if n == 1 else "s", v))
    print("%-26s %24s %24s" % (label, cells[0], cells[1]))
PY
