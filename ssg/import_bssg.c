/*
 * BSSG's config.sh read as data: a parser for the assignments a Bash
 * configuration file holds, and the site.yaml that says the same thing.
 * Nothing is ever run; what is not an assignment is skipped and reported.
 */
#include "import_bssg.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

struct bvar {
	char	*name;
	char	*value;
	char	*file;		/* base name of the file that set it */
	int	 line;
};

struct bssg_site {
	char		*dir;
	struct bvar	*v;
	size_t		 nv, cap;
	struct buf	 files;		/* the files read, ", " between */
};

#define MAXPEND	32

/* One file being read. Assignments of a statement wait in pend until the
 * whole line is known to be plain assignments. */
struct lex {
	struct bssg_site	*s;
	struct diag		*d;
	const char		*p, *end;
	const char		*file;
	int			 line;
	int			 quiet;	/* inside a ${X:-word} not taken */
	const char		*why;
	struct bvar		 pend[MAXPEND];
	size_t			 npend;
};

struct bssg_site *
bssg_new(const char *dir)
{
	struct bssg_site *s = xcalloc(1, sizeof(*s));

	s->dir = xstrdup(dir);
	buf_init(&s->files);
	return s;
}

void
bssg_free(struct bssg_site *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nv; i++) {
		free(s->v[i].name);
		free(s->v[i].value);
		free(s->v[i].file);
	}
	free(s->v);
	buf_release(&s->files);
	free(s->dir);
	free(s);
}

static struct bvar *
find_var(const struct bssg_site *s, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < s->nv; i++)
		if (strlen(s->v[i].name) == n &&
		    memcmp(s->v[i].name, name, n) == 0)
			return &s->v[i];
	return NULL;
}

const char *
bssg_get(const struct bssg_site *s, const char *name)
{
	struct bvar *v = find_var(s, name, strlen(name));

	return v ? v->value : NULL;
}

static void
set_var(struct bssg_site *s, const char *name, const char *value,
    const char *file, int line)
{
	struct bvar *v = find_var(s, name, strlen(name));

	if (v == NULL) {
		xgrow((void **)&s->v, &s->cap, s->nv + 1, sizeof(*s->v));
		v = &s->v[s->nv++];
		v->name = xstrdup(name);
	} else {
		free(v->value);
		free(v->file);
	}
	v->value = xstrdup(value);
	v->file = xstrdup(path_base(file));
	v->line = line;
}

