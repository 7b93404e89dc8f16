#include "build.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bssg_frame.h"
#include "buf.h"
#include "compress.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "diag.h"
#include "fsutil.h"
#include "gemtext.h"
#include "searchword.h"
#include "gitinfo.h"
#include "hash.h"
#include "highlight.h"
#include "locale.h"
#include "markdown.h"
#include "media.h"
#include "mem.h"
#include "manifest.h"
#include "output.h"
#include "pool.h"
#include "related.h"
#include "render.h"
#include "siteindex.h"
#include "sink.h"
#include "srccache.h"
#include "template.h"
#include "theme.h"

#include "build_int.h"

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* SSG_TRACE=1 prints how long each stage took, to find slow ones. */
void
build_trace(const char *stage)
{
	static double last, last_cpu;
	static int on = -1;
	double now = now_seconds(), cpu;
	struct rusage ru;

	if (on == -1)
		on = getenv("SSG_TRACE") != NULL;
	if (!on)
		return;
	/* CPU time of all threads too: below twice the wall time on two
	 * cores, a stage left one idle */
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (last > 0)
		fprintf(stderr, "trace: %-10s %7.2f ms (cpu %7.2f ms)\n",
		    stage, (now - last) * 1000, (cpu - last_cpu) * 1000);
	last = now;
	last_cpu = cpu;
}

char *
build_path(const struct build *b, const char *p)
{
	return path_join(b->site_dir, p);
}

/*
 * No favicon set: the first of these that static/ holds. Browsers ask for
 * /favicon.ico whatever a page says, and a page that names none gets the
 * one console error a site checker finds.
 */
static void
pick_favicon(struct build *b)
{
	static const char *const names[] = { "favicon.ico", "favicon.png",
	    "favicon.svg", "favicon.jpg" };
	struct buf rel = BUF_INIT, url = BUF_INIT;
	char *path;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		buf_clear(&rel);
		buf_printf(&rel, "%s/%s", b->c.static_dir, names[i]);
		path = build_path(b, rel.ptr);
		if (fs_is_file(path)) {
			buf_printf(&url, "/%s", names[i]);
			config_set(&b->c, "favicon", url.ptr, "static/", NULL);
			free(path);
			break;
		}
		free(path);
	}
	buf_release(&rel);
	buf_release(&url);
}

void
build_progress(struct build *b, const char *stage, size_t done, size_t total)
{
	if (b->o->progress)
		b->o->progress(stage, done, total, b->o->progress_arg);
}

/* Each "key=value" of a NULL-ended list set; 0 or -1. */
static int
set_pairs(struct build *b, const char *const *kv, const char *origin)
{
	int rc = 0;

	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		char *key;

		if (eq == NULL) {
			diag_error(b->d, origin, 0, "'%s': expected "
			    "KEY=VALUE", *kv);
			rc = -1;
			continue;
		}
		key = xstrndup(*kv, (size_t)(eq - *kv));
		if (config_set(&b->c, key, eq + 1, origin, b->d) == -1)
			rc = -1;
		free(key);
	}
	return rc;
}

static int
load_config(struct build *b)
{
	const struct build_opts *o = b->o;
	char *path = o->config ? xstrdup(o->config) :
	    build_path(b, "site.yaml");
	int rc = 0;

	config_init(&b->c);
	if (set_pairs(b, o->defaults, "defaults") == -1)
		rc = -1;
	if (config_load(&b->c, path, 0, b->d) == -1)
		rc = -1;
	free(path);
	if (set_pairs(b, o->set, "--set") == -1)
		rc = -1;
	if (o->output_dir && config_set(&b->c, "output_dir", o->output_dir,
	    "--output", b->d) == -1)
		rc = -1;
	if (o->theme && config_set(&b->c, "theme", o->theme, "--theme",
	    b->d) == -1)
		rc = -1;
	if (o->site_url && config_set(&b->c, "site_url", o->site_url,
	    "--site-url", b->d) == -1)
		rc = -1;
	if (strpbrk(b->c.rss_filename, "/\\") != NULL ||
	    b->c.rss_filename[0] == '.' || b->c.rss_filename[0] == '\0') {
		diag_error(b->d, "site.yaml", 0, "rss_filename '%s' must be a "
		    "plain file name", b->c.rss_filename);
		rc = -1;
	}
	if (dt_set_timezone(b->c.timezone) == -1)
		diag_warn(b->d, "site.yaml", 0, "unknown timezone '%s': "
		    "using UTC", b->c.timezone);
	return rc;
}

