/*
 * Writes a deterministic blog corpus twice: once as an ssg site and once
 * as a Hugo site with the same posts.
 *
 *   gen DIR N SEED FROM TO
 *
 * writes posts FROM..TO-1 of a corpus of N posts to DIR/ssg/posts/ and
 * DIR/hugo/content/posts/. Post i depends only on SEED and i, so any
 * range can be regenerated alone. Posts i < N are dated 2018..2024; posts
 * i >= N (added later) are dated after all of them, in order.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NTAGS	40

static const char *tags[NTAGS] = {
	"linux", "c", "programming", "web", "performance", "security",
	"networking", "databases", "tools", "shell", "freebsd", "compilers",
	"testing", "design", "hardware", "python", "rust", "go", "writing",
	"books", "unix", "git", "debugging", "concurrency", "memory", "http",
	"css", "javascript", "self-hosting", "backups", "monitoring",
	"containers", "jails", "editors", "typography", "math", "history",
	"open-source", "privacy", "retro-computing"
};

static const char *nouns[] = {
	"parser", "cache", "server", "thread", "buffer", "compiler", "kernel",
	"socket", "file", "queue", "index", "page", "template", "build",
	"module", "pointer", "string", "table", "hash", "tree", "lock",
	"request", "response", "process", "signal", "pipe", "stream",
	"record", "field", "layout", "theme", "feed", "post", "release",
	"backup", "disk", "network", "router", "packet", "terminal", "editor",
	"library", "function", "interface", "test", "benchmark", "profile",
	"allocator", "arena", "scheduler", "deadline", "daemon", "config",
	"option", "format", "encoder", "decoder", "archive", "mirror", "host"
};
#define NNOUNS	(sizeof(nouns) / sizeof(nouns[0]))

static const char *verbs[] = {
	"reads", "writes", "parses", "builds", "renders", "measures", "keeps",
	"drops", "sorts", "merges", "splits", "checks", "sends", "receives",
	"counts", "tracks", "stores", "loads", "maps", "frees", "locks",
	"waits for", "replaces", "compresses", "hashes", "walks", "skips",
	"returns", "copies", "moves", "starts", "stops", "opens", "closes"
};
#define NVERBS	(sizeof(verbs) / sizeof(verbs[0]))

static const char *adjs[] = {
	"small", "large", "fast", "slow", "simple", "careful", "stale",
	"fresh", "shared", "private", "old", "new", "empty", "full", "quiet",
	"busy", "plain", "portable", "strict", "lazy", "eager", "sorted",
	"broken", "stable", "hidden", "public", "local", "remote", "tiny",
	"whole", "partial", "atomic", "blocking", "parallel", "incremental"
};
#define NADJS	(sizeof(adjs) / sizeof(adjs[0]))

static const char *glue[] = {
	"the", "a", "every", "each", "one", "no", "that", "this", "our",
	"its", "some", "another"
};
#define NGLUE	(sizeof(glue) / sizeof(glue[0]))

static const char *conj[] = {
	"and", "but", "so", "because", "while", "when", "until", "unless",
	"after", "before", "although", "since"
};
#define NCONJ	(sizeof(conj) / sizeof(conj[0]))

static const char *langs[] = { "c", "sh", "python", "go", "yaml", "" };

static uint64_t rs;

static uint64_t
rnd(void)
{
	/* splitmix64: tiny, good enough, the same everywhere */
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned
rn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

#define PICK(a)	(a[rn(sizeof(a) / sizeof(a[0]))])

/* Zipf-like: tag k is chosen with weight 1/(k+1). */
static double zcum[NTAGS];

static void
zipf_init(void)
{
	double s = 0;
	int k;

	for (k = 0; k < NTAGS; k++) {
		s += 1.0 / (k + 1);
		zcum[k] = s;
	}
	for (k = 0; k < NTAGS; k++)
		zcum[k] /= s;
}

static int
zipf(void)
{
	double u = (double)(rnd() >> 11) / (double)(1ULL << 53);
	int k;

	for (k = 0; k < NTAGS - 1; k++)
		if (u < zcum[k])
			break;
	return k;
}

