/*
 * The verifier's play loop in C: open what complete deduction proves, from a click,
 * until the board is won or nothing more can be proven.
 *
 * This is an accelerator for mscsp.play.fastplay; mscsp.play.loop.Deducer is the reference it
 * is tested against. The closure of complete deduction is unique (knowledge only
 * grows, so the order of sound deductions does not change what is finally opened),
 * so this loop opens exactly the cells the reference opens, in the same rounds (both
 * ask the complete step once at each single-point stall).
 *
 * Two parts, kept apart as in Simon Tatham's Mines: the game (the layout, its numbers,
 * the flood fill) and the solver, which reads only what a player sees -- the numbers
 * of open cells, its own flags, and the mine total when it is used.
 *
 * At a stall every frontier component is enumerated by backtracking over groups of
 * cells with identical clue sets (minesweepr's "supercells"), recording for each
 * group the mine counts of its component at which it can hold a mine and at which it
 * can hold a safe cell. With the mine total, the component counts that the rest of the
 * board can complete are found by sum sets of achievable counts (prefix and suffix),
 * as in mscsp.analysis.counting.forced_cells. A cell is proven exactly when one value is never
 * achievable at a feasible count. The search is bounded by a node budget; past it the
 * caller falls back to the reference.
 *
 * One module, not several: a compiled extension is one shared object, and the play loop,
 * its propagation and the counting it falls back on share the board's arrays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <limits.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

enum { WON = 0, STUCK = 1, GAVE_UP = 2, LOST = 3 };

/* Groups of one component enumerated in C at most (deeper searches go back to Python). */
enum { MAX_GROUPS = 10000 };

typedef uint64_t word;

/* the dead-structure search's rows: padded by PAD cells each side, at most MAX_ROW
 * cells wide, and the words of scratch it needs for h rows */
enum { PAD = 3, MAX_ROW = 64 - 2 * PAD };
#define STRUCTURE_ROWS(h) (13 * ((size_t)(h) + 2 * PAD))

typedef struct {
    /* the game: holds the layout */
    Py_ssize_t area;
    const int32_t *adj; /* area x 9: the number of neighbours, then the neighbours */
    const uint8_t *mask;
    const uint8_t *mine;
    int8_t *number;
    int safe_left, safe_total, size;
    int lost;
    int *stack;
    /* what the player sees: OPEN or FLAG per cell (PENDING: the game's flood fill has
     * queued it) */
    uint8_t *st;
    int flags;
    int total;
    /* the round at which each cell was opened or flagged, then (record + area) its
     * place in the order of all openings and flags (NULL: not kept) */
    int32_t *record;
    int round;
    int32_t clock;
    /* single-point bookkeeping */
    int *rem, *unk;
    int *work;
    /* open cells seen with covered neighbours, in the order opened (some may have none
     * left: pair_step drops them as it passes) */
    int *clues;
    int nclues;
    int nwork;
    /* stall analysis scratch */
    int *fidx;
    long budget;
    struct Block *blocks; /* stall scratch */
    /* components kept from one stall to the next: a component none of whose cells or
     * their neighbours changed is the same component, and its enumeration stands */
    struct Block *kept;
    struct Part **part_of; /* per frontier cell: its component at the last stall */
    int *changed;          /* per cell: the stall count when it was opened or flagged */
    int nstall;
    /* pairs of clues tried before each complete step (the chain asks only won or not),
     * on a rectangle of width x height cells */
    int pairs, width, height;
    const int *xs, *ys; /* each cell's column and row */
    const uint8_t *wbit; /* per cell, per neighbour (as in adj): its bit (0..7) around the cell */
} Play;

enum { OPEN = 1, FLAG = 2, PENDING = 4, QUEUED = 8 };
#define NBR(p, c) ((p)->adj + (size_t)(c) * 9)

/* -- the solver's bookkeeping -------------------------------------------------------- */
static inline void push(Play *p, int c) {
    if (!(p->st[c] & QUEUED)) {
        p->st[c] |= QUEUED;
        p->work[p->nwork++] = c;
    }
}

static void seen_open(Play *p, int r) {
    /* a cell just opened: it is no longer unknown to open neighbours */
    int u = 0, m = 0;
    p->changed[r] = p->nstall;
    const int32_t *nb = NBR(p, r);
    for (int k = 1; k <= nb[0]; k++) {
        int n = nb[k], s = p->st[n];
        if (s & OPEN) {
            p->unk[n] -= 1;
            push(p, n);
        } else if (s & FLAG) {
            m++;
        } else {
            u++;
        }
    }
    p->unk[r] = u;
    p->rem[r] = p->number[r] - m;
    if (u) {
        push(p, r);
        p->clues[p->nclues++] = r;
    }
}

/* -- the game ------------------------------------------------------------------------ */
static void game_open(Play *p, int start) {
    /* open a cell; zeros flood. Each opened cell is shown to the solver at once. */
    if (p->st[start] & (OPEN | FLAG)) return;
    if (p->mine[start]) {
        p->lost = 1;
        return;
    }
    /* cells waiting on the stack are not open yet: the solver sees each as it opens */
    int top = 0;
    p->st[start] |= PENDING;
    p->stack[top++] = start;
    while (top) {
        int c = p->stack[--top];
        p->st[c] |= OPEN;
        if (p->record) {
            p->record[c] = p->round;
            p->record[p->area + c] = p->clock++;
        }
        p->safe_left--;
        seen_open(p, c);
        if (p->number[c] == 0) {
            const int32_t *nb = NBR(p, c);
            for (int k = 1; k <= nb[0]; k++) {
                int n = nb[k];
                if (p->st[n] & (OPEN | FLAG | PENDING)) continue;
                p->st[n] |= PENDING;
                p->stack[top++] = n;
            }
        }
    }
}

static void solver_flag(Play *p, int c) {
    if (p->st[c] & FLAG) return;
    p->st[c] |= FLAG;
    if (p->record) {
        p->record[c] = p->round;
        p->record[p->area + c] = p->clock++;
    }
    p->flags++;
    p->changed[c] = p->nstall;
    const int32_t *nb = NBR(p, c);
    for (int k = 1; k <= nb[0]; k++) {
        int n = nb[k];
        if (p->st[n] & OPEN) {
            p->rem[n] -= 1;
            p->unk[n] -= 1;
            push(p, n);
        }
    }
}

/* the two single-point rules to a fixed point; 1 if anything was proven */
static int single_point(Play *p) {
    int progress = 0;
    while (p->nwork && p->safe_left > 0 && !p->lost) {
        int c = p->work[--p->nwork];
        p->st[c] &= ~QUEUED;
        int unk = p->unk[c], rem = p->rem[c];
        if (!unk || (rem && rem != unk)) continue;
        progress = 1;
        const int32_t *nb = NBR(p, c);
        for (int k = 1; k <= nb[0]; k++) {
            int n = nb[k];
            if (p->st[n] & (OPEN | FLAG)) continue;
            if (rem == 0) game_open(p, n);
            else solver_flag(p, n);
        }
    }
    return progress;
}

/* A clue's eight neighbours as bits 0..7 (rows, then columns, from (-1, -1));
 * the cells after a clue within two (rows below, or its own row to the right), so
 * that each pair of clues is looked at once, both ways; for each, the neighbours of
 * the clue it touches; and for each set of the clue's neighbours, the cells after it
 * that touch one of them. */
