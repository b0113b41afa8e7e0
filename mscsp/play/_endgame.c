/*
 * The endgame's exact search (mscsp/play/optimum.py, SmallSearch), compiled.
 *
 * Memoised expectimax over a few hundred equally likely layouts of the covered cells.
 * A set of layouts is a bit set of WORDS 64-bit words; each column keeps the set of
 * layouts with a mine there and, per number, the set where it is safe and shows that
 * number. W(S), the layouts of S the best strategy wins, is found exactly as the
 * Python search finds it: a cell safe in every layout of S is opened (the first such
 * column), else every column is tried as a guess, safest first (ties to the leftmost),
 * until no remaining one can beat the best; the numbers a click shows are summed
 * largest part first (ties to the smaller number), with the bounds of Ballard's star1
 * pruning. Knowledge states (each opened column and its number) are memoised with the
 * same keys, so the search visits the same states in the same order, spends its state
 * budget at the same point and leaves the same number of memo entries: the move, the
 * wins and the state count are those of the Python search (the tests compare them).
 */
#define PY_SSIZE_T_CLEAN
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* The search is mostly population counts of layout sets. Without this, GCC calls a
 * libgcc routine for each (baseline x86-64 has no POPCNT instruction); every x86 CPU
 * since 2008 has it, and the module refuses to load on one without (the pure Python
 * search then runs). */
#pragma GCC target("popcnt")
#define NEEDS_POPCNT 1
#endif
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef long long i64;

enum { OK = 0, OUT_OF_STATES = 1, OUT_OF_TIME = 2, OUT_OF_MEMORY = 3 };

typedef struct {
    int rows, cols, words, safe_total, n_opened;
    const uint8_t *numbers; /* rows x cols: the number a column shows in a layout */
    u64 *mine_bits;         /* cols x words */
    u64 *shows;             /* cols x 9 x words */
    uint8_t *opened;        /* cols */
    int *stack;             /* the opened columns, in the order they were opened */
    uint16_t *can_show;     /* cols: the numbers a column shows in some layout, as bits */
    uint8_t *key;           /* cols: the key being looked up; 0 at every column not opened */
    u64 key_hash;           /* its hash: the xor of zobrist[c * 10 + key[c]] over the opened columns */
    u64 *zobrist;           /* cols x 10 random words */
    /* scratch for each depth (the columns opened so far), allocated when the depth is
     * first reached, not per state: the parts of a click, the covered columns and their
     * mine counts, a guess order */
    void **scratch;
    i64 nodes, node_limit;  /* node_limit < 0: none */
    int timed;
    struct timespec deadline;
    int failed;
    /* the memo: open addressing, linear probing */
    size_t cap, count;
    uint8_t *keys, *used, *exact;
    i64 *values;
    u64 *hashes; /* each used slot's key hash: growing the memo rehashes no key */
} Search;

/* the scratch block of the current depth: 9 x words parts, then 2 x (cols + 1) ints for
 * the covered columns and their mine counts, then cols + 1 ints for an order; NULL
 * (and failed) when out of memory */
static u64 *scratch(Search *s) {
    void **slot = s->scratch + s->n_opened;
    if (!*slot) {
        *slot = malloc(sizeof(u64) * 9 * (size_t)s->words + sizeof(int) * 3 * ((size_t)s->cols + 1));
        if (!*slot) s->failed = OUT_OF_MEMORY;
    }
    return *slot;
}

static int *covered_of(Search *s, u64 *block) { return (int *)(block + 9 * (size_t)s->words); }

/* A set of layouts is read only in its words lo .. hi - 1 (the others are zero, and in
 * the scratch of a depth not even written): the sets of deep states are a few layouts
 * of a few hundred, so their words are mostly zero. */
typedef struct {
    const u64 *bits;
    int lo, hi;
} Set;

static int count_bits(const Set *set) {
    int n = 0;
    for (int w = set->lo; w < set->hi; w++) n += __builtin_popcountll(set->bits[w]);
    return n;
}

static int first_bit(const Set *set) {
    for (int w = set->lo; w < set->hi; w++)
        if (set->bits[w]) return w * 64 + __builtin_ctzll(set->bits[w]);
    return -1;
}

static int count_and(const Set *a, const u64 *b) {
    int n = 0;
    for (int w = a->lo; w < a->hi; w++) n += __builtin_popcountll(a->bits[w] & b[w]);
    return n;
}

/* the state's key: per column 0 when covered, one more than its number when open,
 * and its hash. Only the opened columns are written: the others are kept 0 (a column
 * is cleared when it is closed again), so a key costs the depth, not the columns. */
