#!/usr/bin/env python3
# ssg's code highlighter: one process per build, started by ssg
# (ssg/highlight.c), reading requests on stdin and answering on stdout.
#
# Request:  "<lang length> <code length>\n" lang code      (bytes, UTF-8)
# Answer:   "<status> <length>\n" html
#   status 0: html is the code as token spans (<span class="hl-k">...),
#             escaped; concatenated text equals the code
#   status 1: no lexer for lang; html is empty
# First line written on start: "pygments <version>\n<path of pygments>\n",
# or "none <reason>\n" when Pygments cannot be imported (then it exits).
#
# Only the Pygments API of 2.14 (Debian 12) is used.

import sys

CLASSES = [
    # the most specific first: the first prefix of a token's type wins
    ("Generic.Deleted", "hl-gd"),
    ("Generic.Inserted", "hl-gi"),
    ("Generic.Heading", "hl-gh"),
    ("Generic.Subheading", "hl-gh"),
    ("Generic.Prompt", "hl-gp"),
    ("Keyword.Type", "hl-t"),
    ("Keyword.Constant", "hl-n"),
    ("Keyword", "hl-k"),
    ("Operator.Word", "hl-k"),
    ("Operator", "hl-o"),
    ("Punctuation", "hl-p"),
    ("Comment.PreprocFile", "hl-s"),
    ("Comment.Preproc", "hl-k"),
    ("Comment", "hl-c"),
    ("Literal.String", "hl-s"),
    ("Literal.Number", "hl-n"),
    ("Literal", "hl-s"),
    ("Name.Function", "hl-f"),
    ("Name.Decorator", "hl-f"),
    ("Name.Class", "hl-t"),
    ("Name.Namespace", "hl-t"),
    ("Name.Builtin", "hl-b"),
    ("Name.Exception", "hl-t"),
    ("Name.Tag", "hl-k"),
    ("Name.Attribute", "hl-v"),
    ("Name.Variable", "hl-v"),
    ("Name.Constant", "hl-n"),
    ("Name.Entity", "hl-s"),
    ("Name.Label", "hl-f"),
    ("Name.Property", "hl-v"),
]


def class_of(ttype, memo):
    c = memo.get(ttype)
    if c is None:
        name = str(ttype)[6:]          # "Token.Keyword.Type" -> "Keyword.Type"
        c = ""
        for prefix, cls in CLASSES:
            if name == prefix or name.startswith(prefix + "."):
                c = cls
                break
        memo[ttype] = c
    return c


def escape(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def read_exact(f, n):
    data = f.read(n)
    if data is None or len(data) != n:
        raise EOFError
    return data


def main():
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    try:
        import pygments
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound
    except Exception as e:   # not installed, or broken
        out.write(b"none %s\n" % str(e).replace("\n", " ").encode())
        out.flush()
        return
    out.write(("pygments %s\n%s\n" % (pygments.__version__,
               pygments.__file__)).encode())
    out.flush()
    lexers = {}
    memo = {}
    while True:
        line = inp.readline()
        if not line:
            return
        try:
            nl, nc = (int(x) for x in line.split())
            lang = read_exact(inp, nl).decode("utf-8", "replace")
            code = read_exact(inp, nc).decode("utf-8", "replace")
        except (ValueError, EOFError):
            return
        lexer = lexers.get(lang, False)
        if lexer is False:
            try:
                lexer = get_lexer_by_name(lang, stripnl=False,
                                          stripall=False, ensurenl=False)
            except (ClassNotFound, Exception):
                lexer = None
            lexers[lang] = lexer
        status, html = 1, ""
        if lexer is not None:
            try:
                parts, text, cur, run = [], [], None, []
                for ttype, value in lexer.get_tokens(code):
                    text.append(value)
                    c = class_of(ttype, memo)
                    if c != cur:
                        if run:
                            s = escape("".join(run))
                            parts.append('<span class="%s">%s</span>' %
                                         (cur, s) if cur else s)
                        cur, run = c, []
                    run.append(value)
                if run:
                    s = escape("".join(run))
                    parts.append('<span class="%s">%s</span>' % (cur, s)
                                 if cur else s)
                # a lexer that changed the text is not used
                if "".join(text) == code:
                    status, html = 0, "".join(parts)
            except Exception:
                status, html = 1, ""
        data = html.encode("utf-8")
        out.write(b"%d %d\n" % (status, len(data)))
        out.write(data)
        out.flush()


if __name__ == "__main__":
    main()
