/* A driver for the C searches without Python, so that tests can build them
 * with AddressSanitizer and UndefinedBehaviorSanitizer (test_kernel.py).
 * One command a line on stdin, one answer a line on stdout:
 *
 *   tree N CLASSIFY TIE A0 .. A(N-1)         -> eight four two nodes tied
 *   walk N CLASSIFY TIE LIMIT NODES A0 ..    -> the same, after walking the whole
 *                                               sub-board LIMIT solutions or NODES
 *                                               nodes a call, then the calls made
 *   family N LEFT RIGHT ONE TWO LIMIT NODES A0 ..  -> solutions nodes calls: the walk of
 *                                               any member (queens.h's family_walk), by its
 *                                               descriptor, LIMIT solutions or NODES a call
 *   boards N COUNT (A0 .. A(N-1) TIE CLASSIFY) x COUNT   -> the summed tallies
 *   half N COLS DIAG ANTI M0 .. M(N/2-1)     -> the half-turn-symmetric boards
 *   decide N SEED FLAGS NODES ALLOWED [W0 ..] -> state nodes run calls, then the board
 *                                               if found: the decision search, NODES
 *                                               a call; ALLOWED 1: N * ((N + 63) / 64)
 *                                               words follow, 0: every cell (any N)
 *   repair N DOWN UP SEED SWAPS NOFF (DR DC) x NOFF NFIX (R C) x NFIX NBLK KEY x NBLK
 *                                            -> state swaps moves restarts attacked calls,
 *                                               then the board: the local search, SWAPS
 *                                               a call, stopped after 100 calls
 *   join N X+1 Y+1 FIRST LAST CAP DIRECT SMALL BUCKET -> boards row-sets halves tests: the
 *                                               count by quarters of join.c (its own table each time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "join.h"
#include "repair.h"
#include "search.h"

static qword next_word(void) {
    unsigned long long value;
    if (scanf("%llu", &value) != 1) {
        fprintf(stderr, "driver: a number expected\n");
        exit(2);
    }
    return value;
}

static void print(const struct tallies *t) {
    printf("%llu %llu %llu %llu %llu", (unsigned long long)t->eight, (unsigned long long)t->four,
           (unsigned long long)t->two, (unsigned long long)t->nodes, (unsigned long long)t->tied);
}

int main(void) {
    char command[16];
    while (scanf("%15s", command) == 1) {
        int n = (int)next_word();
        if (strcmp(command, "decide") == 0 && n >= 1) {
            qword seed = next_word(), flags = next_word(), budget = next_word(), given = next_word();
            size_t words = (size_t)n * ((n + 63) / 64);
            qword *allowed = given ? malloc(sizeof(qword) * words) : NULL;
            for (size_t i = 0; given && i < words; i++)
                allowed[i] = next_word();
            struct decide *d = decide_new(n, allowed, seed, (unsigned)flags);
            free(allowed); /* (decide_new keeps its own copy) */
            long calls = 1;
            int state;
            while ((state = decide_advance(d, budget)) != DECIDE_FOUND && state != DECIDE_NONE)
                calls++;
            printf("%d %llu %d %ld", state, (unsigned long long)decide_nodes(d), decide_run(d), calls);
            if (state == DECIDE_FOUND) {
                int *board = malloc(sizeof(int) * (size_t)n);
                decide_board(d, board);
                for (int r = 0; r < n; r++)
                    printf(" %d", board[r]);
                free(board);
            }
            printf("\n");
            decide_free(d);
            continue;
        }
        if (strcmp(command, "repair") == 0 && n >= 1) {
            int down = (int)next_word(), up = (int)next_word();
            qword seed = next_word(), budget = next_word();
            int noff = (int)next_word(), *offsets = malloc(sizeof(int) * (size_t)(2 * noff + 1));
            for (int i = 0; i < 2 * noff; i++)
                offsets[i] = (int)(long long)next_word();
            int nfix = (int)next_word(), *fixed = malloc(sizeof(int) * (size_t)(2 * nfix + 1));
            for (int i = 0; i < 2 * nfix; i++)
                fixed[i] = (int)next_word();
            int nblk = (int)next_word();
            qword *blocked = malloc(sizeof(qword) * (size_t)(nblk + 1));
            for (int i = 0; i < nblk; i++)
                blocked[i] = next_word();
            int *board = malloc(sizeof(int) * (size_t)n); /* heap: the sanitizer sees overruns */
            struct repair *s = repair_new(n, board, down, up, offsets, noff, fixed, nfix, blocked, nblk, seed);
            free(offsets), free(fixed), free(blocked); /* (repair_new keeps what it needs) */
            long calls = 1;
            int state;
            while ((state = repair_advance(s, budget, 0)) != REPAIR_FOUND && calls < 100)
                calls++;
            printf("%d %llu %llu %llu %llu %ld", state, (unsigned long long)repair_swaps(s),
                   (unsigned long long)repair_moves(s), (unsigned long long)repair_restarts(s),
                   (unsigned long long)repair_attacked(s), calls);
            for (int r = 0; r < n; r++)
                printf(" %d", board[r]);
            printf("\n");
            repair_free(s);
            free(board);
            continue;
        }
        if (n < 1 || n > QUEENS_MAX_N)
            return 2;
        struct tallies t = {0, 0, 0, 0, 0};
        if (strcmp(command, "family") == 0) {
            qword family[FAM_WORDS];
            for (int i = 0; i < FAM_WORDS; i++)
                family[i] = next_word();
            qword limit = next_word(), budget = next_word();
            int width = family[FAM_ONE] | family[FAM_TWO] ? ROW_WORDS_OFFSETS : ROW_WORDS, row = ROW_NEW;
            qword *allowed = malloc(sizeof(qword) * (size_t)n), *board = malloc(sizeof(qword) * (size_t)n);
            struct rowmask *masks = malloc(sizeof(struct rowmask) * (size_t)n);
            for (int r = 0; r < n; r++)
                allowed[r] = next_word();
            fill_masks(n, allowed, masks);
            struct stack stack = {malloc(sizeof(qword) * (size_t)(width * (n + 1)))};
            long calls = 0;
            while (row != -1) {
                row = family_walk(family, n, masks, stack, board, limit ? t.eight + limit : 0,
                                  budget ? t.nodes + budget : 0, row, &t);
                calls++;
            }
            printf("%llu %llu %ld\n", (unsigned long long)t.eight, (unsigned long long)t.nodes, calls);
            free(stack.words), free(board), free(masks), free(allowed);
            continue;
        }
        if (strcmp(command, "join") == 0) {
            int x = (int)next_word() - 1, y = (int)next_word() - 1;
            qword first = next_word(), last = next_word(), cap = next_word(), direct = next_word();
            qword small = next_word(), bucket = next_word();
            struct join_table table;
            uint64_t out[JOIN_VALUES] = {0};
            if (join_table_build(&table, n / 2) || join_count(&table, n, x, y, first, last, cap, direct, small, bucket, out))
                printf("error\n");
            else
                printf("%llu %llu %llu %llu\n", (unsigned long long)out[JOIN_COUNT],
                       (unsigned long long)out[JOIN_ROW_SETS], (unsigned long long)out[JOIN_HALVES],
                       (unsigned long long)out[JOIN_TESTS]);
            join_table_free(&table);
            continue;
        }
        if (strcmp(command, "half") == 0) {
            qword cols = next_word(), diag = next_word(), anti = next_word();
            qword *masks = malloc(sizeof(qword) * (size_t)(n / 2 + 1)); /* heap: the sanitizer sees overruns */
            for (int r = 0; r < n / 2; r++)
                masks[r] = next_word();
            printf("%llu\n", (unsigned long long)count_half_turn(n, masks, n / 2, cols, diag, anti));
            free(masks);
            continue;
        }
        if (strcmp(command, "boards") == 0) {
            long count = (long)next_word();
            qword *words = malloc(sizeof(qword) * (size_t)(count * (n + 2) + 1));
            for (long i = 0; i < count * (n + 2); i++)
                words[i] = next_word();
            count_boards(n, words, count, &t);
            free(words);
            print(&t);
            printf("\n");
            continue;
        }
        int classify = (int)next_word();
        qword tie = next_word(), limit = 0, budget = 0;
        if (strcmp(command, "walk") == 0)
            limit = next_word(), budget = next_word();
        qword *allowed = malloc(sizeof(qword) * (size_t)n);
        struct rowmask *masks = malloc(sizeof(struct rowmask) * (size_t)n);
        for (int r = 0; r < n; r++)
            allowed[r] = next_word();
        fill_masks(n, allowed, masks);
        if (strcmp(command, "tree") == 0) {
            count_tree(n, masks, classify, tie, &t);
            print(&t);
            printf("\n");
        } else {
            struct stack stack = {malloc(sizeof(qword[ROW_WORDS]) * (size_t)(n + 1))};
            qword *board = malloc(sizeof(qword) * (size_t)n);
            int *inverse = malloc(sizeof(int) * (size_t)n), row = -2;
            long calls = 0;
            while (row != -1) {
                qword found = t.eight + t.four + t.two;
                row = walk(n, masks, stack, board, inverse, classify, tie, limit ? found + limit : 0,
                           budget ? t.nodes + budget : 0, row, &t);
                calls++;
            }
            print(&t);
            printf(" %ld\n", calls);
            free(stack.words);
            free(board);
            free(inverse);
        }
        free(allowed);
        free(masks);
    }
    return 0;
}
