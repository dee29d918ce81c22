/*
 * progress.c — the progress line: counters that any thread bumps, and
 * whichever thread finds a redraw due draws it.
 *
 * There is no drawing thread: a level's count is an atomic, and an
 * update that finds the last redraw older than the interval takes the
 * lock with trylock and draws; a thread that would have to wait skips
 * its turn, so no worker ever blocks on the terminal.  A thread is also
 * what fork() does not copy, and fix, series and measure compile in a
 * child process: the levels are plain memory, so the child inherits its
 * parent's and draws the whole line itself.
 *
 * On a terminal each draw is "\r", the line cut to the terminal's width
 * and "\033[K" (erase to the end), one write(2); the end of the
 * outermost level leaves "\r\033[K", an empty line.  Without a terminal
 * (--progress into a file or a pipe) each draw is a whole line.
 */
#include "progress.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util.h"

enum { OFF, TERMINAL, LINES };
enum { MAX_LEVELS = 8 };

#define DELAY 0.5         /* seconds of a run before anything is shown */
#define TERMINAL_EVERY 0.1
#define LINES_EVERY 1.0

struct Progress {
	unsigned seq;     /* order of begin; 0: a free slot */
	char title[32], what[96];
	long total;
	long done;        /* atomic */
	double start;
	bool shown;       /* part of a line drawn */
};

static struct {
	int mode;
	bool set_up;
	double t0;        /* when the run began */
	long long last_us; /* last draw (atomic read outside the lock) */
	char last[1024];   /* what it drew: the same again is not drawn */
	char cmd[32];
	unsigned seq;
	struct Progress levels[MAX_LEVELS];
	pthread_mutex_t lock;
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER};

void progress_setup(int want, const char *cmd)
{
	if (!pg.set_up) {
		pg.set_up = true;
		pg.t0 = now_seconds();
	}
	snprintf(pg.cmd, sizeof(pg.cmd), "%s", cmd);
	bool tty = isatty(2);
	const char *term = getenv("TERM");
	if (want == 0)
		pg.mode = OFF;
	else if (want > 0)
		pg.mode = tty ? TERMINAL : LINES;
	else
		pg.mode = tty && !(term && !strcmp(term, "dumb")) ? TERMINAL : OFF;
}

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(2, s, n);
		if (w <= 0)
			return; /* EINTR included: a lost redraw is no loss */
		s += w;
		n -= (size_t)w;
	}
}

/* The line erased (a child process may have drawn it). */
static void erase(void)
{
	put("\r\033[K", 4);
	pg.last[0] = 0;
}

static int columns(void)
{
	struct winsize ws;
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 80;
}

