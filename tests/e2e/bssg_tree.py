#!/usr/bin/env python3
"""BSSG's HTML and ssg's, element for element.

usage: bssg_tree.py [--extra-tag NAME]... BSSG_OUT SSG_OUT PAGE...

For each page, the elements of <body> of both builds are listed in
document order with their depth, and the words between them. ssg's list
must be BSSG's: the same elements, nesting and words, and every class
BSSG gives an element on ssg's element too. ssg may add classes and
attributes, and one element BSSG has none of: the skip link, which is
hidden until focused. An image of ssg's may stand in a <picture> with
its <source>s (the copies made for the screen), which BSSG's bare <img>
is compared with as if the <picture> were not there. The footer's generator line names ssg, and the
copyright year is the build's. A tag named with --extra-tag may be
linked from ssg's post where BSSG leaves it out (BSSG's post page drops a
tag whose name has no ASCII letter or digit, though it writes the tag's
page). Prints one line per difference, then
"N passed, N failed" (a page a check).
"""
import re
import sys
from html.parser import HTMLParser

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link',
        'meta', 'source', 'track', 'wbr'}


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.on = False
        self.skip = 0   # inside an element ssg may add
        self.items = []

    def handle_starttag(self, tag, attrs):
        if tag == 'body':
            self.on = True
            return
        if not self.on:
            return
        if tag in ('picture', 'source'):
            return
        a = dict(attrs)
        classes = set((a.get('class') or '').split())
        if self.skip or 'skip-link' in classes:
            if tag not in VOID:
                self.skip += 1
            return
        self.items.append((self.depth, tag, classes))
        if tag not in VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == 'body':
            self.on = False
        if not self.on or tag in VOID or tag == 'picture':
            return
        if self.skip:
            self.skip -= 1
            return
        self.depth -= 1

    def handle_data(self, data):
        words = ' '.join(data.split())
        if self.on and not self.skip and words:
            words = re.sub(r'^© \d{4} ', '© YEAR ', words)
            self.items.append((self.depth, '"' + words + '"', set()))


EXTRA_TAGS = set()


def without_extra_tags(items):
    """items without ssg's links to the --extra-tag tags."""
    out, k = [], 0
    while k < len(items):
        d, tag, classes = items[k]
        if tag == 'a' and 'tag' in classes and k + 1 < len(items) and \
                items[k + 1][1].strip('"') in EXTRA_TAGS:
            k += 2
            continue
        out.append(items[k])
        k += 1
    return out


def tree(path):
    t = Tree()
    with open(path, encoding='utf-8') as f:
        t.feed(f.read())
    return t.items


def without_generator(items):
    """items without what is inside the footer's "Generated with ..."
    paragraph: its words name the generator."""
    out, k = [], 0
    while k < len(items):
        out.append(items[k])
        d, tag, _ = items[k]
        k += 1
        if tag == 'p' and k < len(items) and \
                items[k][1].startswith('"Generated with'):
            while k < len(items) and items[k][0] > d:
                k += 1
    return out


def compare(want, have):
    """The first difference between BSSG's list and ssg's, or None."""
    want = without_generator(want)
    have = without_extra_tags(without_generator(have))
    for i, ((wd, wt, wc), (hd, ht, hc)) in enumerate(zip(want, have)):
        if wd != hd or wt != ht:
            return f'item {i}: BSSG has {wt}{"." + ".".join(sorted(wc)) if wc else ""} ' \
                   f'at depth {wd}, ssg {ht}{"." + ".".join(sorted(hc)) if hc else ""} at depth {hd}'
        if not wc <= hc:
            return f'item {i}: {wt} lacks BSSG\'s class(es) {" ".join(sorted(wc - hc))}'
    if len(want) > len(have):
        return f'ssg ends before BSSG\'s {want[len(have)][1]}'
    if len(have) > len(want):
        return f'ssg has more after BSSG\'s end: {have[len(want)][1]}'
    return None


def main():
    args = sys.argv[1:]
    while len(args) > 1 and args[0] == '--extra-tag':
        EXTRA_TAGS.add(args[1])
        args = args[2:]
    bssg, ssg, pages = args[0], args[1], args[2:]
    passed = failed = 0
    for page in pages:
        rel = (page.rstrip('/') + '/index.html').lstrip('/')
        diff = compare(tree(f'{bssg}/{rel}'), tree(f'{ssg}/{rel}'))
        if diff is None:
            passed += 1
        else:
            failed += 1
            print(f'FAIL /{page}: {diff}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
