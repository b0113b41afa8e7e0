/*
 * ParityForest.union (mscsp/analysis/constraints.py) over many pairs at once, compiled.
 *
 * A compiled board has hundreds of thousands of two-cell links; uniting them one Python
 * call at a time took seconds. unite() runs the same union-find with parity, the pairs in
 * the order given, each find halving its path exactly as the Python class does, so every
 * class ends with the same root (a union hangs b's root under a's): the chains merge into
 * the same variables as the Python code would give them. It returns each element's root
 * and its parity against it (every path then one step long) and, per pair, whether the
 * classes already said otherwise (an odd cycle of links). With every odd flag 0 it is a
 * plain union-find: the connected components of a graph.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

typedef int64_t i64;

static i64 find(i64 *parent, unsigned char *parity, i64 i, int *p) {
    int acc = 0;
    while (parent[i] != i) {
        i64 j = parent[i];
        if (parent[j] != j) { /* halve: point i at its grandparent */
            parity[i] ^= parity[j];
            parent[i] = parent[j];
        }
        acc ^= parity[i];
        i = parent[i];
    }
    *p = acc;
    return i;
}

/* unite(n, a, b, odd) -> (roots, parities, clashes) as bytes: n int64, n uint8, len(a) uint8 */
static PyObject *unite(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_ssize_t n;
    Py_buffer ba, bb, bo;
    if (!PyArg_ParseTuple(args, "ny*y*y*", &n, &ba, &bb, &bo)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t m = ba.len / (Py_ssize_t)sizeof(i64);
    i64 *parent = NULL;
    unsigned char *parity = NULL, *clash = NULL;
    const i64 *a = ba.buf, *b = bb.buf;
    const unsigned char *odd = bo.buf;
    int ok = n >= 0 && bb.len == ba.len && bo.len == m && ba.len % (Py_ssize_t)sizeof(i64) == 0;
    for (Py_ssize_t k = 0; ok && k < m; k++) ok = a[k] >= 0 && a[k] < n && b[k] >= 0 && b[k] < n && odd[k] <= 1;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "unite: pairs out of range or of different lengths");
        goto out;
    }
    parent = malloc(sizeof(i64) * ((size_t)n + 1));
    parity = calloc((size_t)n + 1, 1);
    clash = calloc((size_t)m + 1, 1);
    if (!parent || !parity || !clash) {
        PyErr_NoMemory();
        goto out;
    }
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = 0; i < n; i++) parent[i] = i;
    for (Py_ssize_t k = 0; k < m; k++) {
        int pa, pb;
        i64 ra = find(parent, parity, a[k], &pa), rb = find(parent, parity, b[k], &pb);
        if (ra == rb) {
            clash[k] = (unsigned char)((pa ^ pb) != odd[k]);
        } else {
            parent[rb] = ra;
            parity[rb] = (unsigned char)(pa ^ pb ^ odd[k]);
        }
    }
    for (i64 i = 0; i < n; i++) { /* every element straight to its root */
        int p;
        i64 r = find(parent, parity, i, &p);
        parent[i] = r;
        parity[i] = (unsigned char)p;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(y#y#y#)", (const char *)parent, (Py_ssize_t)(n * (Py_ssize_t)sizeof(i64)),
                           (const char *)parity, n, (const char *)clash, m);
out:
    free(parent);
    free(parity);
    free(clash);
    PyBuffer_Release(&ba);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&bo);
    return result;
}

static PyMethodDef methods[] = {
    {"unite", unite, METH_VARARGS,
     "unite(n, a, b, odd) -> (roots, parities, clashes): union-find with parity over the pairs "
     "(int64 buffers a, b; uint8 odd) in order, as bytes (int64 roots, uint8 parities, uint8 per pair)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_forest",
                                    "Union-find with parity over many pairs, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__forest(void) { return PyModule_Create(&module); }
