#ifndef DEPLOY_CHECKOUT_H
#define DEPLOY_CHECKOUT_H

#include <stddef.h>

#include <git2.h>

#include "diag.h"

/* One checkout in progress; start it zeroed, end it with checkout_release. */
struct checkout {
	size_t		 done, pause_at;
	size_t		 linked;	/* files shared with the base release */
	char		**written;	/* files written anew, to flush */
	size_t		 nwritten, cap;
};

/*
 * Writes tree into dir (which must not exist), each new file read back and
 * checked against its blob. A file whose blob base (a verified tree checked
 * out in basedir; NULL: none) has at the same path is hard-linked from it.
 * Calls release_test_pause("checkout") when co->pause_at files are done.
 */
int	checkout_tree(git_repository *repo, git_tree *tree, const char *dir,
	    git_tree *base, const char *basedir, struct checkout *co,
	    struct diag *d);
/* Makes the files written by checkout_tree durable; 0 or -1. */
int	checkout_flush(const struct checkout *co, const char *dir,
	    struct diag *d);
void	checkout_release(struct checkout *co);
/* The number of files in tree, folders included. */
size_t	checkout_count_files(git_tree *tree);

/*
 * Checks dir against tree: every file present with the size and blob id
 * of the tree, nothing else. The number of problems (each recorded in d,
 * the first few) goes to *problems; -1 on an internal error.
 */
int	verify_tree(git_repository *repo, git_tree *tree, const char *dir,
	    int *problems, struct diag *d);

#endif
