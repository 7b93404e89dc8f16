/*
 * Unit tests of the release modules: ids, the commit of an output tree
 * (what goes into it and what is refused), the commit message, URL
 * handling of the transport, and one full cycle through a local agent
 * (this program runs itself as the agent).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "agent.h"
#include "buf.h"
#include "diag.h"
#include "release.h"
#include "tap.h"
#include "transport.h"

static char tmp[] = "/tmp/test_release.XXXXXX";
static char self[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	fp = fopen(path, "w");
	if (fp == NULL) {
		perror(path);
		exit(2);
	}
	fputs(text, fp);
	fclose(fp);
}

static void
mk(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	mkdir(path, 0755);
}

static char *
P(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(bufs[i], sizeof(bufs[i]), "%s/%s", tmp, rel);
	return bufs[i];
}

/* Whether any recorded message contains s. */
static int
diag_has(struct diag *d, const char *s)
{
	size_t i;

	for (i = 0; i < diag_total(d); i++)
		if (strstr(diag_message(d, i), s) != NULL)
			return 1;
	return 0;
}

/* The content of path inside the tree of refs/releases/<id>, or NULL. */
static char *
blob_at(const char *repo_dir, const char *id, const char *path)
{
	git_repository *repo;
	git_commit *c;
	git_tree *t;
	git_tree_entry *e;
	git_blob *b;
	char ref[128], *out = NULL;
	git_oid oid;

	snprintf(ref, sizeof(ref), "refs/releases/%s", id);
	if (git_repository_open_bare(&repo, repo_dir) != 0)
		return NULL;
	if (git_reference_name_to_id(&oid, repo, ref) == 0 &&
	    git_commit_lookup(&c, repo, &oid) == 0) {
		if (git_commit_tree(&t, c) == 0) {
			if (git_tree_entry_bypath(&e, t, path) == 0) {
				if (git_blob_lookup(&b, repo, git_tree_entry_id(e)) == 0) {
					out = strndup(git_blob_rawcontent(b),
					    (size_t)git_blob_rawsize(b));
					git_blob_free(b);
				}
				git_tree_entry_free(e);
			}
			git_tree_free(t);
		}
		git_commit_free(c);
	}
	git_repository_free(repo);
	return out;
}

static void
test_ids(void)
{
	OK(release_id_valid("20261202T161530Z-0123456789ab"), "valid id");
	OK(!release_id_valid("20261202T161530Z-0123456789AB"), "upper-case hex");
	OK(!release_id_valid("20261202T161530Z-0123456789a"), "short hash");
	OK(!release_id_valid("20261202T161530-0123456789ab"), "no Z");
	OK(!release_id_valid("../../etc/passwd"), "path");
	OK(!release_id_valid(""), "empty");
	OK(!release_id_valid(NULL), "NULL");
}

