# ssg and deploy. `make run` builds and serves the demo site; `make check`
# runs every test. Both install missing Debian packages first (make deps).

PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	 = $(PREFIX)/bin
DATADIR	 = $(PREFIX)/share/ssg
MANDIR	 = $(PREFIX)/share/man

VERSION	 = 0.1.0
CC	?= cc
CFLAGS	?= -O2 -g
PKGS	 = libcmark-gfm yaml-0.1 libxxhash libmicrohttpd zlib libbrotlienc libgit2 libarchive libcurl
# deploy alone: RFC 2136 updates and TSIG (deploy/dns)
DEPLOY_PKGS = ldns
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra $(SSG_DIRS:%=-Issg/%) $(DEPLOY_DIRS:%=-Ideploy/%) -DSSG_VERSION='"$(VERSION)"' -DHAVE_LIBSSG \
	-DSSG_DATADIR='"$(DATADIR)"' $(CFLAGS)
PKG_CFLAGS = $$(pkg-config --cflags $(PKGS) $(DEPLOY_PKGS) vips)
LIBS	 = $$(pkg-config --libs $(PKGS) $(DEPLOY_PKGS)) -lcmark-gfm-extensions -lpthread -lm \
	-lssl -lcrypto \
	$(LIBDL)
# ssg opens these on first use (ssg/util/dynlib.h): their names as the loader
# knows them, read from the libraries this build compiles against.
LAZY_PKGS = libmicrohttpd libgit2 libarchive libcurl
SSG_LIBS = $$(pkg-config --libs $(filter-out $(LAZY_PKGS),$(PKGS))) \
	-lcmark-gfm-extensions -lpthread -lm $(LIBDL)
LIBDL	?= $(if $(filter Linux,$(shell uname -s)),-ldl)
soname = $(shell f=$$(pkg-config --variable=libdir $(1) 2>/dev/null)/$(2); \
	readelf -d "$$f" 2>/dev/null | sed -n 's/.*soname: \[\(.*\)\].*/\1/p')
LAZY_CFLAGS = -DSSG_CURL_SONAME='"$(or $(call soname,libcurl,libcurl.so),libcurl.so.4)"' \
	-DSSG_MHD_SONAME='"$(or $(call soname,libmicrohttpd,libmicrohttpd.so),libmicrohttpd.so.12)"' \
	-DSSG_ARCHIVE_SONAME='"$(or $(call soname,libarchive,libarchive.so),libarchive.so.13)"' \
	-DSSG_GIT_SONAME='"$(or $(call soname,libgit2,libgit2.so),libgit2.so.1.5)"' \
	-DSSG_VIPS_SONAME='"$(or $(call soname,vips,libvips.so),libvips.so.42)"'

# The generator as a library (used by ssg and deploy), module by module,
# grouped by role: util (buffers, memory, text, dates, files), source
# (site.yaml, posts, Markdown, code colours), render (templates, themes,
# feeds, the capsule), pipeline (the build's stages and caches), cmd (the ssg
# command, the dev server, the link checker), import (BSSG sites).
SSG_DIRS = util source render pipeline cmd import
LIBSSG_OBJS = \
	ssg/util/buf.o ssg/util/datetime.o ssg/util/diag.o ssg/util/dynlib.o \
	ssg/util/escape.o ssg/util/fsutil.o ssg/util/hash.o ssg/util/mdmem.o \
	ssg/util/mem.o ssg/util/pool.o ssg/util/slug.o ssg/util/utf8.o \
	ssg/util/value.o ssg/util/process.o ssg/util/mime.o \
	ssg/util/yamldoc.o \
	ssg/source/searchword.o \
	ssg/source/config.o ssg/source/content.o ssg/source/excerpt.o ssg/source/frontmatter.o \
	ssg/source/gitinfo.o ssg/source/highlight.o ssg/source/locale.o \
	ssg/source/markdown.o ssg/source/related.o ssg/source/siteindex.o \
	ssg/render/bssg_frame.o ssg/render/capsule.o ssg/render/feed.o \
	ssg/render/gemtext.o ssg/render/render.o ssg/render/render_bssg.o \
	ssg/render/render_fp.o ssg/render/page_kind.o ssg/render/render_list.o ssg/render/template.o \
	ssg/render/template_compile.o ssg/render/theme.o \
	ssg/render/search_index.o \
	ssg/pipeline/build.o ssg/pipeline/build_memo.o ssg/pipeline/build_sources.o \
	ssg/pipeline/compress.o ssg/pipeline/manifest.o ssg/pipeline/media.o ssg/pipeline/media_encode.o ssg/pipeline/output.o ssg/pipeline/picture.o \
	ssg/pipeline/srccache.o ssg/pipeline/build_search.o ssg/pipeline/sink.o \
	ssg/pipeline/pages.o \
	ssg/cmd/backup.o ssg/cmd/check.o ssg/cmd/check_against.o ssg/cmd/cli.o \
	ssg/cmd/search_query.o \
	ssg/cmd/cmd_backup.o ssg/cmd/cmd_build.o ssg/cmd/cmd_check.o \
	ssg/cmd/cmd_edit.o ssg/cmd/cmd_import.o ssg/cmd/cmd_list.o \
	ssg/cmd/cmd_serve.o ssg/cmd/cmd_site.o ssg/cmd/cmd_themes.o \
	ssg/cmd/cmd_write.o ssg/cmd/cmd_search.o ssg/cmd/serve.o ssg/cmd/watch.o \
	ssg/import/import_bssg.o ssg/import/import_bssg_urls.o \
	ssg/import/import_bssg_yaml.o

