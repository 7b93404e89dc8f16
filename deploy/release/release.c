/*
 * Release ids and the pushing side of the line protocol: sending a
 * release's new objects to the host's agent (agent.h), then staging,
 * switching, rolling back, pruning and listing there. Committing a
 * release is in release_commit.c.
 */

#include "release.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "buf.h"
#include "diag.h"
#include "mem.h"
#include "release_int.h"
#include "transport.h"

void
release_git_error(struct diag *d, const char *file, const char *what)
{
	const git_error *e = git_error_last();

	diag_error(d, file, 0, "%s: %s", what,
	    e != NULL && e->message != NULL ? e->message : "libgit2 error");
}

int
release_id_valid(const char *s)
{
	static const char form[] = "DDDDDDDDTDDDDDDZ-HHHHHHHHHHHH";
	size_t i;

	if (s == NULL || strlen(s) != sizeof(form) - 1)
		return 0;
	for (i = 0; form[i] != '\0'; i++) {
		if (form[i] == 'D' && !isdigit((unsigned char)s[i]))
			return 0;
		if (form[i] == 'H' && strchr("0123456789abcdef", s[i]) == NULL)
			return 0;
		if (form[i] != 'D' && form[i] != 'H' && form[i] != s[i])
			return 0;
	}
	return 1;
}

void
release_test_pause(const char *point)
{
	const char *v = getenv("DEPLOY_TEST_PAUSE");
	size_t n = strlen(point);
	FILE *fp;

	if (v == NULL || strncmp(v, point, n) != 0 || v[n] != ':')
		return;
	if ((fp = fopen(v + n + 1, "w")) != NULL) {
		fprintf(fp, "%ld\n", (long)getpid());
		fclose(fp);
	}
	sleep(60);
}

/*
 * Reads the agent's answer: data lines go to cb (when not NULL), then
 * "ok REST" (REST copied into rest) or "err MESSAGE" (recorded).
 */
static int
answer(struct transport *t, struct buf *rest,
    int (*cb)(const char *, void *), void *arg, struct diag *d)
{
	struct buf line = BUF_INIT;
	int rc = -1;

	for (;;) {
		if (transport_readline(t, &line, d) == -1)
			goto out;
		if (strcmp(line.ptr, "ok") == 0 ||
		    strncmp(line.ptr, "ok ", 3) == 0) {
			if (rest != NULL) {
				buf_clear(rest);
				if (line.len > 3)
					buf_adds(rest, line.ptr + 3);
			}
			rc = 0;
			goto out;
		}
		if (strncmp(line.ptr, "err ", 4) == 0) {
			diag_error(d, NULL, 0, "%s: %s", transport_name(t),
			    line.ptr + 4);
			goto out;
		}
		if (cb == NULL || cb(line.ptr, arg) == -1) {
			diag_error(d, NULL, 0, "%s: unexpected answer '%s'",
			    transport_name(t), line.ptr);
			goto out;
		}
	}
out:
	buf_release(&line);
	return rc;
}

struct have {
	git_oid		*oids;
	char		**ids;
	size_t		 n, cap, idcap;
};

static int
have_line(const char *line, void *arg)
{
	struct have *h = arg;
	char hex[GIT_OID_HEXSZ + 1];
	const char *sp;

	if (strncmp(line, "commit ", 7) != 0)
		return -1;
	line += 7;
	if ((sp = strchr(line, ' ')) == NULL || sp - line != GIT_OID_HEXSZ)
		return -1;
	memcpy(hex, line, GIT_OID_HEXSZ);
	hex[GIT_OID_HEXSZ] = '\0';
	xgrow((void **)&h->oids, &h->cap, h->n + 1, sizeof(*h->oids));
	xgrow((void **)&h->ids, &h->idcap, h->n + 1, sizeof(*h->ids));
	if (git_oid_fromstr(&h->oids[h->n], hex) != 0)
		return -1;
	h->ids[h->n++] = xstrdup(sp + 1);
	return 0;
}

struct sendstate {
	struct transport *t;
	struct diag	*d;
	size_t		 chunks;
};

static int
send_chunk(void *data, size_t size, void *arg)
{
	struct sendstate *s = arg;

	if (transport_printf(s->t, s->d, "%zx\n", size) == -1 ||
	    transport_write(s->t, data, size, s->d) == -1)
		return -1;
	if (++s->chunks == 2) {
		if (transport_flush(s->t, s->d) == -1)
			return -1;
		release_test_pause("transfer");
	}
	return 0;
}

/*
 * Adds to pb the objects of tree the host lacks: what is not, at the same
 * path, in one of the base trees (releases the host has). Unchanged
 * folders are skipped whole, so a push of a few changed files reads a few
 * trees, not the site. An object the host has at another path may be sent
 * again, which costs bytes, never correctness.
 */
