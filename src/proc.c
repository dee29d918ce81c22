/*
 * proc.c — fork/exec with pipes for stdin, stdout and stderr, drained
 * with poll() so a child that writes a lot to both never blocks.
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int proc_run(const char *const *argv, const char *cwd, const char *input,
	     StrBuf *out, StrBuf *err)
{
	int pin[2], pout[2], perr[2];
	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		dup2(perr[1], 2);
		if (cwd && chdir(cwd)) {
			dprintf(2, "hdrslim: cannot enter %s: %s\n", cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "hdrslim: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	/* The child must not die of SIGPIPE on our side either. */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	size_t in_len = input ? strlen(input) : 0, in_off = 0;
	if (!in_len) {
		close(pin[1]);
		pin[1] = -1;
	}
	/* fds[0] stdout, fds[1] stderr, fds[2] stdin; -1 once closed. */
	int fds[3] = {pout[0], perr[0], pin[1]};
	StrBuf *dst[2] = {out, err};
	while (fds[0] >= 0 || fds[1] >= 0 || fds[2] >= 0) {
		struct pollfd pf[3];
		int slot[3], n = 0;
		for (int i = 0; i < 3; i++)
			if (fds[i] >= 0) {
				pf[n] = (struct pollfd){.fd = fds[i], .events = i < 2 ? POLLIN : POLLOUT};
				slot[n++] = i;
			}
		if (poll(pf, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		for (int k = 0; k < n; k++) {
			int i = slot[k];
			if (!pf[k].revents)
				continue;
			if (i < 2) {
				char buf[65536];
				ssize_t r = read(fds[i], buf, sizeof(buf));
				if (r < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				if (r <= 0) {
					close(fds[i]);
					fds[i] = -1;
				} else if (dst[i]) {
					sb_add(dst[i], buf, (size_t)r);
				}
				continue;
			}
			ssize_t w = write(fds[2], input + in_off, in_len - in_off);
			if (w > 0)
				in_off += (size_t)w;
			else if (w < 0 && errno != EINTR && errno != EAGAIN)
				in_off = in_len; /* the child stopped reading */
			if (in_off >= in_len) {
				close(fds[2]);
				fds[2] = -1;
			}
		}
	}
	signal(SIGPIPE, old);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

char *proc_first_error(const char *text)
{
	const char *first = NULL;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && !first)
			first = p;
		if (memmem(p, n, "error:", 6) || memmem(p, n, "Error ", 6))
			return xstrndup(p, n);
		p += n + (e ? 1 : 0);
	}
	if (!first)
		return xstrdup("");
	const char *e = strchr(first, '\n');
	return xstrndup(first, e ? (size_t)(e - first) : strlen(first));
}