static const int after_dx[12] = {1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2};
static const int after_dy[12] = {0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
static const int around_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, around_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static uint8_t after_near[12];
static uint16_t after_touching[256];
static uint8_t bits_in[256];

static void window_tables(void) {
    if (after_near[0]) return;
    for (int o = 0; o < 12; o++)
        for (int i = 0; i < 8; i++)
            if (abs(around_dx[i] - after_dx[o]) <= 1 && abs(around_dy[i] - after_dy[o]) <= 1 &&
                (around_dx[i] != after_dx[o] || around_dy[i] != after_dy[o]))
                after_near[o] |= (uint8_t)(1u << i);
    for (int m = 0; m < 256; m++) {
        for (int o = 0; o < 12; o++)
            if (m & after_near[o]) after_touching[m] |= (uint16_t)(1u << o);
        for (int i = 0; i < 8; i++) bits_in[m] += (m >> i) & 1;
    }
}

/* Pairs of clues c and d within two cells of each other. The mines of d's covered
 * cells away from c, less those of c's covered cells away from d, are rem(d) - rem(c);
 * when that is the number of the former, they are all mines and the latter all safe
 * (and the same with c and d swapped). Sound, and each such cell is one the complete
 * step would prove; 1 if anything was proven. Needs the board's width and height (a
 * rectangle of cells whose neighbours are the king's moves, holes aside: a hole is
 * never open nor covered-and-unflagged, so it takes no part). */
static int pair_step(Play *p) {
    int progress = 0, w = p->width, h = p->height;
    const uint8_t *st = p->st;
    const int *unk = p->unk, *rem = p->rem, *xs = p->xs, *ys = p->ys;
    int kept = 0, t = 0;
    /* cells opened during the pass join the list's end and are passed too */
    for (; t < p->nclues && p->safe_left > 0 && !p->lost; t++) {
        int c = p->clues[t];
        if (!unk[c]) continue;
        p->clues[kept++] = c;
        int cx = xs[c], cy = ys[c], nu = unk[c];
        unsigned mine_c = 0; /* c's covered, unflagged neighbours */
        const int32_t *nb = NBR(p, c);
        const uint8_t *bit_of = p->wbit + (size_t)c * 9;
        for (int k = 1; k <= nb[0]; k++)
            if (!(st[nb[k]] & (OPEN | FLAG))) mine_c |= 1u << bit_of[k];
        for (unsigned todo = after_touching[mine_c]; todo; todo &= todo - 1) {
            int o = __builtin_ctz(todo), dx = after_dx[o], dy = after_dy[o], x = cx + dx;
            if (x < 0 || x >= w || cy + dy >= h) continue;
            int d = c + dy * w + dx;
            if (!(st[d] & OPEN) || !unk[d]) continue;
            unsigned shared = mine_c & after_near[o];
            int s = bits_in[shared], a = nu - s, b = unk[d] - s, diff = rem[d] - rem[c];
            int d_mines = diff == b, c_mines = -diff == a;
            if (a + b == 0 || !(d_mines || c_mines)) continue;
            /* d's cells away from c, then c's away from d */
            int away[16], na = 0;
            const int32_t *around = NBR(p, d);
            for (int k = 1; k <= around[0]; k++) {
                int q = around[k];
                if (!(st[q] & (OPEN | FLAG)) && (abs(xs[q] - cx) > 1 || abs(ys[q] - cy) > 1)) away[na++] = q;
            }
            for (unsigned rest = mine_c & ~shared; rest; rest &= rest - 1) {
                int i = __builtin_ctz(rest);
                away[na++] = c + around_dy[i] * w + around_dx[i];
            }
            /* the first na - a cells are d's, the rest c's */
            for (int k = 0; k < na; k++) {
                if ((k < na - a) == d_mines) solver_flag(p, away[k]);
                else game_open(p, away[k]);
            }
            progress = 1;
            break; /* c's covered cells have changed */
        }
    }
    while (t < p->nclues) p->clues[kept++] = p->clues[t++];
    p->nclues = kept;
    return progress;
}

/* -- bit sets of mine counts ------------------------------------------------------------ */
static inline void bit_set(word *b, int k) { b[k >> 6] |= (word)1 << (k & 63); }
static inline int bit_get(const word *b, int k) { return (int)((b[k >> 6] >> (k & 63)) & 1); }

/* out = {a + b : a in A, b in B}, truncated to nbits bits (one shifted copy of A per
 * element of B: component supports hold few counts) */
static void sum_set(word *out, const word *a, const word *b, int nbits) {
    int nw = (nbits + 63) / 64;
    memset(out, 0, sizeof(word) * nw);
    for (int bw = 0; bw < nw; bw++) {
        for (word bits = b[bw]; bits; bits &= bits - 1) {
            int j = bw * 64 + __builtin_ctzll(bits);
            if (j >= nbits) break;
            int ws = j >> 6, bs = j & 63;
            for (int i = nw - 1; i >= ws; i--) {
                word v = a[i - ws] << bs;
                if (bs && i - ws - 1 >= 0) v |= a[i - ws - 1] >> (64 - bs);
                out[i] |= v;
            }
        }
    }
    if (nbits & 63) out[nw - 1] &= ((word)1 << (nbits & 63)) - 1;
}

/* whether any of the bits lo..hi of b is set (the caller keeps hi inside b) */
static int any_in(const word *b, int lo, int hi) {
    if (lo < 0) lo = 0;
    if (lo > hi) return 0;
    int lw = lo >> 6, hw = hi >> 6;
    word lmask = ~(word)0 << (lo & 63), hmask = ~(word)0 >> (63 - (hi & 63));
    if (lw == hw) return (b[lw] & lmask & hmask) != 0;
    if (b[lw] & lmask) return 1;
    for (int w = lw + 1; w < hw; w++)
        if (b[w]) return 1;
    return (b[hw] & hmask) != 0;
}

/* -- enumeration of one component ----------------------------------------------------- */
typedef struct {
    int ngroups, nwords;
    int *size;        /* per group (in search order) */
    int *start, *len; /* its clues: members[start .. start+len) */
    int *members;
    int *after; /* per member: the cells of its clue in the groups after this one */
    int *need, *sums; /* per clue */
    int *choice;
    word *can_mine, *can_safe; /* per group, nwords each */
    word *support;
} Enum;

static int walk(Play *p, Enum *e, int i, int k) {
    if (--p->budget < 0) return -1;
    if (i == e->ngroups) {
        bit_set(e->support, k);
        for (int g = 0; g < e->ngroups; g++) {
            if (e->choice[g] > 0) bit_set(e->can_mine + (size_t)g * e->nwords, k);
            if (e->choice[g] < e->size[g]) bit_set(e->can_safe + (size_t)g * e->nwords, k);
        }
        return 0;
    }
    const int *here = e->members + e->start[i], *after = e->after + e->start[i];
    int n = e->len[i], size = e->size[i];
    int lo = 0, hi = size;
    for (int t = 0; t < n; t++) {
        int left = e->need[here[t]] - e->sums[here[t]];
        if (left < hi) hi = left;
        if (left - after[t] > lo) lo = left - after[t];
    }
    if (lo > hi) return 0;
    for (int t = 0; t < n; t++) e->sums[here[t]] += lo;
    int rc, j = lo;
    for (;;) {
        e->choice[i] = j;
        rc = walk(p, e, i + 1, k + j);
        if (rc || j == hi) break;
        j++;
        for (int t = 0; t < n; t++) e->sums[here[t]] += 1;
    }
    for (int t = 0; t < n; t++) e->sums[here[t]] -= j;
    e->choice[i] = 0;
    return rc;
}

/* -- the stall analysis --------------------------------------------------------------- */
/* Scratch memory of one stall, released all at once: a stall makes a few dozen small
 * arrays, and a bump pointer is much cheaper than as many mallocs. */
typedef struct Block {
    struct Block *next;
    size_t cap, used;
    max_align_t data[];
} Block;

static void *scratch(Block **arena, size_t n, int zero) {
    n = (n + 15) & ~(size_t)15;
    Block *b = *arena;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        Block *nb = malloc(sizeof(Block) + cap);
        if (!nb) return NULL;
        nb->next = b;
        nb->cap = cap;
        nb->used = 0;
        *arena = b = nb;
    }
    void *out = (char *)b->data + b->used;
    b->used += n;
    if (zero) memset(out, 0, n);
    return out;
}

/* empty an arena, keeping its first block for the next use */
static void arena_rewind(Block **arena) {
    Block *b = *arena;
    if (!b) return;
    for (Block *rest = b->next; rest;) {
        Block *next = rest->next;
        free(rest);
        rest = next;
    }
    b->next = NULL;
    b->used = 0;
}

static void scratch_reset(Play *p) { arena_rewind(&p->blocks); }

static void scratch_free(Block **arena) {
    for (Block *b = *arena; b;) {
        Block *next = b->next;
        free(b);
        b = next;
    }
    *arena = NULL;
}

typedef struct Part {
    int *cells; /* frontier cells grouped: group g is cells[gstart[g] .. gstart[g+1]) */
    int *gstart;
    int ngroups, ncells, nwords;
    long nodes; /* search nodes its enumeration took: a kept component is charged them again */
    word *can_mine, *can_safe, *support;
} Part;

static int find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* NEW leaves the memory as it was (the caller writes before reading); NEW0 zeroes it */
#define NEW(type, n) ((type *)scratch(&p->blocks, sizeof(type) * (size_t)(n), 0))
#define NEW0(type, n) ((type *)scratch(&p->blocks, sizeof(type) * (size_t)(n), 1))
/* KEEP and KEEP0: the same in memory that lasts the whole play (kept components) */
#define KEEP(type, n) ((type *)scratch(&p->kept, sizeof(type) * (size_t)(n), 0))
#define KEEP0(type, n) ((type *)scratch(&p->kept, sizeof(type) * (size_t)(n), 1))

