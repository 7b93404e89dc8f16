#ifndef SSG_PROCESS_H
#define SSG_PROCESS_H

#include <stddef.h>

struct buf;

/*
 * Running a program to its end, for ssg and deploy alike: an argument
 * array (never a shell line), the environment and the standard streams
 * said explicitly, the output captured up to a bound, an optional time
 * limit, and how it ended reported. The child gets no other descriptor
 * of ours (everything we open is close-on-exec).
 */
struct process_opts {
	char *const	*env;		/* NULL: this process's environment */
	const char	*input;		/* its standard input; NULL: /dev/null */
	size_t		 inlen;
	struct buf	*out;		/* its standard output (appended); NULL:
					 * read and dropped */
	struct buf	*err;		/* its standard error apart (appended);
					 * NULL: into out with the output */
	size_t		 max;		/* bytes kept of each, 0: 64 MiB; the
					 * rest is read and dropped */
	int		 timeout;	/* seconds, 0: none; then it is killed */
	int		 inherit;	/* stdin, stdout and stderr are ours (an
					 * editor on the terminal): out, err
					 * and input are not used */
	/* Run in the child just before the program (to enter a jail's
	 * namespace, say); when it returns -1 the child ends with 126. */
	int		(*child)(void *arg);
	void		*child_arg;
};

struct process_result {
	int		 status;	/* exit status, -1 if it did not exit */
	int		 signal;	/* the signal that ended it, or 0 */
	int		 timed_out;	/* killed after timeout seconds */
	int		 error;		/* errno when it could not be started */
};

/*
 * Runs argv[0] (looked up in PATH) with argv and waits for it. r may be
 * NULL. Returns its exit status (0 to 255; 127: it could not be run; 126:
 * o->child failed), or
 * -1 when it could not be started, was killed by a signal or ran out of
 * time (r says which).
 */
int	process_run(char *const argv[], const struct process_opts *o,
	    struct process_result *r);

/* "exit 3", "killed by signal 9", "timed out after 5 s", "could not be
 * started: ...": how r ended, appended to b. */
void	process_describe(const struct process_result *r, int timeout,
	    struct buf *b);

/*
 * A pipe, and an unlinked temporary file (in $TMPDIR, else /tmp), whose
 * descriptors no program started meanwhile by another thread inherits:
 * a pipe such a program holds would never end (a server it starts keeps
 * it for good). -1 with errno.
 */
int	process_pipe(int fds[2]);
int	process_tmpfile(void);

#endif
