#!/usr/bin/env python3
"""The head of each page as BSSG writes it: every value a reader's tools
read from the head of BSSG's page (title, meta description, og:*,
twitter:*, canonical link, JSON-LD headline, description, dates, author
with e-mail, image) is on ssg's page of the same path, with the same value.

usage: bssg_head.py [--skip NAME]... BSSG_OUT SSG_OUT PAGE...

PAGE is a path under both trees without index.html ("" is the home page).
NAME is a value left out of the comparison (e.g. title, where ssg's own
templates word the title their own way). ssg may write more than BSSG
(other tags, more JSON-LD fields); it must not write less or otherwise.
JSON-LD is read by key, not parsed: BSSG 0.32's has one brace too many.
Ends with "N passed, N failed".
"""
import html
import html.parser
import os
import re
import sys


class Head(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.values = {}
        self.in_title = False
        self.in_ld = False
        self.title = ""
        self.ld = ""
        self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        a = dict(attrs)
        if tag == "title":
            self.in_title = True
        elif tag == "meta":
            key = a.get("property") or a.get("name")
            if key and (key == "description" or key.startswith("og:") or
                        key.startswith("twitter:")):
                self.values.setdefault(key, a.get("content", ""))
        elif tag == "link" and a.get("rel") == "canonical":
            self.values.setdefault("canonical", a.get("href", ""))
        elif tag == "script" and a.get("type") == "application/ld+json":
            self.in_ld = True

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
            self.values["title"] = self.title
        elif tag == "script":
            self.in_ld = False
        elif tag == "head":
            self.done = True

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        elif self.in_ld:
            self.ld += data


def json_string(s):
    """The text of a JSON string literal's body."""
    return re.sub(r'\\u([0-9a-fA-F]{4})', lambda m: chr(int(m.group(1), 16)),
                  re.sub(r'\\(["\\/])', r'\1', s))


def ld_values(ld):
    """JSON-LD fields a reader's tools use, by key, from possibly invalid
    JSON: the first headline, description and dates; the author's name
    and e-mail (inside "author"); the image's URL (a string, or an
    ImageObject's url)."""
    out = {}
    s = r'"((?:[^"\\]|\\.)*)"'
    for key in ("headline", "description", "datePublished", "dateModified"):
        m = re.search(r'"%s"\s*:\s*%s' % (key, s), ld)
        if m:
            out["ld:" + key] = json_string(m.group(1))
    m = re.search(r'"author"\s*:\s*\{([^}]*)\}', ld)
    if m:
        for key in ("name", "email"):
            n = re.search(r'"%s"\s*:\s*%s' % (key, s), m.group(1))
            if n:
                out["ld:author." + key] = json_string(n.group(1))
    m = re.search(r'"image"\s*:\s*(?:%s|\{[^}]*?"url"\s*:\s*%s)' % (s, s), ld)
    if m:
        out["ld:image"] = json_string(m.group(1) or m.group(2))
    return out


def head(path):
    p = Head()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    v = {k: " ".join(html.unescape(x).split()) for k, x in p.values.items()}
    v.update({k: " ".join(x.split()) for k, x in ld_values(p.ld).items()})
    return v


def main(argv):
    skip = set()
    while argv and argv[0] == "--skip":
        skip.add(argv[1])
        argv = argv[2:]
    bssg, ours, pages = argv[0], argv[1], argv[2:]
    passed = failed = 0
    for page in pages:
        rel = os.path.join(page, "index.html") if page else "index.html"
        want = head(os.path.join(bssg, rel))
        try:
            have = head(os.path.join(ours, rel))
        except OSError as e:
            print("FAIL %s: %s" % (rel, e))
            failed += 1
            continue
        for key in sorted(want):
            if key in skip or want[key] == "":
                continue
            if have.get(key) == want[key]:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: %s is %r, BSSG wrote %r" %
                      (rel, key, have.get(key), want[key]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