/* Enumerate one component (its frontier indices idx[0..n)); 0, or -1 to give up. */
static int enumerate(Play *p, Part *pt, const int *idx, int n, const int *frontier, const int *nclue,
                     const int *ckeys, int *clue_id) {
    int *gkey = NEW(int, n), *gsize = NEW0(int, n), *cell_group = NEW(int, n);
    pt->cells = KEEP(int, n);
    pt->gstart = KEEP0(int, n + 1);
    if (!gkey || !gsize || !cell_group || !pt->cells || !pt->gstart) return -1;
    /* groups: cells with identical clue sets (numbered in order of first appearance),
     * found through a hash table of the sets */
    int ng = 0, cap = 16;
    while (cap < 2 * n) cap *= 2;
    int *slot = NEW(int, cap);
    if (!slot) return -1;
    memset(slot, 0xff, sizeof(int) * cap);
    for (int t = 0; t < n; t++) {
        int i = idx[t], g = -1;
        const int *key = ckeys + (size_t)i * 8;
        uint32_t h = 2166136261u;
        for (int u = 0; u < nclue[i]; u++) h = (h ^ (uint32_t)key[u]) * 16777619u;
        for (uint32_t s = h & (cap - 1);; s = (s + 1) & (cap - 1)) {
            if (slot[s] < 0) {
                g = ng;
                slot[s] = g;
                gkey[ng++] = i;
                break;
            }
            int j = gkey[slot[s]];
            if (nclue[j] == nclue[i] && memcmp(ckeys + (size_t)j * 8, key, sizeof(int) * nclue[i]) == 0) {
                g = slot[s];
                break;
            }
        }
        cell_group[t] = g;
        gsize[g]++;
    }
    if (ng > MAX_GROUPS) return -1; /* the search recurses once per group: keep the C stack small */
    pt->ncells = n;
    pt->ngroups = ng;
    for (int g = 0; g < ng; g++) pt->gstart[g + 1] = pt->gstart[g] + gsize[g];
    memset(gsize, 0, sizeof(int) * n);
    for (int t = 0; t < n; t++) {
        int g = cell_group[t];
        pt->cells[pt->gstart[g] + gsize[g]++] = frontier[idx[t]];
    }
    /* the component's clues, numbered */
    int nc = 0;
    int *clue_cells = NEW(int, (size_t)ng * 8);
    Enum e;
    memset(&e, 0, sizeof e);
    e.members = NEW(int, (size_t)ng * 8);
    if (!clue_cells || !e.members) return -1;
    for (int g = 0; g < ng; g++) {
        int j = gkey[g];
        for (int t = 0; t < nclue[j]; t++) {
            int r = ckeys[(size_t)j * 8 + t];
            if (clue_id[r] < 0) {
                clue_id[r] = nc;
                clue_cells[nc++] = r;
            }
        }
    }
    e.ngroups = ng;
    e.nwords = pt->nwords = (n + 1 + 63) / 64;
    e.size = NEW(int, ng);
    e.start = NEW(int, ng);
    e.len = NEW(int, ng);
    e.need = NEW(int, nc);
    e.sums = NEW0(int, nc);
    e.after = NEW(int, (size_t)ng * 8);
    int *room = NEW0(int, nc);
    e.choice = NEW0(int, ng);
    pt->can_mine = e.can_mine = KEEP0(word, (size_t)ng * e.nwords);
    pt->can_safe = e.can_safe = KEEP0(word, (size_t)ng * e.nwords);
    pt->support = e.support = KEEP0(word, e.nwords);
    int rc = -1;
    if (e.size && e.start && e.len && e.need && e.sums && e.after && room && e.choice && e.can_mine &&
        e.can_safe && e.support) {
        int m = 0;
        for (int g = 0; g < ng; g++) {
            int j = gkey[g];
            e.size[g] = pt->gstart[g + 1] - pt->gstart[g];
            e.start[g] = m;
            e.len[g] = nclue[j];
            for (int t = 0; t < nclue[j]; t++) {
                int cid = clue_id[ckeys[(size_t)j * 8 + t]];
                e.members[m++] = cid;
                room[cid] += e.size[g];
            }
        }
        for (int g = 0, m = 0; g < ng; g++)
            for (int t = 0; t < e.len[g]; t++, m++) {
                room[e.members[m]] -= e.size[g];
                e.after[m] = room[e.members[m]];
            }
        for (int c = 0; c < nc; c++) e.need[c] = p->rem[clue_cells[c]];
        long budget = p->budget;
        rc = walk(p, &e, 0, 0);
        pt->nodes = budget - p->budget;
    }
    for (int c = 0; c < nc; c++) clue_id[clue_cells[c]] = -1;
    if (rc < 0) return -1;
    /* the true layout is a model, so an empty support means a broken invariant */
    for (int w = 0; w < e.nwords; w++)
        if (e.support[w]) return 0;
    return -1;
}

