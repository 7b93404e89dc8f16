#include "capsule.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "config.h"
#include "content.h"
#include "diag.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "gemtext.h"
#include "output.h"
#include "siteindex.h"

/* The capsule path of a page: index.html becomes index.gmi. */
static void
gmi_path(struct buf *out, const char *html_path)
{
	size_t n = strlen(html_path);

	if (n >= 10 && strcmp(html_path + n - 10, "index.html") == 0)
		buf_printf(out, "%.*sindex.gmi", (int)(n - 10), html_path);
	else if (n > 5 && strcmp(html_path + n - 5, ".html") == 0)
		buf_printf(out, "%.*s.gmi", (int)(n - 5), html_path);
	else
		buf_adds(out, html_path);
}

static void
ymd(struct buf *out, const struct post *p)
{
	buf_printf(out, "%04d-%02d-%02d", p->year, p->month, p->day);
}

/* One post or page as gemtext; 0, 1 when left out, -1 on error. */
static int
page(const struct site_config *c, const struct site_index *ix,
    const struct post *p, const char *dir, struct diag *d)
{
	struct buf text = BUF_INIT, gem = BUF_INIT, rel = BUF_INIT;
	struct frontmatter fm;
	struct diag *quiet = diag_new();
	size_t i;
	int rc = -1;

	if (p->is_html) {
		diag_warn(d, p->src, 0, "written in HTML: not in the Gemini "
		    "capsule (its HTML does not convert reliably)");
		rc = 1;
		goto out;
	}
	/* the build has read and checked it: its problems are reported */
	if (fs_read(p->src, &text) == -1 || frontmatter_parse(&fm, text.ptr,
	    text.len, p->src, quiet) == -1) {
		diag_warn(d, p->src, 0, "cannot read it again for the Gemini "
		    "capsule: left out");
		rc = 1;
		goto out;
	}
	buf_printf(&gem, "# %s\n\n", p->title);
	if (p->kind == CONTENT_POST) {
		buf_adds(&gem, "Published ");
		ymd(&gem, p);
		buf_printf(&gem, " by %s\n\n", siteindex_author(ix, p));
	}
	if (gemtext_from_markdown(fm.body, fm.body_len, c->smart_punctuation,
	    &gem) == -1)
		buf_adds(&gem, "(This text nests too deep to show here.)\n");
	frontmatter_release(&fm);
	if (p->ntags > 0) {
		buf_adds(&gem, "\nTags:");
		for (i = 0; i < p->ntags; i++)
			buf_printf(&gem, "%s %s", i ? "," : "",
			    p->tags[i].name);
		buf_addc(&gem, '\n');
	}
	buf_adds(&gem, "\n=> /index.gmi Home\n");
	gmi_path(&rel, p->out_path);
	rc = output_write(dir, rel.ptr, gem.ptr, gem.len, NULL, d);
out:
	diag_free(quiet);
	buf_release(&text);
	buf_release(&gem);
	buf_release(&rel);
	return rc;
}

int
capsule_write(const struct site_config *c, const struct site_index *ix,
    const char *dir, struct diag *d)
{
	struct buf idx = BUF_INIT, url = BUF_INIT;
	size_t i;
	int rc = 0;

	if (fs_mkdirs_published(dir) == -1) {
		diag_error(d, dir, 0, "cannot create the capsule folder");
		return -1;
	}
	buf_printf(&idx, "# %s\n\n%s\n\n", c->site_title, c->site_description);
	if (ix->nposts > 0)
		buf_adds(&idx, "## Posts\n\n");
	for (i = 0; i < ix->nposts; i++) {
		if (page(c, ix, ix->posts[i], dir, d) != 0)
			continue;
		buf_clear(&url);
		gemtext_url(&url, ix->posts[i]->url);
		buf_printf(&idx, "=> %s ", url.ptr);
		ymd(&idx, ix->posts[i]);
		buf_printf(&idx, " %s\n", ix->posts[i]->title);
	}
	if (ix->npages > 0)
		buf_adds(&idx, "\n## Pages\n\n");
	for (i = 0; i < ix->npages; i++) {
		if (page(c, ix, ix->pages[i], dir, d) != 0)
			continue;
		buf_clear(&url);
		gemtext_url(&url, ix->pages[i]->url);
		buf_printf(&idx, "=> %s %s\n", url.ptr, ix->pages[i]->title);
	}
	if (c->gemini_url[0] != '\0')
		buf_printf(&idx, "\n=> %s/ This capsule's address\n",
		    c->gemini_url);
	if (output_write(dir, "index.gmi", idx.ptr, idx.len, NULL, d) == -1)
		rc = -1;
	buf_release(&idx);
	buf_release(&url);
	return rc;
}
