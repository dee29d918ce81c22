/*
 * util.c — fatal errors, diagnostics, allocation, arenas, string buffers
 * and lexical path helpers.  Everything here is small and has no
 * knowledge of C or of include graphs.
 */
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "progress.h"

int diag_errors;
int diag_limit = 50;
bool warnings_enabled = true;
static int diag_printed;
int diag_seen;
_Thread_local bool diag_muted;
_Thread_local bool diag_dropped;
int diag_muted_count;
static VEC(uint64_t) muted_files; /* path hashes of the muted diagnostics */
static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;

void die(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	progress_pause(); /* for good: the run ends */
	fputs("hdrslim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FATAL);
}

void bug_at(const char *file, int line, const char *msg)
{
	fflush(stdout);
	progress_pause();
	fprintf(stderr, "hdrslim: BUG: %s:%d: %s\n", file, line, msg);
	exit(EXIT_BUG);
}

/* The hashes of the diagnostics printed: the same one (a header met by
 * many walks) is printed once. */
static uint64_t *diag_hashes;
static size_t diag_nhash, diag_caphash;

static bool diag_first_time(uint64_t h)
{
	h |= 1; /* 0 marks an empty slot */
	if (2 * (diag_nhash + 1) > diag_caphash) {
		size_t cap = diag_caphash ? 2 * diag_caphash : 256;
		uint64_t *t = calloc(cap, sizeof(uint64_t));
		if (!t)
			return true;
		for (size_t i = 0; i < diag_caphash; i++)
			if (diag_hashes[i])
				for (size_t k = diag_hashes[i] & (cap - 1);; k = (k + 1) & (cap - 1))
					if (!t[k]) {
						t[k] = diag_hashes[i];
						break;
					}
		free(diag_hashes);
		diag_hashes = t;
		diag_caphash = cap;
	}
	for (size_t k = h & (diag_caphash - 1);; k = (k + 1) & (diag_caphash - 1)) {
		if (diag_hashes[k] == h)
			return false;
		if (!diag_hashes[k]) {
			diag_hashes[k] = h;
			diag_nhash++;
			return true;
		}
	}
}

static void vreport(const char *kind, const char *path, unsigned line,
		    const char *fmt, va_list ap)
{
	char *text = NULL, *msg = NULL;
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	if (text && (line ? asprintf(&msg, "%s:%u: %s: %s", path, line, kind, text)
			  : asprintf(&msg, "%s: %s: %s", path, kind, text)) < 0)
		msg = NULL;
	free(text);
	if (!msg) {
		pthread_mutex_lock(&diag_lock);
		progress_pause();
		fprintf(stderr, "%s: %s: (out of memory for the message)\n", path, kind);
		progress_resume();
		pthread_mutex_unlock(&diag_lock);
		return;
	}
	pthread_mutex_lock(&diag_lock);
	if (diag_first_time(XXH3_64bits(msg, strlen(msg)))) {
		if (diag_printed <= diag_limit)
			progress_pause();
		if (diag_printed < diag_limit)
			fprintf(stderr, "%s\n", msg);
		else if (diag_printed == diag_limit)
			fprintf(stderr, "hdrslim: further diagnostics suppressed (--max-diags)\n");
		if (diag_printed <= diag_limit)
			progress_resume();
		diag_printed++;
	}
	pthread_mutex_unlock(&diag_lock);
	free(msg);
}

void diag(const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;
	if (diag_dropped)
		return;
	if (diag_muted) {
		/* counted once per file: a header may be walked more than once */
		uint64_t h = XXH3_64bits(path, strlen(path));
		pthread_mutex_lock(&diag_lock);
		bool is_new = true;
		for (int i = 0; i < muted_files.n && is_new; i++)
			is_new = muted_files.v[i] != h;
		if (is_new) {
			vec_push(&muted_files, h);
			diag_muted_count = muted_files.n;
		}
		pthread_mutex_unlock(&diag_lock);
		return;
	}
	__atomic_add_fetch(&diag_seen, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vreport("error", path, line, fmt, ap);
	va_end(ap);
	__atomic_add_fetch(&diag_errors, 1, __ATOMIC_RELAXED);
}

void warn_at(const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;
	__atomic_add_fetch(&diag_seen, 1, __ATOMIC_RELAXED);
	if (!warnings_enabled)
		return;
	va_start(ap, fmt);
	vreport("warning", path, line, fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xzalloc_now(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes)", n, size);
	void *p = xmalloc(n * size);
	memset(p, 0, n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return p;
}

struct ArenaBlock {
	ArenaBlock *next;
	size_t used, size;
	_Alignas(16) char data[];
};

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	ArenaBlock *b = a->head;
	if (!b || b->used + n > b->size) {
		size_t size = n > (1u << 20) ? n : (1u << 20);
		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	a->used_total += n;
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void arena_clear(Arena *a)
{
	ArenaBlock *keep = a->head;
	while (keep && keep->next) { /* the first block made: a standard one */
		ArenaBlock *next = keep->next;
		free(keep);
		keep = next;
	}
	if (keep)
		keep->used = 0;
	a->head = keep;
	a->used_total = 0;
}

void arena_free(Arena *a)
{
	ArenaBlock *b = a->head;
	while (b) {
		ArenaBlock *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used_total = 0;
}

void sb_add(StrBuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t c = sb->cap ? sb->cap : 64;
		while (c < sb->len + n + 1)
			c *= 2;
		sb->buf = xrealloc(sb->buf, c);
		sb->cap = c;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void sb_addc(StrBuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_adds(StrBuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addf(StrBuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	int n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	sb_add(sb, p, (size_t)n);
	free(p);
}

const char *sb_str(StrBuf *sb)
{
	if (!sb->buf)
		sb_add(sb, "", 0);
	return sb->buf;
}

/*
 * Collapse "//", "/./" and "dir/../" lexically.  A leading "../" that
 * cannot be collapsed stays; "a/.." becomes ".".
 */
void path_normalize(char *p)
{
	bool abs = p[0] == '/';
	char *out = p;
	const char *in = p;
	/* component start offsets in out, for popping on ".." */
	size_t stack[512];
	int depth = 0, fixed = 0; /* fixed: leading ".." components kept */
	if (abs)
		*out++ = '/', in++;
	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		const char *end = strchr(in, '/');
		size_t n = end ? (size_t)(end - in) : strlen(in);
		if (n == 1 && in[0] == '.') {
			in += n;
			continue;
		}
		if (n == 2 && in[0] == '.' && in[1] == '.') {
			if (depth > fixed) {
				out = p + stack[--depth];
				if (out > p + (abs ? 1 : 0))
					out--; /* drop the separator */
				in += n;
				continue;
			}
			if (abs) { /* "/.." is "/" */
				in += n;
				continue;
			}
		}
		if (out > p + (abs ? 1 : 0))
			*out++ = '/';
		if (depth < 512)
			stack[depth++] = (size_t)(out - p);
		if (n == 2 && in[0] == '.' && in[1] == '.')
			fixed = depth;
		memmove(out, in, n);
		out += n;
		in += n;
	}
	if (out == p)
		*out++ = '.';
	*out = 0;
}

char *path_join(const char *dir, const char *name)
{
	char *p;
	if (name[0] == '/' || !dir || !dir[0] || (dir[0] == '.' && !dir[1]))
		p = xstrdup(name);
	else
		p = xasprintf("%s/%s", dir, name);
	path_normalize(p);
	return p;
}

char *path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == p)
		return xstrdup("/");
	return xstrndup(p, (size_t)(slash - p));
}

char *path_absolute(const char *p)
{
	if (p[0] == '/') {
		char *r = xstrdup(p);
		path_normalize(r);
		return r;
	}
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		die("cannot get the current directory: %s", strerror(errno));
	return path_join(cwd, p);
}

bool path_has_prefix(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return p[0] == '/';
	return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == 0);
}

void csr_build(int n, const int *key, const int *val, int m, int **off_out, int **val_out)
{
	int *off = xcalloc((size_t)n + 2, sizeof(int));
	for (int k = 0; k < m; k++)
		off[key[k] + 1]++;
	for (int i = 0; i < n; i++)
		off[i + 1] += off[i];
	int *out = xmalloc((size_t)m * sizeof(int) + 1);
	int *fill = xcalloc((size_t)n + 1, sizeof(int));
	for (int k = 0; k < m; k++)
		out[off[key[k]] + fill[key[k]]++] = val[k];
	free(fill);
	*off_out = off;
	*val_out = out;
}

unsigned kind_list_parse(const char *s, unsigned dflt, int nkinds, const char *(*name)(int), int short_kind,
			 const char *short_name, const char *cmd)
{
	if (!s)
		return dflt;
	unsigned k = 0;
	char *copy = xstrdup(s);
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
		int found = -1;
		for (int i = 0; i < nkinds; i++)
			if (!strcmp(tok, name(i)) || (i == short_kind && !strcmp(tok, short_name)))
				found = i;
		if (found < 0) {
			StrBuf all = {0};
			for (int i = 0; i < nkinds; i++)
				sb_addf(&all, "%s%s", i ? ", " : "", name(i));
			die("%s: unknown kind '%s' in --kinds (%s)", cmd, tok, sb_str(&all));
		}
		k |= 1u << found;
	}
	free(copy);
	return k;
}

void json_string(StrBuf *out, const char *s)
{
	sb_addc(out, '"');
	const unsigned char *p = (const unsigned char *)s;
	for (;;) {
		/* the run that needs no escaping, in one copy */
		const unsigned char *run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		sb_add(out, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p == '"' || *p == '\\')
			sb_addc(out, '\\'), sb_addc(out, (char)*p);
		else
			sb_addf(out, "\\u%04x", *p);
		p++;
	}
	sb_addc(out, '"');
}

static double clock_seconds(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_seconds(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

/* Process CPU time (all threads, user and system): beside a phase's wall
 * time it tells whether the phase kept both cores busy or left one idle. */
static double cpu_seconds(void)
{
	return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static struct {
	const char *name;
	double seconds, cpu;
} phases[32];
static int nphases;
static double phase_start, phase_cpu_start;

void phase(const char *name)
{
	double t = now_seconds(), c = cpu_seconds();
	if (nphases && nphases <= 32) {
		phases[nphases - 1].seconds = t - phase_start;
		phases[nphases - 1].cpu = c - phase_cpu_start;
	}
	phase_start = t;
	phase_cpu_start = c;
	if (nphases < 32)
		phases[nphases].name = name;
	nphases++;
}

void phase_report(void)
{
	phase(NULL);
	fprintf(stderr, "hdrslim: stats: phases (wall, cpu of all threads):");
	for (int i = 0; i < nphases - 1 && i < 32; i++)
		fprintf(stderr, " %s %.3fs/%.3fs%s", phases[i].name, phases[i].seconds, phases[i].cpu,
			i + 2 < nphases ? "," : "\n");
}

long peak_rss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

size_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

uint64_t hash_bytes(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

void run_threads(void *(*fn)(void *), void *arg, int threads)
{
	pthread_t tid[64];
	int started = 0;
	for (int t = 1; t < threads && t < 64; t++)
		if (pthread_create(&tid[started], NULL, fn, arg) == 0)
			started++;
	fn(arg);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
}

int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

bool list_has(const char *csv, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = csv; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && !strncmp(p, item, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool opt_is(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

const char *opt_value(int argc, char **argv, int *i, const char *name, const char *cmd)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc)
		die("%s: option '%s' needs a value (see 'hdrslim %s --help')", cmd, name, cmd);
	return argv[++*i];
}

char *option_value(int *argc, char **argv, const char *cmd, const char *name)
{
	for (int i = 0; i < *argc; i++) {
		size_t n = strlen(name);
		const char *v = NULL;
		int take = 0;
		if (!strncmp(argv[i], name, n) && argv[i][n] == '=') {
			v = argv[i] + n + 1;
			take = 1;
		} else if (!strcmp(argv[i], name)) {
			if (i + 1 >= *argc)
				die("%s: %s needs a value", cmd, name);
			v = argv[i + 1];
			take = 2;
		}
		if (!take)
			continue;
		char *r = xstrdup(v);
		memmove(argv + i, argv + i + take, (size_t)(*argc - i - take) * sizeof(char *));
		*argc -= take;
		return r;
	}
	return NULL;
}
