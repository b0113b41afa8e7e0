/*
 * The backtracking of mscsp/analysis/counting/exact/search.py, compiled.
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
 *
 * One module, not several: a compiled extension is one shared object, and its search, its
 * tallies and the weighing of the total share the tables of binomials filled at load.
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

/* ---- a whole position, grid to tallies -------------------------------------------- */

enum { COVERED = -1, FLAG = -2 };

typedef struct {
    int area, neq;
    int *eq_count;                       /* per equation: its remainder */
    int *on_count, *on;                  /* per cell: its equations (at most 8), in order */
    int *parent;                         /* union-find over equations */
} Board;

static int find(int *parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int same_equations(const Board *bd, int a, int b) {
    if (bd->on_count[a] != bd->on_count[b]) return 0;
    return memcmp(bd->on + 8 * a, bd->on + 8 * b, sizeof(int) * (size_t)bd->on_count[a]) == 0;
}

static PyObject *cells_tuple(const int *cells, int n) {
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t && k < n; k++) {
        PyObject *item = PyLong_FromLong(cells[k]);
        if (!item) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, item);
    }
    return t;
}

/* Counts one component (equations whose root is `root`) into a Python tuple
 * (groups, ways, rows); Py_None when it declines (too many cells, out of nodes, no
 * layout); NULL with an exception set on failure. */
static PyObject *count_component(const Board *bd, const int *cells, int ncells, int remaining,
                                 long nodes, int *scratch) {
    /* scratch: per cell its group, per group its first cell and size, the component's
     * equations (at most 8 a cell), then per equation of the board its index here or -1 */
    int *gof = scratch, *gfirst = scratch + MAX_CELLS, *gsize = scratch + 2 * MAX_CELLS;
    int *local = scratch + 11 * MAX_CELLS;
    int m = 0;
    for (int k = 0; k < ncells; k++) {
        int c = cells[k], g = 0;
        while (g < m && !same_equations(bd, cells[gfirst[g]], c)) g++;
        if (g == m) {
            gfirst[m] = k;
            gsize[m] = 0;
            m++;
        }
        gof[k] = g;
        gsize[g]++;
    }
    /* the component's equations, numbered in the board's order: local[e] was -1 for all */
    int nclues = 0, refs = 0, *eqs = gsize + MAX_CELLS; /* at most 8 a group: 8 * MAX_CELLS */
    for (int g = 0; g < m; g++) {
        int c = cells[gfirst[g]];
        refs += bd->on_count[c];
        for (int t = 0; t < bd->on_count[c]; t++) {
            int e = bd->on[8 * c + t];
            if (local[e] < 0) {
                local[e] = 0;
                int at = nclues++; /* insertion keeps them ascending */
                while (at > 0 && eqs[at - 1] > e) {
                    eqs[at] = eqs[at - 1];
                    at--;
                }
                eqs[at] = e;
            }
        }
    }
    for (int q = 0; q < nclues; q++) local[eqs[q]] = q;
    PyObject *result = NULL;
    int *group = malloc(sizeof(int) * (size_t)(5 * m + 3 + refs + nclues));
    u64 *ways = NULL, *rows = NULL;
    if (!group) return PyErr_NoMemory();
    int *size = group + m, *cstart = size + m, *ostart = cstart + m + 1, *kstart = ostart + m + 1;
    int *clues = kstart + m + 1, *target = clues + refs;
    cstart[0] = 0;
    for (int g = 0; g < m; g++) {
        int c = cells[gfirst[g]];
        group[g] = 1;
        size[g] = gsize[g];
        ostart[g] = 0;
        kstart[g] = g;
        for (int t = 0; t < bd->on_count[c]; t++) clues[cstart[g] + t] = local[bd->on[8 * c + t]];
        cstart[g + 1] = cstart[g] + bd->on_count[c];
    }
    ostart[m] = 0;
    kstart[m] = m;
    for (int q = 0; q < nclues; q++) target[q] = bd->eq_count[eqs[q]];
    int length = (remaining >= 0 && remaining < ncells ? remaining : ncells) + 1;
    Problem pb = {.m = m, .nclues = nclues, .length = length, .label = -1, .nlabels = 1, .group = group,
                  .size = size, .cstart = cstart, .clues = clues, .target = target, .ostart = ostart,
                  .omines = NULL, .oadds = NULL, .okinds = NULL, .kstart = kstart};
    ways = calloc((size_t)length, sizeof(u64));
    rows = calloc((size_t)m * length + 1, sizeof(u64));
    if (!ways || !rows) {
        PyErr_NoMemory();
        goto out;
    }
    int rc = run(&pb, nodes, ways, rows);
    if (rc < 0) {
        PyErr_NoMemory();
        goto out;
    }
    int any = 0;
    for (int k = 0; k < length; k++) any |= ways[k] != 0;
    if (rc == 1 || !any) {
        result = Py_NewRef(Py_None);
        goto out;
    }
    PyObject *groups = PyList_New(m), *w = as_list(ways, length), *r = PyList_New(m);
    for (int g = 0; groups && r && g < m; g++) {
        int buf[MAX_CELLS], n = 0;
        for (int k = gfirst[g]; k < ncells; k++)
            if (gof[k] == g) buf[n++] = cells[k];
        PyObject *t = cells_tuple(buf, n), *row = as_list(rows + (size_t)g * length, length);
        if (!t || !row) {
            Py_XDECREF(t);
            Py_XDECREF(row);
            Py_CLEAR(groups);
            break;
        }
        PyList_SET_ITEM(groups, g, t);
        PyList_SET_ITEM(r, g, row);
    }
    if (groups && w && r) result = PyTuple_Pack(3, groups, w, r);
    Py_XDECREF(groups);
    Py_XDECREF(w);
    Py_XDECREF(r);
out:
    for (int q = 0; q < nclues; q++) local[eqs[q]] = -1;
    free(group);
    free(ways);
    free(rows);
    return result;
}

