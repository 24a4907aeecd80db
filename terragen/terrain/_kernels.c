/*
 * Four of the simulator's table computations, the analysis' reach tree, a greedy player's two first
 * answers, an expert's move, turn on doubles and one-cell re-evaluation, a seat's route, the terrain
 * search's own searches and the race model's win chances in C, for speed alone;
 * each follows a Python function that stays the reference (read its docstrings for the why), and gives
 * the same values:
 *
 * - solve: one layer of the exact expected-turns table, the same steps in the same order with the
 *   same floating-point operations as terragen.terrain.expected.solve_layer_in_order_python. An
 *   expert player's game needs a fresh layer for every seat on every board state a turn of a piece
 *   creates, and in Python those solves were about half of an expert game's time.
 * - repair_distances: terragen.terrain.sim.cache.repair_after_turn_python, the cheapest costs to a
 *   set of goals brought up to date after a turn of a piece. On brutal boards, where greedy players
 *   turn pieces on most doubles, it was a fifth to a quarter of a greedy game's time.
 * - bounded_reach: terragen.terrain.sim.cache.bounded_reach_python, the cells a token reaches with at
 *   most so many points; every board state a turn of a piece creates asks it again of the cells the
 *   tokens stand on (1.05-1.07 times the greedy turns a second on boards met for the first time). Its
 *   dict gets its keys in the reference's order: see the function.
 * - reach_tree: terragen.terrain.analysis._reach_tree_python, the cells a token can get to with the
 *   piece each is first reached from; the generator's count of rotation-critical pieces asks it tens of
 *   thousands of times a run (a tenth of a five-seat brutal run's main process).
 * - greedy_move and own_rotation: GreedyPolicy.choose_move (outside team play) and
 *   GreedyPolicy._find_own_rotation in terragen/terrain/sim/policies.py, a greedy player's first answer
 *   on a board state (where to move; which piece of its route to turn on doubles), most of a greedy
 *   game's time on boards met for the first time (terragen/terrain/sim/greedy_kernels.py says more).
 *   Costs are compared as doubles (whole numbers up to 2**50 and inf, exact), ties broken as the
 *   reference breaks them (the first of equals in its order); tests/terrain/sim/test_greedy_kernels.py
 *   compares the two on random board states.
 * - local_value: ExpertPolicy._find_local (how an expert weighs a turn of a piece on doubles), most of an
 *   expert game's own time: the minima by budget (a minimum of floats is the same in any order, and the
 *   running minimum over budgets is the reference's own loop), then the value they give, with
 *   terragen.terrain.sim.cache.stay_or_move_value's sums and quotients in its order. The same test file
 *   compares the two.
 * - expert_move: ExpertPolicy.choose_move (outside team play, pips in use), an expert's first answer on
 *   where to move, read from the same expected-turns layers and tour tables and with ties broken as the
 *   reference breaks them (terragen/terrain/sim/expert_kernels.py says more).
 * - expert_turn and seat_route: the loop of ExpertPolicy.choose_rotation (each turn of a piece of its own
 *   route and of a near-winning leader's, scored by one-cell re-evaluations remembered under the
 *   reference's own keys, the same sums in the same order, the first of equal scores kept) and _route, the
 *   first cells of a seat's cheapest tour (own_rotation shares it). An expert's turn on doubles was about
 *   40% of its game's time. tests/terrain/sim/test_expert_kernels.py compares these and expert_move with
 *   their references.
 * - reach_patch: the part of terragen.terrain.sim.cache.BoardCache.rotated that makes a new board
 *   state's reach and cells' sources after a turn of a piece (_patch_reach_python, the reference): the
 *   same dict operations in the same order, so the same dicts and lists (tests/terrain/sim/test_kernels.py).
 * - cheapest_path, reachable_cells, cliff_count and board_arcs: the terrain search's own searches
 *   (terragen.terrain.paths.cheapest_path_python and reachable, generate.evaluate.cliff_exits,
 *   board.Board._rebuild_arcs_python), run on every move it tries while the simulation processes wait;
 *   the same paths, cell for cell (tests/terrain/test_search_kernels.py).
 * - race_wins: terragen.terrain.race.win_probabilities_by_opener_numpy, each seat's chance to win the
 *   race of independent tokens for every opener; the generator's main process asks it thousands of
 *   times a run, and on arrays this small numpy's overhead was most of its time. The same products in
 *   the same order and numpy's own pairwise sums give the same floats (tests/terrain/sim/test_kernels.py).
 * - pair_sweeps: terragen.terrain.sim.convoy._sweep_python, the fixed point of a team's joint values over
 *   its pairs of cells (whole numbers, so the same in any order of lowering: see the function); a
 *   planning pair needs a fresh search on every board state a turn of a piece creates, and numpy's one
 *   step a sweep took 25-35 sweeps (tests/terrain/sim/test_convoy.py compares the two).
 * - trio_values: terragen.terrain.sim.convoy_trio._trio_values_python, a team of three's joint values
 *   over its triples of cells, the steps and their values in one call (whole numbers again, the same
 *   fixed point, reached in one pass lowest value first); numpy spent three times the sweep's own time
 *   laying out the steps (tests/terrain/sim/test_convoy_trio.py).
 *
 * solve:
 * Why the answer is the same floats, bit for bit: cells settle in the order of their (value, index)
 * keys, which are all distinct (a cell is pushed again only with a smaller value), so any heap
 * pops them in the order Python's heapq does; this one holds one entry per key and lowers it in place
 * (a heap of every push, as Python's, also pops the stale entries it then skips: the valid ones come
 * out in the same order, and on an expert's layers two pops in three were stale). Every value is made
 * by the same sums and quotients of doubles in the same order (Python's floats are C doubles; an int
 * times a float is the int made a double first). The build turns off fused multiply-adds
 * (-ffp-contract=off), which would round once where Python rounds twice. tests/terrain/sim/test_kernels.py compares the two on random layers.
 *
 * repair_distances: the costs are whole numbers (or inf for no route), and the shortest costs
 * to a set of goals are unique, so any order of the search gives the same list; kept are the
 * reference's types (ints, and the float inf) and its answer's identity (the same list when
 * nothing changed, a new one otherwise). tests/terrain/sim/test_kernels.py compares the two.
 *
 * All take only the inputs the simulator gives them (lists of tuples of exact ints in range, float
 * values; whole-number costs up to 2**50) and answer None to anything else, so that the Python
 * version runs and whatever it does (a result, an error) is what the caller gets.
 *
 * Optional: when this file cannot be compiled, the package uses the Python versions (same results).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "_small_int.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* bit-for-bit agreement needs plain double arithmetic: no x87 extra precision, no fast-math (which
 * also drops inf); the build fails then, and setup.py's optional extension leaves Python to it */
#if FLT_EVAL_METHOD != 0 || defined(__FAST_MATH__)
#error "the table kernels need double-precision arithmetic without fast-math"
#endif

/* whole-number costs are held as doubles: exact while every sum stays well under 2**53 */
#define COST_LIMIT 1125899906842624.0 /* 2**50 */
#define STEP_LIMIT 1048576L            /* 2**20: one arc's cost */

/* The pair (cell, cost) at the head of the tuple ``t`` (of at least ``size`` items), cell in [0, n),
 * cost in [1, max_cost]: 0; anything else: 1. */
static int cell_and_cost(PyObject *t, Py_ssize_t size, Py_ssize_t n, long max_cost, Py_ssize_t *cell, long *cost) {
    long c, j;
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != size) return 1;
    if (small_int(PyTuple_GET_ITEM(t, 0), 0, (long)n, &j) || small_int(PyTuple_GET_ITEM(t, 1), 1, max_cost + 1, &c))
        return 1;
    *cell = (Py_ssize_t)j;
    *cost = c;
    return 0;
}

#define MAX_BUDGET 6

typedef struct {
    double v;
    Py_ssize_t k; /* cell index, or n + cell for a landing target */
} Key;

typedef struct {
    Key *items;
    Py_ssize_t size, cap;
} Heap;

static inline int key_less(Key a, Key b) { return a.v < b.v || (a.v == b.v && a.k < b.k); }

static int heap_push(Heap *h, double v, Py_ssize_t k) {
    if (h->size == h->cap) {
        Py_ssize_t cap = h->cap ? 2 * h->cap : 64;
        Key *grown = (Key *)realloc(h->items, (size_t)cap * sizeof(Key));
        if (!grown) return -1;
        h->items = grown;
        h->cap = cap;
    }
    Key x = {v, k};
    Py_ssize_t i = h->size++;
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (!key_less(x, h->items[parent])) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = x;
    return 0;
}

static Key heap_pop(Heap *h) {
    Key top = h->items[0];
    Key last = h->items[--h->size];
    Py_ssize_t i = 0, n = h->size;
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && key_less(h->items[child + 1], h->items[child])) child++;
        if (!key_less(h->items[child], last)) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n > 0) h->items[i] = last;
    return top;
}

/* solve's work space, kept between calls (grown when a board is larger) so that a solve pays for no
 * allocation: an expert game solves a few layers on every board state a turn of a piece creates, each
 * a few tens of microseconds. Only solve uses it, and solve calls back into nothing that could solve
 * (its answer list is made before the work starts: making it may run the cycle collector). */
typedef struct {
    Py_ssize_t cap;          /* cells the arrays hold */
    double *value, *acc;
    int *best_cost;
    char *is_landing;
    Py_ssize_t *slot;        /* per key (a cell k, or n + g for landing target g): its place in the heap, or -1 */
    Key *heap;               /* at most one entry per key: 2 * cap */
    int32_t *rows;           /* a list ``near`` read into the packed form (see pack_near): cap + 1 offsets */
    int32_t *pairs;          /* ... and (cell, cost) pairs */
    Py_ssize_t pairs_cap;
} SolveWork;

static SolveWork solve_work = {0};

static int solve_room(SolveWork *w, Py_ssize_t n) {
    if (n <= w->cap && w->cap) return 0; /* (the first call allocates, even for no cells: rows[0] is written) */
    Py_ssize_t cap = n < 64 ? 64 : n;
    double *value = (double *)realloc(w->value, (size_t)cap * sizeof(double));
    if (value) w->value = value;
    double *acc = (double *)realloc(w->acc, (size_t)cap * sizeof(double));
    if (acc) w->acc = acc;
    int *best_cost = (int *)realloc(w->best_cost, (size_t)cap * sizeof(int));
    if (best_cost) w->best_cost = best_cost;
    char *is_landing = (char *)realloc(w->is_landing, (size_t)cap);
    if (is_landing) w->is_landing = is_landing;
    Py_ssize_t *slot = (Py_ssize_t *)realloc(w->slot, (size_t)(2 * cap) * sizeof(Py_ssize_t));
    if (slot) w->slot = slot;
    Key *heap = (Key *)realloc(w->heap, (size_t)(2 * cap) * sizeof(Key));
    if (heap) w->heap = heap;
    int32_t *rows = (int32_t *)realloc(w->rows, (size_t)(cap + 1) * sizeof(int32_t));
    if (rows) w->rows = rows;
    if (!value || !acc || !best_cost || !is_landing || !slot || !heap || !rows) return -1;
    w->cap = cap;
    return 0;
}

/* Rows of ``near`` (a list of n lists of (cell, cost) tuples, cells in [0, n), costs in [1, 6]) as
 * int32s: rows[q]..rows[q + 1] index the pairs of row q, each a cell and its cost. 0; 1 for input it
 * does not take (no error set); -1 out of memory (error set). */
static int pack_rows(PyObject *near, Py_ssize_t n, int32_t *rows, int32_t **pairs, Py_ssize_t *pairs_cap) {
    Py_ssize_t total = 0;
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject *row = PyList_GET_ITEM(near, q);
        if (!PyList_CheckExact(row)) return 1;
        total += PyList_GET_SIZE(row);
    }
    if (total > INT32_MAX / 2) return 1;
    if (2 * total > *pairs_cap) {
        Py_ssize_t cap = 2 * total < 1024 ? 1024 : 2 * total;
        int32_t *grown = (int32_t *)realloc(*pairs, (size_t)cap * sizeof(int32_t));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        *pairs = grown;
        *pairs_cap = cap;
    }
    int32_t *out = *pairs;
    Py_ssize_t at = 0;
    for (Py_ssize_t q = 0; q < n; q++) {
        rows[q] = (int32_t)at;
        PyObject *row = PyList_GET_ITEM(near, q);
        Py_ssize_t m = PyList_GET_SIZE(row);
        for (Py_ssize_t e = 0; e < m; e++) {
            Py_ssize_t p;
            long c;
            if (cell_and_cost(PyList_GET_ITEM(row, e), 2, n, MAX_BUDGET, &p, &c)) return 1;
            out[2 * at] = (int32_t)p;
            out[2 * at + 1] = (int32_t)c;
            at++;
        }
    }
    rows[n] = (int32_t)at;
    return 0;
}

/* A packed ``near`` (bytes: n, then n + 1 row offsets, then the pairs, all int32) that solve may take
 * in place of the list: its size and offsets checked here (in order, in range), each pair's cell and
 * cost by solve as it reads them. 0 when it is one for n cells, else 1. */
static int packed_rows(PyObject *packed, Py_ssize_t n, const int32_t **rows, const int32_t **pairs) {
    Py_ssize_t bytes = PyBytes_GET_SIZE(packed);
    if (n > INT32_MAX - 2 || bytes % 4 || bytes < (n + 2) * 4) return 1;
    const int32_t *w = (const int32_t *)PyBytes_AS_STRING(packed);
    if (w[0] != n) return 1;
    const int32_t *r = w + 1, *pr = w + n + 2;
    Py_ssize_t total = (bytes / 4 - (n + 2));
    if (total % 2 || r[0] != 0 || r[n] != total / 2) return 1;
    for (Py_ssize_t q = 0; q < n; q++)
        if (r[q + 1] < r[q]) return 1;
    *rows = r;
    *pairs = pr;
    return 0;
}

/* The heap of solve: one entry per key, lowered in place when the key's value falls (the entries a
 * heap of every push would also hold, less the stale ones it skips: the same keys come out in the same
 * order). */
static inline void solve_sift_up(Key *h, Py_ssize_t *slot, Py_ssize_t i, Key x) {
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (!key_less(x, h[parent])) break;
        h[i] = h[parent];
        slot[h[i].k] = i;
        i = parent;
    }
    h[i] = x;
    slot[x.k] = i;
}

static inline void solve_put(Key *h, Py_ssize_t *size, Py_ssize_t *slot, double v, Py_ssize_t k) {
    Key x = {v, k};
    Py_ssize_t i = slot[k];
    if (i < 0) i = (*size)++;
    solve_sift_up(h, slot, i, x);
}

