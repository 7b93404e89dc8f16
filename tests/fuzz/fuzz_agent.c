/* The host agent's requests, as `deploy agent ... serve` reads them on its
 * standard input from a pusher (over ssh: from the network). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "agent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char root[] = "/tmp/fuzz-agent.XXXXXX";
	static char path[] = "/tmp/fuzz-agent-in.XXXXXX";
	static int fd = -1;
	char *argv[] = { "agent", "--root", root, "--site", "s", "serve", NULL };

	if (fd == -1) {
		if (mkdtemp(root) == NULL || (fd = mkstemp(path)) == -1 ||
		    freopen("/dev/null", "w", stdout) == NULL)
			abort();
	}
	if (ftruncate(fd, 0) == -1 || pwrite(fd, data, size, 0) != (ssize_t)size ||
	    freopen(path, "r", stdin) == NULL)
		abort();
	cmd_agent(6, argv);
	return 0;
}
