/* Running programs without a shell, their output captured. */
#include "proc.h"

#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"

/* Runs argv, output captured into out (may be NULL). Exit status or -1. */
int
proc_run(char *const argv[], struct buf *out)
{
	int fds[2], st;
	pid_t pid;
	char chunk[4096];
	ssize_t n;

	if (pipe(fds) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0 && out != NULL)
			buf_add(out, chunk, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs argv; on failure records the command and its output. 0 or -1. */
int
proc_must(struct diag *d, char *const argv[])
{
	struct buf out = BUF_INIT, cmd = BUF_INIT;
	size_t i;
	int rc;

	rc = proc_run(argv, &out);
	if (rc != 0) {
		for (i = 0; argv[i] != NULL; i++)
			buf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
		while (out.len > 0 && out.ptr[out.len - 1] == '\n')
			buf_truncate(&out, out.len - 1);
		diag_error(d, NULL, 0, "%s: exit %d%s%s", cmd.ptr, rc,
		    out.len ? ": " : "", out.ptr);
	}
	buf_release(&out);
	buf_release(&cmd);
	return rc == 0 ? 0 : -1;
}
