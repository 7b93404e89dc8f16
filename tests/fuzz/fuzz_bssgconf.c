/* BSSG's config.sh as `ssg import bssg` reads it, and the site.yaml
 * written from it. */
#include <stdint.h>

#include "buf.h"
#include "diag.h"
#include "import_bssg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bssg_site *s = bssg_new("/nonexistent");
	struct diag *d = diag_new();
	struct buf out = BUF_INIT;

	bssg_parse(s, (const char *)data, size, "config.sh", d);
	bssg_get(s, "SITE_TITLE");
	bssg_write_yaml(s, &out, d);
	buf_release(&out);
	bssg_free(s);
	diag_free(d);
	return 0;
}
