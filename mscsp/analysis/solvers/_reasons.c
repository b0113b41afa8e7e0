/*
 * Minimal reasons for proven cells from the clues alone, compiled (mscsp/analysis/solvers/local.py
 * calls it; the SAT engine's explain() uses what it finds and falls back to SAT cores otherwise).
 *
 * A reason for "cell c is a mine" is a set of equations under which "c is safe" has no
 * solution; it is minimal when no equation can be dropped. For each asked cell the search
 * grows the set outwards from the cell, a layer of equations at a time (those through the
 * cell, then those sharing a cell with the set, ...), until the set forces the cell; then it
 * drops the equations one by one, the last added first, keeping each drop under which the
 * cell stays forced (deletion; Marques-Silva, "Minimal unsatisfiability: models, algorithms
 * and applications", ISMVL 2010). Each set in that chain is a superset of the final one, and
 * a set that forces nothing with one equation less forces nothing with fewer still, so every
 * equation kept is needed: the reason is minimal.
 *
 * "Does this set force c" is decided by a backtracking search over the set's cells (at most
 * MAXW * 64 of them) in bit sets, with each equation's bounds propagated to a fixed point at
 * every node. Searches have a node budget; a cell whose layers pass the cell limit or whose
 * search passes the budget is answered None, and the caller proves it by SAT as before. When
 * the whole component is taken and the cell is still free, the clues alone do not force it
 * (the answer is False): the mine total is needed.
 */
#define PY_SSIZE_T_CLEAN
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* Propagation is population counts of bit sets: the POPCNT instruction, not libgcc's
 * routine (the module refuses to load on a CPU without it; SAT then explains every cell). */
#pragma GCC target("popcnt")
#define NEEDS_POPCNT 1
#endif
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXW 4 /* words of 64 cells: at most 256 cells in a set */

typedef uint64_t word;
typedef struct { word w[MAXW]; } bits;

typedef struct {
    int n;          /* equations in the set */
    int words;      /* words in use */
    bits *mask;     /* per equation: its cells */
    int *count;     /* per equation: its mines */
    int *size;      /* per equation: its number of cells */
    long nodes, limit;
} Set;

static inline int pop(const bits *a, const bits *b, int words) {
    int n = 0;
    for (int i = 0; i < words; i++) n += __builtin_popcountll(a->w[i] & b->w[i]);
    return n;
}

/* 1: some assignment of the set's cells meets every equation with mines M and safes S
 * fixed; 0: none; -1: out of nodes */
