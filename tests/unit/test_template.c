/*
 * The template engine against the Mustache spec suite (YAML files read
 * with libyaml), then cases the suite does not cover: runaway recursion,
 * syntax errors, and rendering one set from several threads.
 *
 * usage: test_template [spec-dir]   (default ../shared/spec/mustache)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "mem.h"
#include "template.h"
#include "value.h"

static int passed, failed;

static const char *const spec_files[] = {
	"comments.yml", "delimiters.yml", "interpolation.yml", "inverted.yml",
	"partials.yml", "sections.yml", "~inheritance.yml",
	"~dynamic-names.yml",
};

/* The name the test template is added under; no spec partial uses it. */
#define MAIN	"(template)"

/* s with control characters made visible, for failure lines. */
static const char *
show(struct buf *b, const char *s, size_t n)
{
	size_t i;

	buf_clear(b);
	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\n': buf_adds(b, "\\n"); break;
		case '\r': buf_adds(b, "\\r"); break;
		case '\t': buf_adds(b, "\\t"); break;
		case '"': buf_adds(b, "\\\""); break;
		case '\\': buf_adds(b, "\\\\"); break;
		default: buf_addc(b, s[i]); break;
		}
	}
	buf_addc(b, '"');
	return b->ptr;
}

static void
check(const char *where, const char *what, const char *want, size_t wantlen,
    const char *got, size_t gotlen)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	if (wantlen == gotlen && memcmp(want, got, wantlen) == 0) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: %s: expected %s", where, what, show(&a, want, wantlen));
	printf(", got %s\n", show(&b, got, gotlen));
	buf_release(&a);
	buf_release(&b);
}

static void
check_true(const char *where, const char *what, int ok)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: %s\n", where, what);
}

/* YAML 1.1 core resolution of a plain scalar, as far as the spec needs. */
static struct val *
scalar_value(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	char *end;
	double d;

	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return val_strn(s, len);
	if (len == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0)
		return val_null();
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0)
		return val_bool(1);
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0)
		return val_bool(0);
	if (strspn(s, "+-0123456789.eE") == len && strpbrk(s, "0123456789")) {
		d = strtod(s, &end);
		if (*end == '\0')
			return val_num(d);
	}
	return val_strn(s, len);
}

static struct val *
node_value(yaml_document_t *doc, yaml_node_t *n)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pr;
	yaml_node_t *k;
	struct val *v;

	if (n == NULL)
		return val_null();
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return scalar_value(n);
	case YAML_SEQUENCE_NODE:
		v = val_list();
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++)
			val_push(v, node_value(doc, yaml_document_get_node(doc,
			    *it)));
		return v;
	case YAML_MAPPING_NODE:
		v = val_map();
		for (pr = n->data.mapping.pairs.start;
		    pr < n->data.mapping.pairs.top; pr++) {
			k = yaml_document_get_node(doc, pr->key);
			if (k == NULL || k->type != YAML_SCALAR_NODE)
				continue;
			val_set(v, (const char *)k->data.scalar.value,
			    node_value(doc, yaml_document_get_node(doc,
			    pr->value)));
		}
		return v;
	default:
		return val_null();
	}
}

static yaml_node_t *
map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pr;
	yaml_node_t *k;

	if (map == NULL || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (pr = map->data.mapping.pairs.start;
	    pr < map->data.mapping.pairs.top; pr++) {
		k = yaml_document_get_node(doc, pr->key);
		if (k != NULL && k->type == YAML_SCALAR_NODE &&
		    strcmp((const char *)k->data.scalar.value, key) == 0)
			return yaml_document_get_node(doc, pr->value);
	}
	return NULL;
}

static int
is_scalar(const yaml_node_t *n)
{
	return n != NULL && n->type == YAML_SCALAR_NODE;
}

