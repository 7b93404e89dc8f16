#ifndef SSG_ESCAPE_H
#define SSG_ESCAPE_H

#include <stddef.h>

#include "buf.h"

/*
 * One function per output context. Renderers never escape by hand.
 * Each appends the escaped form of s[0..n) to out.
 */

/* HTML text and attribute values: & < > " ' */
void	esc_html(struct buf *out, const char *s, size_t n);
/* XML text and attributes (feeds, sitemap): & < > " ' and drops bytes XML
 * 1.0 forbids (C0 controls other than tab, newline, return). */
void	esc_xml(struct buf *out, const char *s, size_t n);
/* Inside a JSON string literal (no quotes added); also escapes < > & so the
 * result is safe inside an HTML <script> element. */
void	esc_json(struct buf *out, const char *s, size_t n);
/* A URL path or query component: everything but unreserved characters and
 * '/' is percent-encoded. */
void	esc_url(struct buf *out, const char *s, size_t n);
/* A YAML double-quoted scalar, with its quotes: " and \ escaped, control
 * characters as \n, \t or \xHH. */
void	esc_yaml(struct buf *out, const char *s, size_t n);
/* A POSIX shell word in single quotes. */
void	esc_shell(struct buf *out, const char *s, size_t n);

#endif
