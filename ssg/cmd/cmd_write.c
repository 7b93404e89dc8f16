/*
 * Commands for writing: init and new, and the helpers that write source
 * files (edit, delete and publish are in cmd_edit.c). They read and write
 * source files only; building is left to ssg_build (through
 * cmd_run_build).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "escape.h"
#include "build.h"
#include "cli.h"
#include "cmd.h"
#include "cmd_write_int.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "diag.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "mem.h"
#include "slug.h"
#include "process.h"

#define DATE_FMT	"%Y-%m-%d %H:%M:%S %z"

static const char init_usage[] =
    "usage: ssg init DIR\n"
    "\n"
    "Creates a new site in DIR (which must be missing or empty): a\n"
    "commented site.yaml, one post, one page and the folders posts,\n"
    "pages, drafts and static.\n";

static const char new_usage[] =
    "usage: ssg new post TITLE [-C DIR] [-t TAG,TAG] [-s SLUG] [--draft]\n"
    "                  [--html] [-f FILE | --stdin | -e] [--build]\n"
    "       ssg new page TITLE [-C DIR] [-s SLUG] [--secondary] [--html]\n"
    "                  [-f FILE | --stdin | -e] [--build]\n"
    "\n"
    "Writes a new post (posts/YYYY-MM-DD-SLUG.md) or page (pages/SLUG.md)\n"
    "with its front matter. The body comes from FILE or standard input;\n"
    "on a terminal, without either, $EDITOR (then $VISUAL, then vi) opens\n"
    "the new file, and the site is built afterwards when\n"
    "rebuild_after_post is true. An existing file is never overwritten:\n"
    "-2, -3... is added to the name.\n"
    "\n"
    "  -t, --tags LIST      comma-separated tags (posts)\n"
    "  -s, --slug SLUG      the slug (default: from the title)\n"
    "      --draft          write into drafts/ with draft: true (posts)\n"
    "      --secondary      list the page under the Pages menu (pages)\n"
    "      --html           an HTML source instead of Markdown\n"
    "  -f, --file FILE      take the body from FILE\n"
    "      --stdin          take the body from standard input\n"
    "  -e, --edit           open the editor even without a terminal\n"
    "  -b, --build          build the site afterwards\n"
    "  -h, --help           this help\n";

/* Dates in front matter as ssg writes them. */
void
cw_now_text(struct buf *out, time_t now)
{
	dt_format(out, now, DATE_FMT, 1);
}

/*
 * Runs the editor on path: $EDITOR, then $VISUAL, then vi, split on blanks
 * into arguments (no shell). Returns the editor's exit status or -1.
 */
int
cw_run_editor(struct cli *cli, const char *path)
{
	const char *ed = getenv("EDITOR");
	char *copy, *argv[32], *tok, *save = NULL;
	struct process_opts so;
	struct process_result r;
	int rc, n = 0;

	if (ed == NULL || *ed == '\0')
		ed = getenv("VISUAL");
	if (ed == NULL || *ed == '\0')
		ed = "vi";
	copy = xstrdup(ed);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL && n < 30;
	    tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	if (n == 0) {
		free(copy);
		return -1;
	}
	argv[n++] = (char *)path;
	argv[n] = NULL;
	memset(&so, 0, sizeof(so));
	so.inherit = 1;		/* on the terminal */
	rc = process_run(argv, &so, &r);
	free(copy);
	if (r.status == -1 && r.error != 0) {
		cli_error(cli, "cannot start the editor: %s",
		    strerror(r.error));
		return -1;
	}
	if (r.status == -1)
		return -1;
	if (rc != 0)
		cli_error(cli, "the editor exited with status %d", rc);
	return rc;
}

int
cw_build_site(struct cli *cli)
{
	struct build_opts o;
	struct build_stats st;

	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	o.site_dir = cli->site_dir;
	return cmd_run_build(cli, &o, &st);
}

/* Reads all of fp into out. */
static int
read_stream(FILE *fp, struct buf *out)
{
	char chunk[8192];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(out, chunk, n);
	return ferror(fp) ? -1 : 0;
}

/*
 * A path in dir for "prefix + slug + ext" that does not exist yet: the
 * slug gets -2, -3... as needed. *slug_out receives the slug used.
 */
char *
cw_free_name(const char *dir, const char *prefix, const char *slug,
    const char *ext, char **slug_out)
{
	struct buf name = BUF_INIT, s = BUF_INIT;
	char *path;
	int n;

	for (n = 1; ; n++) {
		buf_clear(&s);
		buf_adds(&s, slug);
		if (n > 1)
			buf_printf(&s, "-%d", n);
		buf_clear(&name);
		buf_printf(&name, "%s%s.%s", prefix, s.ptr, ext);
		path = path_join(dir, name.ptr);
		if (access(path, F_OK) == -1 && errno == ENOENT)
			break;
		free(path);
	}
	if (slug_out)
		*slug_out = buf_detach(&s, NULL);
	buf_release(&s);
	buf_release(&name);
	return path;
}