static void make_key(Search *s, int layout) {
    const uint8_t *row = s->numbers + (size_t)layout * s->cols;
    u64 h = 0;
    for (int d = 0; d < s->n_opened; d++) {
        int c = s->stack[d];
        uint8_t v = (uint8_t)(row[c] + 1);
        s->key[c] = v;
        h ^= s->zobrist[(size_t)c * 10 + v];
    }
    s->key_hash = h;
}

/* the slot holding the key (of hash h), or the empty slot where it would go; the hash
 * places a key, never decides a lookup, so the search is the same whatever it is */
static size_t find_slot(const Search *s, const uint8_t *key, u64 h) {
    size_t mask = s->cap - 1, i = (size_t)(h ^ (h >> 29)) & mask;
    while (s->used[i] && (s->hashes[i] != h || memcmp(s->keys + i * (size_t)s->cols, key, (size_t)s->cols) != 0))
        i = (i + 1) & mask;
    return i;
}

static int grow(Search *s) {
    size_t old_cap = s->cap, cols = (size_t)s->cols;
    uint8_t *old_keys = s->keys, *old_used = s->used, *old_exact = s->exact;
    i64 *old_values = s->values;
    u64 *old_hashes = s->hashes;
    s->cap = old_cap ? old_cap * 2 : 1024;
    s->keys = malloc(s->cap * cols + 1);
    s->used = calloc(s->cap, 1);
    s->exact = malloc(s->cap);
    s->values = malloc(s->cap * sizeof(i64));
    s->hashes = malloc(s->cap * sizeof(u64));
    if (!s->keys || !s->used || !s->exact || !s->values || !s->hashes) {
        free(s->keys); free(s->used); free(s->exact); free(s->values); free(s->hashes);
        s->keys = old_keys; s->used = old_used; s->exact = old_exact; s->values = old_values; s->hashes = old_hashes;
        s->cap = old_cap;
        return -1;
    }
    for (size_t i = 0; i < old_cap; i++) {
        if (!old_used[i]) continue;
        size_t mask = s->cap - 1, j = (size_t)(old_hashes[i] ^ (old_hashes[i] >> 29)) & mask;
        while (s->used[j]) j = (j + 1) & mask; /* the keys are distinct: no comparison */
        memcpy(s->keys + j * cols, old_keys + i * cols, cols);
        s->used[j] = 1;
        s->exact[j] = old_exact[i];
        s->values[j] = old_values[i];
        s->hashes[j] = old_hashes[i];
    }
    free(old_keys); free(old_used); free(old_exact); free(old_values); free(old_hashes);
    return 0;
}

static void store(Search *s, i64 value, int exact) {
    if (2 * (s->count + 1) > s->cap && grow(s) != 0) {
        s->failed = OUT_OF_MEMORY;
        return;
    }
    size_t i = find_slot(s, s->key, s->key_hash);
    if (!s->used[i]) {
        memcpy(s->keys + i * (size_t)s->cols, s->key, (size_t)s->cols);
        s->used[i] = 1;
        s->hashes[i] = s->key_hash;
        s->count++;
    }
    s->values[i] = value;
    s->exact[i] = (uint8_t)exact;
}

static int past_deadline(const Search *s) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > s->deadline.tv_sec || (now.tv_sec == s->deadline.tv_sec && now.tv_nsec > s->deadline.tv_nsec);
}

static i64 wins(Search *s, const Set *set, i64 alpha);

/* W after opening ``cell``: the sum over the numbers it shows; *done when it is exact
 * (it exceeds alpha), else a bound u with W <= u <= alpha */
