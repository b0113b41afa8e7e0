/*
 * The rounded count of mscsp/analysis/counting/rounded.py, compiled.
 *
 * The forward-backward programme of exact/sweep.py with every table entry a band of doubles
 * (coefficients j..j+len-1 of the polynomial in the mine count) instead of one packed
 * integer. Every quantity is a sum of products of non-negative numbers, so each
 * rounded operation multiplies the exact value by a factor within [1-u, 1+u]
 * (u = 2^-53, round to nearest, no overflow or underflow: both are checked); the
 * programme counts, for every result, how many such factors it may carry (its
 * rounding depth), from which rounded.py states proven bounds.
 *
 * The backward sweep carries the dual of the forward one: given the weight w[j] of a
 * layout of this component with j mines (the rest of the board's exact weight), an
 * entry's backward value at coefficient j is the weight of its completions when the
 * first variables put j mines; a variable's tally for one of its values is then one
 * dot product per state, not a product of polynomials. Coefficients that cannot reach
 * a j with w[j] > 0 (too few or too many mines left to place) are cut from the bands.
 *
 * States are the packed partial sums of exact/sweep.py's _Plan, in 64 bits (the caller
 * checks that they fit). Stored forward tables are thinned to every
 * ceil(sqrt(m))-th one when they would pass half the byte allowance, the others
 * recomputed when the backward sweep needs them, as in sweep.py.
 *
 * One module, not several: a compiled extension is one shared object, and the forward and
 * backward sweeps share the bands and the rounding depths they carry.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int64_t i64;
typedef uint64_t u64;

enum { OK = 0, OUT_OF_TIME = 1, OUT_OF_MEMORY = 2, TOO_LARGE = 3, TOO_MANY = 4 };

/* values above this are refused: a product of two of them by a factor below 2^23
 * cannot overflow */
#define VALUE_CEILING 0x1p490

typedef struct {
    int off, add, lo, hi;
} Touch;

typedef struct {
    int mines;
    double factor;
    i64 delta;
    int nt;
    Touch *t;
} Option;

typedef struct {
    int nopt;
    Option *opt;
    int multiplies; /* some factor is not 1: its products round */
} Step;

typedef struct {
    i64 n, cap;
    u64 *state;
    int32_t *lo, *len;
    i64 *off;
    double *vals;
    i64 nvals;
    i64 *slot; /* open addressing: entry index + 1, 0 empty */
    i64 mask;
    i64 bytes;
} Table;

typedef struct {
    int m, kmax;
    Step *steps;
    u64 fmask;
    int *jlo, *jhi; /* the coefficients kept after i steps */
    double deadline;
    i64 allowance, held, max_states;
    i64 ticks;
    int status;
} Run;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int tick(Run *r, i64 work) {
    r->ticks += work;
    if (r->ticks >= 65536) {
        r->ticks = 0;
        if (r->deadline > 0 && now() > r->deadline) {
            r->status = OUT_OF_TIME;
            return 1;
        }
    }
    return 0;
}

