#include "theme.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "mem.h"
#include "template.h"
#include "yamldoc.h"

#ifndef SSG_DATADIR
#define SSG_DATADIR "/usr/local/share/ssg"
#endif

/* The absolute path of the running program, from argv[0] and $PATH. */
static char *
program_path(const char *argv0)
{
	char resolved[PATH_MAX], *path, *dir, *save = NULL, *cand;
	const char *env;

	if (argv0 == NULL)
		return NULL;
	if (strchr(argv0, '/') != NULL)
		return realpath(argv0, resolved) ? xstrdup(resolved) : NULL;
	if ((env = getenv("PATH")) == NULL)
		return NULL;
	path = xstrdup(env);
	for (dir = strtok_r(path, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		cand = path_join(dir, argv0);
		if (access(cand, X_OK) == 0 && realpath(cand, resolved)) {
			free(cand);
			free(path);
			return xstrdup(resolved);
		}
		free(cand);
	}
	free(path);
	return NULL;
}

static int
has_templates(const char *themes)
{
	char *t = path_join(themes, "templates/base.mustache");
	int ok = fs_is_file(t);

	free(t);
	return ok;
}

char *
theme_builtin_dir(const char *argv0)
{
	static const char *const rel[] = { "../themes", "../share/ssg/themes" };
	const char *env = getenv("SSG_DATADIR");
	char *prog, *dir, *cand;
	size_t i;

	if (env != NULL && *env != '\0')
		return path_join(env, "themes");
	if ((prog = program_path(argv0)) != NULL) {
		dir = xstrndup(prog, (size_t)(path_base(prog) - prog));
		free(prog);
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			cand = path_join(dir, rel[i]);
			if (has_templates(cand)) {
				free(dir);
				return cand;
			}
			free(cand);
		}
		free(dir);
	}
	cand = path_join(SSG_DATADIR, "themes");
	if (has_templates(cand))
		return cand;
	free(cand);
	return NULL;
}

struct tload {
	struct tmpl_set	*t;
	struct diag	*d;
	struct buf	 all;	/* names and texts, for the hash */
	int		 rc;
};

static int
load_one(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct tload *tl = arg;
	struct buf src = BUF_INIT;
	char *name;
	size_t n = strlen(rel);

	(void)st;
	if (n <= 9 || strcmp(rel + n - 9, ".mustache") != 0 ||
	    strchr(rel, '/') != NULL)
		return 0;
	if (fs_read(path, &src) == -1) {
		diag_error(tl->d, path, 0, "cannot read: %s", strerror(errno));
		tl->rc = -1;
		return 0;
	}
	/* Messages name the file, so a broken override is easy to find. */
	name = xstrndup(rel, n - 9);
	buf_printf(&tl->all, "%s\n%zu\n", name, src.len);
	buf_add(&tl->all, src.ptr, src.len);
	if (tmpl_set_add(tl->t, name, src.ptr, src.len, tl->d) == -1)
		tl->rc = -1;
	free(name);
	buf_release(&src);
	return 0;
}

int
theme_load_templates(struct tmpl_set *t, const char *builtin,
    const char *site_templates, const struct fs_bound *bd, uint64_t *hash,
    struct diag *d)
{
	struct tload tl;
	char *dir = path_join(builtin, "templates");

	tl.t = t;
	tl.d = d;
	tl.rc = 0;
	buf_init(&tl.all);
	fs_walk(dir, load_one, &tl);
	free(dir);
	if (site_templates != NULL)
		fs_walk_in(site_templates, bd, load_one, &tl);
	if (tl.rc == 0 && tmpl_set_check(t, d) == -1)
		tl.rc = -1;
	if (hash)
		*hash = hash64(tl.all.ptr, tl.all.len);
	buf_release(&tl.all);
	return tl.rc;
}

static char *
sheet_in(const char *themes, const char *name)
{
	struct buf b = BUF_INIT;
	char *p;

	if (themes == NULL)
		return NULL;
	buf_printf(&b, "%s/style.css", name);
	p = path_join(themes, b.ptr);
	buf_release(&b);
	if (fs_is_file(p))
		return p;
	free(p);
	return NULL;
}

char *
theme_stylesheet(const char *name, const char *site_themes,
    const char *builtin)
{
	char *p;

	/* A theme name is one folder name, never a path. */
	if (*name == '\0' || strchr(name, '/') != NULL || name[0] == '.')
		return NULL;
	if ((p = sheet_in(site_themes, name)) != NULL)
		return p;
	return sheet_in(builtin, name);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
list_in(const char *themes, char ***names, size_t *n, size_t *cap)
{
	DIR *dir;
	struct dirent *de;
	char *sheet;
	size_t i;

	if (themes == NULL || (dir = opendir(themes)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "templates") == 0)
			continue;
		if ((sheet = sheet_in(themes, de->d_name)) == NULL)
			continue;
		free(sheet);
		for (i = 0; i < *n; i++)
			if (strcmp((*names)[i], de->d_name) == 0)
				break;
		if (i < *n)
			continue;
		xgrow((void **)names, cap, *n + 1, sizeof(**names));
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(dir);
}

size_t
theme_list(const char *site_themes, const char *builtin, char ***names)
{
	size_t n = 0, cap = 0;

	*names = NULL;
	list_in(site_themes, names, &n, &cap);
	list_in(builtin, names, &n, &cap);
	if (n > 0)
		xqsort(*names, n, sizeof(**names), cmp_str);
	return n;
}

int
theme_info_load(struct theme_info *ti, const char *name,
    const char *site_themes, const char *builtin)
{
	static const char *const keys[] = { "description", "family", "dark" };
	char **fields[] = { &ti->description, &ti->family, &ti->dark };
	struct buf text = BUF_INIT;
	struct ynode *root = NULL;
	char *sheet, *yaml;
	const char *v;
	size_t i;

	memset(ti, 0, sizeof(*ti));
	if ((sheet = theme_stylesheet(name, site_themes, builtin)) == NULL)
		return -1;
	yaml = xstrndup(sheet, (size_t)(path_base(sheet) - sheet));
	free(sheet);
	sheet = path_join(yaml, "theme.yaml");
	free(yaml);
	if (fs_read(sheet, &text) == 0)
		root = ynode_parse(text.ptr, text.len, sheet, 1, NULL);
	ti->name = xstrdup(name);
	for (i = 0; i < 3; i++) {
		v = ynode_str(ynode_get(root, keys[i]));
		*fields[i] = xstrdup(v ? v : "");
	}
	ynode_free(root);
	buf_release(&text);
	free(sheet);
	return 0;
}

void
theme_info_release(struct theme_info *ti)
{
	free(ti->name);
	free(ti->description);
	free(ti->family);
	free(ti->dark);
	memset(ti, 0, sizeof(*ti));
}