static inline Key solve_pop(Key *h, Py_ssize_t *size, Py_ssize_t *slot) {
    Key top = h[0];
    slot[top.k] = -1;
    Key last = h[--*size];
    Py_ssize_t i = 0, n = *size;
    if (!n) return top;
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && key_less(h[child + 1], h[child])) child++;
        if (!key_less(h[child], last)) break;
        h[i] = h[child];
        slot[h[i].k] = i;
        i = child;
    }
    h[i] = last;
    slot[last.k] = i;
    return top;
}

/* pack_near(near) -> bytes, or None for a list it does not take: the form of ``near`` solve reads
 * without looking at a Python object (see packed_rows); a board state's tables pack it once and
 * solve every seat's layers from it. */
static PyObject *pack_near(PyObject *self, PyObject *near) {
    if (!PyList_CheckExact(near)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(near);
    if (n > INT32_MAX / 4) Py_RETURN_NONE;
    int32_t *rows = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
    int32_t *pairs = NULL;
    Py_ssize_t pairs_cap = 0;
    if (!rows) return PyErr_NoMemory();
    PyObject *result = NULL;
    int got = pack_rows(near, n, rows, &pairs, &pairs_cap);
    if (got > 0) {
        result = Py_None;
        Py_INCREF(result);
    } else if (!got) {
        Py_ssize_t total = rows[n];
        result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((n + 2 + 2 * total) * sizeof(int32_t)));
        if (result) {
            int32_t *out = (int32_t *)PyBytes_AS_STRING(result);
            out[0] = (int32_t)n;
            memcpy(out + 1, rows, (size_t)(n + 1) * sizeof(int32_t));
            if (total) memcpy(out + n + 2, pairs, (size_t)(2 * total) * sizeof(int32_t));
        }
    }
    free(rows);
    free(pairs);
    return result;
}

/* solve(n, near, landing, at_least) -> (values, in_order), or None for inputs it does not take;
 * see the Python reference. ``near`` is the list, or its packed form (pack_near). */
static PyObject *solve(PyObject *self, PyObject *args) {
    Py_ssize_t n;
    PyObject *near, *landing, *at_least_seq;
    if (!PyArg_ParseTuple(args, "nOOO", &n, &near, &landing, &at_least_seq)) return NULL;
    if (!PyDict_CheckExact(landing) || !PyList_CheckExact(at_least_seq) ||
        PyList_GET_SIZE(at_least_seq) != MAX_BUDGET + 2)
        Py_RETURN_NONE;
    long at_least[MAX_BUDGET + 2];
    for (int c = 0; c < MAX_BUDGET + 2; c++) {
        if (small_int(PyList_GET_ITEM(at_least_seq, c), 0, 37, &at_least[c])) Py_RETURN_NONE;
    }
    for (int c = 1; c <= MAX_BUDGET; c++) {
        if (!at_least[c]) Py_RETURN_NONE; /* a divisor */
    }
    int packed = PyBytes_CheckExact(near);
    if (n < 0 || (!packed && (!PyList_CheckExact(near) || PyList_GET_SIZE(near) != n))) Py_RETURN_NONE;
    const int32_t *rows, *pairs;
    /* a packing is checked before anything is allocated for its n (a bogus n is refused, not grown to) */
    if (packed && packed_rows(near, n, &rows, &pairs)) Py_RETURN_NONE;
    PyObject *values = PyList_New(n); /* first: making it may run the cycle collector (see SolveWork) */
    if (!values) return NULL;
    SolveWork *w = &solve_work;
    if (solve_room(w, n) < 0) {
        Py_DECREF(values);
        return PyErr_NoMemory();
    }
    if (!packed) {
        int got = pack_rows(near, n, w->rows, &w->pairs, &w->pairs_cap);
        if (got) {
            Py_DECREF(values);
            if (got < 0) return NULL;
            Py_RETURN_NONE;
        }
        rows = w->rows;
        pairs = w->pairs;
    }
    double *value = w->value, *acc = w->acc;
    int *best_cost = w->best_cost;
    char *is_landing = w->is_landing;
    Py_ssize_t *slot = w->slot;
    Key *heap = w->heap;
    Py_ssize_t size = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        value[i] = INFINITY;
        acc[i] = 0.0;
        best_cost[i] = MAX_BUDGET + 1;
        is_landing[i] = 0;
        slot[i] = slot[n + i] = -1;
    }
    PyObject *g_obj, *v_obj;
    Py_ssize_t pos = 0;
    while (PyDict_Next(landing, &pos, &g_obj, &v_obj)) {
        long g;
        if (small_int(g_obj, 0, (long)n, &g) || !PyFloat_CheckExact(v_obj)) goto fallback;
        double v = PyFloat_AS_DOUBLE(v_obj);
        if (isnan(v)) goto fallback;
        is_landing[g] = 1;
        if (v < INFINITY) solve_put(heap, &size, slot, v, n + g);
    }
    int in_order = 1;
    while (size) {
        Key top = solve_pop(heap, &size, slot);
        double v = top.v;
        Py_ssize_t k = top.k, q;
        int kept;
        if (k >= n) {
            q = k - n;
            kept = best_cost[q];
            best_cost[q] = 0; /* the target itself is not improved by its own landing value */
        } else {
            q = k;
            if (v > value[q] || !best_cost[q]) continue;
            best_cost[q] = 0;
            if (is_landing[q]) continue;
            kept = -1;
        }
        for (Py_ssize_t e = rows[q], end = rows[q + 1]; e < end; e++) {
            Py_ssize_t p = pairs[2 * e];
            int c = pairs[2 * e + 1];
            if (p < 0 || p >= n || c < 1 || c > MAX_BUDGET) goto fallback; /* (a packed form's) */
            int bc = best_cost[p];
            if (c >= bc) continue;
            double a = acc[p] + (double)(at_least[c] - at_least[bc]) * v;
            acc[p] = a;
            best_cost[p] = c;
            double t = (36.0 + a) / (double)at_least[c];
            if (t < value[p]) {
                value[p] = t;
                solve_put(heap, &size, slot, t, p);
                if (t <= v && (t < v || p < k)) in_order = 0;
            }
        }
        if (kept >= 0) best_cost[q] = kept;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyFloat_FromDouble(value[i]);
        if (!f) {
            Py_DECREF(values);
            return NULL;
        }
        PyList_SET_ITEM(values, i, f);
    }
    return Py_BuildValue("(NO)", values, in_order ? Py_True : Py_False);
fallback:
    Py_DECREF(values);
    Py_RETURN_NONE;
}


/* ---- repair_distances ------------------------------------------------------------------------ */

/* A cost of ``d``: an exact int within COST_LIMIT, or the float inf (no route); 0, else 1. */
static int read_cost(PyObject *x, double *out) {
    if (PyLong_CheckExact(x)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 1;
        }
        if ((double)v > COST_LIMIT || (double)v < -COST_LIMIT) return 1;
        *out = (double)v;
        return 0;
    }
    if (PyFloat_CheckExact(x) && isinf(PyFloat_AS_DOUBLE(x)) && PyFloat_AS_DOUBLE(x) > 0) {
        *out = INFINITY;
        return 0;
    }
    return 1;
}

/* repair_distances(d, rev, arcs, i) -> d itself, a new list, or None (values it does not take) */
static PyObject *repair_distances(PyObject *self, PyObject *args) {
    PyObject *d_obj, *rev, *arcs;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOOn", &d_obj, &rev, &arcs, &i)) return NULL;
    if (!PyList_CheckExact(d_obj) || !PyList_CheckExact(rev) || !PyList_CheckExact(arcs)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(d_obj);
    if (PyList_GET_SIZE(rev) != n || PyList_GET_SIZE(arcs) != n || i < 0 || i >= n) Py_RETURN_NONE;
    double *d = (double *)calloc((size_t)n, sizeof(double));
    char *hit = (char *)calloc((size_t)n, 1);
    char *changed = (char *)calloc((size_t)n, 1);
    Py_ssize_t *stack = (Py_ssize_t *)malloc((size_t)n * sizeof(Py_ssize_t));
    Heap heap = {NULL, 0, 0};
    PyObject *result = NULL;
    if (!d || !hit || !changed || !stack) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t x = 0; x < n; x++) {
        if (read_cost(PyList_GET_ITEM(d_obj, x), &d[x])) goto fallback;
    }
    double old = d[i];
    if (old == 0.0) goto unchanged; /* a goal's own exits do not matter for reaching it */
    PyObject *row = PyList_GET_ITEM(arcs, i);
    if (!PyList_CheckExact(row)) goto fallback;
    double best = INFINITY;
    for (Py_ssize_t e = 0; e < PyList_GET_SIZE(row); e++) {
        Py_ssize_t j;
        long c;
        if (cell_and_cost(PyList_GET_ITEM(row, e), 3, n, STEP_LIMIT, &j, &c)) goto fallback;
        if (d[j] < old && c + d[j] < best) best = c + d[j];
    }
    if (best == old) goto unchanged;
    if (best < old) { /* a shortcut: only decreases, spreading back from i */
        d[i] = best;
        changed[i] = 1;
        if (heap_push(&heap, best, i) < 0) goto nomem;
    } else { /* the best exit closed: every cell whose cheapest route may pass i is searched again */
        Py_ssize_t top = 0;
        hit[i] = 1;
        stack[top++] = i;
        while (top) {
            Py_ssize_t y = stack[--top];
            PyObject *into = PyList_GET_ITEM(rev, y);
            if (!PyList_CheckExact(into)) goto fallback;
            for (Py_ssize_t e = 0; e < PyList_GET_SIZE(into); e++) {
                Py_ssize_t x;
                long c;
                if (cell_and_cost(PyList_GET_ITEM(into, e), 2, n, STEP_LIMIT, &x, &c)) goto fallback;
                if (!hit[x] && d[x] == c + d[y]) {
                    hit[x] = 1;
                    stack[top++] = x;
                }
            }
        }
        for (Py_ssize_t x = 0; x < n; x++)
            if (hit[x]) {
                d[x] = INFINITY;
                changed[x] = 1;
            }
        for (Py_ssize_t x = 0; x < n; x++) {
            if (!hit[x]) continue;
            PyObject *out = PyList_GET_ITEM(arcs, x);
            if (!PyList_CheckExact(out)) goto fallback;
            double b = INFINITY;
            for (Py_ssize_t e = 0; e < PyList_GET_SIZE(out); e++) {
                Py_ssize_t y;
                long c;
                if (cell_and_cost(PyList_GET_ITEM(out, e), 3, n, STEP_LIMIT, &y, &c)) goto fallback;
                if (!hit[y] && c + d[y] < b) b = c + d[y];
            }
            if (b < INFINITY) {
                d[x] = b;
                if (heap_push(&heap, b, x) < 0) goto nomem;
            }
        }
    }
    while (heap.size) {
        Key k = heap_pop(&heap);
        Py_ssize_t y = k.k;
        if (k.v > d[y]) continue;
        PyObject *into = PyList_GET_ITEM(rev, y);
        if (!PyList_CheckExact(into)) goto fallback;
        for (Py_ssize_t e = 0; e < PyList_GET_SIZE(into); e++) {
            Py_ssize_t x;
            long c;
            if (cell_and_cost(PyList_GET_ITEM(into, e), 2, n, STEP_LIMIT, &x, &c)) goto fallback;
            /* after a shortcut any cell may fall; after a closed exit only the cells searched again */
            if ((best < old || hit[x]) && k.v + c < d[x]) {
                d[x] = k.v + c;
                changed[x] = 1;
                if (heap_push(&heap, d[x], x) < 0) goto nomem;
            }
        }
    }
    /* a new list whenever the first test saw a change (as the reference), the cells not worked out
     * again keeping their very objects, the others a whole number or inf */
    result = PyList_New(n);
    if (!result) goto done;
    for (Py_ssize_t x = 0; x < n; x++) {
        PyObject *v;
        if (!changed[x]) {
            v = PyList_GET_ITEM(d_obj, x);
            Py_INCREF(v);
        } else if (isinf(d[x])) {
            v = PyFloat_FromDouble(INFINITY);
        } else {
            v = PyLong_FromLongLong((long long)d[x]);
        }
        if (!v) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, x, v);
    }
    goto done;
unchanged:
    result = d_obj;
    Py_INCREF(result);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    free(d);
    free(hit);
    free(changed);
    free(stack);
    free(heap.items);
    return result;
}

/* bounded_reach(arcs, start, limit) -> dict, or None for inputs it does not take: the cheapest cost
 * from ``start`` to every cell within ``limit`` (terragen.terrain.sim.cache.bounded_reach_python, the
 * reference). Costs are whole numbers, so the cells settle in the order of their (cost, cell) keys,
 * all distinct, as they do from Python's heapq; the dict gets its keys in the same order (a cell
 * enters when first reached, a cheaper way later changes only its value). */
static PyObject *bounded_reach(PyObject *self, PyObject *args) {
    PyObject *arcs, *start_o, *limit_o;
    if (!PyArg_ParseTuple(args, "OOO", &arcs, &start_o, &limit_o)) return NULL;
    if (!PyList_CheckExact(arcs)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(arcs);
    long start_l, limit;
    if (small_int(start_o, 0, (long)n, &start_l) || small_int(limit_o, 0, 99, &limit)) Py_RETURN_NONE;
    Py_ssize_t start = (Py_ssize_t)start_l;
    long *dist = (long *)malloc((size_t)n * sizeof(long));
    Heap heap = {NULL, 0, 0};
    PyObject *result = PyDict_New(), *key = NULL, *value = NULL;
    if (dist == NULL || result == NULL) goto nomem;
    for (Py_ssize_t x = 0; x < n; x++) dist[x] = 99; /* the reference's "not reached" */
    dist[start] = 0;
    key = PyLong_FromSsize_t(start);
    value = PyLong_FromLong(0);
    if (key == NULL || value == NULL || PyDict_SetItem(result, key, value) < 0) goto error;
    Py_CLEAR(key);
    Py_CLEAR(value);
    if (heap_push(&heap, 0.0, start) < 0) goto nomem;
    while (heap.size) {
        Key top = heap_pop(&heap);
        Py_ssize_t i = top.k;
        long d = (long)top.v;
        if (d > dist[i]) continue;
        PyObject *out = PyList_GET_ITEM(arcs, i);
        if (!PyList_CheckExact(out)) goto fallback;
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
            Py_ssize_t j;
            long c;
            if (cell_and_cost(PyList_GET_ITEM(out, a), 3, n, MAX_BUDGET, &j, &c)) goto fallback;
            long nd = d + c;
            if (nd <= limit && nd < dist[j]) {
                dist[j] = nd;
                key = PyLong_FromSsize_t(j);
                value = PyLong_FromLong(nd);
                if (key == NULL || value == NULL || PyDict_SetItem(result, key, value) < 0) goto error;
                Py_CLEAR(key);
                Py_CLEAR(value);
                if (heap_push(&heap, (double)nd, j) < 0) goto nomem;
            }
        }
    }
    goto done;
fallback:
    Py_CLEAR(result);
    result = Py_None;
    Py_INCREF(result);
    goto done;
nomem:
    PyErr_NoMemory();
error:
    Py_CLEAR(result);
    Py_XDECREF(key);
    Py_XDECREF(value);
done:
    free(dist);
    free(heap.items);
    return result;
}

