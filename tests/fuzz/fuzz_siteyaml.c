/* site.yaml as the build loads it (from a file: config_load reads paths). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[] = "/tmp/fuzz-siteyaml.XXXXXX";
	static int fd = -1;
	struct site_config c;
	struct diag *d = diag_new();

	if (fd == -1 && (fd = mkstemp(path)) == -1)
		abort();
	if (ftruncate(fd, 0) == -1 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	config_init(&c);
	config_load(&c, path, 0, d);
	config_hash(&c);
	config_release(&c);
	diag_free(d);
	return 0;
}