/* Tags, archives, authors, neighbours and related posts. */
static int
index_sources(struct build *b, size_t threads)
{
	int rc;

	rc = siteindex_build(&b->ix, b->posts, b->np, b->pages, b->ng, &b->c,
	    b->d);
	if (b->c.enable_related_posts && b->c.related_posts_count > 0) {
		char *rpath = build_path(b, ".ssg-cache/related.bin");

		if (b->force)
			unlink(rpath);
		related_build(&b->ix, (size_t)b->c.related_posts_count,
		    threads, rpath);
		free(rpath);
	}
	return rc;
}

static int
pick_theme(struct build *b, char **sheet)
{
	char *site_themes = build_path(b, b->c.themes_dir), **names;
	size_t n, i;
	int rc = 0;

	if (strcmp(b->c.theme, "random") == 0) {
		n = theme_list(site_themes, b->builtin, &names);
		if (n > 0)
			config_set(&b->c, "theme", names[(size_t)b->now % n],
			    "random", b->d);
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	*sheet = theme_stylesheet(b->c.theme, site_themes, b->builtin);
	/* the site's own stylesheet is a source like any other */
	if (*sheet != NULL && strncmp(*sheet, site_themes,
	    strlen(site_themes)) == 0 && !fs_bound_check(&b->bound, *sheet)) {
		free(*sheet);
		*sheet = theme_stylesheet(b->c.theme, NULL, b->builtin);
	}
	if (*sheet == NULL) {
		diag_error(b->d, "site.yaml", 0, "theme '%s' not found (no "
		    "%s/%s/style.css and no built-in theme of that name; "
		    "`ssg themes` lists them)", b->c.theme, b->c.themes_dir,
		    b->c.theme);
		rc = -1;
	}
	if (strfit(b->st->theme, sizeof(b->st->theme), "%s", b->c.theme) ==
	    -1)
		rc = diag_error(b->d, "site.yaml", 0, "theme: the name '%s' is "
		    "too long (at most %zu bytes)", b->c.theme,
		    sizeof(b->st->theme) - 1);
	free(site_themes);
	return rc;
}

static int
load_templates(struct build *b)
{
	char *site_templates = build_path(b, b->c.templates_dir);
	uint64_t h[2];
	int rc;

	b->tmpl = tmpl_set_new();
	rc = theme_load_templates(b->tmpl, b->builtin, site_templates,
	    &b->bound, &h[0], b->d);
	/* a BSSG site's header.html and footer.html frame every page */
	if (bssg_frame_load(site_templates, &b->bound, &b->frame, &h[1],
	    b->d) == -1)
		rc = -1;
	b->tmpl_hash = b->frame ? hash64(h, sizeof(h)) : h[0];
	free(site_templates);
	return rc;
}

void
build_warn_private(struct build *b, const char *path, const struct stat *st)
{
	if ((st->st_mode & S_IROTH) == 0)
		diag_warn(b->d, path, 0, "not readable by others (mode %04o); "
		    "published readable by all (0644)",
		    (unsigned int)(st->st_mode & 07777));
}

/*
 * The stylesheet the build writes: the theme's sheet, then the rules every
 * page needs whatever the theme (base.css). Its hash, or that of the
 * static css/style.css that replaces it, is the ?v= the pages link it by,
 * so a reader's browser may keep it a year and still gets a new one at
 * once. -1 (said) if it cannot be read.
 */
static int
read_stylesheet(struct build *b, const char *sheet)
{
	struct buf css = BUF_INIT, own = BUF_INIT;
	char *base_css = path_join(b->builtin, "templates/base.css");
	size_t i;
	int rc = 0;

	if (fs_read(sheet, &css) == -1) {
		diag_error(b->d, sheet, 0, "cannot read: %s", strerror(errno));
		rc = -1;
	} else if (fs_read(base_css, &css) == -1) {
		diag_error(b->d, base_css, 0, "cannot read: %s",
		    strerror(errno));
		rc = -1;
	}
	free(base_css);
	b->css_hash = hash64(css.ptr, css.len);
	for (i = 0; i < b->nstatics; i++) {
		const char *rel = b->statics[i].rel;

		buf_clear(&own);
		if (strcmp(rel, "css/style.css") == 0 &&
		    fs_read(b->statics[i].path, &own) == 0)
			b->css_hash = hash64(own.ptr, own.len);
		else if (b->c.custom_css[0] == '/' &&
		    strcmp(rel, b->c.custom_css + 1) == 0 &&
		    fs_read(b->statics[i].path, &own) == 0)
			b->custom_hash = hash64(own.ptr, own.len) | 1;
	}
	buf_release(&own);
	/* kept for build_search_script, which says if it cannot be read */
	if (b->c.search) {
		char *js = path_join(b->builtin, "templates/search.js");

		if (fs_read(js, &b->script) == 0)
			b->script_hash = hash64(b->script.ptr, b->script.len) | 1;
		free(js);
	}
	b->css = buf_detach(&css, &b->css_len);
	return rc;
}

static int
list_static(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	struct build *b = arg;
	struct static_file *f;

	if (b->nstatics == b->capstatics) {
		b->capstatics = b->capstatics ? b->capstatics * 2 : 64;
		b->statics = xrealloc(b->statics,
		    b->capstatics * sizeof(*b->statics));
	}
	f = &b->statics[b->nstatics++];
	f->path = xstrdup(path);
	f->rel = xstrdup(rel);
	f->st = *st;
	return 0;
}

static void
image_progress(size_t done, size_t total, void *arg)
{
	build_progress(arg, "images", done, total);
}

static int
copy_static(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	struct build *b = arg;
	int changed;

	build_warn_private(b, path, st);
	if (b->media != NULL && media_wants(rel))
		return 0;	/* media_publish's */
	if (sink_file(&b->out, path, rel, &changed) == -1)
		return 0;
	b->st->outputs++;
	if (changed)
		b->st->written++;
	return 0;
}

/* dir as the system names it, whatever way it was typed ("-C blog
 * build" or "build -C blog", from any folder), its folder's if it is not
 * there yet. */
static char *
canonical_dir(const char *dir)
{
	char *real = realpath(dir, NULL), *parent, *slash, *s;
	struct buf b = BUF_INIT;

	if (real != NULL)
		return real;
	parent = xstrdup(dir);
	while ((slash = strrchr(parent, '/')) != NULL && slash != parent &&
	    slash[1] == '\0')
		*slash = '\0';
	if ((slash = strrchr(parent, '/')) == NULL) {
		free(parent);
		return xstrdup(dir);
	}
	*slash = '\0';
	if ((real = realpath(slash == parent ? "/" : parent, NULL)) == NULL) {
		free(parent);
		return xstrdup(dir);
	}
	buf_printf(&b, "%s/%s", strcmp(real, "/") == 0 ? "" : real, slash + 1);
	s = xstrdup(b.ptr);
	buf_release(&b);
	free(real);
	free(parent);
	return s;
}

/* .ssg-cache/NAME-HASH.EXT, one per output folder, so --output elsewhere
 * keeps its own. */
static char *
state_path(const struct build *b, const char *dir, const char *name,
    const char *ext)
{
	struct buf p = BUF_INIT;
	char hex[17];
	char *path;

	char *canon = canonical_dir(dir);

	hash_hex(hash64(canon, strlen(canon)), hex);
	free(canon);
	buf_printf(&p, ".ssg-cache/%s-%s.%s", name, hex, ext);
	path = build_path(b, p.ptr);
	buf_release(&p);
	return path;
}

static char *
output_state_path(const struct build *b, const char *name, const char *ext)
{
	return state_path(b, b->out_dir, name, ext);
}

/* The Gemini capsule's folder and the list of the files it holds. */
static void
capsule_paths(const struct build *b, char **dir, char **list)
{
	*dir = build_path(b, b->c.gemini_output_dir);
	*list = state_path(b, *dir, "capsule", "txt");
}

/* 1 if the capsule, when there is one, has all its files (as checked
 * while the sources were read). */
static int
capsule_ok(const struct build *b)
{
	return !b->c.gemini || (manifest_count(b->cap_old) > 0 &&
	    manifest_all_found(b->cap_old));
}

static char *
manifest_path(const struct build *b)
{
	return output_state_path(b, "outputs", "txt");
}

static void
remove_one_sibling(const char *rel, void *arg)
{
	struct build *b = arg;
	char *path;

	if (!compress_wanted(rel))
		return;
	path = path_join(b->out_dir, rel);
	compress_remove(path);
	free(path);
}

/*
 * A marker file says that .gz/.br siblings may exist in the output. It is
 * made before any is written; when precompression is off and the marker
 * is there, one pass removes every sibling, then the marker.
 */
static void
precompress_marker(struct build *b, int at_end)
{
	char *marker = output_state_path(b, "precompressed", "flag");

	if (b->c.precompress_assets) {
		if (!at_end && !fs_is_file(marker))
			fs_write_atomic(marker, "", 0);
	} else if (at_end && fs_is_file(marker)) {
		manifest_foreach(b->manifest, remove_one_sibling, b);
		unlink(marker);
	}
	free(marker);
}

/* Saves a list of outputs; a failure is a warning, given once a build. */
static void
save_list(struct build *b, struct manifest *m, const char *path)
{
	if (manifest_save(m, path) == -1 && !b->list_warned) {
		diag_warn(b->d, path, 0, "cannot save the list of outputs: %s",
		    strerror(errno));
		b->list_warned = 1;
	}
}

/* The source cache is complete once the sources are read: it is written
 * while the pages are planned and rendered. */
struct cache_save {
	struct build	*b;
	const char	*path;
	pthread_t	 t;
	int		 running, rc, err;
};

static void *
save_cache(void *arg)
{
	struct cache_save *cs = arg;

	cs->rc = srccache_save(cs->b->cache, cs->path);
	cs->err = errno;
	return NULL;
}

static void
cache_save_start(struct cache_save *cs, struct build *b, const char *path)
{
	cs->b = b;
	cs->path = path;
	cs->running = pthread_create(&cs->t, NULL, save_cache, cs) == 0;
	if (!cs->running)
		save_cache(cs);
}

/* Waits for the cache to be written; a failure is a warning. */
static void
cache_saved(struct cache_save *cs)
{
	if (cs->running)
		pthread_join(cs->t, NULL);
	cs->running = 0;
	if (cs->rc == -1)
		diag_warn(cs->b->d, cs->path, 0, "cannot save the build cache: "
		    "%s", strerror(cs->err));
	cs->rc = 0;
}

/*
 * One run of the build: its state (struct build), the paths its stages
 * share and what each passes on to the next.
 */
struct run {
	struct build	 b;
	char		*sheet;		/* the theme's stylesheet */
	char		*mpath;		/* the list of outputs */
	char		*cpath;		/* the source cache */
	char		*cache_dir, *static_dir, *site_themes;
	char		*cap_dir, *cap_list;	/* the capsule's, gemini on */
	size_t		 threads;
	size_t		 errors_before;	/* d's errors when the run began */
	double		 t0;
	uint64_t	 memo;		/* of all the pages depend on */
	int		 unread;	/* nothing changed, sources not read */
	int		 fast;		/* the last build's pages carried */
	struct cache_save cs;
	struct cache_load cl;
};

/* The build's time: SOURCE_DATE_EPOCH when set, as reproducible builds
 * give it (the footer's year, which posts are due), else the clock's. */
static time_t
build_clock(struct diag *d)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		return time(NULL);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0) {
		diag_warn(d, NULL, 0, "SOURCE_DATE_EPOCH: '%s' is not a number "
		    "of seconds: the clock's time is used", s);
		return time(NULL);
	}
	return (time_t)v;
}

