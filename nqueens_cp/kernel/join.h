/* join.h: counting plain N by joining quarters of the board (join.c, which
 * lists the halves and buckets their keys, and dense.c, which joins them; the
 * lesson and specification is nqueens_cp/counting/quarters.py, the twin
 * nqueens_cp/kernel/twin_join.py). */
#ifndef NQUEENS_JOIN_H
#define NQUEENS_JOIN_H

#include <stdint.h>

#define JOIN_MAX_N 25 /* quarters of up to 12 x 12 squares: 633 million placements, their offsets in 32 bits */
#define JOIN_MAX_H (JOIN_MAX_N / 2)
/* How the join's work is cut (measured best at N = 20 and 22, docs/counting.md):
 * halves whose pairs are at most `direct` (JOIN_DIRECT) are tested pair by
 * pair at once; the others are put in buckets by as many of their bits as
 * leave the longer list about `bucket` (JOIN_BUCKET) keys a bucket, the
 * buckets joined bucket against bucket, those of the longer list kept
 * bit-transposed (dense).  In a join whose buckets are not dense, pairs of
 * bucket ranges with at most `small` (JOIN_SMALL) pairs are tested pair by
 * pair before they are split further; one with dense buckets splits its
 * ranges on to single buckets, unless `small` holds all its pairs (join.c's
 * `joined`).  (Tests pass 0 and small buckets, so that small N goes every
 * way.) */
#define JOIN_DIRECT 131072
#ifndef JOIN_SMALL
#define JOIN_SMALL 16384
#endif
#ifndef JOIN_BUCKET
#define JOIN_BUCKET 1024
#endif
#define JOIN_MAX_ID_BITS 16
#ifndef JOIN_DENSE_LIST
#define JOIN_DENSE_LIST 512 /* the shorter list's keys, at least, for the longer's buckets to be dense ... */
#endif
#define JOIN_ID_BITS 8 /* ... else the telling bits its buckets are put in by, at most (join.c's `joined`) */

/* Every placement of non-attacking queens on an h x h square (a quarter),
 * bucketed by (rows used << h | columns used): bucket b's placements are
 * entry[start[b] .. start[b + 1]), each its diagonals (j - i + h - 1) in the
 * low 32 bits and anti-diagonals (i + j) in the high 32, for a queen on row
 * i, column j of the square.  One table serves all four quarters.  The rows
 * are the bucket's high bits, so that the buckets of one set of rows, which
 * a listing reads one choice of columns after another, lie side by side
 * (join.c's join_bucket). */
struct join_table {
    int h;
    uint32_t *start;
    uint64_t *entry;
    uint64_t size;
    uint64_t largest;  /* placements in the largest bucket */
    uint64_t ns_built; /* nanoseconds its building took */
    uint32_t *columns_start, *columns; /* per set of rows r, the sets of columns of its non-empty
                                          buckets: columns[columns_start[r] .. columns_start[r + 1]) */
};

/* How many placements the table of h holds, and its largest bucket, counted
 * without keeping them (4^h counters): 0, or -1 when memory ran out. */
int join_table_measure(int h, uint64_t *size, uint64_t *largest);

/* The table of h in *t: 0, or -1 when memory ran out (nothing held then). */
int join_table_build(struct join_table *t, int h);
/* Its bucket sizes only (start, largest, columns; entry NULL), what join_cost reads. */
int join_table_sizes(struct join_table *t, int h);
void join_table_free(struct join_table *t);

/* What join_count adds into out[] (the order of the values it returns). */
enum {
    JOIN_COUNT,     /* the boards, each row set weighted by its orbit */
    JOIN_ROW_SETS,  /* row sets joined (canonical ones) */
    JOIN_HALVES,    /* half-board placements listed, east and west */
    JOIN_TESTS,     /* east-west pairs tested one by one (the join's leaves) */
    JOIN_NS_HALVES, /* nanoseconds listing halves */
    JOIN_NS_JOIN,   /* nanoseconds joining them */
    JOIN_VALUES
};

/* The boards of n (2 <= n <= JOIN_MAX_N, the table of n / 2) with the middle
 * queens of an odd n on (row n/2, column x) and (row y, column n/2) (x = y =
 * n/2: one queen in the centre; -1, -1 for an even n), whose rows with an
 * east queen are the combinations of ranks first .. last-1 (colex) of the
 * free rows taken as many as the east has free columns; halves listed `cap`
 * at a time, joined as `direct` and `small` say (above).  Added into out[]: 0, or -1 when the arguments are wrong or
 * memory ran out. */
