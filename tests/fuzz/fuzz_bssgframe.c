/* A BSSG site's header.html and footer.html: the input is the header,
 * then after a NUL byte the footer; both stages of filling run over them,
 * with values taken from the input too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bssg_frame.h"
#include "buf.h"
#include "diag.h"
#include "locale.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *footer, word[16];
	struct diag *d = diag_new();
	struct locale *l = locale_load("en", NULL, NULL, NULL, d);
	struct bssg_frame *f;
	struct bssg_site s;
	struct bssg_page p;
	struct buf out = BUF_INIT;

	memcpy(text, data, size);
	text[size] = '\0';
	footer = strlen(text) < size ? text + strlen(text) + 1 : text + size;
	snprintf(word, sizeof(word), "%.*s", (int)(size < 8 ? size : 8), text);
	f = bssg_frame_new(text, footer);
	memset(&s, 0, sizeof(s));
	s.header_menu = s.footer_menu = "<a href=\"/\">Home</a>";
	s.lang = "en";
	s.rss_filename = "rss.xml";
	s.rel_me_links = s.custom_css_link = "";
	s.site_title = word;
	s.site_description = "${SITE_TITLE}";
	s.l = l;
	bssg_frame_prepare(f, &s, d);
	memset(&p, 0, sizeof(p));
	p.site_title = p.title = p.description = word;
	p.site_url = "https://example.org";
	p.url = "/";
	p.og_type = "website";
	p.image = size % 2 ? word : NULL;
	p.fediverse_creator = size % 3 ? "@a@b" : NULL;
	p.tag_rss_link = size % 5 ? "<link>" : NULL;
	p.author_name = "A & B";
	p.year = 2026;
	p.is_post = size % 2;
	bssg_frame_header(f, &p, &out);
	bssg_frame_footer(f, &p, &out);
	buf_release(&out);
	bssg_frame_free(f);
	locale_free(l);
	diag_free(d);
	free(text);
	return 0;
}