static void
run_init(struct run *r, const struct build_opts *o, struct build_stats *st,
    struct diag *d)
{
	struct build *b = &r->b;

	memset(r, 0, sizeof(*r));
	buf_init(&b->script);
	memset(st, 0, sizeof(*st));
	r->errors_before = diag_count(d, DIAG_ERROR);
	r->t0 = now_seconds();
	b->o = o;
	b->st = st;
	b->d = d;
	b->now = build_clock(d);
	b->site_dir = xstrdup(o->site_dir ? o->site_dir : ".");
	b->arena = arena_new();
	r->threads = o->jobs > 0 ? (size_t)o->jobs : pool_cpus();
	markdown_init();
}

/* Stage 1: site.yaml, the output folders, the build's hooks, the theme
 * and the templates. */
static int
stage_settings(struct run *r)
{
	struct build *b = &r->b;
	struct build_stats *st = b->st;
	struct diag *d = b->d;

	if (load_config(b) == -1)
		return -1;
	b->out_dir = build_path(b, b->c.output_dir);
	fs_bound_init(&b->bound, b->site_dir, b->c.follow_external_symlinks, d);
	if (strfit(st->output, sizeof(st->output), "%s", b->out_dir) == -1)
		return diag_error(d, "site.yaml", 0, "output_dir: the path %s "
		    "is too long (at most %zu bytes)", b->out_dir,
		    sizeof(st->output) - 1);
	if (b->c.gemini) {
		char *capsule = build_path(b, b->c.gemini_output_dir);

		if (strfit(st->capsule, sizeof(st->capsule), "%s", capsule) ==
		    -1) {
			diag_error(d, "site.yaml", 0, "gemini_output_dir: the "
			    "path %s is too long (at most %zu bytes)", capsule,
			    sizeof(st->capsule) - 1);
			free(capsule);
			return -1;
		}
		free(capsule);
	}
	if (b->o->themes_builtin == NULL)
		return diag_error(d, NULL, 0, "the built-in themes folder was "
		    "not found (set SSG_DATADIR to the folder that holds "
		    "themes/)");
	b->builtin = xstrdup(b->o->themes_builtin);
	b->force = b->o->force || b->c.clean_output;
	/* the capsule's gemtext from the trees the HTML is made from */
	if (b->c.gemini)
		b->hooks.gemtext = gemtext_from_doc;
	/* and the search index's words, from the same trees */
	if (b->c.search)
		b->hooks.search_words = search_lang_folds(b->c.site_lang) ?
		    search_words_folded : search_words_kept;
	if (b->c.highlight) {
		char *script = highlight_script(b->builtin);
		char *hpath = build_path(b, ".ssg-cache/highlight.bin");

		b->hooks.hl = highlight_new(script, hpath, d);
		free(script);
		free(hpath);
	}
	if (pick_theme(b, &r->sheet) == -1 || load_templates(b) == -1)
		return -1;
	return 0;
}