/* reach_tree(arcs, start, stuck) -> dict, or None for inputs it does not take: every cell reachable
 * from ``start`` mapped to the cell it is first reached from (terragen.terrain.analysis._reach_tree_python,
 * the reference: a depth-first search popping the last cell pushed; a token on ``stuck`` cannot leave
 * it). The same search in the same order, so the dict gets the same keys, parents and order. */
static PyObject *reach_tree(PyObject *self, PyObject *args) {
    PyObject *arcs, *start_o, *stuck_o;
    if (!PyArg_ParseTuple(args, "OOO", &arcs, &start_o, &stuck_o)) return NULL;
    if (!PyList_CheckExact(arcs)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(arcs);
    long start_l, stuck_l;
    if (small_int(start_o, 0, (long)n, &start_l) || small_int(stuck_o, -1, (long)n, &stuck_l)) Py_RETURN_NONE;
    Py_ssize_t *came = (Py_ssize_t *)malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *order = (Py_ssize_t *)malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *stack = (Py_ssize_t *)malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    PyObject *result = NULL;
    Py_ssize_t found = 0, top = 0;
    if (came == NULL || order == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t x = 0; x < n; x++) came[x] = -1;
    came[start_l] = start_l;
    order[found++] = start_l;
    stack[top++] = start_l;
    while (top) {
        Py_ssize_t i = stack[--top];
        if (i == stuck_l) continue;
        PyObject *out = PyList_GET_ITEM(arcs, i);
        if (!PyList_CheckExact(out)) goto fallback;
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
            PyObject *t = PyList_GET_ITEM(out, a);
            long j;
            if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != 3 || small_int(PyTuple_GET_ITEM(t, 0), 0, (long)n, &j))
                goto fallback;
            if (came[j] < 0) { /* each cell enters once, so the stack never holds more than n */
                came[j] = i;
                order[found++] = j;
                stack[top++] = j;
            }
        }
    }
    result = PyDict_New();
    if (result == NULL) goto done;
    for (Py_ssize_t k = 0; k < found; k++) {
        PyObject *key = PyLong_FromSsize_t(order[k]), *value = PyLong_FromSsize_t(came[order[k]]);
        int bad = key == NULL || value == NULL || PyDict_SetItem(result, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (bad) {
            Py_CLEAR(result);
            goto done;
        }
    }
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    free(came);
    free(order);
    free(stack);
    return result;
}

/* A tour table's entry as a double: an exact int within COST_LIMIT or a float (inf for no route), not
 * NaN: 0; anything else: 1. */
static int as_cost(PyObject *x, double *out) {
    if (PyFloat_CheckExact(x)) {
        double v = PyFloat_AS_DOUBLE(x);
        if (v != v) return 1;
        *out = v;
        return 0;
    }
    if (!PyLong_CheckExact(x)) return 1;
    int overflow = 0;
    long long w = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || (w == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 1;
    }
    if (w > (long long)COST_LIMIT || w < -(long long)COST_LIMIT) return 1;
    *out = (double)w;
    return 0;
}

/* Entry ``q`` of the list ``table`` (of exactly n items) as a cost: 0; anything else: 1. */
static int cost_at(PyObject *table, Py_ssize_t n, Py_ssize_t q, double *out) {
    if (!PyList_CheckExact(table) || PyList_GET_SIZE(table) != n) return 1;
    return as_cost(PyList_GET_ITEM(table, q), out);
}

/* Entry q of the seat's tour table for collection m: of ``now`` (the table of collection ``base``) when
 * m is base, else of tours(groups, m) (tours(groups, m, True) for ``elev``), asked of Python: 0 with *out
 * set; 1 for a value it does not take; -1 with an error set. */
static int tour_cost(PyObject *now, long base, PyObject *tours, PyObject *groups, long m, int elev,
                     Py_ssize_t n, Py_ssize_t q, double *out) {
    if (m == base) return cost_at(now, n, q, out);
    PyObject *m_o = PyLong_FromLong(m);
    if (m_o == NULL) return -1;
    PyObject *t = elev ? PyObject_CallFunctionObjArgs(tours, groups, m_o, Py_True, NULL)
                       : PyObject_CallFunctionObjArgs(tours, groups, m_o, NULL);
    Py_DECREF(m_o);
    if (t == NULL) return -1;
    int bad = cost_at(t, n, q, out);
    Py_DECREF(t);
    return bad;
}

/* A value of a layer list of n floats, not NaN: 0; 1 for a value it does not take. */
static int layer_at(PyObject *values, Py_ssize_t q, double *out) {
    PyObject *x = PyList_GET_ITEM(values, q);
    if (!PyFloat_CheckExact(x)) return 1;
    *out = PyFloat_AS_DOUBLE(x);
    return *out != *out;
}

/* One of a move's options, an (cell, points) item of the options dict, with the cell's rank and the bits a
 * move there collects (``gains``): 0; 1 for a value it does not take; -1 with an error set. */
static int move_option(PyObject *item, PyObject *rank, PyObject *gains, Py_ssize_t n, long *q, long *points,
                       long *rank_q, long *gain) {
    PyObject *q_o = PyTuple_GET_ITEM(item, 0);
    if (small_int(q_o, 0, (long)n, q) || small_int(PyTuple_GET_ITEM(item, 1), 0, 1L << 20, points) ||
        small_int(PyTuple_GET_ITEM(rank, *q), -(1L << 30), 1L << 30, rank_q))
        return 1;
    PyObject *g = PyDict_GetItemWithError(gains, q_o);
    if (g == NULL) {
        *gain = 0;
        return PyErr_Occurred() ? -1 : 0;
    }
    return small_int(g, 0, 1L << 20, gain);
}

/* A move's key as the policies compare them: two costs or values, then the points, then the rank. */
typedef struct {
    double first, second;
    long points, rank;
} MoveKey;

/* Whether ``a`` comes before ``b`` (keys of distinct cells: the ranks differ, so the first of equals is kept). */
static int move_before(const MoveKey *a, const MoveKey *b) {
    return a->first < b->first ||
           (a->first == b->first &&
            (a->second < b->second ||
             (a->second == b->second && (a->points < b->points || (a->points == b->points && a->rank < b->rank)))));
}

/* greedy_move(options, gains, base, pip, elev, rank, tours, groups) -> cell or None; see the method's
 * doc. Python code runs only in tours() (a table made on demand); every value read is checked again
 * after it, so a table it changes is still read safely. */
static PyObject *greedy_move(PyObject *self, PyObject *args) {
    PyObject *options, *gains, *base_o, *pip, *elev, *rank, *tours, *groups;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &options, &gains, &base_o, &pip, &elev, &rank, &tours, &groups))
        return NULL;
    long base;
    if (!PyDict_CheckExact(options) || !PyDict_CheckExact(gains) || !PyTuple_CheckExact(rank) ||
        small_int(base_o, 0, 1L << 20, &base) || !PyList_CheckExact(pip) || !PyList_CheckExact(elev))
        Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(rank);
    if (PyList_GET_SIZE(pip) != n || PyList_GET_SIZE(elev) != n) Py_RETURN_NONE;
    /* the items, copied first: tours() runs Python code, which must not see a dict being walked */
    PyObject *items = PyDict_Items(options);
    if (items == NULL) return NULL;
    PyObject *best = NULL, *result = NULL;
    MoveKey best_key = {0.0, 0.0, 0, 0};
    Py_INCREF(pip);
    Py_INCREF(elev);
    for (Py_ssize_t x = 0; x < PyList_GET_SIZE(items); x++) {
        PyObject *item = PyList_GET_ITEM(items, x);
        long q, gain;
        MoveKey key;
        int got = move_option(item, rank, gains, n, &q, &key.points, &key.rank, &gain);
        if (got < 0) goto error;
        if (got) goto fallback;
        long m = base | gain;
        got = tour_cost(pip, base, tours, groups, m, 0, n, q, &key.first);
        if (got < 0) goto error;
        if (got) goto fallback;
        if (best != NULL && key.first > best_key.first) continue;
        got = tour_cost(elev, base, tours, groups, m, 1, n, q, &key.second);
        if (got < 0) goto error;
        if (got) goto fallback;
        /* the least (cost on, cost with pips ignored, points, rank), the first of equals kept */
        if (best == NULL || move_before(&key, &best_key)) {
            best = PyTuple_GET_ITEM(item, 0);
            best_key = key;
        }
    }
    if (best == NULL) goto fallback;
    result = best;
    Py_INCREF(result);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
    goto done;
error:
    result = NULL;
done:
    Py_DECREF(items); /* (best, if any, is held by result now) */
    Py_DECREF(pip);
    Py_DECREF(elev);
    return result;
}

/* Entry q of the expected-turns layer ``table[m]`` (asked of the table, which solves a layer the first
 * time it is asked for: Python code may run): 0 with *out set; 1 for a value it does not take; -1 with an
 * error set. */
static int layer_value(PyObject *table, long m, Py_ssize_t n, Py_ssize_t q, double *out) {
    PyObject *m_o = PyLong_FromLong(m);
    if (m_o == NULL) return -1;
    PyObject *layer = PyObject_GetItem(table, m_o);
    Py_DECREF(m_o);
    if (layer == NULL) return -1;
    int bad = !PyList_CheckExact(layer) || PyList_GET_SIZE(layer) != n || layer_at(layer, q, out);
    Py_DECREF(layer);
    return bad;
}

/* expert_move(options, gains, base, table, rank, tours, groups) -> cell or None; see ExpertPolicy.choose_move
 * (the reference). Python code runs only in table[mask] (a layer solved on demand) and tours() (a table
 * made on demand); the options were copied first. */
static PyObject *expert_move(PyObject *self, PyObject *args) {
    PyObject *options, *gains, *base_o, *table, *rank, *tours, *groups;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &options, &gains, &base_o, &table, &rank, &tours, &groups))
        return NULL;
    long base;
    if (!PyDict_CheckExact(options) || !PyDict_CheckExact(gains) || !PyTuple_CheckExact(rank) ||
        !PyDict_Check(table) || small_int(base_o, 0, 1L << 20, &base))
        Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(rank);
    /* this collection's layer, asked for first as the reference does (a layer solved on demand) */
    PyObject *values = PyObject_GetItem(table, base_o);
    if (values == NULL) return NULL;
    if (!PyList_CheckExact(values) || PyList_GET_SIZE(values) != n) {
        Py_DECREF(values);
        Py_RETURN_NONE;
    }
    PyObject *items = PyDict_Items(options);
    if (items == NULL) {
        Py_DECREF(values);
        return NULL;
    }
    PyObject *best = NULL, *result = NULL;
    MoveKey best_key = {0.0, 0.0, 0, 0};
    for (Py_ssize_t x = 0; x < PyList_GET_SIZE(items); x++) {
        PyObject *item = PyList_GET_ITEM(items, x);
        long q, gain;
        MoveKey key;
        int got = move_option(item, rank, gains, n, &q, &key.points, &key.rank, &gain);
        if (got < 0) goto error;
        if (got) goto fallback;
        long m = base | gain;
        got = m == base ? layer_at(values, q, &key.first) : layer_value(table, m, n, q, &key.first);
        if (got < 0) goto error;
        if (got) goto fallback;
        key.second = 0.0;
        if (key.first == HUGE_VAL) { /* no way there under the pips: the tour with pips ignored guides it */
            got = tour_cost(NULL, -1, tours, groups, m, 1, n, q, &key.second); /* (base -1: asked of tours()) */
            if (got < 0) goto error;
            if (got) goto fallback;
        }
        /* the least (value, cost with pips ignored where there is no value, points, rank), the first of
         * equals kept */
        if (best == NULL || move_before(&key, &best_key)) {
            best = PyTuple_GET_ITEM(item, 0);
            best_key = key;
        }
    }
    if (best == NULL) goto fallback;
    result = best;
    Py_INCREF(result);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
    goto done;
error:
    result = NULL;
done:
    Py_DECREF(items);
    Py_DECREF(values);
    return result;
}

/* Whether every object of ``lists`` is a list of exactly n items. */
static int lists_of_length(PyObject *const *lists, size_t count, Py_ssize_t n) {
    for (size_t x = 0; x < count; x++)
        if (!PyList_CheckExact(lists[x]) || PyList_GET_SIZE(lists[x]) != n) return 0;
    return 1;
}

/* What own_rotation reads of the board. */
typedef struct {
    Py_ssize_t n;
    PyObject *nbr, *level, *present, *inverted, *steps;
} Cells;

/* Whether a token may stand on cell j (present and not inverted): 1, 0, or -1 for a value it does not take. */
static int passable_at(const Cells *b, Py_ssize_t j) {
    PyObject *p = PyList_GET_ITEM(b->present, j), *i = PyList_GET_ITEM(b->inverted, j);
    if ((p != Py_True && p != Py_False) || (i != Py_True && i != Py_False)) return -1;
    return p == Py_True && i == Py_False;
}

/* The least c + t[j] over the arcs (j, c) piece ``cell`` would have with exit mask ``m`` (as
 * BoardCache.exits_as makes them: an open side, a neighbour a token may stand on, at most 3 levels
 * apart, the rules' step cost): 0 with *via set (inf when none), 1 for values it does not take. */
static int cheapest_exit(const Cells *b, PyObject *t, Py_ssize_t cell, long m, double *via) {
    PyObject *row = PyList_GET_ITEM(b->nbr, cell);
    long lv, lj, step;
    if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) > 6 ||
        small_int(PyList_GET_ITEM(b->level, cell), -1000, 1000, &lv))
        return 1;
    double best = HUGE_VAL;
    for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(row); d++) {
        long j;
        if (small_int(PyTuple_GET_ITEM(row, d), -1, (long)b->n, &j)) return 1;
        if (!(m >> d & 1) || j < 0) continue;
        int ok = passable_at(b, (Py_ssize_t)j);
        if (ok < 0) return 1;
        if (!ok) continue;
        if (small_int(PyList_GET_ITEM(b->level, j), -1000, 1000, &lj)) return 1;
        long delta = lj - lv;
        if (delta < -3 || delta > 3) continue;
        if (small_int(PyTuple_GET_ITEM(b->steps, delta + 3), 0, STEP_LIMIT, &step)) return 1;
        double tj;
        if (cost_at(t, b->n, (Py_ssize_t)j, &tj)) return 1;
        if ((double)step + tj < best) best = (double)step + tj;
    }
    *via = best;
    return 0;
}

