/* What deploy renew reads from Caddy: the automation policies its admin
 * API returns, rewritten so that some names are due, and a line of its
 * JSON log, searched for a failed renewal of those names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "caddy_renew.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "www.blog.test", "blog.test" };
	struct buf out = BUF_INIT, err = BUF_INIT;
	char *text;

	/* both readers take a NUL-terminated string */
	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	caddy_policies_due(text, names, 1 + size % 2, &out, &err);
	buf_clear(&out);
	caddy_log_error(text, names, 2, &out);
	buf_release(&out);
	buf_release(&err);
	free(text);
	return 0;
}
