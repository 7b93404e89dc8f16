/* Markdown to gemtext: any text, as a post body, through the converter
 * the Gemini capsule uses. */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "gemtext.h"
#include "markdown.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct buf out = BUF_INIT;

	if (!ready) {
		markdown_init();
		ready = 1;
	}
	gemtext_from_markdown((const char *)data, size, size % 2, &out);
	buf_release(&out);
	return 0;
}
