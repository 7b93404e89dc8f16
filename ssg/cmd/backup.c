#include "backup.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "buf.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "lazy_archive.h"

#define SUFFIX	".tar.gz"

/* 1 if rel is a plain relative path: no empty, ".", ".." component, not
 * absolute, and (top) its first component does not start with '.'. */
static int
rel_is_safe(const char *rel)
{
	const char *p = rel, *e;
	size_t n;

	if (*rel == '\0' || *rel == '/' || *rel == '.')
		return 0;
	while (*p) {
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0 && e != NULL && e[1] != '\0')
			return 0;	/* "a//b" */
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' &&
		    p[1] == '.'))
			return 0;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return 1;
}

/* ---- writing ---- */

struct writer {
	struct archive	*a;
	const char	*site;
	struct diag	*d;
	int		 failed;
};

static void
add_file(struct writer *w, const char *path, const char *rel,
    const struct stat *st)
{
	struct archive_entry *e;
	char chunk[65536];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		diag_error(w->d, path, 0, "cannot read: %s", strerror(errno));
		w->failed = 1;
		return;
	}
	e = archive_entry_new();
	archive_entry_set_pathname(e, rel);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, st->st_mode & 07777);
	archive_entry_set_size(e, st->st_size);
	archive_entry_set_mtime(e, st->st_mtime, 0);
	if (archive_write_header(w->a, e) != ARCHIVE_OK) {
		diag_error(w->d, path, 0, "%s", archive_error_string(w->a));
		w->failed = 1;
		goto out;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (archive_write_data(w->a, chunk, (size_t)n) != n) {
			diag_error(w->d, path, 0, "%s",
			    archive_error_string(w->a));
			w->failed = 1;
			break;
		}
	if (n == -1) {
		diag_error(w->d, path, 0, "cannot read: %s", strerror(errno));
		w->failed = 1;
	}
out:
	archive_entry_free(e);
	close(fd);
}

static void
add_dir_entry(struct writer *w, const char *rel, const struct stat *st)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, rel);
	archive_entry_set_filetype(e, AE_IFDIR);
	archive_entry_set_perm(e, st->st_mode & 07777);
	archive_entry_set_mtime(e, st->st_mtime, 0);
	if (archive_write_header(w->a, e) != ARCHIVE_OK) {
		diag_error(w->d, rel, 0, "%s", archive_error_string(w->a));
		w->failed = 1;
	}
	archive_entry_free(e);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds rel (a file or a whole folder) under the site folder. */
