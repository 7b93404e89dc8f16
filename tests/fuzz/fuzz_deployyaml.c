/* deploy.yaml: parsing and every check of the spec, fleets included. */
#include <stdint.h>

#include "diag.h"
#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", (const char *)data, size, d);

	spec_free(s);
	diag_free(d);
	return 0;
}
