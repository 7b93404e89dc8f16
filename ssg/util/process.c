/* Running a program to its end (process.h). */

#ifdef __linux__
#define _GNU_SOURCE	/* pipe2, mkostemp: close-on-exec from the start */
#endif

#include "process.h"

#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"

#define SPAWN_MAX_DEFAULT	((size_t)64 << 20)

extern char **environ;

/* Ours alone: a child started by another thread meanwhile must not hold
 * it open (a pipe it holds never ends: a server it starts keeps it for
 * good). dup2 clears it in our child. */
#ifndef __linux__
static void
cloexec(int fd)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}
#endif

int
process_pipe(int fds[2])
{
#ifdef __linux__
	return pipe2(fds, O_CLOEXEC);
#else
	/* (a fork on another thread between the two calls may take it) */
	if (pipe(fds) == -1)
		return -1;
	cloexec(fds[0]);
	cloexec(fds[1]);
	return 0;
#endif
}

int
process_tmpfile(void)
{
	const char *dir = getenv("TMPDIR");
	char path[96];
	int fd;

	if (dir == NULL || *dir != '/' || strlen(dir) > 60)
		dir = "/tmp";
	xsnprintf(path, sizeof(path), "%s/process.XXXXXX", dir);
#ifdef __linux__
	fd = mkostemp(path, O_CLOEXEC);
#else
	if ((fd = mkstemp(path)) != -1)
		cloexec(fd);
#endif
	if (fd != -1)
		unlink(path);
	return fd;
}

/*
 * A descriptor holding data, read from its start: an unlinked temporary
 * file, so that the child reads its input at its pace and no pipe has to
 * be fed while another is drained (nor a SIGPIPE taken if it stops
 * reading). -1 with errno.
 */
static int
data_fd(const char *data, size_t n)
{
	size_t off = 0;
	ssize_t w;
	int fd;

	if ((fd = process_tmpfile()) == -1)
		return -1;
	while (off < n) {
		if ((w = write(fd, data + off, n - off)) == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Appends what fd holds from its start to b, up to max bytes in all. */
static void
slurp(int fd, struct buf *b, size_t max)
{
	char chunk[8192];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) == -1)
		return;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0 && b != NULL && b->len < max)
			buf_add(b, chunk, (size_t)n < max - b->len ?
			    (size_t)n : max - b->len);
}

int
process_run(char *const argv[], const struct process_opts *o,
    struct process_result *r)
{
	static const struct process_opts none;
	struct process_result own;
	size_t max;
	long long deadline;
	int in = -1, pipefd[2] = { -1, -1 }, errfd = -1, st, saved;
	pid_t pid;

	if (o == NULL)
		o = &none;
	if (r == NULL)
		r = &own;
	memset(r, 0, sizeof(*r));
	r->status = -1;
	max = o->max > 0 ? o->max : SPAWN_MAX_DEFAULT;
	if (!o->inherit) {
		in = o->input != NULL ? data_fd(o->input, o->inlen) :
		    open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (in == -1 || process_pipe(pipefd) == -1 ||
		    (o->err != NULL && (errfd = data_fd("", 0)) == -1))
			goto fail;
	}
	fflush(NULL);
	if ((pid = fork()) == -1)
		goto fail;
	if (pid == 0) {
		if (!o->inherit && (dup2(in, 0) == -1 ||
		    dup2(pipefd[1], 1) == -1 ||
		    dup2(errfd != -1 ? errfd : pipefd[1], 2) == -1))
			_exit(127);
		if (!o->inherit) {
			close(in);
			close(pipefd[0]);
			close(pipefd[1]);
			if (errfd != -1)
				close(errfd);
		}
		if (o->child != NULL && o->child(o->child_arg) == -1)
			_exit(126);
		if (o->env != NULL)
			environ = (char **)o->env;
		execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	deadline = o->timeout > 0 ? now_ms() + o->timeout * 1000LL : 0;
	if (!o->inherit) {
		char chunk[8192];
		ssize_t n;

		close(pipefd[1]);
		pipefd[1] = -1;
		for (;;) {
			struct pollfd p = { pipefd[0], POLLIN, 0 };
			int wait = -1, k;

			if (deadline) {
				long long left = deadline - now_ms();

				wait = left > 0 ? (int)left : 0;
			}
			if ((k = poll(&p, 1, wait)) == -1 && errno == EINTR)
				continue;
			if (k == 0) {
				/* out of time: it goes, and what it said
				 * so far is kept */
				kill(pid, SIGKILL);
				r->timed_out = 1;
				break;
			}
			n = read(pipefd[0], chunk, sizeof(chunk));
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			if (o->out != NULL && o->out->len < max)
				buf_add(o->out, chunk, (size_t)n <
				    max - o->out->len ? (size_t)n :
				    max - o->out->len);
		}
		close(pipefd[0]);
		pipefd[0] = -1;
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR) {
			r->error = errno;
			goto done;
		}
	if (WIFEXITED(st))
		r->status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		r->signal = WTERMSIG(st);
done:
	if (errfd != -1)
		slurp(errfd, o->err, max);
	if (in != -1)
		close(in);
	if (errfd != -1)
		close(errfd);
	return r->timed_out || r->signal ? -1 : r->status;
fail:
	saved = errno;
	if (in != -1)
		close(in);
	if (pipefd[0] != -1)
		close(pipefd[0]);
	if (pipefd[1] != -1)
		close(pipefd[1]);
	if (errfd != -1)
		close(errfd);
	r->error = saved;
	return -1;
}

void
process_describe(const struct process_result *r, int timeout, struct buf *b)
{
	if (r->timed_out)
		buf_printf(b, "timed out after %d s", timeout);
	else if (r->signal)
		buf_printf(b, "killed by signal %d", r->signal);
	else if (r->status == -1)
		buf_printf(b, "could not be started: %s", strerror(r->error));
	else if (r->status == 127)
		buf_adds(b, "could not be run (exit 127)");
	else if (r->status == 126)
		buf_adds(b, "could not be placed (exit 126)");
	else
		buf_printf(b, "exit %d", r->status);
}
