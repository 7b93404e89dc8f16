/* Running programs without a shell, their output captured (process.h). */
#include "proc.h"

#include <string.h>

#include "buf.h"
#include "diag.h"
#include "process.h"

int
proc_run(char *const argv[], struct buf *out)
{
	struct process_opts o;

	memset(&o, 0, sizeof(o));
	o.out = out;
	return process_run(argv, &o, NULL);
}

int
proc_must(struct diag *d, char *const argv[])
{
	struct process_opts o;
	struct process_result r;
	struct buf out = BUF_INIT, cmd = BUF_INIT, how = BUF_INIT;
	size_t i;
	int rc;

	memset(&o, 0, sizeof(o));
	o.out = &out;
	rc = process_run(argv, &o, &r);
	if (rc != 0) {
		for (i = 0; argv[i] != NULL; i++)
			buf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
		while (out.len > 0 && out.ptr[out.len - 1] == '\n')
			buf_truncate(&out, out.len - 1);
		process_describe(&r, 0, &how);
		diag_error(d, NULL, 0, "%s: %s%s%s", cmd.ptr, how.ptr,
		    out.len ? ": " : "", out.ptr);
	}
	buf_release(&out);
	buf_release(&cmd);
	buf_release(&how);
	return rc == 0 ? 0 : -1;
}