/* position(grid, table, mines, nodes) -> (remaining, unconstrained, components) or None.
 * grid: the position's codes (int8 per cell: 0-8 a number, -1 covered, -2 flag, -3 hole);
 * table: int64 (area, 8), each cell's neighbours with `area` as padding; mines: the total,
 * or -1 for none (remaining is then None). Each component is (groups, ways, rows): its
 * groups of cells touched by the same clues (tuples of cells ascending, groups by their
 * first cell), ways[k] its assignments with k mines (k up to the mines left, or up to its
 * cells without a total), rows[g][k] the mines of group g summed over them.
 * None where the position asks for more than this quick path does: a clue or the total
 * that cannot be met, a component of more than MAX_CELLS cells or past the node budget,
 * or one with no layout (the general path then counts, or says what cannot be true). */
static PyObject *position(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer gb, tb;
    long long mines;
    long nodes;
    if (!PyArg_ParseTuple(args, "y*y*Ll", &gb, &tb, &mines, &nodes)) return NULL;
    PyObject *result = NULL, *comps = NULL, *free_cells = NULL;
    int area = (int)gb.len;
    const signed char *grid = gb.buf;
    const int64_t *table = tb.buf;
    Board bd = {0};
    int *scratch = NULL, *order = NULL, *root_of = NULL, *comp_start = NULL;
    if (tb.len != (Py_ssize_t)sizeof(int64_t) * 8 * area) {
        PyErr_SetString(PyExc_ValueError, "position: the neighbour table must be (area, 8) int64");
        goto out;
    }
    bd.area = area;
    bd.eq_count = malloc(sizeof(int) * ((size_t)area + 1));
    bd.on_count = calloc((size_t)area + 1, sizeof(int));
    bd.on = malloc(sizeof(int) * (8 * (size_t)area + 1));
    bd.parent = malloc(sizeof(int) * ((size_t)area + 1));
    order = malloc(sizeof(int) * ((size_t)area + 1));
    root_of = malloc(sizeof(int) * ((size_t)area + 1));
    scratch = malloc(sizeof(int) * (11 * (size_t)MAX_CELLS + (size_t)area + 1));
    comp_start = malloc(sizeof(int) * ((size_t)area + 1));
    if (!bd.eq_count || !bd.on_count || !bd.on || !bd.parent || !order || !root_of || !scratch || !comp_start) {
        PyErr_NoMemory();
        goto out;
    }
    for (int e = 0; e <= area; e++) scratch[11 * MAX_CELLS + e] = -1;
    int flags = 0, covered = 0, neq = 0;
    for (int i = 0; i < area; i++) {
        int code = grid[i];
        if (code == FLAG) flags++;
        if (code == COVERED) covered++;
        if (code < 0 || code > 8) continue;
        int ncov = 0, nflag = 0, around[8]; /* its covered neighbours */
        for (int d = 0; d < 8; d++) {
            int64_t j = table[8 * (size_t)i + d];
            if (j < 0 || j > area) {
                PyErr_SetString(PyExc_ValueError, "position: a neighbour outside the board");
                goto out;
            }
            if (j == area) continue;
            if (grid[j] == COVERED) {
                around[ncov++] = (int)j;
            } else if (grid[j] == FLAG) {
                nflag++;
            }
        }
        int rem = code - nflag;
        if (rem < 0 || rem > ncov) goto decline;
        if (ncov == 0) continue;
        for (int t = 0; t < ncov; t++) bd.on[8 * around[t] + bd.on_count[around[t]]++] = neq;
        bd.eq_count[neq] = rem;
        bd.parent[neq] = neq;
        neq++;
    }
    bd.neq = neq;
    long long remaining = mines < 0 ? -1 : mines - flags; /* -1: no total */
    if (mines >= 0 && (remaining < 0 || remaining > covered)) goto decline;
    /* equations joined through their shared cells */
    for (int c = 0; c < area; c++)
        for (int t = 1; t < bd.on_count[c]; t++) {
            int a = find(bd.parent, bd.on[8 * c]), b = find(bd.parent, bd.on[8 * c + t]);
            if (a != b) bd.parent[b < a ? a : b] = b < a ? b : a;
        }
    /* components in the order of their smallest cell, each with its cells ascending */
    int ncomp = 0, nfree = 0;
    for (int e = 0; e < neq; e++) root_of[e] = -1;
    int *comp_size = comp_start; /* per component: its cells so far, then where they start */
    for (int c = 0; c < area; c++) {
        if (grid[c] != COVERED) continue;
        if (!bd.on_count[c]) {
            nfree++;
            continue;
        }
        int r = find(bd.parent, bd.on[8 * c]);
        if (root_of[r] < 0) {
            root_of[r] = ncomp;
            comp_size[ncomp++] = 0;
        }
        if (++comp_size[root_of[r]] > MAX_CELLS) goto decline;
    }
    /* cells laid out component after component (a counting sort keeps them ascending) */
    for (int k = 0, at = 0; k < ncomp; k++) {
        int n = comp_size[k];
        comp_size[k] = at;
        at += n;
    }
    int *comp_end = malloc(sizeof(int) * ((size_t)ncomp + 1));
    if (!comp_end) {
        PyErr_NoMemory();
        goto out;
    }
    for (int k = 0; k < ncomp; k++) comp_end[k] = comp_size[k];
    free_cells = PyTuple_New(nfree);
    if (!free_cells) {
        free(comp_end);
        goto out;
    }
    for (int c = 0, f = 0; c < area; c++) {
        if (grid[c] != COVERED) continue;
        if (!bd.on_count[c]) {
            PyObject *item = PyLong_FromLong(c);
            if (!item) {
                free(comp_end);
                goto out;
            }
            PyTuple_SET_ITEM(free_cells, f++, item);
            continue;
        }
        int k = root_of[find(bd.parent, bd.on[8 * c])];
        order[comp_end[k]++] = c;
    }
    comps = PyList_New(ncomp);
    int declined = 0;
    for (int k = 0; comps && k < ncomp && !declined; k++) {
        int start = comp_size[k], n = comp_end[k] - start;
        PyObject *one = count_component(&bd, order + start, n, (int)remaining, nodes, scratch);
        if (!one) {
            Py_CLEAR(comps);
            break;
        }
        if (one == Py_None) {
            Py_DECREF(one);
            declined = 1;
            break;
        }
        PyList_SET_ITEM(comps, k, one);
    }
    free(comp_end);
    if (!comps) goto out;
    if (declined) goto decline;
    PyObject *left = remaining < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(remaining);
    if (left) result = PyTuple_Pack(3, left, free_cells, comps);
    Py_XDECREF(left);
    goto out;
decline:
    result = Py_NewRef(Py_None);
out:
    Py_XDECREF(free_cells);
    Py_XDECREF(comps);
    free(bd.eq_count);
    free(bd.on_count);
    free(bd.on);
    free(bd.parent);
    free(order);
    free(root_of);
    free(scratch);
    free(comp_start);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&tb);
    return result;
}

