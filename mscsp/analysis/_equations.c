/*
 * The clue equations of a position, read off the grid in one pass, compiled
 * (mscsp/analysis/constraints.py: build_constraints; its NumPy path, the same
 * equations, takes over on boards without a neighbour table and says what is wrong
 * with a number that cannot be met).
 *
 * Small boards are analysed in a fraction of a millisecond, and gathering the
 * neighbourhoods of the open cells with NumPy cost more than the whole count: some
 * twenty array operations of a few microseconds each, whatever the board's size.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

enum { COVERED = -1, FLAG = -2 };

/* A growing array of int32. */
typedef struct {
    int32_t *v;
    Py_ssize_t n, cap;
} Ints;

static int push(Ints *a, int32_t x) {
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 64;
        int32_t *v = PyMem_Realloc(a->v, sizeof(int32_t) * (size_t)cap);
        if (!v) {
            PyErr_NoMemory();
            return -1;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

static PyObject *as_bytes(const Ints *a) {
    return PyBytes_FromStringAndSize((const char *)a->v, (Py_ssize_t)sizeof(int32_t) * a->n);
}

/* equations(grid, table) -> (list of (cells, count, clue), covered cells, flags, csr), or None
 *
 * grid: the position's codes (int8 per cell: 0-8 a number, -1 covered, -2 flag, -3 hole);
 * table: int64 (area, 8), each cell's neighbours with `area` as padding. One equation per
 * number with a covered neighbour, in cell order: its covered neighbours ascending, the
 * number less its flags, the number's cell; beside them the covered (unflagged) cells
 * ascending, as a tuple, the number of flags, and the same equations as the compiled
 * searches read them (csr: bytes of int32 offsets, one more than the equations, into
 * their cells, the cells, and the counts). None when some number touches more flags
 * than it shows or has fewer covered neighbours than it still needs. */
static PyObject *equations(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer gb, tb;
    if (!PyArg_ParseTuple(args, "y*y*", &gb, &tb)) return NULL;
    PyObject *out = NULL, *covered = NULL;
    Ints ptr = {0}, flat = {0}, counts = {0};
    Py_ssize_t area = gb.len, n_covered = 0, flags = 0;
    const signed char *grid = gb.buf;
    const int64_t *table = tb.buf;
    if (tb.len != (Py_ssize_t)sizeof(int64_t) * 8 * area) {
        PyErr_SetString(PyExc_ValueError, "equations: the neighbour table must be (area, 8) int64");
        goto release;
    }
    PyObject *eqs = PyList_New(0);
    for (Py_ssize_t i = 0; i < area; i++) {
        n_covered += grid[i] == COVERED;
        flags += grid[i] == FLAG;
    }
    covered = PyTuple_New(n_covered);
    for (Py_ssize_t i = 0, k = 0; covered && i < area; i++)
        if (grid[i] == COVERED) {
            PyObject *c = PyLong_FromSsize_t(i);
            if (!c) {
                Py_CLEAR(covered);
                break;
            }
            PyTuple_SET_ITEM(covered, k++, c);
        }
    if (!covered || push(&ptr, 0) < 0) Py_CLEAR(eqs);
    out = eqs;
    for (Py_ssize_t i = 0; out && i < area; i++) {
        int code = grid[i];
        if (code < 0 || code > 8) continue;
        int64_t around[8];
        int ncov = 0, nflag = 0;
        for (int d = 0; d < 8; d++) {
            int64_t j = table[8 * i + d];
            if (j < 0 || j > area) {
                PyErr_SetString(PyExc_ValueError, "equations: a neighbour outside the board");
                Py_CLEAR(out);
                goto release;
            }
            if (j == area) continue;
            if (grid[j] == COVERED) {
                int at = ncov++; /* insertion keeps them ascending */
                while (at > 0 && around[at - 1] > j) {
                    around[at] = around[at - 1];
                    at--;
                }
                around[at] = j;
            } else if (grid[j] == FLAG) {
                nflag++;
            }
        }
        int rem = code - nflag;
        if (rem < 0 || rem > ncov) {
            Py_DECREF(out);
            out = Py_NewRef(Py_None);
            goto release;
        }
        if (!ncov) continue;
        PyObject *cells = PyTuple_New(ncov);
        if (!cells) {
            Py_CLEAR(out);
            break;
        }
        for (int k = 0; k < ncov; k++) {
            PyObject *c = PyLong_FromLongLong(around[k]);
            if (!c || push(&flat, (int32_t)around[k]) < 0) {
                Py_XDECREF(c);
                Py_DECREF(cells);
                Py_CLEAR(out);
                goto release;
            }
            PyTuple_SET_ITEM(cells, k, c);
        }
        PyObject *eq = Py_BuildValue("(Nin)", cells, rem, i);
        if (!eq || PyList_Append(out, eq) < 0 || push(&ptr, (int32_t)flat.n) < 0 || push(&counts, rem) < 0) {
            Py_XDECREF(eq);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(eq);
    }
release:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&tb);
    if (out != NULL && out != Py_None) {
        PyObject *whole = Py_BuildValue("(NNn(NNN))", out, covered, flags, as_bytes(&ptr), as_bytes(&flat),
                                        as_bytes(&counts));
        covered = NULL; /* the tuple holds it now (or it was released with it) */
        out = whole;
    }
    Py_XDECREF(covered);
    PyMem_Free(ptr.v);
    PyMem_Free(flat.v);
    PyMem_Free(counts.v);
    return out;
}

static PyMethodDef methods[] = {
    {"equations", equations, METH_VARARGS,
     "equations(grid, neighbour_table) -> ([(cells, count, clue), ...], covered cells, flags, csr) or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_equations",
                                    "The clue equations of a position, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__equations(void) { return PyModule_Create(&module); }