static int
pack_new(git_packbuilder *pb, git_repository *repo, git_tree *tree,
    git_tree **bases, size_t nb, struct diag *d)
{
	const git_tree_entry *e, *be;
	git_tree **sub = NULL, *st = NULL;
	size_t i, k, nsub;
	int rc = -1, have;

	for (k = 0; k < nb; k++)
		if (git_oid_equal(git_tree_id(bases[k]), git_tree_id(tree)))
			return 0;
	if (git_packbuilder_insert(pb, git_tree_id(tree), NULL) != 0)
		goto gitfail;
	sub = xcalloc(nb + 1, sizeof(*sub));
	for (i = 0; i < git_tree_entrycount(tree); i++) {
		e = git_tree_entry_byindex(tree, i);
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
			for (k = 0, have = 0; k < nb && !have; k++)
				have = (be = git_tree_entry_byname(bases[k],
				    git_tree_entry_name(e))) != NULL &&
				    git_oid_equal(git_tree_entry_id(be),
				    git_tree_entry_id(e));
			if (!have && git_packbuilder_insert(pb,
			    git_tree_entry_id(e), NULL) != 0)
				goto gitfail;
			continue;
		}
		if (git_tree_entry_type(e) != GIT_OBJECT_TREE)
			continue;	/* refused by the host anyway */
		for (k = 0, nsub = 0; k < nb; k++)
			if ((be = git_tree_entry_byname(bases[k],
			    git_tree_entry_name(e))) != NULL &&
			    git_tree_entry_type(be) == GIT_OBJECT_TREE &&
			    git_tree_lookup(&sub[nsub], repo,
			    git_tree_entry_id(be)) == 0)
				nsub++;
		rc = git_tree_lookup(&st, repo, git_tree_entry_id(e)) != 0 ? -1 :
		    pack_new(pb, repo, st, sub, nsub, d);
		git_tree_free(st);
		st = NULL;
		while (nsub > 0)
			git_tree_free(sub[--nsub]);
		if (rc == -1)
			goto gitfail;
		rc = -1;
	}
	rc = 0;
	goto out;
gitfail:
	if (diag_total(d) == 0)
		release_git_error(d, NULL, "building pack");
out:
	free(sub);
	return rc;
}

int
release_send(struct transport *t, const char *repo_dir, const char *id,
    struct diag *d)
{
	git_repository *repo = NULL;
	git_packbuilder *pb = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL, **bases = NULL;
	size_t i, nb = 0;
	git_oid oid;
	struct have h = { NULL, NULL, 0, 0, 0 };
	struct sendstate ss;
	char refname[128], hex[GIT_OID_HEXSZ + 1];
	int rc = -1;

	git_libgit2_init();
	if (!release_id_valid(id)) {
		diag_error(d, NULL, 0, "'%s' is not a release id", id);
		goto out;
	}
	xsnprintf(refname, sizeof(refname), REF_PREFIX "%s", id);
	if (git_repository_open_bare(&repo, repo_dir) != 0) {
		release_git_error(d, repo_dir, "opening release repository");
		goto out;
	}
	if (git_reference_name_to_id(&oid, repo, refname) != 0) {
		diag_error(d, repo_dir, 0, "no release %s", id);
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &oid);
	if (transport_printf(t, d, "have\n") == -1 ||
	    answer(t, NULL, have_line, &h, d) == -1)
		goto out;
	for (i = 0; i < h.n; i++)
		if (git_oid_equal(&h.oids[i], &oid) && strcmp(h.ids[i], id) == 0) {
			rc = 0;		/* already there */
			goto out;
		}

	if (git_packbuilder_new(&pb, repo) != 0 ||
	    git_commit_lookup(&commit, repo, &oid) != 0 ||
	    git_commit_tree(&tree, commit) != 0) {
		release_git_error(d, repo_dir, "preparing pack");
		goto out;
	}
	git_packbuilder_set_threads(pb, 0);
	/* The trees of the releases the host has and we know of. */
	bases = xcalloc(h.n + 1, sizeof(*bases));
	for (i = 0; i < h.n; i++) {
		git_commit *hc;

		if (git_oid_equal(&h.oids[i], &oid) ||
		    git_commit_lookup(&hc, repo, &h.oids[i]) != 0)
			continue;
		if (git_commit_tree(&bases[nb], hc) == 0)
			nb++;
		git_commit_free(hc);
	}
	if (git_packbuilder_insert(pb, &oid, NULL) != 0 ||
	    pack_new(pb, repo, tree, bases, nb, d) == -1) {
		if (diag_total(d) == 0)
			release_git_error(d, repo_dir, "building pack");
		goto out;
	}
	if (transport_printf(t, d, "pack %s %s\n", id, hex) == -1)
		goto out;
	ss.t = t;
	ss.d = d;
	ss.chunks = 0;
	if (git_packbuilder_foreach(pb, send_chunk, &ss) != 0) {
		if (diag_total(d) == 0)
			release_git_error(d, repo_dir, "sending pack");
		goto out;
	}
	if (transport_printf(t, d, "0\n") == -1 || answer(t, NULL, NULL, NULL, d) == -1)
		goto out;
	rc = 0;
out:
	for (i = 0; i < h.n; i++)
		free(h.ids[i]);
	free(h.ids);
	free(h.oids);
	for (i = 0; i < nb; i++)
		git_tree_free(bases[i]);
	free(bases);
	git_tree_free(tree);
	git_commit_free(commit);
	git_packbuilder_free(pb);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

static int
copy_id(char *out, const char *s, struct diag *d)
{
	if (out == NULL)
		return 0;
	if (strcmp(s, "-") == 0 || *s == '\0') {
		out[0] = '\0';
		return 0;
	}
	if (!release_id_valid(s)) {
		diag_error(d, NULL, 0, "agent answered a bad release id '%s'", s);
		return -1;
	}
	xsnprintf(out, RELEASE_ID_MAX, "%s", s);
	return 0;
}

static int
simple(struct transport *t, const char *verb, const char *id, char *out,
    struct diag *d)
{
	struct buf rest = BUF_INIT;
	int rc = -1;