/* A growable text with a word count. */
struct text {
	char	*p;
	size_t	 len, cap;
	int	 words;
};

static void
put(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		if ((t->p = realloc(t->p, t->cap)) == NULL) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(t->p + t->len, s, n + 1);
	t->len += n;
}

static void
word(struct text *t, const char *w, int first)
{
	if (!first)
		put(t, " ");
	put(t, w);
	t->words++;
}

/* A noun phrase, maybe marked up. */
static void
phrase(struct text *t, int first, int markup)
{
	char b[256];
	unsigned m = markup ? rn(14) : 99;

	word(t, PICK(glue), first);
	if (rn(2))
		word(t, PICK(adjs), 0);
	switch (m) {
	case 0:
		snprintf(b, sizeof(b), "*%s*", PICK(nouns));
		break;
	case 1:
		snprintf(b, sizeof(b), "**%s**", PICK(nouns));
		break;
	case 2:
		snprintf(b, sizeof(b), "`%s_%s()`", PICK(nouns), PICK(nouns));
		break;
	case 3: {
		const char *n = PICK(nouns);
		snprintf(b, sizeof(b), "[%s](https://example.org/docs/%s/%u)",
		    n, n, rn(1000));
		break;
	}
	default:
		snprintf(b, sizeof(b), "%s", PICK(nouns));
	}
	word(t, b, 0);
}

static void
sentence(struct text *t, int first)
{
	char *s;
	size_t at = t->len + (first ? 0 : 1);

	phrase(t, first, 1);
	word(t, PICK(verbs), 0);
	phrase(t, 0, 1);
	if (rn(2)) {
		word(t, PICK(conj), 0);
		phrase(t, 0, 1);
		word(t, PICK(verbs), 0);
		phrase(t, 0, 1);
	}
	put(t, rn(8) ? "." : "?");
	/* capitalise the first letter unless it starts with markup */
	s = t->p + at;
	if (*s >= 'a' && *s <= 'z')
		*s -= 'a' - 'A';
}

static void
paragraph(struct text *t)
{
	int n = 3 + (int)rn(4), i;

	for (i = 0; i < n; i++)
		sentence(t, i == 0);
	put(t, "\n\n");
}

static void
list(struct text *t)
{
	int n = 3 + (int)rn(4), i, ordered = rn(3) == 0;
	char b[16];

	for (i = 0; i < n; i++) {
		if (ordered)
			snprintf(b, sizeof(b), "%d. ", i + 1);
		put(t, ordered ? b : "- ");
		phrase(t, 1, 1);
		word(t, PICK(verbs), 0);
		phrase(t, 0, 0);
		put(t, "\n");
	}
	put(t, "\n");
}

static void
code(struct text *t)
{
	int n = 4 + (int)rn(10), i;
	char b[256];

	put(t, "```");
	put(t, PICK(langs));
	put(t, "\n");
	for (i = 0; i < n; i++) {
		snprintf(b, sizeof(b), "%*s%s_%s(%s, %u);\n", (int)rn(3) * 4, "",
		    PICK(nouns), PICK(nouns), PICK(nouns), rn(4096));
		put(t, b);
	}
	put(t, "```\n\n");
}

static void
table(struct text *t)
{
	int rows = 3 + (int)rn(5), i;
	char b[256];

	put(t, "| name | kind | size | note |\n|---|:---:|---:|---|\n");
	for (i = 0; i < rows; i++) {
		snprintf(b, sizeof(b), "| %s | %s | %u | %s %s |\n",
		    PICK(nouns), PICK(adjs), rn(100000), PICK(adjs),
		    PICK(nouns));
		put(t, b);
		t->words += 5;
	}
	put(t, "\n");
}

static void
title_case(char *s)
{
	if (*s >= 'a' && *s <= 'z')
		*s -= 'a' - 'A';
}

