/*
 * The backtracking of mscsp/analysis/counting/search.py, compiled.
 *
 * A group of n cells takes a value j in 0..n (its mines) with weight C(n, j), added to
 * each of its clues; a chain of linked cells takes one of two options, each with its
 * mines and what it adds to each clue. Variables are taken in order; each clue's
 * partial sum must stay between its target minus the most and its target minus the
 * least the variables after it can still add, so a group's feasible values are one
 * range and a chain's options are tried in turn. At each complete assignment its
 * weight is added to the tally of its mine count, and weight times the mines of each
 * kind of cell to that kind's row.
 *
 * Components of at most MAX_CELLS cells only: every count is then below 2^56 and every
 * row entry below 2^59, so 64-bit integers are exact. The node budget is spent exactly
 * as the Python search spends it (one node per value tried), so both give up at the
 * same point and the caller falls back to the same dynamic programme.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CELLS = 56 };

typedef uint64_t u64;

/* C(n, j) for every group size, filled once when the module loads */
static u64 binom[MAX_CELLS + 1][MAX_CELLS + 1];

/* The problem as flat arrays (see search() below for the layout). */
typedef struct {
    int m, nclues, length;
    int label, nlabels; /* the clue tallied by (its target ignored), -1 for none; its values */
    const int *group, *size, *cstart, *clues, *target;
    const int *ostart;   /* per var: its first option (chains; groups have none listed) */
    const int *omines;   /* per option: its mines */
    const int *oadds;    /* per option: what it adds to each clue of its var, in order */
    const int *okinds;   /* per option: mines of each kind of its var (2 kinds) */
    const int *kstart;   /* per var: its first row of kinds */
} Problem;