int join_count(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t cap,
               uint64_t direct, uint64_t small, uint64_t bucket, uint64_t out[JOIN_VALUES]);

/* join_count and join_list keep their arrays (the lists, their buckets, an
 * odd N's filtered quarters) in the process for its next call: the bytes
 * kept now, and their release (the next call makes them again). */
uint64_t join_kept_bytes(void);
void join_release(void);

/* The halves of the row sets of ranks first .. last-1 (join_count's
 * arguments; the row sets it joins, the least of each orbit), listed for
 * another joiner (a GPU's: nqueens_cp/counting/gpu_join.py): per row set its
 * east halves, then its west halves, each in keys[] as join.c's keys (for an
 * even N each list in its groups: no queen on a long diagonal, one, two),
 * and the pairs of ranges of keys to join, JOIN_LIST_JOB words each in
 * jobs[]: where the east range starts, its length, where the west range
 * starts, its length, and how many boards each pair of keys with no bit in
 * common stands for (the orbit's weight, times 2b.'s 1 or 2).  It stops
 * before a row set whose halves would pass `room` keys (8 of them kept
 * spare) or whose pairs might pass `jobs_room` words: *next is the rank to
 * go on from (last when every row set was listed), *jobs_made the pairs
 * written.  Adds JOIN_ROW_SETS, JOIN_HALVES and JOIN_NS_HALVES into out[].
 * Returns the keys written; -1 when the arguments are wrong or memory ran
 * out; -2 when the first row set's halves alone pass `room`. */
#define JOIN_LIST_JOB 5
int64_t join_list(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t *keys,
                  uint64_t room, uint64_t *jobs, uint64_t jobs_room, uint64_t *next, uint64_t *jobs_made,
                  uint64_t out[JOIN_VALUES]);

/* What listing the halves of the row sets of ranks first .. last-1 on a
 * device takes (nqueens_cp/kernel/join.cu's list_halves, with the table's
 * placements there): for each row set joined (the least of its orbit), its
 * weight in weights[], and for its east half, then its west half, a task
 * for each choice of the north quarter's columns, JOIN_TASK words each in
 * tasks[]: the north quarter's placements (where they start in t's
 * entries, how many), the south quarter's, and the list they make (2 r for
 * row set r's east half, 2 r + 1 for its west).  The placements are the
 * table's own (for an odd N the device leaves out those that meet the
 * middle queens).  Stops before a row set whose tasks would pass
 * `tasks_room` words or whose weight would pass `weights_room`: *next the
 * rank to go on from, *row_sets the row sets written.  Returns the tasks
 * written; -1 when the arguments are wrong; -2 when not even the first row
 * set's tasks fit. */
#define JOIN_TASK 5
int64_t join_tasks(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint32_t *tasks,
                   uint64_t tasks_room, uint64_t *weights, uint64_t weights_room, uint64_t *next,
                   uint64_t *row_sets);

/* The 64-bit words of room a list of `cap` keys of n keeps for its dense buckets (dense.c). */
uint64_t join_dense_words(int n, uint64_t cap);

/* Which loops this CPU joins dense buckets with (dense.c): 2, AVX-512's written by hand; 1, AVX2's; 0, the
 * compiler's. */
int join_loops(void);

/* What join_count of these arguments costs, about, in pair tests: for
 * about `samples` of its row sets (evenly apart; 0: all), the pairs of
 * their halves (each side's number bounded from t's bucket sizes) and
 * `a_half` for each half listed, scaled to the whole range; -1 when the
 * arguments are wrong.  To order a count's parts, longest first. */
double join_cost(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t samples,
                 double a_half);

/* The bits of a key window `width` bits wide (46 at most, N = 25's) that
 * the join of lists p and q splits them on (its id): after the `forced` first bits of order[], the
 * k that most pairs of p x q have in common, by a sample of each (at most
 * 512 keys, evenly apart), the most telling first.  How many bits order[]
 * holds; -1 when the arguments are wrong. */
int join_telling_bits(const uint64_t *p, uint64_t np, const uint64_t *q, uint64_t nq, int width, int forced, int k,
                      int order[64]);

/* How many row sets join_count of (n, x, y) has to go through: the rank bound. */
uint64_t join_row_sets(int n, int x, int y);

#endif