/* Returns 1 if something was proven (and applied), 0 if not, -1 to give up. */
static int complete_step(Play *p, int use_total) {
    Py_ssize_t area = p->area;
    int rc = -1, nf = 0;
    scratch_reset(p);
    int before = p->nstall++; /* a cell changed at this count changed since the last stall */
    int *frontier = NEW(int, area), *ckeys = NEW(int, (size_t)area * 8), *nclue = NEW(int, area);
    int *clue_id = NEW(int, area), *parent = NEW(int, area);
    int *safe = NEW(int, area), *mines = NEW(int, area);
    if (!frontier || !ckeys || !nclue || !clue_id || !parent || !safe || !mines) goto done;
    memset(clue_id, 0xff, sizeof(int) * area); /* -1 */
    /* the frontier: covered, unflagged cells next to a clue (an open cell with such a
     * neighbour); the rest of the covered cells are touched by no clue */
    const uint8_t *st = p->st;
    const int *unk = p->unk;
    int *fidx = p->fidx;
    const int32_t *adj = p->adj;
    for (Py_ssize_t r = 0; r < area; r++) {
        if (!(st[r] & OPEN) || !unk[r]) continue;
        const int32_t *nb = adj + (size_t)r * 9;
        for (int t = 1; t <= nb[0]; t++) {
            int c = nb[t];
            if ((st[c] & (OPEN | FLAG)) || fidx[c] >= 0) continue;
            int *keys = ckeys + (size_t)nf * 8, k = 0;
            const int32_t *around = adj + (size_t)c * 9;
            for (int u = 1; u <= around[0]; u++) {
                int q = around[u];
                if (st[q] & OPEN) keys[k++] = q;
            }
            nclue[nf] = k;
            fidx[c] = nf;
            frontier[nf++] = c;
        }
    }
    int interior = p->size - (p->safe_total - p->safe_left) - p->flags - nf;
    int remaining = p->total - p->flags;
    /* components: the frontier cells of each clue belong together */
    for (int i = 0; i < nf; i++) parent[i] = i;
    for (int i = 0; i < nf; i++) {
        const int *keys = ckeys + (size_t)i * 8;
        for (int t = 0; t < nclue[i]; t++) {
            int r = keys[t];
            if (clue_id[r] < 0) {
                clue_id[r] = i; /* the first frontier cell of the clue stands for it */
            } else {
                int a = find(parent, i), b = find(parent, clue_id[r]);
                if (a != b) parent[a] = b;
            }
        }
    }
    for (int i = 0; i < nf; i++)
        for (int t = 0; t < nclue[i]; t++) clue_id[ckeys[(size_t)i * 8 + t]] = -1;
    int nparts = 0;
    int *root_part = NEW(int, nf + 1), *count = NEW0(int, nf + 1), *cstart = NEW0(int, nf + 2);
    int *order = NEW(int, nf + 1);
    Part *parts = KEEP0(Part, nf + 1);
    if (!root_part || !count || !cstart || !order || !parts) goto done;
    for (int i = 0; i < nf; i++) root_part[i] = -1;
    for (int i = 0; i < nf; i++) {
        int r = find(parent, i);
        if (root_part[r] < 0) root_part[r] = nparts++;
        count[root_part[r]]++;
    }
    for (int q = 0; q < nparts; q++) cstart[q + 1] = cstart[q] + count[q];
    memset(count, 0, sizeof(int) * (nf + 1));
    for (int i = 0; i < nf; i++) {
        int q = root_part[find(parent, i)];
        order[cstart[q] + count[q]++] = i;
    }
    uint8_t *cached = NEW0(uint8_t, nparts + 1);
    if (!cached) goto done;
    for (int q = 0; q < nparts; q++) {
        const int *idx = order + cstart[q];
        int n = cstart[q + 1] - cstart[q];
        Part *old = p->part_of[frontier[idx[0]]];
        int same = old != NULL && old->ncells == n;
        for (int t = 0; t < n && same; t++) same = p->part_of[frontier[idx[t]]] == old;
        for (int t = 0; t < n && same; t++) {
            /* nothing around it opened or flagged since the last stall */
            const int32_t *nb = NBR(p, frontier[idx[t]]);
            for (int k = 1; k <= nb[0] && same; k++) same = p->changed[nb[k]] != before;
        }
        if (same) {
            /* charged as if enumerated again, so that a play gives up exactly where a
             * play without the kept components would */
            parts[q] = *old;
            cached[q] = 1;
            p->budget -= old->nodes;
            if (p->budget < 0) goto done;
        } else if (enumerate(p, &parts[q], idx, n, frontier, nclue, ckeys, clue_id) < 0) {
            goto done;
        }
    }
    for (int q = 0; q < nparts; q++)
        for (int t = 0; t < parts[q].ncells; t++) p->part_of[parts[q].cells[t]] = &parts[q];
    /* decide each group: the counts of its component that the rest can complete */
    int tbits = remaining + 1, tw = (tbits + 63) / 64;
    word *prefix = NULL, *suffix = NULL, *tmp = NULL;
    int lo = remaining - interior < 0 ? 0 : remaining - interior, hi = remaining;
    if (use_total) {
        if (remaining < 0) goto done;
        prefix = NEW0(word, (size_t)(nparts + 1) * tw);
        suffix = NEW0(word, (size_t)(nparts + 1) * tw);
        tmp = NEW0(word, tw);
        /* each component's support, cut or widened to the width of the totals */
        word *wide = NEW0(word, (size_t)nparts * tw + 1);
        if (!prefix || !suffix || !tmp || !wide) goto done;
        for (int q = 0; q < nparts; q++)
            for (int k = 0; k <= parts[q].ncells && k < tbits; k++)
                if (bit_get(parts[q].support, k)) bit_set(wide + (size_t)q * tw, k);
        bit_set(prefix, 0);
        for (int q = 0; q < nparts; q++)
            sum_set(prefix + (size_t)(q + 1) * tw, prefix + (size_t)q * tw, wide + (size_t)q * tw, tbits);
        bit_set(suffix + (size_t)nparts * tw, 0);
        for (int q = nparts - 1; q >= 0; q--)
            sum_set(suffix + (size_t)q * tw, suffix + (size_t)(q + 1) * tw, wide + (size_t)q * tw, tbits);
        if (!any_in(prefix + (size_t)nparts * tw, lo, hi)) goto done;
    }
    int nsafe = 0, nmines = 0;
    for (int q = 0; q < nparts; q++) {
        Part *pt = &parts[q];
        if (cached[q] && !use_total) continue; /* it proved nothing at the last stall */
        word *feasible = NEW0(word, pt->nwords);
        if (!feasible) goto done;
        if (use_total) sum_set(tmp, prefix + (size_t)q * tw, suffix + (size_t)(q + 1) * tw, tbits);
        for (int k = 0; k <= pt->ncells; k++) {
            if (!bit_get(pt->support, k)) continue;
            if (!use_total || (k <= hi && any_in(tmp, lo - k, hi - k))) bit_set(feasible, k);
        }
        for (int g = 0; g < pt->ngroups; g++) {
            const word *cm = pt->can_mine + (size_t)g * pt->nwords;
            const word *cs = pt->can_safe + (size_t)g * pt->nwords;
            int mine_ok = 0, safe_ok = 0;
            for (int w = 0; w < pt->nwords; w++) {
                mine_ok |= (cm[w] & feasible[w]) != 0;
                safe_ok |= (cs[w] & feasible[w]) != 0;
            }
            if (mine_ok && safe_ok) continue;
            for (int t = pt->gstart[g]; t < pt->gstart[g + 1]; t++) {
                if (!mine_ok) safe[nsafe++] = pt->cells[t];
                else mines[nmines++] = pt->cells[t];
            }
        }
    }
    if (use_total && interior) {
        /* the cells no clue touches share whatever the frontier leaves */
        int all_none = 1, all_full = 1;
        const word *totals = prefix + (size_t)nparts * tw;
        for (int j = lo; j <= hi; j++) {
            if (!bit_get(totals, j)) continue;
            if (j != remaining) all_none = 0;
            if (remaining - j != interior) all_full = 0;
        }
        for (Py_ssize_t c = 0; c < area && (all_none || all_full); c++) {
            if (!p->mask[c] || (p->st[c] & (OPEN | FLAG)) || p->fidx[c] >= 0) continue;
            if (all_none) safe[nsafe++] = (int)c;
            else mines[nmines++] = (int)c;
        }
    }
    for (int i = 0; i < nf; i++) p->fidx[frontier[i]] = -1;
    nf = 0;
    /* mines first, then the safe cells (as the reference does) */
    for (int t = 0; t < nmines; t++) solver_flag(p, mines[t]);
    for (int t = 0; t < nsafe && !p->lost; t++) game_open(p, safe[t]);
    rc = (nmines + nsafe) > 0;
done:
    for (int i = 0; i < nf; i++) p->fidx[frontier[i]] = -1; /* -1 everywhere between stalls */
    return rc;
}

/* the bytes of per-cell memory a play needs (play_begin's block) */
static size_t play_block_size(Py_ssize_t area) {
    return (size_t)area * (sizeof(Part *) + sizeof(int) * 7 + 4);
}

/* Set p up for a play of the layout mine, in block (play_block_size bytes, any
 * contents); p's scratch arenas, from an earlier play, are kept for reuse. */
static void play_begin(Play *p, char *block, const int32_t *adj, const uint8_t *mask, const uint8_t *mine,
                       Py_ssize_t area, int32_t *record, int32_t clock0) {
    Block *blocks = p->blocks, *kept = p->kept;
    memset(p, 0, sizeof *p);
    p->blocks = blocks;
    p->kept = kept;
    arena_rewind(&p->kept);
    p->area = area;
    p->adj = adj;
    p->mask = mask;
    p->mine = mine;
    p->record = record;
    p->clock = clock0;
    /* the block: pointers, then ints, then bytes (the zeroed ones first; rem, unk, the
     * stacks and the output need no zeroing) */
    p->part_of = (Part **)block;
    p->changed = (int *)(p->part_of + area);
    uint8_t *bytes = (uint8_t *)(p->changed + area);
    p->st = bytes;
    p->number = (int8_t *)(bytes + area);
    memset(block, 0, (size_t)area * (sizeof(Part *) + sizeof(int) + 2));
    p->fidx = (int *)(bytes + 2 * area);
    p->stack = p->fidx + area;
    p->rem = p->stack + area;
    p->unk = p->rem + area;
    p->work = p->unk + area;
    p->clues = p->work + area;
    memset(p->fidx, 0xff, sizeof(int) * area); /* -1: not on the frontier */
    for (Py_ssize_t c = 0; c < area; c++) {
        if (!p->mask[c]) continue;
        p->size++;
        if (!p->mine[c]) {
            p->safe_left++;
            p->safe_total++;
            continue;
        }
        p->total++;
        const int32_t *nb = NBR(p, c);
        for (int k = 1; k <= nb[0]; k++) p->number[nb[k]]++;
    }
}

/* Rounds: the click is round 0; then single-point passes take the odd rounds and the
 * stalls' complete steps the even ones, so a round that proved something is one step. */

/* The play itself (no Python calls): its code, and the steps in *steps. */
static int play_loop(Play *p, Py_ssize_t click, int complete, int use_total, long node_limit, const uint8_t *open_in,
                     const uint8_t *flag_in, int first_round, int *steps, int progressed) {
    Py_ssize_t area = p->area;
    int32_t *record = p->record;
    int code;
    if (open_in) {
        /* a game in progress: its flags first, then its open cells shown to the solver
         * one by one, as the game would have shown them */
        p->record = NULL; /* the given cells keep the rounds the caller recorded */
        for (Py_ssize_t c = 0; c < area; c++)
            if (p->mask[c] && flag_in[c]) {
                p->st[c] = FLAG;
                p->flags++;
            }
        for (Py_ssize_t c = 0; c < area; c++) {
            if (!p->mask[c] || !open_in[c]) continue;
            if (p->mine[c]) p->lost = 1;
            p->st[c] = OPEN;
            p->safe_left--;
            seen_open(p, (int)c);
        }
        p->record = record;
    }
    p->round = 0;
    if (click >= 0) game_open(p, (int)click);
    if (p->lost) {
        code = LOST;
    } else {
        code = STUCK;
        p->round = first_round;
        for (;;) {
            *steps += single_point(p) | progressed;
            progressed = 0;
            if (p->safe_left == 0) {
                code = WON;
                break;
            }
            if (!complete) break;
            if (p->pairs && pair_step(p)) continue;
            p->round++;
            p->budget = node_limit;
            int r = complete_step(p, use_total);
            if (r < 0) {
                code = GAVE_UP;
                break;
            }
            if (r == 0) break;
            (*steps)++;
            if (p->safe_left == 0) {
                code = WON;
                break;
            }
            p->round++;
        }
    }
    if (p->lost && code != LOST) code = GAVE_UP; /* unreachable for a sound solver */
    return code;
}

