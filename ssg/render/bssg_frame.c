#include "bssg_frame.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "locale.h"
#include "mem.h"

struct bssg_frame {
	char	*path[2];	/* header.html, footer.html (for messages) */
	char	*text[2];	/* as read, then after the first stage */
};

enum { HEADER, FOOTER };

/* The per-page placeholders of each file, filled exactly as written. */
static const char *const page_names[2][13] = {
	{ "site_title", "page_title", "site_url", "page_url",
	  "site_description", "og_type", "og_description",
	  "twitter_description", "og_image", "twitter_image",
	  "schema_json_ld", "fediverse_creator_meta", NULL },
	{ "current_year", "author_name", NULL },
};

#define TAG_RSS_MARK "<!-- bssg:tag_rss_link -->"

/*
 * The name inside "{{" at open and "}}" at close, spaces trimmed, into
 * name; *spaced tells whether there were any. 0 if it is no placeholder.
 */
static int
placeholder(const char *open, const char *close, char name[64], int *spaced)
{
	const char *a, *z;
	size_t n;

	for (a = open + 2; a < close && strchr(" \t\n", *a); a++)
		;
	for (z = close; z > a && strchr(" \t\n", z[-1]); z--)
		;
	n = (size_t)(z - a);
	if (n == 0 || n >= 64 || memchr(a, '{', n) != NULL)
		return 0;
	memcpy(name, a, n);
	name[n] = '\0';
	*spaced = a != open + 2 || z != close;
	return 1;
}

/*
 * Copies t to out with every {{name}} for which fn writes a value
 * replaced by it; fn returns 0 to leave the placeholder as written.
 * spaced tells fn that the braces held spaces around the name.
 */
typedef int fill_fn(void *arg, const char *name, int spaced,
    struct buf *out);

static void
fill(const char *t, fill_fn *fn, void *arg, struct buf *out)
{
	const char *open, *close;
	char name[64];
	int spaced;

	while ((open = strstr(t, "{{")) != NULL &&
	    (close = strstr(open + 2, "}}")) != NULL) {
		buf_add(out, t, (size_t)(open - t));
		if (!placeholder(open, close, name, &spaced)) {
			/* not a placeholder: keep "{{" and go on after it */
			buf_adds(out, "{{");
			t = open + 2;
			continue;
		}
		if (!fn(arg, name, spaced, out))
			buf_add(out, open, (size_t)(close + 2 - open));
		t = close + 2;
	}
	buf_adds(out, t);
}

static void
add_html(struct buf *out, const char *s)
{
	if (s != NULL)
		esc_html(out, s, strlen(s));
}

/* A BSSG message with ${SITE_TITLE} and ${SITE_DESCRIPTION} expanded, as
 * BSSG's locale files are sourced after config.sh. */
static void
add_message(struct buf *out, const struct bssg_site *s, const char *text)
{
	const char *p;

	while ((p = strstr(text, "${SITE_")) != NULL) {
		buf_add(out, text, (size_t)(p - text));
		if (strncmp(p, "${SITE_TITLE}", 13) == 0) {
			buf_adds(out, s->site_title);
			text = p + 13;
		} else if (strncmp(p, "${SITE_DESCRIPTION}", 19) == 0) {
			buf_adds(out, s->site_description);
			text = p + 19;
		} else {
			buf_addc(out, '$');
			text = p + 1;
		}
	}
	buf_adds(out, text);
}

struct stage1 {
	const struct bssg_site	*s;
	int			 which;
};

static int
site_value(void *arg, const char *name, int spaced, struct buf *out)
{
	const struct stage1 *st = arg;
	const struct bssg_site *s = st->s;
	size_t i;

	if (!spaced && strcmp(name, "menu_items") == 0) {
		buf_adds(out, st->which == HEADER ? s->header_menu :
		    s->footer_menu);
		return 1;
	}
	for (i = 0; i < locale_bssg_count(); i++)
		if (strcmp(name, locale_bssg_name(i)) == 0) {
			add_message(out, s, locale_bssg(s->l, name));
			return 1;
		}
	if (st->which == FOOTER)
		return 0;
	if (strcmp(name, "site_lang_code") == 0)
		buf_adds(out, s->lang);
	else if (strcmp(name, "rss_filename") == 0)
		buf_adds(out, s->rss_filename);
	else if (strcmp(name, "rel_me_link") == 0)
		buf_adds(out, s->rel_me_links);
	else if (strcmp(name, "custom_css_link") == 0)
		buf_adds(out, s->custom_css_link);
	else
		return 0;
	return 1;
}