static void
run_case(const char *file, yaml_document_t *doc, yaml_node_t *tc)
{
	yaml_node_t *name, *tmpl, *want, *partials, *k, *v;
	yaml_node_pair_t *pr;
	struct tmpl_set *set;
	struct diag *d;
	struct val *data;
	const struct val *ctx[1];
	struct buf out = BUF_INIT;
	const char *tname;
	int ok = 1;

	name = map_get(doc, tc, "name");
	tmpl = map_get(doc, tc, "template");
	want = map_get(doc, tc, "expected");
	partials = map_get(doc, tc, "partials");
	tname = is_scalar(name) ? (const char *)name->data.scalar.value : "?";
	if (!is_scalar(tmpl) || !is_scalar(want)) {
		failed++;
		printf("FAIL %s: %s: malformed test case\n", file, tname);
		return;
	}
	set = tmpl_set_new();
	d = diag_new();
	if (tmpl_set_add(set, MAIN, (const char *)tmpl->data.scalar.value,
	    tmpl->data.scalar.length, d) == -1)
		ok = 0;
	if (partials != NULL && partials->type == YAML_MAPPING_NODE)
		for (pr = partials->data.mapping.pairs.start;
		    pr < partials->data.mapping.pairs.top; pr++) {
			k = yaml_document_get_node(doc, pr->key);
			v = yaml_document_get_node(doc, pr->value);
			if (!is_scalar(k) || !is_scalar(v) ||
			    tmpl_set_add(set, (const char *)k->data.scalar.value,
			    (const char *)v->data.scalar.value,
			    v->data.scalar.length, d) == -1)
				ok = 0;
		}
	if (!ok) {
		failed++;
		printf("FAIL %s: %s: does not compile: %s\n", file, tname,
		    diag_total(d) > 0 ? diag_message(d, 0) : "?");
	} else {
		data = node_value(doc, map_get(doc, tc, "data"));
		ctx[0] = data;
		if (tmpl_render(set, MAIN, ctx, 1, &out) == -1) {
			failed++;
			printf("FAIL %s: %s: render failed\n", file, tname);
		} else
			check(file, tname, (const char *)want->data.scalar.value,
			    want->data.scalar.length, out.ptr, out.len);
		val_free(data);
	}
	buf_release(&out);
	diag_free(d);
	tmpl_set_free(set);
}

static void
run_spec_file(const char *dir, const char *file)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root, *tests;
	yaml_node_item_t *it;
	char path[4096];
	FILE *fp;
	int n;

	n = snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (n < 0 || (size_t)n >= sizeof(path) ||
	    (fp = fopen(path, "rb")) == NULL) {
		failed++;
		printf("FAIL %s: cannot open %s\n", file, path);
		return;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, fp);
	if (!yaml_parser_load(&parser, &doc)) {
		failed++;
		printf("FAIL %s: YAML error: %s (line %zu)\n", file,
		    parser.problem ? parser.problem : "?",
		    parser.problem_mark.line + 1);
		yaml_parser_delete(&parser);
		fclose(fp);
		return;
	}
	root = yaml_document_get_root_node(&doc);
	tests = map_get(&doc, root, "tests");
	if (tests == NULL || tests->type != YAML_SEQUENCE_NODE) {
		failed++;
		printf("FAIL %s: no tests\n", file);
	} else
		for (it = tests->data.sequence.items.start;
		    it < tests->data.sequence.items.top; it++)
			run_case(file, &doc, yaml_document_get_node(&doc, *it));
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(fp);
}

/* Renders name from set with data as the only context. */
static int
render1(const struct tmpl_set *set, const char *name, const struct val *data,
    struct buf *out)
{
	const struct val *ctx[1];

	ctx[0] = data;
	buf_clear(out);
	return tmpl_render(set, name, ctx, data != NULL ? 1 : 0, out);
}