/* The first ``length`` (at most 64) cells of a seat's cheapest tour from ``pos`` with collection ``mask``
 * into ``route`` (_route in terragen/terrain/sim/policies.py, the reference): by the tour table ``t`` under
 * the pips, else by ``elev_t`` with pips ignored (given whenever t[pos] is inf), each next cell the one of
 * least rank among the arcs on a cheapest way, up to the first target. Its size, with *tp = t[pos]; -1 for a
 * value it does not take; -2 with an error set. */
static Py_ssize_t route_of(long pos, long mask, PyObject *t, PyObject *elev_t, PyObject *gains, PyObject *pip_arcs,
                           PyObject *elev_arcs, PyObject *rank, long length, Py_ssize_t n, Py_ssize_t *route,
                           double *tp) {
    Py_ssize_t size = 0;
    if (cost_at(t, n, pos, tp)) return -1;
    PyObject *tr = t, *arcs = pip_arcs;
    double here;
    if (*tp == HUGE_VAL) {
        tr = elev_t;
        arcs = elev_arcs;
        if (tr == Py_None) return -1; /* the caller gives it whenever the pips' tour is inf */
    }
    route[size++] = (Py_ssize_t)pos;
    if (cost_at(tr, n, pos, &here)) return -1;
    if (here == HUGE_VAL) return size;
    Py_ssize_t cur = (Py_ssize_t)pos;
    while (size < length) {
        PyObject *out = PyList_GET_ITEM(arcs, cur);
        if (!PyList_CheckExact(out)) return -1;
        double tc;
        if (cost_at(tr, n, cur, &tc)) return -1;
        Py_ssize_t next = -1;
        long next_rank = 0;
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
            Py_ssize_t j;
            long c, rj;
            double tj;
            if (cell_and_cost(PyList_GET_ITEM(out, a), 3, n, STEP_LIMIT, &j, &c) || cost_at(tr, n, j, &tj))
                return -1;
            if (tj + (double)c != tc) continue;
            if (small_int(PyTuple_GET_ITEM(rank, j), -(1L << 30), 1L << 30, &rj)) return -1;
            if (next < 0 || rj < next_rank) {
                next = j;
                next_rank = rj;
            }
        }
        if (next < 0) break;
        route[size++] = next;
        long gain = 0;
        PyObject *key = PyLong_FromSsize_t(next);
        if (key == NULL) return -2;
        PyObject *g = PyDict_GetItemWithError(gains, key);
        Py_DECREF(key);
        if (g == NULL && PyErr_Occurred()) return -2;
        if (g != NULL && small_int(g, 0, 1L << 20, &gain)) return -1;
        if ((mask | gain) != mask) break;
        cur = next;
    }
    return size;
}

/* seat_route(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length) -> list or None; see route_of. */
static PyObject *seat_route(PyObject *self, PyObject *args) {
    PyObject *pos_o, *mask_o, *t, *elev_t, *gains, *pip_arcs, *elev_arcs, *rank, *length_o;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &pos_o, &mask_o, &t, &elev_t, &gains, &pip_arcs, &elev_arcs, &rank,
                          &length_o))
        return NULL;
    if (!PyTuple_CheckExact(rank) || !PyDict_CheckExact(gains)) Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(rank);
    long pos, mask, length;
    if (small_int(pos_o, 0, (long)n, &pos) || small_int(mask_o, 0, 1L << 20, &mask) ||
        small_int(length_o, 1, 65, &length))
        Py_RETURN_NONE;
    PyObject *lists[] = {t, pip_arcs, elev_arcs};
    if (!lists_of_length(lists, 3, n) || (elev_t != Py_None && !lists_of_length(&elev_t, 1, n))) Py_RETURN_NONE;
    Py_ssize_t cells[64];
    double tp;
    Py_ssize_t size = route_of(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length, n, cells, &tp);
    if (size == -2) return NULL;
    if (size < 0) Py_RETURN_NONE;
    PyObject *out = PyList_New(size);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < size; k++) {
        PyObject *c = PyLong_FromSsize_t(cells[k]);
        if (c == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, c);
    }
    return out;
}

/* own_rotation(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length, board_mask, turns_of, nbr,
 *              level, present, inverted, steps) -> (cell, rotation), () or None; see the method's doc. */
static PyObject *own_rotation(PyObject *self, PyObject *args) {
    PyObject *pos_o, *mask_o, *t, *elev_t, *gains, *pip_arcs, *elev_arcs, *rank, *length_o, *board_mask, *turns_of;
    Cells b;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOO", &pos_o, &mask_o, &t, &elev_t, &gains, &pip_arcs, &elev_arcs,
                          &rank, &length_o, &board_mask, &turns_of, &b.nbr, &b.level, &b.present, &b.inverted,
                          &b.steps))
        return NULL;
    if (!PyTuple_CheckExact(rank)) Py_RETURN_NONE;
    b.n = PyTuple_GET_SIZE(rank);
    long pos, mask, length;
    if (small_int(pos_o, 0, (long)b.n, &pos) || small_int(mask_o, 0, 1L << 20, &mask) ||
        small_int(length_o, 1, 64, &length) || !PyDict_CheckExact(gains) || !PyTuple_CheckExact(b.steps) ||
        PyTuple_GET_SIZE(b.steps) != 7)
        Py_RETURN_NONE;
    /* (the arguments tuple holds every list; their lengths are checked again after turns_of, which is
     * Python code and could change them) */
    PyObject *lists[] = {t, pip_arcs, elev_arcs, board_mask, b.nbr, b.level, b.present, b.inverted};
    const size_t count = sizeof lists / sizeof *lists;
    if (!lists_of_length(lists, count, b.n)) Py_RETURN_NONE;
    PyObject *result = NULL, *turns = NULL;

    Py_ssize_t route[64];
    double tp;
    Py_ssize_t size = route_of(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length, b.n, route, &tp);
    if (size == -2) goto error;
    if (size < 0) goto fallback;

    /* the turn of a piece on the route whose new exits shorten the tour most (the first of equals) */
    double before = 0.0, best_cost = tp;
    long best_cell = -1, best_rot = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        Py_ssize_t cell = route[k];
        if (k) {
            PyObject *out = PyList_GET_ITEM(elev_arcs, route[k - 1]);
            if (!PyList_CheckExact(out)) goto fallback;
            int found = 0;
            for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out) && !found; a++) {
                Py_ssize_t j;
                long c;
                if (cell_and_cost(PyList_GET_ITEM(out, a), 3, b.n, STEP_LIMIT, &j, &c)) goto fallback;
                if (j == cell) {
                    before += (double)c;
                    found = 1;
                }
            }
            if (!found) goto fallback;
        }
        long gain = 0;
        PyObject *key = PyLong_FromSsize_t(cell);
        if (key == NULL) goto error;
        PyObject *g = PyDict_GetItemWithError(gains, key);
        if (g == NULL && PyErr_Occurred()) {
            Py_DECREF(key);
            goto error;
        }
        if (g != NULL && small_int(g, 0, 1L << 20, &gain)) {
            Py_DECREF(key);
            goto fallback;
        }
        if ((mask | gain) != mask) {
            Py_DECREF(key);
            break;
        }
        double floor;
        if (cheapest_exit(&b, t, cell, 0x3f, &floor)) {
            Py_DECREF(key);
            goto fallback;
        }
        if (before + floor >= best_cost) {
            Py_DECREF(key);
            continue;
        }
        long now;
        if (small_int(PyList_GET_ITEM(board_mask, cell), 0, 64, &now)) {
            Py_DECREF(key);
            goto fallback;
        }
        turns = PyObject_CallOneArg(turns_of, key);
        Py_DECREF(key);
        if (turns == NULL) goto error;
        if (!PyTuple_CheckExact(turns) || !lists_of_length(lists, count, b.n)) goto fallback;
        for (Py_ssize_t x = 0; x < PyTuple_GET_SIZE(turns); x++) {
            PyObject *pair = PyTuple_GET_ITEM(turns, x);
            long rot, m;
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                small_int(PyTuple_GET_ITEM(pair, 0), 0, 6, &rot) || small_int(PyTuple_GET_ITEM(pair, 1), 0, 64, &m))
                goto fallback;
            if (m == now) continue;
            double via;
            if (cheapest_exit(&b, t, cell, m, &via)) goto fallback;
            if (before + via < best_cost) {
                best_cost = before + via;
                best_cell = (long)cell;
                best_rot = rot;
            }
        }
        Py_CLEAR(turns);
    }
    result = best_cell < 0 ? PyTuple_New(0) : Py_BuildValue("(ll)", best_cell, best_rot);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
    goto done;
error:
    result = NULL;
done:
    Py_XDECREF(turns);
    return result;
}

/* The rolls per budget 0..6 from the tuple ``counts_o``: 0; 1 for a value it does not take. */
static int roll_counts(PyObject *counts_o, long *counts) {
    if (!PyTuple_CheckExact(counts_o) || PyTuple_GET_SIZE(counts_o) != MAX_BUDGET + 1) return 1;
    for (int b = 0; b <= MAX_BUDGET; b++)
        if (small_int(PyTuple_GET_ITEM(counts_o, b), 0, 37, &counts[b])) return 1;
    return 0;
}

/* An expert's one-cell re-evaluation (ExpertPolicy._find_local): the expected turns at ``cell`` if its
 * piece had the arcs ``exits`` and every other value of ``values`` (the layer of collection ``here`` of
 * ``table``) stayed. 0 with *out set; 1 for a value it does not take; -1 with an error set. Python code runs
 * in reach_fn() (a cell's reach made on demand) and table[mask] (a layer solved on demand); a reach dict is
 * held while walked and the walk gives up if its size changes. */
static int local_core(PyObject *exits, PyObject *store, PyObject *reach_fn, PyObject *values, PyObject *gains,
                      long here, PyObject *table, long cell, const long *counts, double *out) {
    if (!PyList_CheckExact(exits) || !PyDict_CheckExact(store) || !PyList_CheckExact(values) ||
        !PyDict_CheckExact(gains) || !PyDict_Check(table))
        return 1;
    Py_ssize_t n = PyList_GET_SIZE(values);
    if (cell < 0 || cell >= (long)n) return 1;
    double best[MAX_BUDGET + 1];
    for (int b = 0; b <= MAX_BUDGET; b++) best[b] = HUGE_VAL;
    exits = PyList_AsTuple(exits); /* (a tuple of its own, and values held: Python code runs below) */
    if (exits == NULL) return -1;
    Py_INCREF(values);
    int status = 0;
    for (Py_ssize_t a = 0; a < PyTuple_GET_SIZE(exits) && status == 0; a++) {
        Py_ssize_t j;
        long c;
        if (cell_and_cost(PyTuple_GET_ITEM(exits, a), 2, n, MAX_BUDGET, &j, &c)) {
            status = 1;
            break;
        }
        PyObject *j_o = PyTuple_GET_ITEM(PyTuple_GET_ITEM(exits, a), 0);
        PyObject *r = PyDict_GetItemWithError(store, j_o);
        if (r != NULL) {
            Py_INCREF(r);
        } else {
            if (PyErr_Occurred()) {
                status = -1;
                break;
            }
            r = PyObject_CallOneArg(reach_fn, j_o);
            if (r == NULL) {
                status = -1;
                break;
            }
        }
        if (!PyDict_CheckExact(r)) {
            Py_DECREF(r);
            status = 1;
            break;
        }
        Py_ssize_t size = PyDict_GET_SIZE(r), at = 0;
        PyObject *q_o, *cq_o;
        while (PyDict_Next(r, &at, &q_o, &cq_o)) {
            long q, cq, gain = 0;
            if (small_int(q_o, 0, (long)n, &q) || small_int(cq_o, 0, MAX_BUDGET + 1, &cq)) {
                status = 1;
                break;
            }
            long t = c + cq;
            if (t > MAX_BUDGET || q == cell) continue;
            PyObject *g = PyDict_GetItemWithError(gains, q_o);
            if (g == NULL && PyErr_Occurred()) {
                status = -1;
                break;
            }
            double v;
            if (g == NULL) { /* not a target: this layer's value */
                if (cost_at(values, n, (Py_ssize_t)q, &v)) {
                    status = 1;
                    break;
                }
            } else { /* a target: the layer of the collection a move there makes */
                if (small_int(g, 0, 1L << 20, &gain)) {
                    status = 1;
                    break;
                }
                PyObject *m = PyLong_FromLong(here | gain);
                if (m == NULL) {
                    status = -1;
                    break;
                }
                PyObject *layer = PyObject_GetItem(table, m);
                Py_DECREF(m);
                if (layer == NULL) {
                    status = -1;
                    break;
                }
                int bad = cost_at(layer, n, (Py_ssize_t)q, &v);
                Py_DECREF(layer);
                if (bad || PyDict_GET_SIZE(r) != size) { /* (a reach changed while walked: Python decides) */
                    status = 1;
                    break;
                }
            }
            if (v < best[t]) best[t] = v;
        }
        Py_DECREF(r);
    }
    Py_DECREF(exits);
    Py_DECREF(values);
    if (status) return status;
    for (int b = 1; b <= MAX_BUDGET; b++)
        if (best[b - 1] < best[b]) best[b] = best[b - 1];
    /* staying is always allowed: the value with the largest budgets used to move, the least over how far
     * down they go (the reference's sums, in its order, so the same float) */
    double value = HUGE_VAL, total = 0.0;
    long rolls = 0;
    for (int b = MAX_BUDGET; b > 0; b--) {
        if (best[b] == HUGE_VAL) break;
        total += (double)counts[b] * best[b];
        rolls += counts[b];
        if (rolls == 0) return 1; /* (the reference would divide by nought) */
        double v = (36.0 + total) / (double)rolls;
        if (v < value) value = v;
    }
    *out = value;
    return 0;
}

/* local_value(exits, reach_store, reach, values, gains, here, table, cell, roll_counts) -> float or None; see
 * the method's doc. */
static PyObject *local_value(PyObject *self, PyObject *args) {
    PyObject *exits, *store, *reach_fn, *values, *gains, *here_o, *table, *cell_o, *counts_o;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &exits, &store, &reach_fn, &values, &gains, &here_o, &table, &cell_o,
                          &counts_o))
        return NULL;
    long here, cell, counts[MAX_BUDGET + 1];
    if (roll_counts(counts_o, counts) || small_int(here_o, 0, 1L << 20, &here) ||
        small_int(cell_o, 0, 1L << 20, &cell))
        Py_RETURN_NONE;
    double value;
    int status = local_core(exits, store, reach_fn, values, gains, here, table, cell, counts, &value);
    if (status < 0) return NULL;
    if (status) Py_RETURN_NONE;
    return PyFloat_FromDouble(value);
}