static FILE *
create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void
post(const char *dir, unsigned n, uint64_t seed, unsigned i)
{
	struct text body = { 0 }, desc = { 0 };
	char title[256], slug[256], path[4096], date[64], *p;
	int pick[4], ntags, k, j, target, sec;
	unsigned y, mo, d, h, mi, s;
	FILE *f;

	rs = seed ^ (0x5bd1e995ULL * (i + 1));
	rnd();

	/* title: unique thanks to the number; slug = title in lower case */
	snprintf(title, sizeof(title), "%s %s %s %s %u", PICK(adjs),
	    PICK(nouns), rn(2) ? "and the" : "versus the", PICK(nouns), i);
	title_case(title);
	for (p = title, k = 0; *p != '\0'; p++)
		slug[k++] = *p == ' ' ? '-' :
		    (*p >= 'A' && *p <= 'Z') ? *p + ('a' - 'A') : *p;
	slug[k] = '\0';

	if (i < n) {
		y = 2018 + rn(7);
		mo = 1 + rn(12);
		d = 1 + rn(28);
	} else {
		y = 2025;
		mo = 1;
		d = 1 + (i - n) % 28;
	}
	h = rn(24);
	mi = rn(60);
	s = rn(60);

	ntags = 1 + (int)rn(4);
	for (k = 0; k < ntags; k++) {
again:
		pick[k] = zipf();
		for (j = 0; j < k; j++)
			if (pick[j] == pick[k])
				goto again;
	}

	sentence(&desc, 1);

	target = 350 + (int)rn(401);
	paragraph(&body);
	for (sec = 0; body.words < target; sec++) {
		char h2[256];

		snprintf(h2, sizeof(h2), "## The %s %s%s\n\n", PICK(adjs),
		    PICK(nouns), sec % 3 == 2 ? " in practice" : "");
		put(&body, h2);
		paragraph(&body);
		switch (rn(5)) {
		case 0:
			list(&body);
			break;
		case 1:
			code(&body);
			break;
		case 2:
			if (rn(3) == 0) {
				table(&body);
				break;
			}
			/* FALLTHROUGH */
		default:
			paragraph(&body);
		}
		if (rn(3) == 0)
			paragraph(&body);
	}

	/* ssg: BSSG form */
	snprintf(path, sizeof(path), "%s/ssg/posts/%04u-%02u-%02u-%s.md", dir,
	    y, mo, d, slug);
	f = create(path);
	fprintf(f, "---\ntitle: \"%s\"\ndate: %04u-%02u-%02u %02u:%02u:%02u "
	    "+0000\ntags: ", title, y, mo, d, h, mi, s);
	for (k = 0; k < ntags; k++)
		fprintf(f, "%s%s", k ? ", " : "", tags[pick[k]]);
	fprintf(f, "\ndescription: \"%s\"\n---\n%s", desc.p, body.p);
	fclose(f);

	/* Hugo: YAML list, RFC 3339 date, explicit slug */
	snprintf(date, sizeof(date), "%04u-%02u-%02uT%02u:%02u:%02uZ", y, mo,
	    d, h, mi, s);
	snprintf(path, sizeof(path), "%s/hugo/content/posts/%s.md", dir, slug);
	f = create(path);
	fprintf(f, "---\ntitle: \"%s\"\ndate: %s\nslug: %s\ntags:\n", title,
	    date, slug);
	for (k = 0; k < ntags; k++)
		fprintf(f, "  - %s\n", tags[pick[k]]);
	fprintf(f, "description: \"%s\"\n---\n%s", desc.p, body.p);
	fclose(f);

	free(body.p);
	free(desc.p);
}

int
main(int argc, char *argv[])
{
	char path[4096];
	unsigned n, from, to, i;
	uint64_t seed;

	if (argc != 6) {
		fprintf(stderr, "usage: gen DIR N SEED FROM TO\n");
		return 2;
	}
	n = (unsigned)strtoul(argv[2], NULL, 10);
	seed = strtoull(argv[3], NULL, 10);
	from = (unsigned)strtoul(argv[4], NULL, 10);
	to = (unsigned)strtoul(argv[5], NULL, 10);
	snprintf(path, sizeof(path), "%s/ssg/posts", argv[1]);
	if (mkdir(path, 0777) == -1 && errno != EEXIST) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/hugo/content/posts", argv[1]);
	if (mkdir(path, 0777) == -1 && errno != EEXIST) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	zipf_init();
	for (i = from; i < to; i++)
		post(argv[1], n, seed, i);
	return 0;
}