static inline u64 mix(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static void table_free(Run *r, Table *t) {
    if (!t)
        return;
    r->held -= t->bytes;
    free(t->state);
    free(t->lo);
    free(t->len);
    free(t->off);
    free(t->vals);
    free(t->slot);
    free(t);
}

static int charge(Run *r, Table *t, i64 bytes) {
    t->bytes += bytes;
    r->held += bytes;
    if (r->held > r->allowance) {
        r->status = OUT_OF_MEMORY;
        return 1;
    }
    return 0;
}

static Table *table_new(Run *r, i64 cap) {
    Table *t = calloc(1, sizeof(Table));
    if (!t)
        return NULL;
    i64 slots = 16;
    while (slots < 2 * cap)
        slots <<= 1;
    t->cap = cap;
    t->state = malloc(cap * sizeof(u64));
    t->lo = malloc(cap * sizeof(int32_t));
    t->len = malloc(cap * sizeof(int32_t));
    t->off = malloc(cap * sizeof(i64));
    t->slot = calloc(slots, sizeof(i64));
    t->mask = slots - 1;
    if (!t->state || !t->lo || !t->len || !t->off || !t->slot) {
        table_free(r, t);
        return NULL;
    }
    charge(r, t, cap * (i64)(sizeof(u64) + 2 * sizeof(int32_t) + sizeof(i64)) + slots * (i64)sizeof(i64));
    return t;
}

/* the first empty slot on state s's probe sequence (s absent from the table) */
static inline i64 empty_slot(const Table *t, u64 s) {
    i64 h = (i64)(mix(s) & (u64)t->mask);
    while (t->slot[h])
        h = (h + 1) & t->mask;
    return h;
}

static int table_grow(Run *r, Table *t) {
    i64 cap = t->cap * 2;
    u64 *s = realloc(t->state, cap * sizeof(u64));
    if (s)
        t->state = s;
    int32_t *lo = realloc(t->lo, cap * sizeof(int32_t));
    if (lo)
        t->lo = lo;
    int32_t *len = realloc(t->len, cap * sizeof(int32_t));
    if (len)
        t->len = len;
    i64 *off = realloc(t->off, cap * sizeof(i64));
    if (off)
        t->off = off;
    i64 slots = (t->mask + 1) * 2;
    i64 *slot = calloc(slots, sizeof(i64));
    if (!s || !lo || !len || !off || !slot) {
        free(slot);
        r->status = OUT_OF_MEMORY;
        return 1;
    }
    free(t->slot);
    t->slot = slot;
    t->mask = slots - 1;
    for (i64 e = 0; e < t->n; e++) {
        t->slot[empty_slot(t, t->state[e])] = e + 1;
    }
    i64 old = t->cap;
    t->cap = cap;
    return charge(r, t, (cap - old) * (i64)(sizeof(u64) + 2 * sizeof(int32_t) + sizeof(i64)) +
                            (slots / 2) * (i64)sizeof(i64));
}

static inline i64 find(const Table *t, u64 s) {
    i64 h = (i64)(mix(s) & (u64)t->mask);
    for (;;) {
        i64 e = t->slot[h];
        if (!e)
            return -1;
        if (t->state[e - 1] == s)
            return e - 1;
        h = (h + 1) & t->mask;
    }
}

/* the entry of state s, added (with an empty band) when absent; -1 when out of memory */
static i64 find_or_add(Run *r, Table *t, u64 s) {
    i64 h = (i64)(mix(s) & (u64)t->mask);
    for (;;) {
        i64 e = t->slot[h];
        if (!e)
            break;
        if (t->state[e - 1] == s)
            return e - 1;
        h = (h + 1) & t->mask;
    }
    if (2 * (t->n + 1) > t->mask + 1 || t->n == t->cap) {
        if (table_grow(r, t))
            return -1;
        h = empty_slot(t, s);
    }
    i64 e = t->n++;
    t->state[e] = s;
    t->lo[e] = INT32_MAX;
    t->len[e] = 0;
    t->slot[h] = e + 1;
    return e;
}

static inline int fits(const Option *o, u64 s, u64 fmask) {
    for (int k = 0; k < o->nt; k++) {
        const Touch *tc = &o->t[k];
        int v = (int)((s >> tc->off) & fmask) + tc->add;
        if (v < tc->lo || v > tc->hi)
            return 0;
    }
    return 1;
}

/* forward table i+1 from table i; *contrib gets the most terms summed into one value */
static Table *advance(Run *r, int i, const Table *a, int *contrib) {
    const Step *st = &r->steps[i];
    int lo1 = r->jlo[i + 1], hi1 = r->jhi[i + 1];
    Table *b = table_new(r, a->n > 16 ? a->n : 16);
    if (!b) {
        r->status = OUT_OF_MEMORY;
        return NULL;
    }
    if (r->status)
        goto fail;
    i64 nedge = a->n * (i64)st->nopt;
    i64 *edge = malloc((nedge > 0 ? nedge : 1) * sizeof(i64));
    if (!edge) {
        r->status = OUT_OF_MEMORY;
        goto fail;
    }
    r->held += nedge * (i64)sizeof(i64);
    /* pass 1: the states reached and the union of their bands */
    for (i64 e = 0; e < a->n; e++) {
        u64 s = a->state[e];
        int alo = a->lo[e], ahi = a->lo[e] + a->len[e] - 1;
        for (int o = 0; o < st->nopt; o++) {
            const Option *op = &st->opt[o];
            edge[e * st->nopt + o] = -1;
            if (!a->len[e] || !fits(op, s, r->fmask))
                continue;
            int blo = alo + op->mines, bhi = ahi + op->mines;
            if (blo < lo1)
                blo = lo1;
            if (bhi > hi1)
                bhi = hi1;
            if (blo > bhi)
                continue;
            i64 t = find_or_add(r, b, s + (u64)op->delta);
            if (t < 0)
                goto fail_edge;
            int tlo = b->lo[t], thi = b->len[t] ? b->lo[t] + b->len[t] - 1 : INT32_MIN;
            if (blo < tlo)
                tlo = blo;
            if (bhi > thi)
                thi = bhi;
            b->lo[t] = tlo;
            b->len[t] = thi - tlo + 1;
            edge[e * st->nopt + o] = t;
        }
        if (tick(r, st->nopt))
            goto fail_edge;
    }
    if (b->n > r->max_states) {
        r->status = TOO_MANY;
        goto fail_edge;
    }
    i64 total = 0;
    for (i64 t = 0; t < b->n; t++) {
        b->off[t] = total;
        total += b->len[t];
    }
    b->nvals = total;
    if (charge(r, b, total * (i64)sizeof(double)))
        goto fail_edge;
    b->vals = calloc(total > 0 ? total : 1, sizeof(double));
    int32_t *count = calloc(b->n > 0 ? b->n : 1, sizeof(int32_t));
    if (!b->vals || !count) {
        free(count);
        r->status = OUT_OF_MEMORY;
        goto fail_edge;
    }
    /* pass 2: the sums */
    for (i64 e = 0; e < a->n; e++) {
        const double *src = a->vals + a->off[e];
        int alo = a->lo[e], ahi = a->lo[e] + a->len[e] - 1;
        for (int o = 0; o < st->nopt; o++) {
            i64 t = edge[e * st->nopt + o];
            if (t < 0)
                continue;
            const Option *op = &st->opt[o];
            count[t]++;
            int blo = alo + op->mines, bhi = ahi + op->mines;
            if (blo < b->lo[t])
                blo = b->lo[t];
            if (bhi > b->lo[t] + b->len[t] - 1)
                bhi = b->lo[t] + b->len[t] - 1;
            double *dst = b->vals + b->off[t] - b->lo[t];
            const double *from = src - alo - op->mines;
            double f = op->factor;
            for (int j = blo; j <= bhi; j++)
                dst[j] += from[j] * f;
        }
        if (tick(r, st->nopt * (i64)(a->len[e] + 1)))
            goto fail_count;
    }
    int most = 0;
    double top = 0.0;
    for (i64 t = 0; t < b->n; t++)
        if (count[t] > most)
            most = count[t];
    for (i64 v = 0; v < total; v++)
        if (b->vals[v] > top)
            top = b->vals[v];
    free(count);
    free(edge);
    r->held -= nedge * (i64)sizeof(i64);
    if (!(top <= VALUE_CEILING)) {
        r->status = TOO_LARGE;
        table_free(r, b);
        return NULL;
    }
    *contrib = most;
    return b;
fail_count:
    free(count);
fail_edge:
    free(edge);
    r->held -= nedge * (i64)sizeof(i64);
fail:
    table_free(r, b);
    return NULL;
}

static int read_steps(Run *r, PyObject *steps) {
    r->m = (int)PyList_GET_SIZE(steps);
    r->steps = calloc(r->m > 0 ? r->m : 1, sizeof(Step));
    if (!r->steps) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < r->m; i++) {
        PyObject *opts = PyList_GET_ITEM(steps, i);
        if (!PyList_Check(opts)) {
            PyErr_SetString(PyExc_TypeError, "a step is a list of options");
            return -1;
        }
        Step *st = &r->steps[i];
        st->nopt = (int)PyList_GET_SIZE(opts);
        st->opt = calloc(st->nopt > 0 ? st->nopt : 1, sizeof(Option));
        if (!st->opt) {
            PyErr_NoMemory();
            return -1;
        }
        for (int o = 0; o < st->nopt; o++) {
            PyObject *touches;
            Option *op = &st->opt[o];
            long long delta;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(opts, o), "idLO!", &op->mines, &op->factor, &delta, &PyList_Type,
                                  &touches))
                return -1;
            op->delta = (i64)delta;
            if (op->factor != 1.0)
                st->multiplies = 1;
            op->nt = (int)PyList_GET_SIZE(touches);
            op->t = calloc(op->nt > 0 ? op->nt : 1, sizeof(Touch));
            if (!op->t) {
                PyErr_NoMemory();
                return -1;
            }
            for (int k = 0; k < op->nt; k++) {
                Touch *tc = &op->t[k];
                if (!PyArg_ParseTuple(PyList_GET_ITEM(touches, k), "iiii", &tc->off, &tc->add, &tc->lo, &tc->hi))
                    return -1;
            }
        }
    }
    return 0;
}

