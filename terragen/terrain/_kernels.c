/*
 * Two of the simulator's table computations in C, for speed alone; each follows a Python function
 * that stays the reference (read its docstrings for the why), and gives the same values:
 *
 * - solve: one layer of the exact expected-turns table, the same steps in the same order with the
 *   same floating-point operations as terragen.terrain.expected.solve_layer_in_order_python. An
 *   expert player's game needs a fresh layer for every seat on every board state a turn of a piece
 *   creates, and in Python those solves were about half of an expert game's time.
 * - repair_distances: terragen.terrain.sim.cache.repair_after_turn_python, the cheapest costs to a
 *   set of goals brought up to date after a turn of a piece. On brutal boards, where greedy players
 *   turn pieces on most doubles, it was a fifth to a quarter of a greedy game's time.
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
 * Optional: when this file cannot be compiled, the package uses the Python versions (same results).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>

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

/* solve(n, near, landing, at_least) -> (values, in_order); see the Python reference. */
static PyObject *solve(PyObject *self, PyObject *args) {
    Py_ssize_t n;
    PyObject *near, *landing, *at_least_seq;
    if (!PyArg_ParseTuple(args, "nO!O!O", &n, &PyList_Type, &near, &PyDict_Type, &landing, &at_least_seq))
        return NULL;
    if (n < 0 || PyList_GET_SIZE(near) != n) {
        PyErr_SetString(PyExc_ValueError, "near must hold one list per cell");
        return NULL;
    }
    long at_least[MAX_BUDGET + 2];
    PyObject *fast = PySequence_Fast(at_least_seq, "at_least must be a sequence");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != MAX_BUDGET + 2) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "at_least must hold 8 counts");
        return NULL;
    }
    for (int c = 0; c < MAX_BUDGET + 2; c++) {
        at_least[c] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, c));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;

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
        Py_ssize_t g = PyLong_AsSsize_t(g_obj);
        double v = PyFloat_AsDouble(v_obj);
        if (PyErr_Occurred()) goto done;
        if (g < 0 || g >= n) {
            PyErr_SetString(PyExc_ValueError, "a landing cell is off the board");
            goto done;
        }
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
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "near must hold lists of (cell, cost) tuples");
            goto done;
        }
        Py_ssize_t m = PyList_GET_SIZE(row);
        for (Py_ssize_t e = 0; e < m; e++) {
            PyObject *pc = PyList_GET_ITEM(row, e);
            if (!PyTuple_Check(pc) || PyTuple_GET_SIZE(pc) != 2) {
                PyErr_SetString(PyExc_TypeError, "near must hold lists of (cell, cost) tuples");
                goto done;
            }
            Py_ssize_t p = PyLong_AsSsize_t(PyTuple_GET_ITEM(pc, 0));
            long c = PyLong_AsLong(PyTuple_GET_ITEM(pc, 1));
            if (PyErr_Occurred()) goto done;
            if (p < 0 || p >= n || c < 1 || c > MAX_BUDGET) {
                PyErr_SetString(PyExc_ValueError, "a (cell, cost) entry of near is out of range");
                goto done;
            }
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
done:
    free(value);
    free(acc);
    free(best_cost);
    free(is_landing);
    free(heap.items);
    return result;
}


/* ---- repair_distances ------------------------------------------------------------------------ */

/* A (cost, cell) search key; costs are whole numbers held as doubles (exact), inf for none. */
static int read_cost(PyObject *x, double *out) {
    if (PyLong_CheckExact(x)) {
        long v = PyLong_AsLong(x);
        if (v == -1 && PyErr_Occurred()) return -1;
        *out = (double)v;
        return 0;
    }
    if (PyFloat_CheckExact(x) && isinf(PyFloat_AS_DOUBLE(x)) && PyFloat_AS_DOUBLE(x) > 0) {
        *out = INFINITY;
        return 0;
    }
    return 1; /* another kind of value: the caller hands the job to the Python version */
}

static int pair_at(PyObject *row, Py_ssize_t e, Py_ssize_t n, Py_ssize_t *cell, long *cost) {
    PyObject *t = PyList_GET_ITEM(row, e);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 2) {
        PyErr_SetString(PyExc_TypeError, "arcs must hold (cell, cost, ...) tuples");
        return -1;
    }
    *cell = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
    *cost = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
    if (PyErr_Occurred()) return -1;
    if (*cell < 0 || *cell >= n) {
        PyErr_SetString(PyExc_ValueError, "an arc leads off the board");
        return -1;
    }
    return 0;
}

static PyObject *row_of(PyObject *lists, Py_ssize_t i) {
    PyObject *row = PyList_GET_ITEM(lists, i);
    if (!PyList_Check(row)) {
        PyErr_SetString(PyExc_TypeError, "arcs must be lists of tuples");
        return NULL;
    }
    return row;
}

/* repair_distances(d, rev, arcs, i) -> d itself, a new list, or None (values it does not take) */
static PyObject *repair_distances(PyObject *self, PyObject *args) {
    PyObject *d_obj, *rev, *arcs;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "O!O!O!n", &PyList_Type, &d_obj, &PyList_Type, &rev, &PyList_Type, &arcs, &i))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(d_obj);
    if (PyList_GET_SIZE(rev) != n || PyList_GET_SIZE(arcs) != n || i < 0 || i >= n) {
        PyErr_SetString(PyExc_ValueError, "d, rev and arcs must have one entry per cell, and i be a cell");
        return NULL;
    }
    double *d = (double *)malloc((size_t)n * sizeof(double));
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
        int r = read_cost(PyList_GET_ITEM(d_obj, x), &d[x]);
        if (r < 0) goto done;
        if (r > 0) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    double old = d[i];
    if (old == 0.0) goto unchanged; /* a goal's own exits do not matter for reaching it */
    PyObject *row = row_of(arcs, i);
    if (!row) goto done;
    double best = INFINITY;
    for (Py_ssize_t e = 0; e < PyList_GET_SIZE(row); e++) {
        Py_ssize_t j;
        long c;
        if (pair_at(row, e, n, &j, &c) < 0) goto done;
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
            PyObject *into = row_of(rev, y);
            if (!into) goto done;
            for (Py_ssize_t e = 0; e < PyList_GET_SIZE(into); e++) {
                Py_ssize_t x;
                long c;
                if (pair_at(into, e, n, &x, &c) < 0) goto done;
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
            PyObject *out = row_of(arcs, x);
            if (!out) goto done;
            double b = INFINITY;
            for (Py_ssize_t e = 0; e < PyList_GET_SIZE(out); e++) {
                Py_ssize_t y;
                long c;
                if (pair_at(out, e, n, &y, &c) < 0) goto done;
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
        PyObject *into = row_of(rev, y);
        if (!into) goto done;
        for (Py_ssize_t e = 0; e < PyList_GET_SIZE(into); e++) {
            Py_ssize_t x;
            long c;
            if (pair_at(into, e, n, &x, &c) < 0) goto done;
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

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS,
     "solve(n, near, landing, at_least) -> (values, in_order): one layer of exact expected turns "
     "(terragen.terrain.expected.solve_layer_in_order_python, the reference, says what each argument is)."},
    {"repair_distances", repair_distances, METH_VARARGS,
     "repair_distances(d, rev, arcs, i) -> list or None: the costs d to a set of goals after the exits of "
     "piece i changed (terragen.terrain.sim.cache.repair_after_turn_python, the reference, says what each "
     "argument is); d itself when nothing changed; None when d holds values other than ints and inf."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels",
                                    "The simulator's table computations, compiled (optional).", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