static int
page_name(int which, const char *name)
{
	size_t i;

	for (i = 0; page_names[which][i] != NULL; i++)
		if (strcmp(page_names[which][i], name) == 0)
			return 1;
	return 0;
}

/* Warns once for each placeholder of the (first-stage) text that the
 * second stage will not fill either, at the line of its first use. */
static void
warn_unknown(const struct bssg_frame *f, int which, struct diag *d)
{
	const char *t = f->text[which], *open, *close, *p = t;
	struct buf seen = BUF_INIT, key = BUF_INIT;
	char name[64];
	int spaced, line = 1;

	buf_addc(&seen, '\n');
	while ((open = strstr(t, "{{")) != NULL &&
	    (close = strstr(open + 2, "}}")) != NULL) {
		for (; p < open; p++)
			line += *p == '\n';
		t = close + 2;
		if (!placeholder(open, close, name, &spaced) ||
		    (!spaced && page_name(which, name)))
			continue;
		buf_clear(&key);
		buf_add(&key, open, (size_t)(close + 2 - open));
		buf_addc(&key, '\n');
		if (strstr(seen.ptr, key.ptr) != NULL)
			continue;
		buf_add(&seen, key.ptr, key.len);
		buf_truncate(&key, key.len - 1);
		diag_warn(d, f->path[which], line, "%s is not a placeholder "
		    "BSSG fills in %s: left as written", key.ptr,
		    which == HEADER ? "header.html" : "footer.html");
	}
	buf_release(&seen);
	buf_release(&key);
}

void
bssg_frame_prepare(struct bssg_frame *f, const struct bssg_site *s,
    struct diag *d)
{
	struct stage1 st;
	struct buf b = BUF_INIT;
	int which;

	st.s = s;
	for (which = HEADER; which <= FOOTER; which++) {
		st.which = which;
		buf_clear(&b);
		fill(f->text[which], site_value, &st, &b);
		free(f->text[which]);
		f->text[which] = buf_detach(&b, NULL);
		warn_unknown(f, which, d);
	}
	buf_release(&b);
}

static int
header_value(void *arg, const char *name, int spaced, struct buf *out)
{
	const struct bssg_page *p = arg;

	if (spaced)
		return 0;
	if (strcmp(name, "site_title") == 0)
		add_html(out, p->site_title);
	else if (strcmp(name, "page_title") == 0)
		add_html(out, p->title);
	else if (strcmp(name, "site_url") == 0)
		buf_adds(out, p->site_url);
	else if (strcmp(name, "page_url") == 0)
		buf_adds(out, p->url);
	else if (strcmp(name, "site_description") == 0)
		add_html(out, p->site_description);
	else if (strcmp(name, "og_type") == 0)
		buf_adds(out, p->og_type);
	else if (strcmp(name, "og_description") == 0 ||
	    strcmp(name, "twitter_description") == 0)
		add_html(out, p->description);
	else if (strcmp(name, "og_image") == 0) {
		if (p->image != NULL) {
			buf_adds(out, "<meta property=\"og:image\" content=\"");
			add_html(out, p->image);
			buf_adds(out, "\">");
			if (p->image_w > 0)
				buf_printf(out, "\n<meta property=\"og:image:width\" "
				    "content=\"%d\">\n<meta property=\"og:image:height\" "
				    "content=\"%d\">", p->image_w, p->image_h);
		}
	} else if (strcmp(name, "twitter_image") == 0) {
		if (p->image != NULL) {
			buf_adds(out, "<meta name=\"twitter:image\" content=\"");
			add_html(out, p->image);
			buf_adds(out, "\">");
		}
	} else if (strcmp(name, "schema_json_ld") == 0) {
		if (p->schema != NULL)
			buf_adds(out, p->schema);
	} else if (strcmp(name, "fediverse_creator_meta") == 0) {
		if (p->fediverse_creator != NULL) {
			buf_adds(out, "<meta name=\"fediverse:creator\" "
			    "content=\"");
			add_html(out, p->fediverse_creator);
			buf_adds(out, "\">");
		}
	} else
		return 0;
	return 1;
}

void
bssg_frame_header(const struct bssg_frame *f, const struct bssg_page *p,
    struct buf *out)
{
	struct buf b = BUF_INIT, meta = BUF_INIT;
	const char *t, *mark, *head;

