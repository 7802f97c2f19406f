/* module.c: nqueens_cp.kernel._search, the Python face of search.c.  Arrays
 * come as buffers of 64-bit words (array('q')), their sizes checked here, so
 * no call from Python can make the C code stray outside them.  Every search
 * runs with the GIL released: threads search in parallel. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "decide.h"
#include "dominate.h"
#include "join.h"
#include "repair.h"
#include "search.h"

/* A buffer of exactly `words` 64-bit words, or an exception. */
static int words_of(Py_buffer *view, Py_ssize_t words, const char *name) {
    if (view->len != words * (Py_ssize_t)sizeof(qword) || view->itemsize != (Py_ssize_t)sizeof(qword)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd words of 8 bytes expected, got %zd bytes", name, words, view->len);
        return 0;
    }
    return 1;
}

static int size_ok(int n) {
    if (n < 1 || n > QUEENS_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be within 1..%d, got %d", QUEENS_MAX_N, n);
        return 0;
    }
    return 1;
}

/* walk(n, allowed, stack, board, out, classify, tie, limit, stop_at): out holds
 * the OUT_* words (queens.h). */
static PyObject *py_walk(PyObject *self, PyObject *args) {
    int n, classify;
    unsigned long long tie, limit, stop_at;
    Py_buffer allowed, stack, board, out;
    if (!PyArg_ParseTuple(args, "iy*w*w*w*iKKK", &n, &allowed, &stack, &board, &out, &classify, &tie, &limit,
                          &stop_at))
        return NULL;
    PyObject *result = NULL;
    if (size_ok(n) && words_of(&allowed, n, "allowed") && words_of(&stack, ROW_WORDS * (n + 1), "stack") &&
        words_of(&board, n, "board") && words_of(&out, OUT_WORDS, "out")) {
        qword *o = out.buf;
        struct tallies t = {o[OUT_EIGHT], o[OUT_FOUR], o[OUT_TWO], o[OUT_NODES], o[OUT_TIED]};
        struct rowmask masks[QUEENS_MAX_N];
        int inverse[QUEENS_MAX_N], row = (int)(int64_t)o[OUT_ROW];
        if (row < ROW_NEW || row >= n) {
            PyErr_Format(PyExc_ValueError, "out[%d]: a row to resume from, got %d", OUT_ROW, row);
        } else {
            fill_masks(n, allowed.buf, masks);
            Py_BEGIN_ALLOW_THREADS
            if (row != -1)
                row = walk(n, masks, (struct stack){stack.buf}, board.buf, inverse, classify, tie, limit, stop_at, row,
                           &t);
            Py_END_ALLOW_THREADS
            o[OUT_EIGHT] = t.eight, o[OUT_FOUR] = t.four, o[OUT_TWO] = t.two, o[OUT_NODES] = t.nodes;
            o[OUT_TIED] = t.tied, o[OUT_ROW] = (qword)(int64_t)row;
            result = Py_NewRef(Py_None);
        }
    }
    PyBuffer_Release(&allowed);
    PyBuffer_Release(&stack);
    PyBuffer_Release(&board);
    PyBuffer_Release(&out);
    return result;
}

/* family_walk(family, n, allowed, stack, board, out, limit, stop_at): the walk of
 * any member, family its FAM_WORDS descriptor; stack n + 1 rows of ROW_WORDS
 * words (ROW_WORDS_OFFSETS for a member with offsets); out holds the OUT_*
 * words (queens.h), the solutions in OUT_EIGHT. */
static PyObject *py_family_walk(PyObject *self, PyObject *args) {
    int n;
    unsigned long long limit, stop_at;
    Py_buffer family, allowed, stack, board, out;
    if (!PyArg_ParseTuple(args, "y*iy*w*w*w*KK", &family, &n, &allowed, &stack, &board, &out, &limit, &stop_at))
        return NULL;
    PyObject *result = NULL;
    if (size_ok(n) && words_of(&family, FAM_WORDS, "family") && words_of(&allowed, n, "allowed") &&
        words_of(&board, n, "board") && words_of(&out, OUT_WORDS, "out")) {
        qword *o = out.buf;
        struct tallies t = {o[OUT_EIGHT], o[OUT_FOUR], o[OUT_TWO], o[OUT_NODES], o[OUT_TIED]};
        int row = (int)(int64_t)o[OUT_ROW];
        const qword *f = family.buf;
        struct rowmask masks[QUEENS_MAX_N];
        if (f[FAM_LEFT] > LINE_WRAP || f[FAM_RIGHT] > LINE_WRAP) {
            PyErr_Format(PyExc_ValueError, "family: a line word is %d..%d", LINE_NONE, LINE_WRAP);
        } else if (!words_of(&stack, (f[FAM_ONE] | f[FAM_TWO] ? ROW_WORDS_OFFSETS : ROW_WORDS) * (n + 1), "stack")) {
            /* (the exception is set) */
        } else if (row < ROW_NEW || row >= n) {
            PyErr_Format(PyExc_ValueError, "out[%d]: a row to resume from, got %d", OUT_ROW, row);
        } else {
            fill_masks(n, allowed.buf, masks);
            Py_BEGIN_ALLOW_THREADS
            if (row != -1)
                row = family_walk(f, n, masks, (struct stack){stack.buf}, board.buf, limit, stop_at, row, &t);
            Py_END_ALLOW_THREADS
            o[OUT_EIGHT] = t.eight, o[OUT_NODES] = t.nodes, o[OUT_ROW] = (qword)(int64_t)row;
            result = Py_NewRef(Py_None);
        }
    }
    PyBuffer_Release(&family);
    PyBuffer_Release(&allowed);
    PyBuffer_Release(&stack);
    PyBuffer_Release(&board);
    PyBuffer_Release(&out);
    return result;
}