/* Play from the click (or, with click -1, from the open cells and flags given, which
 * the caller's own play made); the result tuple (code, opened, steps, open, flags[,
 * record]), or NULL with an exception set. With a record (2 x area int32, filled by the
 * caller: -1 or the round and the place in order of the given cells), each cell opened
 * or flagged gets its round and the next place from clock0; a resumed play starts with
 * the single-point pass of round first_round, its step count at steps0, that pass
 * counted as a step when progressed says the given cells include some of its work. */
static PyObject *run_play(const int32_t *adj, const uint8_t *mask, const uint8_t *mine, Py_ssize_t area,
                          Py_ssize_t click, int complete, int use_total, long node_limit, const uint8_t *open_in,
                          const uint8_t *flag_in, int32_t *record, int first_round, int steps0, int32_t clock0,
                          int progressed) {
    Play p;
    memset(&p, 0, sizeof p);
    char *block = malloc(play_block_size(area));
    if (!block) return PyErr_NoMemory();
    play_begin(&p, block, adj, mask, mine, area, record, clock0);
    uint8_t *out_open = (uint8_t *)(p.clues + area), *out_flag = out_open + area;
    int code, steps = steps0;
    Py_BEGIN_ALLOW_THREADS
    code = play_loop(&p, click, complete, use_total, node_limit, open_in, flag_in, first_round, &steps, progressed);
    Py_END_ALLOW_THREADS
    int opened = p.safe_total - p.safe_left;
    /* eight cells a word: OPEN is bit 0 of a state, FLAG bit 1 */
    Py_ssize_t c = 0;
    for (; c + 8 <= area; c += 8) {
        uint64_t v, o, f;
        memcpy(&v, p.st + c, 8);
        o = v & 0x0101010101010101ULL;
        f = (v >> 1) & 0x0101010101010101ULL;
        memcpy(out_open + c, &o, 8);
        memcpy(out_flag + c, &f, 8);
    }
    for (; c < area; c++) {
        out_open[c] = p.st[c] & OPEN;
        out_flag[c] = (p.st[c] & FLAG) >> 1;
    }
    PyObject *result;
    if (record)
        result = Py_BuildValue("iiiy#y#y#", code, opened, steps, (const char *)out_open, area, (const char *)out_flag,
                               area, (const char *)record, 2 * area * (Py_ssize_t)sizeof(int32_t));
    else
        result = Py_BuildValue("iiiy#y#", code, opened, steps, (const char *)out_open, area, (const char *)out_flag,
                               area);
    free(block);
    scratch_free(&p.blocks);
    scratch_free(&p.kept);
    return result;
}

/* the compact neighbour table the loops read, from a padded one (area x 8 int64, the
 * value area for none): per cell its number of neighbours, then them, in order */
static PyObject *fast_adjacency(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer table;
    Py_ssize_t area;
    if (!PyArg_ParseTuple(args, "y*n", &table, &area)) return NULL;
    PyObject *out = NULL;
    if (area < 0 || table.len != area * 8 * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "the table must hold 8 int64 neighbours per position");
    } else if ((out = PyBytes_FromStringAndSize(NULL, area * 9 * (Py_ssize_t)sizeof(int32_t)))) {
        const int64_t *t = table.buf;
        int32_t *adj = (int32_t *)PyBytes_AS_STRING(out);
        for (Py_ssize_t c = 0; c < area; c++) {
            int d = 0;
            for (int k = 0; k < 8; k++)
                if (t[c * 8 + k] >= 0 && t[c * 8 + k] < area) adj[c * 9 + 1 + d++] = (int32_t)t[c * 8 + k];
            for (int k = d; k < 8; k++) adj[c * 9 + 1 + k] = 0;
            adj[c * 9] = d;
        }
    }
    PyBuffer_Release(&table);
    return out;
}

/* -- the module functions ------------------------------------------------------------ */
static int board_agrees(const Py_buffer *table, const Py_buffer *mask, const Py_buffer *mine, int width) {
    Py_ssize_t area = mask->len;
    if (!(width > 0 && area % width == 0 && table->len == area * 9 * (Py_ssize_t)sizeof(int32_t) &&
          mine->len == area))
        return 0;
    /* every neighbour on the board: the loop trusts them. A table is checked once; the
     * last one checked is held (bytes do not change), and callers pass the same one */
    static PyObject *checked = NULL;
    if (table->obj == checked && checked != NULL && PyBytes_Check(checked)) return 1;
    const int32_t *adj = table->buf;
    for (Py_ssize_t c = 0; c < area; c++) {
        if (adj[c * 9] < 0 || adj[c * 9] > 8) return 0;
        for (int k = 1; k <= adj[c * 9]; k++)
            if (adj[c * 9 + k] < 0 || adj[c * 9 + k] >= area) return 0;
    }
    if (table->obj && PyBytes_Check(table->obj)) {
        Py_XDECREF(checked);
        Py_INCREF(table->obj);
        checked = table->obj;
    }
    return 1;
}

static int find_structure(const uint8_t *mask, const uint8_t *mine, int w, int h, int click, int use_total,
                          int *out, uint64_t *rows);
static PyObject *structure_value(int kind, const int *out, int sign);

/* the code of play's answer when it was asked to look for a dead structure first and
 * could not (rows too wide): the caller looks itself */
enum { NOT_LOOKED = -9 };

static PyObject *fast_play(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer table, mask, mine, open = {0}, flags = {0};
    int width, click, complete, use_total, keep = 0, quick = 0;
    long node_limit;
    if (!PyArg_ParseTuple(args, "y*y*y*iippl|y*y*pp", &table, &mask, &mine, &width, &click, &complete, &use_total,
                          &node_limit, &open, &flags, &keep, &quick))
        return NULL;
    Py_ssize_t area = mask.len;
    int resumed = open.obj != NULL && open.len > 0;
    PyObject *result = NULL;
    int32_t *record = NULL;
    if (!board_agrees(&table, &mask, &mine, width) ||
        (resumed ? open.len != area || flags.obj == NULL || flags.len != area || click != -1
                 : click < 0 || click >= area))
        PyErr_SetString(PyExc_ValueError, "table, mask, mines, click, open cells and flags disagree on the board");
    else if (keep && resumed)
        PyErr_SetString(PyExc_ValueError, "the rounds are recorded from a click only");
    else if (keep && !(record = malloc(2 * sizeof(int32_t) * (size_t)area)))
        PyErr_NoMemory();
    else if (quick && !resumed) {
        /* mscsp.play.dead's structures first (as verify(quick=True) asks): one found is
         * the answer, (-kind, cells); else the play */
        int height = (int)(area / width), out[4], kind = 0;
        uint64_t *rows = malloc(sizeof(uint64_t) * STRUCTURE_ROWS(height));
        if (!rows) PyErr_NoMemory();
        else kind = find_structure(mask.buf, mine.buf, width, height, click, use_total, out, rows);
        free(rows);
        if (PyErr_Occurred()) result = NULL;
        else if (kind > 0) result = structure_value(kind, out, -1);
        else if (kind < 0) result = Py_BuildValue("(i)", NOT_LOOKED);
        else
            result = run_play(table.buf, mask.buf, mine.buf, area, click, complete, use_total, node_limit, NULL, NULL,
                              NULL, 1, 0, 0, 0);
    } else {
        if (record) memset(record, 0xff, 2 * sizeof(int32_t) * (size_t)area); /* -1: never */
        result = run_play(table.buf, mask.buf, mine.buf, area, click, complete, use_total, node_limit,
                          resumed ? open.buf : NULL, resumed ? flags.buf : NULL, record, 1, 0, 0, 0);
    }
    free(record);
    PyBuffer_Release(&table);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&mine);
    PyBuffer_Release(&open);
    PyBuffer_Release(&flags);
    return result;
}

/* -- the no-guess chain's steps ------------------------------------------------------- */
/* A uniform integer in [0, bound) from the 64-bit words (Lemire's method, as
 * mscsp.sampling.bounded draws it, word for word); 0 when the words ran out. */
static int draw_below(const uint64_t *words, Py_ssize_t nwords, Py_ssize_t *pos, uint64_t bound, uint64_t *out) {
    if (*pos >= nwords) return 0;
    unsigned __int128 product = (unsigned __int128)words[(*pos)++] * bound;
    uint64_t low = (uint64_t)product;
    if (low < bound) {
        uint64_t threshold = (0 - bound) % bound; /* 2**64 mod bound */
        while (low < threshold) {
            if (*pos >= nwords) return 0;
            product = (unsigned __int128)words[(*pos)++] * bound;
            low = (uint64_t)product;
        }
    }
    *out = (uint64_t)(product >> 64);
    return 1;
}

/* The chain's no-guess check: mscsp.play.dead's structures, then the play (as
 * play(..., quick=True), with pair_step before each complete step: the same closure,
 * so the same answer): WON, STUCK, or GAVE_UP when the caller must decide (the search
 * passed its budget, the click is a mine, or the rows are too wide to look). xs holds
 * each cell's column then row, wbit each neighbour's bit (see Play). */
