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
    int words;      /* words in use */
    bits *mask;     /* per equation: its cells */
    int *count;     /* per equation: its mines */
    int *size;      /* per equation: its number of cells */
    int total;      /* whether the mine total takes part: tlo..thi mines among tmask */
    bits tmask;
    int tlo, thi;
    long nodes, limit;
    char *used;     /* per equation: 1 once it failed or forced a cell in a search */
} Set;

static inline int pop(const bits *a, const bits *b, int words) {
    int n = 0;
    for (int i = 0; i < words; i++) n += __builtin_popcountll(a->w[i] & b->w[i]);
    return n;
}

/* Fills the open cells of m: safe when need is 0, mines when it is the open count. */
static inline void fill(bits *to, const bits *m, const bits *M, const bits *S, int W) {
    for (int i = 0; i < W; i++) to->w[i] |= m->w[i] & ~(M->w[i] | S->w[i]);
}

/* 1: some assignment of the set's cells meets every equation (and the total) with mines
 * M and safes S fixed; 0: none; -1: out of nodes */
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
            if (need < 0 || need > open) {
                s->used[e] = 1;
                return 0;
            }
            if (open && (need == 0 || need == open)) {
                fill(need == 0 ? &S : &M, m, &M, &S, W);
                s->used[e] = 1;
                changed = 1;
            }
        }
        if (s->total) {
            int mines = pop(&s->tmask, &M, W), open = pop(&s->tmask, &s->tmask, W) - mines - pop(&s->tmask, &S, W);
            if (mines > s->thi || mines + open < s->tlo) return 0;
            if (open && (mines == s->thi || mines + open == s->tlo)) {
                fill(mines == s->thi ? &S : &M, &s->tmask, &M, &S, W);
                changed = 1;
            }
        }
        if (!changed) break;
    }
    /* branch on the first open cell of the first equation with open cells; with none
     * left, the cells only the total sees take any count it allows (checked above) */
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

/* Scratch shared by the asked cells. */
typedef struct {
    const int32_t *ptr, *cells, *counts, *cptr, *ceqs;
    const int32_t *names;     /* per equation: the name an answer gives it (NULL: its index) */
    int32_t *local, *touched; /* cell -> bit in the set (-1 none); the cells given one */
    int n_local;
    int *order, *active;      /* the set's equations as added; a subset to test */
    char *in_set;             /* per equation: 1 in the set, 2 dropped */
} Work;

/* Gives the equations order[from..n) their bits; 0 when the set passes MAXW * 64 cells. */
static int give_bits(Work *w, Set *s, int from, int n) {
    for (int i = from; i < n; i++) {
        int e = w->order[i];
        memset(&s->mask[e], 0, sizeof(bits));
        for (int32_t k = w->ptr[e]; k < w->ptr[e + 1]; k++) {
            int32_t c = w->cells[k];
            if (w->local[c] < 0) {
                if (w->n_local >= MAXW * 64) return 0;
                w->local[c] = w->n_local;
                w->touched[w->n_local++] = c;
            }
            s->mask[e].w[w->local[c] / 64] |= (word)1 << (w->local[c] % 64);
        }
        s->size[e] = w->ptr[e + 1] - w->ptr[e];
        s->count[e] = w->counts[e];
    }
    s->words = (w->n_local + 63) / 64;
    return 1;
}

/* Lets the mine total take part: tlo..thi mines among the set's n_local cells. */
static void take_total(Set *s, int n_local, int tlo, int thi) {
    s->total = 1;
    memset(&s->tmask, 0, sizeof(bits));
    for (int i = 0; i < n_local; i++) s->tmask.w[i / 64] |= (word)1 << (i % 64);
    s->tlo = tlo;
    s->thi = thi;
}

/* A search of the kept equations without order[skip] (-1: none). When it finds no
 * layout, the equations that neither failed nor forced a cell in it are dropped too: the
 * same search tree refutes the rest (every value it propagated came from those kept,
 * and every leaf failed on one of them), as a SAT solver's core does. */
static int refute(Work *w, Set *s, int n, int skip, bits M, bits S) {
    int m = 0;
    for (int j = 0; j < n; j++)
        if (j != skip && w->in_set[w->order[j]] == 1) {
            w->active[m++] = w->order[j];
            s->used[w->order[j]] = 0;
        }
    int r = satisfiable(s, w->active, m, M, S);
    if (r == 0) {
        if (skip >= 0) w->in_set[w->order[skip]] = 2;
        for (int k = 0; k < m; k++)
            if (!s->used[w->active[k]]) w->in_set[w->active[k]] = 2;
    }
    return r;
}