/* returns 0 done, 1 out of nodes, -1 out of memory */
static int run(const Problem *pb, long nodes, u64 *ways, u64 *rows) {
    int rc = -1, m = pb->m, length = pb->length;
    const int *size = pb->size, *cstart = pb->cstart, *clues = pb->clues, *target = pb->target;
    const int *group = pb->group, *ostart = pb->ostart;
    int refs = cstart[m];
    int *lo_after = calloc((size_t)refs + 1, sizeof(int)), *hi_after = calloc((size_t)refs + 1, sizeof(int));
    int *lo_on = calloc((size_t)pb->nclues + 1, sizeof(int)), *hi_on = calloc((size_t)pb->nclues + 1, sizeof(int));
    int *aoff = calloc((size_t)m + 1, sizeof(int));
    int *sums = calloc((size_t)pb->nclues + 1, sizeof(int));
    int *choice = malloc(sizeof(int) * ((size_t)m + 1));
    int *top = malloc(sizeof(int) * ((size_t)m + 1));
    u64 *weight = malloc(sizeof(u64) * ((size_t)m + 1));
    int *count = malloc(sizeof(int) * ((size_t)m + 1));
    if (!lo_after || !hi_after || !lo_on || !hi_on || !aoff || !sums || !choice || !top || !weight || !count)
        goto done;
    /* each option's adds start at aoff[var] + option * (clues of the var) */
    for (int i = 0, a = 0; i < m; i++) {
        aoff[i] = a;
        a += (ostart[i + 1] - ostart[i]) * (cstart[i + 1] - cstart[i]);
    }
    /* the least and the most the variables after each one can add to each of its clues */
    for (int i = m - 1; i >= 0; i--) {
        int nc = cstart[i + 1] - cstart[i];
        for (int t = cstart[i]; t < cstart[i + 1]; t++) {
            lo_after[t] = lo_on[clues[t]];
            hi_after[t] = hi_on[clues[t]];
        }
        for (int t = cstart[i]; t < cstart[i + 1]; t++) {
            int lo = 0, hi = size[i];
            if (!group[i]) {
                lo = INT32_MAX;
                hi = 0;
                for (int o = 0; o < ostart[i + 1] - ostart[i]; o++) {
                    int add = pb->oadds[aoff[i] + o * nc + (t - cstart[i])];
                    if (add < lo) lo = add;
                    if (add > hi) hi = add;
                }
            }
            lo_on[clues[t]] += lo;
            hi_on[clues[t]] += hi;
        }
    }
    long left = nodes;
    weight[0] = 1;
    count[0] = 0;
    choice[0] = -1;
    int i = 0;
    while (i >= 0) {
        if (i == m) {
            u64 w = weight[m];
            int k = count[m], lab = pb->label >= 0 ? sums[pb->label] : 0;
            if (k < length && lab < pb->nlabels) {
                ways[(size_t)lab * length + k] += w;
                for (int v = 0; v < m; v++) {
                    int o = choice[v];
                    u64 *row = rows + ((size_t)lab * pb->kstart[m] + pb->kstart[v]) * length + k;
                    if (group[v]) {
                        if (o) row[0] += w * (u64)o;
                    } else {
                        const int *km = pb->okinds + 2 * (ostart[v] + o);
                        if (km[0]) row[0] += w * (u64)km[0];
                        if (km[1]) row[length] += w * (u64)km[1];
                    }
                }
            }
            i--;
            continue;
        }
        int o = choice[i], nc = cstart[i + 1] - cstart[i];
        if (group[i]) {
            if (o < 0) { /* entering: the range of mine counts every clue still allows */
                int lo = 0, hi = size[i];
                for (int t = cstart[i]; t < cstart[i + 1]; t++) {
                    int c = clues[t], have = sums[c];
                    if (c == pb->label) continue;
                    int clo = target[c] - hi_after[t], chi = target[c] - lo_after[t];
                    if (clo - have > lo) lo = clo - have;
                    if (chi - have < hi) hi = chi - have;
                }
                top[i] = hi;
                o = lo;
            } else {
                for (int t = cstart[i]; t < cstart[i + 1]; t++) sums[clues[t]] -= o;
                o += 1;
            }
            if (o > top[i]) {
                choice[i] = -1;
                i--;
                continue;
            }
            for (int t = cstart[i]; t < cstart[i + 1]; t++) sums[clues[t]] += o;
        } else {
            /* undo the option tried last at this depth, then try the next one that fits */
            int nopts = ostart[i + 1] - ostart[i];
            const int *adds = pb->oadds + aoff[i];
            if (o >= 0)
                for (int t = 0; t < nc; t++) sums[clues[cstart[i] + t]] -= adds[o * nc + t];
            for (o += 1; o < nopts; o++) {
                int fits = 1;
                for (int t = 0; t < nc && fits; t++) {
                    int ref = cstart[i] + t, c = clues[ref];
                    int v = sums[c] + adds[o * nc + t];
                    fits = c == pb->label || (v >= target[c] - hi_after[ref] && v <= target[c] - lo_after[ref]);
                }
                if (fits) break;
            }
            if (o == nopts) {
                choice[i] = -1;
                i--;
                continue;
            }
            for (int t = 0; t < nc; t++) sums[clues[cstart[i] + t]] += adds[o * nc + t];
        }
        if (--left < 0) {
            rc = 1;
            goto done;
        }
        choice[i] = o;
        weight[i + 1] = weight[i] * (group[i] ? binom[size[i]][o] : 1);
        count[i + 1] = count[i] + (group[i] ? o : pb->omines[ostart[i] + o]);
        i++;
        if (i < m) choice[i] = -1;
    }
    rc = 0;
done:
    free(lo_after);
    free(hi_after);
    free(lo_on);
    free(hi_on);
    free(aoff);
    free(sums);
    free(choice);
    free(top);
    free(weight);
    free(count);
    return rc;
}