static void
add(struct tmpl_set *set, const char *name, const char *src)
{
	struct diag *d = diag_new();

	if (tmpl_set_add(set, name, src, strlen(src), d) == -1) {
		printf("setup: %s does not compile: %s\n", name,
		    diag_message(d, 0));
		failed++;
	}
	diag_free(d);
}

static void
test_recursion(void)
{
	struct tmpl_set *set = tmpl_set_new();
	struct buf out = BUF_INIT, want = BUF_INIT;
	int i;

	/* Each level renders one "x" before going one deeper. */
	add(set, "self", "x{{>self}}");
	check_true("recursion", "self-including partial renders, and says "
	    "it was cut short", render1(set, "self", NULL, &out) == 1);
	for (i = 0; i <= TMPL_MAX_DEPTH; i++)
		buf_addc(&want, 'x');
	check("recursion", "self-including partial stops at the depth limit",
	    want.ptr, want.len, out.ptr, out.len);

	add(set, "a", "a{{>b}}");
	add(set, "b", "b{{>a}}");
	render1(set, "a", NULL, &out);
	check_true("recursion", "mutual recursion stops",
	    out.len == TMPL_MAX_DEPTH + 1 && strncmp(out.ptr, "abab", 4) == 0);

	/* Two self-includes: bounded by the expansion budget, not 2^64. */
	add(set, "twice", "x{{>twice}}{{>twice}}");
	render1(set, "twice", NULL, &out);
	check_true("recursion", "doubly self-including partial stops",
	    out.len == TMPL_MAX_EXPANSIONS + 1);

	/* Ten self-includes of a kilobyte each: bounded by the output. */
	{
		struct buf src = BUF_INIT, err = BUF_INIT;

		buf_adds(&src, "{{>ten}}{{>ten}}{{>ten}}{{>ten}}{{>ten}}"
		    "{{>ten}}{{>ten}}{{>ten}}{{>ten}}{{>ten}}");
		for (i = 0; i < 1000; i++)
			buf_addc(&src, 'y');
		add(set, "ten", src.ptr);
		buf_clear(&out);
		check_true("recursion", "a partial growing tenfold per level "
		    "is cut short", tmpl_render_err(set, "ten", NULL, 0, &out,
		    &err) == 1);
		check_true("recursion", "... at the output bound",
		    out.len > TMPL_MAX_OUTPUT &&
		    out.len <= TMPL_MAX_OUTPUT + 1000);
		check_true("recursion", "... saying why", strstr(err.ptr,
		    "the page grows past 64 MB here") != NULL);
		buf_release(&src);
		buf_release(&err);
	}

	add(set, "layout", "<{{$body}}{{/body}}>");
	add(set, "page", "{{<layout}}{{$body}}{{<page}}{{/page}}{{/body}}"
	    "{{/layout}}");
	check_true("recursion", "self-inheriting parent renders, cut short",
	    render1(set, "page", NULL, &out) == 1);
	check_true("recursion", "self-inheriting parent stops",
	    out.len > 0 && out.len < 4 * TMPL_MAX_DEPTH);

	add(set, "blk", "{{<layout}}{{$body}}[{{$body}}{{/body}}]{{/body}}"
	    "{{/layout}}");
	render1(set, "blk", NULL, &out);
	check_true("recursion", "block argument containing itself stops",
	    out.len > 0 && out.len < 4 * TMPL_MAX_DEPTH);

	buf_release(&out);
	buf_release(&want);
	tmpl_set_free(set);
}

/* Inclusion loops: found before rendering when they do not depend on the
 * data, named with the line when cut short while rendering. */