static int
is_name_start(int c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int
is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Length of the name at p (0 if none). */
static size_t
name_len(const char *p, const char *end)
{
	size_t n = 0;

	if (p >= end || !is_name_start((unsigned char)*p))
		return 0;
	while (p + n < end && is_name_char((unsigned char)p[n]))
		n++;
	return n;
}

/* A variable's value as the statement being read sees it: its own
 * earlier assignments first, then the files read so far. NULL if unset. */
static const char *
lookup(struct lex *L, const char *name, size_t n)
{
	struct bvar *v;
	size_t i;

	for (i = L->npend; i > 0; i--)
		if (strlen(L->pend[i - 1].name) == n &&
		    memcmp(L->pend[i - 1].name, name, n) == 0)
			return L->pend[i - 1].value;
	if ((v = find_var(L->s, name, n)) != NULL)
		return v->value;
	if (n == 4 && memcmp(name, "HOME", 4) == 0)
		return getenv("HOME");
	return NULL;
}

static int
pend_add(struct lex *L, const char *name, size_t n, const char *value)
{
	if (L->npend == MAXPEND) {
		L->why = "too many assignments on one line";
		return -1;
	}
	L->pend[L->npend].name = xstrndup(name, n);
	L->pend[L->npend].value = xstrdup(value);
	L->npend++;
	return 0;
}

static void
pend_clear(struct lex *L)
{
	size_t i;

	for (i = 0; i < L->npend; i++) {
		free(L->pend[i].name);
		free(L->pend[i].value);
	}
	L->npend = 0;
}

static int	word(struct lex *, struct buf *, int);

/* L->p is at '$': appends the expansion to out. */
static int
expand(struct lex *L, struct buf *out)
{
	struct buf dflt = BUF_INIT;
	const char *name, *val;
	size_t n;
	int colon, op, unset, rc = -1;

	L->p++;
	if (L->p >= L->end) {
		buf_addc(out, '$');
		return 0;
	}
	if (*L->p == '(') {
		L->why = "command substitution $(...) is not run";
		return -1;
	}
	if (*L->p == '\'' || *L->p == '"') {
		L->why = "$'...' and $\"...\" quoting are not supported";
		return -1;
	}
	if (strchr("0123456789@*#?$!-", *L->p) != NULL) {
		L->why = "special parameters ($1, $@, $?) have no value here";
		return -1;
	}
	if (*L->p != '{') {
		if ((n = name_len(L->p, L->end)) == 0) {
			buf_addc(out, '$');	/* a lone $ is literal */
			return 0;
		}
		name = L->p;
		L->p += n;
		if ((val = lookup(L, name, n)) != NULL)
			buf_adds(out, val);
		else if (!L->quiet)
			diag_warn(L->d, L->file, L->line, "$%.*s is not set in "
			    "the configuration; taken as empty", (int)n, name);
		return 0;
	}
	L->p++;
	if ((n = name_len(L->p, L->end)) == 0) {
		L->why = "this ${...} form is not supported";
		return -1;
	}
	name = L->p;
	L->p += n;
	val = lookup(L, name, n);
	if (L->p < L->end && *L->p == '}') {
		L->p++;
		if (val != NULL)
			buf_adds(out, val);
		else if (!L->quiet)
			diag_warn(L->d, L->file, L->line, "${%.*s} is not set "
			    "in the configuration; taken as empty", (int)n,
			    name);
		return 0;
	}
	colon = L->p < L->end && *L->p == ':';
	if (colon)
		L->p++;
	if (L->p >= L->end || strchr("-=+", *L->p) == NULL) {
		L->why = "this ${...} form is not supported (only :-, -, :=, "
		    "=, :+ and +)";
		return -1;
	}
	op = *L->p++;
	unset = val == NULL || (colon && *val == '\0');
	/* The word is read either way, but only a word that is used may
	 * warn about what it refers to. */
	if ((op == '+') == unset)
		L->quiet++;
	if (word(L, &dflt, 1) == -1)
		goto out;
	if ((op == '+') == unset)
		L->quiet--;
	if (L->p >= L->end || *L->p != '}') {
		L->why = "unterminated ${";
		goto out;
	}
	L->p++;
	if (op == '+') {
		if (!unset)
			buf_add(out, dflt.ptr, dflt.len);
	} else if (unset) {
		buf_add(out, dflt.ptr, dflt.len);
		if (op == '=' && pend_add(L, name, n, dflt.ptr) == -1)
			goto out;
	} else
		buf_adds(out, val);
	rc = 0;
out:
	buf_release(&dflt);
	return rc;
}

/* After an opening double quote: up to the closing one. */
static int
dquote(struct lex *L, struct buf *out)
{
	while (L->p < L->end && *L->p != '"') {
		switch (*L->p) {
		case '\\':
			if (L->p + 1 < L->end && strchr("$`\"\\\n", L->p[1])) {
				if (L->p[1] == '\n')
					L->line++;
				else
					buf_addc(out, L->p[1]);
				L->p += 2;
			} else
				buf_addc(out, *L->p++);
			break;
		case '$':
			if (expand(L, out) == -1)
				return -1;
			break;
		case '`':
			L->why = "command substitution `...` is not run";
			return -1;
		case '\n':
			L->line++;
			/* FALLTHROUGH */
		default:
			buf_addc(out, *L->p++);
		}
	}
	if (L->p >= L->end) {
		L->why = "unterminated double quote";
		return -1;
	}
	L->p++;
	return 0;
}

/*
 * One shell word at L->p into out, quotes removed and variables
 * expanded. It ends at an unquoted blank or operator, or, when in_brace,
 * at an unquoted '}' (the word of ${X:-word}, where blanks are text).
 */
static int
word(struct lex *L, struct buf *out, int in_brace)
{
	const char *q;

	while (L->p < L->end) {
		int c = (unsigned char)*L->p;

		if (in_brace && c == '}')
			return 0;
		if (!in_brace && strchr(" \t\n;&|<>()", c) != NULL)
			return 0;
		switch (c) {
		case '\\':
			if (L->p + 1 >= L->end) {
				L->p++;
				break;
			}
			if (L->p[1] == '\n')
				L->line++;
			else
				buf_addc(out, L->p[1]);
			L->p += 2;
			break;
		case '\'':
			q = memchr(L->p + 1, '\'', (size_t)(L->end - L->p - 1));
			if (q == NULL) {
				L->why = "unterminated single quote";
				return -1;
			}
			buf_add(out, L->p + 1, (size_t)(q - L->p - 1));
			for (L->p++; L->p < q; L->p++)
				if (*L->p == '\n')
					L->line++;
			L->p = q + 1;
			break;
		case '"':
			L->p++;
			if (dquote(L, out) == -1)
				return -1;
			break;
		case '$':
			if (expand(L, out) == -1)
				return -1;
			break;
		case '`':
			L->why = "command substitution `...` is not run";
			return -1;
		case '\n':
			L->line++;
			/* FALLTHROUGH */
		default:
			buf_addc(out, c);
			L->p++;
		}
	}
	return 0;
}

static void
skip_blanks(struct lex *L)
{
	while (L->p < L->end && (*L->p == ' ' || *L->p == '\t' ||
	    (*L->p == '\\' && L->p + 1 < L->end && L->p[1] == '\n'))) {
		if (*L->p == '\\') {
			L->p++;
			L->line++;
		}
		L->p++;
	}
}

/* The end of a statement: end of text, newline or a comment. */
static int
at_end(struct lex *L)
{
	return L->p >= L->end || *L->p == '\n' || *L->p == '#';
}

/* Why a statement that does not start with NAME= is skipped. */
static const char *
why_not(const char *p, const char *end)
{
	static const struct {
		const char *word, *why;
	} kw[] = {
		{ "source", "sources another file (not followed)" },
		{ ".", "sources another file (not followed)" },
		{ "if", "shell logic is not run" },
		{ "then", "shell logic is not run" },
		{ "else", "shell logic is not run" },
		{ "elif", "shell logic is not run" },
		{ "fi", "shell logic is not run" },
		{ "for", "shell logic is not run" },
		{ "while", "shell logic is not run" },
		{ "do", "shell logic is not run" },
		{ "done", "shell logic is not run" },
		{ "case", "shell logic is not run" },
		{ "esac", "shell logic is not run" },
		{ "function", "functions are not run" },
		{ "declare", "declare is not supported; use NAME=value" },
		{ "typeset", "typeset is not supported; use NAME=value" },
		{ "readonly", "readonly is not supported; use NAME=value" },
		{ "local", "local is not supported; use NAME=value" },
		{ "unset", "unset is not supported" },
	};
	size_t i, n = 0;

	while (p + n < end && strchr(" \t\n;&|<>()", p[n]) == NULL)
		n++;
	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i].word) == n && memcmp(kw[i].word, p, n) == 0)
			return kw[i].why;
	return "not an assignment (commands are not run)";
}

