#ifndef SSG_LAZY_GIT_H
#define SSG_LAZY_GIT_H

/*
 * libgit2, opened on first use (see dynlib.h). Include this
 * instead of the library's header, after every system header; call
 * lazy_git_load() before the first function of the library.
 */
#include <git2.h>

#include "diag.h"

#define LAZY_GIT_FUNCS(X) \
	X(git_commit_free) \
	X(git_commit_lookup) \
	X(git_commit_parent) \
	X(git_commit_parentcount) \
	X(git_commit_time) \
	X(git_commit_tree) \
	X(git_diff_foreach) \
	X(git_diff_free) \
	X(git_diff_tree_to_tree) \
	X(git_libgit2_init) \
	X(git_libgit2_shutdown) \
	X(git_repository_free) \
	X(git_repository_open_ext) \
	X(git_repository_workdir) \
	X(git_revwalk_free) \
	X(git_revwalk_new) \
	X(git_revwalk_next) \
	X(git_revwalk_push_head) \
	X(git_revwalk_sorting) \
	X(git_tree_free)

struct lazy_git {
#define LAZY_GIT_SLOT(f)	__typeof__(f) *f;
	LAZY_GIT_FUNCS(LAZY_GIT_SLOT)
#undef LAZY_GIT_SLOT
};
extern struct lazy_git lazy_git;

/* 0, or -1 with the reason in d (defined in dynlib.c). */
int	lazy_git_load(struct diag *d);

#ifndef LAZY_GIT_IMPL
#define git_commit_free	(lazy_git.git_commit_free)
#define git_commit_lookup	(lazy_git.git_commit_lookup)
#define git_commit_parent	(lazy_git.git_commit_parent)
#define git_commit_parentcount	(lazy_git.git_commit_parentcount)
#define git_commit_time	(lazy_git.git_commit_time)
#define git_commit_tree	(lazy_git.git_commit_tree)
#define git_diff_foreach	(lazy_git.git_diff_foreach)
#define git_diff_free	(lazy_git.git_diff_free)
#define git_diff_tree_to_tree	(lazy_git.git_diff_tree_to_tree)
#define git_libgit2_init	(lazy_git.git_libgit2_init)
#define git_libgit2_shutdown	(lazy_git.git_libgit2_shutdown)
#define git_repository_free	(lazy_git.git_repository_free)
#define git_repository_open_ext	(lazy_git.git_repository_open_ext)
#define git_repository_workdir	(lazy_git.git_repository_workdir)
#define git_revwalk_free	(lazy_git.git_revwalk_free)
#define git_revwalk_new	(lazy_git.git_revwalk_new)
#define git_revwalk_next	(lazy_git.git_revwalk_next)
#define git_revwalk_push_head	(lazy_git.git_revwalk_push_head)
#define git_revwalk_sorting	(lazy_git.git_revwalk_sorting)
#define git_tree_free	(lazy_git.git_tree_free)
#endif

#endif