	if (id != NULL && !release_id_valid(id))
		return diag_error(d, NULL, 0, "'%s' is not a release id", id);
	if (transport_printf(t, d, "%s%s%s\n", verb, id != NULL ? " " : "",
	    id != NULL ? id : "") == -1 ||
	    answer(t, &rest, NULL, NULL, d) == -1)
		goto out;
	rc = copy_id(out, rest.ptr, d);
out:
	buf_release(&rest);
	return rc;
}

int
release_stage(struct transport *t, const char *id, struct diag *d)
{
	return simple(t, "stage", id, NULL, d);
}

int
release_switch(struct transport *t, const char *id, char *previous_out,
    struct diag *d)
{
	return simple(t, "switch", id, previous_out, d);
}

int
release_activate(struct transport *t, const char *id, char *previous_out,
    struct diag *d)
{
	if (release_stage(t, id, d) == -1)
		return -1;
	return release_switch(t, id, previous_out, d);
}

int
release_rollback(struct transport *t, const char *id, char *now_out,
    struct diag *d)
{
	return simple(t, "rollback", id, now_out, d);
}

int
release_restore(struct transport *t, const char *current,
    const char *previous, struct diag *d)
{
	struct buf rest = BUF_INIT;
	const char *ids[2] = { current, previous };
	int i, rc = -1;

	for (i = 0; i < 2; i++)
		if (ids[i][0] != '\0' && !release_id_valid(ids[i])) {
			diag_error(d, NULL, 0, "'%s' is not a release id",
			    ids[i]);
			return -1;
		}
	if (transport_printf(t, d, "restore %s %s\n", current[0] ? current :
	    "-", previous[0] ? previous : "-") == -1 ||
	    answer(t, &rest, NULL, NULL, d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&rest);
	return rc;
}

int
release_prune(struct transport *t, int keep, size_t *removed_out,
    struct diag *d)
{
	struct buf rest = BUF_INIT;
	char *end;
	unsigned long n;
	int rc = -1;

	if (keep < 1) {
		diag_error(d, NULL, 0, "keep must be at least 1 (got %d)", keep);
		return -1;
	}
	if (transport_printf(t, d, "prune %d\n", keep) == -1 ||
	    answer(t, &rest, NULL, NULL, d) == -1)
		goto out;
	errno = 0;
	n = strtoul(rest.ptr, &end, 10);
	if (rest.len == 0 || *end != '\0' || errno != 0) {
		diag_error(d, NULL, 0, "agent answered a bad count '%s'", rest.ptr);
		goto out;
	}
	if (removed_out != NULL)
		*removed_out = n;
	rc = 0;
out:
	buf_release(&rest);
	return rc;
}

struct listing {
	struct release_info *v;
	size_t		 n, cap;
};

/* "release ID TIME FLAGS" */
static int
list_line(const char *line, void *arg)
{
	struct listing *l = arg;
	struct release_info *r;
	char id[RELEASE_ID_MAX], flags[64];
	long long when;

	if (sscanf(line, "release %63s %lld %63s", id, &when, flags) != 3 ||
	    !release_id_valid(id))
		return -1;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	r = &l->v[l->n++];
	memset(r, 0, sizeof(*r));
	memcpy(r->id, id, sizeof(id));
	r->time = when;
	r->current = strstr(flags, "current") != NULL;
	r->previous = strstr(flags, "previous") != NULL;
	r->failed = strstr(flags, "failed") != NULL;
	return 0;
}

int
release_list(struct transport *t, struct release_info **out, size_t *n,
    struct diag *d)
{
	struct listing l = { NULL, 0, 0 };

	*out = NULL;
	*n = 0;
	if (transport_printf(t, d, "list\n") == -1 ||
	    answer(t, NULL, list_line, &l, d) == -1) {
		free(l.v);
		return -1;
	}
	*out = l.v;
	*n = l.n;
	return 0;
}