static void
add_tree(struct writer *w, const char *rel)
{
	struct stat st;
	struct dirent *de;
	DIR *dp;
	char *path = path_join(w->site, rel), **names = NULL, *sub;
	size_t n = 0, cap = 0, i;

	if (lstat(path, &st) == -1) {
		if (errno != ENOENT) {
			diag_error(w->d, path, 0, "%s", strerror(errno));
			w->failed = 1;
		}
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		add_file(w, path, rel, &st);
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_warn(w->d, path, 0, "not a file or folder: left out of "
		    "the backup");
		goto out;
	}
	add_dir_entry(w, rel, &st);
	if ((dp = opendir(path)) == NULL) {
		diag_error(w->d, path, 0, "%s", strerror(errno));
		w->failed = 1;
		goto out;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		xgrow((void **)&names, &cap, n + 1, sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(dp);
	if (n)
		xqsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		sub = path_join(rel, names[i]);
		add_tree(w, sub);
		free(sub);
		free(names[i]);
	}
	free(names);
out:
	free(path);
}

char *
backup_create(const char *site_dir, const struct site_config *c,
    struct diag *d)
{
	const char *tops[6];
	struct writer w;
	struct buf id = BUF_INIT, name = BUF_INIT;
	struct tm tm;
	char *dir, *path = NULL, *tmp = NULL, stamp[32];
	time_t now = time(NULL);
	size_t i;
	int n;

	if (lazy_archive_load(d) == -1)
		return NULL;
	tops[0] = c->posts_dir;
	tops[1] = c->pages_dir;
	tops[2] = c->drafts_dir;
	tops[3] = c->static_dir;
	tops[4] = c->templates_dir;
	tops[5] = "site.yaml";
	dir = path_join(site_dir, BACKUP_DIR);
	if (fs_mkdirs(dir) == -1) {
		diag_error(d, dir, 0, "cannot create: %s", strerror(errno));
		free(dir);
		return NULL;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (n = 1; ; n++) {
		buf_clear(&id);
		buf_adds(&id, stamp);
		if (n > 1)
			buf_printf(&id, "-%d", n);
		buf_clear(&name);
		buf_printf(&name, "%s%s", id.ptr, SUFFIX);
		free(path);
		path = path_join(dir, name.ptr);
		if (access(path, F_OK) == -1)
			break;
	}
	buf_clear(&name);
	buf_printf(&name, ".%s%s.tmp", id.ptr, SUFFIX);
	tmp = path_join(dir, name.ptr);

	memset(&w, 0, sizeof(w));
	w.site = site_dir;
	w.d = d;
	w.a = archive_write_new();
	archive_write_add_filter_gzip(w.a);
	archive_write_set_format_pax_restricted(w.a);
	if (archive_write_open_filename(w.a, tmp) != ARCHIVE_OK) {
		diag_error(d, tmp, 0, "%s", archive_error_string(w.a));
		w.failed = 1;
	} else {
		for (i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
			if (!rel_is_safe(tops[i])) {
				diag_warn(d, NULL, 0, "folder '%s' is outside "
				    "the site: left out of the backup", tops[i]);
				continue;
			}
			add_tree(&w, tops[i]);
		}
		if (archive_write_close(w.a) != ARCHIVE_OK) {
			diag_error(d, tmp, 0, "%s", archive_error_string(w.a));
			w.failed = 1;
		}
	}
	archive_write_free(w.a);
	if (!w.failed && rename(tmp, path) == -1) {
		diag_error(d, path, 0, "%s", strerror(errno));
		w.failed = 1;
	}
	if (w.failed)
		unlink(tmp);
	free(tmp);
	free(path);
	free(dir);
	buf_release(&name);
	if (w.failed) {
		buf_release(&id);
		return NULL;
	}
	return buf_detach(&id, NULL);
}

/* ---- listing ---- */

static int
info_cmp(const void *a, const void *b)
{
	const struct backup_info *x = a, *y = b;

	return strcmp(x->id, y->id);
}

size_t
backup_list(const char *site_dir, struct backup_info **list)
{
	char *dir = path_join(site_dir, BACKUP_DIR);
	struct backup_info *l = NULL;
	struct dirent *de;
	struct stat st;
	size_t n = 0, cap = 0, len, sl = strlen(SUFFIX);
	DIR *dp;

	*list = NULL;
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= sl ||
		    strcmp(de->d_name + len - sl, SUFFIX) != 0)
			continue;
		xgrow((void **)&l, &cap, n + 1, sizeof(*l));
		l[n].id = xstrndup(de->d_name, len - sl);
		l[n].path = path_join(dir, de->d_name);
		l[n].size = 0;
		l[n].mtime = 0;
		if (stat(l[n].path, &st) == 0) {
			l[n].size = (long long)st.st_size;
			l[n].mtime = st.st_mtime;
		}
		n++;
	}
	closedir(dp);
	free(dir);
	if (n)
		xqsort(l, n, sizeof(*l), info_cmp);
	*list = l;
	return n;
}

void
backup_list_free(struct backup_info *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].id);
		free(list[i].path);
	}
	free(list);
}

/* ---- reading ---- */

