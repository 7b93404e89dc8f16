/* deploy push, rollback and releases: building, sending and switching
 * releases of a site. */

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#ifdef HAVE_LIBSSG
#include "build.h"
#endif
#include "cmd_int.h"
#include "diag.h"
#include "engine.h"
#include "fleet.h"
#include "fsutil.h"
#include "mem.h"
#include "release.h"
#include "spec.h"
#ifdef HAVE_LIBSSG
#include "theme.h"
#endif

/* ---- releases: push, rollback, releases, agent ---- */

/* The local release repository of a site: next to deploy.yaml. */
static char *
repo_dir(const struct spec *s, const struct spec_site *site)
{
	struct buf b = BUF_INIT;
	const char *slash = strrchr(s->file, '/');

	if (slash != NULL)
		buf_add(&b, s->file, (size_t)(slash - s->file + 1));
	buf_printf(&b, ".deploy/%s.git", site->name);
	return buf_detach(&b, NULL);
}

static void
engine_setup(struct engine_opts *eo, const struct opts *o)
{
	memset(eo, 0, sizeof(*eo));
	eo->cacert = o->cacert;
	eo->canary = o->canary;
	eo->expect = o->expect;
	eo->out = stdout;
}

/*
 * What push, rollback and releases begin with: deploy.yaml, and the hosts
 * of the site named by the first operand, no session open yet. The spec,
 * or NULL after saying why (f then holds nothing).
 */
static struct spec *
fleet_start(const struct opts *o, struct fleet *f, struct diag *d)
{
	struct spec *s;

	memset(f, 0, sizeof(*f));
	if ((s = dc_load(o, d, 0)) == NULL)
		return NULL;
	if (!spec_fleet_has_site(s, o->pos[0])) {
		diag_error(d, s->file, 0, "unknown site '%s'", o->pos[0]);
		spec_free(s);
		return NULL;
	}
	if (dc_fleet_open(f, o, s, o->pos[0], d) == -1) {
		spec_free(s);
		return NULL;
	}
	return s;
}

/* Where push builds an ssg site folder: in its cache, beside its own
 * output (relative to the site folder). */
#define PUSH_BUILD_DIR	".ssg-cache/push"

/*
 * The site's nginx sends a page's .gz beside it as it is (gzip_static);
 * without one it compresses the page again for every reader, at about
 * twice the CPU per request (deploy bench shows it). Said, not refused.
 */
static void
precompress_note(const char *tree, const char *site)
{
	struct buf p = BUF_INIT;
	struct stat sb;

	buf_printf(&p, "%s/index.html", tree);
	if (stat(p.ptr, &sb) == 0) {
		buf_adds(&p, ".gz");
		if (stat(p.ptr, &sb) == -1)
			fprintf(stderr, "deploy push: note: %s has no "
			    "precompressed pages (index.html.gz): nginx will "
			    "compress each page per request; build it with "
			    "precompress_assets: true\n", site);
	}
	buf_release(&p);
}