static int chain_check(Play *p, char *block, word *rows, const int *xs, const uint8_t *wbit, const int32_t *adj,
                       const uint8_t *mask, const uint8_t *mine, Py_ssize_t area, int width, int click, int complete,
                       int use_total, long node_limit) {
    int out[4];
    int kind = find_structure(mask, mine, width, (int)(area / width), click, use_total, out, rows);
    if (kind > 0) return STUCK;
    if (kind < 0) return GAVE_UP;
    play_begin(p, block, adj, mask, mine, area, NULL, 0);
    p->pairs = complete;
    p->width = width;
    p->height = (int)(area / width);
    p->xs = xs;
    p->ys = xs + area;
    p->wbit = wbit;
    int steps = 0;
    int code = play_loop(p, click, complete, use_total, node_limit, NULL, NULL, 1, &steps, 0);
    return code == LOST ? GAVE_UP : code;
}

/* Steps of mscsp.play.chain.NoGuessChain, made as its Python methods make them from
 * the same 64-bit words: the chain's state (mines, its mine cells and free cells in
 * their order) is updated in place, the edge count after each step written out. It
 * stops before a step that needs more words than given, or whose check the compiled
 * play cannot answer (the caller makes that step itself). */
static PyObject *fast_chain(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer table, mask, edge, allowed, words, mines, mine_cells, free_cells, edges;
    int width, click, complete, use_total, edge_count;
    long node_limit;
    unsigned long long jump_below;
    Py_ssize_t steps;
    if (!PyArg_ParseTuple(args, "y*y*iipply*y*y*Knw*w*w*w*i", &table, &mask, &width, &click, &complete,
                          &use_total, &node_limit, &edge, &allowed, &words, &jump_below, &steps, &mines, &mine_cells,
                          &free_cells, &edges, &edge_count))
        return NULL;
    Py_ssize_t area = mask.len, nallowed = allowed.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t nwords = words.len / (Py_ssize_t)sizeof(uint64_t);
    Py_ssize_t nmines = mine_cells.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t nfree = free_cells.len / (Py_ssize_t)sizeof(int32_t);
    uint8_t *mine = mines.buf, *edge_of = edge.buf, *fresh = NULL;
    int32_t *mcells = mine_cells.buf, *fcells = free_cells.buf, *edge_out = edges.buf;
    const int32_t *allow = allowed.buf;
    PyObject *result = NULL;
    char *block = NULL;
    int32_t *perm = NULL;
    word *rows = NULL;
    int *xs = NULL; /* each cell's column, then each cell's row */
    uint8_t *wbit = NULL;
    Play p;
    memset(&p, 0, sizeof p);
    if (!board_agrees(&table, &mask, &mines, width) || click < 0 || click >= area || edge.len != area ||
        nmines + nfree != nallowed || nmines < 1 || nfree < 1 || steps < 0 ||
        edges.len < steps * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "table, mask, mines, click, cells and edge counts disagree");
        goto out;
    }
    for (Py_ssize_t t = 0; t < nallowed; t++)
        if (allow[t] < 0 || allow[t] >= area) {
            PyErr_SetString(PyExc_ValueError, "an allowed cell is off the board");
            goto out;
        }
    window_tables();
    block = malloc(play_block_size(area));
    fresh = malloc((size_t)area);
    xs = malloc(2 * sizeof(int) * (size_t)area);
    wbit = calloc((size_t)area, 9);
    perm = malloc(sizeof(int32_t) * (size_t)nallowed);
    rows = malloc(sizeof(word) * STRUCTURE_ROWS(area / width));
    if (!block || !fresh || !perm || !rows || !xs || !wbit) {
        PyErr_NoMemory();
        goto out;
    }
    const int32_t *adj = table.buf;
    for (Py_ssize_t c = 0; c < area; c++) {
        xs[c] = (int)(c % width);
        xs[area + c] = (int)(c / width);
    }
    for (Py_ssize_t c = 0; c < area; c++)
        for (int k = 1; k <= adj[c * 9]; k++) {
            int n = adj[c * 9 + k], dx = xs[n] - xs[c], dy = xs[area + n] - xs[area + c];
            if (abs(dx) > 1 || abs(dy) > 1) {
                PyErr_SetString(PyExc_ValueError, "the chain's boards are grids whose neighbours touch");
                goto out;
            }
            wbit[c * 9 + k] = (uint8_t)((dy + 1) * 3 + dx + 1 - (dy > 0 || (dy == 0 && dx > 0)));
        }
    const uint64_t *w = words.buf;
    Py_ssize_t pos = 0, done = 0;
    long swaps = 0, swaps_ok = 0, draws = 0, draws_ok = 0;
    Py_ssize_t begun_last = 0; /* the words used before the step under way */
    int stop = 0;
    Py_BEGIN_ALLOW_THREADS
    for (; done < steps; done++) {
        begun_last = pos;
        int draw = 0;
        if (jump_below) {
            if (pos >= nwords) {
                stop = 1;
                break;
            }
            draw = (w[pos++] & 0xFFFFFFFFu) < jump_below;
        }
        if (!draw) {
            uint64_t i, j;
            if (!draw_below(w, nwords, &pos, (uint64_t)nmines, &i) ||
                !draw_below(w, nwords, &pos, (uint64_t)nfree, &j)) {
                stop = 1;
                break;
            }
            int out_cell = mcells[i], into = fcells[j];
            mine[out_cell] = 0;
            mine[into] = 1;
            int code = chain_check(&p, block, rows, xs, wbit, table.buf, mask.buf, mine, area, width, click, complete,
                                   use_total, node_limit);
            if (code != WON) {
                mine[out_cell] = 1;
                mine[into] = 0;
            }
            if (code == GAVE_UP) {
                stop = 2;
                break;
            }
            swaps++;
            if (code == WON) {
                mcells[i] = into;
                fcells[j] = out_cell;
                edge_count += (int)edge_of[into] - (int)edge_of[out_cell];
                swaps_ok++;
            }
        } else {
            /* a fresh draw: a partial Fisher-Yates shuffle of the allowed cells, as
             * mscsp.sampling.sample_without_replacement draws it */
            int short_of_words = 0;
            for (Py_ssize_t t = 0; t < nallowed; t++) perm[t] = (int32_t)t;
            memset(fresh, 0, (size_t)area);
            for (Py_ssize_t t = 0; t < nmines; t++) {
                uint64_t k;
                if (!draw_below(w, nwords, &pos, (uint64_t)(nallowed - t), &k)) {
                    short_of_words = 1;
                    break;
                }
                Py_ssize_t j = t + (Py_ssize_t)k;
                int32_t value = perm[j];
                perm[j] = perm[t];
                perm[t] = value;
                fresh[allow[value]] = 1;
            }
            if (short_of_words) {
                stop = 1;
                break;
            }
            int code = chain_check(&p, block, rows, xs, wbit, table.buf, mask.buf, fresh, area, width, click, complete,
                                   use_total, node_limit);
            if (code == GAVE_UP) {
                stop = 2;
                break;
            }
            draws++;
            if (code == WON) {
                /* the new board's mine cells in flat order, its free cells in the order
                 * of the allowed cells (as the Python chain lists them) */
                memcpy(mine, fresh, (size_t)area);
                Py_ssize_t m = 0, f = 0;
                edge_count = 0;
                for (Py_ssize_t c = 0; c < area; c++)
                    if (mine[c]) {
                        mcells[m++] = (int32_t)c;
                        edge_count += edge_of[c];
                    }
                for (Py_ssize_t t = 0; t < nallowed; t++)
                    if (!mine[allow[t]]) fcells[f++] = allow[t];
                draws_ok++;
            }
        }
        edge_out[done] = edge_count;
    }
    if (stop) pos = begun_last;
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("nnllllii", done, pos, swaps, swaps_ok, draws, draws_ok, edge_count, stop);
out:
    free(block);
    free(fresh);
    free(perm);
    free(rows);
    free(xs);
    free(wbit);
    scratch_free(&p.blocks);
    scratch_free(&p.kept);
    PyBuffer_Release(&table);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&edge);
    PyBuffer_Release(&allowed);
    PyBuffer_Release(&words);
    PyBuffer_Release(&mines);
    PyBuffer_Release(&mine_cells);
    PyBuffer_Release(&free_cells);
    PyBuffer_Release(&edges);
    return result;
}

