/*
 * Three of the simulator's table computations in C, for speed alone; each follows a Python function
 * that stays the reference (read its docstrings for the why), and gives the same values:
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
 *
 * solve:
 * Why the answer is the same floats, bit for bit: cells settle in the order of their (value, index)
 * keys, which are all distinct (a cell is pushed again only with a smaller value), so any binary heap
 * pops them in the order Python's heapq does; every value is made by the same sums and quotients of
 * doubles in the same order (Python's floats are C doubles; an int times a float is the int made a
 * double first). The build turns off fused multiply-adds (-ffp-contract=off), which would round once
 * where Python rounds twice. tests/terrain/sim/test_kernels.py compares the two on random layers.
 *
 * repair_distances: the costs are whole numbers (or inf for no route), and the shortest costs
 * to a set of goals are unique, so any order of the search gives the same list; kept are the
 * reference's types (ints, and the float inf) and its answer's identity (the same list when
 * nothing changed, a new one otherwise). tests/terrain/sim/test_kernels.py compares the two.
 *
 * Both take only the inputs the simulator gives them (lists of tuples of exact ints in range, float
 * values; whole-number costs up to 2**50) and answer None to anything else, so that the Python
 * version runs and whatever it does (a result, an error) is what the caller gets.
 *
 * Optional: when this file cannot be compiled, the package uses the Python versions (same results).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* bit-for-bit agreement needs plain double arithmetic: no x87 extra precision, no fast-math (which
 * also drops inf); the build fails then, and setup.py's optional extension leaves Python to it */
#if FLT_EVAL_METHOD != 0 || defined(__FAST_MATH__)
#error "the table kernels need double-precision arithmetic without fast-math"
#endif

/* whole-number costs are held as doubles: exact while every sum stays well under 2**53 */
#define COST_LIMIT 1125899906842624.0 /* 2**50 */
#define STEP_LIMIT 1048576L            /* 2**20: one arc's cost */

/* An exact int in [lo, hi) into *out: 0; anything else: 1 (the caller answers None); no error set. */
static int small_int(PyObject *x, long lo, long hi, long *out) {
    if (!PyLong_CheckExact(x)) return 1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(x, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 1;
    }
    if (v < lo || v >= hi) return 1;
    *out = v;
    return 0;
}

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

/* solve(n, near, landing, at_least) -> (values, in_order), or None for inputs it does not take;
 * see the Python reference. */
static PyObject *solve(PyObject *self, PyObject *args) {
    Py_ssize_t n;
    PyObject *near, *landing, *at_least_seq;
    if (!PyArg_ParseTuple(args, "nOOO", &n, &near, &landing, &at_least_seq)) return NULL;
    if (n < 0 || !PyList_CheckExact(near) || PyList_GET_SIZE(near) != n || !PyDict_CheckExact(landing) ||
        !PyList_CheckExact(at_least_seq) || PyList_GET_SIZE(at_least_seq) != MAX_BUDGET + 2)
        Py_RETURN_NONE;
    long at_least[MAX_BUDGET + 2];
    for (int c = 0; c < MAX_BUDGET + 2; c++) {
        if (small_int(PyList_GET_ITEM(at_least_seq, c), 0, 37, &at_least[c])) Py_RETURN_NONE;
    }
    for (int c = 1; c <= MAX_BUDGET; c++) {
        if (!at_least[c]) Py_RETURN_NONE; /* a divisor */
    }

    double *value = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    double *acc = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    int *best_cost = (int *)malloc((size_t)(n ? n : 1) * sizeof(int));
    char *is_landing = (char *)calloc((size_t)(n ? n : 1), 1);
    Heap heap = {NULL, 0, 0};
    PyObject *result = NULL;
    if (!value || !acc || !best_cost || !is_landing) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        value[i] = INFINITY;
        acc[i] = 0.0;
        best_cost[i] = MAX_BUDGET + 1;
    }
    PyObject *g_obj, *v_obj;
    Py_ssize_t pos = 0;
    while (PyDict_Next(landing, &pos, &g_obj, &v_obj)) {
        long g;
        if (small_int(g_obj, 0, (long)n, &g) || !PyFloat_CheckExact(v_obj)) goto fallback;
        double v = PyFloat_AS_DOUBLE(v_obj);
        if (isnan(v)) goto fallback;
        is_landing[g] = 1;
        if (v < INFINITY && heap_push(&heap, v, n + g) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int in_order = 1;
    while (heap.size) {
        Key top = heap_pop(&heap);
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
        PyObject *row = PyList_GET_ITEM(near, q);
        if (!PyList_CheckExact(row)) goto fallback;
        Py_ssize_t m = PyList_GET_SIZE(row);
        for (Py_ssize_t e = 0; e < m; e++) {
            Py_ssize_t p;
            long c;
            if (cell_and_cost(PyList_GET_ITEM(row, e), 2, n, MAX_BUDGET, &p, &c)) goto fallback;
            int bc = best_cost[p];
            if (c >= bc) continue;
            double a = acc[p] + (double)(at_least[c] - at_least[bc]) * v;
            acc[p] = a;
            best_cost[p] = (int)c;
            double t = (36.0 + a) / (double)at_least[c];
            if (t < value[p]) {
                value[p] = t;
                if (heap_push(&heap, t, p) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
                if (t <= v && (t < v || p < k)) in_order = 0;
            }
        }
        if (kept >= 0) best_cost[q] = kept;
    }
    PyObject *values = PyList_New(n);
    if (!values) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyFloat_FromDouble(value[i]);
        if (!f) {
            Py_DECREF(values);
            goto done;
        }
        PyList_SET_ITEM(values, i, f);
    }
    result = Py_BuildValue("(NO)", values, in_order ? Py_True : Py_False);
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    free(value);
    free(acc);
    free(best_cost);
    free(is_landing);
    free(heap.items);
    return result;
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

static PyMethodDef methods[] = {
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
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels",
                                    "The simulator's table computations, compiled (optional).", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
