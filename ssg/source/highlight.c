#include "highlight.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "mem.h"

extern char **environ;

#define HL_MAGIC	"SSGHL\0\0\1"
#ifndef HL_HELPERS
#define HL_HELPERS	4		/* helpers at most, whatever the threads */
#endif
#define HL_MAX_CODE	(512u << 10)	/* a larger block stays plain */
#define HL_TIMEOUT_MS	30000		/* for one block: then it stays plain */
#define NEG_N		UINT32_MAX	/* n of a "no such language" entry */

/*
 * The helpers belong to the program, not to one build, so that ssg serve
 * keeps them between builds: a Python start with Pygments' import costs
 * about as much as a rebuild after an edit.
 */
struct helper {
	pthread_mutex_t	 lock;
	int		 fd;		/* -1: not running */
	pid_t		 pid;
	char		 rbuf[4096];
	size_t		 rpos, rlen;
	char		 version[64];	/* "pygments 2.14.0" */
	char		 where[1024];	/* pygments/__init__.py */
	char		*ident;		/* make_ident of the two */
};

static pthread_mutex_t helpers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct helper helpers[HL_HELPERS];
static size_t nhelpers;			/* slots set up */
static char *helper_script;		/* what they run */

struct entry {
	uint64_t	 key;		/* 0: free */
	uint32_t	 n;		/* code length; NEG_N: language entry */
	uint32_t	 hlen;
	const char	*html;		/* in the file read, or malloc'd */
	unsigned char	 used, owned;
};

struct highlight {
	pthread_mutex_t	 lock;		/* all below */
	struct diag	*d;
	char		*script, *path;
	int		 loaded, dirty;
	struct buf	 file;		/* the cache as read */
	char		*ident;		/* the highlighter the entries are from */
	struct entry	*tab;
	size_t		 cap, count;
	char		**warned;	/* languages warned about */
	size_t		 nwarned, capwarned;
	char		*unavailable;	/* why there is no highlighter */
	struct highlight_stats st;
};