/* Writes a new file without ever replacing one (O_EXCL). */
int
cw_write_new(const char *path, const char *data, size_t n)
{
	FILE *fp;
	int fd, rc = 0;

	if (fs_mkparents(path) == -1)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) == -1)
		return -1;
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		return -1;
	}
	if (fwrite(data, 1, n, fp) != n)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}

/* ---- init ---- */

static const char site_yaml_text[] =
    "# Settings of this site. Every key, with its default and meaning, is\n"
    "# printed by `ssg config`; see also site.yaml(5).\n"
    "\n"
    "# The site's name and one line about it.\n"
    "site_title: \"My new site\"\n"
    "site_description: \"A blog built with ssg\"\n"
    "# The public address; its path part (e.g. /blog) prefixes every link.\n"
    "site_url: \"http://localhost:8000\"\n"
    "\n"
    "# The default author of posts.\n"
    "author_name: \"Anonymous\"\n"
    "author_email: \"anonymous@example.com\"\n"
    "site_lang: en\n"
    "\n"
    "# A theme is a stylesheet: `ssg themes` lists them ('random' picks one).\n"
    "theme: default\n"
    "\n"
    "# Post URLs and shown dates.\n"
    "url_slug_format: \"Year/Month/Day/slug\"\n"
    "date_format: \"%Y-%m-%d %H:%M:%S %z\"\n"
    "timezone: local\n"
    "posts_per_page: 10\n"
    "\n"
    "# A search page at /search/, with an index built with the site.\n"
    "search: true\n"
    "\n"
    "# Build after `ssg new post` and `ssg edit`.\n"
    "rebuild_after_post: true\n"
    "rebuild_after_edit: true\n"
    "\n"
    "# Folders, relative to this file.\n"
    "posts_dir: posts\n"
    "pages_dir: pages\n"
    "drafts_dir: drafts\n"
    "static_dir: static\n"
    "output_dir: output\n";