static int satisfiable(Set *s, const int *active, int n_active, bits M, bits S) {
    if (++s->nodes > s->limit) return -1;
    const int W = s->words;
    for (;;) {
        int changed = 0;
        for (int k = 0; k < n_active; k++) {
            int e = active[k];
            const bits *m = &s->mask[e];
            int mines = pop(m, &M, W), safe = pop(m, &S, W);
            int open = s->size[e] - mines - safe, need = s->count[e] - mines;
            if (need < 0 || need > open) return 0;
            if (open && (need == 0 || need == open)) {
                bits *to = need == 0 ? &S : &M;
                for (int i = 0; i < W; i++) to->w[i] |= m->w[i] & ~(M.w[i] | S.w[i]);
                changed = 1;
            }
        }
        if (!changed) break;
    }
    /* branch on the first open cell of the first equation with open cells */
    for (int k = 0; k < n_active; k++) {
        const bits *m = &s->mask[active[k]];
        for (int i = 0; i < W; i++) {
            word open = m->w[i] & ~(M.w[i] | S.w[i]);
            if (open) {
                word bit = open & (~open + 1);
                bits M2 = M, S2 = S;
                M2.w[i] |= bit;
                int r = satisfiable(s, active, n_active, M2, S);
                if (r != 0) return r;
                S2.w[i] |= bit;
                return satisfiable(s, active, n_active, M, S2);
            }
        }
    }
    return 1;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* reasons(eq_ptr, eq_cells, counts, n_cells, cells, mines, node_limit, seconds) -> list
 *
 * Equations in CSR form (int32: eq_ptr has n_eq + 1 offsets into eq_cells, flat cell
 * indices below n_cells; counts one per equation); the asked cells (int32) with what they
 * are proven to be (uint8, 1 for a mine). Per asked cell: a tuple of equation indices (a
 * minimal reason), False (the clues alone do not force it) or None (not found within the
 * node budget, the cell limit or the seconds). */
static PyObject *reasons(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer bp, bc, bn, bt, bm;
    Py_ssize_t n_cells;
    long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*y*ld", &bp, &bc, &bn, &n_cells, &bt, &bm, &node_limit, &seconds))
        return NULL;
    PyObject *out = NULL;
    const int32_t *ptr = bp.buf, *cells = bc.buf, *counts = bn.buf, *asked = bt.buf;
    const uint8_t *mine = bm.buf;
    Py_ssize_t n_eq = bp.len / 4 - 1, n_asked = bt.len / 4;
    int ok = bp.len % 4 == 0 && n_eq >= 0 && bc.len % 4 == 0 && bn.len == 4 * n_eq && bm.len == n_asked
             && bt.len % 4 == 0 && n_cells >= 0 && ptr[0] == 0 && ptr[n_eq] == bc.len / 4;
    for (Py_ssize_t e = 0; ok && e < n_eq; e++) ok = ptr[e] <= ptr[e + 1];
    for (Py_ssize_t k = 0; ok && k < bc.len / 4; k++) ok = cells[k] >= 0 && cells[k] < n_cells;
    for (Py_ssize_t k = 0; ok && k < n_asked; k++) ok = asked[k] >= 0 && asked[k] < n_cells;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "reasons: malformed equations or cells");
        goto release;
    }
    /* equations through each cell (CSR) */
    int32_t *cptr = calloc((size_t)n_cells + 2, sizeof(int32_t));
    int32_t *ceqs = malloc(sizeof(int32_t) * ((size_t)(bc.len / 4) + 1));
    int32_t *local = malloc(sizeof(int32_t) * ((size_t)n_cells + 1)); /* cell -> bit in the set, -1 */
    int *order = malloc(sizeof(int) * ((size_t)n_eq + 1));            /* the set's equations, as added */
    char *in_set = calloc((size_t)n_eq + 1, 1);
    int *active = malloc(sizeof(int) * ((size_t)n_eq + 1));
    bits *mask = malloc(sizeof(bits) * ((size_t)n_eq + 1));
    int *size = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int *count = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int32_t *touched = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    out = PyList_New(n_asked);
    if (!cptr || !ceqs || !local || !order || !in_set || !active || !mask || !size || !count || !touched || !out) {
        Py_XDECREF(out);
        out = PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < bc.len / 4; k++) cptr[cells[k] + 1]++;
    for (Py_ssize_t c = 0; c < n_cells; c++) cptr[c + 1] += cptr[c];
    {
        int32_t *fill = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
        if (!fill) {
            Py_DECREF(out);
            out = PyErr_NoMemory();
            goto done;
        }
        memcpy(fill, cptr, sizeof(int32_t) * (size_t)n_cells);
        for (Py_ssize_t e = 0; e < n_eq; e++)
            for (int32_t k = ptr[e]; k < ptr[e + 1]; k++) ceqs[fill[cells[k]]++] = (int32_t)e;
        free(fill);
    }
    for (Py_ssize_t c = 0; c < n_cells; c++) local[c] = -1;
    double deadline = now() + seconds;
    for (Py_ssize_t t = 0; t < n_asked; t++) {
        PyObject *answer = Py_None;
        Py_INCREF(answer);
        int cell = asked[t], n = 0, n_local = 0, too_big = 0, grown = 0;
        Set s = {0, 0, mask, count, size, 0, node_limit};
        if (now() >= deadline) goto answered;
        /* layer 0: the equations through the cell; the cell itself is bit 0 */
        local[cell] = n_local;
        touched[n_local++] = cell;
        int found = -1; /* 1 forced, 0 not forced by the whole component, -1 unknown */
        int layer_start = 0;
        for (int32_t k = cptr[cell]; k < cptr[cell + 1]; k++) {
            order[n++] = ceqs[k];
            in_set[ceqs[k]] = 1;
        }
        while (n > layer_start || !grown) {
            grown = 1;
            /* give the new equations their bits */
            for (int i = layer_start; i < n && !too_big; i++) {
                int e = order[i];
                memset(&mask[e], 0, sizeof(bits));
                for (int32_t k = ptr[e]; k < ptr[e + 1]; k++) {
                    int32_t c = cells[k];
                    if (local[c] < 0) {
                        if (n_local >= MAXW * 64) { too_big = 1; break; }
                        local[c] = n_local;
                        touched[n_local++] = c;
                    }
                    mask[e].w[local[c] / 64] |= (word)1 << (local[c] % 64);
                }
                size[e] = ptr[e + 1] - ptr[e];
                count[e] = counts[e];
            }
            if (too_big) break;
            s.words = (n_local + 63) / 64;
            bits M = {{0}}, S = {{0}};
            if (mine[t]) S.w[0] = 1; else M.w[0] = 1; /* the cell the other way */
            for (int i = 0; i < n; i++) active[i] = order[i];
            int r = satisfiable(&s, active, n, M, S);
            if (r < 0) break;
            if (r == 0) { found = 1; break; }
            /* the next layer: equations sharing a cell with the set */
            int before = n;
            layer_start = n;
            for (int i = 0; i < before; i++) {
                int e = order[i];
                for (int32_t k = ptr[e]; k < ptr[e + 1]; k++)
                    for (int32_t j = cptr[cells[k]]; j < cptr[cells[k] + 1]; j++)
                        if (!in_set[ceqs[j]]) {
                            in_set[ceqs[j]] = 1;
                            order[n++] = ceqs[j];
                        }
            }
            if (n == before) { found = 0; break; }
        }
        if (found == 0) {
            Py_DECREF(answer);
            answer = Py_False;
            Py_INCREF(answer);
        } else if (found == 1) {
            /* deletion, the last added first */
            int kept = n;
            char *keep = in_set; /* reuse: 1 kept, 2 dropped */
            bits M = {{0}}, S = {{0}};
            if (mine[t]) S.w[0] = 1; else M.w[0] = 1;
            int finished = 1;
            for (int i = n - 1; i >= 0; i--) {
                if (now() >= deadline) { finished = 0; break; }
                int m = 0;
                for (int j = 0; j < n; j++)
                    if (j != i && keep[order[j]] == 1) active[m++] = order[j];
                int r = satisfiable(&s, active, m, M, S);
                if (r < 0) { finished = 0; break; }
                if (r == 0) { keep[order[i]] = 2; kept--; }
            }
            if (finished) {
                PyObject *tuple = PyTuple_New(kept);
                if (!tuple) {
                    Py_DECREF(answer);
                    answer = NULL;
                } else {
                    int m = 0;
                    for (int j = 0; j < n; j++)
                        if (keep[order[j]] == 1) PyTuple_SET_ITEM(tuple, m++, PyLong_FromLong(order[j]));
                    Py_DECREF(answer);
                    answer = tuple;
                }
            }
        }
    answered:
        for (int i = 0; i < n; i++) in_set[order[i]] = 0;
        for (int i = 0; i < n_local; i++) local[touched[i]] = -1;
        if (answer == NULL) {
            Py_DECREF(out);
            out = NULL;
            goto done;
        }
        PyList_SET_ITEM(out, t, answer);
    }
done:
    free(cptr); free(ceqs); free(local); free(order); free(in_set); free(active); free(mask); free(size);
    free(count); free(touched);
release:
    PyBuffer_Release(&bp); PyBuffer_Release(&bc); PyBuffer_Release(&bn); PyBuffer_Release(&bt);
    PyBuffer_Release(&bm);
    return out;
}

static PyMethodDef methods[] = {
    {"reasons", reasons, METH_VARARGS,
     "reasons(eq_ptr, eq_cells, counts, n_cells, cells, mines, node_limit, seconds) -> list of tuple | False | None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_reasons",
                                    "Minimal reasons for proven cells from the clues alone.", -1, methods};

PyMODINIT_FUNC PyInit__reasons(void) {
#ifdef NEEDS_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_reasons: this CPU has no POPCNT instruction");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