/*
 * One line of statements: `[export] NAME=word ...` separated by blanks
 * or ';', or `export NAME ...`. Returns 0 with the assignments in L->pend,
 * or -1 with the reason in L->why.
 */
static int
statements(struct lex *L)
{
	struct buf val = BUF_INIT;
	const char *name;
	size_t n;
	int first = 1;

	for (;;) {
		skip_blanks(L);
		if (at_end(L))
			break;
		if (*L->p == ';') {
			L->p++;
			first = 1;
			continue;
		}
		if (first && L->end - L->p > 7 &&
		    memcmp(L->p, "export", 6) == 0 &&
		    (L->p[6] == ' ' || L->p[6] == '\t')) {
			L->p += 6;
			skip_blanks(L);
			n = name_len(L->p, L->end);
			if (n > 0 && L->p + n <= L->end &&
			    (L->p + n == L->end || L->p[n] != '=')) {
				/* export NAME...: marks, assigns nothing */
				while ((n = name_len(L->p, L->end)) > 0) {
					L->p += n;
					skip_blanks(L);
				}
				if (!at_end(L) && *L->p != ';') {
					L->why = "export with options is not "
					    "supported";
					goto fail;
				}
				continue;
			}
		}
		n = name_len(L->p, L->end);
		if (n == 0 || L->p + n >= L->end ||
		    (L->p[n] != '=' && !(L->p[n] == '+' &&
		    L->p + n + 1 < L->end && L->p[n + 1] == '='))) {
			L->why = first && L->npend == 0 ?
			    why_not(L->p, L->end) :
			    "a command after an assignment is not run";
			goto fail;
		}
		if (L->p[n] == '+') {
			L->why = "'+=' is not supported; use NAME=value";
			goto fail;
		}
		name = L->p;
		L->p += n + 1;
		if (L->p < L->end && *L->p == '(') {
			L->why = "arrays are not supported";
			goto fail;
		}
		buf_clear(&val);
		if (word(L, &val, 0) == -1)
			goto fail;
		if (L->p < L->end && strchr("&|<>()", *L->p) != NULL) {
			L->why = "redirections, pipes and subshells are not "
			    "run";
			goto fail;
		}
		if (pend_add(L, name, n, val.ptr) == -1)
			goto fail;
		first = 0;
	}
	buf_release(&val);
	return 0;
fail:
	buf_release(&val);
	return -1;
}

