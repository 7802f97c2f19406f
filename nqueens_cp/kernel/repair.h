/* repair.h: local search for one board of a huge N (repair.c), after Sosic
 * and Gu ("3,000,000 queens in less than one minute", 1991; IEEE TKDE 1994):
 * the board is a permutation, so rows and columns never conflict; a start
 * that places most queens where no line attacks them; then swaps that lower
 * the number of attacking pairs.  Linear time in N, a few ints a queen.
 * twin_repair.py is its specification, swap for swap; docs/decision.md
 * explains it. */
#ifndef NQUEENS_REPAIR_H
#define NQUEENS_REPAIR_H

#include "queens.h"

/* Where a search is (twin_repair.py has the same values); REPAIR_NOMEM: out of
 * memory; REPAIR_FILL: the board and its counts being written, before the
 * start (no swap: the twin does it at once). */
enum { REPAIR_START, REPAIR_SWAP, REPAIR_FOUND, REPAIR_NOMEM, REPAIR_FILL };
/* At most this many offsets (dr, dc), dr >= 1: a knight's moves are four. */
#define REPAIR_MAX_OFFSETS 8
/* Swaps tried a row in the start before its queen stays where it is, attacked. */
#define REPAIR_START_TRIES 64

struct repair;

/* A search of an n x n board (n < 2^30) that writes its board into
 * `board` (n ints, the caller's: it outlives the search).  `down` and `up`:
 * how the lines of c - r and of c + r attack (LINE_NONE, LINE_EDGE or
 * LINE_WRAP, queens.h); `offsets`: `noffsets` pairs (dr, dc); `fixed`:
 * `nfixed` pairs (row, column) of queens that never move, which must not
 * attack each other; `blocked`: `nblocked` squares r * n + c, ascending,
 * never taken.  NULL if out of memory. */
struct repair *repair_new(int n, int *board, int down, int up, const int *offsets, int noffsets,
                          const int *fixed, int nfixed, const qword *blocked, int nblocked, qword seed);
void repair_free(struct repair *s);

/* Search on for at most `swaps` more swaps tried (0: no bound) or to the
 * end, or until CLOCK_MONOTONIC passes `deadline` (nanoseconds; 0: none,
 * read every 64 steps); returns the state (REPAIR_FOUND: `board` holds a
 * board). */
int repair_advance(struct repair *s, qword swaps, qword deadline);

/* Statistics: swaps tried, swaps made after the start, starts beyond the
 * first, and the queens the last start left attacked. */
qword repair_swaps(const struct repair *s);
qword repair_moves(const struct repair *s);
qword repair_restarts(const struct repair *s);
qword repair_attacked(const struct repair *s);

#endif