/* Play a layout that differs from a recorded one in a few cells (their contents
 * swapped, the mine total kept), resuming from what the recorded play knew before any
 * changed number or content could matter.
 *
 * Every opening or flag of the recorded play rests on what was seen before it: the
 * numbers of cells opened earlier in its order, and the mine total. Up to the first
 * opening of a changed cell (a cell whose content changed, or a neighbour of one:
 * its number may differ) the new layout agrees with all of that, so each of those
 * openings and flags is sound for the new layout too, and the closure of sound
 * deduction resumed from there is the one a play from the click reaches. To keep the
 * rounds (and the step count) of a play from the click, the play resumes inside a
 * single-point pass, which ends at the same closure whatever it starts from, but at
 * the start of a stall's round, whose complete step proves cells in one go. */
static PyObject *fast_replay(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer table, mask, mine, open, flags, rounds;
    int width, click, complete, use_total;
    long node_limit;
    PyObject *changed;
    if (!PyArg_ParseTuple(args, "y*y*y*iipply*y*y*O", &table, &mask, &mine, &width, &click, &complete, &use_total,
                          &node_limit, &open, &flags, &rounds, &changed))
        return NULL;
    Py_ssize_t area = mask.len;
    PyObject *result = NULL, *seq = NULL;
    int32_t *record = NULL;
    uint8_t *prefix = NULL;
    const int32_t *tab = table.buf;
    const uint8_t *old_open = open.buf, *old_flag = flags.buf, *mines = mine.buf;
    const int32_t *old = rounds.buf, *old_order = (const int32_t *)rounds.buf + area;
    if (!board_agrees(&table, &mask, &mine, width) || click < 0 || click >= area || open.len != area ||
        flags.len != area || rounds.len != 2 * area * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "table, mask, mines, click, open cells, flags and rounds disagree");
        goto out;
    }
    if (!(seq = PySequence_Fast(changed, "the changed cells must be a sequence of flat indices"))) goto out;
    record = malloc(2 * sizeof(int32_t) * (size_t)area);
    prefix = calloc((size_t)area, 2);
    if (!record || !prefix) {
        PyErr_NoMemory();
        goto out;
    }
    /* the first opening of a changed cell (a cell that flipped counts when flagged too) */
    Py_ssize_t nchanged = PySequence_Fast_GET_SIZE(seq);
    int32_t first = INT32_MAX, round = -1;
    int new_mines = 0;
    for (Py_ssize_t t = 0; t < nchanged; t++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, t));
        if (c == -1 && PyErr_Occurred()) goto out;
        if (c < 0 || c >= area) {
            PyErr_SetString(PyExc_ValueError, "a changed cell is off the board");
            goto out;
        }
        new_mines += mines[c] != 0;
        if ((old_open[c] || old_flag[c]) && old[c] >= 0 && old_order[c] < first) {
            first = old_order[c];
            round = old[c];
        }
        for (int k = 1; k <= tab[c * 9]; k++) {
            int n = tab[c * 9 + k];
            if (old_open[n] && old[n] >= 0 && old_order[n] < first) {
                first = old_order[n];
                round = old[n];
            }
        }
    }
    if (2 * new_mines != nchanged) {
        /* every changed cell flipped, so the total is kept only when half are mines now */
        PyErr_SetString(PyExc_ValueError, "the changed cells must keep the mine total (mines swapped with safe cells)");
        goto out;
    }
    memset(record, 0xff, 2 * sizeof(int32_t) * (size_t)area);
    if (round == 0) {
        /* the click's opening showed a changed number: play from the click */
        result = run_play(tab, mask.buf, mines, area, click, complete, use_total, node_limit, NULL, NULL, record, 1, 0,
                          0, 0);
        goto out;
    }
    int32_t last = 0;
    for (Py_ssize_t c = 0; c < area; c++)
        if ((old_open[c] || old_flag[c]) && old[c] > last) last = old[c];
    if (round < 0) round = last + 1; /* no changed cell was ever opened: resume at the end */
    /* inside a single-point pass, everything before the first opening of a changed cell;
     * at a stall, everything before its round */
    int inside = round & 1;
    int progressed = 0;
    for (Py_ssize_t c = 0; c < area; c++) {
        if (!(old_open[c] || old_flag[c]) || old[c] < 0) continue;
        if (inside ? old_order[c] >= first : old[c] >= round) continue;
        record[c] = old[c];
        record[area + c] = old_order[c];
        prefix[c] = old_open[c] != 0;
        prefix[area + c] = old_flag[c] != 0;
        progressed |= old[c] == round;
    }
    /* the steps made before that round: the rounds that opened or flagged something */
    uint8_t *seen = calloc((size_t)round + 1, 1);
    if (!seen) {
        PyErr_NoMemory();
        goto out;
    }
    int steps0 = 0;
    for (Py_ssize_t c = 0; c < area; c++)
        if (record[c] > 0 && record[c] < round && !seen[record[c]]) {
            seen[record[c]] = 1;
            steps0++;
        }
    free(seen);
    /* a stall's round starts with a single-point pass that finds nothing: the state is
     * its fixed point */
    int first_round = inside ? round : round - 1;
    int32_t clock = first == INT32_MAX ? 0 : first;
    if (clock == 0)
        for (Py_ssize_t c = 0; c < area; c++)
            if (record[area + c] >= clock) clock = record[area + c] + 1;
    result = run_play(tab, mask.buf, mines, area, -1, complete, use_total, node_limit, prefix, prefix + area, record,
                      first_round, steps0, clock, progressed);
out:
    Py_XDECREF(seq);
    free(record);
    free(prefix);
    PyBuffer_Release(&table);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&mine);
    PyBuffer_Release(&open);
    PyBuffer_Release(&flags);
    PyBuffer_Release(&rounds);
    return result;
}

/* -- dead structures ------------------------------------------------------------------ */
/* mscsp.play.dead's quick look at the layout (a 2x2 block whose mines could trade places
 * with its safe cells, a mine and a safe cell no number tells apart, and without the
 * mine total a safe cell walled off from the click), on one 64-bit word per row padded
 * by three cells each side, as the Python version pads its whole-board bit sets: it
 * names the same structure, and is tested against it. Rows wider than 58 cells are
 * left to Python. */

/* row y (padded) of the set whose bit at a position is the bit of a at (dx, dy) from it */
static inline word at_row(const word *a, int y, int dx, int dy) {
    word v = a[y + dy];
    return dx >= 0 ? v >> dx : v << -dx;
}

/* for each offset of a second cell within distance two (rows, then columns, from
 * (-2, -2)), the offsets of the cells next to exactly one of the two */
static int telling_n[24], telling_dx[24], telling_dy[24], telling_x[24][16], telling_y[24][16];

static void telling_offsets(void) {
    if (telling_n[0]) return;
    int t = 0;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            if (!dx && !dy) continue;
            int n = 0;
            for (int y = -3; y <= 3; y++)
                for (int x = -3; x <= 3; x++) {
                    if ((!x && !y) || (x == dx && y == dy)) continue;
                    int near_a = x >= -1 && x <= 1 && y >= -1 && y <= 1;
                    int near_b = x - dx >= -1 && x - dx <= 1 && y - dy >= -1 && y - dy <= 1;
                    if (near_a != near_b) {
                        telling_x[t][n] = x;
                        telling_y[t][n] = y;
                        n++;
                    }
                }
            telling_dx[t] = dx;
            telling_dy[t] = dy;
            telling_n[t++] = n;
        }
}

/* the first position (row-major) of a set given by rows, as a flat cell; -1 if empty */
static int first_cell(const word *rows, int h, int w) {
    for (int y = 0; y < h; y++)
        if (rows[y + PAD]) return y * w + __builtin_ctzll(rows[y + PAD]) - PAD;
    return -1;
}