char *
highlight_script(const char *themes)
{
	static const char *const rel[] = { "../highlight.py",
	    "../ssg/highlight.py" };
	char *p;
	size_t i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		p = path_join(themes, rel[i]);
		if (fs_is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

struct highlight *
highlight_new(const char *script, const char *cache, struct diag *d)
{
	struct highlight *h = xcalloc(1, sizeof(*h));

	pthread_mutex_init(&h->lock, NULL);
	h->d = d;
	h->script = script ? xstrdup(script) : NULL;
	h->path = xstrdup(cache);
	buf_init(&h->file);
	if (script == NULL)
		h->unavailable = xstrdup("highlight.py is not in ssg's data "
		    "folder (reinstall ssg)");
	return h;
}

void
highlight_free(struct highlight *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < h->cap; i++)
		if (h->tab[i].owned)
			free((char *)h->tab[i].html);
	for (i = 0; i < h->nwarned; i++)
		free(h->warned[i]);
	free(h->warned);
	free(h->tab);
	free(h->ident);
	free(h->unavailable);
	free(h->script);
	free(h->path);
	buf_release(&h->file);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

void
highlight_get_stats(const struct highlight *h, struct highlight_stats *st)
{
	*st = h->st;
}

/* --- the table -------------------------------------------------------- */

static struct entry *
tab_find(struct highlight *h, uint64_t key, uint32_t n)
{
	size_t i;

	if (h->cap == 0)
		return NULL;
	for (i = key & (h->cap - 1); h->tab[i].key != 0; i = (i + 1) &
	    (h->cap - 1))
		if (h->tab[i].key == key && h->tab[i].n == n)
			return &h->tab[i];
	return NULL;
}

/* Adds an entry (html is taken: owned or in the file); the same key
 * again replaces it. */
static struct entry *
tab_put(struct highlight *h, uint64_t key, uint32_t n, const char *html,
    uint32_t hlen, int owned)
{
	struct entry *old, *e;
	size_t i, oldcap = h->cap;

	if ((e = tab_find(h, key, n)) != NULL) {
		if (e->owned)
			free((char *)e->html);
		e->html = html;
		e->hlen = hlen;
		e->owned = (unsigned char)owned;
		return e;
	}
	if ((h->count + 1) * 2 > h->cap) {
		old = h->tab;
		h->cap = h->cap ? h->cap * 2 : 256;
		h->tab = xcalloc(h->cap, sizeof(*h->tab));
		for (i = 0; i < oldcap; i++) {
			size_t j;

			if (old[i].key == 0)
				continue;
			for (j = old[i].key & (h->cap - 1); h->tab[j].key != 0;
			    j = (j + 1) & (h->cap - 1))
				;
			h->tab[j] = old[i];
		}
		free(old);
	}
	for (i = key & (h->cap - 1); h->tab[i].key != 0; i = (i + 1) &
	    (h->cap - 1))
		;
	e = &h->tab[i];
	e->key = key;
	e->n = n;
	e->html = html;
	e->hlen = hlen;
	e->owned = (unsigned char)owned;
	e->used = 0;
	h->count++;
	return e;
}

static void
tab_clear(struct highlight *h)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		if (h->tab[i].owned)
			free((char *)h->tab[i].html);
	free(h->tab);
	h->tab = NULL;
	h->cap = h->count = 0;
}

static uint64_t
block_key(const char *lang, const char *code, size_t n)
{
	struct buf k = BUF_INIT;
	uint64_t v;

	buf_adds(&k, lang);
	buf_addc(&k, '\0');
	buf_add(&k, code, n);
	v = hash64(k.ptr, k.len);
	buf_release(&k);
	return v ? v : 1;
}

static uint64_t
lang_key(const char *lang)
{
	struct buf k = BUF_INIT;
	uint64_t v;

	buf_addc(&k, '\1');
	buf_adds(&k, lang);
	v = hash64(k.ptr, k.len);
	buf_release(&k);
	return v ? v : 1;
}

/* --- which highlighter -------------------------------------------------- */

/*
 * What names the highlighter without starting it: Pygments' version and
 * the file it was imported from, with that file's stat (an upgrade
 * rewrites it), and the hash of the helper script.
 */
static char *
make_ident(const char *version, const char *where, const char *script)
{
	struct buf b = BUF_INIT, s = BUF_INIT;
	struct stat st;
	char hex[17];

	if (stat(where, &st) == -1)
		memset(&st, 0, sizeof(st));
	if (script == NULL || fs_read(script, &s) == -1)
		buf_clear(&s);
	hash_hex(hash64(s.ptr, s.len), hex);
	buf_printf(&b, "%s|%s|%lld|%lld.%09ld|%llu|%s", version, where,
	    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ino, hex);
	buf_release(&s);
	return buf_detach(&b, NULL);
}

static int
get_u32(const char **p, const char *end, uint32_t *v)
{
	if ((size_t)(end - *p) < sizeof(*v))
		return -1;
	memcpy(v, *p, sizeof(*v));
	*p += sizeof(*v);
	return 0;
}

/* Reads the cache, if it is this highlighter's; called once, locked. */
static void
load(struct highlight *h)
{
	const char *p, *end, *nl, *bar, *bar2;
	char *ident = NULL, *version = NULL, *where = NULL;
	uint64_t key, sum;
	uint32_t n, hlen;

	h->loaded = 1;
	if (fs_read(h->path, &h->file) == -1)
		return;
	p = h->file.ptr;
	end = p + h->file.len;
	if (h->file.len < sizeof(HL_MAGIC) - 1 + sizeof(sum) ||
	    memcmp(p, HL_MAGIC, sizeof(HL_MAGIC) - 1) != 0)
		goto bad;
	end -= sizeof(sum);
	memcpy(&sum, end, sizeof(sum));
	if (hash64(p, (size_t)(end - p)) != sum)
		goto bad;
	p += sizeof(HL_MAGIC) - 1;
	if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL ||
	    (bar = memchr(p, '|', (size_t)(nl - p))) == NULL ||
	    (bar2 = memchr(bar + 1, '|', (size_t)(nl - bar - 1))) == NULL)
		goto bad;
	version = xstrndup(p, (size_t)(bar - p));
	where = xstrndup(bar + 1, (size_t)(bar2 - bar - 1));
	ident = make_ident(version, where, h->script);
	if (strlen(ident) != (size_t)(nl - p) ||
	    memcmp(ident, p, (size_t)(nl - p)) != 0)
		goto out;	/* another highlighter's: start afresh */
	for (p = nl + 1; p < end; p += hlen) {
		if ((size_t)(end - p) < sizeof(key))
			goto bad;
		memcpy(&key, p, sizeof(key));
		p += sizeof(key);
		if (get_u32(&p, end, &n) == -1 || get_u32(&p, end, &hlen) ==
		    -1 || (size_t)(end - p) < hlen)
			goto bad;
		tab_put(h, key, n, p, hlen, 0);
	}
	h->ident = ident;
	ident = NULL;
	goto out;
bad:
	diag_warn(h->d, h->path, 0, "damaged: the highlighted code it held "
	    "is made again");
	tab_clear(h);
out:
	free(ident);
	free(version);
	free(where);
}

