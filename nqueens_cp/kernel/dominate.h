/* dominate.h: queen domination by branch and bound (dominate.c). */
#ifndef NQUEENS_DOMINATE_H
#define NQUEENS_DOMINATE_H

#include "queens.h"

#define DOMINATE_MAX_N 32 /* a board's cells fit DOMINATE_WORDS words */
#define DOMINATE_WORDS (DOMINATE_MAX_N * DOMINATE_MAX_N / 64)

/* Whether k queens (independent: none attacking another) occupy or attack
 * every square of the n x n board: 1, their squares (r * n + c) in queens[0..k-1];
 * 0, proved impossible; -1, *stop became nonzero first.  *nodes counts the queens placed. */
int dominate(int n, int independent, int k, int *queens, qword *nodes, volatile qword *stop);

#endif
