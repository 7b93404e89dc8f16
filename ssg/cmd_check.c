/* ssg check: every internal link of the built site must resolve. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"

static const char check_usage[] =
    "usage: ssg check [-C DIR]\n"
    "\n"
    "Checks the built site (run ssg build first): every internal link,\n"
    "#anchor, image and stylesheet reference must resolve to a file in the\n"
    "output folder. Prints each problem as 'page: link: problem' and exits\n"
    "1 if there is any.\n";

int
cmd_check(struct cli *cli, int argc, char **argv)
{
	struct site_config c;
	struct diag *d;
	char *path, *out;
	size_t problems, pages, links;
	int rc;

	if ((rc = cmd_simple_args(cli, argc, argv, check_usage)) != 0)
		return rc == 1 ? 0 : rc;
	d = diag_new();
	path = path_join(cli->site_dir, "site.yaml");
	config_init(&c);
	rc = config_load(&c, path, 1, d);
	cli_print_diag(cli, d, 0);
	out = path_join(cli->site_dir, c.output_dir);
	if (!fs_is_dir(out)) {
		cli_error(cli, "%s: no built site here (run ssg build first)",
		    out);
		rc = -1;
		goto done;
	}
	problems = check_links(out, c.site_url, config_base_path(&c), stdout,
	    &pages, &links);
	if (!cli->quiet || problems)
		printf("%s links in %s pages checked: %s broken\n",
		    cli_num(links), cli_num(pages), cli_num(problems));
	if (problems)
		rc = -1;
done:
	free(out);
	free(path);
	config_release(&c);
	diag_free(d);
	return rc == 0 ? 0 : 1;
}
