#include "gitinfo.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>


#include "diag.h"
#include "hash.h"
#include "mem.h"
#include "lazy_git.h"

struct gfile {
	char	*path;	/* relative to the work tree */
	time_t	 when;
};

struct gitinfo {
	char		*workdir;	/* real path, ending in '/' */
	struct gfile	*files;
	size_t		 n, cap;
	size_t		*slots;		/* open addressing, index + 1 */
	size_t		 nslots;
};

static size_t
slot_of(const struct gitinfo *g, const char *path)
{
	return (size_t)hash64(path, strlen(path)) & (g->nslots - 1);
}

static struct gfile *
find(const struct gitinfo *g, const char *path)
{
	size_t h, k;

	if (g->nslots == 0)
		return NULL;
	h = slot_of(g, path);
	while ((k = g->slots[h]) != 0) {
		if (strcmp(g->files[k - 1].path, path) == 0)
			return &g->files[k - 1];
		h = (h + 1) & (g->nslots - 1);
	}
	return NULL;
}

static void
rehash(struct gitinfo *g)
{
	size_t i, h;

	free(g->slots);
	g->nslots = 64;
	while (g->nslots < g->cap * 2)
		g->nslots *= 2;
	g->slots = xcalloc(g->nslots, sizeof(*g->slots));
	for (i = 0; i < g->n; i++) {
		h = slot_of(g, g->files[i].path);
		while (g->slots[h] != 0)
			h = (h + 1) & (g->nslots - 1);
		g->slots[h] = i + 1;
	}
}

/* Records path at when unless a newer commit already did. */
static void
note(struct gitinfo *g, const char *path, time_t when)
{
	struct gfile *f = find(g, path);
	size_t h;

	if (f != NULL) {
		if (when > f->when)
			f->when = when;
		return;
	}
	if (g->n + 1 > g->cap) {
		xgrow((void **)&g->files, &g->cap, g->n + 1, sizeof(*g->files));
		rehash(g);
	}
	g->files[g->n].path = xstrdup(path);
	g->files[g->n].when = when;
	h = slot_of(g, path);
	while (g->slots[h] != 0)
		h = (h + 1) & (g->nslots - 1);
	g->slots[h] = ++g->n;
}

static int
each_delta(const git_diff_delta *delta, float progress, void *arg)
{
	void **a = arg;

	(void)progress;
	note(a[0], delta->new_file.path, *(time_t *)a[1]);
	return 0;
}

/* Every path a commit changed against its first parent (or added). */
static int
walk_commit(struct gitinfo *g, git_repository *repo, git_commit *c)
{
	git_commit *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	time_t when = (time_t)git_commit_time(c);
	void *arg[2] = { g, &when };
	int rc = -1;

	if (git_commit_tree(&tree, c) != 0)
		goto out;
	if (git_commit_parentcount(c) > 0) {
		if (git_commit_parent(&parent, c, 0) != 0 ||
		    git_commit_tree(&ptree, parent) != 0)
			goto out;
	}
	if (git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL) != 0)
		goto out;
	git_diff_foreach(diff, each_delta, NULL, NULL, NULL, arg);
	rc = 0;
out:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return rc;
}

struct gitinfo *
gitinfo_load(const char *site_dir, struct diag *d)
{
	struct gitinfo *g = NULL;
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_commit *c;
	git_oid oid;
	char real[PATH_MAX];
	const char *wd;
	size_t n;

	if (lazy_git_load(d) == -1)
		return NULL;
	git_libgit2_init();
	if (git_repository_open_ext(&repo, site_dir, 0, NULL) != 0 ||
	    (wd = git_repository_workdir(repo)) == NULL) {
		diag_warn(d, site_dir, 0, "git_lastmod is set but this folder "
		    "is not in a git work tree: dates from front matter only");
		goto out;
	}
	if (realpath(wd, real) == NULL &&
	    strfit(real, sizeof(real), "%s", wd) == -1) {
		diag_warn(d, site_dir, 0, "git_lastmod is set but the path of "
		    "its git work tree is too long: dates from front matter "
		    "only");
		goto out;
	}
	g = xcalloc(1, sizeof(*g));
	n = strlen(real);
	g->workdir = xmalloc(n + 2);
	memcpy(g->workdir, real, n);
	if (n == 0 || real[n - 1] != '/')
		g->workdir[n++] = '/';
	g->workdir[n] = '\0';
	if (git_revwalk_new(&walk, repo) != 0 ||
	    git_revwalk_push_head(walk) != 0) {
		/* a repository with no commit yet: nothing is dated */
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	while (git_revwalk_next(&oid, walk) == 0) {
		if (git_commit_lookup(&c, repo, &oid) != 0)
			continue;
		walk_commit(g, repo, c);
		git_commit_free(c);
	}
out:
	git_revwalk_free(walk);
	git_repository_free(repo);
	return g;
}

void
gitinfo_free(struct gitinfo *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->n; i++)
		free(g->files[i].path);
	free(g->files);
	free(g->slots);
	free(g->workdir);
	free(g);
	git_libgit2_shutdown();
}

time_t
gitinfo_lastmod(const struct gitinfo *g, const char *path)
{
	char real[PATH_MAX];
	const struct gfile *f;
	size_t n = strlen(g->workdir);

	if (realpath(path, real) == NULL || strncmp(real, g->workdir, n) != 0)
		return 0;
	f = find(g, real + n);
	return f ? f->when : 0;
}
