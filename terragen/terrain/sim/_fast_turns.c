/*
 * The plain game's common turns in C, for speed alone (optional; terragen/terrain/sim/plain_game.py
 * is the reference and says why the loop exists).
 *
 * Most turns of a greedy or solitary game under the main rules are a dice draw, a look-up of the
 * cells within reach, a look-up of the move remembered for this board state, and the token moved.
 * In Python those few steps cost about a microsecond a turn, most of a solitary game's time and
 * a third of a greedy one's. Here they run in C on the game's own Python objects (the positions,
 * collections and occupants lists and dict, the set of tokens at home, the board state's remembered
 * answers), so nothing is copied, and every turn it cannot finish in the same way (doubles that turn
 * a piece or are not remembered, a table not made yet, a move not remembered, a token in the way or
 * sent home, a start within reach) is played by plain_game.play_plain_game's own turn, called from
 * here with its roll already drawn and counted. The rolls come from the game's generator exactly as
 * Python draws them (getrandbits(6) again while 36 or more, or the next byte of the seat's stream),
 * so the games are the same, roll for roll; tests/terrain/sim/test_fast_turns.py plays both and
 * compares.
 *
 * Given a plan (greedy players at the table), two more kinds of turn run here: a greedy player's
 * first answer on a board state (by the compiled greedy_move of _kernels.c, with the state's tour
 * tables, made by BoardCache.tours where missing, remembered as Python remembers it), and the cells
 * within a roll's points (made from the cell's reach as BoardCache.within makes them, or by
 * BoardCache.within itself). On boards met for the first time (the generator's games) those were
 * most of the turns handed back to Python.
 *
 * play(context, tables, round, index) -> (stopped, round, index, forfeits)
 *   context: (order, pos, collected, occupant, turns, starts, base, pshift, bit_of, full, rotates,
 *             inversion, dice, turn_cap, home, slow, state[, plan]), as play_plain_game builds it;
 *             plan (optional, may be None) is (greedy_move, tours, a greedy flag per seat, each seat's
 *             gains, groups and rank, within), for greedy players' first answers; dice is
 *             getrandbits or the list of the seats' draw iterators, home the set of seats whose
 *             token stands on its own start (kept up to date here as in Python), slow(seat, draw)
 *             Python's turn (it answers the board state's tables after it, or None when the seat
 *             has finished), state the game (its round is set as Python's loop sets it).
 *   tables: the board state's tables (``memo``, ``within``, ``reach``, ``tours``) at the start.
 *   stopped: 0 when the rounds ran out (turn cap), 1 when seat order[index] has just finished in
 *            round ``round``, 2 when Python is to play on from seat order[index] of round ``round``
 *            (index may be len(order): the next round), after a turn left values it does not take.
 *   forfeits: doubles the players forfeited on remembered answers (Python's turns count their own).
 * It answers None, before changing anything, to a context it does not take (values out of range).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "../_small_int.h"

#define MAX_SEATS 16
#define MAX_CELL (1L << 20)
#define DOUBLES 7   /* in a remembered answer's key, where the points go: the answer to doubles */
#define DOUBLE_SIX 35
#define MAX_BUDGET 6 /* the most points a roll pays for: a row of cells within reach has a part per budget 0..6 */

enum { CAPPED = 0, FINISHED = 1, RESUME = 2 };

/* points a draw of 36 pays for (white r / 6 + 1, red r % 6 + 1): plain_game's own table, handed over
 * by configure() before the first game, so the rules of weather live in one place; play() answers None
 * until then */
static long POINTS[36];
static int configured = 0;