/* ---- weighing the components with the mine total, while the numbers fit ---------------- */

typedef unsigned __int128 u128;

/* a * b + c into *out; 0 when it overflows 128 bits */
static int muladd(u128 a, u128 b, u128 c, u128 *out) {
    u128 p;
    if (__builtin_mul_overflow(a, b, &p)) return 0;
    return !__builtin_add_overflow(p, c, out);
}

/* C(n, k) into *out; 0 when it overflows (C(n, i + 1) = C(n, i) * (n - i) / (i + 1) is exact
 * at every step, and each step's product is checked) */
static int choose128(long long n, long long k, u128 *out) {
    if (k < 0 || k > n) {
        *out = 0;
        return 1;
    }
    if (k > n - k) k = n - k;
    u128 c = 1;
    for (long long i = 0; i < k; i++) {
        u128 p;
        if (__builtin_mul_overflow(c, (u128)(n - i), &p)) return 0;
        c = p / (u128)(i + 1);
    }
    *out = c;
    return 1;
}

/* acc (its first *have entries, span in all) times the polynomial w of n entries, in place;
 * 0 when a coefficient overflows */
static int times(u128 *acc, Py_ssize_t *have, const u64 *w, Py_ssize_t n, u128 *tmp, Py_ssize_t span) {
    memset(tmp, 0, sizeof(u128) * (size_t)span);
    for (Py_ssize_t i = 0; i < *have; i++)
        for (Py_ssize_t j = 0; j < n; j++)
            if (!muladd(acc[i], w[j], tmp[i + j], &tmp[i + j])) return 0;
    *have += n - 1;
    memcpy(acc, tmp, sizeof(u128) * (size_t)span);
    return 1;
}