/* dominate(n, independent, k, queens, nodes, stop) -> 1 found (queens: k words), 0 none, -1 stopped;
 * nodes: one word added to; stop: one word another thread may set. */
static PyObject *py_dominate(PyObject *self, PyObject *args) {
    int n, independent, k;
    Py_buffer queens, nodes, stop;
    if (!PyArg_ParseTuple(args, "iiiw*w*w*", &n, &independent, &k, &queens, &nodes, &stop))
        return NULL;
    PyObject *result = NULL;
    if (n < 1 || n > DOMINATE_MAX_N || k < 0 || k > n * n) {
        PyErr_Format(PyExc_ValueError, "n within 1..%d and k within 0..n*n, got n=%d, k=%d", DOMINATE_MAX_N, n, k);
    } else if (words_of(&queens, k, "queens") && words_of(&nodes, 1, "nodes") && words_of(&stop, 1, "stop")) {
        int squares[DOMINATE_MAX_N * DOMINATE_MAX_N], found;
        Py_BEGIN_ALLOW_THREADS
        found = dominate(n, independent, k, squares, nodes.buf, stop.buf);
        Py_END_ALLOW_THREADS
        for (int i = 0; found == 1 && i < k; i++)
            ((qword *)queens.buf)[i] = (qword)squares[i];
        result = PyLong_FromLong(found);
    }
    PyBuffer_Release(&queens);
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&stop);
    return result;
}

/* count_boards(n, words) -> tallies of every board (n + BOARD_EXTRA words each) */
static PyObject *py_count_boards(PyObject *self, PyObject *args) {
    int n;
    Py_buffer words;
    if (!PyArg_ParseTuple(args, "iy*", &n, &words))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t count = size_ok(n) ? words.len / (Py_ssize_t)sizeof(qword) / (n + BOARD_EXTRA) : 0;
    if (!PyErr_Occurred() && words_of(&words, count * (n + BOARD_EXTRA), "words")) {
        struct tallies t = {0, 0, 0, 0, 0};
        Py_BEGIN_ALLOW_THREADS
        count_boards(n, words.buf, (long)count, &t);
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("(KKKKK)", (unsigned long long)t.eight, (unsigned long long)t.four,
                               (unsigned long long)t.two, (unsigned long long)t.nodes, (unsigned long long)t.tied);
    }
    PyBuffer_Release(&words);
    return result;
}

/* count_half_turn(n, masks, cols, diag, anti) -> boards (masks: n // 2 words) */
static PyObject *py_count_half_turn(PyObject *self, PyObject *args) {
    int n;
    unsigned long long cols, diag, anti;
    Py_buffer masks;
    if (!PyArg_ParseTuple(args, "iy*KKK", &n, &masks, &cols, &diag, &anti))
        return NULL;
    PyObject *result = NULL;
    if (n < 2 || 2 * n - 1 > 64) {
        PyErr_Format(PyExc_ValueError, "the half-turn search takes n within 2..32, got %d", n);
    } else if (words_of(&masks, n / 2, "masks")) {
        qword found;
        Py_BEGIN_ALLOW_THREADS
        found = count_half_turn(n, masks.buf, n / 2, cols, diag, anti);
        Py_END_ALLOW_THREADS
        result = PyLong_FromUnsignedLongLong(found);
    }
    PyBuffer_Release(&masks);
    return result;
}

/* expand(n, boards, depth) -> (items, counts): each board of n words split by
 * search.c's expand; items n words each, counts one word a board. */
static PyObject *py_expand(PyObject *self, PyObject *args) {
    int n, depth;
    Py_buffer boards;
    if (!PyArg_ParseTuple(args, "iy*i", &n, &boards, &depth))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t count = size_ok(n) ? boards.len / (Py_ssize_t)sizeof(qword) / n : 0;
    long room = 1024, used = 0;
    qword *items = NULL, *counts = NULL;
    if (PyErr_Occurred() || !words_of(&boards, count * n, "boards")) {
        /* (said) */
    } else if (depth < 0) {
        PyErr_Format(PyExc_ValueError, "depth must be >= 0, got %d", depth);
    } else if ((items = PyMem_Malloc((size_t)room * n * sizeof(qword))) == NULL ||
               (counts = PyMem_Malloc((size_t)(count + 1) * sizeof(qword))) == NULL) {
        PyErr_NoMemory();
    } else {
        const qword *board = boards.buf;
        for (Py_ssize_t b = 0; b < count && !PyErr_Occurred(); b++, board += n) {
            long found = expand(n, board, depth, items + used * n, room - used);
            if (found > room - used) { /* grow, and split this board again */
                qword *more = PyMem_Realloc(items, (size_t)(2 * (used + found)) * n * sizeof(qword));
                if (more == NULL) {
                    PyErr_NoMemory();
                    break;
                }
                items = more, room = 2 * (used + found);
                expand(n, board, depth, items + used * n, room - used);
            }
            counts[b] = (qword)found;
            used += found;
        }
        if (!PyErr_Occurred())
            result = Py_BuildValue("(y#y#)", (const char *)items, (Py_ssize_t)used * n * (Py_ssize_t)sizeof(qword),
                                   (const char *)counts, count * (Py_ssize_t)sizeof(qword));
    }
    PyMem_Free(items);
    PyMem_Free(counts);
    PyBuffer_Release(&boards);
    return result;
}

