#!/bin/sh
# Images as readers should get them: every raster image of static/ as
# resized AVIF, WebP and JPEG/PNG copies in a <picture>, the original's URL
# without its metadata, orientation applied; nothing published carries
# EXIF, XMP, IPTC or a GPS position. Encoded once (a rebuild, --force or a
# renamed image encodes nothing), bad images are errors at the post, and
# images: false or image_keep_originals: true warn of each GPS position.
# Photos are made here from gnome-backgrounds with libvips' own tools; the
# GPS position and the orientation are written in by exiftool.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
for tool in vips vipsheader exiftool; do
	command -v $tool >/dev/null 2>&1 || { fail "$tool is missing (make deps-test installs it)"; summary; exit 1; }
done
SRC=/usr/share/backgrounds/gnome/adwaita-l.webp
[ -f "$SRC" ] || { fail "$SRC is missing (make deps-test installs gnome-backgrounds)"; summary; exit 1; }
S="$T/site"
O="$S/output"
mkdir -p "$S/posts" "$S/static/images"
cat >"$S/site.yaml" <<'EOF'
site_title: Photos
site_url: http://photos.example
EOF
# 1800 x 1000 as stored, shown turned a quarter: 1000 x 1800
vips thumbnail "$SRC" "$S/static/images/river.jpg" 1800 --height 1000 --crop centre
exiftool -q -overwrite_original -GPSLatitude=48.8584 -GPSLatitudeRef=N \
    -GPSLongitude=2.2945 -GPSLongitudeRef=E -Orientation#=6 \
    -Artist="Ada Lovelace" -XMP:Creator="Ada" "$S/static/images/river.jpg"
vips thumbnail "$SRC" "$S/static/images/logo.png" 300
# upright, with a GPS position and an author: stripped without a new
# encoding, the same pixels
vips thumbnail "$SRC" "$S/static/images/bridge.jpg[Q=85]" 640
exiftool -q -overwrite_original -GPSLatitude=45.4 -GPSLatitudeRef=N \
    -GPSLongitude=12.3 -GPSLongitudeRef=E -Artist="Ada Lovelace" \
    -XMP:Creator="Ada" -Comment="at home" "$S/static/images/bridge.jpg"
# a WebP with no metadata at all: nothing to strip (a JPEG would be
# stripped as it is, the same bytes either way)
vips thumbnail "$SRC" "$S/static/images/plain.webp" 400
exiftool -q -q -overwrite_original -all= "$S/static/images/plain.webp"
cat >"$S/posts/2025-03-01-walk.md" <<'EOF'
---
title: A walk
date: 2025-03-01
---
The river, from the bridge:

![The river in March](/images/river.jpg)

The club's sign: <img src="/images/logo.png" alt="Walking club" class="sign">