/* The next draw of 36 for a seat: from getrandbits(6) (dice a callable) or the seat's iterator. */
static int draw(PyObject *dice, PyObject *six, Py_ssize_t seat, long *out) {
    if (PyList_CheckExact(dice)) {
        PyObject *stream = PyList_GetItem(dice, seat); /* (bounds checked: Python code may run between draws) */
        if (stream == NULL) return -1;
        if (!PyIter_Check(stream)) {
            PyErr_SetString(PyExc_TypeError, "a seat's stream of rolls is not an iterator");
            return -1;
        }
        Py_INCREF(stream); /* held while it runs: a generator may run Python code */
        PyObject *v = PyIter_Next(stream);
        Py_DECREF(stream);
        if (v == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "a seat's stream of rolls ran out");
            return -1;
        }
        long r = PyLong_AsLong(v);
        Py_DECREF(v);
        if (r == -1 && PyErr_Occurred()) return -1;
        if (r < 0 || r >= 36) {
            PyErr_SetString(PyExc_ValueError, "a draw of 36 out of range");
            return -1;
        }
        *out = r;
        return 0;
    }
    for (;;) {
        PyObject *v = PyObject_CallOneArg(dice, six);
        if (v == NULL) return -1;
        long r = PyLong_AsLong(v);
        Py_DECREF(v);
        if (r == -1 && PyErr_Occurred()) return -1;
        if (r >= 0 && r < 36) {
            *out = r;
            return 0;
        }
    }
}

static int set_long(PyObject *list, Py_ssize_t i, long long v) {
    PyObject *x = PyLong_FromLongLong(v);
    if (x == NULL) return -1;
    return PyList_SetItem(list, i, x); /* steals x */
}

/* The board state's remembered answers and tables of cells within reach, from its tables object
 * (plain_game's ``tables``): new references in *memo and *within, replacing the ones held; 0, or 1
 * when they are not dicts (no error set), -1 on an error. */
static int take_tables(PyObject *tables, PyObject **memo, PyObject **within) {
    PyObject *m = PyObject_GetAttrString(tables, "memo");
    if (m == NULL) return -1;
    PyObject *w = PyObject_GetAttrString(tables, "within");
    if (w == NULL) {
        Py_DECREF(m);
        return -1;
    }
    if (!PyDict_CheckExact(m) || !PyDict_CheckExact(w)) {
        Py_DECREF(m);
        Py_DECREF(w);
        return 1;
    }
    Py_XSETREF(*memo, m);
    Py_XSETREF(*within, w);
    return 0;
}

/* The tokens' cells and collections read again from the game's lists (after a turn Python played):
 * 0, or 1 when one is out of the range the keys take or a list changed its length (no error set). */
static int read_seats(PyObject *pos_o, PyObject *coll_o, PyObject *turns_o, PyObject *dice, Py_ssize_t n, long pshift,
                      long *pos, long long *coll) {
    /* (the lists' lengths too: the loop reads them unchecked, and Python code ran since the last look) */
    if (PyList_GET_SIZE(pos_o) != n || PyList_GET_SIZE(coll_o) != n || PyList_GET_SIZE(turns_o) != n ||
        (PyList_CheckExact(dice) && PyList_GET_SIZE(dice) != n))
        return 1;
    for (Py_ssize_t s = 0; s < n; s++) {
        long v;
        if (small_int(PyList_GET_ITEM(pos_o, s), 0, MAX_CELL, &pos[s]) ||
            small_int(PyList_GET_ITEM(coll_o, s), 0, 1L << (pshift - 3), &v))
            return 1;
        coll[s] = v;
    }
    return 0;
}

/* The cells within ``points`` of ``here_o`` on this board state, made as BoardCache.within makes them
 * from the cell's reach when the state holds that reach but not yet this budget's part of it (the same
 * dict, its keys in the reach's order, stored in the same row): a borrowed reference; NULL with no error
 * when Python is to make it (no reach yet, or values it does not take); NULL with an error set. */
static PyObject *within_from_reach(PyObject *now, PyObject *within, PyObject *here_o, long points) {
    PyObject *store = PyObject_GetAttrString(now, "reach"), *row = NULL, *made = NULL;
    if (store == NULL) return NULL;
    if (!PyDict_CheckExact(store)) goto python;
    PyObject *reach = PyDict_GetItemWithError(store, here_o);
    if (reach == NULL || !PyDict_CheckExact(reach)) goto python;
    row = PyDict_GetItemWithError(within, here_o);
    if (row == NULL) {
        if (PyErr_Occurred()) goto error;
        row = PyList_New(MAX_BUDGET + 1); /* one part per budget, made on demand */
        if (row == NULL) goto error;
        for (Py_ssize_t b = 0; b <= MAX_BUDGET; b++) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(row, b, Py_None);
        }
        int failed = PyDict_SetItem(within, here_o, row);
        Py_DECREF(row); /* (the dict holds it) */
        if (failed) goto error;
    } else if (!PyList_CheckExact(row) || PyList_GET_SIZE(row) != MAX_BUDGET + 1 || PyList_GET_ITEM(row, points) != Py_None) {
        goto python;
    }
    made = PyDict_New();
    if (made == NULL) goto error;
    Py_ssize_t at = 0;
    PyObject *q, *c;
    while (PyDict_Next(reach, &at, &q, &c)) {
        long cost;
        if (small_int(c, 0, MAX_CELL, &cost)) {
            Py_DECREF(made);
            goto python; /* (before the row holds it: Python makes it from the start) */
        }
        if (cost <= points && PyDict_SetItem(made, q, c) < 0) {
            Py_DECREF(made);
            goto error;
        }
    }
    Py_DECREF(store);
    Py_DECREF(PyList_GET_ITEM(row, points)); /* the None */
    PyList_SET_ITEM(row, points, made);      /* (the row takes over made) */
    return made;