static void
test_commit(void)
{
	struct diag *d = diag_new();
	char id1[RELEASE_ID_MAX], id2[RELEASE_ID_MAX], id3[RELEASE_ID_MAX];
	char *s;
	git_repository *repo;
	git_commit *c;
	git_oid oid;
	char ref[128];

	mk("out");
	mk("out/css");
	mk("out/empty");
	mk("out/.well-known");
	put("out/index.html", "<h1>hi</h1>\n");
	put("out/css/style.css", "body{}\n");
	put("out/.well-known/security.txt", "Contact: x\n");
	IS_INT(release_commit(P("r.git"), P("out"), "first\n", id1, d), 0,
	    "commit a tree");
	OK(release_id_valid(id1), "commit gives a valid id (%s)", id1);
	s = blob_at(P("r.git"), id1, "index.html");
	IS_STR(s, "<h1>hi</h1>\n", "file content in the release");
	free(s);
	s = blob_at(P("r.git"), id1, ".well-known/release");
	OK(s != NULL && strncmp(s, id1, strlen(id1)) == 0 &&
	    strcmp(s + strlen(id1), "\n") == 0, ".well-known/release holds the id");
	free(s);
	s = blob_at(P("r.git"), id1, ".well-known/security.txt");
	IS_STR(s, "Contact: x\n", "other .well-known files are kept");
	free(s);
	OK(blob_at(P("r.git"), id1, "empty") == NULL, "empty folders are left out");

	/* A root commit with the message, and HEAD's branch moved to it. */
	snprintf(ref, sizeof(ref), "refs/releases/%s", id1);
	OK(git_repository_open_bare(&repo, P("r.git")) == 0, "bare repository");
	OK(git_reference_name_to_id(&oid, repo, ref) == 0 &&
	    git_commit_lookup(&c, repo, &oid) == 0, "release ref");
	IS_INT(git_commit_parentcount(c), 0, "releases are root commits");
	IS_STR(git_commit_message(c), "first\n", "message");
	{
		git_oid head;

		OK(git_reference_name_to_id(&head, repo, "HEAD") == 0 &&
		    git_oid_equal(&head, &oid), "HEAD follows the last release");
	}
	git_commit_free(c);
	git_repository_free(repo);

	/* Same content: same hash part; same second: same id. */
	IS_INT(release_commit(P("r.git"), P("out"), "again\n", id2, d), 0,
	    "commit again");
	IS_STR(id2 + 17, id1 + 17, "same content, same hash part");
	if (strncmp(id1, id2, 16) == 0)
		IS_STR(id2, id1, "same second and content: same release");
	put("out/index.html", "<h1>changed</h1>\n");
	IS_INT(release_commit(P("r.git"), P("out"), "third\n", id3, d), 0,
	    "commit changed tree");
	OK(strcmp(id3 + 17, id1 + 17) != 0, "changed content, other hash part");
	IS_INT(diag_total(d), 0, "no diagnostics so far");

	/* Refusals. */
	mk("bad");
	put("bad/a.html", "a");
	symlink("/etc/passwd", P("bad/passwd"));
	IS_INT(release_commit(P("r.git"), P("bad"), "x\n", id3, d), -1,
	    "a symbolic link is refused");
	OK(diag_has(d, "bad/passwd") && diag_has(d, "symbolic links"),
	    "the message names the link");
	unlink(P("bad/passwd"));
	mkfifo(P("bad/fifo"), 0644);
	IS_INT(release_commit(P("r.git"), P("bad"), "x\n", id3, d), -1,
	    "a fifo is refused");
	OK(diag_has(d, "not a regular file"), "fifo message");
	unlink(P("bad/fifo"));
	put("bad/.well-known", "file");
	IS_INT(release_commit(P("r.git"), P("bad"), "x\n", id3, d), -1,
	    ".well-known as a file is refused");
	mk("none");
	mk("none/sub");
	IS_INT(release_commit(P("r.git"), P("none"), "x\n", id3, d), -1,
	    "an empty tree is refused");
	OK(diag_has(d, "nothing to publish"), "empty tree message");
	IS_INT(release_commit(P("r.git"), P("missing"), "x\n", id3, d), -1,
	    "a missing folder is refused");
	diag_free(d);
}

static void
test_message(void)
{
	struct buf m = BUF_INIT;
	git_repository *repo;
	git_index *idx;
	git_signature *sig;
	git_tree *tree;
	git_oid tid, cid;
	char hex[GIT_OID_HEXSZ + 1], want[128];

	mk("plain");
	release_message(&m, P("plain"), "1.2.3");
	OK(strncmp(m.ptr, "Release of ", 11) == 0, "message starts with the time");
	OK(strstr(m.ptr, "Tool: deploy 1.2.3\n") != NULL, "tool version");
	OK(strstr(m.ptr, "Source:") == NULL, "no source outside a repository");

	mk("src");
	put("src/post.md", "hello\n");
	OK(git_repository_init(&repo, P("src"), 0) == 0 &&
	    git_repository_index(&idx, repo) == 0 &&
	    git_index_add_bypath(idx, "post.md") == 0 &&
	    git_index_write(idx) == 0 &&
	    git_index_write_tree(&tid, idx) == 0 &&
	    git_tree_lookup(&tree, repo, &tid) == 0 &&
	    git_signature_now(&sig, "t", "t@example.org") == 0 &&
	    git_commit_create(&cid, repo, "HEAD", sig, sig, NULL, "c\n",
	    tree, 0, NULL) == 0, "source repository");
	git_oid_tostr(hex, sizeof(hex), &cid);
	buf_clear(&m);
	release_message(&m, P("src"), NULL);
	snprintf(want, sizeof(want), "Source: %s\n", hex);
	OK(strstr(m.ptr, want) != NULL, "source commit in message:\n%s", m.ptr);
	put("src/post.md", "edited\n");
	buf_clear(&m);
	release_message(&m, P("src"), NULL);
	snprintf(want, sizeof(want), "Source: %s+dirty\n", hex);
	OK(strstr(m.ptr, want) != NULL, "dirty work tree marked:\n%s", m.ptr);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
	git_repository_free(repo);
	buf_release(&m);
}

