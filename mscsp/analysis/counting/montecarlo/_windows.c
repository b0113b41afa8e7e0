/*
 * The window draws of mscsp/analysis/counting/montecarlo/windows.py, compiled.
 *
 * For every chain and every window of a class: the window's clues receive fixed shares
 * from it (what its variables add now); forward filtering over the window's variables,
 * in order, keeps one state per vector of partial sums of the clues still open (a
 * mixed-radix index, each clue's digit in 0..share) with its weight and the (state,
 * option) pairs that lead into it; backward sampling draws one path from the single
 * final state; the draw is taken with probability min(1, rest(k') / rest(k)).
 *
 * This is the Python reference in windows.py operation for operation: the same
 * xoshiro256** numbers, the same sums in the same order, the same normalisation of each
 * layer by its largest weight, so both give the same draws (tests/test_windows.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;

static inline u64 rotl(u64 a, int s) { return (a << s) | (a >> (64 - s)); }

static inline u64 next_u64(u64 *s) {
    u64 result = rotl(s[1] * 5, 7) * 9;
    u64 t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline double uniform(u64 *s) { return (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0); }

/* growable scratch, kept between calls of one step() */
typedef struct {
    i64 *share, *part, *vals, *stride_now, *stride_prev, *newv;
    int *valset;
    i64 nclues_cap, npos_cap;
    /* states of every layer, one after another */
    i64 *st_idx;
    double *st_w;
    i64 *head, *tail;
    i64 states_cap;
    /* the transitions */
    i64 *e_from, *e_next;
    int *e_opt;
    i64 edges_cap;
    i64 *layer_start; /* npos + 1 */
    int *slot;
    unsigned *stamp;
    unsigned gen;
    i64 dense_cap;
} Work;

static void work_free(Work *w) {
    free(w->share); free(w->part); free(w->vals); free(w->stride_now); free(w->stride_prev); free(w->newv);
    free(w->valset); free(w->st_idx); free(w->st_w); free(w->head); free(w->tail); free(w->e_from);
    free(w->e_next); free(w->e_opt); free(w->layer_start); free(w->slot); free(w->stamp);
}