static int
dir_is_empty(const char *path)
{
	DIR *dp;
	struct dirent *de;
	int empty = 1;

	if ((dp = opendir(path)) == NULL)
		return errno == ENOENT ? 1 : -1;
	while ((de = readdir(dp)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	closedir(dp);
	return empty;
}

int
cmd_init(struct cli *cli, int argc, char **argv)
{
	static const char *const dirs[] = { "posts", "pages", "drafts",
	    "static" };
	struct buf post = BUF_INIT, page = BUF_INIT, name = BUF_INIT;
	char *p, *sub;
	time_t now = time(NULL);
	size_t i;
	int rc = 1, e;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		fputs(init_usage, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-')
		return cmd_bad_usage(init_usage);
	if ((e = dir_is_empty(argv[1])) != 1) {
		if (e == -1)
			cli_error(cli, "%s: %s", argv[1], strerror(errno));
		else
			cli_error(cli, "%s: not empty; ssg init needs a new or "
			    "empty folder", argv[1]);
		return 1;
	}
	rc = 1;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		sub = path_join(argv[1], dirs[i]);
		e = fs_mkdirs(sub);
		free(sub);
		if (e == -1) {
			cli_error(cli, "%s: %s", argv[1], strerror(errno));
			goto out;
		}
	}
	dt_set_timezone("local");
	buf_adds(&post, "---\ntitle: \"Hello, world\"\ndate: ");
	cw_now_text(&post, now);
	buf_adds(&post, "\nlastmod: ");
	cw_now_text(&post, now);
	buf_adds(&post, "\ntags: \"ssg\"\nslug: hello-world\n"
	    "description: \"The first post of this site.\"\n---\n"
	    "This is the first post. Write the next one with\n\n"
	    "    ssg new post \"My next post\"\n\n"
	    "and preview the site with `ssg serve`.\n");
	buf_adds(&page, "---\ntitle: \"About\"\ndate: ");
	cw_now_text(&page, now);
	buf_adds(&page, "\nslug: about\n---\nWhat this site is about.\n");
	p = path_join(argv[1], "site.yaml");
	e = cw_write_new(p, site_yaml_text, sizeof(site_yaml_text) - 1);
	free(p);
	dt_format(&name, now, "posts/%Y-%m-%d-hello-world.md", 0);
	p = path_join(argv[1], name.ptr);
	if (e == 0)
		e = cw_write_new(p, post.ptr, post.len);
	free(p);
	p = path_join(argv[1], "pages/about.md");
	if (e == 0)
		e = cw_write_new(p, page.ptr, page.len);
	free(p);
	if (e == -1) {
		cli_error(cli, "%s: %s", argv[1], strerror(errno));
		goto out;
	}
	if (!cli->quiet)
		printf("New site in %s. Next: ssg new post \"Title\" -C %s; "
		    "ssg serve -C %s\n", argv[1], argv[1], argv[1]);
	rc = 0;
out:
	buf_release(&post);
	buf_release(&page);
	buf_release(&name);
	return rc;
}

/* ---- new ---- */

enum { OPT_DRAFT = 256, OPT_HTML, OPT_STDIN, OPT_SECONDARY };

int
cmd_new(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "tags", required_argument, NULL, 't' },
		{ "slug", required_argument, NULL, 's' },
		{ "draft", no_argument, NULL, OPT_DRAFT },
		{ "secondary", no_argument, NULL, OPT_SECONDARY },
		{ "html", no_argument, NULL, OPT_HTML },
		{ "file", required_argument, NULL, 'f' },
		{ "stdin", no_argument, NULL, OPT_STDIN },
		{ "edit", no_argument, NULL, 'e' },
		{ "build", no_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct site_config c;
	struct buf text = BUF_INIT, body = BUF_INIT, s = BUF_INIT;
	struct buf prefix = BUF_INIT;
	const char *tags = NULL, *slug = NULL, *file = NULL, *kind, *title;
	char *dir = NULL, *path = NULL, *used = NULL;
	int ch, draft = 0, html = 0, use_stdin = 0, edit = 0, build = 0;
	int secondary = 0, is_post, rc = 1;
	time_t now = time(NULL);

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:t:s:f:ebqh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 't': tags = optarg; break;
		case 's': slug = optarg; break;
		case 'f': file = optarg; break;
		case 'e': edit = 1; break;
		case 'b': build = 1; break;
		case 'q': cli->quiet = 1; break;
		case OPT_DRAFT: draft = 1; break;
		case OPT_SECONDARY: secondary = 1; break;
		case OPT_HTML: html = 1; break;
		case OPT_STDIN: use_stdin = 1; break;
		case 'h': fputs(new_usage, stdout); return 0;
		default: return cmd_bad_usage(new_usage);
		}
	}
	if (argc - optind != 2)
		return cmd_bad_usage(new_usage);
	kind = argv[optind];
	title = argv[optind + 1];
	if (strcmp(kind, "post") != 0 && strcmp(kind, "page") != 0) {
		fprintf(stderr, "ssg: new makes a 'post' or a 'page', not "
		    "'%s'\n", kind);
		return cmd_bad_usage(new_usage);
	}
	is_post = kind[1] == 'o';
	if ((file != NULL) + use_stdin + edit > 1) {
		fprintf(stderr, "ssg: -f, --stdin and -e exclude each other\n");
		return cmd_bad_usage(new_usage);
	}
	if ((!is_post && (draft || tags)) || (is_post && secondary)) {
		fprintf(stderr, "ssg: --draft and -t are for posts, "
		    "--secondary for pages\n");
		return cmd_bad_usage(new_usage);
	}
	if (*title == '\0') {
		fprintf(stderr, "ssg: the title is empty\n");
		return cmd_bad_usage(new_usage);
	}
	if (cmd_load_config(cli, &c, 1) == -1)
		goto out;
	if (file == NULL && !use_stdin && !edit) {
		if (isatty(STDIN_FILENO))
			edit = 1;
		else
			use_stdin = 1;
	}
	if (file && fs_read(file, &body) == -1) {
		cli_error(cli, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (use_stdin && read_stream(stdin, &body) == -1) {
		cli_error(cli, "standard input: %s", strerror(errno));
		goto out;
	}

	slug_append(&s, slug ? slug : title);
	if (s.len == 0)
		buf_adds(&s, "untitled");
	dir = path_join(cli->site_dir, !is_post ? c.pages_dir :
	    draft ? c.drafts_dir : c.posts_dir);
	if (is_post)
		dt_format(&prefix, now, "%Y-%m-%d-", 0);
	path = cw_free_name(dir, prefix.ptr, s.ptr, html ? "html" : "md", &used);

	buf_adds(&text, "---\ntitle: ");
	fm_write_value(&text, title);
	buf_adds(&text, "\ndate: ");
	cw_now_text(&text, now);
	buf_adds(&text, "\nlastmod: ");
	cw_now_text(&text, now);
	if (is_post) {
		buf_adds(&text, "\ntags: ");
		fm_write_value(&text, tags ? tags : "");
	}
	buf_adds(&text, "\nslug: ");
	buf_adds(&text, used);
	buf_adds(&text, "\ndescription: \"\"\n");
	if (draft)
		buf_adds(&text, "draft: true\n");
	if (secondary)
		buf_adds(&text, "secondary: true\n");
	buf_adds(&text, "---\n");
	buf_add(&text, body.ptr, body.len);
	if (body.len && body.ptr[body.len - 1] != '\n')
		buf_addc(&text, '\n');
	if (cw_write_new(path, text.ptr, text.len) == -1) {
		cli_error(cli, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!cli->quiet)
		printf("%s\n", path);
	fflush(stdout);
	rc = 0;
	if (edit) {
		if (cw_run_editor(cli, path) != 0)
			rc = 1;
		else if (c.rebuild_after_post && !draft)
			build = 1;
	}
	if (rc == 0 && build)
		rc = cw_build_site(cli);
out:
	config_release(&c);
	buf_release(&text);
	buf_release(&body);
	buf_release(&s);
	buf_release(&prefix);
	free(dir);
	free(path);
	free(used);
	return rc;
}

