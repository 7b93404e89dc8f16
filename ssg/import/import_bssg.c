/*
 * BSSG's config.sh read as data: a parser for the assignments a Bash
 * configuration file holds. Nothing is ever run; what is not an
 * assignment is skipped and reported. The site.yaml that says the same
 * thing is written by import_bssg_yaml.c.
 */
#include "import_bssg.h"
#include "import_bssg_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

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

/* Whether the variable v is called name[0..n-1]. */
static int
is_named(const struct bvar *v, const char *name, size_t n)
{
	return strlen(v->name) == n && memcmp(v->name, name, n) == 0;
}

struct bvar *
bssg_find_var(const struct bssg_site *s, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < s->nv; i++)
		if (is_named(&s->v[i], name, n))
			return &s->v[i];
	return NULL;
}

const char *
bssg_get(const struct bssg_site *s, const char *name)
{
	struct bvar *v = bssg_find_var(s, name, strlen(name));

	return v ? v->value : NULL;
}

static void
set_var(struct bssg_site *s, const char *name, const char *value,
    enum bvar_kind kind, const char *file, int line)
{
	struct bvar *v = bssg_find_var(s, name, strlen(name));

	if (v == NULL) {
		xgrow((void **)&s->v, &s->cap, s->nv + 1, sizeof(*s->v));
		v = &s->v[s->nv++];
		v->name = xstrdup(name);
	} else {
		free(v->value);
		free(v->file);
	}
	v->value = xstrdup(value);
	v->kind = kind;
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
		if (is_named(&L->pend[i - 1], name, n))
			return L->pend[i - 1].value;
	if ((v = bssg_find_var(L->s, name, n)) != NULL)
		return v->value;
	if (n == 4 && memcmp(name, "HOME", 4) == 0)
		return getenv("HOME");
	return NULL;
}

static int
pend_add(struct lex *L, const char *name, size_t n, const char *value,
    enum bvar_kind kind)
{
	if (L->npend == MAXPEND) {
		L->why = "too many assignments on one line";
		return -1;
	}
	L->pend[L->npend].name = xstrndup(name, n);
	L->pend[L->npend].value = xstrdup(value);
	L->pend[L->npend].kind = kind;
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
	if (word(L, &dflt, '}') == -1)
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
		if (op == '=' && pend_add(L, name, n, dflt.ptr, BV_SCALAR) ==
		    -1)
			goto out;
	} else
		buf_adds(out, val);
	rc = 0;
out:
	buf_release(&dflt);
	return rc;
}

/* L->p is at a backslash with a character after it: a line continues,
 * any other character stands for itself. */
static void
escaped(struct lex *L, struct buf *out)
{
	if (L->p[1] == '\n')
		L->line++;
	else
		buf_addc(out, L->p[1]);
	L->p += 2;
}

/* A character that means the same inside double quotes and out: $
 * expands, a backquote is refused, anything else is text. */
static int
plain(struct lex *L, struct buf *out)
{
	switch (*L->p) {
	case '$':
		return expand(L, out);
	case '`':
		L->why = "command substitution `...` is not run";
		return -1;
	case '\n':
		L->line++;
		/* FALLTHROUGH */
	default:
		buf_addc(out, *L->p++);
		return 0;
	}
}