/* Stage 2: the sources found, beside the caches and the last build's
 * outputs read back (build_sources.c); the locale. */
static int
stage_scan(struct run *r)
{
	struct build *b = &r->b;
	size_t i;

	r->cpath = build_path(b, ".ssg-cache/sources.bin");
	r->cache_dir = build_path(b, ".ssg-cache");
	b->manifest = manifest_new();
	b->old = manifest_new();
	r->mpath = manifest_path(b);
	build_trace("start");
	r->cl.b = b;
	r->cl.cpath = r->cpath;
	r->cl.mpath = r->mpath;
	b->cap_old = manifest_new();
	if (b->c.gemini) {
		capsule_paths(b, &r->cap_dir, &r->cap_list);
		r->cl.cap_dir = r->cap_dir;
		r->cl.cap_list = r->cap_list;
	}
	build_scan(b, &r->cl);
	build_trace("scan+cache");
	r->site_themes = build_path(b, b->c.themes_dir);
	b->locale = locale_load(b->c.site_lang, r->site_themes, b->builtin,
	    &b->bound, b->d);
	for (i = 0; i + 1 < b->c.messages.n; i += 2)
		if (locale_set(b->locale, b->c.messages.v[i],
		    b->c.messages.v[i + 1]) == -1)
			diag_warn(b->d, "site.yaml", 0, "messages: ssg has no "
			    "message '%s' (ignored)", b->c.messages.v[i]);
	return 0;
}