int
cmd_push(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	struct engine_opts eo;
	const struct spec_site *site;
	struct buf msg = BUF_INIT;
	char id[RELEASE_ID_MAX];
	char *repo = NULL, *builtin = NULL, *capsule = NULL;
	const char *tree;
#ifdef HAVE_LIBSSG
	struct build_stats bst;
#endif
	int rc = 1, lock = -1;

	PARSE("push", 1, "nakiMC");
	if (o.npos != 1)
		return dc_usage_of("push", EXIT_USAGE);
	d = diag_new();
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	if (o.canary != NULL && fleet_member(&f, o.canary) == NULL) {
		diag_error(d, o.file, 0, "--canary %s: no such host has site %s",
		    o.canary, o.pos[0]);
		goto out;
	}
	site = f.m[0].site;
	repo = repo_dir(s, site);
	/* one push or rollback of a site at a time, from its build on */
	if ((lock = engine_lock(repo, stdout, d)) == -1)
		goto out;
	tree = site->source;
	if (!site->source_built && !o.no_build) {
#ifdef HAVE_LIBSSG
		struct build_opts bo;
		/* served, each compressible file is best sent as it is
		 * (gzip_static): on unless site.yaml says otherwise */
		static const char *const defaults[] = {
			"precompress_assets=true", NULL };
		/* built beside the site's own output, not over it: an
		 * `ssg build` between two pushes (precompression off) would
		 * otherwise drop every .gz and .br, and each push compress
		 * the whole site again */
		static const char *const set[] = {
			"gemini_output_dir=" PUSH_BUILD_DIR "/capsule", NULL };

		/* An ssg site: build it first; its output is the release. */
		memset(&bo, 0, sizeof(bo));
		bo.site_dir = site->source;
		bo.defaults = defaults;
		bo.set = set;
		bo.output_dir = PUSH_BUILD_DIR "/output";
		bo.themes_builtin = builtin = theme_builtin_dir(self_path[0] ?
		    self_path : argv[0]);
		if (ssg_build(&bo, &bst, d) == -1)
			goto out;
		printf("built %s: %zu posts, %zu pages, %zu files written\n",
		    bst.output, bst.posts, bst.pages, bst.written);
		tree = bst.output;
		if (site->gemini && bst.capsule[0] == '\0') {
			diag_error(d, s->file, site->gemini_line, "site %s: "
			    "gemini: the site's site.yaml does not set "
			    "gemini: true, so it has no capsule", site->name);
			goto out;
		}
		if (site->gemini)
			capsule = xstrdup(bst.capsule);
#else
		diag_error(d, s->file, site->source_line, "source %s is an ssg "
		    "site folder and this deploy was built without libssg: "
		    "build it (ssg build) and point source at the output, or "
		    "push it as it is with --no-build", site->source);
		goto out;
#endif
	}
	/* A built tree: ssg writes the capsule beside the HTML folder. */
	if (site->gemini && capsule == NULL)
		capsule = path_join(tree, "../capsule");
	precompress_note(tree, site->name);
	release_message(&msg, site->source, VERSION);
	if (release_commit_capsule(repo, tree, capsule, msg.ptr, id, d) == -1)
		goto out;
	printf("release %s\n", id);
	engine_setup(&eo, &o);
	if (engine_push(&f, repo, id, &eo, d) == 0)
		rc = 0;
	/* whatever the push did: the records follow the hosts that serve */
	if (s->dns != NULL && dc_dns(&o, s, site->name, 1, d) != 0)
		rc = 1;
out:
	if (f.m != NULL && fleet_close(&f, d) == -1)
		rc = 1;
	engine_unlock(lock);
	free(repo);
	free(builtin);
	free(capsule);
	buf_release(&msg);
	spec_free(s);
	return dc_report(d, rc);
}

int
cmd_rollback(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	struct engine_opts eo;
	char *repo = NULL;
	int rc = 1, lock = -1;

	PARSE("rollback", 2, "akiM");
	if (o.npos < 1)
		return dc_usage_of("rollback", EXIT_USAGE);
	d = diag_new();
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	repo = repo_dir(s, f.m[0].site);
	if ((lock = engine_lock(repo, stdout, d)) == -1)
		goto out;
	engine_setup(&eo, &o);
	if (engine_rollback(&f, o.npos > 1 ? o.pos[1] : NULL, &eo, d) == 0)
		rc = 0;
	if (s->dns != NULL && dc_dns(&o, s, o.pos[0], 1, d) != 0)
		rc = 1;
out:
	if (fleet_close(&f, d) == -1)
		rc = 1;
	engine_unlock(lock);
	free(repo);
	spec_free(s);
	return dc_report(d, rc);
}

int
cmd_releases(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	struct engine_opts eo;
	int rc;

	PARSE("releases", 1, "kiM");
	if (o.npos != 1)
		return dc_usage_of("releases", EXIT_USAGE);
	d = diag_new();
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	engine_setup(&eo, &o);
	rc = engine_releases(&f, &eo, d) == 0 ? 0 : 1;
	if (fleet_close(&f, d) == -1)
		rc = 1;
	spec_free(s);
	return dc_report(d, rc);
}

int
dc_fleet_status(const struct opts *o, const struct spec *s, const char *name,
    struct diag *d)
{
	struct fleet f;
	struct engine_opts eo;
	int rc;

	if (dc_fleet_open(&f, o, s, name, d) == -1)
		return -1;
	engine_setup(&eo, o);
	rc = engine_current(&f, &eo, d);
	if (fleet_close(&f, d) == -1)
		rc = -1;
	return rc;
}