# The deployer, module by module, grouped by role: config (deploy.yaml),
# release (the release model and health checks), platform (jail drivers,
# plans, generated configs), remote (agent, transport), fleet (the engine:
# apply, push, rollback and checks over every host), bench, cmd.
DEPLOY_DIRS = config dns release platform remote fleet bench cmd
DEPLOY_OBJS = \
	deploy/config/spec.o deploy/config/spec_yaml.o deploy/config/spec_site.o \
	deploy/config/spec_dns.o deploy/dns/dns_key.o deploy/dns/dns.o \
	deploy/release/release.o deploy/release/release_commit.o \
	deploy/release/checkout.o deploy/release/health.o deploy/release/gemini.o \
	deploy/platform/driver_linux.o deploy/platform/linux_util.o \
	deploy/platform/linux_net.o deploy/platform/linux_jail.o \
	deploy/platform/driver_bastille.o deploy/platform/driver_jail.o \
	deploy/platform/freebsd.o deploy/platform/fb_host.o \
	deploy/platform/fb_parse.o deploy/platform/plan.o deploy/platform/fb_acme.o \
	deploy/platform/confgen.o deploy/platform/proc.o deploy/platform/acme.o \
	deploy/platform/caddy_renew.o \
	deploy/remote/agent.o deploy/remote/agent_verbs.o \
	deploy/remote/transport.o \
	deploy/fleet/fleet.o deploy/fleet/host.o deploy/fleet/engine.o \
	deploy/fleet/engine_dns.o \
	deploy/bench/bench.o deploy/bench/bench_report.o \
	deploy/bench/remote.o deploy/bench/remote_report.o \
	deploy/bench/remote_server.o

UNIT_TESTS = \
	tests/unit/test_buf tests/unit/test_config tests/unit/test_datetime \
	tests/unit/test_escape tests/unit/test_frontmatter \
	tests/unit/test_markdown tests/unit/test_excerpt tests/unit/test_gemtext tests/unit/test_slug tests/unit/test_template \
	tests/unit/test_value tests/unit/test_spec tests/unit/test_confgen \
	tests/unit/test_release tests/unit/test_freebsd tests/unit/test_mdmem \
	tests/unit/test_fsutil tests/unit/test_highlight tests/unit/test_acme \
	tests/unit/test_caddy_renew tests/unit/test_search tests/unit/test_process \
	tests/unit/test_manifest tests/unit/test_sink tests/unit/test_siteindex \
	tests/unit/test_bench_remote
TEST_PROGRAMS = tests/deploy/test_plan tests/deploy/release/drv \
	tests/deploy/freebsd/fbplan tests/deploy/dns_race

all: bin/ssg bin/deploy

.c.o:
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

ssg/util/dynlib.o: ssg/util/dynlib.c Makefile
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(LAZY_CFLAGS) -MMD -MP -c ssg/util/dynlib.c -o $@

ssg/libssg.a: $(LIBSSG_OBJS)
	rm -f $@
	ar rcs $@ $(LIBSSG_OBJS)

bin/ssg: ssg/cmd/main.o ssg/libssg.a
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -o $@ ssg/cmd/main.o ssg/libssg.a $(SSG_LIBS)

deploy/libdeploy.a: $(DEPLOY_OBJS)
	rm -f $@
	ar rcs $@ $(DEPLOY_OBJS)

DEPLOY_CMD_OBJS = deploy/cmd/main.o deploy/cmd/cmd_status.o \
	deploy/cmd/cmd_release.o deploy/cmd/cmd_fleet.o deploy/cmd/cmd_acme.o \
	deploy/cmd/cmd_bench.o deploy/cmd/cmd_dns.o

