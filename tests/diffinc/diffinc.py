#!/usr/bin/env python3
"""Differential test of incremental builds.

A generated site of a few hundred posts goes through a random sequence of
edits, one at a time: retitle, retag, redate (also across time zones),
change author, description or draft state, delete, add, rename a file,
edit a page, change a site.yaml setting, the theme, a template, a static
file. After each edit the site is built incrementally, and its output
must equal, byte for byte, a forced full build of the same sources made in
a fresh copy of the site; so must its Gemini capsule. A failure prints the seed and the step; rerun
one seed with `make diffinc SEED=N`.

usage: diffinc.py [--ssg BIN] [--seed N] [--steps N] [--posts N] [--runs N]
Ends with "N passed, N failed" (one check per edit).
"""
import argparse
import filecmp
import os
import random
import shutil
import subprocess
import sys
import tempfile

WORDS = ("jail nginx caddy release shell static feed theme tag page post "
         "kernel zfs pf bastille build cache slug archive author draft "
         "markdown table footnote link image quote list code").split()
TAGS = ["c", "shell", "freebsd", "nginx", "web", "zfs", "notes", "äöü",
        "C#", "two words"]
AUTHORS = ["Ada Lovelace", "Grace Hopper", "Ken Thompson", ""]
ZONES = ["", " +0200", " -0700", " +0530", " -0300", "Z"]
SETTINGS = [
    ("posts_per_page", ["3", "5", "10"]),
    ("date_format", ['"%d %B %Y"', '"%Y-%m-%d"', '"%B %e, %Y"']),
    ("timezone", ["Europe/Rome", "America/Los_Angeles", "GMT", "Asia/Tokyo"]),
    ("enable_author_pages", ["true", "false"]),
    ("enable_related_posts", ["true", "false"]),
    ("related_posts_count", ["2", "3", "5"]),
    ("archives_list_all_posts", ["true", "false"]),
    ("index_show_full_content", ["true", "false"]),
    ("rss_include_full_content", ["true", "false"]),
    ("site_title", ['"Differential"', '"Diff & <Inc>"']),
    ("gemini_markdown_link", ["true", "false"]),
    # what the parse depends on: the source cache's key must hold each
    ("url_slug_format", ["Year/Month/Day/slug", "Year/Month/slug", "slug"]),
    ("page_url_format", ["slug", "filename"]),
    ("smart_punctuation", ["true", "false"]),
    ("highlight", ["true", "false"]),
    ("raw_html", ["keep", "filter", "omit"]),
    ("show_timezone", ["true", "false"]),
    # what the images depend on
    ("images", ["true", "false"]),
    ("image_widths", ["[32, 48]", "[24, 48]", "[40]"]),
    ("image_formats", ["[avif, webp]", "[webp]", "[jpeg]"]),
    ("image_quality", ["{webp: 75}", "{webp: 60, avif: 40}", "{jpeg: 70}"]),
    ("image_sizes", ['"100vw"', '"(max-width: 800px) 100vw, 800px"']),
    ("image_keep_originals", ["true", "false"]),
    # the search index: written with the pages, the same either way;
    # Swedish keeps accented letters apart, English and German fold them
    ("search", ["true", "false"]),
    ("site_lang", ['"en"', '"sv"', '"de"']),
]
# Small photos, made with libvips from gnome-backgrounds, when both are here
# (make deps-test installs them): a few pixels wide, so each build's
# encoding costs little.
PHOTO = "/usr/share/backgrounds/gnome/adwaita-l.webp"
IMAGES = ["a.jpg", "b.png", "c.webp"]
HAVE_VIPS = shutil.which("vips") is not None and os.path.exists(PHOTO)
THEMES = ["default", "minimal", "terminal", "brutalist", "academic"]