static void free_steps(Run *r) {
    if (!r->steps)
        return;
    for (int i = 0; i < r->m; i++) {
        if (r->steps[i].opt) {
            for (int o = 0; o < r->steps[i].nopt; o++)
                free(r->steps[i].opt[o].t);
            free(r->steps[i].opt);
        }
    }
    free(r->steps);
}

static PyObject *list_of(const double *v, i64 n) {
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (i64 k = 0; k < n; k++)
        PyList_SET_ITEM(out, k, PyFloat_FromDouble(v[k]));
    return out;
}

/*
 * count(steps, field_mask, kmax, jlo, jhi, weights, weights_depth, seconds, allowance, max_states)
 *
 * steps: per step, a list of options (mines, factor, delta, [(off, add, lo, hi), ...]).
 * jlo, jhi: the coefficients worth keeping after each step (m + 1 each).
 * weights: None for the forward sweep alone, else w[0..kmax].
 * Returns (status, poly_lo, poly, depth) for the forward sweep alone and
 * (status, poly_lo, poly, poly_depth, total, total_depth, tallies, tally_depth) with the
 * weights: tallies[i][o] the weight summed over assignments whose step i takes option o.
 * A status other than 0 (1 time, 2 memory, 3 values too large, 4 a table of more than max_states
 * entries) comes with Nones.
 */
