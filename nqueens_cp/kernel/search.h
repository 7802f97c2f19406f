/* search.h: the CPU searches of search.c (queens.h has the shared part). */
#ifndef NQUEENS_SEARCH_H
#define NQUEENS_SEARCH_H

#include "queens.h"

/* Count a whole sub-board of n <= QUEENS_MAX_N rows (masks from fill_masks):
 * add its solutions, or with `classify` its classes, its nodes and its
 * solutions on the tie square to *t. */
void count_tree(int n, const struct rowmask *masks, int classify, qword tie, struct tallies *t);

/* count_tree over `count` sub-boards, each n + 2 words: row r's allowed
 * columns, the tie square, and whether to classify. */
void count_boards(int n, const qword *words, long count, struct tallies *t);

/* The boards a half turn leaves unchanged whose rows 0 .. m-1 stand in
 * masks[r] (the image's square allowed too), starting from the given
 * columns, diagonals and anti-diagonals (the centre queen of an odd n). */
qword count_half_turn(int n, const qword *masks, int m, qword cols, qword diag, qword anti);

#endif