size_t
bssg_parse(struct bssg_site *s, const char *text, size_t len,
    const char *file, struct diag *d)
{
	struct lex L;
	const char *start, *eol;
	size_t i, skipped = 0;
	int line;

	buf_printf(&s->files, "%s%s", s->files.len ? ", " : "",
	    path_base(file));
	memset(&L, 0, sizeof(L));
	L.s = s;
	L.d = d;
	L.p = text;
	L.end = text + len;
	L.file = file;
	L.line = 1;
	while (L.p < L.end) {
		skip_blanks(&L);
		if (L.p >= L.end)
			break;
		if (*L.p == '\n') {
			L.p++;
			L.line++;
			continue;
		}
		if (*L.p == '#') {
			while (L.p < L.end && *L.p != '\n')
				L.p++;
			continue;
		}
		start = L.p;
		line = L.line;
		L.quiet = 0;
		if (statements(&L) == 0) {
			for (i = 0; i < L.npend; i++)
				set_var(s, L.pend[i].name, L.pend[i].value,
				    file, line);
			pend_clear(&L);
			continue;
		}
		eol = memchr(start, '\n', (size_t)(L.end - start));
		if (eol == NULL)
			eol = L.end;
		diag_warn(d, file, line, "skipped: %s: %.*s%s", L.why,
		    (int)(eol - start > 60 ? 60 : eol - start), start,
		    eol - start > 60 ? "..." : "");
		skipped++;
		pend_clear(&L);
		/* Go on after the line where reading stopped. */
		if (L.p < start)
			L.p = start;
		while (L.p < L.end && *L.p != '\n')
			L.p++;
	}
	return skipped;
}

