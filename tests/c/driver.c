/* A driver for the C searches without Python, so that tests can build them
 * with AddressSanitizer and UndefinedBehaviorSanitizer (test_kernel.py).
 * One command a line on stdin, one answer a line on stdout:
 *
 *   tree N CLASSIFY TIE A0 .. A(N-1)         -> eight four two nodes tied
 *   walk N CLASSIFY TIE LIMIT NODES A0 ..    -> the same, after walking the whole
 *                                               sub-board LIMIT solutions or NODES
 *                                               nodes a call, then the calls made
 *   boards N COUNT (A0 .. A(N-1) TIE CLASSIFY) x COUNT   -> the summed tallies
 *   half N COLS DIAG ANTI M0 .. M(N/2-1)     -> the half-turn-symmetric boards
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        if (n < 1 || n > QUEENS_MAX_N)
            return 2;
        struct tallies t = {0, 0, 0, 0, 0};
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
            struct row *stack = malloc(sizeof(struct row) * (size_t)(n + 1));
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
            free(stack);
            free(board);
            free(inverse);
        }
        free(allowed);
        free(masks);
    }
    return 0;
}