From elsewhere: ![remote](https://elsewhere.example/a.jpg)

The bridge: ![The bridge](/images/bridge.jpg)
EOF
H="$O/2025/03/01/a-walk/index.html"
# TEST_PARTS="check rebuild ..." runs the first build's checks and only
# those parts (make mutate runs one part for a fault)
part() { case " ${TEST_PARTS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac; return 1; }
shape() { vipsheader "$1" 2>/dev/null | sed -n 's/^[^:]*: \([0-9]*x[0-9]*\) .*/\1/p'; }
meta() {
	# meta FILE: the metadata exiftool finds that a reader must not get
	exiftool -q -q -s -GPS:all -EXIF:all -XMP:all -IPTC:all "$1"
}
tree_sum() { (cd "$O" && find . -type f ! -path './.ssg-tmp/*' | sort | xargs sha256sum) | sha256sum; }

"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "a site with photos builds: $(cat "$T/err")" test $? -eq 0
check "the first build encodes every image" grep -q "4 images encoded" "$T/out"
check "the GPS position is named at the post's line, once" \
    test "$(grep -c 'posts/2025-03-01-walk.md:7: note: image /images/river.jpg holds a GPS position' "$T/err")" -eq 1
check "the post's image is a picture with AVIF and WebP sources" \
    grep -q '<picture><source type="image/avif" srcset="/images/river-480\.[0-9a-f]*\.avif 480w, /images/river-960\.[0-9a-f]*\.avif 960w, /images/river-1000\.[0-9a-f]*\.avif 1000w" sizes="(max-width: 800px) 100vw, 800px"><source type="image/webp"' "$H"
check "the <img> is the JPEG copy nearest 960 px, with srcset, the size as shown, alt, high priority" \
    grep -q '<img src="/images/river-960\.[0-9a-f]*\.jpg" srcset="/images/river-480\.[0-9a-f]*\.jpg 480w, [^"]*1000w" sizes="[^"]*" width="1000" height="1800" alt="The river in March" fetchpriority="high" decoding="async"></picture>' "$H"
check "a raw <img> is a picture too, lazy, its class kept, a PNG fallback" \
    grep -q '<img src="/images/logo-300\.[0-9a-f]*\.png" srcset="/images/logo-300\.[0-9a-f]*\.png 300w" sizes="[^"]*" width="300" height="[0-9]*" alt="Walking club" class="sign" loading="lazy" decoding="async">' "$H"
check "a remote image is left as written" grep -q '<img src="https://elsewhere.example/a.jpg" alt="remote" />' "$H"
check "no copy wider than the original (1000 px shown)" test -z "$(find "$O/images" -name 'river-1600*')"
bad=""
for f in $(cd "$O" && find images -type f); do
	w=$(echo "$f" | sed -n 's/.*-\([0-9]*\)\.[0-9a-f]*\.[a-z]*$/\1/p')
	[ -n "$w" ] && [ "$(shape "$O/$f" | cut -dx -f1)" != "$w" ] && bad="$bad $f"
done
check "each copy is as wide as its name says:$bad" test -z "$bad"
check "the copies are in their formats" sh -c "vipsheader '$O'/images/river-480.*.avif | grep -q heifload && vipsheader '$O'/images/river-480.*.webp | grep -q webpload"
leaks=""
for f in $(cd "$O" && find . -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.webp' -o -name '*.avif' \)); do
	[ -n "$(meta "$O/$f")" ] && leaks="$leaks $f"
done
check "no published image carries EXIF, XMP, IPTC or GPS:$leaks" test -z "$leaks"
check "the original's URL serves it upright (1000x1800), without metadata" \
    test "$(shape "$O/images/river.jpg")" = "1000x1800"
check "an image with no metadata keeps its own bytes at its URL" cmp -s "$S/static/images/plain.webp" "$O/images/plain.webp"
vips subtract "$S/static/images/bridge.jpg" "$O/images/bridge.jpg" "$T/d.v" 2>/dev/null &&
    vips abs "$T/d.v" "$T/a.v" && diff=$(vips max "$T/a.v")
check "an upright JPEG's original is stripped losslessly: the same pixels (${diff:-none} apart)" \
    test "${diff:-1}" = "0.000000"
check "... and smaller by its metadata" test "$(stat -c %s "$O/images/bridge.jpg")" -lt "$(stat -c %s "$S/static/images/bridge.jpg")"
check "the original's URL is not the original's bytes" sh -c "! cmp -s '$S/static/images/river.jpg' '$O/images/river.jpg'"

if part check; then
"$SSG" check -C "$S" >"$T/out" 2>&1
check "ssg check finds every copy a srcset names" grep -q " 0 broken" "$T/out"
mv "$O"/images/river-480.*.webp "$T/"
"$SSG" check -C "$S" >"$T/out" 2>&1
check "ssg check finds a copy a srcset names missing" grep -q "/images/river-480\.[0-9a-f]*\.webp: no such file in the output" "$T/out"
mv "$T"/river-480.*.webp "$O/images/"
fi

if part rebuild; then
# nothing changed: nothing encoded, nothing rendered
sum=$(tree_sum)
"$SSG" build -C "$S" >"$T/out" 2>&1
check "a rebuild encodes nothing" sh -c "! grep -q 'encoded' '$T/out' && grep -q '(0 rendered' '$T/out'"
"$SSG" build -C "$S" --force >"$T/out" 2>&1
check "--force renders again but encodes nothing" sh -c "! grep -q 'encoded' '$T/out'"
check "--force gives the same files" test "$(tree_sum)" = "$sum"
"$SSG" build -C "$S" --force-images >"$T/out" 2>&1
check "--force-images encodes every image" grep -q "4 images encoded" "$T/out"
check "--force-images gives the same files" test "$(tree_sum)" = "$sum"
# from another folder, the output folder named otherwise: the same caches
(cd "$T" && "$SSG" build -C site -o "$O/../output" >"$T/out" 2>&1)
check "a build from elsewhere, the output named otherwise, renders nothing" grep -q "(0 rendered" "$T/out"
fi

if part changed; then
# an image changed in place: new copies at new URLs, the old ones gone
old_logo=$(cd "$O/images" && ls logo-300.*.png)
vips thumbnail /usr/share/backgrounds/gnome/wood-l.webp "$S/static/images/logo.png" 300
"$SSG" build -C "$S" >"$T/out" 2>&1
check "a changed image is encoded again" grep -q "1 images encoded" "$T/out"
check "the page shows its new copies" sh -c "grep -q '/images/logo-300\.[0-9a-f]*\.png' '$H' && ! grep -q '$old_logo' '$H'"
check "its old copies are gone" test ! -e "$O/images/$old_logo"
fi

if part renamed; then
# a renamed image: encoded before, so not now; its old copies go
mkdir -p "$S/static/photos"
mv "$S/static/images/river.jpg" "$S/static/photos/bridge.jpg"
sed -i 's#/images/river.jpg#/photos/bridge.jpg#' "$S/posts/2025-03-01-walk.md"
"$SSG" build -C "$S" >"$T/out" 2>&1
check "a renamed image encodes nothing" sh -c "! grep -q 'encoded' '$T/out'"
check "its copies are at its new name" grep -q '/photos/bridge-960\.[0-9a-f]*\.jpg' "$H"
check "the old name's copies are gone" test -z "$(find "$O/images" -name 'river*')"
mv "$S/static/photos/bridge.jpg" "$S/static/images/river.jpg"
sed -i 's#/photos/bridge.jpg#/images/river.jpg#' "$S/posts/2025-03-01-walk.md"
"$SSG" build -C "$S" -q 2>/dev/null
fi

if part quality; then
# a setting re-encodes what it changes and no more
jpg=$(ls "$O"/images/river-480.*.jpg)
webp_before=$(cksum <"$(ls "$O"/images/river-480.*.webp)")
jpg_before=$(cksum <"$jpg")
printf 'image_quality:\n  webp: 40\n' >>"$S/site.yaml"
"$SSG" build -C "$S" >"$T/out" 2>&1
check "a new WebP quality encodes again" grep -q "images encoded" "$T/out"
check "... the WebP copies change" test "$(cksum <"$(ls "$O"/images/river-480.*.webp)")" != "$webp_before"
check "... the JPEG copies do not" test "$(cksum <"$jpg")" = "$jpg_before"
fi

if part bad; then
# bad images: an error at the post or the image, and the rest is built
cp "$S/static/images/river.jpg" "$T/full.jpg"
head -c 20000 "$T/full.jpg" >"$S/static/images/cut.jpg"
head -c 3000 "$S/static/images/logo.png" >"$S/static/images/cut.png"
printf 'not an image at all\n' >"$S/static/images/text.jpg"
vips thumbnail "$T/full.jpg" "$T/full.avif" 800
head -c "$(($(stat -c %s "$T/full.avif") / 2))" "$T/full.avif" >"$S/static/images/cut.avif"
cat >"$S/posts/2025-03-02-bad.md" <<'EOF'
---
title: Bad images
date: 2025-03-02
---
Gone: ![gone](/images/gone.jpg)

Cut: ![cut](/images/cut.jpg)

Cut AVIF: ![cut](/images/cut.avif)
EOF
mkdir -p "$S/pages"
printf -- '---\ntitle: Gallery\n---\nAn intro.\n\n![lost](/images/lost.jpg)\n' >"$S/pages/gallery.md"
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
rc=$?
check "bad images fail the build" test $rc -eq 1
check "a missing image on a page is an error at the page's file and line" grep -q 'pages/gallery.md:6: error: image /images/lost.jpg: static/ has no such file' "$T/err"
check "a missing image is an error at the post's file and line" grep -q 'posts/2025-03-02-bad.md:5: error: image /images/gone.jpg: static/ has no such file' "$T/err"
check "a truncated JPEG is an error naming it" grep -q 'static/images/cut.jpg: error: cannot be converted' "$T/err"
check "... and at the post that shows it" grep -q 'posts/2025-03-02-bad.md:7: error: image /images/cut.jpg: cannot be converted' "$T/err"
check "a truncated PNG is an error naming it" grep -q 'static/images/cut.png: error: ' "$T/err"
check "a truncated AVIF is an error naming it" grep -q 'static/images/cut.avif: error: ' "$T/err"
check "... and at the post that shows it" grep -q 'posts/2025-03-02-bad.md:9: error: image /images/cut.avif: ' "$T/err"
check "a file that is no image is an error naming it" grep -q "static/images/text.jpg: error: not an image libvips can read" "$T/err"
check "the rest is built" grep -q '/images/river-960' "$H"
check "a bad image is not published" test ! -e "$O/images/cut.jpg"
# nothing changed, and the post is made again: its errors are said again
"$SSG" build -C "$S" >"$T/out" 2>"$T/err"
check "a second build fails too" test $? -eq 1
check "... at the post with the missing image" grep -q 'posts/2025-03-02-bad.md:5: error: image /images/gone.jpg: static/ has no such file' "$T/err"
# a post deleted while another shows a missing image leaves the capsule:
# that error is the HTML pages', not the capsule's
printf -- '---\ntitle: Brief\ndate: 2025-03-03\n---\nBrief.\n' >"$S/posts/2025-03-03-brief.md"
"$SSG" build -C "$S" -q --set gemini=true >"$T/out" 2>"$T/err"
check "... (the capsule holds the post first)" test -e "$O/../capsule/2025/03/03/brief/index.gmi"
rm "$S/posts/2025-03-03-brief.md"
"$SSG" build -C "$S" -q --set gemini=true >"$T/out" 2>"$T/err"
check "a deleted post leaves the capsule despite a missing image" test ! -e "$O/../capsule/2025/03/03/brief/index.gmi"
check "... and the HTML" test ! -e "$O/2025/03/03/brief/index.html"
rm -f "$S/static/images/cut.jpg" "$S/static/images/cut.avif" "$S/static/images/cut.png" "$S/static/images/text.jpg" "$S/posts/2025-03-02-bad.md" "$S/pages/gallery.md"
fi

if part limits; then
"$SSG" build -C "$S" -q --set image_max_pixels=100000 >"$T/out" 2>"$T/err"
check "an image over image_max_pixels is an error, not decoded" grep -q 'river.jpg: error: 1000 x 1800 pixels, more than image_max_pixels (100000)' "$T/err"
"$SSG" build -C "$S" -q --set image_widths=wide >"$T/out" 2>"$T/err"
check "a bad width names the setting" grep -q "site.yaml: error: image_widths: 'wide' is not a width" "$T/err"
fi

if part off; then
# images: false: copied as they are, each GPS position named
"$SSG" build -C "$S" -q --set images=false >"$T/out" 2>"$T/err"
check "images: false copies the original byte for byte" cmp -s "$S/static/images/river.jpg" "$O/images/river.jpg"
check "... warns of its GPS position" grep -q 'static/images/river.jpg: warning: holds a GPS position, published with it (images: false)' "$T/err"
check "... and writes no picture" sh -c "! grep -q '<picture>' '$H'"
check "... nor copies" test -z "$(find "$O/images" -name 'river-*')"
"$SSG" build -C "$S" -q --set image_keep_originals=true >"$T/out" 2>"$T/err"
check "image_keep_originals publishes the original as it is" cmp -s "$S/static/images/river.jpg" "$O/images/river.jpg"
check "... with a warning of its GPS position" grep -q 'river.jpg: warning: holds a GPS position, published with it (image_keep_originals: true)' "$T/err"
check "... and the pictures" grep -q '<picture>' "$H"
fi

if part share; then
# what is not a page shows one copy: link previews the widest (up to
# 1600 px), feeds and the Gemini capsule the one near 960 px, absolute
cat >"$S/posts/2025-03-04-share.md" <<'EOF'
---
title: Shared
date: 2025-03-04
image: /images/river.jpg
---
The river again:

![The river in April](../../../../images/river.jpg)
EOF
"$SSG" build -C "$S" -q --set gemini=true --set rss_include_full_content=true >"$T/out" 2>"$T/err"
P="$O/2025/03/04/shared/index.html"
og=$(sed -n 's/.*<meta property="og:image" content="http:\/\/photos.example\/\([^"]*\)">.*/\1/p' "$P")
check "og:image is the widest copy, a JPEG without metadata ($og)" sh -c "echo '$og' | grep -q '^images/river-1000\.[0-9a-f]*\.jpg$' && test -f '$O/$og' && test -z \"\$(exiftool -q -q -s -GPS:all -EXIF:all '$O/$og')\""
check "og:image:width and height are the copy's ($(shape "$O/$og"))" sh -c "grep -q '<meta property=\"og:image:width\" content=\"1000\">' '$P' && grep -q '<meta property=\"og:image:height\" content=\"1800\">' '$P' && test '$(shape "$O/$og")' = 1000x1800"
check "twitter:image and the JSON-LD image are the copy too" sh -c "grep -q '<meta name=\"twitter:image\" content=\"http://photos.example/$og\">' '$P' && grep -q '\"image\":\"http://photos.example/$og\"' '$P'"
check "the RSS item's media:content is the copy" grep -q "<media:content url=\"http://photos.example/$og\" medium=\"image\" type=\"image/jpeg\"/>" "$O/rss.xml"
check "the Atom entry's enclosure is the copy" grep -q "<link rel=\"enclosure\" href=\"http://photos.example/$og\" type=\"image/jpeg\"/>" "$O/atom.xml"
check "a feed's <img> is the 960 px copy, absolute, sized (a relative src too)" \
    test "$(grep -o '&lt;img src=&quot;http://photos.example/images/river-960\.[0-9a-f]*\.jpg&quot; width=&quot;960&quot; height=&quot;1728&quot; alt=&quot;The river in [A-Za-z]*&quot;&gt;' "$O/rss.xml" | wc -l)" -eq 2
check "a feed's <img> has no srcset, no picture" sh -c "! grep -q 'srcset\|&lt;picture' '$O/rss.xml' '$O/atom.xml'"
c960=$(sed -n 's/.*\(images\/river-960\.[0-9a-f]*\.jpg\).*/\1/p' "$O/rss.xml" | head -1)
check "the 960 px copy the feed names is published, 960 wide" test "$(shape "$O/$c960" | cut -dx -f1)" = 960
check "the capsule links the 960 px copy over HTTPS" grep -qx "=> http://photos.example/$c960 The river in April" "$O/../capsule/2025/03/04/shared/index.gmi"
check "the capsule keeps a remote image as written" grep -qx "=> https://elsewhere.example/a.jpg remote" "$O/../capsule/2025/03/01/a-walk/index.gmi"
"$SSG" build -C "$S" -q --set gemini=true --set rss_include_full_content=true --set images=false >"$T/out" 2>"$T/err"
check "images: false: og:image is the original" grep -q '<meta property="og:image" content="http://photos.example/images/river.jpg">' "$P"
check "... the capsule links the original" grep -qx "=> ../../../../images/river.jpg The river in April" "$O/../capsule/2025/03/04/shared/index.gmi"
rm -f "$S/posts/2025-03-04-share.md"
fi

summary