void
highlight_save(struct highlight *h, int prune)
{
	struct buf b = BUF_INIT;
	uint64_t sum;
	size_t i, kept = 0;
	const struct entry *e;

	if (h == NULL || h->ident == NULL)
		return;
	for (i = 0; i < h->cap; i++)
		if (h->tab[i].key != 0 && (h->tab[i].used || !prune))
			kept++;
	if (!h->dirty && kept == h->count)
		return;
	buf_add(&b, HL_MAGIC, sizeof(HL_MAGIC) - 1);
	buf_adds(&b, h->ident);
	buf_addc(&b, '\n');
	for (i = 0; i < h->cap; i++) {
		e = &h->tab[i];
		if (e->key == 0 || (prune && !e->used))
			continue;
		buf_add(&b, &e->key, sizeof(e->key));
		buf_add(&b, &e->n, sizeof(e->n));
		buf_add(&b, &e->hlen, sizeof(e->hlen));
		buf_add(&b, e->html, e->hlen);
	}
	sum = hash64(b.ptr, b.len);
	buf_add(&b, &sum, sizeof(sum));
	if (fs_write_cache(h->path, b.ptr, b.len) == -1)
		diag_warn(h->d, h->path, 0, "cannot save the highlighted code: "
		    "%s", strerror(errno));
	buf_release(&b);
}

/* --- helpers ----------------------------------------------------------- */

/* Ends the helper: it exits when its input ends; one that failed is
 * killed, since it may be stuck in a lexer. */