python:
    if (PyErr_Occurred()) goto error;
    Py_DECREF(store);
    return NULL;
error:
    Py_DECREF(store);
    return NULL;
}

/* store[key], or tours(groups, coll) (tours(groups, coll, True) for ``elev``), which makes it and keeps it
 * there: a new reference, or NULL with an error set. */
static PyObject *tour_table(PyObject *store, PyObject *tours, PyObject *key, PyObject *groups, PyObject *coll, int elev) {
    PyObject *t = PyDict_GetItemWithError(store, key);
    if (t != NULL) {
        Py_INCREF(t);
        return t;
    }
    if (PyErr_Occurred()) return NULL;
    return elev ? PyObject_CallFunctionObjArgs(tours, groups, coll, Py_True, NULL)
                : PyObject_CallFunctionObjArgs(tours, groups, coll, NULL);
}

/* The greedy player's first answer on this board state, cell and points, by the compiled greedy_move
 * (terragen/terrain/sim/greedy_kernels.py), with the board state's tour tables (made by tours() first
 * where they are not made yet): a new reference to the cell; Py_None (a new reference) when Python is to
 * answer (a value the kernel does not take); NULL on an error. plan: (greedy_move, tours, greedy flags, gains,
 * groups, rank), checked by play(). */
static PyObject *greedy_answer(PyObject *plan, PyObject *tables, long seat, PyObject *reach, long long coll) {
    PyObject *gains = PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 3), seat);
    PyObject *groups = PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 4), seat);
    PyObject *rank = PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 5), seat);
    PyObject *pip_store = NULL, *elev_store = NULL, *coll_o = NULL, *key = NULL, *result = NULL;
    Py_INCREF(reach); /* (held throughout: tours() is Python code) */
    pip_store = PyObject_GetAttrString(tables, "tours");
    if (pip_store == NULL) goto done;
    elev_store = PyObject_GetAttrString(tables, "elev_tours");
    if (elev_store == NULL) goto done;
    coll_o = PyLong_FromLongLong(coll);
    if (coll_o == NULL) goto done;
    key = PyTuple_Pack(2, groups, coll_o);
    if (key == NULL) goto done;
    if (!PyDict_CheckExact(pip_store) || !PyDict_CheckExact(elev_store)) goto python;
    /* the seat's tour tables on this board state (new references): the state's own, or made by tours() as
     * greedy_kernels.greedy_move makes them, the pips' first */
    PyObject *pip = tour_table(pip_store, PyTuple_GET_ITEM(plan, 1), key, groups, coll_o, 0);
    if (pip == NULL) goto done;
    PyObject *elev = tour_table(elev_store, PyTuple_GET_ITEM(plan, 1), key, groups, coll_o, 1);
    if (elev == NULL) {
        Py_DECREF(pip);
        goto done;
    }
    result = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(plan, 0), reach, gains, coll_o, pip, elev, rank,
                                          PyTuple_GET_ITEM(plan, 1), groups, NULL);
    Py_DECREF(pip);
    Py_DECREF(elev);
    goto done;
python:
    result = Py_None;
    Py_INCREF(result);
done:
    Py_DECREF(reach);
    Py_XDECREF(pip_store);
    Py_XDECREF(elev_store);
    Py_XDECREF(coll_o);
    Py_XDECREF(key);
    return result;
}

