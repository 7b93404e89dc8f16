/* A TSIG key file named by deploy.yaml's dns.key, as tsig-keygen and
 * keymgr print it; on failure the message must not quote the secret. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dns_key k;
	char err[256];
	int line = 0;

	/* not NUL-terminated: the parser takes a length */
	if (dns_key_parse((const char *)data, size, &k, &line, err,
	    sizeof(err)) == 0) {
		if (k.name[0] == '\0' || k.alg[0] == '\0' ||
		    k.secret[0] == '\0')
			abort();
	} else if (memchr(err, '\0', sizeof(err)) == NULL)
		abort();
	dns_key_clear(&k);
	return 0;
}
