/*
 * Running a program to its end (process.h): its output and its error apart
 * or together, its input, its exit status, a program that is not there,
 * one killed by a signal, one that runs out of time, the bound on what is
 * kept, another environment, and pipes and files that no other thread's
 * child inherits.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "process.h"
#include "tap.h"

static int
run(char *const argv[], struct process_opts *o, struct process_result *r)
{
	return process_run(argv, o, r);
}

int
main(void)
{
	struct process_opts o;
	struct process_result r;
	struct buf out = BUF_INIT, err = BUF_INIT, how = BUF_INIT;
	char *both[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char *cat[] = { "cat", NULL };
	char *missing[] = { "no-such-program-here", NULL };
	char *killed[] = { "sh", "-c", "kill -9 $$", NULL };
	char *slow[] = { "sleep", "5", NULL };
	char *lots[] = { "head", "-c", "100000", "/dev/zero", NULL };
	char *env[] = { "sh", "-c", "printf %s \"$SPAWN_TEST\"", NULL };
	char *envv[] = { "SPAWN_TEST=given", "PATH=/usr/bin:/bin", NULL };
	time_t t0;
	int rc;

	memset(&o, 0, sizeof(o));
	o.out = &out;
	o.err = &err;
	rc = run(both, &o, &r);
	IS_INT(rc, 3, "exit status");
	IS_INT(r.status, 3, "the result's status");
	IS_STR(out.ptr, "out\n", "standard output apart");
	IS_STR(err.ptr, "err\n", "standard error apart");
	process_describe(&r, 0, &how);
	IS_STR(how.ptr, "exit 3", "described");

	buf_clear(&out);
	memset(&o, 0, sizeof(o));
	o.out = &out;
	run(both, &o, &r);
	OK(strstr(out.ptr, "out\n") && strstr(out.ptr, "err\n"),
	    "without err, both into out: '%s'", out.ptr);

	buf_clear(&out);
	o.input = "given\nlines\n";
	o.inlen = strlen(o.input);
	IS_INT(run(cat, &o, &r), 0, "cat exits 0");
	IS_STR(out.ptr, "given\nlines\n", "the input reaches the program");

	buf_clear(&out);
	memset(&o, 0, sizeof(o));
	o.out = &out;
	IS_INT(run(cat, &o, &r), 0, "no input: /dev/null");
	IS_INT(out.len, 0, "nothing read");

	IS_INT(run(missing, &o, &r), 127, "a missing program: 127");
	OK(strstr(out.ptr, "no-such-program-here") != NULL,
	    "and it says which: '%s'", out.ptr);

	IS_INT(run(killed, &o, &r), -1, "killed by a signal: -1");
	IS_INT(r.signal, 9, "the signal");
	buf_clear(&how);
	process_describe(&r, 0, &how);
	IS_STR(how.ptr, "killed by signal 9", "described");

	o.timeout = 1;
	t0 = time(NULL);
	IS_INT(run(slow, &o, &r), -1, "out of time: -1");
	OK(r.timed_out, "timed out");
	OK(time(NULL) - t0 < 4, "killed at its time, not at its end");
	buf_clear(&how);
	process_describe(&r, 1, &how);
	IS_STR(how.ptr, "timed out after 1 s", "described");

	buf_clear(&out);
	memset(&o, 0, sizeof(o));
	o.out = &out;
	o.max = 1000;
	IS_INT(run(lots, &o, &r), 0, "a large output is read to its end");
	IS_INT(out.len, 1000, "and kept up to the bound");

	buf_clear(&out);
	memset(&o, 0, sizeof(o));
	o.out = &out;
	o.env = envv;
	run(env, &o, &r);
	IS_STR(out.ptr, "given", "the environment given");

	/* descriptors no other thread's child inherits */
	{
		int fds[2], fd;

		OK(process_pipe(fds) == 0 &&
		    (fcntl(fds[0], F_GETFD) & FD_CLOEXEC) &&
		    (fcntl(fds[1], F_GETFD) & FD_CLOEXEC),
		    "a pipe closed on exec, both ends");
		close(fds[0]);
		close(fds[1]);
		fd = process_tmpfile();
		OK(fd != -1 && (fcntl(fd, F_GETFD) & FD_CLOEXEC),
		    "a temporary file closed on exec");
		if (fd != -1)
			close(fd);
	}

	buf_release(&out);
	buf_release(&err);
	buf_release(&how);
	return tap_done();
}