static i64 sum_parts(Search *s, const Set *set, int cell, i64 alpha, int *done) {
    int words = s->words, cnt[9], order[9], k = 0;
    Set part_of[9];
    u64 *parts = scratch(s);
    if (!parts) return 0;
    i64 bound = 0;
    for (int v = 0; v < 9; v++) {
        cnt[v] = 0;
        if (!(s->can_show[cell] >> v & 1)) continue;
        const u64 *shows = s->shows + ((size_t)cell * 9 + v) * words;
        u64 *part = parts + (size_t)v * words;
        int lo = set->hi, hi = set->lo;
        for (int w = set->lo; w < set->hi; w++) {
            part[w] = set->bits[w] & shows[w];
            if (part[w]) {
                cnt[v] += __builtin_popcountll(part[w]);
                if (w < lo) lo = w;
                hi = w + 1;
            }
        }
        part_of[v].bits = part;
        part_of[v].lo = lo;
        part_of[v].hi = hi;
        if (cnt[v]) {
            /* largest first, a stable insertion: equal parts keep the order of their numbers */
            int j = k++;
            while (j > 0 && cnt[order[j - 1]] < cnt[v]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
            bound += cnt[v];
        }
    }
    s->opened[cell] = 1;
    s->stack[s->n_opened++] = cell;
    *done = 1;
    for (int i = 0; i < k; i++) {
        i64 rest = bound - cnt[order[i]];
        i64 w = wins(s, &part_of[order[i]], alpha - rest);
        if (s->failed) break;
        bound = rest + w;
        if (bound <= alpha) {
            *done = 0;
            break;
        }
    }
    s->opened[cell] = 0;
    s->key[cell] = 0;
    s->n_opened--;
    return bound;
}

/* the best guess's W (exact, *exact = 1, when above alpha) and its column in *best;
 * column ``first`` (>= 0, at the root only) is tried before the others, so that when
 * the budget runs out *best holds the best column fully searched: ``first`` itself,
 * or one proven better */
static i64 best_guess(Search *s, const Set *set, int n, const int *covered, const int *mines, int ncov, i64 alpha,
                      int first, int *exact, int *best) {
    u64 *block = scratch(s);
    if (!block) return 0;
    int *order = covered_of(s, block) + 2 * ((size_t)s->cols + 1);
    /* safest first, ties to the leftmost (a stable insertion sort on the mine counts) */
    for (int i = 0; i < ncov; i++) {
        int j = i;
        while (j > 0 && mines[order[j - 1]] > mines[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int t = 0; first >= 0 && t < ncov; t++) {
        if (covered[order[t]] != first) continue;
        int moved = order[t];
        for (; t > 0; t--) order[t] = order[t - 1];
        order[0] = moved;
        break;
    }
    i64 value = 0, ceiling = 0;
    *exact = 0;
    *best = -1;
    for (int t = 0; t < ncov; t++) {
        int i = order[t];
        i64 bound = n - mines[i], need = alpha > value ? alpha : value;
        if (bound <= need) {
            if (bound > ceiling) ceiling = bound;
            if (first >= 0 && t == 0) continue; /* out of order: the rest may still beat it */
            break; /* so does every cell after this one */
        }
        int done;
        i64 won = sum_parts(s, set, covered[i], need, &done);
        if (s->failed) break;
        if (done) {
            value = won;
            *exact = 1;
            *best = covered[i];
        } else if (won > ceiling) {
            ceiling = won;
        }
    }
    if (!*exact || value <= alpha) {
        *exact = 0;
        *best = -1;
        return value > ceiling ? value : ceiling;
    }
    return value;
}

/* W(S) exactly when it exceeds alpha; otherwise some u with W(S) <= u <= alpha */
static i64 wins(Search *s, const Set *set, i64 alpha) {
    int n = count_bits(set);
    if (s->n_opened == s->safe_total) return n;
    int first = first_bit(set);
    make_key(s, first);
    size_t slot = find_slot(s, s->key, s->key_hash);
    if (s->used[slot] && (s->exact[slot] || s->values[slot] <= alpha)) return s->values[slot];
    s->nodes++;
    if (s->node_limit >= 0 && s->nodes > s->node_limit) {
        s->failed = OUT_OF_STATES;
        return 0;
    }
    if (s->timed && past_deadline(s)) {
        s->failed = OUT_OF_TIME;
        return 0;
    }
    u64 *block = scratch(s);
    if (!block) return 0;
    int *covered = covered_of(s, block);
    int *mines = covered + s->cols + 1, ncov = 0, safe = -1;
    for (int c = 0; c < s->cols; c++) {
        if (s->opened[c]) continue;
        covered[ncov] = c;
        mines[ncov] = count_and(set, s->mine_bits + (size_t)c * s->words);
        if (mines[ncov] == 0 && safe < 0) safe = c;
        ncov++;
    }
    i64 value;
    int exact, best;
    if (safe >= 0) /* free information: a cell safe in every layout */
        value = sum_parts(s, set, safe, alpha, &exact);
    else
        value = best_guess(s, set, n, covered, mines, ncov, alpha, -1, &exact, &best);
    if (s->failed) return 0;
    make_key(s, first); /* the recursion wrote its own keys there */
    store(s, value, exact);
    return value;
}

/* best_move(mines, numbers, rows, cols, node_limit, seconds[, first]) -> (status, column, wins, states)
 *
 * mines and numbers are rows x cols bytes (row-major); node_limit < 0 and seconds < 0
 * mean no limit. status 0: the move is (column, wins); 1: out of states; 2: out of
 * time. With first >= 0 and no column safe in every layout, the guess at column first
 * is searched before the others; out of states or time, (column, wins) is then the
 * best guess fully searched (first, or one that wins more), column -1 if none was. */
static PyObject *best_move(PyObject *self, PyObject *args) {
    Py_buffer mb, nb;
    int rows, cols, first = -1;
    long long node_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*y*iiLd|i", &mb, &nb, &rows, &cols, &node_limit, &seconds, &first)) return NULL;
    PyObject *result = NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (rows <= 0 || cols <= 0 || mb.len != (Py_ssize_t)rows * cols || nb.len != (Py_ssize_t)rows * cols) {
        PyErr_SetString(PyExc_ValueError, "best_move: the arrays do not match rows x cols");
        goto out;
    }
    if (first >= cols) {
        PyErr_SetString(PyExc_ValueError, "best_move: first is not a column");
        goto out;
    }
    const uint8_t *m = mb.buf;
    s.rows = rows;
    s.cols = cols;
    s.words = (rows + 63) / 64;
    s.numbers = nb.buf;
    s.node_limit = node_limit;
    if (seconds >= 0) {
        s.timed = 1;
        clock_gettime(CLOCK_MONOTONIC, &s.deadline);
        double whole = (double)(time_t)seconds;
        s.deadline.tv_sec += (time_t)seconds;
        s.deadline.tv_nsec += (long)((seconds - whole) * 1e9);
        if (s.deadline.tv_nsec >= 1000000000L) {
            s.deadline.tv_sec++;
            s.deadline.tv_nsec -= 1000000000L;
        }
    }
    s.mine_bits = calloc((size_t)cols * s.words, sizeof(u64));
    s.shows = calloc((size_t)cols * 9 * s.words, sizeof(u64));
    s.opened = calloc((size_t)cols, 1);
    s.can_show = calloc((size_t)cols, sizeof(uint16_t));
    s.key = calloc((size_t)cols, 1);
    s.stack = calloc((size_t)cols + 1, sizeof(int));
    s.zobrist = malloc(sizeof(u64) * 10 * (size_t)cols);
    s.scratch = calloc((size_t)cols + 1, sizeof(void *));
    u64 *everything = calloc((size_t)s.words, sizeof(u64));
    int *covered = malloc(sizeof(int) * 2 * ((size_t)cols + 1));
    if (!s.mine_bits || !s.shows || !s.opened || !s.can_show || !s.key || !s.stack || !s.zobrist || !s.scratch || !everything || !covered || grow(&s) != 0) {
        free(everything);
        free(covered);
        PyErr_NoMemory();
        goto out;
    }
    u64 z = 0x9E3779B97F4A7C15ULL; /* splitmix64: the same words on every run */
    for (size_t i = 0; i < 10 * (size_t)cols; i++) {
        u64 x = (z += 0x9E3779B97F4A7C15ULL);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        s.zobrist[i] = x ^ (x >> 31);
    }
    int layout_mines = 0;
    for (int c = 0; c < cols; c++) layout_mines += m[c] != 0;
    s.safe_total = cols - layout_mines;
    for (int r = 0; r < rows; r++) {
        u64 bit = 1ULL << (r % 64);
        int w = r / 64;
        everything[w] |= bit;
        for (int c = 0; c < cols; c++) {
            uint8_t v = s.numbers[(size_t)r * cols + c];
            if (m[(size_t)r * cols + c])
                s.mine_bits[(size_t)c * s.words + w] |= bit;
            else if (v < 9) {
                s.shows[((size_t)c * 9 + v) * s.words + w] |= bit;
                s.can_show[c] |= (uint16_t)(1u << v);
            }
        }
    }
    int *mines = covered + cols + 1, safe = -1, exact = 0, cell = -1;
    Set all = {everything, 0, s.words};
    for (int c = 0; c < cols; c++) {
        covered[c] = c;
        mines[c] = count_and(&all, s.mine_bits + (size_t)c * s.words);
        if (mines[c] == 0 && safe < 0) safe = c;
    }
    i64 won;
    if (safe >= 0) { /* deduction left something: opening it loses nothing */
        cell = safe;
        won = sum_parts(&s, &all, safe, -1, &exact);
    } else {
        won = best_guess(&s, &all, rows, covered, mines, cols, -1, first, &exact, &cell);
    }
    free(everything);
    free(covered);
    if (s.failed == OUT_OF_MEMORY) {
        PyErr_NoMemory();
        goto out;
    }
    result = Py_BuildValue("(iiLn)", s.failed, cell, (long long)won, (Py_ssize_t)s.count);
out:
    free(s.mine_bits);
    free(s.shows);
    free(s.opened);
    free(s.can_show);
    free(s.key);
    free(s.stack);
    free(s.zobrist);
    if (s.scratch)
        for (int d = 0; d <= cols; d++) free(s.scratch[d]);
    free(s.scratch);
    free(s.keys);
    free(s.used);
    free(s.exact);
    free(s.values);
    free(s.hashes);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&nb);
    return result;
}

static PyMethodDef methods[] = {
    {"best_move", best_move, METH_VARARGS,
     "best_move(mines, numbers, rows, cols, node_limit, seconds[, first]) -> (status, column, wins, states)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_endgame",
                                    "The endgame's exact search, compiled (see mscsp.play.endgame).", -1, methods};

PyMODINIT_FUNC PyInit__endgame(void) {
#ifdef NEEDS_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_endgame: this CPU has no POPCNT instruction");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