/* --- the decision search (decide.c): a capsule holds one search ----------- */

#define DECIDE_CAPSULE "nqueens_cp.kernel.decide"
#define DECIDE_MAX_N (1 << 24) /* lines and diagonals are counted in ints */

static void decide_capsule_free(PyObject *capsule) {
    decide_free(PyCapsule_GetPointer(capsule, DECIDE_CAPSULE));
}

/* decide_new(n, allowed, seed, flags) -> a search (allowed: n rows of
 * (n + 63) // 64 words, or None: every cell) */
static PyObject *py_decide_new(PyObject *self, PyObject *args) {
    int n;
    unsigned flags;
    unsigned long long seed;
    PyObject *allowed_arg;
    if (!PyArg_ParseTuple(args, "iOKI", &n, &allowed_arg, &seed, &flags))
        return NULL;
    if (n < 1 || n > DECIDE_MAX_N)
        return PyErr_Format(PyExc_ValueError, "n must be within 1..%d, got %d", DECIDE_MAX_N, n);
    Py_buffer allowed = {0};
    if (allowed_arg != Py_None) {
        if (PyObject_GetBuffer(allowed_arg, &allowed, PyBUF_SIMPLE) < 0)
            return NULL;
        allowed.itemsize = sizeof(qword); /* (a PyBUF_SIMPLE view counts bytes) */
        if (!words_of(&allowed, (Py_ssize_t)n * ((n + 63) / 64), "allowed")) {
            PyBuffer_Release(&allowed);
            return NULL;
        }
    }
    struct decide *d;
    Py_BEGIN_ALLOW_THREADS
    d = decide_new(n, allowed_arg == Py_None ? NULL : allowed.buf, seed, flags);
    Py_END_ALLOW_THREADS
    if (allowed_arg != Py_None)
        PyBuffer_Release(&allowed);
    if (d == NULL)
        return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(d, DECIDE_CAPSULE, decide_capsule_free);
    if (capsule == NULL)
        decide_free(d);
    return capsule;
}

/* decide_advance(search, nodes) -> (state, nodes, run) */
static PyObject *py_decide_advance(PyObject *self, PyObject *args) {
    PyObject *capsule;
    unsigned long long nodes;
    if (!PyArg_ParseTuple(args, "OK", &capsule, &nodes))
        return NULL;
    struct decide *d = PyCapsule_GetPointer(capsule, DECIDE_CAPSULE);
    if (d == NULL)
        return NULL;
    int state;
    Py_BEGIN_ALLOW_THREADS
    state = decide_advance(d, nodes);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(iKi)", state, (unsigned long long)decide_nodes(d), decide_run(d));
}

/* decide_board(search, n) -> the columns of the board found, row by row */
static PyObject *py_decide_board(PyObject *self, PyObject *args) {
    PyObject *capsule;
    int n;
    if (!PyArg_ParseTuple(args, "Oi", &capsule, &n))
        return NULL;
    struct decide *d = PyCapsule_GetPointer(capsule, DECIDE_CAPSULE);
    if (d == NULL)
        return NULL;
    int *board = PyMem_Malloc((size_t)n * sizeof(int));
    if (board == NULL)
        return PyErr_NoMemory();
    decide_board(d, board);
    PyObject *result = PyTuple_New(n);
    for (int r = 0; result != NULL && r < n; r++) {
        PyObject *column = PyLong_FromLong(board[r]);
        if (column == NULL)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, r, column);
    }
    PyMem_Free(board);
    return result;
}

/* --- the local search (repair.c): a capsule holds one search and the board
 * it writes into (the caller's int array, held until the search is freed) -- */

#define REPAIR_CAPSULE "nqueens_cp.kernel.repair"
#define REPAIR_MAX_N (1 << 30) /* lines are counted in ints, up to 2n - 1 of them */

struct repair_hold {
    struct repair *search;
    Py_buffer board;
};

static void repair_capsule_free(PyObject *capsule) {
    struct repair_hold *hold = PyCapsule_GetPointer(capsule, REPAIR_CAPSULE);
    repair_free(hold->search);
    PyBuffer_Release(&hold->board);
    PyMem_Free(hold);
}

/* A buffer of exactly `count` items of `size` bytes, or an exception. */
static int items_of(Py_buffer *view, Py_ssize_t count, Py_ssize_t size, const char *name) {
    if (view->len != count * size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected, got %zd bytes", name, count, size,
                     view->len);
        return 0;
    }
    return 1;
}