bin/deploy: $(DEPLOY_CMD_OBJS) deploy/libdeploy.a ssg/libssg.a
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -o $@ $(DEPLOY_CMD_OBJS) deploy/libdeploy.a \
		ssg/libssg.a $(LIBS)

TEST_LIBS = tests/unit/tap.o deploy/libdeploy.a ssg/libssg.a

tests/unit/test_%: tests/unit/test_%.o $(TEST_LIBS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TEST_LIBS) $(LIBS)

tests/deploy/test_plan: tests/deploy/test_plan.o $(TEST_LIBS)
	$(CC) $(ALL_CFLAGS) -o $@ tests/deploy/test_plan.o $(TEST_LIBS) $(LIBS)

tests/deploy/release/drv: tests/deploy/release/drv.o $(TEST_LIBS)
	$(CC) $(ALL_CFLAGS) -o $@ tests/deploy/release/drv.o $(TEST_LIBS) $(LIBS)

tests/deploy/dns_race: tests/deploy/dns_race.o $(TEST_LIBS)
	$(CC) $(ALL_CFLAGS) -o $@ tests/deploy/dns_race.o $(TEST_LIBS) $(LIBS)

tests/deploy/freebsd/fbplan: tests/deploy/freebsd/fbplan.o $(TEST_LIBS)
	$(CC) $(ALL_CFLAGS) -o $@ tests/deploy/freebsd/fbplan.o $(TEST_LIBS) \
		$(LIBS)