static PyObject *from128(u128 v) {
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
    if (!lo || (v >> 64) == 0) return lo;
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64)), *sixty_four = PyLong_FromLong(64);
    PyObject *shifted = hi && sixty_four ? PyNumber_Lshift(hi, sixty_four) : NULL;
    PyObject *out = shifted ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(sixty_four);
    Py_XDECREF(shifted);
    Py_DECREF(lo);
    return out;
}

/* appends (num, den) to the list parts; -1 with an exception */
static int append_fraction(PyObject *parts, u128 num, u128 den) {
    PyObject *a = from128(num), *b = from128(den), *pair = a && b ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    int rc = pair ? PyList_Append(parts, pair) : -1;
    Py_XDECREF(pair);
    return rc;
}

/* reads a list of non-negative ints below 2^64 into a fresh array; NULL with an exception,
 * or NULL with *declined set when a value does not fit */
static u64 *read_u64s(PyObject *seq, Py_ssize_t *n, int *declined) {
    PyObject *fast = PySequence_Fast(seq, "weigh: a tally must be a sequence of ints");
    if (!fast) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    u64 *out = malloc(sizeof(u64) * ((size_t)*n + 1));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                free(out);
                Py_DECREF(fast);
                return NULL;
            }
            PyErr_Clear();
            *declined = 1;
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return out;
}