/* repair_new(n, board, down, up, offsets, fixed, blocked, seed) -> a search.
 * board: n writable ints; offsets and fixed: pairs of ints; blocked: the
 * squares r * n + c, ascending, as 64-bit words. */
static PyObject *py_repair_new(PyObject *self, PyObject *args) {
    int n, down, up;
    unsigned long long seed;
    PyObject *board_arg, *offsets_arg, *fixed_arg, *blocked_arg;
    if (!PyArg_ParseTuple(args, "iOiiOOOK", &n, &board_arg, &down, &up, &offsets_arg, &fixed_arg, &blocked_arg,
                          &seed))
        return NULL;
    if (n < 1 || n >= REPAIR_MAX_N)
        return PyErr_Format(PyExc_ValueError, "n must be within 1..%d, got %d", REPAIR_MAX_N - 1, n);
    struct repair_hold *hold = PyMem_Calloc(1, sizeof *hold);
    if (hold == NULL)
        return PyErr_NoMemory();
    Py_buffer offsets = {0}, fixed = {0}, blocked = {0};
    PyObject *capsule = NULL;
    if (PyObject_GetBuffer(board_arg, &hold->board, PyBUF_WRITABLE) < 0) {
        PyMem_Free(hold);
        return NULL;
    }
    if (PyObject_GetBuffer(offsets_arg, &offsets, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(fixed_arg, &fixed, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(blocked_arg, &blocked, PyBUF_SIMPLE) < 0)
        goto done;
    Py_ssize_t noffsets = offsets.len / (2 * (Py_ssize_t)sizeof(int)), nfixed = fixed.len / (2 * (Py_ssize_t)sizeof(int));
    Py_ssize_t nblocked = blocked.len / (Py_ssize_t)sizeof(qword);
    if (!items_of(&hold->board, n, sizeof(int), "board") || !items_of(&offsets, 2 * noffsets, sizeof(int), "offsets") ||
        !items_of(&fixed, 2 * nfixed, sizeof(int), "fixed") || !items_of(&blocked, nblocked, sizeof(qword), "blocked"))
        goto done;
    if (noffsets > REPAIR_MAX_OFFSETS || nfixed > n || nblocked > INT32_MAX || down < LINE_NONE || down > LINE_WRAP ||
        up < LINE_NONE || up > LINE_WRAP) {
        PyErr_SetString(PyExc_ValueError, "repair_new: offsets, fixed queens, blocked squares or line modes out of range");
        goto done;
    }
    const int *o = offsets.buf, *f = fixed.buf;
    for (Py_ssize_t i = 0; i < noffsets; i++)
        if (o[2 * i] < 1 || o[2 * i] > REPAIR_MAX_N || o[2 * i + 1] < -REPAIR_MAX_N || o[2 * i + 1] > REPAIR_MAX_N) {
            PyErr_Format(PyExc_ValueError, "offset (%d, %d): 1 <= dr and |dc| <= %d", o[2 * i], o[2 * i + 1],
                         REPAIR_MAX_N);
            goto done;
        }
    for (Py_ssize_t i = 0; i < nfixed; i++)
        if (f[2 * i] < 0 || f[2 * i] >= n || f[2 * i + 1] < 0 || f[2 * i + 1] >= n) {
            PyErr_Format(PyExc_ValueError, "fixed queen %d:%d is off the board", f[2 * i], f[2 * i + 1]);
            goto done;
        }
    const qword *b = blocked.buf;
    for (Py_ssize_t i = 0; i < nblocked; i++)
        if (b[i] >= (qword)n * (qword)n || (i && b[i] <= b[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "blocked squares must be on the board and ascending");
            goto done;
        }
    Py_BEGIN_ALLOW_THREADS
    hold->search = repair_new(n, hold->board.buf, down, up, offsets.buf, (int)noffsets, fixed.buf, (int)nfixed,
                              blocked.buf, (int)nblocked, seed);
    Py_END_ALLOW_THREADS
    if (hold->search == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    capsule = PyCapsule_New(hold, REPAIR_CAPSULE, repair_capsule_free);
done:
    if (offsets.obj)
        PyBuffer_Release(&offsets);
    if (fixed.obj)
        PyBuffer_Release(&fixed);
    if (blocked.obj)
        PyBuffer_Release(&blocked);
    if (capsule == NULL) {
        repair_free(hold->search);
        PyBuffer_Release(&hold->board);
        PyMem_Free(hold);
    }
    return capsule;
}

/* repair_advance(search, swaps, deadline) -> (state, swaps, moves, restarts, attacked);
 * deadline: CLOCK_MONOTONIC in nanoseconds (time.monotonic_ns()'s), 0: none */
static PyObject *py_repair_advance(PyObject *self, PyObject *args) {
    PyObject *capsule;
    unsigned long long swaps, deadline;
    if (!PyArg_ParseTuple(args, "OKK", &capsule, &swaps, &deadline))
        return NULL;
    struct repair_hold *hold = PyCapsule_GetPointer(capsule, REPAIR_CAPSULE);
    if (hold == NULL)
        return NULL;
    int state;
    struct repair *s = hold->search;
    Py_BEGIN_ALLOW_THREADS
    state = repair_advance(s, swaps, deadline);
    Py_END_ALLOW_THREADS
    if (state == REPAIR_NOMEM)
        return PyErr_NoMemory();
    return Py_BuildValue("(iKKKK)", state, (unsigned long long)repair_swaps(s), (unsigned long long)repair_moves(s),
                         (unsigned long long)repair_restarts(s), (unsigned long long)repair_attacked(s));
}

/* The quarters' tables, one per h, built by the first count that needs one
 * and kept for the life of the process (a worker counts many parts with
 * it).  Built with the GIL held, so that no count in another thread sees a
 * table half made; counted with it released. */
static struct join_table join_tables[JOIN_MAX_H + 1];

/* The quarters' table of h (for join_count, join_list, join_tasks and the device's copy), built by the first
 * call that needs it: the table, with the nanoseconds its building took in *built (0: built before), or NULL
 * with an exception set. */
static struct join_table *table_of(int h, uint64_t *built) {
    struct join_table *t = &join_tables[h];
    *built = 0;
    if (t->start == NULL) {
        if (join_table_build(t, h)) {
            PyErr_NoMemory();
            return NULL;
        }
        *built = t->ns_built;
    }
    return t;
}

/* join_count(n, x, y, first, last, cap, direct, small, bucket) -> (count, row sets, halves, tests,
 * ns building the table (0 when it was built before), ns listing halves, ns joining) */
static PyObject *py_join_count(PyObject *self, PyObject *args) {
    int n, x, y, rc;
    unsigned long long first, last, cap, direct, small, bucket;
    if (!PyArg_ParseTuple(args, "iiiKKKKKK", &n, &x, &y, &first, &last, &cap, &direct, &small, &bucket))
        return NULL;
    if (n < 2 || n > JOIN_MAX_N || !join_row_sets(n, x, y))
        return PyErr_Format(PyExc_ValueError, "no count by quarters of n=%d with middle queens (%d, %d)", n, x, y);
    uint64_t built, out[JOIN_VALUES] = {0};
    struct join_table *t = table_of(n / 2, &built);
    if (t == NULL)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = join_count(t, n, x, y, first, last, cap, direct, small, bucket, out);
    Py_END_ALLOW_THREADS
    if (rc)
        return PyErr_NoMemory();
    return Py_BuildValue("(KKKKKKK)", (unsigned long long)out[JOIN_COUNT], (unsigned long long)out[JOIN_ROW_SETS],
                         (unsigned long long)out[JOIN_HALVES], (unsigned long long)out[JOIN_TESTS],
                         (unsigned long long)built, (unsigned long long)out[JOIN_NS_HALVES],
                         (unsigned long long)out[JOIN_NS_JOIN]);
}

/* join_list(n, x, y, first, last, keys, jobs) -> (keys written, pairs of ranges written, the rank to go on
 * from, row sets, halves, ns building the table (0 when it was built before), ns listing): join.h's join_list
 * into two writable buffers of 64-bit words; BufferError where the first row set's halves do not fit `keys` */
static PyObject *py_join_list(PyObject *self, PyObject *args) {
    int n, x, y;
    unsigned long long first, last;
    Py_buffer keys, jobs;
    if (!PyArg_ParseTuple(args, "iiiKKw*w*", &n, &x, &y, &first, &last, &keys, &jobs))
        return NULL;
    PyObject *result = NULL;
    if (keys.itemsize != (Py_ssize_t)sizeof(uint64_t) || jobs.itemsize != (Py_ssize_t)sizeof(uint64_t)) {
        PyErr_SetString(PyExc_ValueError, "join_list: keys and jobs are buffers of 64-bit words");
        goto done;
    }
    if (n < 2 || n > JOIN_MAX_N || !join_row_sets(n, x, y)) {
        PyErr_Format(PyExc_ValueError, "no count by quarters of n=%d with middle queens (%d, %d)", n, x, y);
        goto done;
    }
    uint64_t built, out[JOIN_VALUES] = {0}, next = 0, made = 0;
    struct join_table *t = table_of(n / 2, &built);
    if (t == NULL)
        goto done;
    int64_t written;
    Py_BEGIN_ALLOW_THREADS
    written = join_list(t, n, x, y, first, last, keys.buf, (uint64_t)keys.len / sizeof(uint64_t), jobs.buf,
                        (uint64_t)jobs.len / sizeof(uint64_t), &next, &made, out);
    Py_END_ALLOW_THREADS
    if (written == -2)
        PyErr_Format(PyExc_BufferError, "join_list: a row set's halves need more than the %zd keys given",
                     keys.len / (Py_ssize_t)sizeof(uint64_t));
    else if (written < 0)
        PyErr_Format(PyExc_ValueError, "join_list: too little room (%zd keys, %zd words of jobs) or no memory",
                     keys.len / (Py_ssize_t)sizeof(uint64_t), jobs.len / (Py_ssize_t)sizeof(uint64_t));
    else
        result = Py_BuildValue("(KKKKKKK)", (unsigned long long)written, (unsigned long long)made,
                               (unsigned long long)next, (unsigned long long)out[JOIN_ROW_SETS],
                               (unsigned long long)out[JOIN_HALVES], (unsigned long long)built,
                               (unsigned long long)out[JOIN_NS_HALVES]);
done:
    PyBuffer_Release(&keys);
    PyBuffer_Release(&jobs);
    return result;
}

/* join_tasks(n, x, y, first, last, tasks, weights) -> (tasks written, the rank to go on from, row sets,
 * ns building the table): join.h's join_tasks into a writable buffer of 32-bit words and one of 64-bit
 * words; BufferError where the first row set's tasks do not fit */
static PyObject *py_join_tasks(PyObject *self, PyObject *args) {
    int n, x, y;
    unsigned long long first, last;
    Py_buffer tasks, weights;
    if (!PyArg_ParseTuple(args, "iiiKKw*w*", &n, &x, &y, &first, &last, &tasks, &weights))
        return NULL;
    PyObject *result = NULL;
    uint64_t built, next = 0, row_sets = 0;
    struct join_table *t;
    if (tasks.itemsize != (Py_ssize_t)sizeof(uint32_t) || weights.itemsize != (Py_ssize_t)sizeof(uint64_t))
        PyErr_SetString(PyExc_ValueError, "join_tasks: tasks are a buffer of 32-bit words, weights of 64-bit ones");
    else if (n < 2 || n > JOIN_MAX_N || !join_row_sets(n, x, y))
        PyErr_Format(PyExc_ValueError, "no count by quarters of n=%d with middle queens (%d, %d)", n, x, y);
    else if ((t = table_of(n / 2, &built)) != NULL) {
        int64_t written;
        Py_BEGIN_ALLOW_THREADS
        written = join_tasks(t, n, x, y, first, last, tasks.buf, (uint64_t)tasks.len / sizeof(uint32_t),
                             weights.buf, (uint64_t)weights.len / sizeof(uint64_t), &next, &row_sets);
        Py_END_ALLOW_THREADS
        if (written == -2)
            PyErr_SetString(PyExc_BufferError, "join_tasks: a row set's tasks need more room than given");
        else if (written < 0)
            PyErr_SetString(PyExc_ValueError, "join_tasks: wrong arguments");
        else
            result = Py_BuildValue("(KKKK)", (unsigned long long)written, (unsigned long long)next,
                                   (unsigned long long)row_sets, (unsigned long long)built);
    }
    PyBuffer_Release(&tasks);
    PyBuffer_Release(&weights);
    return result;
}

/* join_table_entries(h, out) -> ns building the table: its placements copied into `out`, a writable buffer of
 * exactly as many 64-bit words (the device's copy, join_tasks's tasks index it) */
static PyObject *py_join_table_entries(PyObject *self, PyObject *args) {
    int h;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "iw*", &h, &out))
        return NULL;
    PyObject *result = NULL;
    uint64_t built;
    struct join_table *t;
    if (h < 1 || h > JOIN_MAX_H)
        PyErr_Format(PyExc_ValueError, "no quarters' table of h=%d (1..%d)", h, JOIN_MAX_H);
    else if ((t = table_of(h, &built)) != NULL) {
        if (out.len != (Py_ssize_t)(t->size * sizeof(uint64_t)))
            PyErr_Format(PyExc_ValueError, "join_table_entries: %llu words of 8 bytes expected, got %zd bytes",
                         (unsigned long long)t->size, out.len);
        else {
            memcpy(out.buf, t->entry, t->size * sizeof(uint64_t));
            result = PyLong_FromUnsignedLongLong(built);
        }
    }
    PyBuffer_Release(&out);
    return result;
}

/* join_costs(n, parts, samples, a_half) -> what join_count of each part (x, y, first, last) costs,
 * about (join.h), from a table of the bucket sizes alone, made for the call and freed.  The parts are read
 * first and the costs computed with the GIL released: a count computes them while its pool's first workers
 * start, and the pool's thread feeds them meanwhile (execution/tasks.py). */
struct part_at {
    int x, y;
    unsigned long long first, last;
    double cost;
};

static PyObject *py_join_costs(PyObject *self, PyObject *args) {
    int n;
    PyObject *parts;
    unsigned long long samples;
    double a_half;
    if (!PyArg_ParseTuple(args, "iOKd", &n, &parts, &samples, &a_half))
        return NULL;
    if (n < 2 || n > JOIN_MAX_N)
        return PyErr_Format(PyExc_ValueError, "no count by quarters of n=%d", n);
    PyObject *seq = PySequence_Fast(parts, "parts must be a sequence of (x, y, first, last)");
    if (!seq)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    struct part_at *at = malloc((count ? count : 1) * sizeof *at);
    if (!at) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiKK", &at[i].x, &at[i].y, &at[i].first,
                              &at[i].last)) {
            free(at);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    struct join_table t;
    Py_ssize_t wrong = -1; /* the first part with no such middle */
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = join_table_sizes(&t, n / 2);
    for (Py_ssize_t i = 0; !rc && i < count && wrong < 0; i++)
        if ((at[i].cost = join_cost(&t, n, at[i].x, at[i].y, at[i].first, at[i].last, samples, a_half)) < 0)
            wrong = i;
    if (!rc)
        join_table_free(&t);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (rc)
        PyErr_NoMemory();
    else if (wrong >= 0)
        PyErr_Format(PyExc_ValueError, "no count by quarters of n=%d with middle queens (%d, %d)", n, at[wrong].x,
                     at[wrong].y);
    else if ((out = PyList_New(count)) != NULL)
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *cost = PyFloat_FromDouble(at[i].cost);
            if (!cost) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, cost);
        }
    free(at);
    return out;
}