static void
test_urls(void)
{
	static const char *bad[] = { "ftp://h", "ssh://", "ssh://u@",
	    "ssh://u@h:0", "ssh://u@h:70000", "ssh://u@h:2x", "ssh://u@h/path",
	    "ssh://-oProxyCommand=x", "" };
	struct transport_opts o;
	struct diag *d;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.root = P("host");
	o.site = "s";
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = diag_new();
		o.host = bad[i];
		OK(transport_open(&o, d) == NULL, "refused host '%s'", bad[i]);
		OK(diag_count(d, DIAG_ERROR) > 0, "message for '%s'", bad[i]);
		diag_free(d);
	}
}

static void
test_cycle(void)
{
	struct transport_opts o;
	struct transport *t;
	struct diag *d = diag_new();
	struct release_info *l;
	char id1[RELEASE_ID_MAX], id2[RELEASE_ID_MAX], prev[RELEASE_ID_MAX];
	char link[256];
	unsigned long long sent1, sent2;
	size_t n, removed;
	ssize_t k;

	mk("site");
	put("site/index.html", "one\n");
	OK(release_commit(P("c.git"), P("site"), "1\n", id1, d) == 0, "commit 1");
	memset(&o, 0, sizeof(o));
	o.host = "local";
	o.agent = self;
	o.root = strdup(P("host"));	/* P's buffers are reused */
	o.site = "blog";
	t = transport_open(&o, d);
	OK(t != NULL, "local agent starts");
	if (t == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	IS_INT(release_stage(t, id1, d), -1, "staging before sending fails");
	OK(diag_has(d, "never received"), "and says why");
	IS_INT(release_send(t, P("c.git"), id1, d), 0, "send");
	transport_bytes(t, &sent1, NULL);
	IS_INT(release_send(t, P("c.git"), id1, d), 0, "send again");
	transport_bytes(t, &sent2, NULL);
	OK(sent2 - sent1 < 200, "sending a release the host has sends no pack "
	    "(%llu bytes)", sent2 - sent1);
	IS_INT(release_activate(t, id1, prev, d), 0, "activate");
	IS_STR(prev, "", "no previous release");
	k = readlink(P("host/blog/current"), link, sizeof(link) - 1);
	link[k > 0 ? k : 0] = '\0';
	OK(k > 0 && strcmp(link + 9, id1) == 0, "current -> releases/%s", id1);
	transport_close(t, d);

	sleep(1);
	put("site/index.html", "two\n");
	OK(release_commit(P("c.git"), P("site"), "2\n", id2, d) == 0, "commit 2");
	t = transport_open(&o, d);
	OK(t != NULL && release_send(t, P("c.git"), id2, d) == 0 &&
	    release_stage(t, id2, d) == 0, "send and stage 2");
	k = readlink(P("host/blog/current"), link, sizeof(link) - 1);
	link[k > 0 ? k : 0] = '\0';
	OK(strcmp(link + 9, id1) == 0, "staging does not switch");
	IS_INT(release_switch(t, id2, prev, d), 0, "switch");
	IS_STR(prev, id1, "switch reports the previous release");
	IS_INT(release_list(t, &l, &n, d), 0, "list");
	IS_INT(n, 2, "two releases");
	if (n == 2) {
		IS_STR(l[0].id, id1, "oldest first");
		OK(l[0].previous && !l[0].current, "first is previous");
		OK(l[1].current && !l[1].previous, "second is current");
		OK(l[1].time >= l[0].time && l[0].time > 0, "commit times");
	}
	free(l);
	IS_INT(release_rollback(t, NULL, prev, d), 0, "rollback");
	IS_STR(prev, id1, "rolled back to the first");
	IS_INT(release_prune(t, 1, &removed, d), 0, "prune");
	IS_INT(removed, 0, "prune keeps current and previous");
	IS_INT(release_switch(t, "20000101T000000Z-000000000000", NULL, d), -1,
	    "switch to an unknown release fails");
	IS_INT(release_rollback(t, "bad", NULL, d), -1, "bad id refused");
	IS_INT(transport_close(t, d), 0, "agent exits cleanly");
	free((char *)o.root);
	diag_free(d);
}

int
main(int argc, char **argv)
{
	ssize_t n;
	pid_t pid;
	int status;

	if (argc > 1 && strcmp(argv[1], "agent") == 0)
		return cmd_agent(argc - 1, argv + 1);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0)
		self[n] = '\0';
	else if (realpath(argv[0], self) == NULL) {
		perror(argv[0]);
		return 2;
	}
	if (mkdtemp(tmp) == NULL) {
		perror(tmp);
		return 2;
	}
	git_libgit2_init();
	test_ids();
	test_commit();
	test_message();
	test_urls();
	test_cycle();
	git_libgit2_shutdown();
	if ((pid = fork()) == 0) {
		execlp("rm", "rm", "-rf", tmp, (char *)NULL);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &status, 0) == -1 || status != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return tap_done();
}