static void
test_loops(void)
{
	struct tmpl_set *set = tmpl_set_new();
	struct buf out = BUF_INIT, err = BUF_INIT;
	struct diag *d = diag_new();
	const char *m;

	add(set, "node", "{{content}}<{{#nodes}}{{>node}}{{/nodes}}>");
	add(set, "page", "{{<layout}}{{$b}}{{>node}}{{/b}}{{/layout}}");
	add(set, "layout", "[{{$b}}{{/b}}]");
	check_true("loops", "recursion inside a section is fine",
	    tmpl_set_check(set, d) == 0 && diag_total(d) == 0);
	add(set, "head", "<head>\n{{>meta}}\n</head>");
	add(set, "meta", "<meta>\n\n{{^x}}{{/x}}{{>head}}");
	check_true("loops", "a loop through two partials is found",
	    tmpl_set_check(set, d) == -1);
	m = diag_message(d, 0);
	check_true("loops", "named with the file, line and chain",
	    m != NULL && (strstr(m, "meta:3: error: 'head' includes itself "
	    "outside any section (head > meta > head)") != NULL ||
	    strstr(m, "head:2: error: 'meta' includes itself outside any "
	    "section (meta > head > meta)") != NULL));
	add(set, "meta", "<meta>");
	add(set, "self", "a\nb{{#x}}{{>self}}{{/x}}");
	check_true("loops", "mended: no loop", tmpl_set_check(set, d) == -1 ?
	    0 : 1);
	{
		struct val *v = val_map();
		const struct val *ctx[1];

		val_set(v, "x", val_str("yes"));
		ctx[0] = v;
		check_true("loops", "a loop on the data is cut short: 1",
		    tmpl_render_err(set, "self", ctx, 1, &out, &err) == 1);
		check_true("loops", "... with the template and line",
		    strncmp(err.ptr, "self:2: 'self' is included more than",
		    36) == 0);
		val_free(v);
	}
	diag_free(d);
	buf_release(&out);
	buf_release(&err);
	tmpl_set_free(set);
}

/* src must fail to compile with a first message starting with prefix. */
static void
expect_error(const char *what, const char *src, const char *prefix)
{
	struct tmpl_set *set = tmpl_set_new();
	struct diag *d = diag_new();
	const char *msg;
	int rc;

	rc = tmpl_set_add(set, "bad.mustache", src, strlen(src), d);
	check_true("errors", what, rc == -1);
	msg = diag_message(d, 0);
	if (msg == NULL || strncmp(msg, prefix, strlen(prefix)) != 0) {
		failed++;
		printf("FAIL errors: %s: message %s does not start with %s\n",
		    what, msg ? msg : "(none)", prefix);
	} else
		passed++;
	check_true("errors", "failed template is not added",
	    !tmpl_set_has(set, "bad.mustache"));
	diag_free(d);
	tmpl_set_free(set);
}

static void
test_errors(void)
{
	struct tmpl_set *set;
	struct diag *d;
	struct buf out = BUF_INIT;

	expect_error("unclosed tag", "a\nb {{name\nc\n",
	    "bad.mustache:2: error: unclosed tag");
	expect_error("unclosed triple mustache", "{{{name}}\n",
	    "bad.mustache:1: error: unclosed tag");
	expect_error("unclosed section", "a\n{{#items}}\n{{.}}\n",
	    "bad.mustache:2: error: section 'items' is never closed");
	expect_error("mismatched close", "{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}\n",
	    "bad.mustache:3: error: closing tag 'a' does not match 'b' "
	    "opened on line 2");
	expect_error("close without open", "x\n\n{{/a}}\n",
	    "bad.mustache:3: error: closing tag 'a' without an open section");
	expect_error("unclosed parent", "{{<layout}}{{$a}}{{/a}}\n",
	    "bad.mustache:1: error: section 'layout' is never closed");
	expect_error("empty tag", "{{}}", "bad.mustache:1: error: empty tag");
	expect_error("bad dotted name", "\n{{a..b}}",
	    "bad.mustache:2: error: invalid name 'a..b'");
	expect_error("bad delimiters", "{{=<%=}}",
	    "bad.mustache:1: error: invalid set-delimiter tag");
	expect_error("unclosed tag after new delimiters", "{{=<% %>=}}\n<%x}}",
	    "bad.mustache:2: error: unclosed tag");

	/* Every bad name is reported, not just the first. */
	set = tmpl_set_new();
	d = diag_new();
	tmpl_set_add(set, "t", "{{a b}}\n{{c d}}\n", 16, d);
	check_true("errors", "each bad tag reported", diag_total(d) == 2);
	diag_free(d);

	/* A failed add leaves the earlier template in place; NULL diag ok. */
	add(set, "t", "good");
	check_true("errors", "NULL diag accepted",
	    tmpl_set_add(set, "t", "{{#x}}", 6, NULL) == -1);
	render1(set, "t", NULL, &out);
	check("errors", "failed add keeps the old template", "good", 4,
	    out.ptr, out.len);
	check_true("errors", "unknown template", render1(set, "nope", NULL,
	    &out) == -1);
	buf_release(&out);
	tmpl_set_free(set);
}