/*
 * Stage 3: what the pages depend on besides their sources (the icon,
 * static/ and its images, the stylesheet), then the sources read, unless
 * the memo of all of it says nothing changed since the last build.
 */
static int
stage_read(struct run *r)
{
	struct build *b = &r->b;
	const struct build_opts *o = b->o;
	size_t i;

	/* before the memo: an icon added to static/ changes every page */
	if (b->c.favicon[0] == '\0')
		pick_favicon(b);
	/* static/ before the memo too: its images change the pages */
	r->static_dir = build_path(b, b->c.static_dir);
	fs_walk_in(r->static_dir, &b->bound, list_static, b);
	/* and the stylesheet, whose hash the pages link it by */
	if (read_stylesheet(b, r->sheet) == -1)
		return -1;
	if ((b->media = media_new(&b->c, r->cache_dir, b->d)) == NULL)
		return -1;
	for (i = 0; i < b->nstatics; i++)
		if (media_wants(b->statics[i].rel))
			media_add(b->media, b->statics[i].path,
			    b->statics[i].rel, &b->statics[i].st);
	media_probe(b->media, r->threads);
	build_trace("images probed");
	/*
	 * Nothing the pages depend on changed, as the stat of every source
	 * tells: check the pages are all there, and nothing is read.
	 */
	r->memo = build_cached_memo(b);
	if (r->memo != 0 && r->memo == manifest_memo(b->old)) {
		build_checked(&r->cl);
		r->unread = manifest_all_found(b->old) && capsule_ok(b);
	}
	build_trace("memo");
	if (r->unread)
		build_count_cached(b);
	else if (build_load(b, r->threads) == -1 && o->strict)
		return -1;
	if (o->strict && diag_count(b->d, DIAG_ERROR) > r->errors_before)
		return -1;
	/* unread: the cache holds what it held */
	if (!r->unread)
		cache_save_start(&r->cs, b, r->cpath);
	return 0;
}