/* What an expert's re-evaluations read of one seat: its groups, collection, layer of expected turns, the
 * bits a move onto each target collects and its table of layers. */
typedef struct {
    PyObject *groups, *here_o, *values, *gains, *table;
    long here;
    Py_ssize_t n;
} LocalSeat;

/* The seat context (groups, here, values, gains, table) from a tuple: 0; 1 for a value it does not take. */
static int local_seat(PyObject *ctx, LocalSeat *out) {
    if (!PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 5) return 1;
    out->groups = PyTuple_GET_ITEM(ctx, 0);
    out->here_o = PyTuple_GET_ITEM(ctx, 1);
    out->values = PyTuple_GET_ITEM(ctx, 2);
    out->gains = PyTuple_GET_ITEM(ctx, 3);
    out->table = PyTuple_GET_ITEM(ctx, 4);
    if (small_int(out->here_o, 0, 1L << 20, &out->here) || !PyList_CheckExact(out->values)) return 1;
    out->n = PyList_GET_SIZE(out->values);
    return 0;
}

/* What the re-evaluations of one turn share: the board state's arcs by exit mask, its reach and the memo
 * ExpertPolicy._local keeps them in. */
typedef struct {
    PyObject *exits_fn, *store, *reach_fn, *memo, *prefix;
    long counts[MAX_BUDGET + 1];
} LocalBoard;

/* ExpertPolicy._local: the value remembered in the board state's memo under the reference's own key, or
 * worked out (local_core) and remembered there. 0 with *out set; 1 for a value it does not take; -1 with
 * an error set. */
static int local_remembered(const LocalBoard *lb, const LocalSeat *st, long cell, long mask, double *out) {
    PyObject *cell_o = PyLong_FromLong(cell), *mask_o = PyLong_FromLong(mask);
    if (cell_o == NULL || mask_o == NULL) {
        Py_XDECREF(cell_o);
        Py_XDECREF(mask_o);
        return -1;
    }
    PyObject *key = PyTuple_Pack(5, lb->prefix, st->groups, st->here_o, cell_o, mask_o);
    int status = -1;
    if (key == NULL) goto done;
    PyObject *known = PyDict_GetItemWithError(lb->memo, key);
    if (known != NULL) {
        if (PyFloat_CheckExact(known)) {
            *out = PyFloat_AS_DOUBLE(known);
            status = 0;
        } else {
            status = 1;
        }
        goto done;
    }
    if (PyErr_Occurred()) goto done;
    PyObject *exits = PyObject_CallFunctionObjArgs(lb->exits_fn, cell_o, mask_o, NULL);
    if (exits == NULL) goto done;
    status = local_core(exits, lb->store, lb->reach_fn, st->values, st->gains, st->here, st->table, cell, lb->counts,
                        out);
    Py_DECREF(exits);
    if (status == 0) {
        PyObject *v = PyFloat_FromDouble(*out);
        if (v == NULL || PyDict_SetItem(lb->memo, key, v) < 0) status = -1;
        Py_XDECREF(v);
    }
done:
    Py_XDECREF(key);
    Py_DECREF(cell_o);
    Py_DECREF(mask_o);
    return status;
}

/* The cells of a route list as longs in [0, n): their count, or -1 for a value it does not take. */
static Py_ssize_t route_cells(PyObject *route, Py_ssize_t n, long *cells, Py_ssize_t room) {
    if (!PyList_CheckExact(route) || PyList_GET_SIZE(route) > room) return -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(route); k++)
        if (small_int(PyList_GET_ITEM(route, k), 0, (long)n, &cells[k])) return -1;
    return PyList_GET_SIZE(route);
}

static int has_cell(const long *cells, Py_ssize_t count, long cell) {
    for (Py_ssize_t k = 0; k < count; k++)
        if (cells[k] == cell) return 1;
    return 0;
}

#define ROUTE_ROOM 64

/* expert_turn(cand, theirs, me, them, pattern, rotation, board_mask, hand, turns, exits_as, reach_store, reach,
 *             memo, prefix, roll_counts, min_gain, all_exits) -> (cell, rotation), () or None; see the
 * method's doc. */
static PyObject *expert_turn(PyObject *self, PyObject *args) {
    PyObject *cand_o, *theirs_o, *me_o, *them_o, *pattern, *rotation, *board_mask, *hand, *turns_fn, *counts_o,
        *min_gain_o, *all_o;
    LocalBoard lb;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOO", &cand_o, &theirs_o, &me_o, &them_o, &pattern, &rotation,
                          &board_mask, &hand, &turns_fn, &lb.exits_fn, &lb.store, &lb.reach_fn, &lb.memo, &lb.prefix,
                          &counts_o, &min_gain_o, &all_o))
        return NULL;
    LocalSeat me, them;
    long all_exits, cand[ROUTE_ROOM], theirs[ROUTE_ROOM], order[2 * ROUTE_ROOM];
    if (roll_counts(counts_o, lb.counts) || !PyDict_CheckExact(lb.memo) || !PyFloat_CheckExact(min_gain_o) ||
        small_int(all_o, 0, 64, &all_exits) || local_seat(me_o, &me))
        Py_RETURN_NONE;
    int defends = them_o != Py_None;
    if (defends && (local_seat(them_o, &them) || them.n != me.n)) Py_RETURN_NONE;
    Py_ssize_t n = me.n;
    if (!PyList_CheckExact(pattern) || !PyList_CheckExact(rotation) || !PyList_CheckExact(board_mask) ||
        PyList_GET_SIZE(pattern) != n || PyList_GET_SIZE(rotation) != n || PyList_GET_SIZE(board_mask) != n)
        Py_RETURN_NONE;
    Py_ssize_t n_cand = route_cells(cand_o, n, cand, ROUTE_ROOM), n_theirs = route_cells(theirs_o, n, theirs, ROUTE_ROOM);
    if (n_cand < 0 || n_theirs < 0) Py_RETURN_NONE;
    /* every cell of both routes once, in the order dict.fromkeys(cand + theirs) gives */
    Py_ssize_t n_order = 0;
    for (Py_ssize_t k = 0; k < n_cand + n_theirs; k++) {
        long c = k < n_cand ? cand[k] : theirs[k - n_cand];
        if (!has_cell(order, n_order, c)) order[n_order++] = c;
    }
    /* the layers are held: Python code runs in the re-evaluations */
    Py_INCREF(me.values);
    if (defends) Py_INCREF(them.values);
    double best_score = PyFloat_AS_DOUBLE(min_gain_o);
    long best_cell = -1, best_rot = 0;
    PyObject *result = NULL;
    for (Py_ssize_t k = 0; k < n_order; k++) {
        long cell = order[k];
        double mine, theirs_v = HUGE_VAL, v;
        if (layer_at(me.values, cell, &mine)) goto fallback;
        if (mine == 0.0) continue;
        int in_cand = has_cell(cand, n_cand, cell), in_theirs = defends && has_cell(theirs, n_theirs, cell);
        if (in_theirs && layer_at(them.values, cell, &theirs_v)) goto fallback;
        if (!in_theirs || theirs_v == HUGE_VAL) {
            /* only its own gain counts: no turn gains more than all six sides open would */
            double gain = 0.0;
            if (in_cand && mine < HUGE_VAL) {
                int got = local_remembered(&lb, &me, cell, all_exits, &v);
                if (got < 0) goto error;
                if (got) goto fallback;
                gain = mine - v;
            }
            if (gain <= best_score) continue;
        }
        PyObject *turns = PyObject_CallFunctionObjArgs(turns_fn, PyList_GET_ITEM(pattern, cell),
                                                       PyList_GET_ITEM(rotation, cell), hand, NULL);
        if (turns == NULL) goto error;
        long now;
        if (!PyTuple_CheckExact(turns) || small_int(PyList_GET_ITEM(board_mask, cell), 0, 64, &now)) {
            Py_DECREF(turns);
            goto fallback;
        }
        for (Py_ssize_t x = 0; x < PyTuple_GET_SIZE(turns); x++) {
            PyObject *pair = PyTuple_GET_ITEM(turns, x);
            long rot, mask;
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                small_int(PyTuple_GET_ITEM(pair, 0), 0, 6, &rot) || small_int(PyTuple_GET_ITEM(pair, 1), 0, 64, &mask)) {
                Py_DECREF(turns);
                goto fallback;
            }
            if (mask == now) continue;
            double score = 0.0;
            if (in_cand && mine < HUGE_VAL) {
                int got = local_remembered(&lb, &me, cell, mask, &v);
                if (got) {
                    Py_DECREF(turns);
                    if (got < 0) goto error;
                    goto fallback;
                }
                score += mine - v;
            }
            if (in_theirs && theirs_v < HUGE_VAL) {
                int got = local_remembered(&lb, &them, cell, mask, &v);
                if (got) {
                    Py_DECREF(turns);
                    if (got < 0) goto error;
                    goto fallback;
                }
                score += v - theirs_v;
            }
            if (score > best_score) {
                best_score = score;
                best_cell = cell;
                best_rot = rot;
            }
        }
        Py_DECREF(turns);
    }
    result = best_cell < 0 ? PyTuple_New(0) : Py_BuildValue("(ll)", best_cell, best_rot);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
    goto done;
error:
    result = NULL;
done:
    Py_DECREF(me.values);
    if (defends) Py_DECREF(them.values);
    return result;
}

/* ---- the terrain search's own searches ------------------------------------------------------ */

/* The arc (cell, cost, level change) ``t`` of a board's arc lists: 0; 1 for a value it does not take. */
static int arc_of(PyObject *t, Py_ssize_t n, Py_ssize_t *cell, long *cost, long *delta) {
    if (cell_and_cost(t, 3, n, STEP_LIMIT, cell, cost)) return 1;
    return small_int(PyTuple_GET_ITEM(t, 2), -1000, 1001, delta);
}

#define UP3_SCALE 1048576.0 /* (cost, up-3 steps) as one double: cost * 2**20 + steps, exact below 2**32 */

/* cheapest_path(arcs, start, goal, climb) -> (cells, cost), () when goal is out of reach, or None for inputs it
 * does not take: terragen.terrain.paths.cheapest_path's search (the reference) on passable start and goal.
 * Its heap pops (cost, up-3 steps, cell) in order; every such key is pushed once (a cell's key only falls),
 * so any heap pops them in the reference's order and the same predecessors are kept. */
static PyObject *cheapest_path(PyObject *self, PyObject *args) {
    PyObject *arcs, *start_o, *goal_o, *climb_o;
    if (!PyArg_ParseTuple(args, "OOOO", &arcs, &start_o, &goal_o, &climb_o)) return NULL;
    if (!PyList_CheckExact(arcs)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(arcs);
    long start, goal, climb;
    if (small_int(start_o, 0, (long)n, &start) || small_int(goal_o, 0, (long)n, &goal) ||
        small_int(climb_o, -1000, 1001, &climb))
        Py_RETURN_NONE;
    double *best = (double *)malloc((size_t)n * sizeof(double));
    Py_ssize_t *prev = (Py_ssize_t *)malloc((size_t)n * sizeof(Py_ssize_t));
    Py_ssize_t *path = (Py_ssize_t *)malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    Heap heap = {NULL, 0, 0};
    PyObject *result = NULL;
    if (best == NULL || prev == NULL || path == NULL) goto nomem;
    for (Py_ssize_t x = 0; x < n; x++) {
        best[x] = HUGE_VAL;
        prev[x] = -1;
    }
    best[start] = 0.0;
    if (heap_push(&heap, 0.0, (Py_ssize_t)start) < 0) goto nomem;
    while (heap.size) {
        Key top = heap_pop(&heap);
        Py_ssize_t i = top.k;
        if (top.v > best[i]) continue;
        if (i == goal) break;
        double d = floor(top.v / UP3_SCALE), u3 = top.v - d * UP3_SCALE;
        PyObject *out = PyList_GET_ITEM(arcs, i);
        if (!PyList_CheckExact(out)) goto fallback;
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
            Py_ssize_t j;
            long c, delta;
            if (arc_of(PyList_GET_ITEM(out, a), n, &j, &c, &delta)) goto fallback;
            double nd = d + (double)c, nu = u3 + (delta == climb);
            if (nd >= 4294967296.0 || nu >= UP3_SCALE) goto fallback;
            double key = nd * UP3_SCALE + nu;
            if (key < best[j]) {
                best[j] = key;
                prev[j] = i;
                if (heap_push(&heap, key, j) < 0) goto nomem;
            }
        }
    }
    if (best[goal] == HUGE_VAL) {
        result = PyTuple_New(0);
        goto done;
    }
    Py_ssize_t size = 0;
    for (Py_ssize_t x = (Py_ssize_t)goal;; x = prev[x]) {
        if (size > n) goto fallback; /* (a cycle of predecessors cannot happen; refuse rather than loop) */
        path[size++] = x;
        if (x == (Py_ssize_t)start) break;
    }
    PyObject *cells = PyTuple_New(size);
    if (cells == NULL) goto done;
    for (Py_ssize_t k = 0; k < size; k++) {
        PyObject *c = PyLong_FromSsize_t(path[size - 1 - k]);
        if (c == NULL) {
            Py_DECREF(cells);
            goto done;
        }
        PyTuple_SET_ITEM(cells, k, c);
    }
    result = Py_BuildValue("(Nl)", cells, (long)floor(best[goal] / UP3_SCALE));
    goto done;
nomem:
    PyErr_NoMemory();
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    free(best);
    free(prev);
    free(path);
    free(heap.items);
    return result;
}

/* reachable_cells(arcs, start) -> set, or None for inputs it does not take: every cell a token on ``start`` can
 * ever get to (terragen.terrain.paths.reachable, the reference, on a passable start). */
