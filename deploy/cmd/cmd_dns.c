/* DNS kept in step with the fleet, for apply, push and status: each
 * site's hosts checked and its domains' records compared or published
 * (engine_dns). */

#include <stdio.h>
#include <string.h>

#include "cmd_int.h"
#include "diag.h"
#include "engine.h"
#include "fleet.h"
#include "spec.h"

int
dc_dns(const struct opts *o, const struct spec *s, const char *only,
    int publish, struct diag *d)
{
	struct engine_opts eo;
	size_t k, j, m;
	int rc = 0, r;

	if (s->dns == NULL || dc_on_host.label != NULL)
		return 0;
	memset(&eo, 0, sizeof(eo));
	eo.cacert = o->cacert;
	eo.out = stdout;
	for (k = 0; k < s->nhosts; k++) {
		const struct spec *h = s->hosts[k];

		for (j = 0; j < h->nsites; j++) {
			const char *name = h->sites[j].name;
			struct opts all = *o;
			struct fleet f;

			if (only != NULL && strcmp(only, name) != 0)
				continue;
			/* each site once: on the first host that has it */
			for (m = 0; m < k && !spec_site(s->hosts[m], name);
			    m++)
				;
			if (m < k)
				continue;
			/* every host of the site, whatever --host says */
			all.only_host = NULL;
			if (dc_fleet_open(&f, &all, s, name, d) == -1) {
				rc = -1;
				continue;
			}
			r = engine_dns(&f, &eo, publish, d);
			if (r == -1 || (r == 1 && rc == 0))
				rc = r;
			if (fleet_close(&f, d) == -1)
				rc = -1;
		}
	}
	fflush(stdout);
	return rc;
}