static struct archive *
open_read(const char *archive, struct diag *d)
{
	struct archive *a;

	if (lazy_archive_load(d) == -1)
		return NULL;
	a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, archive, 65536) != ARCHIVE_OK) {
		diag_error(d, archive, 0, "cannot open: %s",
		    archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* Checks one entry's name and type; 0 or -1 after recording why. */
static int
check_entry(const char *archive, struct archive_entry *e, struct diag *d)
{
	const char *name = archive_entry_pathname(e);
	mode_t type = archive_entry_filetype(e);
	struct buf n = BUF_INIT;
	int rc = 0;

	if (name == NULL)
		return diag_error(d, archive, 0, "an entry has no name");
	buf_adds(&n, name);
	if (n.len > 1 && n.ptr[n.len - 1] == '/')
		buf_truncate(&n, n.len - 1);
	if (!rel_is_safe(n.ptr)) {
		diag_error(d, archive, 0, "unsafe entry '%s' (absolute, "
		    "'..' or hidden)", name);
		rc = -1;
	} else if (type != AE_IFREG && type != AE_IFDIR) {
		diag_error(d, archive, 0, "entry '%s' is not a file or "
		    "folder", name);
		rc = -1;
	} else if (archive_entry_hardlink(e) != NULL) {
		diag_error(d, archive, 0, "entry '%s' is a link", name);
		rc = -1;
	}
	buf_release(&n);
	return rc;
}

long
backup_verify(const char *archive, struct diag *d)
{
	struct archive *a;
	struct archive_entry *e;
	char chunk[65536];
	la_ssize_t n;
	long count = 0;
	int r, bad = 0;

	if ((a = open_read(archive, d)) == NULL)
		return -1;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		if (check_entry(archive, e, d) == -1)
			bad = 1;
		/* read every byte, so a damaged stream shows here */
		while ((n = archive_read_data(a, chunk, sizeof(chunk))) > 0)
			;
		if (n < 0) {
			diag_error(d, archive, 0, "damaged at '%s': %s",
			    archive_entry_pathname(e), archive_error_string(a));
			bad = 1;
			break;
		}
		count++;
	}
	if (!bad && r != ARCHIVE_EOF) {
		diag_error(d, archive, 0, "damaged: %s",
		    archive_error_string(a));
		bad = 1;
	}
	if (!bad && count == 0) {
		diag_error(d, archive, 0, "empty archive");
		bad = 1;
	}
	archive_read_free(a);
	return bad ? -1 : count;
}

/* The first component of rel (malloc'd). */
static char *
top_name(const char *rel)
{
	const char *s = strchr(rel, '/');

	return s ? xstrndup(rel, (size_t)(s - rel)) : xstrdup(rel);
}

static int
extract_file(struct archive *a, struct archive_entry *e, const char *path,
    struct diag *d)
{
	struct timespec ts[2];
	const void *blk;
	size_t size;
	la_int64_t off, pos = 0;
	int fd, r, rc = 0;

	if (fs_mkparents(path) == -1 || (fd = open(path, O_WRONLY | O_CREAT |
	    O_EXCL | O_CLOEXEC, 0600)) == -1) {
		diag_error(d, path, 0, "cannot create: %s", strerror(errno));
		return -1;
	}
	while ((r = archive_read_data_block(a, &blk, &size, &off)) ==
	    ARCHIVE_OK) {
		if (off != pos && lseek(fd, off, SEEK_SET) == -1) {
			rc = -1;
			break;
		}
		if (write(fd, blk, size) != (ssize_t)size) {
			rc = -1;
			break;
		}
		pos = off + (la_int64_t)size;
	}
	if (r != ARCHIVE_EOF && r != ARCHIVE_OK)
		rc = -1;
	if (rc == 0 && ftruncate(fd, archive_entry_size(e)) == -1)
		rc = -1;
	fchmod(fd, archive_entry_perm(e) & 0777);
	ts[0].tv_sec = ts[1].tv_sec = archive_entry_mtime(e);
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	futimens(fd, ts);
	if (close(fd) == -1)
		rc = -1;
	if (rc == -1)
		diag_error(d, path, 0, "cannot write: %s",
		    r < ARCHIVE_OK ? archive_error_string(a) : strerror(errno));
	return rc;
}

/* Unpacks the selected entries into stage; collects their top names. */
static int
extract_all(const char *archive, const char *stage, int flags,
    char ***tops, size_t *ntops, struct diag *d)
{
	struct archive *a;
	struct archive_entry *e;
	struct buf rel = BUF_INIT;
	char *path, *top;
	size_t i, cap = 0;
	int r, rc = 0, is_config;

	if ((a = open_read(archive, d)) == NULL)
		return -1;
	while (rc == 0 && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		if (check_entry(archive, e, d) == -1) {
			rc = -1;
			break;
		}
		buf_clear(&rel);
		buf_adds(&rel, archive_entry_pathname(e));
		if (rel.len > 1 && rel.ptr[rel.len - 1] == '/')
			buf_truncate(&rel, rel.len - 1);
		top = top_name(rel.ptr);
		is_config = strcmp(rel.ptr, "site.yaml") == 0;
		if (!(flags & (is_config ? BACKUP_CONFIG : BACKUP_CONTENT))) {
			free(top);
			continue;
		}
		for (i = 0; i < *ntops; i++)
			if (strcmp((*tops)[i], top) == 0)
				break;
		if (i == *ntops) {
			xgrow((void **)tops, &cap, *ntops + 1, sizeof(**tops));
			(*tops)[(*ntops)++] = top;
		} else
			free(top);
		path = path_join(stage, rel.ptr);
		if (archive_entry_filetype(e) == AE_IFDIR) {
			if (fs_mkdirs(path) == -1) {
				diag_error(d, path, 0, "cannot create: %s",
				    strerror(errno));
				rc = -1;
			} else
				chmod(path, (archive_entry_perm(e) & 0777) |
				    0700);
		} else if (extract_file(a, e, path, d) == -1)
			rc = -1;
		free(path);
	}
	if (rc == 0 && r != ARCHIVE_EOF) {
		diag_error(d, archive, 0, "damaged: %s", archive_error_string(a));
		rc = -1;
	}
	archive_read_free(a);
	buf_release(&rel);
	return rc;
}

int
backup_restore(const char *site_dir, const char *archive, int flags,
    struct diag *d)
{
	char *stage = NULL, *trash = NULL, **tops = NULL, *from, *to, *old;
	size_t ntops = 0, i;
	int rc = -1;

	if (backup_verify(archive, d) == -1)
		return -1;
	stage = path_join(site_dir, ".ssg-restore-XXXXXX");
	if (mkdtemp(stage) == NULL) {
		diag_error(d, stage, 0, "cannot create: %s", strerror(errno));
		goto out;
	}
	trash = path_join(stage, ".old");
	if (extract_all(archive, stage, flags, &tops, &ntops, d) == -1 ||
	    fs_mkdirs(trash) == -1)
		goto out;
	/* everything is unpacked: swap each top-level name into place */
	for (i = 0; i < ntops; i++) {
		from = path_join(stage, tops[i]);
		to = path_join(site_dir, tops[i]);
		old = path_join(trash, tops[i]);
		if (rename(to, old) == -1 && errno != ENOENT) {
			diag_error(d, to, 0, "cannot replace: %s",
			    strerror(errno));
			free(from);
			free(to);
			free(old);
			goto out;
		}
		if (rename(from, to) == -1) {
			diag_error(d, to, 0, "cannot restore: %s",
			    strerror(errno));
			rename(old, to);
			free(from);
			free(to);
			free(old);
			goto out;
		}
		free(from);
		free(to);
		free(old);
	}
	rc = 0;
out:
	if (stage)
		fs_remove_tree(stage);
	for (i = 0; i < ntops; i++)
		free(tops[i]);
	free(tops);
	free(stage);
	free(trash);
	return rc;
}
