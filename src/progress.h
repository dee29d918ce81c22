/*
 * progress.h — the one-line progress indicator of a long run, on stderr:
 * "verify: 1234/3012 TUs  41.2/s  0:43 left".
 *
 * A run counts its work in levels: progress_begin names what is counted
 * and how much of it there is, workers add to it from any thread, and
 * progress_end closes it.  Levels nest (a series' steps, the compiles of
 * one step) and share the line, outermost first; a process made by
 * fork() keeps its parent's levels and adds its own.
 *
 * Nothing is shown unless stderr is a terminal (or --progress), nor in
 * the first half second of the run.  On a terminal the line is redrawn in
 * place at most ten times a second and erased when the outermost level
 * ends; with --progress and no terminal it is a plain line at most once a
 * second, and a last one with the time taken.  Every function is
 * thread-safe and takes a NULL level (progress off) as a no-op.
 */
#ifndef HDRSLIM_PROGRESS_H
#define HDRSLIM_PROGRESS_H

typedef struct Progress Progress;

/* From the options: want -1 on when stderr is a terminal (the default),
 * 0 off (--no-progress, -q), 1 on (--progress).  cmd: the title of a
 * level begun without one. */
void progress_setup(int want, const char *cmd);

/* A level counting `total` things: "title: done/total what".  title NULL:
 * the command's name.  NULL when progress is off. */
Progress *progress_begin(const char *title, const char *what, long total);
/* n more done (atomic); redraws the line when a redraw is due. */
void progress_add(Progress *p, long n);
/* Redraws when due: for a loop that waits, so that the time left moves. */
void progress_tick(void);
/* Draws the level's last count (when it was shown at all), then erases
 * the line, or draws the outer levels' line again. */
void progress_end(Progress *p);

/* Around other output to the terminal (a message, a finding): pause
 * erases the line and keeps it from being drawn until resume.  No other
 * progress call may come between the two from the same thread. */
void progress_pause(void);
void progress_resume(void);

#endif
