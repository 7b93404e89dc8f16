/*
 * Test driver for the release modules: the calls `deploy push`, `rollback`,
 * `releases` and `agent` make, without the rest of deploy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "buf.h"
#include "diag.h"
#include "release.h"
#include "transport.h"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: drv agent ARGS...\n"
	    "       drv commit REPO TREE\n"
	    "       drv message DIR\n"
	    "       drv push|rollback|list|prune [options] [ID|KEEP]\n"
	    "options: --host H --root DIR --site NAME --repo REPO --tree DIR\n"
	    "         --keep N --known-hosts F --identity F --agent PATH\n");
}

int
main(int argc, char **argv)
{
	struct transport_opts o;
	struct transport *t = NULL;
	struct diag *d;
	struct buf msg = BUF_INIT;
	struct release_info *list;
	const char *repo = NULL, *tree = NULL, *cmd, *arg = NULL;
	char id[RELEASE_ID_MAX], other[RELEASE_ID_MAX];
	unsigned long long sent, recv;
	size_t n, i;
	int keep = 0, rc = 1;

	if (argc < 2) {
		usage();
		return 2;
	}
	cmd = argv[1];
	if (strcmp(cmd, "agent") == 0)
		return cmd_agent(argc - 1, argv + 1);
	d = diag_new();
	if (strcmp(cmd, "message") == 0 && argc == 3) {
		release_message(&msg, argv[2], "test");
		fputs(msg.ptr, stdout);
		rc = 0;
		goto out;
	}
	if (strcmp(cmd, "commit") == 0 && argc == 4) {
		release_message(&msg, argv[3], "test");
		if (release_commit(argv[2], argv[3], msg.ptr, id, d) == 0) {
			printf("%s\n", id);
			rc = 0;
		}
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.host = "local";
	o.agent = argv[0];
	for (i = 2; i < (size_t)argc; i++) {
		const char *v = i + 1 < (size_t)argc ? argv[i + 1] : NULL;

		if (strncmp(argv[i], "--", 2) != 0) {
			arg = argv[i];
			continue;
		}
		if (v == NULL) {
			usage();
			rc = 2;
			goto out;
		}
		i++;
		if (strcmp(argv[i - 1], "--host") == 0)
			o.host = v;
		else if (strcmp(argv[i - 1], "--root") == 0)
			o.root = v;
		else if (strcmp(argv[i - 1], "--site") == 0)
			o.site = v;
		else if (strcmp(argv[i - 1], "--repo") == 0)
			repo = v;
		else if (strcmp(argv[i - 1], "--tree") == 0)
			tree = v;
		else if (strcmp(argv[i - 1], "--keep") == 0)
			keep = atoi(v);
		else if (strcmp(argv[i - 1], "--known-hosts") == 0)
			o.known_hosts = v;
		else if (strcmp(argv[i - 1], "--identity") == 0)
			o.identity = v;
		else if (strcmp(argv[i - 1], "--agent") == 0)
			o.agent = v;
		else {
			usage();
			rc = 2;
			goto out;
		}
	}
	if (strcmp(cmd, "push") == 0) {
		if (repo == NULL || tree == NULL) {
			usage();
			rc = 2;
			goto out;
		}
		release_message(&msg, tree, "test");
		if (release_commit(repo, tree, msg.ptr, id, d) == -1)
			goto out;
		printf("id %s\n", id);
		fflush(stdout);	/* seen even if this process is killed */
		if ((t = transport_open(&o, d)) == NULL)
			goto out;
		if (release_send(t, repo, id, d) == -1)
			goto out;
		transport_bytes(t, &sent, &recv);
		printf("sent %llu\nreceived %llu\n", sent, recv);
		if (release_activate(t, id, other, d) == -1)
			goto out;
		printf("previous %s\n", other[0] != '\0' ? other : "-");
		if (keep > 0) {
			if (release_prune(t, keep, &n, d) == -1)
				goto out;
			printf("pruned %zu\n", n);
		}
		rc = 0;
	} else if (strcmp(cmd, "rollback") == 0) {
		if ((t = transport_open(&o, d)) == NULL ||
		    release_rollback(t, arg, id, d) == -1)
			goto out;
		printf("current %s\n", id);
		rc = 0;
	} else if (strcmp(cmd, "prune") == 0) {
		if (arg == NULL) {
			usage();
			rc = 2;
			goto out;
		}
		if ((t = transport_open(&o, d)) == NULL ||
		    release_prune(t, atoi(arg), &n, d) == -1)
			goto out;
		printf("pruned %zu\n", n);
		rc = 0;
	} else if (strcmp(cmd, "list") == 0) {
		if ((t = transport_open(&o, d)) == NULL ||
		    release_list(t, &list, &n, d) == -1)
			goto out;
		for (i = 0; i < n; i++)
			printf("%s %lld%s%s\n", list[i].id, list[i].time,
			    list[i].current ? " current" : "",
			    list[i].previous ? " previous" : "");
		free(list);
		rc = 0;
	} else {
		usage();
		rc = 2;
	}
out:
	if (transport_close(t, d) == -1 && rc == 0)
		rc = 1;
	diag_print(d, 0, stderr, 0);
	diag_free(d);
	buf_release(&msg);
	return rc;
}
