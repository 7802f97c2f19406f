/* decide.h: the decision search of decide.c, which looks for one board the
 * way a CP solver does (forward checking, most constrained line first, least
 * constraining cell first, seeded restarts); twin_decide.py is its
 * specification, node for node, and docs/decision.md explains it. */
#ifndef NQUEENS_DECIDE_H
#define NQUEENS_DECIDE_H

#include "queens.h"

/* What a decision search does (flags, OR-ed; twin_decide.py has the same values). */
enum { DECIDE_ORDER = 1, DECIDE_VALUES = 2, DECIDE_RESTARTS = 4 };
/* Where a search is: about to choose a line, about to try a line's next cell, or ended. */
enum { DECIDE_DESCEND, DECIDE_NEXT, DECIDE_FOUND, DECIDE_NONE };
/* Nodes of the first run beyond one a row; run r's cutoff is that many times luby(r + 1). */
#define DECIDE_FIRST_CUTOFF 64

struct decide;

/* A search of an n x n board whose row r allows the columns set in the
 * `words` words allowed[r * words ..] (bit c % 64 of word c / 64; NULL:
 * every cell), words = (n + 63) / 64.  NULL if out of memory. */
struct decide *decide_new(int n, const qword *allowed, qword seed, unsigned flags);
void decide_free(struct decide *d);

/* Search on until the search ends or `nodes` more nodes (0: no bound);
 * returns the state (DECIDE_FOUND, DECIDE_NONE, or another: stopped). */
int decide_advance(struct decide *d, qword nodes);

/* Nodes so far (queens placed), and the run (0: the first; one more each restart). */
qword decide_nodes(const struct decide *d);
int decide_run(const struct decide *d);

/* The board found: board[r], row r's column. */
void decide_board(const struct decide *d, int *board);

#endif