static int grow(void **p, i64 *cap, i64 need, size_t item) {
    if (need <= *cap) return 0;
    i64 n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    void *q = realloc(*p, (size_t)n * item);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

static int grow_states(Work *w, i64 need) {
    i64 cap = w->states_cap;
    i64 c1 = cap, c2 = cap, c3 = cap, c4 = cap;
    if (grow((void **)&w->st_idx, &c1, need, sizeof(i64)) || grow((void **)&w->st_w, &c2, need, sizeof(double)) ||
        grow((void **)&w->head, &c3, need, sizeof(i64)) || grow((void **)&w->tail, &c4, need, sizeof(i64)))
        return -1;
    w->states_cap = c1;
    return 0;
}

static int grow_edges(Work *w, i64 need) {
    i64 cap = w->edges_cap;
    i64 c1 = cap, c2 = cap, c3 = cap;
    if (grow((void **)&w->e_from, &c1, need, sizeof(i64)) || grow((void **)&w->e_next, &c2, need, sizeof(i64)) ||
        grow((void **)&w->e_opt, &c3, need, sizeof(int)))
        return -1;
    w->edges_cap = c1;
    return 0;
}

typedef struct {
    const i64 *variable, *slot_starts, *slots, *first, *last, *open_starts, *open;
    const i64 *options, *mines, *adds, *add_starts, *nclues;
    const double *weight;
    i64 width; /* most options: the row length of weight and mines */
    i64 edge_cap;
} Tables;

/* one window of one chain, with the weights `weight` (the model's, or tilted for a walk,
 * whose draws are always taken): 0 taken, 1 refused, 2 skipped, -1 out of memory */
static int window(const Tables *tb, Work *w, const double *weight, int walk, i64 *row, i64 *k,
                  const double *log_rest, u64 *s, i64 lo, i64 hi, i64 c_lo, i64 c_hi) {
    i64 nc = c_hi - c_lo, npos = hi - lo;
    i64 *share = w->share, *part = w->part, *vals = w->vals;
    int *valset = w->valset;
    const i64 *first = tb->first + c_lo, *last = tb->last + c_lo;
    memset(share, 0, sizeof(i64) * (size_t)nc);
    i64 old = 0;
    for (i64 p = lo; p < hi; p++) {
        i64 v = tb->variable[p], o = row[v], n = tb->nclues[v];
        old += tb->mines[v * tb->width + o];
        i64 base = tb->add_starts[v] + o * n;
        for (i64 j = 0; j < n; j++) share[tb->slots[tb->slot_starts[p] + j]] += tb->adds[base + j];
    }
    /* layer 0: the empty assignment */
    if (grow_states(w, 1)) return -1;
    w->st_idx[0] = 0;
    w->st_w[0] = 1.0;
    w->layer_start[0] = 0;
    w->layer_start[1] = 1;
    i64 nstates = 1, nedges = 0;
    const i64 *prev_open = NULL;
    i64 nprev = 0;
    i64 *stride_now = w->stride_now, *stride_prev = w->stride_prev;
    for (i64 q = 0; q < npos; q++) {
        i64 p = lo + q, v = tb->variable[p], n = tb->nclues[v];
        const i64 *mslots = tb->slots + tb->slot_starts[p];
        const i64 *now = tb->open + tb->open_starts[p];
        i64 nnow = tb->open_starts[p + 1] - tb->open_starts[p];
        i64 size = 1;
        for (i64 j = 0; j < nnow; j++) {
            stride_now[now[j]] = size;
            size *= share[now[j]] + 1;
            if (size > w->dense_cap) return 2;
        }
        w->gen++;
        if (w->gen == 0) { /* the stamps wrapped: clear them */
            memset(w->stamp, 0, sizeof(unsigned) * (size_t)w->dense_cap);
            w->gen = 1;
        }
        i64 from0 = w->layer_start[q], from1 = w->layer_start[q + 1];
        i64 at = from1; /* the new layer's states start here */
        for (i64 si = from0; si < from1; si++) {
            i64 sidx = w->st_idx[si];
            double sw = w->st_w[si];
            for (i64 j = 0; j < nprev; j++) {
                i64 c = prev_open[j];
                part[c] = (sidx / stride_prev[c]) % (share[c] + 1);
            }
            for (i64 o = 0; o < tb->options[v]; o++) {
                double om = weight[v * tb->width + o];
                if (om == 0.0) continue;
                i64 base = tb->add_starts[v] + o * n;
                int ok = 1;
                for (i64 j = 0; j < n; j++) {
                    i64 c = mslots[j];
                    i64 value = (first[c] == q ? 0 : part[c]) + tb->adds[base + j];
                    if (value > share[c] || (last[c] == q && value != share[c])) {
                        ok = 0;
                        break;
                    }
                    vals[c] = value;
                    valset[c] = 1;
                }
                if (ok) {
                    i64 idx = 0;
                    for (i64 j = 0; j < nnow; j++) {
                        i64 c = now[j];
                        idx += (valset[c] ? vals[c] : part[c]) * stride_now[c];
                    }
                    i64 t;
                    if (w->stamp[idx] == w->gen) {
                        t = w->slot[idx];
                    } else {
                        if (grow_states(w, at + 1)) return -1;
                        t = at++;
                        w->stamp[idx] = w->gen;
                        w->slot[idx] = (int)(t - from1);
                        w->st_idx[t] = idx;
                        w->st_w[t] = 0.0;
                        w->head[t] = -1;
                        w->tail[t] = -1;
                        t -= from1;
                    }
                    t += from1;
                    w->st_w[t] += sw * om;
                    if (grow_edges(w, nedges + 1)) return -1;
                    w->e_from[nedges] = si - from0;
                    w->e_opt[nedges] = (int)o;
                    w->e_next[nedges] = -1;
                    if (w->tail[t] < 0) w->head[t] = nedges;
                    else w->e_next[w->tail[t]] = nedges;
                    w->tail[t] = nedges;
                    nedges++;
                }
                for (i64 j = 0; j < n; j++) valset[mslots[j]] = 0;
            }
        }
        if (at == from1 || nedges > tb->edge_cap) return 2;
        double most = w->st_w[from1];
        for (i64 t = from1 + 1; t < at; t++)
            if (w->st_w[t] > most) most = w->st_w[t];
        for (i64 t = from1; t < at; t++) w->st_w[t] = w->st_w[t] / most;
        w->layer_start[q + 2] = at;
        nstates = at;
        prev_open = now;
        nprev = nnow;
        i64 *swap = stride_prev;
        stride_prev = stride_now;
        stride_now = swap;
    }
    (void)nstates;
    /* backward */
    i64 t = 0; /* within the last layer */
    i64 *newv = w->newv;
    for (i64 q = npos - 1; q >= 0; q--) {
        i64 v = tb->variable[lo + q];
        const double *before = w->st_w + w->layer_start[q];
        i64 state = w->layer_start[q + 1] + t;
        double total = 0.0;
        i64 count = 0;
        for (i64 e = w->head[state]; e >= 0; e = w->e_next[e]) {
            total += before[w->e_from[e]] * weight[v * tb->width + w->e_opt[e]];
            count++;
        }
        double u = uniform(s) * total, cum = 0.0;
        i64 pick = -1, lastone = -1;
        for (i64 e = w->head[state]; e >= 0; e = w->e_next[e]) {
            lastone = e;
            cum += before[w->e_from[e]] * weight[v * tb->width + w->e_opt[e]];
            if (u < cum) {
                pick = e;
                break;
            }
        }
        if (pick < 0) pick = lastone;
        (void)count;
        newv[q] = w->e_opt[pick];
        t = w->e_from[pick];
    }
    i64 k_new = *k - old;
    for (i64 q = 0; q < npos; q++) k_new += tb->mines[tb->variable[lo + q] * tb->width + newv[q]];
    if (!walk) {
        double a = log_rest[k_new], b = log_rest[*k];
        if (a == -INFINITY) return 1;
        if (a < b && !(uniform(s) < exp(a - b))) return 1;
    }
    for (i64 q = 0; q < npos; q++) row[tb->variable[lo + q]] = newv[q];
    *k = k_new;
    return 0;
}

static PyObject *step(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { NB = 22 };
    Py_buffer b[NB];
    Py_ssize_t dense_cap, edge_cap;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "w*w*y*w*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*nny*y*y*", &b[0], &b[1], &b[2], &b[3],
                          &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12], &b[13], &b[14], &b[15],
                          &b[16], &b[17], &b[18], &dense_cap, &edge_cap, &b[19], &b[20], &b[21]))
        return NULL;
    PyObject *result = NULL;
    Work w;
    memset(&w, 0, sizeof(w));
    i64 *x = b[0].buf, *k = b[1].buf;
    const double *log_rest = b[2].buf;
    u64 *states = b[3].buf;
    const i64 *starts = b[4].buf, *clue_starts = b[8].buf;
    Tables tb = {.variable = b[5].buf, .slot_starts = b[6].buf, .slots = b[7].buf, .first = b[9].buf,
                 .last = b[10].buf, .open_starts = b[11].buf, .open = b[12].buf, .options = b[13].buf,
                 .weight = b[14].buf, .mines = b[15].buf, .adds = b[16].buf, .add_starts = b[17].buf,
                 .nclues = b[18].buf, .edge_cap = edge_cap};
    i64 chains = b[1].len / (Py_ssize_t)sizeof(i64);
    i64 nrest = b[2].len / (Py_ssize_t)sizeof(double);
    i64 nwin = b[4].len / (Py_ssize_t)sizeof(i64) - 1;
    i64 npos = b[5].len / (Py_ssize_t)sizeof(i64);
    i64 nslots = b[7].len / (Py_ssize_t)sizeof(i64);
    i64 nclues_all = b[9].len / (Py_ssize_t)sizeof(i64);
    i64 nopen = b[12].len / (Py_ssize_t)sizeof(i64);
    i64 size = b[13].len / (Py_ssize_t)sizeof(i64);
    i64 nadds = b[16].len / (Py_ssize_t)sizeof(i64);
    tb.width = size ? (b[14].len / (Py_ssize_t)sizeof(double)) / size : 1;
    /* a walk: each chain's direction (-1 fewer mines, +1 more, 0 no draw), the mine
     * count at which it stops (once reached, its later windows are not drawn) and the
     * weights tilted each way, (2, size, width) */
    const i64 *direction = b[19].len ? b[19].buf : NULL;
    const double *tilted = b[20].buf;
    const i64 *goal = b[21].buf;
    i64 ncols = chains ? (b[0].len / (Py_ssize_t)sizeof(i64)) / chains : 0;
    /* what the programme relies on, checked once */
    int ok = chains >= 1 && nwin >= 0 && ncols >= size && b[3].len == (Py_ssize_t)(chains * 4 * sizeof(u64)) &&
             b[15].len == b[14].len / (Py_ssize_t)sizeof(double) * (Py_ssize_t)sizeof(i64) &&
             b[6].len == (Py_ssize_t)((npos + 1) * sizeof(i64)) && b[11].len == b[6].len &&
             b[8].len == b[4].len && b[10].len == b[9].len && b[17].len == (Py_ssize_t)((size + 1) * sizeof(i64)) &&
             b[18].len == (Py_ssize_t)(size * sizeof(i64)) && dense_cap >= 1 && dense_cap < (1L << 31) &&
             edge_cap >= 1 && nrest >= 1;
    ok = ok && starts[0] == 0 && starts[nwin] == npos && clue_starts[0] == 0 && clue_starts[nwin] == nclues_all &&
         tb.slot_starts[0] == 0 && tb.slot_starts[npos] == nslots && tb.open_starts[0] == 0 &&
         tb.open_starts[npos] == nopen && tb.add_starts[0] == 0 && tb.add_starts[size] == nadds;
    i64 most_clues = 0, most_pos = 0;
    for (i64 v = 0; ok && v < size; v++)
        ok = tb.options[v] >= 1 && tb.options[v] <= tb.width && tb.nclues[v] >= 0 &&
             tb.add_starts[v + 1] - tb.add_starts[v] == tb.options[v] * tb.nclues[v];
    for (i64 c = 0; ok && c < chains; c++) {
        ok = k[c] >= 0 && k[c] < nrest;
        for (i64 v = 0; ok && v < size; v++) ok = x[c * ncols + v] >= 0 && x[c * ncols + v] < tb.options[v];
    }
    for (i64 wi = 0; ok && wi < nwin; wi++) {
        i64 lo = starts[wi], hi = starts[wi + 1], c_lo = clue_starts[wi], c_hi = clue_starts[wi + 1];
        ok = lo <= hi && c_lo <= c_hi;
        if (hi - lo > most_pos) most_pos = hi - lo;
        if (c_hi - c_lo > most_clues) most_clues = c_hi - c_lo;
        for (i64 p = lo; ok && p < hi; p++) {
            i64 v = tb.variable[p];
            ok = v >= 0 && v < size && tb.slot_starts[p + 1] - tb.slot_starts[p] == tb.nclues[v] &&
                 tb.open_starts[p] <= tb.open_starts[p + 1];
            for (i64 j = tb.slot_starts[p]; ok && j < tb.slot_starts[p + 1]; j++)
                ok = tb.slots[j] >= 0 && tb.slots[j] < c_hi - c_lo;
            for (i64 j = tb.open_starts[p]; ok && j < tb.open_starts[p + 1]; j++)
                ok = tb.open[j] >= 0 && tb.open[j] < c_hi - c_lo;
        }
        for (i64 c = c_lo; ok && c < c_hi; c++)
            ok = tb.first[c] >= 0 && tb.first[c] <= tb.last[c] && tb.last[c] < hi - lo;
    }
    /* a k the window moves to stays in log_rest: every cell's mines fit in it */
    i64 cells = 0;
    for (i64 v = 0; ok && v < size; v++) {
        i64 m = 0;
        for (i64 o = 0; o < tb.options[v]; o++)
            if (tb.mines[v * tb.width + o] > m) m = tb.mines[v * tb.width + o];
        ok = tb.mines[v * tb.width] >= 0;
        cells += m;
    }
    ok = ok && cells < nrest;
    ok = ok && (direction == NULL ? b[20].len == 0 && b[21].len == 0
                                  : b[19].len == b[1].len && b[21].len == b[1].len && b[20].len == 2 * b[14].len);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "step: malformed windows or chains");
        goto out;
    }
    w.nclues_cap = most_clues + 1;
    w.npos_cap = most_pos + 1;
    w.dense_cap = dense_cap;
    w.share = calloc((size_t)w.nclues_cap, sizeof(i64));
    w.part = calloc((size_t)w.nclues_cap, sizeof(i64));
    w.vals = calloc((size_t)w.nclues_cap, sizeof(i64));
    w.stride_now = calloc((size_t)w.nclues_cap, sizeof(i64));
    w.stride_prev = calloc((size_t)w.nclues_cap, sizeof(i64));
    w.valset = calloc((size_t)w.nclues_cap, sizeof(int));
    w.newv = calloc((size_t)w.npos_cap, sizeof(i64));
    w.layer_start = calloc((size_t)w.npos_cap + 2, sizeof(i64));
    w.slot = malloc(sizeof(int) * (size_t)dense_cap);
    w.stamp = calloc((size_t)dense_cap, sizeof(unsigned));
    if (!w.share || !w.part || !w.vals || !w.stride_now || !w.stride_prev || !w.valset || !w.newv ||
        !w.layer_start || !w.slot || !w.stamp) {
        PyErr_NoMemory();
        goto out;
    }
    long taken = 0, refused = 0, skipped = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (i64 c = 0; c < chains && !failed; c++) {
        const double *weight = tb.weight;
        if (direction != NULL) {
            if (direction[c] == 0) continue;
            weight = tilted + (direction[c] > 0 ? size * tb.width : 0);
        }
        for (i64 wi = 0; wi < nwin; wi++) {
            if (direction != NULL && (direction[c] > 0 ? k[c] >= goal[c] : k[c] <= goal[c])) break;
            int r = window(&tb, &w, weight, direction != NULL, x + c * ncols, k + c, log_rest, states + 4 * c,
                           starts[wi], starts[wi + 1], clue_starts[wi], clue_starts[wi + 1]);
            if (r < 0) {
                failed = 1;
                break;
            }
            if (r == 0) taken++;
            else if (r == 1) refused++;
            else skipped++;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto out;
    }
    result = Py_BuildValue("(lll)", taken, refused, skipped);
out:
    work_free(&w);
    for (int j = 0; j < NB; j++)
        if (b[j].obj) PyBuffer_Release(&b[j]);
    return result;
}

static PyMethodDef methods[] = {
    {"step", step, METH_VARARGS,
     "step(x, k, log_rest, states, starts, variable, slot_starts, slots, clue_starts, first, last, open_starts, "
     "open, options, weight, mines, adds, add_starts, nclues, dense_cap, edge_cap, direction, tilted, goal) -> "
     "(taken, refused, skipped); direction, tilted and goal empty but for a walk"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_windows",
                                    "The layout chain's window draws, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__windows(void) { return PyModule_Create(&module); }