static PyObject *reachable_cells(PyObject *self, PyObject *args) {
    PyObject *arcs, *start_o;
    if (!PyArg_ParseTuple(args, "OO", &arcs, &start_o)) return NULL;
    if (!PyList_CheckExact(arcs)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(arcs);
    long start;
    if (small_int(start_o, 0, (long)n, &start)) Py_RETURN_NONE;
    char *seen = (char *)calloc((size_t)n, 1);
    Py_ssize_t *stack = (Py_ssize_t *)malloc((size_t)n * sizeof(Py_ssize_t));
    PyObject *result = NULL;
    if (seen == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t top = 0;
    seen[start] = 1;
    stack[top++] = (Py_ssize_t)start;
    while (top) {
        Py_ssize_t i = stack[--top];
        PyObject *out = PyList_GET_ITEM(arcs, i);
        if (!PyList_CheckExact(out)) goto fallback;
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(out); a++) {
            Py_ssize_t j;
            long c, delta;
            if (arc_of(PyList_GET_ITEM(out, a), n, &j, &c, &delta)) goto fallback;
            if (!seen[j]) {
                seen[j] = 1;
                stack[top++] = j;
            }
        }
    }
    result = PySet_New(NULL);
    if (result == NULL) goto done;
    for (Py_ssize_t x = 0; x < n; x++) {
        if (!seen[x]) continue;
        PyObject *c = PyLong_FromSsize_t(x);
        if (c == NULL || PySet_Add(result, c) < 0) {
            Py_XDECREF(c);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(c);
    }
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    free(seen);
    free(stack);
    return result;
}

/* cliff_count(nbr, mask, level, climb) -> int or None: the pips that point at a neighbouring piece more than
 * ``climb`` levels away (terragen.terrain.generate.evaluate.cliff_exits, the reference). */
static PyObject *cliff_count(PyObject *self, PyObject *args) {
    PyObject *nbr, *mask, *level, *climb_o;
    if (!PyArg_ParseTuple(args, "OOOO", &nbr, &mask, &level, &climb_o)) return NULL;
    if (!PyList_CheckExact(nbr)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(nbr);
    PyObject *lists[] = {mask, level};
    long climb;
    if (!lists_of_length(lists, 2, n) || small_int(climb_o, 0, 1001, &climb)) Py_RETURN_NONE;
    long count = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(nbr, i);
        long m, li;
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) > 6 || small_int(PyList_GET_ITEM(mask, i), 0, 64, &m) ||
            small_int(PyList_GET_ITEM(level, i), -1000, 1001, &li))
            Py_RETURN_NONE;
        for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(row); d++) {
            long j, lj;
            if (small_int(PyTuple_GET_ITEM(row, d), -1, (long)n, &j)) Py_RETURN_NONE;
            if (j < 0 || !(m >> d & 1)) continue;
            if (small_int(PyList_GET_ITEM(level, j), -1000, 1001, &lj)) Py_RETURN_NONE;
            long delta = lj - li;
            if (delta < -climb || delta > climb) count++;
        }
    }
    return PyLong_FromLong(count);
}

/* board_arcs(i, nbr, level, mask, present, inverted, pip_arcs, elev_arcs, climb) -> True or None: piece i's
 * arcs in both move graphs (terragen.terrain.board.Board._rebuild_arcs_python, the reference) written into
 * pip_arcs[i] and elev_arcs[i]: (neighbour, step cost, level change) for every passable neighbour at most
 * ``climb`` levels away, in direction order, the pip graph's through the piece's exits only. None, with
 * nothing written, for inputs it does not take. */
static PyObject *board_arcs(PyObject *self, PyObject *args) {
    PyObject *i_o, *nbr, *level, *mask, *present, *inverted, *pip_arcs, *elev_arcs, *climb_o;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &i_o, &nbr, &level, &mask, &present, &inverted, &pip_arcs, &elev_arcs,
                          &climb_o))
        return NULL;
    if (!PyList_CheckExact(nbr)) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(nbr);
    PyObject *lists[] = {level, mask, present, inverted, pip_arcs, elev_arcs};
    long i, climb, m, li;
    if (!lists_of_length(lists, 6, n) || small_int(i_o, 0, (long)n, &i) || small_int(climb_o, 0, 1001, &climb))
        Py_RETURN_NONE;
    Cells b = {n, nbr, level, present, inverted, NULL};
    PyObject *pip = PyList_New(0), *elev = PyList_New(0), *result = NULL;
    if (pip == NULL || elev == NULL) goto done;
    int ok = passable_at(&b, (Py_ssize_t)i);
    if (ok < 0) goto fallback;
    if (ok) {
        PyObject *row = PyList_GET_ITEM(nbr, i);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) > 6 || small_int(PyList_GET_ITEM(mask, i), 0, 64, &m) ||
            small_int(PyList_GET_ITEM(level, i), -1000, 1001, &li))
            goto fallback;
        for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(row); d++) {
            long j, lj;
            if (small_int(PyTuple_GET_ITEM(row, d), -1, (long)n, &j)) goto fallback;
            if (j < 0) continue;
            int there = passable_at(&b, (Py_ssize_t)j);
            if (there < 0) goto fallback;
            if (!there) continue;
            if (small_int(PyList_GET_ITEM(level, j), -1000, 1001, &lj)) goto fallback;
            long delta = lj - li;
            if (delta < -climb || delta > climb) continue;
            long cost = delta == 0 ? 1 : (delta < 0 ? -delta : delta + 1); /* rules.step_cost */
            PyObject *arc = Py_BuildValue("(lll)", j, cost, delta);
            if (arc == NULL) goto done;
            int bad = PyList_Append(elev, arc) < 0 || ((m >> d & 1) && PyList_Append(pip, arc) < 0);
            Py_DECREF(arc);
            if (bad) goto done;
        }
    }
    PyList_SetItem(pip_arcs, i, pip); /* (steals the references) */
    PyList_SetItem(elev_arcs, i, elev);
    pip = elev = NULL;
    result = Py_True;
    Py_INCREF(result);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(pip);
    Py_XDECREF(elev);
    return result;
}

/* ---- a board state's reach after a turn of a piece --------------------------------------------- */

/* reach_patch(old_reach, i, room, new_reach, new_within, near, reach) -> (near,) or None: the part of
 * BoardCache.rotated (terragen/terrain/sim/cache.py, the reference: _patch_reach_python) that brings the new
 * board state's reach up to date after piece i turned. Every cell p whose old reach holds i at a cost of at
 * most ``room`` is stale: its entries leave new_within and new_reach, and with ``near`` (every cell's
 * sources, (p, cost) lists) its reach is made again by reach(p), which stores it in new_reach; near comes
 * back patched cell by cell in new inner lists where a cost from p changed (entries gone, then the new ones
 * in the order of the stale cells and of their reach), or the same list when none did. None, with nothing
 * changed, for an old reach it does not take (checked before anything is changed); errors afterwards are
 * Python's own (a missing key, a reach that is not a dict), as the reference would raise them. */
static PyObject *reach_patch(PyObject *self, PyObject *args) {
    PyObject *old_reach, *i_o, *room_o, *new_reach, *new_within, *near, *reach_fn;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &old_reach, &i_o, &room_o, &new_reach, &new_within, &near, &reach_fn))
        return NULL;
    long room;
    if (!PyDict_CheckExact(old_reach) || !PyDict_CheckExact(new_reach) || !PyDict_CheckExact(new_within) ||
        (near != Py_None && !PyList_CheckExact(near)) || small_int(room_o, -1, MAX_BUDGET + 1, &room))
        Py_RETURN_NONE;
    /* the stale cells, in the old reach's order */
    PyObject *stale = PyList_New(0);
    if (stale == NULL) return NULL;
    Py_ssize_t at = 0;
    PyObject *p_o, *r;
    while (PyDict_Next(old_reach, &at, &p_o, &r)) {
        if (!PyDict_CheckExact(r)) {
            Py_DECREF(stale);
            Py_RETURN_NONE;
        }
        PyObject *c_o = PyDict_GetItemWithError(r, i_o);
        if (c_o == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(stale);
                return NULL;
            }
            continue;
        }
        long c;
        if (small_int(c_o, 0, MAX_BUDGET + 1, &c)) {
            Py_DECREF(stale);
            Py_RETURN_NONE;
        }
        if (c <= room && PyList_Append(stale, p_o) < 0) {
            Py_DECREF(stale);
            return NULL;
        }
    }
    Py_ssize_t n = near == Py_None ? 0 : PyList_GET_SIZE(near);
    PyObject *gone = NULL, *added = NULL, *result = NULL, *patched = NULL;
    if (near != Py_None) {
        gone = PyDict_New();  /* q -> set of p */
        added = PyDict_New(); /* q -> list of (p, cost) */
        if (gone == NULL || added == NULL) goto done;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(stale); k++) {
        PyObject *p = PyList_GET_ITEM(stale, k);
        if (PyDict_DelItem(new_within, p) < 0) {
            if (!PyErr_ExceptionMatches(PyExc_KeyError)) goto done;
            PyErr_Clear();
        }
        PyObject *before = PyDict_GetItemWithError(new_reach, p);
        if (before == NULL) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, p);
            goto done;
        }
        Py_INCREF(before);
        if (PyDict_DelItem(new_reach, p) < 0) {
            Py_DECREF(before);
            goto done;
        }
        if (near == Py_None) {
            Py_DECREF(before);
            continue;
        }
        PyObject *after = PyObject_CallOneArg(reach_fn, p);
        if (after == NULL) {
            Py_DECREF(before);
            goto done;
        }
        int same = PyObject_RichCompareBool(after, before, Py_EQ);
        int bad = same < 0 || !PyDict_Check(before) || !PyDict_Check(after);
        if (!bad && !same) {
            PyObject *q, *c;
            Py_ssize_t pos = 0;
            while (!bad && PyDict_Next(before, &pos, &q, &c)) {
                int self_q = PyObject_RichCompareBool(q, p, Py_EQ);
                if (self_q < 0) { bad = 1; break; }
                if (self_q) continue;
                PyObject *now = PyDict_GetItemWithError(after, q);
                if (now == NULL && PyErr_Occurred()) { bad = 1; break; }
                int eq = now == NULL ? 0 : PyObject_RichCompareBool(now, c, Py_EQ);
                if (eq < 0) { bad = 1; break; }
                if (eq) continue;
                PyObject *set = PyDict_GetItemWithError(gone, q);
                if (set == NULL) {
                    if (PyErr_Occurred() || (set = PySet_New(NULL)) == NULL) { bad = 1; break; }
                    int put = PyDict_SetItem(gone, q, set);
                    Py_DECREF(set);
                    if (put < 0) { bad = 1; break; }
                }
                if (PySet_Add(set, p) < 0) bad = 1;
            }
            pos = 0;
            while (!bad && PyDict_Next(after, &pos, &q, &c)) {
                int self_q = PyObject_RichCompareBool(q, p, Py_EQ);
                if (self_q < 0) { bad = 1; break; }
                if (self_q) continue;
                PyObject *was = PyDict_GetItemWithError(before, q);
                if (was == NULL && PyErr_Occurred()) { bad = 1; break; }
                int eq = was == NULL ? 0 : PyObject_RichCompareBool(was, c, Py_EQ);
                if (eq < 0) { bad = 1; break; }
                if (eq) continue;
                PyObject *list = PyDict_GetItemWithError(added, q);
                if (list == NULL) {
                    if (PyErr_Occurred() || (list = PyList_New(0)) == NULL) { bad = 1; break; }
                    int put = PyDict_SetItem(added, q, list);
                    Py_DECREF(list);
                    if (put < 0) { bad = 1; break; }
                }
                PyObject *entry = PyTuple_Pack(2, p, c);
                if (entry == NULL || PyList_Append(list, entry) < 0) bad = 1;
                Py_XDECREF(entry);
            }
        }
        Py_DECREF(after);
        Py_DECREF(before);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a reach that is not a dict");
            goto done;
        }
    }
    if (near != Py_None && (PyDict_GET_SIZE(gone) || PyDict_GET_SIZE(added))) {
        /* new inner lists only where they change (the old ones belong to the old state) */
        patched = PyList_GetSlice(near, 0, n);
        if (patched == NULL) goto done;
        PyObject *dicts[2] = {gone, added};
        for (int w = 0; w < 2; w++) {
            PyObject *q, *v;
            Py_ssize_t pos = 0;
            while (PyDict_Next(dicts[w], &pos, &q, &v)) {
                if (w == 1 && PyDict_Contains(gone, q)) continue; /* (done with the gone ones) */
                Py_ssize_t qi = PyNumber_AsSsize_t(q, PyExc_IndexError);
                if (qi == -1 && PyErr_Occurred()) goto done;
                if (qi < 0 || qi >= n) {
                    PyErr_SetString(PyExc_IndexError, "list index out of range");
                    goto done;
                }
                PyObject *old_row = PyList_GET_ITEM(near, qi);
                if (!PyList_Check(old_row)) {
                    PyErr_SetString(PyExc_TypeError, "a row of near that is not a list");
                    goto done;
                }
                PyObject *out = PyDict_GetItemWithError(gone, q), *row = PyList_New(0);
                if (row == NULL || (out == NULL && PyErr_Occurred())) {
                    Py_XDECREF(row);
                    goto done;
                }
                for (Py_ssize_t e = 0; e < PyList_GET_SIZE(old_row); e++) {
                    PyObject *entry = PyList_GET_ITEM(old_row, e);
                    if (out != NULL) {
                        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 1) {
                            Py_DECREF(row);
                            PyErr_SetString(PyExc_TypeError, "an entry of near that is not a pair");
                            goto done;
                        }
                        int drop = PySet_Contains(out, PyTuple_GET_ITEM(entry, 0));
                        if (drop < 0) {
                            Py_DECREF(row);
                            goto done;
                        }
                        if (drop) continue;
                    }
                    if (PyList_Append(row, entry) < 0) {
                        Py_DECREF(row);
                        goto done;
                    }
                }
                PyObject *more = PyDict_GetItemWithError(added, q);
                if (more == NULL && PyErr_Occurred()) {
                    Py_DECREF(row);
                    goto done;
                }
                if (more != NULL) {
                    Py_ssize_t size = PyList_GET_SIZE(row);
                    if (PyList_SetSlice(row, size, size, more) < 0) {
                        Py_DECREF(row);
                        goto done;
                    }
                }
                PyList_SetItem(patched, qi, row); /* (steals row) */
            }
        }
        result = PyTuple_Pack(1, patched);
    } else {
        result = PyTuple_Pack(1, near);
    }
done:
    Py_DECREF(stale);
    Py_XDECREF(gone);
    Py_XDECREF(added);
    Py_XDECREF(patched);
    return result;
}

/* ---- race_wins --------------------------------------------------------------------------------- */

/* numpy's pairwise summation of a contiguous row of doubles (what ndarray.sum over the last axis does
 * with it: eight running sums over blocks of up to 128, halves above that), so that race_wins sums as
 * terragen.terrain.race.win_probabilities_by_opener does, to the last bit */