/* Stage 4: the output folder, and whether the last build's pages stand
 * as they are (the memo, after reading the sources' text). */
static int
stage_output(struct run *r)
{
	struct build *b = &r->b;
	struct stat ost;

	/* an output folder made now holds none of the pages */
	b->fresh = stat(b->out_dir, &ost) == -1 && errno == ENOENT;
	if (fs_mkdirs_published(b->out_dir) == -1 ||
	    output_begin(b->out_dir) == -1)
		return diag_error(b->d, b->out_dir, 0, "cannot create the "
		    "output folder: %s", strerror(errno));
	b->tmpdir = output_tmpdir(b->out_dir);
	b->out.dir = b->out_dir;
	b->out.list = b->manifest;
	b->out.tmpdir = b->tmpdir;
	b->out.compress = b->c.precompress_assets;
	b->out.d = b->d;
	if (!r->unread)
		r->memo = build_memo(b);
	build_checked(&r->cl);	/* the check went on while sources were read */
	r->fast = r->unread || (!b->force && r->memo != 0 &&
	    r->memo == manifest_memo(b->old) && manifest_all_found(b->old) &&
	    capsule_ok(b));
	return 0;
}

/*
 * The capsule's folder (gemini: true) and its writer, before its pages
 * are judged; the posts and pages it leaves out said, at every build
 * that plans them.
 */
static int
capsule_begin(struct run *r)
{
	struct build *b = &r->b;
	struct stat st;
	size_t i, n = b->ix.nposts + b->ix.npages;

	b->cap_list = manifest_new();
	if (!b->c.gemini)
		return 0;
	b->cap_fresh = stat(r->cap_dir, &st) == -1 && errno == ENOENT;
	/* (replaced files go through dir/.ssg-tmp, removed at the end) */
	if (fs_mkdirs_published(r->cap_dir) == -1 ||
	    output_begin(r->cap_dir) == -1)
		return diag_error(b->d, r->cap_dir, 0, "cannot create the "
		    "capsule folder: %s", strerror(errno));
	b->cap.dir = r->cap_dir;
	b->cap.list = b->cap_list;
	b->cap.d = b->d;
	for (i = 0; i < n; i++) {
		const struct post *p = i < b->ix.nposts ? b->ix.posts[i] :
		    b->ix.pages[i - b->ix.nposts];

		if (p->is_html)
			diag_warn(b->d, p->src, 0, "written in HTML: not in "
			    "the Gemini capsule (its HTML does not convert "
			    "reliably)");
	}
	return 0;
}

/* Stage 5: the site model, every page planned with its fingerprint, the
 * images encoded, the pages that changed marked and their bodies read. */
static int
stage_plan(struct run *r)
{
	struct build *b = &r->b;
	const struct build_opts *o = b->o;
	size_t i;

	if (r->fast)
		return 0;
	if (index_sources(b, r->threads) == -1 && o->strict)
		return -1;
	build_trace("sources");
	b->render = render_new(&b->c, &b->ix, b->tmpl, b->locale, b->now);
	if (b->frame != NULL)
		render_set_frame(b->render, b->frame, b->d);
	render_set_images(b->render, build_image_hook(b));
	render_set_stylesheet(b->render, b->css_hash, b->custom_hash,
	    b->script_hash);
	render_set_base(b->render, b->tmpl_hash,
	    config_hash(&b->c) ^ media_hash(b->media) * 0x9e3779b97f4a7c15ULL ^
	    build_assets_hash(b) * 0xc2b2ae3d27d4eb4fULL);
	b->njobs = render_plan(b->render, &b->jobs);
	if (capsule_begin(r) == -1)
		return -1;
	/* images first: one that fails is reported at its post */
	b->st->images_encoded = media_encode(b->media, r->threads,
	    o->force_images, image_progress, b, b->d);
	build_trace("images");
	for (i = 0; i < b->njobs; i++)
		b->st->outputs += render_format(b->jobs[i].kind) == FORMAT_HTML;
	build_trace("plan");
	build_plan_dirty(b, r->threads);
	if (build_load_bodies(b, r->threads) == -1)
		return -1;	/* nothing rendered: the old pages stay */
	precompress_marker(b, 0);
	build_trace("fingerprint");
	if (b->ndirty > 0) {
		/* Forget the pages about to change first: if this build is
		 * killed half-way, the next one renders them again. */
		for (i = 0; i < b->ndirty; i++)
			if (render_format(b->jobs[b->dirty[i].job].kind) ==
			    FORMAT_HTML)
				manifest_forget(b->old,
				    b->jobs[b->dirty[i].job].out_path);
		/* nor may it take the half-written output as current if the
		 * sources go back to what they were */
		manifest_set_memo(b->old, 0);
		save_list(b, b->old, r->mpath);
	}
	return 0;
}

