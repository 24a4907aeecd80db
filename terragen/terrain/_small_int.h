/*
 * small_int, shared by the two extensions (_kernels.c and sim/_fast_turns.c): an exact Python int in
 * [lo, hi) into *out: 0; anything else (not an exact int, out of range, too large for a C long): 1,
 * with no error set, so that the caller can answer None and leave the work to its Python reference.
 *
 * Why a header of its own: both extensions read every cell, cost and key of the tables Python keeps
 * through it (millions of times a second), and PyLong_AsLongAndOverflow, a call into the interpreter
 * for each, was 4-6% of a game's time. An int of one digit (below 2**30 on the usual builds, whose
 * digits hold 30 bits: every value these tables hold) is read in place, the same value without the
 * call; Python 3.12 and later say which ints those are themselves (checked on 3.11, 3.12 and 3.13).
 */
#ifndef TERRAGEN_SMALL_INT_H
#define TERRAGEN_SMALL_INT_H

#include <Python.h>

static inline int small_int(PyObject *x, long lo, long hi, long *out) {
    if (!PyLong_CheckExact(x)) return 1;
    long v;
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)x)) {
        v = (long)PyUnstable_Long_CompactValue((PyLongObject *)x);
    } else
#elif PY_VERSION_HEX >= 0x030B0000 && !defined(Py_LIMITED_API)
    Py_ssize_t size = Py_SIZE(x);
    if (size >= -1 && size <= 1) {
        v = size == 0 ? 0 : (long)((PyLongObject *)x)->ob_digit[0];
        if (size < 0) v = -v;
    } else
#endif
    {
        int overflow = 0;
        v = PyLong_AsLongAndOverflow(x, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 1;
        }
    }
    if (v < lo || v >= hi) return 1;
    *out = v;
    return 0;
}

#endif