static void
test_misc(void)
{
	struct tmpl_set *set = tmpl_set_new();
	struct val *page = val_map(), *site = val_map(), *list;
	const struct val *ctx[2];
	struct buf out = BUF_INIT, want = BUF_INIT;

	add(set, "t", "{{title}}|{{{title}}}|{{site.name}}|"
	    "{{#empty}}E{{/empty}}{{^empty}}e{{/empty}}|"
	    "{{#zero}}Z{{/zero}}{{^zero}}z{{/zero}}|{{n}}|{{flag}}");
	val_set_str(page, "title", "Tom's <b>");
	val_set_str(page, "empty", "");
	val_set_num(page, "zero", 0);
	val_set_num(page, "n", -2.5);
	val_set_bool(page, "flag", 1);
	val_set_str(site, "name", "S");
	val_set_str(site, "title", "site title");
	val_set(site, "site", val_map());
	val_set_str((struct val *)val_get(site, "site"), "name", "Site");
	ctx[0] = site;
	ctx[1] = page;
	tmpl_render(set, "t", ctx, 2, &out);
	esc_html(&want, "Tom's <b>", 9);
	buf_adds(&want, "|Tom's <b>|Site|e|z|-2.5|true");
	check("misc", "escaping, stack order, falsy values", want.ptr,
	    want.len, out.ptr, out.len);

	/* Replacing a template takes effect for partials that name it. */
	add(set, "outer", "[{{>inner}}]");
	add(set, "inner", "one");
	render1(set, "outer", NULL, &out);
	check("misc", "partial", "[one]", 5, out.ptr, out.len);
	add(set, "inner", "two");
	render1(set, "outer", NULL, &out);
	check("misc", "replaced partial", "[two]", 5, out.ptr, out.len);

	/* A layout with blocks, overridden by a page through a partial. */
	add(set, "layout", "<html>\n  <head>\n    {{>head}}\n  </head>\n"
	    "  <body>\n    {{$body}}\n    default\n    {{/body}}\n"
	    "  </body>\n</html>\n");
	add(set, "head", "<title>{{$title}}{{site.name}}{{/title}}</title>\n");
	add(set, "post", "{{<layout}}\n{{$title}}{{title}}{{/title}}\n"
	    "{{$body}}\n<p>\n  {{title}}\n</p>\n{{/body}}\n{{/layout}}\n");
	list = val_map();
	val_set_str(list, "title", "Post");
	ctx[0] = site;
	ctx[1] = list;
	buf_clear(&out);
	tmpl_render(set, "post", ctx, 2, &out);
	check("misc", "layout with blocks and an indented partial",
	    "<html>\n  <head>\n    <title>Post</title>\n  </head>\n"
	    "  <body>\n    <p>\n      Post\n    </p>\n  </body>\n</html>\n",
	    strlen("<html>\n  <head>\n    <title>Post</title>\n  </head>\n"
	    "  <body>\n    <p>\n      Post\n    </p>\n  </body>\n</html>\n"),
	    out.ptr, out.len);
	val_free(list);

	/* Standalone lines inside an indented partial lose their indentation
	 * too; blank lines are kept. */
	add(set, "items", "<ul>\n{{#items}}\n  <li>{{.}}</li>\n{{/items}}\n"
	    "</ul>\n");
	add(set, "wrap", "<div>\n  {{>items}}\n</div>\n");
	list = val_list();
	val_push(list, val_str("a"));
	val_push(list, val_str("b"));
	val_set(page, "items", list);
	render1(set, "wrap", page, &out);
	check("misc", "indented partial with a section",
	    "<div>\n  <ul>\n    <li>a</li>\n    <li>b</li>\n  </ul>\n</div>\n",
	    strlen("<div>\n  <ul>\n    <li>a</li>\n    <li>b</li>\n  </ul>\n"
	    "</div>\n"), out.ptr, out.len);

	check_true("misc", "has", tmpl_set_has(set, "wrap") &&
	    !tmpl_set_has(set, "wrap2"));
	buf_release(&out);
	buf_release(&want);
	val_free(page);
	val_free(site);
	tmpl_set_free(set);
}