static PyObject *play(PyObject *self, PyObject *args) {
    PyObject *ctx, *tables;
    long rnd;
    Py_ssize_t idx;
    if (!PyArg_ParseTuple(args, "O!Oln", &PyTuple_Type, &ctx, &tables, &rnd, &idx)) return NULL;
    if (PyTuple_GET_SIZE(ctx) != 17 && PyTuple_GET_SIZE(ctx) != 18) Py_RETURN_NONE;
    PyObject *order_o = PyTuple_GET_ITEM(ctx, 0), *pos_o = PyTuple_GET_ITEM(ctx, 1);
    PyObject *coll_o = PyTuple_GET_ITEM(ctx, 2), *occupant = PyTuple_GET_ITEM(ctx, 3);
    PyObject *turns_o = PyTuple_GET_ITEM(ctx, 4), *starts_o = PyTuple_GET_ITEM(ctx, 5);
    PyObject *base_o = PyTuple_GET_ITEM(ctx, 6), *pshift_o = PyTuple_GET_ITEM(ctx, 7);
    PyObject *bit_of = PyTuple_GET_ITEM(ctx, 8), *full_o = PyTuple_GET_ITEM(ctx, 9);
    PyObject *rot_o = PyTuple_GET_ITEM(ctx, 10), *inv_o = PyTuple_GET_ITEM(ctx, 11);
    PyObject *dice = PyTuple_GET_ITEM(ctx, 12), *cap_o = PyTuple_GET_ITEM(ctx, 13);
    PyObject *home = PyTuple_GET_ITEM(ctx, 14), *slow = PyTuple_GET_ITEM(ctx, 15);
    PyObject *state = PyTuple_GET_ITEM(ctx, 16);
    PyObject *plan = PyTuple_GET_SIZE(ctx) == 18 ? PyTuple_GET_ITEM(ctx, 17) : Py_None;
    if (!PyTuple_CheckExact(order_o) || !PyList_CheckExact(pos_o) || !PyList_CheckExact(coll_o) ||
        !PyDict_CheckExact(occupant) || !PyList_CheckExact(turns_o) || !PyTuple_CheckExact(starts_o) ||
        !PyTuple_CheckExact(base_o) || !PyList_CheckExact(bit_of) || !PyTuple_CheckExact(full_o) ||
        !PyTuple_CheckExact(rot_o) || !PyBool_Check(inv_o) || !PySet_CheckExact(home) || !PyCallable_Check(slow))
        Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(starts_o), norder = PyTuple_GET_SIZE(order_o);
    if (n < 1 || n > MAX_SEATS || norder < 1 || norder > MAX_SEATS || PyList_GET_SIZE(pos_o) != n ||
        PyList_GET_SIZE(coll_o) != n || PyList_GET_SIZE(turns_o) != n || PyTuple_GET_SIZE(base_o) != n ||
        PyList_GET_SIZE(bit_of) != n || PyTuple_GET_SIZE(full_o) != n || PyTuple_GET_SIZE(rot_o) != n)
        Py_RETURN_NONE;
    if (PyList_CheckExact(dice)) {
        for (Py_ssize_t s = 0; s < PyList_GET_SIZE(dice); s++)
            if (!PyIter_Check(PyList_GET_ITEM(dice, s))) Py_RETURN_NONE;
    } else if (!PyCallable_Check(dice)) {
        Py_RETURN_NONE;
    }
    long order[MAX_SEATS], pos[MAX_SEATS], starts[MAX_SEATS], pshift, cap;
    long long coll[MAX_SEATS], full[MAX_SEATS];
    unsigned long long base[MAX_SEATS];
    int rotates[MAX_SEATS];
    int inversion = inv_o == Py_True;
    /* keys are exact while every part stays below 2**62 (cells below 2**20, shifts below 34: a
     * collection's bits then fit a C long of 32 bits too) */
    if (small_int(pshift_o, 3, 34, &pshift) || small_int(cap_o, 0, 1L << 30, &cap)) Py_RETURN_NONE;
    if (read_seats(pos_o, coll_o, turns_o, dice, n, pshift, pos, coll)) Py_RETURN_NONE;
    for (Py_ssize_t s = 0; s < n; s++) {
        long v;
        if (small_int(PyTuple_GET_ITEM(starts_o, s), 0, MAX_CELL, &starts[s]) ||
            !PyDict_CheckExact(PyList_GET_ITEM(bit_of, s)) ||
            small_int(PyTuple_GET_ITEM(full_o, s), 0, 1L << (pshift - 3), &v))
            Py_RETURN_NONE;
        full[s] = v;
        PyObject *b = PyTuple_GET_ITEM(base_o, s);
        if (!PyLong_CheckExact(b)) Py_RETURN_NONE;
        base[s] = PyLong_AsUnsignedLongLong(b);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (base[s] >> 62) Py_RETURN_NONE;
        PyObject *ro = PyTuple_GET_ITEM(rot_o, s);
        if (!PyBool_Check(ro)) Py_RETURN_NONE;
        rotates[s] = ro == Py_True;
    }
    for (Py_ssize_t k = 0; k < norder; k++)
        if (small_int(PyTuple_GET_ITEM(order_o, k), 0, n, &order[k])) Py_RETURN_NONE;
    /* greedy players' first answers made here: (greedy_move, tours, a flag per seat, per seat its gains
     * dict, groups and rank tuple, and within), or None */
    int greedy[MAX_SEATS] = {0};
    if (plan != Py_None) {
        if (!PyTuple_CheckExact(plan) || PyTuple_GET_SIZE(plan) != 7 || !PyCallable_Check(PyTuple_GET_ITEM(plan, 0)) ||
            !PyCallable_Check(PyTuple_GET_ITEM(plan, 1)) || !PyCallable_Check(PyTuple_GET_ITEM(plan, 6)))
            Py_RETURN_NONE;
        for (int part = 2; part < 6; part++) {
            PyObject *per_seat = PyTuple_GET_ITEM(plan, part);
            if (!PyTuple_CheckExact(per_seat) || PyTuple_GET_SIZE(per_seat) != n) Py_RETURN_NONE;
        }
        for (Py_ssize_t s = 0; s < n; s++) {
            PyObject *flag = PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 2), s);
            if (!PyBool_Check(flag) || !PyDict_CheckExact(PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 3), s)) ||
                !PyTuple_CheckExact(PyTuple_GET_ITEM(PyTuple_GET_ITEM(plan, 5), s)))
                Py_RETURN_NONE;
            greedy[s] = flag == Py_True;
        }
    }
    if (idx < 0 || rnd < 1 || !configured) Py_RETURN_NONE;
    PyObject *memo = NULL, *within = NULL, *key = NULL, *here_o = NULL, *cell_o = NULL;
    long long forfeits = 0;
    long r = 0;
    int stopped = CAPPED;
    int taken = take_tables(tables, &memo, &within);
    if (taken < 0) return NULL;
    if (taken) Py_RETURN_NONE;
    PyObject *now = tables; /* the board state's tables object (its tour tables, for greedy answers) */
    Py_INCREF(now);

    PyObject *six = PyLong_FromLong(6);
    if (six == NULL) goto error;
    for (; rnd <= cap; rnd++, idx = 0) {
        PyObject *round_o = PyLong_FromLong(rnd);
        if (round_o == NULL) goto error;
        int failed = PyObject_SetAttrString(state, "round", round_o);
        Py_DECREF(round_o);
        if (failed) goto error;
        for (; idx < norder; idx++) {
            long seat = order[idx], here = pos[seat];
            PyObject *t = PyList_GET_ITEM(turns_o, seat);
            long long tn = PyLong_AsLongLong(t);
            if (tn == -1 && PyErr_Occurred()) goto error;
            if (set_long(turns_o, seat, tn + 1) || draw(dice, six, seat, &r)) goto error;
            if (r % 7 == 0) { /* doubles: white == red */
                if (!rotates[seat] || (inversion && r == DOUBLE_SIX)) goto python_turn;
                key = PyLong_FromUnsignedLongLong(base[seat] | (unsigned long long)here << pshift |
                                                  (unsigned long long)coll[seat] << 3 | DOUBLES);
                if (key == NULL) goto error;
                PyObject *action = PyDict_GetItemWithError(memo, key);
                Py_CLEAR(key);
                if (action != Py_None) {
                    if (action == NULL && PyErr_Occurred()) goto error;
                    goto python_turn; /* a turn of a piece to make, or not remembered yet */
                }
                forfeits++;
                continue;
            }
            long points = POINTS[r];
            here_o = PyLong_FromLong(here);
            if (here_o == NULL) goto error;
            PyObject *row = PyDict_GetItemWithError(within, here_o);
            if (row == NULL && PyErr_Occurred()) goto error;
            PyObject *reach = NULL;
            if (row != NULL) {
                if (!PyList_CheckExact(row) || PyList_GET_SIZE(row) <= points) {
                    Py_CLEAR(here_o);
                    goto python_turn;
                }
                reach = PyList_GET_ITEM(row, points);
            }
            if (reach == NULL || reach == Py_None) { /* not made yet: from the cell's reach, if the state has it */
                reach = within_from_reach(now, within, here_o, points);
                if (reach == NULL && PyErr_Occurred()) goto error;
            }
            if (reach == NULL && plan != Py_None) { /* or by BoardCache.within itself, as Python's turn would */
                PyObject *made = PyObject_CallFunction(PyTuple_GET_ITEM(plan, 6), "Ol", here_o, points);
                if (made == NULL) goto error;
                reach = made;
                Py_DECREF(made); /* (the board state's row holds it; checked below) */
                if (PyList_GET_SIZE(bit_of) != n || read_seats(pos_o, coll_o, turns_o, dice, n, pshift, pos, coll) ||
                    pos[seat] != here) {
                    Py_CLEAR(here_o);
                    goto python_turn;
                }
                row = PyDict_GetItemWithError(within, here_o);
                if (row == NULL || !PyList_CheckExact(row) || PyList_GET_SIZE(row) <= points ||
                    PyList_GET_ITEM(row, points) != reach) {
                    Py_CLEAR(here_o);
                    if (PyErr_Occurred()) goto error;
                    goto python_turn;
                }
            }
            Py_CLEAR(here_o);
            if (reach == NULL || !PyDict_CheckExact(reach)) goto python_turn;
            for (Py_ssize_t o = 0; o < n; o++) {             /* a start within reach: the engine lists the others */
                if (o == seat || pos[o] != starts[o]) continue;
                int in = PyDict_Contains(reach, PyTuple_GET_ITEM(starts_o, o));
                if (in < 0) goto error;
                if (in) goto python_turn;
            }
            key = PyLong_FromUnsignedLongLong(base[seat] | (unsigned long long)here << pshift |
                                              (unsigned long long)coll[seat] << 3 | (unsigned long long)points);
            if (key == NULL) goto error;
            cell_o = PyDict_GetItemWithError(memo, key); /* borrowed */
            if (cell_o == NULL) {
                if (PyErr_Occurred()) goto error;
                if (!greedy[seat]) {
                    Py_CLEAR(key);
                    goto python_turn;
                }
                /* a greedy player's first answer here: made and remembered as Python's turn does */
                PyObject *answer = greedy_answer(plan, now, seat, reach, coll[seat]);
                if (answer == NULL) goto error;
                if (answer == Py_None) {
                    Py_DECREF(answer);
                    Py_CLEAR(key);
                    goto python_turn;
                }
                failed = PyDict_SetItem(memo, key, answer);
                Py_CLEAR(key);
                cell_o = answer; /* borrowed from here on, as from the memo, which holds it */
                Py_DECREF(answer);
                if (failed) goto error;
                /* the kernel ran Python code (tours): the game's lists are checked again, as after any
                 * Python turn; if they changed, Python plays this turn (its answer is remembered now) */
                if (PyList_GET_SIZE(bit_of) != n || read_seats(pos_o, coll_o, turns_o, dice, n, pshift, pos, coll))
                    goto python_turn;
                here = pos[seat];
            }
            Py_CLEAR(key);
            long cell;
            if (small_int(cell_o, 0, MAX_CELL, &cell)) goto python_turn;
            if (cell != here) {
                Py_INCREF(cell_o);
                PyObject *victim = PyDict_GetItemWithError(occupant, cell_o);
                if (victim == NULL && PyErr_Occurred()) goto error_cell;
                long v;
                if (victim != NULL && (small_int(victim, 0, n, &v) || v != seat)) {
                    Py_CLEAR(cell_o);
                    goto python_turn; /* someone to send home */
                }
                here_o = PyLong_FromLong(here);
                if (here_o == NULL) goto error_cell;
                PyObject *was = PyDict_GetItemWithError(occupant, here_o);
                if (was == NULL && PyErr_Occurred()) goto error_cell;
                long w;
                if (was != NULL && !small_int(was, 0, n, &w) && w == seat && PyDict_DelItem(occupant, here_o) < 0)
                    goto error_cell;
                Py_CLEAR(here_o);
                PyObject *s_o = PyLong_FromLong(seat);
                if (s_o == NULL) goto error_cell;
                /* back on its own start: no one may end there now */
                failed = (cell == starts[seat] ? PySet_Add(home, s_o) : PySet_Discard(home, s_o)) < 0 ||
                         PyDict_SetItem(occupant, cell_o, s_o) < 0;
                Py_DECREF(s_o);
                if (failed) goto error_cell;
                Py_INCREF(cell_o);
                if (PyList_SetItem(pos_o, seat, cell_o)) goto error_cell; /* steals the new reference */
                pos[seat] = cell;
                PyObject *got = PyDict_GetItemWithError(PyList_GET_ITEM(bit_of, seat), cell_o);
                if (got == NULL && PyErr_Occurred()) goto error_cell;
                Py_CLEAR(cell_o);
                if (got != NULL) {
                    long long g = PyLong_AsLongLong(got);
                    if (g == -1 && PyErr_Occurred()) goto error;
                    coll[seat] |= g;
                    if (set_long(coll_o, seat, coll[seat])) goto error;
                }
            }
            if (coll[seat] == full[seat]) {
                stopped = FINISHED;
                goto out;
            }
            continue;
        python_turn: {
            /* the turn as Python plays it (its roll counted and drawn): the board state's tables after
             * it, or None when the seat has finished */
            PyObject *after = PyObject_CallFunction(slow, "ll", seat, r);
            if (after == NULL) goto error;
            if (after == Py_None) {
                Py_DECREF(after);
                stopped = FINISHED;
                goto out;
            }
            taken = take_tables(after, &memo, &within);
            Py_SETREF(now, after); /* (takes over the reference) */
            if (taken < 0) goto error;
            if (taken || read_seats(pos_o, coll_o, turns_o, dice, n, pshift, pos, coll)) {
                stopped = RESUME; /* values it does not take: Python plays on from the next turn */
                idx++;
                goto out;
            }
        }
        }
    }
    stopped = CAPPED;
    rnd = cap;
    idx = 0;
