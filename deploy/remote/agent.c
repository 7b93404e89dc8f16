/*
 * The agent's session: the site's folders and repository, the lock, the
 * line protocol and removing pruned releases. The requests themselves are
 * in agent_verbs.c.
 */

#include "agent.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "agent_int.h"
#include "buf.h"
#include "diag.h"
#include "mem.h"
#include "release.h"

static int
mkdirs(const char *path, struct diag *d)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int end, rc = -1;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		end = *s == '\0';
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST) {
			diag_error(d, p, 0, "mkdir: %s", strerror(errno));
			goto out;
		}
		if (end)
			break;
		*s = '/';
	}
	if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(d, path, 0, "not a folder");
		goto out;
	}
	rc = 0;
out:
	free(p);
	return rc;
}

/* Removes path and everything under it, without following links. */
int
agent_rmtree(const char *path, struct diag *d)
{
	struct stat st;
	struct dirent *de;
	struct buf sub = BUF_INIT;
	DIR *dp;
	int rc = 0;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) == -1) {
			diag_error(d, path, 0, "unlink: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if ((dp = opendir(path)) == NULL)
		return diag_error(d, path, 0, "opendir: %s", strerror(errno));
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		buf_clear(&sub);
		buf_printf(&sub, "%s/%s", path, de->d_name);
		if (agent_rmtree(sub.ptr, d) == -1)
			rc = -1;
	}
	closedir(dp);
	buf_release(&sub);
	if (rc == 0 && rmdir(path) == -1) {
		diag_error(d, path, 0, "rmdir: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

static int
site_name_valid(const char *s)
{
	if (s == NULL || *s == '\0' || *s == '.' || strlen(s) > 128)
		return 0;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789._-", *s) == NULL)
			return 0;
	return 1;
}

/* Leftovers of killed sessions: staging folders and temporary links. */
static void
clean_stale(struct agent *a, struct diag *d)
{
	struct buf p = BUF_INIT;
	struct dirent *de;
	DIR *dp;

	buf_printf(&p, "%s/staging", a->state);
	agent_rmtree(p.ptr, d);
	mkdir(p.ptr, 0755);
	/* Temporary files of a pack whose receiver was killed. */
	buf_clear(&p);
	buf_printf(&p, "%s/repo.git/objects/pack", a->state);
	if ((dp = opendir(p.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			struct buf f = BUF_INIT;

			if (strncmp(de->d_name, "pack_git2_", 10) != 0)
				continue;
			buf_printf(&f, "%s/%s", p.ptr, de->d_name);
			unlink(f.ptr);
			buf_release(&f);
		}
		closedir(dp);
	}
	buf_clear(&p);
	if ((dp = opendir(a->site)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if ((strncmp(de->d_name, ".current.tmp.", 13) != 0 &&
			    strncmp(de->d_name, ".previous.tmp.", 14) != 0))
				continue;
			buf_clear(&p);
			buf_printf(&p, "%s/%s", a->site, de->d_name);
			unlink(p.ptr);
		}
		closedir(dp);
	}
	buf_release(&p);
}

/* Waits up to 30 s for a session that is still finishing. */
int
agent_take_lock(struct agent *a, struct diag *d)
{
	struct buf p = BUF_INIT;
	struct flock fl;
	int i, rc = -1;

	if (a->lockfd != -1)
		return 0;
	buf_printf(&p, "%s/lock", a->state);
	if ((a->lockfd = open(p.ptr, O_RDWR | O_CREAT, 0644)) == -1) {
		diag_error(d, p.ptr, 0, "open: %s", strerror(errno));
		goto out;
	}
	fcntl(a->lockfd, F_SETFD, FD_CLOEXEC);
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	for (i = 0; fcntl(a->lockfd, F_SETLK, &fl) == -1; i++) {
		if ((errno != EACCES && errno != EAGAIN) || i == 300) {
			diag_error(d, p.ptr, 0, "another push to this site is "
			    "in progress (%s)", strerror(errno));
			close(a->lockfd);
			a->lockfd = -1;
			goto out;
		}
		usleep(100000);
	}
	clean_stale(a, d);
	rc = 0;
out:
	buf_release(&p);
	return rc;
}

/*
 * Removes pruned releases after this process has answered and exited: a
 * release is tens of thousands of files, and the push need not wait for
 * them. A detached child removes this session's trash/ entries, then any
 * left by a remover that was killed (named after a process now gone).
 */
static void
remove_pruned_later(struct agent *a)
{
	struct diag *scratch;
	struct dirent *de;
	struct buf p = BUF_INIT;
	const char *dot;
	size_t i;
	long pid;
	DIR *dp;
	int fd;

	fflush(NULL);
	if (fork() != 0)
		return;
	setsid();
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	/* Out of the way of the next push and of the web servers. */
	if (nice(19) == -1)
		(void)0;
	scratch = diag_new();
	for (i = 0; i < a->ntrash; i++)
		agent_rmtree(a->trash[i], scratch);
	buf_printf(&p, "%s/trash", a->state);
	if ((dp = opendir(p.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if ((dot = strrchr(de->d_name, '.')) == NULL ||
			    (pid = strtol(dot + 1, NULL, 10)) <= 0 ||
			    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;
			buf_clear(&p);
			buf_printf(&p, "%s/trash/%s", a->state, de->d_name);
			agent_rmtree(p.ptr, scratch);
		}
		closedir(dp);
	}
	_exit(0);
}

/*
 * Runs one request and prints its answer. Returns 0 on success, 1 when the
 * request failed, -1 when the session cannot go on.
 */
static int
run_request(struct agent *a, char **av, int ac)
{
	struct diag *d = diag_new();
	struct buf ok = BUF_INIT, msg = BUF_INIT;
	const struct agent_verb *v = agent_verb_find(av[0]);
	size_t i;
	char *p;
	int rc = 0;

	if (v == NULL) {
		diag_error(d, NULL, 0, "unknown request '%.40s'", av[0]);
		a->desync = 1;
	} else if (ac - 1 < v->minargs || ac - 1 > v->maxargs) {
		diag_error(d, NULL, 0, "%s: wrong number of arguments", v->name);
		if (v->streams)
			a->desync = 1;
	} else if (v->changes && agent_take_lock(a, d) == -1)
		;
	else if (v->fn(a, av, ac, &ok, d) == -1 && diag_total(d) == 0)
		diag_error(d, NULL, 0, "%s failed", v->name);
	/* Out of step with the pusher: answer once, then end the session. */
	if (a->desync)
		rc = -1;
	if (diag_count(d, DIAG_ERROR) > 0) {
		/* The pusher adds its own level: drop ours. */
		for (i = 0; i < diag_total(d); i++) {
			const char *m = diag_message(d, i), *lv;

			if (i > 0)
				buf_adds(&msg, "; ");
			if (strncmp(m, "error: ", 7) == 0)
				m += 7;
			else if ((lv = strstr(m, ": error: ")) != NULL) {
				buf_add(&msg, m, lv - m);
				m = lv + 7;
			}
			buf_adds(&msg, m);
		}
		for (p = msg.ptr; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		fprintf(a->out, "err %s\n", msg.ptr);
		diag_print(d, 0, stderr, 0);
	} else
		fprintf(a->out, "ok%s%s\n", ok.len > 0 ? " " : "", ok.ptr);
	if (fflush(a->out) == EOF)
		rc = -1;
	else if (rc == 0 && diag_count(d, DIAG_ERROR) > 0)
		rc = 1;
	buf_release(&ok);
	buf_release(&msg);
	diag_free(d);
	return rc;
}

static int
serve(struct agent *a)
{
	char *line = NULL, *av[8], *s;
	size_t cap = 0;
	ssize_t n;
	int ac, rc = 0;

	fprintf(a->out, "deploy-agent 1\n");
	fflush(a->out);
	while ((n = getline(&line, &cap, a->in)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		ac = 0;
		for (s = strtok(line, " "); s != NULL && ac < 7;
		    s = strtok(NULL, " "))
			av[ac++] = s;
		av[ac] = NULL;
		if (ac == 0)
			continue;
		if (strcmp(av[0], "quit") == 0)
			break;
		if (run_request(a, av, ac) == -1) {
			rc = -1;
			break;
		}
	}
	free(line);
	return rc;
}

static void
usage(void)
{
	fprintf(stderr, "usage: deploy agent --root DIR --site NAME "
	    "serve | list | stage ID | switch ID | rollback [ID] | prune KEEP\n");
}

int
cmd_agent(int argc, char **argv)
{
	const char *root = NULL, *site = NULL;
	struct agent a;
	struct diag *d;
	struct buf repo = BUF_INIT;
	int i, status = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc)
			root = argv[++i];
		else if (strcmp(argv[i], "--site") == 0 && i + 1 < argc)
			site = argv[++i];
		else
			break;
	}
	if (root == NULL || site == NULL || i >= argc) {
		usage();
		return 2;
	}
	d = diag_new();
	if (!site_name_valid(site)) {
		diag_error(d, NULL, 0, "'%s' is not a valid site name", site);
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return 2;
	}
	/* A vanished pusher must end this process by EOF/EPIPE, cleanly. */
	signal(SIGPIPE, SIG_IGN);
	/* Releases are world-readable, whatever the login's umask. */
	umask(022);
	memset(&a, 0, sizeof(a));
	a.lockfd = -1;
	a.in = stdin;
	a.out = stdout;
	git_libgit2_init();
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s/%s", root, site);
		a.site = buf_detach(&b, NULL);
		buf_printf(&b, "%s/.deploy/%s", root, site);
		a.state = buf_detach(&b, NULL);
	}
	buf_printf(&repo, "%s/repo.git", a.state);
	{
		struct buf rel = BUF_INIT, stg = BUF_INIT, tr = BUF_INIT;

		buf_printf(&rel, "%s/releases", a.site);
		buf_printf(&stg, "%s/staging", a.state);
		buf_printf(&tr, "%s/trash", a.state);
		int bad = mkdirs(rel.ptr, d) == -1 || mkdirs(stg.ptr, d) == -1 ||
		    mkdirs(tr.ptr, d) == -1;

		buf_release(&rel);
		buf_release(&stg);
		buf_release(&tr);
		if (bad)
			goto out;
	}
	if (access(repo.ptr, F_OK) == 0 ?
	    git_repository_open_bare(&a.repo, repo.ptr) != 0 :
	    git_repository_init(&a.repo, repo.ptr, 1) != 0) {
		release_git_error(d, repo.ptr, "release repository");
		goto out;
	}
	if (strcmp(argv[i], "serve") == 0)
		status = serve(&a) == 0 ? 0 : 1;
	else {
		/* One request from the command line, answered on stdout. */
		if (strcmp(argv[i], "pack") == 0 || strcmp(argv[i], "have") == 0 ||
		    argc - i > 7) {
			usage();
			status = 2;
			goto out;
		}
		status = run_request(&a, argv + i, argc - i) == 0 ? 0 : 1;
	}
out:
	diag_print(d, 0, stderr, 0);
	if (a.lockfd != -1)
		close(a.lockfd);
	if (a.ntrash > 0)
		remove_pruned_later(&a);
	while (a.ntrash > 0)
		free(a.trash[--a.ntrash]);
	free(a.trash);
	git_repository_free(a.repo);
	git_libgit2_shutdown();
	free(a.site);
	free(a.state);
	buf_release(&repo);
	diag_free(d);
	return status;
}