class Site:
    def __init__(self, root, rng, nposts):
        self.root = root
        self.rng = rng
        self.settings = {
            "site_title": '"Differential"',
            "site_url": '"https://example.org"',
            "author_name": '"Ada Lovelace"',
            "posts_per_page": "5",
            "timezone": "Europe/Rome",
            "enable_author_pages": "true",
            "theme": "default",
            "gemini": "true",
            "gemini_url": '"gemini://example.org"',
            "image_widths": "[32, 48]",
            "slugs": "{}",
            "search": "true",
        }
        self.posts = {}      # file name -> dict of fields
        self.serial = 0
        for d in ("posts", "pages", "static", "templates"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        self.write_config()
        for _ in range(nposts):
            self.add_post()
        for name in ("about", "colophon", "contact"):
            self.write_page(name, name.capitalize(), "A page about " + name)
        self.write_static("css/custom.css", "body { margin: 0 }\n")
        self.write_static("robots-note.txt", "static text\n")
        if HAVE_VIPS:
            for name in IMAGES:
                self.write_image(name)

    # --- writing -------------------------------------------------------
    def write_config(self):
        with open(os.path.join(self.root, "site.yaml"), "w") as f:
            for k, v in self.settings.items():
                f.write("%s: %s\n" % (k, v))

    def words(self, n):
        return " ".join(self.rng.choice(WORDS) for _ in range(n))

    def new_fields(self):
        r = self.rng
        y, m, d = r.randint(2019, 2025), r.randint(1, 12), r.randint(1, 28)
        return {
            "title": self.words(r.randint(1, 5)).capitalize(),
            "date": "%04d-%02d-%02d %02d:%02d:00%s" % (
                y, m, d, r.randint(0, 23), r.randint(0, 59), r.choice(ZONES)),
            "tags": r.sample(TAGS, r.randint(0, 3)),
            "author": r.choice(AUTHORS),
            "description": r.choice(["", self.words(8)]),
            "draft": False,
            # Half the posts pin their URL, so a new title keeps it.
            "slug": r.choice(["", "post-%d" % r.randrange(1 << 30)]),
            "body": self.body(),
        }

    def write_post(self, name):
        p = self.posts[name]
        lines = ["---", "title: %s" % p["title"], "date: %s" % p["date"]]
        if p["slug"]:
            lines.append("slug: %s" % p["slug"])
        if p["tags"]:
            lines.append("tags: %s" % ", ".join(p["tags"]))
        if p["author"]:
            lines.append("author_name: %s" % p["author"])
        if p["description"]:
            lines.append("description: %s" % p["description"])
        if p["draft"]:
            lines.append("draft: true")
        lines += ["---", p["body"], ""]
        with open(os.path.join(self.root, "posts", name), "w") as f:
            f.write("\n".join(lines))

    def write_page(self, name, title, body):
        with open(os.path.join(self.root, "pages", name + ".md"), "w") as f:
            f.write("---\ntitle: %s\n---\n%s\n" % (title, body))

    def write_static(self, rel, text):
        path = os.path.join(self.root, "static", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def write_image(self, name):
        path = os.path.join(self.root, "static", "images", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        w = self.rng.randint(36, 64)
        subprocess.run(["vips", "thumbnail", PHOTO, path, str(w), "--height",
                        str(self.rng.randint(20, 64)), "--crop",
                        self.rng.choice(["centre", "low", "high"])],
                       check=True)

    def body(self):
        r = self.rng
        paras = [self.words(30) for _ in range(r.randint(1, 4))]
        # what the settings of the parse change: quotes and dashes (smart
        # punctuation), raw HTML, fenced code (highlighting), images
        extra = r.choice(["", 'He said "%s" -- twice...' % self.words(2),
                          "<script>var x = 1;</script>\n\n<em>%s</em>" %
                          self.words(2),
                          "```c\nint main(void) { return 0; }\n```"])
        if extra:
            paras.insert(r.randrange(len(paras) + 1), extra)
        if HAVE_VIPS and r.random() < 0.3:
            paras.append("![%s](/images/%s)" % (self.words(2),
                                                r.choice(IMAGES)))
        return "\n\n".join(paras)

    def add_post(self):
        self.serial += 1
        f = self.new_fields()
        name = "%s-p%04d.md" % (f["date"][:10], self.serial)
        self.posts[name] = f
        self.write_post(name)
        return name

    def some_post(self):
        return self.rng.choice(sorted(self.posts))

    # --- edits -----------------------------------------------------------
    def edit(self):
        r = self.rng
        kinds = ["retitle", "retag", "redate", "author", "description",
                 "draft", "delete", "add", "rename", "body", "page",
                 "setting", "theme", "template", "static", "slugs",
                 "image"]
        weights = [10, 8, 8, 4, 4, 4, 4, 4, 3, 6, 3, 6, 2, 2, 3, 2,
                   3 if HAVE_VIPS else 0]
        kind = r.choices(kinds, weights)[0]
        if kind in ("delete", "rename") and len(self.posts) < 20:
            kind = "add"
        return kind, getattr(self, "e_" + kind)()

    def _change(self, field, value):
        name = self.some_post()
        self.posts[name][field] = value
        self.write_post(name)
        return name

    def e_retitle(self):
        return self._change("title", self.words(self.rng.randint(1, 5)).title())

    def e_retag(self):
        return self._change("tags", self.rng.sample(TAGS, self.rng.randint(0, 3)))

    def e_redate(self):
        return self._change("date", self.new_fields()["date"])

    def e_author(self):
        return self._change("author", self.rng.choice(AUTHORS))

    def e_description(self):
        return self._change("description", self.rng.choice(["", self.words(6)]))

    def e_draft(self):
        name = self.some_post()
        self.posts[name]["draft"] = not self.posts[name]["draft"]
        self.write_post(name)
        return name

    def e_slugs(self):
        # the slugs: map pins (or stops pinning) one post's URL
        name = self.some_post()
        if self.settings["slugs"] != "{}" and self.rng.random() < 0.4:
            self.settings["slugs"] = "{}"
        else:
            self.settings["slugs"] = '{"%s": pinned-%d}' % (
                name, self.rng.randrange(1000))
        self.write_config()
        return "slugs: " + self.settings["slugs"]

    def e_image(self):
        # a photo changed in place, removed or back
        name = self.rng.choice(IMAGES)
        path = os.path.join(self.root, "static", "images", name)
        if os.path.exists(path) and self.rng.random() < 0.25:
            os.unlink(path)
            return "deleted static/images/" + name
        self.write_image(name)
        return "static/images/" + name

    def e_body(self):
        return self._change("body", self.body())

    def e_delete(self):
        name = self.some_post()
        del self.posts[name]
        os.unlink(os.path.join(self.root, "posts", name))
        return name

    def e_add(self):
        return self.add_post()

    def e_rename(self):
        old = self.some_post()
        self.serial += 1
        new = "%s-r%04d.md" % (self.posts[old]["date"][:10], self.serial)
        os.rename(os.path.join(self.root, "posts", old),
                  os.path.join(self.root, "posts", new))
        self.posts[new] = self.posts.pop(old)
        return "%s -> %s" % (old, new)

    def e_page(self):
        name = self.rng.choice(["about", "colophon", "contact"])
        self.write_page(name, self.words(2).title(), self.words(20))
        return name

    def e_setting(self):
        k, values = self.rng.choice(SETTINGS)
        self.settings[k] = self.rng.choice(values)
        self.write_config()
        return "%s: %s" % (k, self.settings[k])

    def e_theme(self):
        self.settings["theme"] = self.rng.choice(THEMES)
        self.write_config()
        return self.settings["theme"]

    def e_template(self):
        # A site override of the footer, or its removal.
        path = os.path.join(self.root, "templates", "footer.mustache")
        builtin = os.path.join(TEMPLATES, "footer.mustache")
        if os.path.exists(path) and self.rng.random() < 0.4:
            os.unlink(path)
            return "footer override removed"
        with open(builtin) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text + "<!-- %s -->\n" % self.words(2))
        return "footer override"

    def e_static(self):
        r = self.rng
        rel = r.choice(["css/custom.css", "robots-note.txt", "img/a.txt",
                        "notes/b.txt"])
        path = os.path.join(self.root, "static", rel)
        if os.path.exists(path) and r.random() < 0.3:
            os.unlink(path)
            return "deleted static/" + rel
        self.write_static(rel, self.words(5) + "\n")
        return "static/" + rel


def build(ssg, site, out, force):
    cmd = [ssg, "build", "-q", "-j", "2", "-C", site, "-o", out]
    if force:
        cmd.append("--force")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout + p.stderr


def differ(a, b):
    """The first difference between two trees, or None."""
    # (dircmp leaves out names like "tags" unless told otherwise)
    c = filecmp.dircmp(a, b, ignore=[], hide=[])
    stack = [(c, "")]
    while stack:
        d, rel = stack.pop()
        if d.left_only or d.right_only:
            return "%s: only in incremental %s, only in full %s" % (
                rel or ".", d.left_only[:3], d.right_only[:3])
        _, mismatch, errors = filecmp.cmpfiles(
            d.left, d.right, d.common_files, shallow=False)
        if mismatch or errors:
            return "%s: files differ: %s" % (rel or ".", (mismatch + errors)[:3])
        for name, sub in d.subdirs.items():
            stack.append((sub, os.path.join(rel, name)))
    return None


def run(ssg, seed, steps, nposts, verbose):
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="diffinc.")
    passed = failed = 0
    try:
        site = os.path.join(work, "site")
        s = Site(site, rng, nposts)
        rc, msg = build(ssg, site, os.path.join(site, "output"), False)
        if rc not in (0, 1):
            print("FAIL seed %d: first build: %s" % (seed, msg))
            return 0, 1
        for step in range(1, steps + 1):
            kind, what = s.edit()
            inc = os.path.join(site, "output")
            rc1, msg1 = build(ssg, site, inc, False)
            full_site = os.path.join(work, "full")
            # The full build keeps what is cached by content, image
            # copies and coloured code, from step to step (making them
            # all again took most of the run), but not past a settings
            # edit: a setting missing from their keys still shows.
            cache = os.path.join(full_site, ".ssg-cache")
            keep = ("images", "highlight.bin")
            if kind != "setting" and os.path.isdir(cache):
                for k in keep:
                    if os.path.exists(os.path.join(cache, k)):
                        os.rename(os.path.join(cache, k),
                                  os.path.join(work, k))
            shutil.rmtree(full_site, ignore_errors=True)
            shutil.copytree(site, full_site, ignore=shutil.ignore_patterns(
                "output", "capsule", ".ssg-cache", ".ssg-backups"))
            for k in keep:
                if os.path.exists(os.path.join(work, k)):
                    os.makedirs(cache, exist_ok=True)
                    os.rename(os.path.join(work, k), os.path.join(cache, k))
            full = os.path.join(full_site, "output")
            rc2, msg2 = build(ssg, full_site, full, True)
            diff = (differ(inc, full) or
                    differ(os.path.join(site, "capsule"),
                           os.path.join(full_site, "capsule"))) \
                if rc1 == rc2 else \
                "exit %d incremental, %d full: %s%s" % (rc1, rc2, msg1, msg2)
            if diff is None:
                passed += 1
                if verbose:
                    print("ok seed %d step %d: %s %s" % (seed, step, kind, what))
            else:
                failed += 1
                print("FAIL seed %d step %d (%s %s): %s" % (
                    seed, step, kind, what, diff))
                print("  rerun: make diffinc SEED=%d STEPS=%d" % (seed, step))
                break
    finally:
        if os.environ.get("KEEP"):
            print("kept " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return passed, failed


TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "..", "..", "themes", "templates")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ssg", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "bin", "ssg"))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--seeds", help="several seeds, comma-separated")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--posts", type=int, default=200)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if a.seeds:
        seeds = [int(x) for x in a.seeds.split(",")]
    elif a.seed is not None:
        seeds = [a.seed]
    else:
        seeds = [random.SystemRandom().randrange(1 << 30)
                 for _ in range(a.runs)]
    passed = failed = 0
    for seed in seeds:
        p, f = run(os.path.abspath(a.ssg), seed, a.steps, a.posts, a.verbose)
        print("seed %d: %d edits, %d failed" % (seed, p + f, f))
        passed += p
        failed += f
        if f:
            break
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