static PyObject *py_count(PyObject *self, PyObject *args) {
    PyObject *steps, *jlo_obj, *jhi_obj, *wobj;
    unsigned long long fmask;
    int kmax, wdepth;
    double seconds;
    long long allowance, max_states;
    if (!PyArg_ParseTuple(args, "O!KiO!O!OidLL", &PyList_Type, &steps, &fmask, &kmax, &PyList_Type, &jlo_obj,
                          &PyList_Type, &jhi_obj, &wobj, &wdepth, &seconds, &allowance, &max_states))
        return NULL;
    Run run;
    memset(&run, 0, sizeof run);
    Run *r = &run;
    r->kmax = kmax;
    r->fmask = (u64)fmask;
    r->allowance = (i64)allowance;
    r->max_states = (i64)max_states;
    r->deadline = seconds > 0 && isfinite(seconds) ? now() + seconds : 0.0;
    PyObject *result = NULL;
    Table **tab = NULL;
    double *w = NULL;
    double **acc = NULL;
    int *depth_f = NULL;
    if (read_steps(r, steps) < 0)
        goto done;
    int m = r->m;
    if (PyList_GET_SIZE(jlo_obj) != m + 1 || PyList_GET_SIZE(jhi_obj) != m + 1) {
        PyErr_SetString(PyExc_ValueError, "jlo and jhi need one entry a table");
        goto done;
    }
    r->jlo = malloc((m + 1) * sizeof(int));
    r->jhi = malloc((m + 1) * sizeof(int));
    tab = calloc(m + 1, sizeof(Table *));
    depth_f = calloc(m + 1, sizeof(int));
    if (!r->jlo || !r->jhi || !tab || !depth_f) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i <= m; i++) {
        r->jlo[i] = (int)PyLong_AsLong(PyList_GET_ITEM(jlo_obj, i));
        r->jhi[i] = (int)PyLong_AsLong(PyList_GET_ITEM(jhi_obj, i));
    }
    if (PyErr_Occurred())
        goto done;
    int dual = wobj != Py_None;
    if (dual) {
        if (!PyList_Check(wobj) || PyList_GET_SIZE(wobj) != kmax + 1) {
            PyErr_SetString(PyExc_ValueError, "weights need kmax + 1 entries");
            goto done;
        }
        w = malloc((kmax + 1) * sizeof(double));
        acc = calloc(m > 0 ? m : 1, sizeof(double *));
        if (!w || !acc) {
            PyErr_NoMemory();
            goto done;
        }
        for (int j = 0; j <= kmax; j++)
            w[j] = PyFloat_AsDouble(PyList_GET_ITEM(wobj, j));
        if (PyErr_Occurred())
            goto done;
        for (int i = 0; i < m; i++) {
            acc[i] = calloc(r->steps[i].nopt > 0 ? r->steps[i].nopt : 1, sizeof(double));
            if (!acc[i]) {
                PyErr_NoMemory();
                goto done;
            }
        }
    }

    /* forward: tables kept while they fit in half the allowance, then every stride-th */
    int stride = 1;
    Py_BEGIN_ALLOW_THREADS;
    Table *first = table_new(r, 16);
    if (!first)
        r->status = OUT_OF_MEMORY;
    else {
        tab[0] = first;
        first->vals = malloc(sizeof(double));
        if (!first->vals)
            r->status = OUT_OF_MEMORY;
        else if (r->jlo[0] <= 0 && 0 <= r->jhi[0] && find_or_add(r, first, 0) == 0) {
            first->lo[0] = 0;
            first->len[0] = 1;
            first->off[0] = 0;
            first->nvals = 1;
            first->vals[0] = 1.0;
            charge(r, first, sizeof(double));
        }
    }
    for (int i = 0; i < m && !r->status; i++) {
        int contrib = 0;
        Table *next = advance(r, i, tab[i], &contrib);
        if (!next)
            break;
        tab[i + 1] = next;
        depth_f[i + 1] = depth_f[i] + r->steps[i].multiplies + (contrib > 1 ? contrib - 1 : 0);
        if (stride == 1 && r->held > r->allowance / 2 && i + 1 < m) {
            int s = 1;
            while ((i64)s * s < m)
                s++;
            stride = s > 2 ? s : 2;
            for (int k = 1; k <= i; k++)
                if (k % stride && tab[k]) {
                    table_free(r, tab[k]);
                    tab[k] = NULL;
                }
        } else if (i > 0 && i % stride) {
            table_free(r, tab[i]);
            tab[i] = NULL;
        }
    }
    Py_END_ALLOW_THREADS;
    if (r->status) {
        result = Py_BuildValue("(iOOO)", r->status, Py_None, Py_None, Py_None);
        goto done;
    }
    Table *last = tab[m];
    i64 fin = find(last, 0);
    int poly_lo = fin >= 0 ? last->lo[fin] : 0;
    i64 poly_len = fin >= 0 ? last->len[fin] : 0;
    PyObject *poly = list_of(fin >= 0 ? last->vals + last->off[fin] : NULL, poly_len);
    if (!poly)
        goto done;
    if (!dual) {
        result = Py_BuildValue("(iiNi)", OK, poly_lo, poly, depth_f[m]);
        goto done;
    }

    /* backward: the dual values of table i+1 (aligned with its bands) give table i's
     * and every option's tally */
    double total = 0.0;
    int tally_depth = 0, back_depth = wdepth;
    double *after = NULL;
    Py_BEGIN_ALLOW_THREADS;
    after = calloc(last->nvals > 0 ? last->nvals : 1, sizeof(double));
    if (!after)
        r->status = OUT_OF_MEMORY;
    else {
        r->held += last->nvals * (i64)sizeof(double);
        if (fin >= 0)
            for (i64 j = 0; j < poly_len; j++) {
                after[last->off[fin] + j] = w[poly_lo + j];
                total += last->vals[last->off[fin] + j] * w[poly_lo + j];
            }
    }
    Table *b = last;
    for (int i = m - 1; i >= 0 && !r->status; i--) {
        /* table i: kept, or recomputed from its checkpoint with the tables between */
        if (!tab[i]) {
            int base = (i / stride) * stride;
            Table *t = tab[base];
            for (int u = base; u < i && !r->status; u++) {
                int contrib = 0;
                t = advance(r, u, t, &contrib);
                if (!t)
                    break;
                tab[u + 1] = t;
            }
            if (r->status)
                break;
        }
        Table *a = tab[i];
        const Step *st = &r->steps[i];
        double *before = calloc(a->nvals > 0 ? a->nvals : 1, sizeof(double));
        if (!before) {
            r->status = OUT_OF_MEMORY;
            break;
        }
        r->held += a->nvals * (i64)sizeof(double);
        if (r->held > r->allowance) {
            r->status = OUT_OF_MEMORY;
            free(before);
            break;
        }
        int widest = 0;
        for (i64 e = 0; e < a->n; e++) {
            u64 s = a->state[e];
            int alo = a->lo[e], ahi = a->lo[e] + a->len[e] - 1;
            if (a->len[e] > widest)
                widest = a->len[e];
            double *mine = before + a->off[e] - alo;
            const double *fw = a->vals + a->off[e] - alo;
            for (int o = 0; o < st->nopt; o++) {
                const Option *op = &st->opt[o];
                if (!fits(op, s, r->fmask))
                    continue;
                i64 t = find(b, s + (u64)op->delta);
                if (t < 0)
                    continue;
                int lo = alo, hi = ahi;
                if (lo + op->mines < b->lo[t])
                    lo = b->lo[t] - op->mines;
                if (hi + op->mines > b->lo[t] + b->len[t] - 1)
                    hi = b->lo[t] + b->len[t] - 1 - op->mines;
                const double *nb = after + b->off[t] - b->lo[t] + op->mines;
                double f = op->factor, part = 0.0;
                for (int j = lo; j <= hi; j++) {
                    double x = f * nb[j];
                    mine[j] += x;
                    part += fw[j] * x;
                }
                acc[i][o] += part;
            }
            if (tick(r, st->nopt * (i64)(a->len[e] + 1)))
                break;
        }
        /* the backward values are weights of completions (at most the total where the
         * forward value is positive); refused past the ceiling as the forward ones */
        for (i64 v = 0; v < a->nvals && !r->status; v++)
            if (!(before[v] <= VALUE_CEILING))
                r->status = TOO_LARGE;
        for (int o = 0; o < st->nopt && !r->status; o++)
            if (!isfinite(acc[i][o]))
                r->status = TOO_LARGE;
        /* a tally sums, per state, its band's products (two roundings each) and then the
         * states' sums */
        int d = depth_f[i] + back_depth + 2 + widest + (int)(a->n < INT32_MAX / 2 ? a->n : INT32_MAX / 2);
        if (d > tally_depth)
            tally_depth = d;
        back_depth += st->multiplies + (st->nopt > 1 ? st->nopt - 1 : 0);
        r->held -= b->nvals * (i64)sizeof(double);
        free(after);
        after = before;
        table_free(r, b);
        tab[i + 1] = NULL;
        b = a;
    }
    free(after);
    Py_END_ALLOW_THREADS;
    if (r->status) {
        Py_DECREF(poly);
        result = Py_BuildValue("(iOOOOOOO)", r->status, Py_None, Py_None, Py_None, Py_None, Py_None, Py_None,
                               Py_None);
        goto done;
    }
    PyObject *tallies = PyList_New(m);
    if (!tallies) {
        Py_DECREF(poly);
        goto done;
    }
    for (int i = 0; i < m; i++) {
        PyObject *row = list_of(acc[i], r->steps[i].nopt);
        if (!row) {
            Py_DECREF(poly);
            Py_DECREF(tallies);
            goto done;
        }
        PyList_SET_ITEM(tallies, i, row);
    }
    int total_depth = depth_f[m] + wdepth + 1 + (int)poly_len;
    result = Py_BuildValue("(iiNidiNi)", OK, poly_lo, poly, depth_f[m], total, total_depth, tallies, tally_depth);
done:
    if (tab) {
        for (int i = 0; i <= m; i++)
            if (tab[i])
                table_free(r, tab[i]);
        free(tab);
    }
    if (acc) {
        for (int i = 0; i < r->m; i++)
            free(acc[i]);
        free(acc);
    }
    free(w);
    free(depth_f);
    free(r->jlo);
    free(r->jhi);
    free_steps(r);
    return result;
}

static PyMethodDef methods[] = {
    {"count", py_count, METH_VARARGS, "The rounded forward-backward count of one component (see rounded.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rounded", NULL, -1, methods};

PyMODINIT_FUNC PyInit__rounded(void) { return PyModule_Create(&module); }