static double pairwise_sum(const double *a, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.;
        for (Py_ssize_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

/* race_wins(cdfs, horizon): wins[first][seat] as terragen.terrain.race.win_probabilities_by_opener
 * computes them (the reference, with numpy): the same differences, the same products in the same
 * order (a seat's own factor there is 1.0, which changes no float, so it is skipped here) and the
 * same pairwise sums. None for inputs it does not take (a cdf that is not a non-empty sequence of
 * floats, a horizon below a cdf's own). */
static PyObject *race_wins(PyObject *self, PyObject *args) {
    PyObject *cdfs;
    Py_ssize_t horizon;
    if (!PyArg_ParseTuple(args, "On", &cdfs, &horizon))
        return NULL;
    if (!PyList_Check(cdfs) && !PyTuple_Check(cdfs))
        Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cdfs);
    if (n < 1 || horizon < 0 || horizon > 100000000 / n)
        Py_RETURN_NONE;
    Py_ssize_t width = horizon + 1;
    double *F = PyMem_Malloc(sizeof(double) * (size_t)(n * width + horizon + 1));
    if (F == NULL)
        return PyErr_NoMemory();
    double *w = F + n * width;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cdf = PySequence_Fast_ITEMS(cdfs)[i];
        if (!PyTuple_Check(cdf) && !PyList_Check(cdf))
            goto not_taken;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(cdf);
        if (len < 1 || len > width)
            goto not_taken;
        PyObject **items = PySequence_Fast_ITEMS(cdf);
        for (Py_ssize_t t = 0; t < len; t++) {
            if (!PyFloat_CheckExact(items[t]))
                goto not_taken;
            F[i * width + t] = PyFloat_AS_DOUBLE(items[t]);
        }
        for (Py_ssize_t t = len; t < width; t++)
            F[i * width + t] = F[i * width + len - 1];
    }
    result = PyList_New(n);
    if (result == NULL)
        goto done;
    for (Py_ssize_t first = 0; first < n; first++) {
        PyObject *row = PyList_New(n);
        if (row == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, first, row);
        for (Py_ssize_t seat = 0; seat < n; seat++) {
            const double *own = F + seat * width;
            for (Py_ssize_t t = 0; t < horizon; t++)
                w[t] = own[t + 1] - own[t];  /* finishes in round t + 1 */
            Py_ssize_t place = ((seat - first) % n + n) % n;
            for (Py_ssize_t k = 0; k < n; k++) {
                Py_ssize_t other = (first + k) % n;
                if (other == seat)
                    continue;
                /* still racing at the end of the round (seats before it) or of the round before */
                const double *f = F + other * width + (k < place ? 1 : 0);
                for (Py_ssize_t t = 0; t < horizon; t++)
                    w[t] *= 1.0 - f[t];
            }
            PyObject *v = PyFloat_FromDouble(pairwise_sum(w, horizon));
            if (v == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SET_ITEM(row, seat, v);
        }
    }
    goto done;
not_taken:
    PyMem_Free(F);
    Py_RETURN_NONE;
done:
    PyMem_Free(F);
    return result;
}

/* pair_sweeps: terragen.terrain.sim.convoy._sweep_python, the joint values of a team's pairs of cells
 * brought to their fixed point (values[p] = min(values[p], cost[r][p] + values[nxt[r][p]]) over the rows
 * r). Why the same numbers: every value stays the cost of a real way on (or its start), and a sweep with
 * nothing left to lower is the one fixed point at or below the start (every step costs at least 1), so
 * the order the pairs are lowered in does not matter. Here each value is lowered in place, the sweeps
 * alternate direction, so far fewer sweeps are needed than the reference's one step a sweep. */
static int int32_buffer(Py_buffer *b) {
    return b->itemsize == 4 && b->format != NULL && (strcmp(b->format, "i") == 0 || strcmp(b->format, "=i") == 0
                                                      || strcmp(b->format, "<i") == 0);
}

static PyObject *pair_sweeps(PyObject *self, PyObject *args) {
    PyObject *vo, *no, *co;
    if (!PyArg_ParseTuple(args, "OOO", &vo, &no, &co))
        return NULL;
    Py_buffer vb, nb, cb;
    if (PyObject_GetBuffer(vo, &vb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (PyObject_GetBuffer(no, &nb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyBuffer_Release(&vb);
        Py_RETURN_NONE;
    }
    if (PyObject_GetBuffer(co, &cb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyBuffer_Release(&vb);
        PyBuffer_Release(&nb);
        Py_RETURN_NONE;
    }
    PyObject *result = Py_None;
    Py_ssize_t size = vb.itemsize ? vb.len / vb.itemsize : 0;
    int ok = int32_buffer(&vb) && int32_buffer(&cb) && nb.itemsize == (Py_ssize_t)sizeof(Py_ssize_t)
             && nb.format != NULL && strchr("nlq", nb.format[strlen(nb.format) - 1]) != NULL
             && size > 0 && nb.len / nb.itemsize == cb.len / cb.itemsize
             && (cb.len / cb.itemsize) % size == 0;
    if (ok) {
        int32_t *v = (int32_t *)vb.buf;
        const Py_ssize_t *nxt = (const Py_ssize_t *)nb.buf;
        const int32_t *cost = (const int32_t *)cb.buf;
        Py_ssize_t rows = (cb.len / cb.itemsize) / size;
        for (Py_ssize_t k = 0; k < rows * size && ok; k++)
            ok = nxt[k] >= 0 && nxt[k] < size && cost[k] >= 0 && cost[k] <= (1 << 28);
        for (Py_ssize_t p = 0; p < size && ok; p++)
            ok = v[p] >= 0 && v[p] <= (1 << 28);
        if (ok) {
            int changed = 1;
            for (int forward = 1; changed; forward = !forward) {
                changed = 0;
                for (Py_ssize_t i = 0; i < size; i++) {
                    Py_ssize_t p = forward ? i : size - 1 - i;
                    int32_t best = v[p];
                    for (Py_ssize_t r = 0; r < rows; r++) {
                        int32_t c = cost[r * size + p] + v[nxt[r * size + p]];
                        if (c < best)
                            best = c;
                    }
                    if (best < v[p]) {
                        v[p] = best;
                        changed = 1;
                    }
                }
            }
            result = Py_True;
        }
    }
    PyBuffer_Release(&vb);
    PyBuffer_Release(&nb);
    PyBuffer_Release(&cb);
    Py_INCREF(result);
    return result;
}

/* trio_values: terragen.terrain.sim.convoy_trio._trio_values_python, a team of three's joint values
 * over the triples of cells its steps can reach from given ones. A triple (a, b, c) is numbered
 * (a * N1 + b) * N1 + c. Inputs (C-contiguous): way (intp, k x N1: a cell's arc slots' directions, 6 for
 * none), cost (int32, k x N1), nbr (intp, N1 x 7: a cell's neighbour in each direction, N1 - 1 (the
 * padding cell) for none), dist (int32, N1 x N1: hex distances), fin (int32, 3 x N1: per teammate and end
 * cell, -1 when a step there collects nothing, else what that teammate still walks after it), lone
 * (int32, 3 x N1: each one's own cheapest tour now), seeds (intp: triples' numbers, three distinct cells
 * each), near (the team distance), far. A step is one teammate's arc to a cell no teammate holds that
 * leaves every gap of its within max(near, that gap now). Returns (keys, values), two bytes objects of
 * int32: the valued triples' numbers in ascending order and their values; None for inputs it does not
 * take. The valued triples are the seeds and every triple their steps lead to, a set closed under the
 * steps, each valued as on the whole board (the fixed point of pair_sweeps, reached here in one pass
 * by lowest value first, as Dijkstra's search does: the values are whole numbers and the steps' costs
 * not negative, so any order of lowering ends at the same numbers).
 *
 * Why the numbering, not a table of the triples a team this close can stand on: the tables differed
 * with every three gaps, and building them took longer than the searches. Why a workspace kept from
 * call to call: a planning trio searches afresh on most board states, and allocating and clearing the
 * N1**3 lookup each time was a tenth of a search (only the entries a search set are cleared after it). */
static int intp_buffer(Py_buffer *b) {
    return b->itemsize == (Py_ssize_t)sizeof(Py_ssize_t) && b->format != NULL
           && strchr("nlq", b->format[strlen(b->format) - 1]) != NULL;
}

#define TRIO_BUFFERS 7

typedef struct {
    int32_t *slot;     /* per triple number: its place in the reached order, -1 when not reached */
    uint64_t *bits;    /* per triple number: reached (to list them in ascending order), all clear between calls */
    Py_ssize_t cube;   /* how many triple numbers slot and bits hold */
    int32_t *order;    /* the reached triples' numbers, in the order reached */
    int32_t *w;        /* their values */
    uint64_t *heap;    /* a binary heap of places by value (see trio_push) */
    Py_ssize_t heapcap;
    uint8_t *done;     /* per place: taken off the heap at its final value */
    Py_ssize_t *start; /* per place: its first edge; per place + 1 the end */
    Py_ssize_t *rstart;/* per place: its first reversed edge */
    Py_ssize_t places;
    int32_t *nx, *cs;  /* per edge: the place it leads to, its cost */
    int32_t *rfrom, *rcs; /* reversed edges, grouped by the place they lead to: where from, the cost */
    Py_ssize_t edges;
} TrioWork;

static TrioWork trio_work = {0};

/* grow *p to hold n items of size each; 0 on success */
static int trio_grow(void **p, Py_ssize_t *have, Py_ssize_t n, size_t each) {
    if (n <= *have)
        return 0;
    Py_ssize_t size = *have ? *have : 1 << 14;
    while (size < n)
        size *= 2;
    void *q = PyMem_Realloc(*p, (size_t)size * each);
    if (q == NULL)
        return -1;
    *p = q;
    *have = size;
    return 0;
}

static int trio_room_cube(TrioWork *t, Py_ssize_t cube) {
    if (cube <= t->cube)
        return 0;
    int32_t *slot = PyMem_Realloc(t->slot, (size_t)cube * sizeof(int32_t));
    if (slot == NULL)
        return -1;
    t->slot = slot;
    Py_ssize_t words = cube / 64 + 1;
    uint64_t *bits = PyMem_Realloc(t->bits, (size_t)words * sizeof(uint64_t));
    if (bits == NULL)
        return -1;
    t->bits = bits;
    memset(t->slot, 0xff, (size_t)cube * sizeof(int32_t));
    memset(t->bits, 0, (size_t)words * sizeof(uint64_t));
    t->cube = cube;
    return 0;
}

/* grow every array of ``fields`` (items of ``sizes`` bytes each) from *have to hold n items; 0 on success.
 * An array grown before one that failed is only larger than *have says, which is harmless. */
static int trio_grow_all(void **fields[], const size_t sizes[], int m, Py_ssize_t *have, Py_ssize_t n) {
    Py_ssize_t h = *have;
    for (int i = 0; i < m; i++) {
        h = *have;
        if (trio_grow(fields[i], &h, n, sizes[i]) < 0)
            return -1;
    }
    *have = h;
    return 0;
}

static int trio_room_places(TrioWork *t, Py_ssize_t n) {
    void **fields[] = {(void **)&t->order, (void **)&t->w, (void **)&t->done, (void **)&t->start,
                       (void **)&t->rstart};
    const size_t sizes[] = {sizeof(int32_t), sizeof(int32_t), sizeof(uint8_t), sizeof(Py_ssize_t),
                            sizeof(Py_ssize_t)};
    return trio_grow_all(fields, sizes, 5, &t->places, n);
}

static int trio_room_edges(TrioWork *t, Py_ssize_t n) {
    void **fields[] = {(void **)&t->nx, (void **)&t->cs, (void **)&t->rfrom, (void **)&t->rcs};
    const size_t sizes[] = {sizeof(int32_t), sizeof(int32_t), sizeof(int32_t), sizeof(int32_t)};
    return trio_grow_all(fields, sizes, 4, &t->edges, n);
}

/* the heap of places, each entry its value when pushed (high half) and its place (low half): push, and
 * pop the least. A place lowered again is pushed again; its older entries come out later and are passed
 * over (``done``). */
static void trio_push(uint64_t *heap, Py_ssize_t *size, int32_t value, int32_t place) {
    uint64_t key = (uint64_t)(uint32_t)value << 32 | (uint32_t)place;
    Py_ssize_t i = (*size)++;
    while (i > 0) {
        Py_ssize_t up = (i - 1) / 2;
        if (heap[up] <= key)
            break;
        heap[i] = heap[up];
        i = up;
    }
    heap[i] = key;
}

static int32_t trio_pop(uint64_t *heap, Py_ssize_t *size) {
    uint64_t top = heap[0], last = heap[--(*size)];
    Py_ssize_t i = 0, n = *size;
    for (;;) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && heap[c + 1] < heap[c])
            c++;
        if (heap[c] >= last)
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (n > 0)
        heap[i] = last;
    return (int32_t)(top & 0xffffffffu);
}

static PyObject *trio_values(PyObject *self, PyObject *args) {
    PyObject *obj[TRIO_BUFFERS];
    long near, far;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOll", &obj[0], &obj[1], &obj[2], &obj[3], &obj[4], &obj[5], &obj[6],
                          &near, &far))
        return NULL;
    Py_buffer b[TRIO_BUFFERS];
    int got = 0;
    for (; got < TRIO_BUFFERS; got++) {
        if (PyObject_GetBuffer(obj[got], &b[got], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            PyErr_Clear();
            break;
        }
    }
    PyObject *result = Py_None;
    TrioWork *t = &trio_work;
    Py_ssize_t count = 0;
    const Py_ssize_t P = (Py_ssize_t)sizeof(Py_ssize_t);
    if (got == TRIO_BUFFERS && intp_buffer(&b[0]) && int32_buffer(&b[1]) && intp_buffer(&b[2])
        && int32_buffer(&b[3]) && int32_buffer(&b[4]) && int32_buffer(&b[5]) && intp_buffer(&b[6])
        && far > 0 && far <= (1L << 28) && near >= 0 && near < 1000) {
        Py_ssize_t N1 = b[4].len / 12;
        Py_ssize_t k = N1 ? b[0].len / P / N1 : 0, pad = N1 - 1, S = b[6].len / P, cube = N1 * N1 * N1;
        int ok = N1 > 1 && N1 <= 512 && k > 0 && b[0].len == k * N1 * P && b[1].len == k * N1 * 4
                 && b[2].len == N1 * 7 * P && b[3].len == N1 * N1 * 4 && b[5].len == b[4].len;
        const Py_ssize_t *way = (const Py_ssize_t *)b[0].buf, *nbr = (const Py_ssize_t *)b[2].buf;
        const int32_t *cost = (const int32_t *)b[1].buf, *dist = (const int32_t *)b[3].buf;
        const int32_t *fin = (const int32_t *)b[4].buf, *lone = (const int32_t *)b[5].buf;
        const Py_ssize_t *seeds = (const Py_ssize_t *)b[6].buf;
        for (Py_ssize_t i = 0; i < k * N1 && ok; i++)
            ok = way[i] >= 0 && way[i] <= 6 && cost[i] >= 0 && cost[i] <= far;
        for (Py_ssize_t i = 0; i < N1 * 7 && ok; i++)
            ok = nbr[i] >= 0 && nbr[i] < N1;
        for (Py_ssize_t i = 0; i < N1 * N1 && ok; i++)
            ok = dist[i] >= 0 && dist[i] == dist[(i % N1) * N1 + i / N1]; /* read by rows: symmetric */
        for (Py_ssize_t i = 0; i < 3 * N1 && ok; i++)
            ok = fin[i] >= -1 && fin[i] <= far && lone[i] >= 0 && lone[i] <= far;
        for (Py_ssize_t i = 0; i < S && ok; i++) {
            Py_ssize_t q = seeds[i], x = q / (N1 * N1), y = (q / N1) % N1, z = q % N1;
            ok = q >= 0 && q < cube && x != pad && y != pad && z != pad && x != y && x != z && y != z;
        }
        /* each cell's arcs as (the cell it leads to, cost), pad for none: read per step */
        int32_t *to_of = NULL, *cost_of = NULL;
        if (ok) {
            to_of = PyMem_Malloc((size_t)(k * N1) * sizeof(int32_t));
            cost_of = PyMem_Malloc((size_t)(k * N1) * sizeof(int32_t));
            if (to_of == NULL || cost_of == NULL || trio_room_cube(t, cube) < 0
                || trio_room_places(t, S + 1) < 0) {
                PyErr_NoMemory();
                result = NULL;
                ok = 0;
            }
        }
        if (ok)
            for (Py_ssize_t cell = 0; cell < N1; cell++)
                for (Py_ssize_t j = 0; j < k; j++) {
                    Py_ssize_t d = way[j * N1 + cell];
                    int32_t c = cost[j * N1 + cell];
                    Py_ssize_t to = (d == 6 || c >= far) ? pad : nbr[cell * 7 + d];
                    to_of[cell * k + j] = (int32_t)to;
                    cost_of[cell * k + j] = c;
                }
        Py_ssize_t used = 0;
        for (Py_ssize_t i = 0; ok && i < S; i++)
            if (t->slot[seeds[i]] < 0) {
                t->slot[seeds[i]] = (int32_t)count;
                t->order[count++] = (int32_t)seeds[i];
            }
        /* reach every triple the steps lead to; per triple its edges and its best collecting step */
        for (Py_ssize_t i = 0; ok && i < count; i++) {
            Py_ssize_t q = t->order[i];
            Py_ssize_t at[3] = {q / (N1 * N1), (q / N1) % N1, q % N1};
            int32_t best = (int32_t)far;
            if (trio_room_edges(t, used + 3 * k) < 0 || trio_room_places(t, count + 3 * k + 1) < 0) {
                PyErr_NoMemory();
                result = NULL;
                ok = 0;
                break;
            }
            t->start[i] = used;
            for (int me = 0; me < 3; me++) {
                Py_ssize_t cell = at[me];
                int o1 = me == 0 ? 1 : 0, o2 = me == 2 ? 1 : 2;
                const int32_t *row1 = dist + at[o1] * N1, *row2 = dist + at[o2] * N1;
                int32_t lim1 = row1[cell] > near ? row1[cell] : (int32_t)near;
                int32_t lim2 = row2[cell] > near ? row2[cell] : (int32_t)near;
                long others = (long)lone[o1 * N1 + at[o1]] + lone[o2 * N1 + at[o2]];
                Py_ssize_t base = q - cell * (me == 0 ? N1 * N1 : me == 1 ? N1 : 1);
                Py_ssize_t scale = me == 0 ? N1 * N1 : me == 1 ? N1 : 1;
                const int32_t *tos = to_of + cell * k, *css = cost_of + cell * k;
                for (Py_ssize_t j = 0; j < k; j++) {
                    Py_ssize_t to = tos[j];
                    if (to == pad || to == at[o1] || to == at[o2] || row1[to] > lim1 || row2[to] > lim2)
                        continue;
                    int32_t c = css[j];
                    int32_t after = fin[me * N1 + to];
                    if (after >= 0) {
                        long total = (long)c + after + others;
                        if (total < best)
                            best = (int32_t)total;
                        continue;
                    }
                    Py_ssize_t n = base + to * scale;
                    int32_t s = t->slot[n];
                    if (s < 0) {
                        s = t->slot[n] = (int32_t)count;
                        t->order[count++] = (int32_t)n;
                    }
                    t->nx[used] = s;
                    t->cs[used++] = c;
                }
            }
            t->w[i] = best;
        }
        if (ok) {
            t->start[count] = used;
            /* the reversed edges, grouped by the place they lead to (a counting sort) */
            Py_ssize_t *rs = t->rstart;
            for (Py_ssize_t i = 0; i <= count; i++)
                rs[i] = 0;
            for (Py_ssize_t e = 0; e < used; e++)
                rs[t->nx[e] + 1]++;
            for (Py_ssize_t i = 0; i < count; i++)
                rs[i + 1] += rs[i];
            for (Py_ssize_t i = 0; i < count; i++)
                for (Py_ssize_t e = t->start[i]; e < t->start[i + 1]; e++) {
                    Py_ssize_t at = rs[t->nx[e]]++;
                    t->rfrom[at] = (int32_t)i;
                    t->rcs[at] = t->cs[e];
                }
            for (Py_ssize_t i = count; i > 0; i--)
                rs[i] = rs[i - 1];
            rs[0] = 0;
            /* lowest value first: a place's value is final when it leaves the heap, which holds at most
             * every place once and every edge's lowering once */
            Py_ssize_t size = 0;
            if (trio_grow((void **)&t->heap, &t->heapcap, count + used + 1, sizeof(uint64_t)) < 0) {
                PyErr_NoMemory();
                result = NULL;
                ok = 0;
            }
            for (Py_ssize_t i = 0; ok && i < count; i++) {
                t->done[i] = 0;
                if (t->w[i] < far)
                    trio_push(t->heap, &size, t->w[i], (int32_t)i);
            }
            while (size > 0) {
                int32_t p = trio_pop(t->heap, &size);
                if (t->done[p])
                    continue;
                t->done[p] = 1;
                int32_t v = t->w[p];
                for (Py_ssize_t r = rs[p]; r < rs[p + 1]; r++) {
                    int32_t from = t->rfrom[r], c = t->rcs[r] + v;
                    if (!t->done[from] && c < t->w[from]) {
                        t->w[from] = c;
                        trio_push(t->heap, &size, c, from);
                    }
                }
            }
        }
        if (ok) {
            PyObject *kb = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 4));
            PyObject *vb = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 4));
            if (kb == NULL || vb == NULL) {
                Py_XDECREF(kb);
                Py_XDECREF(vb);
                result = NULL;
            } else {
                int32_t *ko = (int32_t *)PyBytes_AS_STRING(kb), *vo = (int32_t *)PyBytes_AS_STRING(vb);
                for (Py_ssize_t i = 0; i < count; i++) {
                    Py_ssize_t n = t->order[i];
                    t->bits[n >> 6] |= (uint64_t)1 << (n & 63);
                }
                Py_ssize_t out = 0;
                for (Py_ssize_t word = 0; out < count; word++) {
                    uint64_t bitsw = t->bits[word];
                    t->bits[word] = 0;
                    while (bitsw) {
                        int bit = __builtin_ctzll(bitsw);
                        bitsw &= bitsw - 1;
                        Py_ssize_t n = (word << 6) | bit;
                        ko[out] = (int32_t)n;
                        vo[out++] = t->w[t->slot[n]];
                    }
                }
                result = Py_BuildValue("(NN)", kb, vb);
            }
        }
        /* leave the lookup as found: only what this search set */
        for (Py_ssize_t i = 0; i < count; i++)
            t->slot[t->order[i]] = -1;
        PyMem_Free(to_of);
        PyMem_Free(cost_of);
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    if (result == Py_None)
        Py_INCREF(result);
    return result;
}