-include ssg/*/*.d deploy/*/*.d tests/unit/*.d tests/deploy/*.d \
	tests/deploy/release/*.d tests/deploy/freebsd/*.d

# Debian packages needed to build, and to run the tests. python3-pygments
# colours code blocks (ssg/highlight.py, run by ssg at build time).
DEB_BUILD = build-essential pkg-config libcmark-gfm-dev \
	libcmark-gfm-extensions-dev libyaml-dev libxxhash-dev \
	libmicrohttpd-dev libgit2-dev libcurl4-openssl-dev libarchive-dev \
	zlib1g-dev libbrotli-dev libvips-dev python3-pygments libldns-dev
DEB_TEST = shellcheck libxml2-utils curl mandoc python3 git brotli nginx \
	libnginx-mod-http-brotli-static caddy nftables \
	molly-brown pebble lego knot knot-dnsutils \
	iproute2 util-linux openssh-server openssh-client openssl wrk \
	clang libclang-rt-dev libvips-tools libimage-exiftool-perl gnome-backgrounds
FREEBSD_PKGS = pkgconf cmark libyaml xxhash libmicrohttpd libgit2 curl \
	libarchive brotli vips py311-pygments ldns

deps:
	@DEB="$(DEB_BUILD) $(DEB_EXTRA)" FREEBSD="$(FREEBSD_PKGS)" sh tests/deps.sh

deps-test:
	@DEB="$(DEB_BUILD) $(DEB_TEST)" FREEBSD="$(FREEBSD_PKGS)" sh tests/deps.sh

run: deps all
	bin/ssg serve -C content

# (the fuzz targets are built by tests/fuzz/run.sh, beside other tests)
check: deps-test all $(UNIT_TESTS) $(TEST_PROGRAMS)
	sh tests/run.sh

unit-tests: $(UNIT_TESTS)

# The unit and ssg end-to-end tests built with ASan and UBSan, in a copy
# of the tree (tests/sanitize/run.sh); tests/run.sh runs it too.
check-sanitize: deps-test
	sh tests/sanitize/run.sh

# ssg against Hugo on generated corpora of 1,000 and 10,000 posts, then
# on 60 photos, with Lighthouse on a photo post, then the search on 10,000
# posts against Zola's index and Pagefind (tests/bench/README.md), then
# deploy bench --from at up to 10,000 connections (tests/bench/remote.sh)
# and the proxy's hop to a site (bench-hop, below); BENCH_ARGS=--quick for
# a short run of the first and the last, without the photos and the
# remote clients.
bench: deps all
	sh tests/bench/run.sh $(BENCH_ARGS)
	case " $(BENCH_ARGS) " in *" --quick "*) ;; *) sh tests/bench/photos.sh ;; esac
	sh tests/bench/search.sh $(BENCH_ARGS)
	case " $(BENCH_ARGS) " in *" --quick "*) ;; *) sh tests/bench/remote.sh ;; esac
	case " $(BENCH_ARGS) " in *" --quick "*) sh tests/deploy/bench_hop.sh --seconds 2 ;; \
	    *) sh tests/deploy/bench_hop.sh ;; esac

# deploy bench --from: four clients, old beside new, up to 10,000
# connections (tests/bench/remote.sh); needs root
bench-remote: deps all
	sh tests/bench/remote.sh

# The hop from the proxy to a site (as root): HTTPS through each proxy
# kind against plain HTTP at the site's nginx, over TCP and over the
# site's Unix socket (tests/deploy/bench_hop.sh; BENCH_HOP_ARGS).
bench-hop: deps all
	sh tests/deploy/bench_hop.sh $(BENCH_HOP_ARGS)

# the photos alone
bench-photos: deps all
	sh tests/bench/photos.sh

# the search alone; BENCH_SEARCH_ARGS="--quick" (1,000 posts), "--out DIR"
bench-search: deps all
	sh tests/bench/search.sh $(BENCH_SEARCH_ARGS)

# Fuzz targets (tests/fuzz/README.md): the parsers of text a user or the
# network supplies, built with clang's libFuzzer, ASan and UBSan into
# tests/fuzz/build/. make fuzz runs each for FUZZ_SECONDS.
FUZZ_DIR	 = tests/fuzz/build
FUZZ_TARGETS	 = post template siteyaml bssgconf deployyaml agent bssgframe gemtext caddyrenew picture search tsigkey
FUZZ_SECONDS	?= 60
FUZZ_CC		?= clang
# A 4 MB bound on a page keeps each input well inside the fuzzers'
# timeout; the bound's logic is the same as in the program.
FUZZ_CFLAGS	 = -O1 -g -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-DTMPL_MAX_OUTPUT='(4u << 20)'
FUZZ_OBJS = $(addprefix $(FUZZ_DIR)/,$(LIBSSG_OBJS) $(DEPLOY_OBJS))
FUZZ_BINS = $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(LAZY_CFLAGS) $(FUZZ_CFLAGS) \
		-fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
		-o $@ $< $(FUZZ_OBJS) $(LIBS)

# (kept: the targets share them)
.SECONDARY: $(FUZZ_OBJS)
-include $(FUZZ_OBJS:.o=.d)

fuzz-build: $(FUZZ_BINS)

fuzz: deps-test fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# The golden pages of tests/e2e/golden.sh written again from this build,
# after showing what changes in them.
golden: bin/ssg
	sh tests/e2e/golden.sh --update

# Faults put into a scratch copy, one at a time: each must be caught
# (tests/mutate/README.md).
mutate: all $(UNIT_TESTS) $(TEST_PROGRAMS)
	python3 tests/mutate/run.py

# One run of the differential incremental test: make diffinc SEED=N STEPS=M
diffinc: bin/ssg
	python3 tests/diffinc/diffinc.py $(if $(SEED),--seed $(SEED)) \
		--steps $(or $(STEPS),100)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	cp bin/ssg $(DESTDIR)$(BINDIR)/ssg
	chmod 755 $(DESTDIR)$(BINDIR)/ssg
	rm -rf $(DESTDIR)$(DATADIR)/themes
	cp -R themes $(DESTDIR)$(DATADIR)/themes
	cp ssg/highlight.py $(DESTDIR)$(DATADIR)/highlight.py
	cp bin/deploy $(DESTDIR)$(BINDIR)/deploy
	chmod 755 $(DESTDIR)$(BINDIR)/deploy
	cp ssg/ssg.1 $(DESTDIR)$(MANDIR)/man1/ssg.1
	cp ssg/site.yaml.5 $(DESTDIR)$(MANDIR)/man5/site.yaml.5
	cp deploy/deploy.1 $(DESTDIR)$(MANDIR)/man1/deploy.1
	cp deploy/deploy.yaml.5 $(DESTDIR)$(MANDIR)/man5/deploy.yaml.5

clean:
	rm -rf bin ssg/*/*.o ssg/*/*.d ssg/*.a deploy/*/*.o deploy/*/*.d deploy/*.a \
		tests/unit/*.o tests/unit/*.d tests/deploy/*.o tests/deploy/*.d \
		tests/deploy/release/*.o tests/deploy/release/*.d \
		tests/deploy/freebsd/*.o tests/deploy/freebsd/*.d \
		$(UNIT_TESTS) $(TEST_PROGRAMS) $(FUZZ_DIR)

.PHONY: all deps deps-test run check check-sanitize unit-tests golden bench bench-photos bench-search bench-remote bench-hop install clean mutate diffinc fuzz fuzz-build