static void
helper_stop(struct helper *hp, int failed)
{
	if (hp->fd != -1) {
		if (failed)
			kill(hp->pid, SIGKILL);
		close(hp->fd);
		while (waitpid(hp->pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	hp->fd = -1;
	hp->rpos = hp->rlen = 0;
}

/* Reads n bytes (within the time limit); -1 on end, error or time out. */
static int
helper_read(struct helper *hp, char *dst, size_t n)
{
	struct pollfd pfd;
	ssize_t r;
	size_t k;

	while (n > 0) {
		if (hp->rpos == hp->rlen) {
			pfd.fd = hp->fd;
			pfd.events = POLLIN;
			if ((r = poll(&pfd, 1, HL_TIMEOUT_MS)) == -1 &&
			    errno == EINTR)
				continue;
			if (r <= 0)
				return -1;
			if ((r = read(hp->fd, hp->rbuf, sizeof(hp->rbuf))) <= 0) {
				if (r == -1 && errno == EINTR)
					continue;
				return -1;
			}
			hp->rpos = 0;
			hp->rlen = (size_t)r;
		}
		k = hp->rlen - hp->rpos < n ? hp->rlen - hp->rpos : n;
		memcpy(dst, hp->rbuf + hp->rpos, k);
		hp->rpos += k;
		dst += k;
		n -= k;
	}
	return 0;
}

static int
helper_line(struct helper *hp, char *line, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size; i++) {
		if (helper_read(hp, line + i, 1) == -1)
			return -1;
		if (line[i] == '\n') {
			line[i] = '\0';
			return 0;
		}
	}
	return -1;
}

static int
helper_write(struct helper *hp, const void *data, size_t n)
{
	const char *p = data;
	ssize_t w;

	while (n > 0) {
		/* a helper that died must not kill us with SIGPIPE */
		if ((w = send(hp->fd, p, n, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Starts the helper in hp; -1 with *why (malloc'd) when there is none. */
static int
helper_start(struct helper *hp, const char *script, char **why)
{
	const char *python = getenv("SSG_PYTHON");
	char *argv[4], line[1024];
	posix_spawn_file_actions_t fa;
	int sv[2], rc;

	if (python == NULL || *python == '\0')
		python = "python3";
	/* close-on-exec from the start: a helper another thread starts at
	 * the same time must not hold this one's pipe open */
#ifdef SOCK_CLOEXEC
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
#else
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1) {
#endif
		*why = xstrdup(strerror(errno));
		return -1;
	}
	(void)fcntl(sv[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(sv[1], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	posix_spawn_file_actions_addclose(&fa, sv[1]);
	posix_spawn_file_actions_addclose(&fa, sv[0]);
	argv[0] = (char *)python;
	argv[1] = (char *)"-B";
	argv[2] = (char *)script;
	argv[3] = NULL;
	rc = posix_spawnp(&hp->pid, python, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (rc != 0) {
		close(sv[0]);
		*why = xstrdup(rc == ENOENT ? "python3 was not found (install "
		    "python3-pygments)" : strerror(rc));
		return -1;
	}
	hp->fd = sv[0];
	hp->rpos = hp->rlen = 0;
	if (helper_line(hp, line, sizeof(line)) == -1) {
		helper_stop(hp, 1);
		*why = xstrdup("the highlighter (python3 and highlight.py) "
		    "did not start");
		return -1;
	}
	if (strncmp(line, "pygments ", 9) != 0) {
		struct buf b = BUF_INIT;

		helper_stop(hp, 1);
		buf_printf(&b, "Pygments is not available (%s; install "
		    "python3-pygments)", strncmp(line, "none ", 5) == 0 ?
		    line + 5 : line);
		*why = buf_detach(&b, NULL);
		return -1;
	}
	if (strlen(line) >= sizeof(hp->version)) {
		helper_stop(hp, 1);
		*why = xstrdup("the highlighter named itself strangely");
		return -1;
	}
	memcpy(hp->version, line, strlen(line) + 1);
	if (helper_line(hp, hp->where, sizeof(hp->where)) == -1) {
		helper_stop(hp, 1);
		*why = xstrdup("the highlighter stopped as it started");
		return -1;
	}
	free(hp->ident);
	hp->ident = make_ident(hp->version, hp->where, script);
	return 0;
}

/*
 * A helper for this thread, locked: a free one, else a new one (up to
 * HL_HELPERS), else the first (waiting for it). NULL with *why when none
 * starts; *started is set when one was started.
 */
static struct helper *
helper_get(const char *script, char **why, int *started)
{
	struct helper *hp;
	size_t i;

	pthread_mutex_lock(&helpers_lock);
	if (helper_script != NULL && strcmp(helper_script, script) != 0) {
		/* another data folder: its helper may differ */
		for (i = 0; i < nhelpers; i++) {
			pthread_mutex_lock(&helpers[i].lock);
			helper_stop(&helpers[i], 0);
			pthread_mutex_unlock(&helpers[i].lock);
		}
	}
	if (helper_script == NULL || strcmp(helper_script, script) != 0) {
		free(helper_script);
		helper_script = xstrdup(script);
	}
	for (i = 0; i < nhelpers; i++)
		if (pthread_mutex_trylock(&helpers[i].lock) == 0) {
			if (helpers[i].fd != -1) {
				pthread_mutex_unlock(&helpers_lock);
				return &helpers[i];
			}
			pthread_mutex_unlock(&helpers[i].lock);
		}
	/* none free: one more, in a slot not set up or not running */
	for (i = 0; i < HL_HELPERS; i++) {
		if (i == nhelpers) {
			pthread_mutex_init(&helpers[i].lock, NULL);
			helpers[i].fd = -1;
			nhelpers++;
		}
		if (pthread_mutex_trylock(&helpers[i].lock) != 0)
			continue;
		if (helpers[i].fd == -1)
			break;
		pthread_mutex_unlock(&helpers[i].lock);
	}
	if (i < HL_HELPERS) {
		hp = &helpers[i];
		pthread_mutex_unlock(&helpers_lock);
		if (helper_start(hp, script, why) == -1) {
			pthread_mutex_unlock(&hp->lock);
			return NULL;
		}
		*started = 1;
		return hp;
	}
	pthread_mutex_unlock(&helpers_lock);
	hp = &helpers[0];
	pthread_mutex_lock(&hp->lock);
	if (hp->fd == -1 && helper_start(hp, script, why) == -1) {
		pthread_mutex_unlock(&hp->lock);
		return NULL;
	}
	return hp;
}

/* Asks hp for the spans of the code: 0 with *html (malloc'd), 1 for no
 * such language, -1 when the helper failed (it is stopped). */
static int
helper_ask(struct helper *hp, const char *lang, const char *code, size_t n,
    char **html, uint32_t *hlen)
{
	char head[64];
	unsigned long status, len;
	int k;

	k = snprintf(head, sizeof(head), "%zu %zu\n", strlen(lang), n);
	if (k < 0 || (size_t)k >= sizeof(head) ||
	    helper_write(hp, head, (size_t)k) == -1 ||
	    helper_write(hp, lang, strlen(lang)) == -1 ||
	    helper_write(hp, code, n) == -1 ||
	    helper_line(hp, head, sizeof(head)) == -1 ||
	    sscanf(head, "%lu %lu", &status, &len) != 2 || status > 1 ||
	    len > 64 * (size_t)HL_MAX_CODE)
		goto fail;
	*html = xmalloc(len + 1);
	if (helper_read(hp, *html, len) == -1) {
		free(*html);
		goto fail;
	}
	(*html)[len] = '\0';
	*hlen = (uint32_t)len;
	return (int)status;
fail:
	helper_stop(hp, 1);
	return -1;
}

/* --- blocks ------------------------------------------------------------ */

/* Once per language a build: why its code is plain. Locked. */
static void
warn_plain(struct highlight *h, const char *lang, const char *file,
    int line, const char *why)
{
	size_t i;

	for (i = 0; i < h->nwarned; i++)
		if (strcmp(h->warned[i], lang) == 0)
			return;
	xgrow((void **)&h->warned, &h->capwarned, h->nwarned + 1,
	    sizeof(*h->warned));
	h->warned[h->nwarned++] = xstrdup(lang);
	diag_warn(h->d, file, line, "code in '%s' is shown plain: %s", lang,
	    why);
}

/* cmark's escaping of the language in the class attribute */
static void
esc_lang(struct buf *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': buf_adds(out, "&amp;"); break;
		case '<': buf_adds(out, "&lt;"); break;
		case '>': buf_adds(out, "&gt;"); break;
		case '"': buf_adds(out, "&quot;"); break;
		default: buf_addc(out, *s); break;
		}
}

static void
emit(struct buf *out, const char *lang, const char *html, size_t n)
{
	buf_adds(out, "<pre><code class=\"language-");
	esc_lang(out, lang);
	buf_adds(out, "\">");
	buf_add(out, html, n);
	buf_adds(out, "</code></pre>");
}

int
highlight_block(struct highlight *h, const char *lang, const char *code,
    size_t n, const char *file, int line, struct buf *out)
{
	struct helper *hp;
	struct entry *e;
	uint64_t key, lkey;
	char *html = NULL, *why = NULL, *ident;
	uint32_t hlen = 0;
	int status, started = 0;

	if (h == NULL || n > HL_MAX_CODE)
		return 0;
	key = block_key(lang, code, n);
	lkey = lang_key(lang);
	pthread_mutex_lock(&h->lock);
	if (!h->loaded)
		load(h);
	h->st.blocks++;
	if ((e = tab_find(h, key, (uint32_t)n)) != NULL) {
		e->used = 1;
		emit(out, lang, e->html, e->hlen);
		h->st.cached++;
		pthread_mutex_unlock(&h->lock);
		return 1;
	}
	if ((e = tab_find(h, lkey, NEG_N)) != NULL) {
		e->used = 1;
		h->st.cached++;
		goto unknown;
	}
	if (h->unavailable != NULL) {
		warn_plain(h, lang, file, line, h->unavailable);
		goto unlit;
	}
	pthread_mutex_unlock(&h->lock);

	/* not known: ask a helper, with the table free for other threads */
	if ((hp = helper_get(h->script, &why, &started)) == NULL)
		status = -1;
	else {
		status = helper_ask(hp, lang, code, n, &html, &hlen);
		ident = status == -1 ? NULL : xstrdup(hp->ident);
		pthread_mutex_unlock(&hp->lock);
	}

	pthread_mutex_lock(&h->lock);
	h->st.started += (size_t)started;
	if (status == -1) {
		if (h->unavailable == NULL)
			h->unavailable = why ? why :
			    xstrdup("the highlighter stopped");
		else
			free(why);
		warn_plain(h, lang, file, line, h->unavailable);
		goto unlit;
	}
	if (h->ident == NULL || strcmp(h->ident, ident) != 0) {
		/* entries of another highlighter: none is kept */
		tab_clear(h);
		free(h->ident);
		h->ident = ident;
	} else
		free(ident);
	h->dirty = 1;
	if (status == 1) {
		free(html);
		tab_put(h, lkey, NEG_N, xstrdup(""), 0, 1)->used = 1;
		goto unknown;
	}
	tab_put(h, key, (uint32_t)n, html, hlen, 1)->used = 1;
	emit(out, lang, html, hlen);
	pthread_mutex_unlock(&h->lock);
	return 1;
unknown:
	warn_plain(h, lang, file, line, "Pygments knows no such language "
	    "(pygmentize -L lexers lists them)");
	h->st.plain++;
	pthread_mutex_unlock(&h->lock);
	return 0;
unlit:
	h->st.plain++;
	pthread_mutex_unlock(&h->lock);
	return -1;
}