static PyObject *as_list(const u64 *values, int n) {
    PyObject *list = PyList_New(n);
    for (int k = 0; list && k < n; k++) {
        PyObject *item = PyLong_FromUnsignedLongLong(values[k]);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

/* search(group, size, clue_starts, clues, targets, option_starts, option_mines, option_adds,
 *        option_kinds, kind_starts, nodes, length[, label, nlabels]) -> (ways, rows) or None past the
 * node budget.
 * Every argument but the last two is an array('i'): per variable (m of them) whether it is
 * a group and its cells; clue_starts (m + 1) into clues, each variable's clue indices;
 * targets per clue; option_starts (m + 1) into the options, which chains list (two each:
 * their mines, their adds to each of their clues, the mines of each of their two kinds)
 * and groups do not; kind_starts (m + 1): each variable's first row.
 * With a label clue, that clue's target is not imposed: the assignments are tallied apart by
 * the clue's sum s (0 <= s < nlabels), ways and rows then holding nlabels blocks one after
 * another, block s the tally of the assignments that give the clue s. A look-ahead gets every
 * number a clicked cell can show from one search: the cell's clue as the label. */
static PyObject *search(PyObject *Py_UNUSED(self), PyObject *args) {
    enum { NB = 10 };
    Py_buffer b[NB];
    long nodes;
    int length, label = -1, nlabels = 1;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*li|ii", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7],
                          &b[8], &b[9], &nodes, &length, &label, &nlabels))
        return NULL;
    PyObject *result = NULL;
    u64 *ways = NULL, *rows = NULL;
    int n[NB];
    for (int j = 0; j < NB; j++) n[j] = (int)(b[j].len / sizeof(int));
    Problem pb = {.m = n[0], .nclues = n[4], .length = length, .label = label, .nlabels = nlabels, .group = b[0].buf, .size = b[1].buf,
                  .cstart = b[2].buf, .clues = b[3].buf, .target = b[4].buf, .ostart = b[5].buf,
                  .omines = b[6].buf, .oadds = b[7].buf, .okinds = b[8].buf, .kstart = b[9].buf};
    int m = pb.m, ncells = 0;
    int ok = n[1] == m && n[2] == m + 1 && n[5] == m + 1 && n[9] == m + 1 && length >= 1 && pb.cstart[0] == 0 &&
             pb.ostart[0] == 0 && pb.kstart[0] == 0;
    long adds = 0;
    for (int i = 0; ok && i < m; i++) {
        int nopts = pb.ostart[i + 1] - pb.ostart[i], nc = pb.cstart[i + 1] - pb.cstart[i];
        int kinds = pb.kstart[i + 1] - pb.kstart[i];
        ncells += pb.size[i];
        ok = pb.size[i] >= 1 && nc >= 0 && (pb.group[i] ? nopts == 0 && kinds == 1 : nopts >= 1 && kinds == 2);
        adds += (long)nopts * nc;
    }
    ok = ok && ncells <= MAX_CELLS && n[3] == pb.cstart[m] && n[6] == pb.ostart[m] && n[7] == adds &&
         n[8] == 2 * pb.ostart[m];
    ok = ok && label >= -1 && label < pb.nclues && nlabels >= 1 && nlabels <= MAX_CELLS + 1 &&
         (label >= 0 || nlabels == 1);
    for (int t = 0; ok && t < pb.cstart[m]; t++) ok = pb.clues[t] >= 0 && pb.clues[t] < pb.nclues;
    for (int o = 0; ok && o < pb.ostart[m]; o++) ok = pb.omines[o] >= 0 && pb.omines[o] <= MAX_CELLS;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "search: malformed problem (or more than 56 cells)");
        goto out;
    }
    int nrows = pb.kstart[m] * nlabels; /* per label value, each variable's rows */
    ways = calloc((size_t)length * nlabels, sizeof(u64));
    rows = calloc((size_t)nrows * length + 1, sizeof(u64));
    if (!ways || !rows) {
        PyErr_NoMemory();
        goto out;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = run(&pb, nodes, ways, rows);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        PyErr_NoMemory();
        goto out;
    }
    if (rc == 1) {
        result = Py_NewRef(Py_None);
        goto out;
    }
    PyObject *w = as_list(ways, length * nlabels), *r = PyList_New(nrows);
    for (int v = 0; w && r && v < nrows; v++) {
        PyObject *row = as_list(rows + (size_t)v * length, length);
        if (!row) {
            Py_CLEAR(r);
            break;
        }
        PyList_SET_ITEM(r, v, row);
    }
    if (w && r) result = PyTuple_Pack(2, w, r);
    Py_XDECREF(w);
    Py_XDECREF(r);
out:
    free(ways);
    free(rows);
    for (int j = 0; j < NB; j++) PyBuffer_Release(&b[j]);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(group, size, clue_starts, clues, targets, option_starts, option_mines, option_adds, option_kinds, "
     "kind_starts, nodes, length[, label, nlabels]) -> (ways, rows) or None past the node budget"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search",
                                    "The counting search, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__search(void) {
    for (int n = 0; n <= MAX_CELLS; n++) {
        binom[n][0] = 1;
        for (int j = 1; j <= n; j++) binom[n][j] = binom[n - 1][j - 1] + binom[n - 1][j];
    }
    return PyModule_Create(&module);
}