/* weigh(components, unconstrained, remaining) -> (layouts, [(numerator, denominator), ...]) or None
 *
 * The components as position() gives them, (groups, ways, rows) each; the number of covered
 * cells away from every clue and the mines the total leaves. Each group's mine probability
 * as a fraction (not reduced) in the order of the groups, component after component, then
 * the unconstrained cells' (when there are any), and the number of layouts: the sums of
 * mscsp.analysis.counting.exact.combine.weigh_total, for the components' products with the
 * C(unconstrained, remaining - j) ways to place the rest, in 128-bit integers. None when a
 * number passes 2^128 (the caller weighs in Python) or no layout meets the total. */
static PyObject *weigh(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *comps;
    long long u, remaining;
    if (!PyArg_ParseTuple(args, "OLL", &comps, &u, &remaining)) return NULL;
    PyObject *fast = PySequence_Fast(comps, "weigh: components must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t ncomp = PySequence_Fast_GET_SIZE(fast);
    PyObject *result = NULL, *parts = NULL;
    int declined = u < 0 || remaining < 0;
    u64 **ways = calloc((size_t)ncomp + 1, sizeof(u64 *));
    Py_ssize_t *len = calloc((size_t)ncomp + 1, sizeof(Py_ssize_t));
    u128 *every = NULL, *rest = NULL, *others = NULL, *tmp = NULL;
    if (!ways || !len) {
        PyErr_NoMemory();
        goto out;
    }
    Py_ssize_t span = 1;
    for (Py_ssize_t k = 0; k < ncomp && !declined; k++) {
        PyObject *comp = PySequence_Fast_GET_ITEM(fast, k);
        if (!PyTuple_Check(comp) || PyTuple_GET_SIZE(comp) != 3) {
            PyErr_SetString(PyExc_TypeError, "weigh: each component must be (groups, ways, rows)");
            goto out;
        }
        ways[k] = read_u64s(PyTuple_GET_ITEM(comp, 1), &len[k], &declined);
        if (!ways[k] && !declined) goto out;
        if (ways[k] && len[k] == 0) declined = 1;
        if (!declined) span += len[k] - 1;
    }
    if (declined) goto decline;
    every = calloc((size_t)span, sizeof(u128));
    rest = calloc((size_t)span, sizeof(u128));
    others = calloc((size_t)span, sizeof(u128));
    tmp = calloc((size_t)span, sizeof(u128));
    if (!every || !rest || !others || !tmp) {
        PyErr_NoMemory();
        goto out;
    }
    /* every: the product of all the components' polynomials; rest[j] = C(u, remaining - j) */
    Py_ssize_t have = 1;
    every[0] = 1;
    for (Py_ssize_t k = 0; k < ncomp; k++)
        if (!times(every, &have, ways[k], len[k], tmp, span)) goto decline;
    for (Py_ssize_t j = 0; j < span; j++)
        if (!choose128(u, remaining - j, &rest[j])) goto decline;
    u128 total = 0, num;
    for (Py_ssize_t j = 0; j < span; j++)
        if (!muladd(every[j], rest[j], total, &total)) goto decline;
    if (total == 0) goto decline;
    u128 den;
    parts = PyList_New(0);
    if (!parts) goto out;
    for (Py_ssize_t k = 0; k < ncomp; k++) {
        /* the other components' product, then each of this one's counts' weight */
        Py_ssize_t olen = 1;
        memset(others, 0, sizeof(u128) * (size_t)span);
        others[0] = 1;
        for (Py_ssize_t q = 0; q < ncomp; q++)
            if (q != k && !times(others, &olen, ways[q], len[q], tmp, span)) goto decline;
        u128 weight[MAX_CELLS + 1];
        if (len[k] > MAX_CELLS + 1) goto decline;
        for (Py_ssize_t i = 0; i < len[k]; i++) {
            weight[i] = 0;
            for (Py_ssize_t j = 0; j < olen && i + j < span; j++)
                if (!muladd(others[j], rest[i + j], weight[i], &weight[i])) goto decline;
        }
        PyObject *comp = PySequence_Fast_GET_ITEM(fast, k);
        PyObject *groups = PyTuple_GET_ITEM(comp, 0), *rows = PyTuple_GET_ITEM(comp, 2);
        PyObject *gfast = PySequence_Fast(groups, "weigh: groups must be a sequence");
        PyObject *rfast = gfast ? PySequence_Fast(rows, "weigh: rows must be a sequence") : NULL;
        if (!rfast) {
            Py_XDECREF(gfast);
            goto out;
        }
        Py_ssize_t ngroups = PySequence_Fast_GET_SIZE(gfast);
        int bad = ngroups != PySequence_Fast_GET_SIZE(rfast);
        for (Py_ssize_t g = 0; g < ngroups && !bad && !declined; g++) {
            Py_ssize_t nrow, size = PyObject_Length(PySequence_Fast_GET_ITEM(gfast, g));
            u64 *row = read_u64s(PySequence_Fast_GET_ITEM(rfast, g), &nrow, &declined);
            if (!row || size < 0) {
                free(row);
                bad = !declined;
                break;
            }
            num = 0;
            for (Py_ssize_t i = 0; i < nrow && i < len[k] && !declined; i++)
                declined = !muladd(row[i], weight[i], num, &num);
            free(row);
            if (declined || __builtin_mul_overflow(total, (u128)size, &den)) {
                declined = 1;
                break;
            }
            if (append_fraction(parts, num, den) < 0) bad = 1;
        }
        Py_DECREF(gfast);
        Py_DECREF(rfast);
        if (bad) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "weigh: each component needs one row a group");
            goto out;
        }
        if (declined) goto decline;
    }
    if (u > 0) { /* the mines expected among the unconstrained cells, over u of them */
        num = 0;
        for (Py_ssize_t j = 0; j < span && j <= remaining; j++) {
            u128 t;
            if (__builtin_mul_overflow(every[j], rest[j], &t) || !muladd(t, (u128)(remaining - j), num, &num))
                goto decline;
        }
        if (__builtin_mul_overflow(total, (u128)u, &den)) goto decline;
        if (append_fraction(parts, num, den) < 0) goto out;
    }
    PyObject *layouts = from128(total);
    if (layouts) {
        result = PyTuple_Pack(2, layouts, parts);
        Py_DECREF(layouts);
    }
    goto out;
decline:
    if (!PyErr_Occurred()) result = Py_NewRef(Py_None);
out:
    for (Py_ssize_t k = 0; ways && k < ncomp; k++) free(ways[k]);
    free(ways);
    free(len);
    free(every);
    free(rest);
    free(others);
    free(tmp);
    Py_XDECREF(parts);
    Py_DECREF(fast);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(group, size, clue_starts, clues, targets, option_starts, option_mines, option_adds, option_kinds, "
     "kind_starts, nodes, length[, label, nlabels]) -> (ways, rows) or None past the node budget"},
    {"position", position, METH_VARARGS,
     "position(grid, neighbour_table, mines, nodes) -> (mines left, unconstrained, [(groups, ways, rows), ...]) or None"},
    {"weigh", weigh, METH_VARARGS,
     "weigh(components, unconstrained, remaining) -> (layouts, [(numerator, denominator), ...]) or None"},
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