/* Drops the set's equations, the last added first, while the cell (bit 0, fixed the
 * other way by M and S) stays forced: 1 done, 0 out of nodes or time. The caller has
 * refuted the whole set (refute with skip -1, which left its core). An equation is
 * kept only when the set without it holds a layout; each such set holds the final one,
 * so every equation kept is needed: the reason is minimal. */
static int shrink(Work *w, Set *s, int n, bits M, bits S, double deadline) {
    for (int i = n - 1; i >= 0; i--) {
        if (w->in_set[w->order[i]] != 1) continue;
        if (now() >= deadline) return 0;
        if (refute(w, s, n, i, M, S) < 0) return 0;
    }
    return 1;
}

/* Whether equations in CSR form (see reasons) are well formed: offsets ascending from 0
 * to the cells' end, every cell below n_cells. */
static int valid_equations(const Py_buffer *bp, const Py_buffer *bc, const Py_buffer *bn, Py_ssize_t n_cells) {
    const int32_t *ptr = bp->buf, *cells = bc->buf;
    Py_ssize_t n_eq = bp->len / 4 - 1;
    int ok = bp->len % 4 == 0 && n_eq >= 0 && bc->len % 4 == 0 && bn->len == 4 * n_eq && n_cells >= 0
             && ptr[0] == 0 && ptr[n_eq] == bc->len / 4;
    for (Py_ssize_t e = 0; ok && e < n_eq; e++) ok = ptr[e] <= ptr[e + 1];
    for (Py_ssize_t k = 0; ok && k < bc->len / 4; k++) ok = cells[k] >= 0 && cells[k] < n_cells;
    return ok;
}