struct bssg_site *
bssg_load(const char *dir, struct diag *d)
{
	static const char *const names[] = { "config.sh", "config.sh.local" };
	struct bssg_site *s;
	struct buf text = BUF_INIT;
	char *path;
	int found[2] = { 0, 0 };
	size_t i;

	s = bssg_new(dir);
	for (i = 0; i < 2; i++) {
		path = path_join(dir, names[i]);
		buf_clear(&text);
		if (fs_read(path, &text) == 0) {
			bssg_parse(s, text.ptr, text.len, path, d);
			found[i] = 1;
		} else if (errno != ENOENT) {
			diag_error(d, path, 0, "cannot read: %s",
			    strerror(errno));
			free(path);
			goto fail;
		}
		free(path);
	}
	path = path_join(dir, "config.sh");
	if (!found[0] && !found[1]) {
		diag_error(d, path, 0, "not found: this is not a BSSG site "
		    "folder (BSSG keeps its settings in config.sh and "
		    "config.sh.local)");
		free(path);
		goto fail;
	}
	if (!found[0])
		diag_warn(d, path, 0, "not found; only config.sh.local is "
		    "read, with BSSG's defaults for the rest");
	free(path);
	buf_release(&text);
	return s;
fail:
	buf_release(&text);
	bssg_free(s);
	return NULL;
}

/* --- site.yaml --- */

enum bkind { BK_STR, BK_BOOL, BK_INT, BK_PATH };

/* Each BSSG variable ssg has a setting for, with the value BSSG uses
 * when no file sets it (its config loader's, else config.sh 0.32's). */
static const struct bmap {
	const char	*var, *key;
	enum bkind	 kind;
	const char	*def;
} map[] = {
	{ "SITE_TITLE", "site_title", BK_STR, "My Journal" },
	{ "SITE_DESCRIPTION", "site_description", BK_STR,
	    "A personal journal and introspective newspaper" },
	{ "SITE_URL", "site_url", BK_STR, "http://localhost" },
	{ "AUTHOR_NAME", "author_name", BK_STR, "Anonymous" },
	{ "AUTHOR_EMAIL", "author_email", BK_STR, "anonymous@example.com" },
	{ "SITE_LANG", "site_lang", BK_STR, "en" },
	{ "THEME", "theme", BK_STR, "default" },
	{ "CUSTOM_CSS", "custom_css", BK_STR, "" },
	{ "URL_SLUG_FORMAT", "url_slug_format", BK_STR, "Year/Month/Day/slug" },
	{ "PAGE_URL_FORMAT", "page_url_format", BK_STR, "slug" },
	{ "DATE_FORMAT", "date_format", BK_STR, "%Y-%m-%d %H:%M:%S" },
	{ "TIMEZONE", "timezone", BK_STR, "local" },
	{ "SHOW_TIMEZONE", "show_timezone", BK_BOOL, "false" },
	{ "POSTS_PER_PAGE", "posts_per_page", BK_INT, "10" },
	{ "INDEX_SHOW_FULL_CONTENT", "index_show_full_content", BK_BOOL,
	    "false" },
	{ "RSS_FILENAME", "rss_filename", BK_STR, "rss.xml" },
	{ "RSS_ITEM_LIMIT", "rss_item_limit", BK_INT, "15" },
	{ "RSS_INCLUDE_FULL_CONTENT", "rss_include_full_content", BK_BOOL,
	    "false" },
	{ "ENABLE_ARCHIVES", "enable_archives", BK_BOOL, "true" },
	{ "ARCHIVES_LIST_ALL_POSTS", "archives_list_all_posts", BK_BOOL,
	    "false" },
	{ "ENABLE_TAG_RSS", "enable_tag_rss", BK_BOOL, "false" },
	{ "ENABLE_AUTHOR_PAGES", "enable_author_pages", BK_BOOL, "true" },
	{ "ENABLE_AUTHOR_RSS", "enable_author_rss", BK_BOOL, "false" },
	{ "SHOW_AUTHORS_MENU_THRESHOLD", "show_authors_menu_threshold", BK_INT,
	    "2" },
	{ "ENABLE_RELATED_POSTS", "enable_related_posts", BK_BOOL, "true" },
	{ "RELATED_POSTS_COUNT", "related_posts_count", BK_INT, "3" },
	{ "CLEAN_OUTPUT", "clean_output", BK_BOOL, "false" },
	{ "PRECOMPRESS_ASSETS", "precompress_assets", BK_BOOL, "false" },
	{ "REBUILD_AFTER_POST", "rebuild_after_post", BK_BOOL, "true" },
	{ "REBUILD_AFTER_EDIT", "rebuild_after_edit", BK_BOOL, "true" },
	{ "SRC_DIR", "posts_dir", BK_PATH, "src" },
	{ "PAGES_DIR", "pages_dir", BK_PATH, "pages" },
	{ "DRAFTS_DIR", "drafts_dir", BK_PATH, "drafts" },
	{ "STATIC_DIR", "static_dir", BK_PATH, "static" },
	{ "OUTPUT_DIR", "output_dir", BK_PATH, "output" },
	{ "TEMPLATES_DIR", "templates_dir", BK_PATH, "templates" },
	{ "THEMES_DIR", "themes_dir", BK_PATH, "themes" },
};