struct job {
	const struct tmpl_set	*set;
	const struct val	*data;
	const char		*want;
	size_t			 wantlen;
	int			 mismatches;
};

#define THREAD_RENDERS	2000

static void *
render_many(void *arg)
{
	struct job *j = arg;
	struct buf out = BUF_INIT;
	int i;

	for (i = 0; i < THREAD_RENDERS; i++) {
		render1(j->set, "page", j->data, &out);
		if (out.len != j->wantlen || memcmp(out.ptr, j->want,
		    out.len) != 0)
			j->mismatches++;
	}
	buf_release(&out);
	return NULL;
}

static void
test_threads(void)
{
	struct tmpl_set *set = tmpl_set_new();
	struct val *data = val_map(), *posts, *p;
	struct buf want = BUF_INIT;
	struct job jobs[2];
	pthread_t th[2];
	char title[32];
	int i, started = 0;

	add(set, "base", "<html>\n  {{$main}}{{/main}}\n</html>\n");
	add(set, "item", "<li><a href=\"{{url}}\">{{title}}</a>"
	    "{{#tags}} #{{.}}{{/tags}}</li>\n");
	add(set, "page", "{{<base}}{{$main}}\n<ul>\n{{#posts}}\n  {{>item}}\n"
	    "{{/posts}}\n</ul>\n{{/main}}{{/base}}");
	posts = val_list();
	for (i = 0; i < 50; i++) {
		p = val_map();
		snprintf(title, sizeof(title), "Post <%d>", i);
		val_set_str(p, "title", title);
		snprintf(title, sizeof(title), "/p/%d/", i);
		val_set_str(p, "url", title);
		val_set(p, "tags", val_list());
		val_push((struct val *)val_get(p, "tags"), val_str("c"));
		val_push(posts, p);
	}
	val_set(data, "posts", posts);
	render1(set, "page", data, &want);
	check_true("threads", "reference render is not empty", want.len > 2000);
	for (i = 0; i < 2; i++) {
		jobs[i].set = set;
		jobs[i].data = data;
		jobs[i].want = want.ptr;
		jobs[i].wantlen = want.len;
		jobs[i].mismatches = 0;
		if (pthread_create(&th[i], NULL, render_many, &jobs[i]) == 0)
			started++;
	}
	check_true("threads", "threads start", started == 2);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < started; i++)
		check_true("threads", "identical output from each thread",
		    jobs[i].mismatches == 0);
	buf_release(&want);
	val_free(data);
	tmpl_set_free(set);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "../shared/spec/mustache";
	size_t i;

	for (i = 0; i < sizeof(spec_files) / sizeof(spec_files[0]); i++)
		run_spec_file(dir, spec_files[i]);
	test_recursion();
	test_loops();
	test_errors();
	test_misc();
	test_threads();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