static PyMethodDef methods[] = {
    {"pack_near", pack_near, METH_O,
     "pack_near(near) -> bytes or None: the sources list in the packed form solve also takes"},
    {"solve", solve, METH_VARARGS,
     "solve(n, near, landing, at_least) -> (values, in_order), or None for inputs it does not take: one "
     "layer of exact expected turns (terragen.terrain.expected.solve_layer_in_order_python, the reference, "
     "says what each argument is)."},
    {"repair_distances", repair_distances, METH_VARARGS,
     "repair_distances(d, rev, arcs, i) -> list or None: the costs d to a set of goals after the exits of "
     "piece i changed (terragen.terrain.sim.cache.repair_after_turn_python, the reference, says what each "
     "argument is); d itself when nothing changed; None for inputs it does not take (then Python runs)."},
    {"bounded_reach", bounded_reach, METH_VARARGS,
     "bounded_reach(arcs, start, limit) -> dict or None: the cheapest cost from start to every cell within "
     "limit, keys in the order the reference (terragen.terrain.sim.cache.bounded_reach_python) adds them; "
     "None for inputs it does not take (then Python runs)."},
    {"reach_tree", reach_tree, METH_VARARGS,
     "reach_tree(arcs, start, stuck) -> dict or None: every cell reachable from start mapped to the cell it is "
     "first reached from, as terragen.terrain.analysis._reach_tree_python gives it; None for inputs it does "
     "not take."},
    {"greedy_move", greedy_move, METH_VARARGS,
     "greedy_move(options, gains, base, pip, elev, rank, tours, groups) -> cell or None: the greedy "
     "player's move among options (cell -> points), as GreedyPolicy.choose_move makes it outside team play "
     "(terragen.terrain.sim.plain_game says what each argument is); None for inputs it does not take "
     "(then Python chooses)."},
    {"own_rotation", own_rotation, METH_VARARGS,
     "own_rotation(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length, board_mask, turns_of, nbr, "
     "level, present, inverted, steps) -> (cell, rotation), () or None: the greedy player's own turn of a "
     "piece on doubles (GreedyPolicy._find_own_rotation, the reference; terragen.terrain.sim.plain_game says "
     "what each argument is), () when no turn helps, None for inputs it does not take (then Python chooses)."},
    {"seat_route", seat_route, METH_VARARGS,
     "seat_route(pos, mask, t, elev_t, gains, pip_arcs, elev_arcs, rank, length) -> list or None: the first ``length`` "
     "cells of a seat's cheapest tour from ``pos`` (_route in terragen.terrain.sim.policies, the reference; "
     "elev_t, the tour with pips ignored, is needed only when t[pos] is inf); None for inputs it does not take "
     "(then Python works it out)."},
    {"local_value", local_value, METH_VARARGS,
     "local_value(exits, reach_store, reach, values, gains, here, table, cell, roll_counts) -> float or None: for "
     "an expert player weighing a turn of piece ``cell``, the expected turns there with exits ``exits`` and "
     "every other value held (ExpertPolicy._find_local, the reference, says what each argument is; roll_counts: "
     "rolls per budget 0..6); None for inputs it does not take (then Python computes it)."},
    {"expert_turn", expert_turn, METH_VARARGS,
     "expert_turn(cand, theirs, me, them, pattern, rotation, board_mask, hand, turns, exits_as, reach_store, reach, "
     "memo, prefix, roll_counts, min_gain, all_exits) -> (cell, rotation), () or None: the expert player's turn "
     "of a piece on doubles among the cells of its own route ``cand`` and the defended leader's ``theirs``, as "
     "ExpertPolicy.choose_rotation weighs them (the reference; terragen.terrain.sim.expert_kernels says what "
     "each argument is); () when no turn is worth it, None for inputs it does not take (then Python chooses)."},
    {"expert_move", expert_move, METH_VARARGS,
     "expert_move(options, gains, base, table, rank, tours, groups) -> cell or None: the expert player's move "
     "among options (cell -> points), as ExpertPolicy.choose_move makes it outside team play (the reference, "
     "which says what each argument is); None for inputs it does not take (then Python chooses)."},
    {"cheapest_path", cheapest_path, METH_VARARGS,
     "cheapest_path(arcs, start, goal, climb) -> (cells, cost), () or None: the cheapest path from start to goal "
     "with the fewest steps of ``climb`` levels up among equal costs, as terragen.terrain.paths.cheapest_path "
     "(the reference) finds it on a passable start and goal; () when goal is out of reach, None for inputs it "
     "does not take (then Python searches)."},
    {"reachable_cells", reachable_cells, METH_VARARGS,
     "reachable_cells(arcs, start) -> set or None: every cell a token on a passable start can get to "
     "(terragen.terrain.paths.reachable, the reference); None for inputs it does not take."},
    {"cliff_count", cliff_count, METH_VARARGS,
     "cliff_count(nbr, mask, level, climb) -> int or None: pips pointing at a neighbour more than climb levels "
     "away (terragen.terrain.generate.evaluate.cliff_exits, the reference); None for inputs it does not take."},
    {"board_arcs", board_arcs, METH_VARARGS,
     "board_arcs(i, nbr, level, mask, present, inverted, pip_arcs, elev_arcs, climb) -> True or None: piece i's "
     "arcs in both move graphs written into pip_arcs[i] and elev_arcs[i], as "
     "terragen.terrain.board.Board._rebuild_arcs_python (the reference) makes them; None, nothing written, for "
     "inputs it does not take."},
    {"reach_patch", reach_patch, METH_VARARGS,
     "reach_patch(old_reach, i, room, new_reach, new_within, near, reach) -> (near,) or None: a new board state's "
     "reach brought up to date after piece i turned, as terragen.terrain.sim.cache.BoardCache._patch_reach_python "
     "(the reference) does it; None, nothing changed, for an old reach it does not take."},
    {"race_wins", race_wins, METH_VARARGS,
     "race_wins(cdfs, horizon) -> list or None: wins[first][seat], the chance each seat wins the race of "
     "independent tokens when seat ``first`` opens, as terragen.terrain.race.win_probabilities_by_opener "
     "(the reference) computes it, to the last bit; None for inputs it does not take (then Python runs)."},
    {"pair_sweeps", pair_sweeps, METH_VARARGS,
     "pair_sweeps(values, nxt, cost) -> True or None: values (int32, written in place) brought to the fixed point "
     "of values[p] = min(values[p], cost[r, p] + values[nxt[r, p]]), as terragen.terrain.sim.convoy._sweep_python "
     "(the reference) gives it; None, nothing written, for arrays it does not take (then Python sweeps)."},
    {"trio_values", trio_values, METH_VARARGS,
     "trio_values(way, cost, nbr, dist, fin, lone, seeds, near, far) -> (keys, values) or None: a team of "
     "three's joint values over the triples its steps reach from the seeds (bytes of int32, the triples' "
     "numbers ascending), as terragen.terrain.sim.convoy_trio._trio_values_python (the reference) gives "
     "them; None for arrays it does not take (then Python runs)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels",
                                    "The simulator's table computations, compiled (optional).", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
