/* search.h: the CPU searches of search.c (queens.h has the shared part). */
#ifndef NQUEENS_SEARCH_H
#define NQUEENS_SEARCH_H

#include "queens.h"

/* Count a whole sub-board of n <= QUEENS_MAX_N rows (masks from fill_masks) into *t. */
void count_tree(int n, const struct rowmask *masks, int classify, qword tie, struct tallies *t);

/* The sum of count_tree over `count` boards of n + BOARD_EXTRA words (queens.h). */
void count_boards(int n, const qword *words, long count, struct tallies *t);

/* The boards a half turn leaves unchanged, row r < m in masks[r], from the given
 * columns, diagonals and anti-diagonals (the centre queen of an odd n). */
qword count_half_turn(int n, const qword *masks, int m, qword cols, qword diag, qword anti);

/* The work items of a board: rows 0 .. depth-1 fixed every non-attacking way; how many there
 * are, the first `room` of them written to out (n words each). */
long expand(int n, const qword *allowed, int depth, qword *out, long room);

#endif