#define NMAP (sizeof(map) / sizeof(map[0]))

/* BSSG variables with no ssg setting, and why they need none. */
static const struct {
	const char *var, *why;
} unmapped[] = {
	{ "MARKDOWN_PROCESSOR", "ssg renders Markdown itself (cmark-gfm)" },
	{ "MARKDOWN_PL_PATH", "ssg renders Markdown itself (cmark-gfm)" },
	{ "BUILD_MODE", "ssg has one build mode, incremental and in memory" },
	{ "CACHE_DIR", "ssg keeps its cache in .ssg-cache/" },
	{ "FORCE_REBUILD", "use `ssg build --force`" },
	{ "BACKUP_DIR", "ssg has no backup command" },
	{ "LOCALE_DIR", "ssg's translations are built in (site_lang)" },
	{ "CONFIG_FILE", "ssg reads site.yaml" },
	{ "DEPLOY_AFTER_BUILD", "publish with the deploy program" },
	{ "DEPLOY_SCRIPT", "publish with the deploy program" },
	{ "BSSG_SERVER_PORT_DEFAULT", "use `ssg serve --port`" },
	{ "BSSG_SERVER_HOST_DEFAULT", "use `ssg serve --host`" },
	{ "RED", "a terminal colour of BSSG's messages" },
	{ "GREEN", "a terminal colour of BSSG's messages" },
	{ "YELLOW", "a terminal colour of BSSG's messages" },
	{ "BLUE", "a terminal colour of BSSG's messages" },
	{ "NC", "a terminal colour of BSSG's messages" },
};

/* A YAML double-quoted scalar. */
static void
yaml_str(struct buf *out, const char *s)
{
	buf_addc(out, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf_addc(out, '\\');
			buf_addc(out, c);
		} else if (c == '\n')
			buf_adds(out, "\\n");
		else if (c == '\t')
			buf_adds(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_addc(out, c);
	}
	buf_addc(out, '"');
}

/*
 * A BSSG folder as ssg should name it from the site folder: `~` expanded
 * as BSSG does, absolute paths inside the site made relative, "./" and
 * trailing slashes dropped. Returns a malloc'd path.
 */
static char *
site_path(const struct bssg_site *s, const struct bmap *m, const char *v,
    struct diag *d, const char *origin, int line)
{
	char real[PATH_MAX], *p, *r;
	const char *home = getenv("HOME");
	size_t n;

	if ((v[0] == '~' && v[1] == '\0') || strncmp(v, "~/", 2) == 0) {
		if (home == NULL) {
			diag_warn(d, origin, line, "%s: HOME is not set, so "
			    "'~' is kept", m->var);
			p = xstrdup(v);
		} else
			p = path_join(home, v[1] == '/' ? v + 2 : ".");
	} else
		p = xstrdup(v);
	while ((n = strlen(p)) > 1 && p[n - 1] == '/')
		p[n - 1] = '\0';
	while (strncmp(p, "./", 2) == 0 && p[2] != '\0')
		memmove(p, p + 2, strlen(p + 2) + 1);
	if (p[0] != '/')
		return p;
	if (realpath(s->dir, real) != NULL) {
		n = strlen(real);
		if (strncmp(p, real, n) == 0 && (p[n] == '/' ||
		    p[n] == '\0')) {
			r = xstrdup(p[n] == '\0' ? "." : p + n + 1);
			free(p);
			return r;
		}
	}
	diag_warn(d, origin, line, "%s: '%s' is outside the site folder; "
	    "kept as an absolute path", m->var, p);
	return p;
}

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int
has_file(const char *dir, const char *name)
{
	char *path = path_join(dir, name);
	int rc = fs_is_file(path);

	free(path);
	return rc;
}