	fill(f->text[HEADER], header_value, (void *)p, &b);
	/* the marker: the tag's feed on tag pages, nothing on the other
	 * list pages BSSG replaces it on, left as written elsewhere */
	for (t = b.ptr; p->mark && (mark = strstr(t, TAG_RSS_MARK)) != NULL;
	    t = mark + strlen(TAG_RSS_MARK)) {
		buf_add(out, t, (size_t)(mark - t));
		if (p->tag_rss_link != NULL)
			buf_adds(out, p->tag_rss_link);
	}
	/* a post's creator goes before </head> when the header has no
	 * placeholder for it, as generate_posts.sh puts it */
	if (p->is_post && p->fediverse_creator != NULL &&
	    strstr(f->text[HEADER], "{{fediverse_creator_meta}}") == NULL) {
		buf_adds(&meta, "<meta name=\"fediverse:creator\" content=\"");
		add_html(&meta, p->fediverse_creator);
		buf_adds(&meta, "\">");
		if ((head = strstr(t, "</head>")) != NULL) {
			buf_add(out, t, (size_t)(head - t));
			buf_addc(out, '\n');
			buf_add(out, meta.ptr, meta.len);
			buf_addc(out, '\n');
			t = head;
		} else {
			buf_adds(out, t);
			buf_addc(out, '\n');
			t = meta.ptr;
		}
	}
	buf_adds(out, t);
	buf_release(&meta);
	buf_release(&b);
}

static int
footer_value(void *arg, const char *name, int spaced, struct buf *out)
{
	const struct bssg_page *p = arg;

	if (spaced)
		return 0;
	if (strcmp(name, "current_year") == 0)
		buf_printf(out, "%d", p->year);
	else if (strcmp(name, "author_name") == 0)
		add_html(out, p->author_name);
	else
		return 0;
	return 1;
}

void
bssg_frame_footer(const struct bssg_frame *f, const struct bssg_page *p,
    struct buf *out)
{
	fill(f->text[FOOTER], footer_value, (void *)p, out);
}

int
bssg_frame_load(const char *dir, const struct fs_bound *bd,
    struct bssg_frame **out, uint64_t *hash, struct diag *d)
{
	static const char *const names[2] = { "header.html", "footer.html" };
	struct bssg_frame *f;
	struct buf all = BUF_INIT, text = BUF_INIT;
	int which, have[2], rc = 0;

	*out = NULL;
	*hash = 0;
	f = xcalloc(1, sizeof(*f));
	for (which = HEADER; which <= FOOTER; which++) {
		f->path[which] = path_join(dir, names[which]);
		have[which] = fs_is_file(f->path[which]);
	}
	if (!have[HEADER] && !have[FOOTER]) {
		bssg_frame_free(f);
		return 0;
	}
	for (which = HEADER; which <= FOOTER; which++) {
		if (!have[which]) {
			/* BSSG stops on an empty one too */
			diag_error(d, f->path[which], 0, "missing: BSSG's "
			    "%s needs its %s beside it (or remove both to "
			    "use ssg's own header and footer)",
			    names[!which], names[which]);
			rc = -1;
			continue;
		}
		buf_clear(&text);
		if (!fs_bound_check(bd, f->path[which]) ||
		    fs_read(f->path[which], &text) == -1) {
			diag_error(d, f->path[which], 0, "cannot read it");
			rc = -1;
			continue;
		}
		f->text[which] = xstrdup(text.len ? text.ptr : "");
	}
	buf_release(&text);
	if (rc == -1) {
		buf_release(&all);
		bssg_frame_free(f);
		return -1;
	}
	for (which = HEADER; which <= FOOTER; which++)
		buf_printf(&all, "%s%c", f->text[which], '\0');
	*hash = hash64(all.ptr, all.len);
	buf_release(&all);
	*out = f;
	return 0;
}

struct bssg_frame *
bssg_frame_new(const char *header, const char *footer)
{
	struct bssg_frame *f = xcalloc(1, sizeof(*f));

	f->path[HEADER] = xstrdup("header.html");
	f->path[FOOTER] = xstrdup("footer.html");
	f->text[HEADER] = xstrdup(header);
	f->text[FOOTER] = xstrdup(footer);
	return f;
}

void
bssg_frame_free(struct bssg_frame *f)
{
	int which;

	if (f == NULL)
		return;
	for (which = HEADER; which <= FOOTER; which++) {
		free(f->path[which]);
		free(f->text[which]);
	}
	free(f);
}