/* After an opening double quote: up to the closing one. */
static int
dquote(struct lex *L, struct buf *out)
{
	while (L->p < L->end && *L->p != '"') {
		if (*L->p == '\\' && L->p + 1 < L->end &&
		    strchr("$`\"\\\n", L->p[1]))
			escaped(L, out);
		else if (*L->p == '\\')
			buf_addc(out, *L->p++);
		else if (plain(L, out) == -1)
			return -1;
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
 * expanded. It ends at an unquoted blank or operator, or, when stop is
 * '}' or ']', at that character unquoted (the word of ${X:-word} or the
 * key of [key]=value, where blanks are text).
 */
static int
word(struct lex *L, struct buf *out, int stop)
{
	const char *q;

	while (L->p < L->end) {
		int c = (unsigned char)*L->p;

		if (stop && c == stop)
			return 0;
		if (!stop && strchr(" \t\n;&|<>()", c) != NULL)
			return 0;
		switch (c) {
		case '\\':
			if (L->p + 1 >= L->end)
				L->p++;
			else
				escaped(L, out);
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
		default:
			if (plain(L, out) == -1)
				return -1;
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
		{ "declare", "declare is read only as declare -a NAME=(...) "
		    "or declare -A NAME=(...)" },
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

/* Blanks, line ends, continued lines and comments inside ( ... ). */
static void
skip_array_space(struct lex *L)
{
	while (L->p < L->end) {
		if (*L->p == ' ' || *L->p == '\t')
			L->p++;
		else if (*L->p == '\n') {
			L->line++;
			L->p++;
		} else if (*L->p == '\\' && L->p + 1 < L->end &&
		    L->p[1] == '\n') {
			L->line++;
			L->p += 2;
		} else if (*L->p == '#') {
			while (L->p < L->end && *L->p != '\n')
				L->p++;
		} else
			break;
	}
}

/*
 * L->p is at the '(' of NAME=( ... ): reads the items up to ')', over as
 * many lines as they take, into out: "item\n" each, or for an associative
 * array ([key]=value items) "key\tvalue\n".
 */
static int
array(struct lex *L, struct buf *out, int assoc)
{
	struct buf key = BUF_INIT, item = BUF_INIT;
	const char *start;
	int rc = -1;

	for (L->p++;;) {
		skip_array_space(L);
		if (L->p >= L->end) {
			L->why = "unterminated (";
			goto out;
		}
		if (*L->p == ')') {
			L->p++;
			break;
		}
		buf_clear(&key);
		buf_clear(&item);
		if (assoc) {
			if (*L->p != '[') {
				L->why = "an item of declare -A is [key]=value";
				goto out;
			}
			L->p++;
			if (word(L, &key, ']') == -1)
				goto out;
			if (L->end - L->p < 2 || L->p[0] != ']' ||
			    L->p[1] != '=') {
				L->why = "an item of declare -A is [key]=value";
				goto out;
			}
			L->p += 2;
		}
		start = L->p;
		if (word(L, &item, 0) == -1)
			goto out;
		if (L->p == start && !assoc) {
			L->why = "only words go between ( and )";
			goto out;
		}
		if (strpbrk(key.ptr, "\t\n") || strpbrk(item.ptr, "\t\n")) {
			L->why = "an array item holds a tab or a line end";
			goto out;
		}
		if (assoc)
			buf_printf(out, "%s\t", key.ptr);
		buf_printf(out, "%s\n", item.ptr);
	}
	rc = 0;
out:
	buf_release(&key);
	buf_release(&item);
	return rc;
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
	int first = 1, assoc;

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
		assoc = -1;
		if (first && L->end - L->p > 8 &&
		    memcmp(L->p, "declare", 7) == 0 &&
		    (L->p[7] == ' ' || L->p[7] == '\t')) {
			/* declare -a NAME=(...) and declare -A NAME=(...) */
			L->p += 7;
			assoc = 0;
			for (skip_blanks(L); L->p < L->end && *L->p == '-';
			    skip_blanks(L))
				for (L->p++; L->p < L->end &&
				    strchr("aAgx", *L->p) != NULL &&
				    *L->p != '\0'; L->p++)
					if (*L->p == 'A')
						assoc = 1;
			n = name_len(L->p, L->end);
			if (n == 0 || L->end - L->p < (ptrdiff_t)n + 2 ||
			    L->p[n] != '=' || L->p[n + 1] != '(') {
				L->why = "declare is read only as "
				    "declare -a NAME=(...) or declare -A "
				    "NAME=(...)";
				goto fail;
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
		buf_clear(&val);
		if (L->p < L->end && *L->p == '(') {
			if (array(L, &val, assoc == 1) == -1)
				goto fail;
			if (pend_add(L, name, n, val.ptr, assoc == 1 ?
			    BV_ASSOC : BV_ARRAY) == -1)
				goto fail;
			first = 0;
			continue;
		}
		if (assoc != -1) {
			L->why = "declare is read only as declare -a "
			    "NAME=(...) or declare -A NAME=(...)";
			goto fail;
		}
		if (word(L, &val, 0) == -1)
			goto fail;
		if (L->p < L->end && strchr("&|<>()", *L->p) != NULL) {
			L->why = "redirections, pipes and subshells are not "
			    "run";
			goto fail;
		}
		if (pend_add(L, name, n, val.ptr, BV_SCALAR) == -1)
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
				    L.pend[i].kind, file, line);
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