static int ascending(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The equations of order[0..n) still kept (in_set 1), as a tuple: of their indices in
 * the order they were added, or, with names, of their names ascending (active[] is
 * scratch here: the searches are done). */
static PyObject *kept_equations(const Work *w, int n) {
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (w->in_set[w->order[j]] == 1) w->active[kept++] = w->names ? w->names[w->order[j]] : w->order[j];
    if (w->names) qsort(w->active, (size_t)kept, sizeof(int), ascending);
    PyObject *out = PyTuple_New(kept);
    for (int m = 0; out != NULL && m < kept; m++) {
        PyObject *e = PyLong_FromLong(w->active[m]);
        if (e == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, m, e);
    }
    return out;
}

/* Forgets the set of one asked cell: its equations and its cells' bits. */
static void forget(Work *w, int n) {
    for (int i = 0; i < n; i++) w->in_set[w->order[i]] = 0;
    for (int i = 0; i < w->n_local; i++) w->local[w->touched[i]] = -1;
}

/* The reason of the cells away from the clues (u of them: the covered cells in no
 * equation) when the total forces them, mines when `mine`: a minimal set of equations under
 * which the frontier (every cell of an equation) cannot hold the mines that would leave one
 * of them the other way, remaining - u + 1 to remaining mines for one of them safe,
 * remaining - u to remaining - 1 for one a mine. A new reference: the tuple of equation
 * indices; False when every equation together allows it; None past the cell limit, the
 * node budget or the deadline. Leaves the work's scratch as it found it. */
static PyObject *total_answer(Work *w, Set *s, int n_eq, int remaining, int n_covered, int mine, double deadline) {
    PyObject *out;
    bits none = {{0}};
    int n = 0;
    for (int e = 0; e < n_eq; e++) {
        w->order[n++] = e;
        w->in_set[e] = 1;
    }
    w->n_local = 0;
    if (now() >= deadline || !give_bits(w, s, 0, n)) {
        out = Py_None;
        Py_INCREF(out);
    } else {
        int u = n_covered - w->n_local; /* the set holds every equation: its cells are the frontier */
        take_total(s, w->n_local, mine ? remaining - u + 1 : remaining - u, mine ? remaining : remaining - 1);
        int r = refute(w, s, n, -1, none, none);
        if (r != 0 || !shrink(w, s, n, none, none, deadline)) {
            out = r > 0 ? Py_False : Py_None;
            Py_INCREF(out);
        } else {
            out = kept_equations(w, n);
        }
    }
    forget(w, n);
    return out;
}

/* Whether cells a and b lie in exactly the same equations (CSR by cell). */
static int same_equations(const int32_t *cptr, const int32_t *ceqs, int a, int b) {
    int32_t n = cptr[a + 1] - cptr[a];
    return n == cptr[b + 1] - cptr[b] && memcmp(ceqs + cptr[a], ceqs + cptr[b], sizeof(int32_t) * (size_t)n) == 0;
}

/* reasons(eq_ptr, eq_cells, counts, n_cells, cells, mines, remaining, n_covered, node_limit,
 *         seconds[, names]) -> list
 *
 * Equations in CSR form (int32: eq_ptr has n_eq + 1 offsets into eq_cells, flat cell
 * indices below n_cells; counts one per equation); the asked cells (int32) with what they
 * are proven to be (uint8, 1 for a mine); the mines the total leaves and the covered cells
 * (remaining < 0: no total), so that the frontier (every cell of an equation) holds from
 * remaining less the cells away from it to remaining mines. Per asked cell: (equation indices, uses total), a
 * minimal reason; False when the clues alone do not force it and the total is not given
 * (or does not force it either); None when not found within the node budget, the cell
 * limit or the seconds. With names (int32, one per equation, e.g. the flat index of its
 * clue), each reason is the tuple of its equations' names in ascending order instead of
 * their indices.
 *
 * Before any search: a cell that the first equation through it forcing anything forces
 * (to the value asked) takes that equation alone, a minimal reason; a cell in exactly the
 * same equations as a cell asked before it, with the same value, takes that cell's answer
 * (swapping the two maps layouts to layouts, so a reason of one is a reason of the other);
 * a cell in no equation takes the total's reason (see total_answer; False without a total),
 * found once for each value. */
static PyObject *reasons(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer bp, bc, bn, bt, bm, bnames = {0};
    Py_ssize_t n_cells;
    long node_limit;
    int remaining, n_covered;
    double seconds;
    PyObject *names_obj = Py_None;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*y*iild|O", &bp, &bc, &bn, &n_cells, &bt, &bm, &remaining, &n_covered,
                          &node_limit, &seconds, &names_obj))
        return NULL;
    PyObject *out = NULL;
    const int32_t *ptr = bp.buf, *cells = bc.buf, *counts = bn.buf, *asked = bt.buf, *names = NULL;
    const uint8_t *mine = bm.buf;
    Py_ssize_t n_eq = bp.len / 4 - 1, n_asked = bt.len / 4;
    int ok = valid_equations(&bp, &bc, &bn, n_cells) && bt.len % 4 == 0 && bm.len == n_asked;
    if (ok && names_obj != Py_None) {
        if (PyObject_GetBuffer(names_obj, &bnames, PyBUF_SIMPLE) < 0) goto release;
        names = bnames.buf;
        ok = bnames.len == 4 * n_eq;
    }
    for (Py_ssize_t k = 0; ok && k < n_asked; k++) ok = asked[k] >= 0 && asked[k] < n_cells;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "reasons: malformed equations or cells");
        goto release;
    }
    /* equations through each cell (CSR) */
    int32_t *cptr = calloc((size_t)n_cells + 2, sizeof(int32_t));
    int32_t *ceqs = malloc(sizeof(int32_t) * ((size_t)(bc.len / 4) + 1));
    int32_t *local = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    int *order = malloc(sizeof(int) * ((size_t)n_eq + 1));
    char *in_set = calloc((size_t)n_eq + 1, 1);
    int *active = malloc(sizeof(int) * ((size_t)n_eq + 1));
    bits *mask = malloc(sizeof(bits) * ((size_t)n_eq + 1));
    int *size = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int *count = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int32_t *touched = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    int32_t *fillp = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    char *used = calloc((size_t)n_eq + 1, 1);
    int32_t *asked_at = malloc(sizeof(int32_t) * ((size_t)n_cells + 1)); /* cell -> its answer's index, -1 */
    PyObject *off[2] = {NULL, NULL}; /* the answers of the cells in no equation: safe, mine */
    out = PyList_New(n_asked);
    if (!cptr || !ceqs || !local || !order || !in_set || !active || !mask || !size || !count || !touched || !fillp
        || !used || !asked_at || !out) {
        Py_XDECREF(out);
        out = PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < bc.len / 4; k++) cptr[cells[k] + 1]++;
    for (Py_ssize_t c = 0; c < n_cells; c++) cptr[c + 1] += cptr[c];
    memcpy(fillp, cptr, sizeof(int32_t) * (size_t)n_cells);
    for (Py_ssize_t e = 0; e < n_eq; e++)
        for (int32_t k = ptr[e]; k < ptr[e + 1]; k++) ceqs[fillp[cells[k]]++] = (int32_t)e;
    for (Py_ssize_t c = 0; c < n_cells; c++) local[c] = asked_at[c] = -1;
    int frontier = 0;
    for (Py_ssize_t c = 0; c < n_cells; c++) frontier += cptr[c + 1] > cptr[c];
    int total_hi = remaining, total_lo = remaining - (n_covered - frontier);
    Work w = {ptr, cells, counts, cptr, ceqs, names, local, touched, 0, order, active, in_set};
    double deadline = now() + seconds;
    for (Py_ssize_t t = 0; t < n_asked; t++) {
        PyObject *answer = NULL; /* None until found */
        int cell = asked[t], n = 0, found = -1, uses_total = 0; /* found: 1 forced, 0 free, -1 unknown */
        Set s = {.mask = mask, .count = count, .size = size, .limit = node_limit, .used = used};
        bits M = {{0}}, S = {{0}};
        if (mine[t]) S.w[0] = 1; else M.w[0] = 1; /* the cell (bit 0) the other way */
        w.n_local = 0;
        if (cptr[cell] == cptr[cell + 1]) { /* away from the clues: the total's reason, once a value */
            if (total_hi < 0) {
                answer = Py_False;
                Py_INCREF(answer);
            } else {
                int v = mine[t] != 0;
                if (off[v] == NULL) {
                    PyObject *eqs = total_answer(&w, &s, (int)n_eq, remaining, n_covered, v, deadline);
                    if (eqs == NULL) goto failed;
                    off[v] = PyTuple_Check(eqs) ? Py_BuildValue("(NO)", eqs, Py_True) : eqs;
                    if (off[v] == NULL) goto failed;
                }
                answer = off[v];
                Py_INCREF(answer);
            }
            goto answered;
        }
        for (int32_t k = cptr[cell]; k < cptr[cell + 1]; k++) { /* the first equation that forces it */
            int e = ceqs[k], size_e = ptr[e + 1] - ptr[e];
            if (counts[e] == 0 || counts[e] == size_e) {
                if ((counts[e] > 0) == (mine[t] != 0)) {
                    answer = Py_BuildValue("((i)O)", names ? names[e] : e, Py_False);
                    if (answer == NULL) goto failed;
                }
                break;
            }
        }
        if (answer != NULL) goto answered;
        {   /* a twin asked before: the cells of its first equation include it */
            int e = ceqs[cptr[cell]];
            for (int32_t k = ptr[e]; k < ptr[e + 1] && answer == NULL; k++) {
                int32_t u = cells[k], at = asked_at[u];
                if (at >= 0 && mine[at] == mine[t] && same_equations(cptr, ceqs, cell, u)) {
                    answer = PyList_GET_ITEM(out, at);
                    Py_INCREF(answer);
                }
            }
        }
        if (answer != NULL) goto answered;
        if (now() >= deadline) goto answered;
        local[cell] = w.n_local;
        touched[w.n_local++] = cell;
        /* the clues alone: layers outwards from the cell, the equations through it first */
        for (int32_t k = cptr[cell]; k < cptr[cell + 1]; k++) {
            order[n++] = ceqs[k];
            in_set[ceqs[k]] = 1;
        }
        for (int layer_start = 0;;) {
            if (!give_bits(&w, &s, layer_start, n)) break;
            int r = refute(&w, &s, n, -1, M, S);
            if (r < 0) break;
            if (r == 0) { found = 1; break; }
            int before = n;
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
            layer_start = before;
        }
        if (found == 0 && total_hi >= 0) {
            /* the whole component leaves it free: every equation with the total (the
             * frontier's cells all in the set), the other components' equations last */
            int before = n;
            for (Py_ssize_t e = 0; e < n_eq; e++)
                if (!in_set[e]) {
                    in_set[e] = 1;
                    order[n++] = (int)e;
                }
            found = -1;
            if (give_bits(&w, &s, before, n)) {
                take_total(&s, w.n_local, total_lo, total_hi);
                int r = refute(&w, &s, n, -1, M, S);
                found = r < 0 ? -1 : r == 0 ? 1 : 0;
                uses_total = 1;
            }
        }
        if (found == 0) {
            answer = Py_False;
            Py_INCREF(answer);
        } else if (found == 1 && shrink(&w, &s, n, M, S, deadline)) {
            PyObject *eqs = kept_equations(&w, n);
            if (eqs == NULL) goto failed;
            answer = Py_BuildValue("(NO)", eqs, uses_total ? Py_True : Py_False);
            if (answer == NULL) goto failed;
        }
    answered:
        if (answer == NULL) {
            answer = Py_None;
            Py_INCREF(answer);
        }
        forget(&w, n);
        PyList_SET_ITEM(out, t, answer);
        if (asked_at[cell] < 0) asked_at[cell] = (int32_t)t;
        continue;
    failed:
        forget(&w, n);
        Py_DECREF(out);
        out = NULL;
        goto done;
    }
