/* The Mustache compiler and renderer: the input is a template, then after
 * a NUL byte a partial "p" it may include; the data is a small map of
 * strings, a list and a flag taken from the input too. */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "template.h"
#include "value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t tlen = nul ? (size_t)(nul - text) : size;
	struct tmpl_set *set = tmpl_set_new();
	struct diag *d = diag_new();
	struct val *ctx = val_map(), *list = val_list();
	const struct val *stack[1];
	struct buf out = BUF_INIT;
	char word[16];
	size_t i;

	snprintf(word, sizeof(word), "%.*s", (int)(tlen < 8 ? tlen : 8), text);
	val_set_str(ctx, "title", word);
	val_set_str(ctx, "html", "<b>&amp;\"'</b>");
	val_set(ctx, "flag", val_bool(size % 2));
	for (i = 0; i < 3; i++) {
		struct val *item = val_map();

		val_set_str(item, "name", word);
		val_push(list, item);
	}
	val_set(ctx, "items", list);
	stack[0] = ctx;
	if (tmpl_set_add(set, "t", text, tlen, d) == 0 &&
	    (nul == NULL || tmpl_set_add(set, "p", nul + 1,
	    size - tlen - 1, d) == 0) && tmpl_set_check(set, d) == 0)
		tmpl_render(set, "t", stack, 1, &out);
	buf_release(&out);
	val_free(ctx);
	diag_free(d);
	tmpl_set_free(set);
	return 0;
}