static int
is_mapped(const char *var)
{
	size_t i;

	for (i = 0; i < NMAP; i++)
		if (strcmp(map[i].var, var) == 0)
			return 1;
	return 0;
}

size_t
bssg_write_yaml(const struct bssg_site *s, struct buf *out, struct diag *d)
{
	const struct bmap *m;
	struct bvar *v;
	const char *val, *why;
	char *origin, *path, *tmpl;
	size_t i, j, nset = 0, nother = 0;

	buf_adds(out, "# site.yaml for ssg, written by `ssg import bssg` from "
	    "the BSSG\n# settings in ");
	buf_adds(out, s->files.len ? s->files.ptr : "(no file)");
	buf_adds(out, ".\n# Every setting is written out, so the site builds "
	    "as BSSG builds it;\n# \"BSSG default\" marks what those files "
	    "leave unset.\n\n");
	for (i = 0; i < NMAP; i++) {
		m = &map[i];
		v = find_var(s, m->var, strlen(m->var));
		val = v ? v->value : m->def;
		origin = v ? path_join(s->dir, v->file) : NULL;
		buf_printf(out, "%s: ", m->key);
		switch (m->kind) {
		case BK_STR:
			yaml_str(out, val);
			break;
		case BK_BOOL:
			/* BSSG tests `= true`: anything else is false. */
			if (strcmp(val, "true") != 0 &&
			    strcmp(val, "false") != 0)
				diag_warn(d, origin, v ? v->line : 0, "%s: "
				    "'%s' is not 'true', so BSSG reads it as "
				    "false", m->var, val);
			buf_adds(out, strcmp(val, "true") == 0 ? "true" :
			    "false");
			break;
		case BK_INT:
			if (!all_digits(val)) {
				diag_warn(d, origin, v ? v->line : 0, "%s: "
				    "'%s' is not a whole number; BSSG's "
				    "default %s is written", m->var, val,
				    m->def);
				val = m->def;
			}
			buf_adds(out, val);
			break;
		case BK_PATH:
			path = site_path(s, m, val, d, origin,
			    v ? v->line : 0);
			yaml_str(out, path);
			free(path);
			break;
		}
		if (v)
			buf_printf(out, "\t# %s (%s:%d)\n", m->var, v->file,
			    v->line);
		else
			buf_printf(out, "\t# %s: BSSG default\n", m->var);
		free(origin);
		nset++;
	}

	tmpl = path_join(s->dir, (val = bssg_get(s, "TEMPLATES_DIR")) ? val :
	    "templates");
	if (has_file(tmpl, "header.html") || has_file(tmpl, "footer.html"))
		buf_adds(out, "\n# BSSG's header.html and footer.html "
		    "templates are not used: ssg's\n# templates are "
		    ".mustache files (a site's own ones go in "
		    "templates_dir).\n");
	free(tmpl);

	for (i = 0; i < s->nv; i++) {
		v = &s->v[i];
		if (is_mapped(v->name))
			continue;
		if (nother++ == 0)
			buf_adds(out, "\n# BSSG settings ssg has no setting "
			    "for (not used):\n");
		why = "not a BSSG setting ssg knows";
		for (j = 0; j < sizeof(unmapped) / sizeof(unmapped[0]); j++)
			if (strcmp(unmapped[j].var, v->name) == 0)
				why = unmapped[j].why;
		buf_printf(out, "#   %s=", v->name);
		yaml_str(out, v->value);
		buf_printf(out, " (%s:%d): %s\n", v->file, v->line, why);
	}
	return nset;
}