/* Stage 6: the pages marked (the site's and the capsule's), on the pool,
 * beside the search index on a thread of its own. */
static int
stage_render(struct run *r)
{
	struct build *b = &r->b;

	if (r->fast)
		return 0;
	/* the search index beside the pages: its own work, which their
	 * rendering leaves (build_search_start) */
	build_search_start(b, r->threads);
	if (b->ndirty > 0) {
		build_render_pages(b, r->threads);
	}
	build_trace("pages");
	build_search_wait(b);
	build_trace("search");
	return 0;
}

/* Stage 7: what every build writes whatever changed: the stylesheet, the
 * search script, static/ (which may replace the stylesheet) and the
 * images' copies. */
static int
stage_assets(struct run *r)
{
	struct build *b = &r->b;
	struct build_stats *st = b->st;
	size_t i, written = 0;
	int changed;

	if (sink_bytes(&b->out, "css/style.css", b->css, b->css_len, 0, 0, 0,
	    &changed) == 0) {
		st->outputs++;
		st->written += changed;
	}
	build_search_script(b);
	build_trace("render");
	for (i = 0; i < b->nstatics; i++)
		copy_static(b->statics[i].path, b->statics[i].rel,
		    &b->statics[i].st, b);
	build_trace("static");
	media_publish(b->media, &b->out, r->threads,
	    b->o->force_images, image_progress, b, &st->images_encoded,
	    &written, b->d);
	st->written += written;
	build_trace("images");
	return 0;
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* For a capsule made before its files were listed: removes the pages
 * and feeds this build did not write (a deleted post's, say). */
struct unlisted {
	char	**written;
	size_t	  n;
};

static void
add_written(const char *rel, void *arg)
{
	struct unlisted *u = arg;

	u->written[u->n++] = xstrdup(rel);
}

static int
unlisted_one(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	struct unlisted *u = arg;
	size_t n = strlen(rel);

	(void)st;
	if (((n > 4 && strcmp(rel + n - 4, ".gmi") == 0) ||
	    strcmp(rel, "atom.xml") == 0) && bsearch(&rel, u->written, u->n,
	    sizeof(*u->written), by_str) == NULL)
		unlink(path);
	return 0;
}

static void
remove_unlisted(struct build *b, const char *dir)
{
	struct unlisted u;
	size_t i;

	u.written = xcalloc(manifest_count(b->cap_list) + 1,
	    sizeof(*u.written));
	u.n = 0;
	manifest_foreach(b->cap_list, add_written, &u);
	xqsort(u.written, u.n, sizeof(*u.written), by_str);
	fs_walk(dir, unlisted_one, &u);
	for (i = 0; i < u.n; i++)
		free(u.written[i]);
	free(u.written);
}

/*
 * The capsule's files no page makes any more removed, after a build that
 * wrote all of its own (a failed one removes nothing, and keeps listing
 * what it did not get to, as it is on disk); its list saved.
 */
static void
capsule_end(struct run *r)
{
	struct build *b = &r->b;

	if (!b->c.gemini || r->fast)
		return;
	if (!b->cap_failed) {
		manifest_remove_stale(b->cap_old, b->cap_list, r->cap_dir, b->d);
		/* (a folder made now holds only what this build wrote) */
		if (manifest_count(b->cap_old) == 0 && !b->cap_fresh)
			remove_unlisted(b, r->cap_dir);
	} else
		manifest_carry(b->cap_old, b->cap_list);
	if (!manifest_same(b->cap_list, b->cap_old) &&
	    manifest_save(b->cap_list, r->cap_list) == -1)
		diag_warn(b->d, r->cap_list, 0, "cannot save the list of the "
		    "capsule's files: %s", strerror(errno));
	output_end(r->cap_dir);
}

/* Stage 8: outputs no page produces any more removed, the lists of
 * outputs and the caches saved. */
static int
stage_prune(struct run *r)
{
	struct build *b = &r->b;
	struct build_stats *st = b->st;

	if (diag_count(b->d, DIAG_ERROR) == r->errors_before && !b->failed)
		manifest_set_memo(b->manifest, r->memo);
	if (r->fast && manifest_same_copies(b->old, b->manifest)) {
		/* the last build's list as it is: nothing to remove or save */
		st->outputs = manifest_count(b->old);
		precompress_marker(b, 1);
	} else {
		if (r->fast) {
			/* the pages are the last build's, as they were */
			manifest_carry(b->old, b->manifest);
			st->outputs = manifest_count(b->manifest);
		}
		st->removed = manifest_remove_stale(b->old, b->manifest,
		    b->out_dir, b->d);
		precompress_marker(b, 1);
		if (!manifest_same(b->manifest, b->old))
			save_list(b, b->manifest, r->mpath);
	}
	output_end(b->out_dir);
	capsule_end(r);
	build_trace("manifest");
	cache_saved(&r->cs);
	/* what --force saw is every block: the others are gone */
	highlight_save(b->hooks.hl, b->force);
	build_trace("save");
	return diag_count(b->d, DIAG_ERROR) > r->errors_before || b->failed ?
	    -1 : 0;
}

/* The threads joined, the figures in st, and everything freed. */
static void
run_release(struct run *r)
{
	struct build *b = &r->b;
	struct build_stats *st = b->st;
	size_t i;

	build_checked(&r->cl);
	cache_saved(&r->cs);
	st->seconds = now_seconds() - r->t0;
	if (b->hooks.hl != NULL) {
		struct highlight_stats hs;

		highlight_get_stats(b->hooks.hl, &hs);
		st->code_blocks = hs.blocks;
		st->code_cached = hs.cached;
		st->code_plain = hs.plain;
		st->highlighters_started = hs.started;
		highlight_free(b->hooks.hl);
		b->hooks.hl = NULL;
	}
	render_free(b->render);
	if (b->jobs)
		render_jobs_free(b->jobs, b->njobs);
	locale_free(b->locale);
	tmpl_set_free(b->tmpl);
	bssg_frame_free(b->frame);
	siteindex_release(&b->ix);
	manifest_free(b->manifest);
	manifest_free(b->old);
	manifest_free(b->cap_old);
	manifest_free(b->cap_list);
	srccache_free(b->cache);
	free(b->dirty);
	free(b->tmpdir);
	free(b->fps);
	free(b->whys);
	for (i = 0; i < b->nsrc; i++) {
		free(b->src[i].path);
		free(b->src[i].rel);
		free(b->src[i].key);
	}
	free(b->src);
	free(b->items);
	free(b->posts);
	free(b->pages);
	free(b->css);
	buf_release(&b->script);
	for (i = 0; i < b->nstatics; i++) {
		free(b->statics[i].path);
		free(b->statics[i].rel);
	}
	free(b->statics);
	media_free(b->media);
	free(b->builtin);
	if (b->out_fd > 0)	/* 0: the build stopped before the scan */
		close(b->out_fd);
	if (b->cap_fd > 0)
		close(b->cap_fd);
	free(b->out_dir);
	free(b->site_dir);
	fs_bound_release(&b->bound);
	arena_free(b->arena);
	config_release(&b->c);
	free(r->sheet);
	free(r->mpath);
	free(r->cpath);
	free(r->cache_dir);
	free(r->static_dir);
	free(r->site_themes);
	free(r->cap_dir);
	free(r->cap_list);
}

/*
 * The build, stage by stage (DESIGN.md's data flow): each stage returns
 * at once when it has nothing to do (the plan and the render when the
 * last build's pages stand); the first that fails ends the build, and
 * what the last build wrote stays.
 */
int
ssg_build(const struct build_opts *o, struct build_stats *st,
    struct diag *d)
{
	static int (*const stages[])(struct run *) = {
		stage_settings,	/* site.yaml, theme, templates */
		stage_scan,	/* sources, caches, last outputs */
		stage_read,	/* static/, images, stylesheet, sources */
		stage_output,	/* the output folder; anything new? */
		stage_plan,	/* model, pages, images encoded, dirty */
		stage_render,	/* pages, search index, capsule */
		stage_assets,	/* stylesheet, static/, image copies */
		stage_prune,	/* stale outputs, list, caches */
	};
	struct run *r = xcalloc(1, sizeof(*r));
	size_t i;
	int rc = 0;

	run_init(r, o, st, d);
	for (i = 0; i < sizeof(stages) / sizeof(stages[0]) && rc == 0; i++)
		rc = stages[i](r);
	run_release(r);
	free(r);
	return rc;
}