static void duration(char *buf, size_t size, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void rate(char *buf, size_t size, double per_second)
{
	if (per_second < 0.1)
		snprintf(buf, size, "%.1f/min", per_second * 60);
	else if (per_second < 1000)
		snprintf(buf, size, "%.1f/s", per_second);
	else
		snprintf(buf, size, "%.0f/s", per_second);
}

/* Draws the active levels, oldest first; the innermost with its rate and
 * the time left (or, when it is `ending`, the time it took).  Under the
 * lock. */
static void draw(double now, const struct Progress *ending)
{
	struct Progress *act[MAX_LEVELS];
	int n = 0;
	for (int i = 0; i < MAX_LEVELS; i++) {
		if (!pg.levels[i].seq)
			continue;
		int k = n++;
		while (k > 0 && act[k - 1]->seq > pg.levels[i].seq) {
			act[k] = act[k - 1];
			k--;
		}
		act[k] = &pg.levels[i];
	}
	if (!n)
		return;
	char line[1024];
	const size_t cap = sizeof(line) - 4; /* room for "\033[K" or '\n' */
	size_t len = 1; /* line[0]: the '\r' of a terminal */
	line[0] = '\r';
#define ADD(...)                                                                \
	do {                                                                    \
		if (len < cap)                                                  \
			len += (size_t)snprintf(line + len, cap - len, __VA_ARGS__); \
	} while (0)
	for (int i = 0; i < n; i++) {
		struct Progress *p = act[i];
		long done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
		if (i == 0)
			ADD("%s: ", p->title);
		else if (strcmp(p->title, act[i - 1]->title))
			ADD("; %s: ", p->title);
		else
			ADD(", ");
		ADD("%ld/%ld %s", done, p->total, p->what);
		p->shown = true;
		if (i < n - 1)
			continue;
		double took = now - p->start;
		bool timed = done > 0 && took >= 0.1; /* a rate of one thing in no time says nothing */
		char r[32], t[32];
		if (timed) {
			rate(r, sizeof(r), (double)done / took);
			ADD("  %s", r);
		}
		if (p == ending) {
			duration(t, sizeof(t), took);
			ADD("  took %s", t);
		} else if (timed && done < p->total) {
			duration(t, sizeof(t), (double)(p->total - done) * took / (double)done);
			ADD("  %s left", t);
		}
	}
#undef ADD
	if (len >= cap)
		len = cap - 1;
	line[len] = 0;
	if (!strcmp(line, pg.last))
		return;
	memcpy(pg.last, line, len + 1);
	if (pg.mode == TERMINAL) {
		/* one column short of the width: a full line would wrap, and
		 * '\r' go back to the start of the second row only */
		size_t max = (size_t)columns();
		if (len > max) {
			len = max;
			while (len > 1 && (line[len] & 0xC0) == 0x80)
				len--; /* not inside a UTF-8 character */
		}
		memcpy(line + len, "\033[K", 3);
		put(line, len + 3);
	} else {
		line[len] = '\n';
		put(line + 1, len);
	}
	__atomic_store_n(&pg.last_us, (long long)(now * 1e6), __ATOMIC_RELAXED);
}

Progress *progress_begin(const char *title, const char *what, long total)
{
	if (pg.mode == OFF)
		return NULL;
	pthread_mutex_lock(&pg.lock);
	struct Progress *p = NULL;
	for (int i = 0; i < MAX_LEVELS && !p; i++)
		if (!pg.levels[i].seq)
			p = &pg.levels[i];
	if (p) {
		memset(p, 0, sizeof(*p));
		p->seq = ++pg.seq;
		snprintf(p->title, sizeof(p->title), "%s", title ? title : pg.cmd);
		snprintf(p->what, sizeof(p->what), "%s", what);
		p->total = total;
		p->start = now_seconds();
	}
	pthread_mutex_unlock(&pg.lock);
	return p;
}

static void maybe_draw(void)
{
	double now = now_seconds();
	if (now - pg.t0 < DELAY)
		return;
	long long us = (long long)(now * 1e6);
	long long every = (long long)((pg.mode == TERMINAL ? TERMINAL_EVERY : LINES_EVERY) * 1e6);
	if (us - __atomic_load_n(&pg.last_us, __ATOMIC_RELAXED) < every)
		return;
	if (pthread_mutex_trylock(&pg.lock))
		return; /* someone draws, or the line is paused */
	if (us - pg.last_us >= every)
		draw(now, NULL);
	pthread_mutex_unlock(&pg.lock);
}

void progress_add(Progress *p, long n)
{
	if (!p)
		return;
	__atomic_add_fetch(&p->done, n, __ATOMIC_RELAXED);
	maybe_draw();
}

void progress_tick(void)
{
	if (pg.mode != OFF)
		maybe_draw();
}

void progress_end(Progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&pg.lock);
	double now = now_seconds();
	bool shown = p->shown;
	if (shown)
		draw(now, p);
	p->seq = 0;
	bool outer = false;
	for (int i = 0; i < MAX_LEVELS; i++)
		outer = outer || pg.levels[i].seq;
	if (pg.mode == TERMINAL) {
		if (outer && shown)
			draw(now, NULL);
		else if (!outer && now - pg.t0 >= DELAY)
			erase();
	}
	pthread_mutex_unlock(&pg.lock);
}

void progress_pause(void)
{
	if (pg.mode != TERMINAL)
		return;
	pthread_mutex_lock(&pg.lock);
	if (now_seconds() - pg.t0 >= DELAY)
		erase();
}

void progress_resume(void)
{
	if (pg.mode != TERMINAL)
		return;
	__atomic_store_n(&pg.last_us, 0, __ATOMIC_RELAXED); /* drawn again at the next update */
	pthread_mutex_unlock(&pg.lock);
}
