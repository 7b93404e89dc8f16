#ifndef DEPLOY_AGENT_H
#define DEPLOY_AGENT_H

/*
 * The host side of releases: `deploy agent --root DIR --site NAME VERB`.
 *
 * Layout under DIR (a site jail may be given DIR/NAME and nothing else):
 *	NAME/releases/<id>/	checked-out, verified releases; a file that
 *				did not change shares its inode (hard link)
 *				with the release current when it was staged
 *	NAME/current -> releases/<id>	relative symbolic link: what is served
 *	NAME/previous -> releases/<id>	what was current before the last switch
 *	.deploy/NAME/repo.git/	bare repository, refs/releases/<id>
 *	.deploy/NAME/staging/	checkouts in progress; removed when found stale
 *	.deploy/NAME/trash/	pruned releases being removed in the background
 *	.deploy/NAME/lock	locked while a session changes anything
 * The web server's root is DIR/NAME/current. NAME is letters, digits,
 * '.', '_' and '-', not starting with '.'.
 *
 * VERB "serve" speaks the line protocol of release.c on stdin/stdout until
 * end of input or "quit". The other verbs run one request and print its
 * answer: "list", "stage ID", "switch ID", "rollback [ID]", "restore
 * CURRENT PREVIOUS" (either "-" for no link), "prune KEEP".
 * Answers end with a line "ok ..." or "err MESSAGE".
 */

/*
 * The `deploy agent` subcommand; argv[0] is "agent". Returns the process
 * exit status (0 success, 1 failure, 2 usage) for main() to exit with;
 * never exits itself. Diagnostics go to stderr, protocol to stdout.
 */
int	cmd_agent(int argc, char **argv);

#endif