out:
    Py_DECREF(six);
    Py_DECREF(now);
    Py_DECREF(memo);
    Py_DECREF(within);
    return Py_BuildValue("(ilnL)", stopped, rnd, idx, forfeits);
error_cell:
    Py_CLEAR(cell_o);
error:
    Py_XDECREF(key);
    Py_XDECREF(here_o);
    Py_XDECREF(six);
    Py_XDECREF(now);
    Py_XDECREF(memo);
    Py_XDECREF(within);
    return NULL;
}

/* configure(points): the points each of the 36 draws pays for (a tuple of 36 ints, 0 to 6). */
static PyObject *configure(PyObject *self, PyObject *arg) {
    if (!PyTuple_CheckExact(arg) || PyTuple_GET_SIZE(arg) != 36) {
        PyErr_SetString(PyExc_ValueError, "configure() takes a tuple of 36 points");
        return NULL;
    }
    long points[36];
    for (int r = 0; r < 36; r++)
        if (small_int(PyTuple_GET_ITEM(arg, r), 0, 7, &points[r])) {
            PyErr_SetString(PyExc_ValueError, "a draw's points must be an int from 0 to 6");
            return NULL;
        }
    for (int r = 0; r < 36; r++) POINTS[r] = points[r];
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_O,
     "configure(points): the points each of the 36 draws pays for (plain_game's table), before play()."},
    {"play", play, METH_VARARGS,
     "play(context, tables, round, index) -> (stopped, round, index, forfeits), or None for a context it does "
     "not take: the plain game from seat order[index] of round ``round`` on, its common turns here and the "
     "others by Python's turn (terragen.terrain.sim.plain_game.play_plain_game, the reference)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fast_turns",
                                    "The plain game's common turns, compiled (optional).", -1, methods};

PyMODINIT_FUNC PyInit__fast_turns(void) { return PyModule_Create(&module); }