/* A sequence of ints (each below 2^64) as a new array of `*count` words, or NULL with an exception set. */
static uint64_t *ints_of(PyObject *sequence, uint64_t *count) {
    PyObject *seq = PySequence_Fast(sequence, "expected a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t length = PySequence_Fast_GET_SIZE(seq);
    uint64_t *words = malloc((length ? length : 1) * sizeof *words);
    if (!words) {
        Py_DECREF(seq);
        return (uint64_t *)PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        words[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            free(words);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    *count = (uint64_t)length;
    return words;
}

/* join_telling_bits(p, q, width, forced, k) -> the bits the join of keys p and q splits them on (join.h) */
static PyObject *py_join_telling_bits(PyObject *self, PyObject *args) {
    PyObject *ps, *qs, *fs;
    int width, k, order[64];
    uint64_t np = 0, nq = 0, nf = 0;
    if (!PyArg_ParseTuple(args, "OOiOi", &ps, &qs, &width, &fs, &k))
        return NULL;
    uint64_t *p = ints_of(ps, &np), *q = p ? ints_of(qs, &nq) : NULL, *f = q ? ints_of(fs, &nf) : NULL;
    int read = f != NULL, got = -1;
    if (read && nf <= 64) {
        for (uint64_t i = 0; i < nf; i++)
            order[i] = f[i] < 64 ? (int)f[i] : 64; /* (64: out of any window, refused) */
        got = join_telling_bits(p, np, q, nq, width, (int)nf, k, order);
    }
    free(p), free(q), free(f);
    if (!read)
        return NULL;
    if (got < 0)
        return PyErr_Format(PyExc_ValueError, "bad arguments: width %d, %d forced bits, k %d", width, (int)nf, k);
    PyObject *out = PyList_New(got);
    for (int i = 0; out && i < got; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(order[i]));
    return out;
}

/* join_dense_words(n, cap) -> the words of room a list of cap keys keeps for its dense buckets */
static PyObject *py_join_dense_words(PyObject *self, PyObject *args) {
    int n;
    unsigned long long cap;
    if (!PyArg_ParseTuple(args, "iK", &n, &cap))
        return NULL;
    return PyLong_FromUnsignedLongLong(join_dense_words(n, cap));
}

/* join_loops() -> which loops join the dense buckets here: 2 AVX-512's, 1 AVX2's, 0 the compiler's */
static PyObject *py_join_loops(PyObject *self, PyObject *args) {
    return PyLong_FromLong(join_loops());
}

/* join_kept() -> the bytes join_count and join_list keep for their next call; join_release() frees them */
static PyObject *py_join_kept(PyObject *self, PyObject *args) {
    return PyLong_FromUnsignedLongLong((unsigned long long)join_kept_bytes());
}

static PyObject *py_join_release(PyObject *self, PyObject *args) {
    join_release();
    Py_RETURN_NONE;
}

/* join_table_size(h) -> (placements, placements in the largest bucket), counted without keeping them */
static PyObject *py_join_table_size(PyObject *self, PyObject *args) {
    int h;
    if (!PyArg_ParseTuple(args, "i", &h))
        return NULL;
    if (h < 1 || h > JOIN_MAX_H)
        return PyErr_Format(PyExc_ValueError, "h must be within 1..%d, got %d", JOIN_MAX_H, h);
    uint64_t size, largest;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = join_table_measure(h, &size, &largest);
    Py_END_ALLOW_THREADS
    if (rc)
        return PyErr_NoMemory();
    return Py_BuildValue("(KK)", (unsigned long long)size, (unsigned long long)largest);
}

static PyMethodDef methods[] = {
    {"walk", py_walk, METH_VARARGS, "The stoppable search of one sub-board (queens.h's walk)."},
    {"dominate", py_dominate, METH_VARARGS, "Whether k queens dominate the board (dominate.c)."},
    {"family_walk", py_family_walk, METH_VARARGS, "The walk of any question of the family, by its descriptor (queens.h)."},
    {"count_boards", py_count_boards, METH_VARARGS, "Count whole sub-boards (search.c's count_boards)."},
    {"count_half_turn", py_count_half_turn, METH_VARARGS, "The half-turn-symmetric boards (search.c)."},
    {"expand", py_expand, METH_VARARGS, "Boards split into work items, rows 0 .. depth-1 fixed (search.c)."},
    {"join_count", py_join_count, METH_VARARGS, "Count the boards of some row sets by joining quarters (join.c)."},
    {"join_list", py_join_list, METH_VARARGS, "List the halves of some row sets for another joiner (join.c)."},
    {"join_tasks", py_join_tasks, METH_VARARGS, "The tasks of listing some row sets' halves on a device (join.c)."},
    {"join_table_entries", py_join_table_entries, METH_VARARGS, "The quarters' table's placements, copied (join.c)."},
    {"join_table_size", py_join_table_size, METH_VARARGS, "The quarters' table's size, counted (join.c)."},
    {"join_kept", py_join_kept, METH_NOARGS, "The bytes the join keeps for its next call (join.c)."},
    {"join_release", py_join_release, METH_NOARGS, "Frees what the join keeps for its next call (join.c)."},
    {"join_costs", py_join_costs, METH_VARARGS, "What each part of a count by quarters costs, about (join.c)."},
    {"join_telling_bits", py_join_telling_bits, METH_VARARGS, "The bits a join splits two lists of keys on (join.c)."},
    {"join_dense_words", py_join_dense_words, METH_VARARGS, "The room a list keeps for its dense buckets (join.c)."},
    {"join_loops", py_join_loops, METH_NOARGS, "Which loops join dense buckets here: 2 AVX-512, 1 AVX2, 0 the compiler's."},
    {"decide_new", py_decide_new, METH_VARARGS, "A decision search of one board (decide.c)."},
    {"decide_advance", py_decide_advance, METH_VARARGS, "Search on: (state, nodes, run)."},
    {"decide_board", py_decide_board, METH_VARARGS, "The board a decision search found."},
    {"repair_new", py_repair_new, METH_VARARGS, "A local search of one board (repair.c), writing into board."},
    {"repair_advance", py_repair_advance, METH_VARARGS, "Search on: (state, swaps, moves, restarts, attacked)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "The compiled searches of nqueens_cp.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__search(void) {
    /* The layouts of queens.h, for the test that twin.LAYOUT is the same. */
    static const struct { const char *name; int value; } constants[] = {
        {"MAX_N", QUEENS_MAX_N}, {"OUT_EIGHT", OUT_EIGHT}, {"OUT_FOUR", OUT_FOUR}, {"OUT_TWO", OUT_TWO},
        {"OUT_NODES", OUT_NODES}, {"OUT_TIED", OUT_TIED}, {"OUT_ROW", OUT_ROW}, {"OUT_WORDS", OUT_WORDS},
        {"ROW_NEW", ROW_NEW}, {"ROW_COLS", ROW_COLS}, {"ROW_LEFT", ROW_LEFT}, {"ROW_RIGHT", ROW_RIGHT},
        {"ROW_TODO", ROW_TODO}, {"ROW_WORDS", ROW_WORDS}, {"BOARD_TIE", BOARD_TIE},
        {"BOARD_CLASSIFY", BOARD_CLASSIFY}, {"BOARD_EXTRA", BOARD_EXTRA},
        {"DECIDE_ORDER", DECIDE_ORDER}, {"DECIDE_VALUES", DECIDE_VALUES}, {"DECIDE_RESTARTS", DECIDE_RESTARTS},
        {"DECIDE_DESCEND", DECIDE_DESCEND}, {"DECIDE_NEXT", DECIDE_NEXT}, {"DECIDE_FOUND", DECIDE_FOUND},
        {"DECIDE_NONE", DECIDE_NONE}, {"DECIDE_FIRST_CUTOFF", DECIDE_FIRST_CUTOFF},
        {"LINE_NONE", LINE_NONE}, {"LINE_EDGE", LINE_EDGE}, {"LINE_WRAP", LINE_WRAP},
        {"FAM_LEFT", FAM_LEFT}, {"FAM_RIGHT", FAM_RIGHT}, {"FAM_ONE", FAM_ONE}, {"FAM_TWO", FAM_TWO},
        {"FAM_WORDS", FAM_WORDS}, {"FAM_CENTER", FAM_CENTER}, {"ROW_NEAR", ROW_NEAR}, {"ROW_FAR", ROW_FAR},
        {"ROW_WORDS_OFFSETS", ROW_WORDS_OFFSETS}, {"DOMINATE_MAX_N", DOMINATE_MAX_N},
        {"REPAIR_START", REPAIR_START}, {"REPAIR_SWAP", REPAIR_SWAP}, {"REPAIR_FOUND", REPAIR_FOUND},
        {"REPAIR_NOMEM", REPAIR_NOMEM}, {"REPAIR_FILL", REPAIR_FILL}, {"REPAIR_MAX_OFFSETS", REPAIR_MAX_OFFSETS},
        {"REPAIR_START_TRIES", REPAIR_START_TRIES}, {"REPAIR_MAX_N", REPAIR_MAX_N},
        {"JOIN_MAX_N", JOIN_MAX_N}, {"JOIN_BUCKET", JOIN_BUCKET}, {"JOIN_DENSE_LIST", JOIN_DENSE_LIST}, {"JOIN_ID_BITS", JOIN_ID_BITS}, {"JOIN_MAX_ID_BITS", JOIN_MAX_ID_BITS},
        {"JOIN_DIRECT", JOIN_DIRECT},
        {"JOIN_SMALL", JOIN_SMALL},
    };
    PyObject *m = PyModule_Create(&module);
    for (size_t i = 0; m != NULL && i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0)
            Py_CLEAR(m);
    return m;
}