done:
    Py_XDECREF(off[0]); Py_XDECREF(off[1]);
    free(cptr); free(ceqs); free(local); free(order); free(in_set); free(active); free(mask); free(size);
    free(count); free(touched); free(fillp); free(used); free(asked_at);
release:
    PyBuffer_Release(&bp); PyBuffer_Release(&bc); PyBuffer_Release(&bn); PyBuffer_Release(&bt);
    PyBuffer_Release(&bm);
    if (bnames.obj != NULL) PyBuffer_Release(&bnames);
    return out;
}

/* total_reason(eq_ptr, eq_cells, counts, n_cells, remaining, n_covered, mine, node_limit,
 *              seconds) -> tuple | False | None
 *
 * The reason of the cells away from the clues when the total forces them, mines when
 * `mine` (see total_answer), for equations in CSR form as reasons takes them. */
static PyObject *total_reason(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer bp, bc, bn;
    Py_ssize_t n_cells;
    int remaining, n_covered, mine;
    long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*y*y*niipld", &bp, &bc, &bn, &n_cells, &remaining, &n_covered, &mine, &node_limit,
                          &seconds))
        return NULL;
    PyObject *out = NULL;
    const int32_t *ptr = bp.buf, *cells = bc.buf, *counts = bn.buf;
    Py_ssize_t n_eq = bp.len / 4 - 1;
    if (!valid_equations(&bp, &bc, &bn, n_cells)) {
        PyErr_SetString(PyExc_ValueError, "total_reason: malformed equations");
        goto release;
    }
    int32_t *local = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    int32_t *touched = malloc(sizeof(int32_t) * ((size_t)n_cells + 1));
    int *order = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int *active = malloc(sizeof(int) * ((size_t)n_eq + 1));
    char *in_set = calloc((size_t)n_eq + 1, 1);
    bits *mask = malloc(sizeof(bits) * ((size_t)n_eq + 1));
    int *size = malloc(sizeof(int) * ((size_t)n_eq + 1));
    int *count = malloc(sizeof(int) * ((size_t)n_eq + 1));
    char *used = calloc((size_t)n_eq + 1, 1);
    if (!local || !touched || !order || !active || !in_set || !mask || !size || !count || !used) {
        out = PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < n_cells; c++) local[c] = -1;
    Work w = {ptr, cells, counts, NULL, NULL, NULL, local, touched, 0, order, active, in_set};
    Set s = {.mask = mask, .count = count, .size = size, .limit = node_limit, .used = used};
    out = total_answer(&w, &s, (int)n_eq, remaining, n_covered, mine, now() + seconds);
done:
    free(local); free(touched); free(order); free(active); free(in_set); free(mask); free(size); free(count);
    free(used);
release:
    PyBuffer_Release(&bp); PyBuffer_Release(&bc); PyBuffer_Release(&bn);
    return out;
}

static PyMethodDef methods[] = {
    {"reasons", reasons, METH_VARARGS,
     "reasons(eq_ptr, eq_cells, counts, n_cells, cells, mines, remaining, n_covered, node_limit, seconds[, names]) "
     "-> list"},
    {"total_reason", total_reason, METH_VARARGS,
     "total_reason(eq_ptr, eq_cells, counts, n_cells, remaining, n_covered, mine, node_limit, seconds) "
     "-> tuple | False | None"},
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