/* eight bytes of 0 and 1 as eight bits (byte i to bit i) */
static inline word pack8(const uint8_t *bytes, int n) {
    word v = 0;
    memcpy(&v, bytes, (size_t)n);
    return ((v & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

/* kind (0: none, 1: square, 2: pair, 3: walled, -1: too wide) and its cells in out;
 * rows: STRUCTURE_ROWS(h) words of scratch */
static int find_structure(const uint8_t *mask, const uint8_t *mine, int w, int h, int click, int use_total,
                          int *out, word *rows) {
    if (w > MAX_ROW) return -1;
    int nrows = h + 2 * PAD;
    word *M = rows, *S = rows + nrows, *C = rows + 2 * nrows, *O = rows + 3 * nrows, *near = rows + 4 * nrows,
         *R = rows + 5 * nrows, *shifted = rows + 6 * nrows; /* S moved by -3 .. 3 columns */
    memset(rows, 0, sizeof(word) * 6 * (size_t)nrows);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x += 8) {
            int n = w - x < 8 ? w - x : 8;
            word cells = pack8(mask + y * w + x, n), mines = pack8(mine + y * w + x, n) & cells;
            C[y + PAD] |= cells << (x + PAD);
            M[y + PAD] |= mines << (x + PAD);
            S[y + PAD] |= (cells & ~mines) << (x + PAD);
        }
    for (int dx = -PAD; dx <= PAD; dx++)
        for (int y = 0; y < nrows; y++) shifted[(dx + PAD) * nrows + y] = dx >= 0 ? S[y] >> dx : S[y] << -dx;
    int cx = click % w, cy = click / w;
    word cbit = (word)1 << (cx + PAD);
    /* a 2x2 block (positions are top-left corners) */
    for (int y = PAD; y < PAD + h; y++) {
        word whole = C[y] & at_row(C, y, 1, 0) & at_row(C, y, 0, 1) & at_row(C, y, 1, 1);
        if (!whole) continue;
        word m00 = M[y], m01 = at_row(M, y, 1, 0), m10 = at_row(M, y, 0, 1), m11 = at_row(M, y, 1, 1);
#define WALLED2(ax, ay, bx, by) (~(at_row(S, y, ax, ay) | at_row(S, y, bx, by)))
        word sides = ((m00 ^ m01) | WALLED2(0, -1, 1, -1)) & ((m10 ^ m11) | WALLED2(0, 2, 1, 2)) &
                     ((m00 ^ m10) | WALLED2(-1, 0, -1, 1)) & ((m01 ^ m11) | WALLED2(2, 0, 2, 1));
        word hit = whole & WALLED2(-1, -1, 2, -1) & WALLED2(-1, 2, 2, 2) & sides;
#undef WALLED2
        if (use_total)
            hit &= (m00 & m11 & ~m01 & ~m10) | (m01 & m10 & ~m00 & ~m11) | (m00 & m01 & ~m10 & ~m11) |
                   (m10 & m11 & ~m00 & ~m01) | (m00 & m10 & ~m01 & ~m11) | (m01 & m11 & ~m00 & ~m10);
        else
            hit &= ~(m00 & m01 & m10 & m11);
        /* the click is opened without proof: no block holding it */
        if (y - PAD == cy) hit &= ~(cbit | cbit >> 1);
        if (y - PAD == cy - 1) hit &= ~(cbit | cbit >> 1);
        if (hit) {
            int top = (y - PAD) * w + __builtin_ctzll(hit) - PAD;
            out[0] = top;
            out[1] = top + 1;
            out[2] = top + w;
            out[3] = top + w + 1;
            return 1;
        }
    }
    /* a pair: first a sealed safe cell and a sealed mine far apart */
    memcpy(O, S, sizeof(word) * nrows);
    O[cy + PAD] &= ~cbit;
    for (int y = PAD; y < PAD + h; y++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (dx || dy) near[y] |= at_row(S, y, dx, dy);
    int any_safe = 0, any_mine = 0;
    for (int y = PAD; y < PAD + h; y++) {
        any_safe |= (O[y] & ~near[y]) != 0;
        any_mine |= (M[y] & ~near[y]) != 0;
    }
    if (any_safe && any_mine) {
        for (int by = PAD; by < PAD + h; by++)
            for (word bs = O[by] & ~near[by]; bs; bs &= bs - 1) {
                int bx = __builtin_ctzll(bs);
                for (int ay = PAD; ay < PAD + h; ay++)
                    for (word ms = M[ay] & ~near[ay]; ms; ms &= ms - 1) {
                        int ax = __builtin_ctzll(ms);
                        int ddx = abs(ax - bx), ddy = abs(ay - by);
                        if ((ddx > ddy ? ddx : ddy) > 2) {
                            out[0] = (ay - PAD) * w + ax - PAD;
                            out[1] = (by - PAD) * w + bx - PAD;
                            return 2;
                        }
                    }
            }
    }
    telling_offsets();
    for (int t = 0; t < 24; t++) {
        int dx = telling_dx[t], dy = telling_dy[t];
        for (int y = PAD; y < PAD + h; y++) {
            word hit = M[y] & at_row(O, y, dx, dy);
            for (int u = 0; u < telling_n[t] && hit; u++)
                hit &= ~shifted[(telling_x[t][u] + PAD) * nrows + y + telling_y[t][u]];
            if (hit) {
                int a = (y - PAD) * w + __builtin_ctzll(hit) - PAD;
                out[0] = a;
                out[1] = a + dy * w + dx;
                return 2;
            }
        }
    }
    if (use_total) return 0;
    /* a safe cell the click's region of safe cells does not reach */
    /* the click and the safe cells around it, then their region (a mine clicked is not
     * in it, as in the Python version's first step) */
    for (int dy = -1; dy <= 1; dy++)
        R[cy + PAD + dy] = (cbit | cbit << 1 | cbit >> 1) & S[cy + PAD + dy];
    for (int changed = 1; changed;) {
        changed = 0;
        for (int y = PAD; y < PAD + h; y++) {
            word around = 0;
            for (int dy = -1; dy <= 1; dy++) {
                word v = R[y + dy];
                around |= v | v << 1 | v >> 1;
            }
            word grown = around & S[y];
            if (grown != R[y]) {
                R[y] = grown;
                changed = 1;
            }
        }
    }
    for (int y = PAD; y < PAD + h; y++) R[y] = S[y] & ~R[y];
    int pocket = first_cell(R, h, w);
    if (pocket < 0) return 0;
    out[0] = pocket;
    return 3;
}

static PyObject *fast_structure(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer mask, mine;
    int width, click, use_total;
    if (!PyArg_ParseTuple(args, "y*y*iip", &mask, &mine, &width, &click, &use_total)) return NULL;
    Py_ssize_t area = mask.len;
    PyObject *result = NULL;
    int out[4], kind = 0;
    if (width <= 0 || area % width || mine.len != area || click < 0 || click >= area)
        PyErr_SetString(PyExc_ValueError, "mask, mines and click disagree on the board");
    else {
        int height = (int)(area / width);
        word *rows = malloc(sizeof(word) * STRUCTURE_ROWS(height));
        if (!rows) PyErr_NoMemory();
        else kind = find_structure(mask.buf, mine.buf, width, height, click, use_total, out, rows);
        free(rows);
    }
    PyBuffer_Release(&mask);
    PyBuffer_Release(&mine);
    if (PyErr_Occurred()) return NULL;
    if (kind == -1) return PyLong_FromLong(-1);
    if (kind == 0) {
        Py_INCREF(Py_None);
        return Py_None;
    }
    (void)result;
    return structure_value(kind, out, 1);
}

/* (sign * kind, cells) for a structure found */
static PyObject *structure_value(int kind, const int *out, int sign) {
    switch (kind) {
    case 1:
        return Py_BuildValue("i(iiii)", sign * kind, out[0], out[1], out[2], out[3]);
    case 2:
        return Py_BuildValue("i(ii)", sign * kind, out[0], out[1]);
    default:
        return Py_BuildValue("i(i)", sign * kind, out[0]);
    }
}

static PyMethodDef methods[] = {
    {"play", fast_play, METH_VARARGS,
     "play(adjacency, mask, mines, width, click, complete, use_total, node_limit[, open, flags[, rounds]]) -> (code, "
     "opened, steps, open, flags[, rounds]); with the open cells and flags of a game in progress, click is -1 "
     "(empty open cells: from the click); with rounds true, also the int32 round of each cell's opening or flag "
     "(-1: never); with quick true (from a click), a dead structure of mscsp.play.dead is looked for first and, "
     "if found, the answer is (-kind, cells) (-9: rows too wide to look)"},
    {"replay", fast_replay, METH_VARARGS,
     "replay(adjacency, mask, mines, width, click, complete, use_total, node_limit, open, flags, rounds, changed) -> "
     "(code, opened, steps, open, flags, rounds): play a layout whose changed cells (flat indices) swapped "
     "contents with the recorded play's layout, resuming where the record allows"},
    {"chain", fast_chain, METH_VARARGS,
     "chain(adjacency, mask, width, click, complete, use_total, node_limit, edge, allowed, words, jump_below, steps, "
     "mines, mine_cells, free_cells, edges, edge_count) -> (steps made, words used, swaps, swaps accepted, draws, "
     "draws accepted, edge count, stop): steps of mscsp.play.chain.NoGuessChain from the given 64-bit words, its "
     "state updated in place; stop 1: the words ran out, 2: the next step's check needs the Python verifier"},
    {"adjacency", fast_adjacency, METH_VARARGS,
     "adjacency(table, area) -> bytes: the compact neighbour table (per position: the count, then up to 8 "
     "neighbours, int32) that play and replay take, from the padded int64 one"},
    {"structure", fast_structure, METH_VARARGS,
     "structure(mask, mines, width, click, use_total) -> None or (kind, cells): mscsp.play.dead's first dead "
     "structure (1: a 2x2 block, 2: a mine and a safe cell, 3: a walled-off safe cell), flat cells; -1 when "
     "rows are too wide (more than 58 cells)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastplay", "The verifier's play loop in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__fastplay(void) {
    return PyModule_Create(&module);
}
