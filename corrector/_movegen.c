/* Move generation hot loop: Appel & Jacobson (1988) on a minimised DAWG.
 *
 * Why C: the arbiter needs every move of a mid-game position with two jokers in milliseconds;
 * the same algorithm in Python (corrector/movegen_py.py, the fallback) is ~100x slower.
 * Both produce the same records (see movegen.RECORD); tests check them against each other and
 * against a brute-force generator. Scoring follows RULES.md §1 (Annex 1): letter premiums before
 * word premiums, premiums only under new tiles, jokers 0, every formed word scored, bingo bonus.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 15
#define SQ (N * N)

typedef struct {
    int32_t score;
    uint8_t row, col, horizontal, length;
    uint8_t letters[N];
    uint8_t placed;
    uint16_t new_mask;   /* bit i: square i of the main word gets a new tile */
    uint16_t joker_mask; /* bit i: square i of the main word is a joker */
} Rec;

typedef struct {
    const uint32_t *start;
    const uint8_t *letter;
    const uint32_t *target;
    const uint8_t *final;
    const uint64_t *mask;
    const int32_t *values;
    const int8_t *board;
    const uint8_t *board_joker;
    const uint8_t *lmult, *wmult;
    int rack_size, bingo_bonus, tiles;
    int rack[64];
    int rack0[64];     /* the group's real tiles */
    uint64_t rackmask; /* bit L: the group still holds a real L */
    int jokers, jokers0;
    uint64_t all;
    /* current line */
    int horizontal, line, anchor;
    int8_t cell[N];
    uint8_t cell_joker[N], lm[N], wm[N], has_cross[N], is_anchor[N];
    uint64_t cross[N];
    int32_t cross_sum[N];
    /* partial word, indexed by square along the line */
    uint8_t word[N + 16], wnew[N], wforced[N]; /* word: read 16 bytes at a time */
    uint8_t pref[N], pforced[N];
    /* new tiles of the word being recorded */
    int n_new;
    uint8_t new_letter[N], new_off[N];
    int32_t delta[N];
    int real[64];
    /* output */
    Rec *out;
    size_t n, cap;
    int oom;
} Gen;

/* Portable bit count: without -mpopcnt the builtin becomes a slow library call. */
static inline uint32_t bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* Edges are sorted by letter, so an edge's index is the count of smaller letters in the mask. */
static inline uint32_t edge_of(const Gen *g, uint32_t node, int L) {
    return g->start[node] + bit_count(g->mask[node] & (((uint64_t)1 << L) - 1));
}

static inline int32_t child_of(const Gen *g, uint32_t node, int L) {
    if (!((g->mask[node] >> L) & 1u)) return -1;
    return (int32_t)g->target[edge_of(g, node, L)];
}

static inline void take(Gen *g, int L) {
    if (--g->rack[L] == 0) g->rackmask &= ~((uint64_t)1 << L);
}

static inline void give(Gen *g, int L) {
    if (g->rack[L]++ == 0) g->rackmask |= (uint64_t)1 << L;
}

/* Places letter L on a new square: a real tile when the group still holds one, else a joker.
 * Returns 1 when a joker was used. Taking real tiles first is enough to know whether a word's
 * new letters fit the group; which of them may instead be jokers is enumerated in `record`. */
static inline int place(Gen *g, int L) {
    if (g->rack[L] > 0) { take(g, L); return 0; }
    g->jokers--;
    return 1;
}

static inline void unplace(Gen *g, int L, int joker) {
    if (joker) g->jokers++;
    else give(g, L);
}

/* Room for `extra` more records. */
static int reserve(Gen *g, size_t extra) {
    if (g->n + extra <= g->cap) return 1;
    size_t cap = g->cap ? g->cap * 2 : 65536;
    while (cap < g->n + extra) cap *= 2;
    Rec *p = (Rec *)realloc(g->out, cap * sizeof(Rec));
    if (!p) { g->oom = 1; return 0; }
    g->out = p;
    g->cap = cap;
    return 1;
}

/* General case (more than two jokers): every way to play new tiles i.. as real tiles or jokers,
 * `real[L]` real L's and `jokers` jokers being left. A joker on new tile i costs delta[i]. */
static void assign(Gen *g, const Rec *base, int i, int jokers, int32_t score, uint32_t jmask) {
    if (i == g->n_new) {
        if (!reserve(g, 1)) return;
        Rec *r = &g->out[g->n++];
        *r = *base;
        r->score = score;
        r->joker_mask = (uint16_t)jmask;
        return;
    }
    int L = g->new_letter[i];
    if (g->real[L] > 0) {
        g->real[L]--;
        assign(g, base, i + 1, jokers, score, jmask);
        g->real[L]++;
    }
    if (jokers > 0) assign(g, base, i + 1, jokers - 1, score - g->delta[i], jmask | (1u << g->new_off[i]));
}

static inline void variant(Gen *g, const Rec *base, int32_t score, uint32_t jmask) {
    Rec *r = &g->out[g->n++];
    *r = *base;
    r->score = score;
    r->joker_mask = (uint16_t)jmask;
}

/* Records the word on squares s..end-1 of the line, once per way of playing its new tiles
 * with the group's jokers. main_sum and cross_total count every new tile as a real tile; a
 * joker on new tile i takes delta[i] off the score. The walk took real tiles first (wforced:
 * squares that had to be jokers, the group holding no more of that letter); a placement is
 * legal when it puts on each letter at least as many jokers as the walk had to. */
static void record(Gen *g, int s, int end, int main_sum, int wmul, int cross_total, int placed) {
    if (g->oom) return;
    int len = end - s;
    int n = 0;
    uint32_t news = 0, board_jokers = 0, forced_mask = 0;
    int forced = 0, fa = -1, fb = -1; /* letters of the (at most two) forced jokers */
    int32_t forced_delta = 0;
    for (int p = s; p < end; p++) {
        if (g->wnew[p]) {
            int L = g->word[p];
            int32_t d = g->values[L] * g->lm[p] * (wmul + (g->has_cross[p] ? g->wm[p] : 0));
            news |= 1u << (p - s);
            g->new_letter[n] = (uint8_t)L;
            g->new_off[n] = (uint8_t)(p - s);
            g->delta[n] = d;
            if (g->wforced[p]) {
                if (forced == 0) fa = L; else fb = L;
                forced++;
                forced_mask |= 1u << (p - s);
                forced_delta += d;
            }
            n++;
        } else {
            board_jokers |= (uint32_t)g->cell_joker[p] << (p - s);
        }
    }
    int32_t score = main_sum * wmul + cross_total + (placed >= g->rack_size ? g->bingo_bonus : 0);
    int J = g->jokers0;
    size_t most = J == 0 ? 1 : (size_t)(1 + n + n * (n - 1) / 2);
    if (!reserve(g, J > 2 ? 1 : most)) return;
    Rec *base = &g->out[g->n];
    base->score = score;
    base->row = (uint8_t)(g->horizontal ? g->line : s);
    base->col = (uint8_t)(g->horizontal ? s : g->line);
    base->horizontal = (uint8_t)g->horizontal;
    base->length = (uint8_t)len;
    /* letters (zero after the word) and `placed`: 16 bytes, word[] has room to read past the end */
    uint64_t lo, hi;
    memcpy(&lo, &g->word[s], 8);
    memcpy(&hi, &g->word[s + 8], 8);
    if (len < 8) { lo &= ((uint64_t)1 << (8 * len)) - 1; hi = 0; }
    else hi &= len == 8 ? 0 : (((uint64_t)1 << (8 * (len - 8))) - 1);
    hi |= (uint64_t)(uint8_t)placed << 56;
    memcpy(base->letters, &lo, 8);
    memcpy(base->letters + 8, &hi, 8);
    base->new_mask = (uint16_t)news;
    base->joker_mask = (uint16_t)board_jokers;
    if (forced == J || J == 0) {
        int only = 1; /* the forced squares are the only legal joker squares */
        if (forced > 0 && g->rack0[fa] > 0) only = 0;
        if (forced > 1 && g->rack0[fb] > 0) only = 0;
        if (only) {
            base->score = score - forced_delta;
            base->joker_mask = (uint16_t)(board_jokers | forced_mask);
            g->n++;
            return;
        }
    }
    Rec copy = *base;
    if (J > 2) {
        g->n_new = n;
        for (int i = 0; i < n; i++) g->real[g->new_letter[i]] = g->rack0[g->new_letter[i]];
        assign(g, &copy, 0, J, score, board_jokers);
        return;
    }
    if (forced == 0) {
        variant(g, &copy, score, board_jokers);
        for (int i = 0; i < n; i++) {
            uint32_t mi = board_jokers | (1u << g->new_off[i]);
            variant(g, &copy, score - g->delta[i], mi);
            if (J == 2)
                for (int k = i + 1; k < n; k++)
                    variant(g, &copy, score - g->delta[i] - g->delta[k], mi | (1u << g->new_off[k]));
        }
    } else if (forced == 1) {
        /* one joker must stand for letter fa; with two jokers the other goes anywhere */
        for (int i = 0; i < n; i++) {
            int ai = g->new_letter[i] == fa;
            uint32_t mi = board_jokers | (1u << g->new_off[i]);
            if (ai) variant(g, &copy, score - g->delta[i], mi);
            if (J == 2)
                for (int k = i + 1; k < n; k++)
                    if (ai || g->new_letter[k] == fa)
                        variant(g, &copy, score - g->delta[i] - g->delta[k], mi | (1u << g->new_off[k]));
        }
    } else {
        /* both jokers forced: one on fa and one on fb (two on fa when fa == fb) */
        for (int i = 0; i < n; i++) {
            int li = g->new_letter[i];
            if (li != fa && li != fb) continue;
            for (int k = i + 1; k < n; k++) {
                int lk = g->new_letter[k];
                if ((li == fa && lk == fb) || (li == fb && lk == fa))
                    variant(g, &copy, score - g->delta[i] - g->delta[k],
                            board_jokers | (1u << g->new_off[i]) | (1u << g->new_off[k]));
            }
        }
    }
}

/* The children of `node` whose letters are in `allowed` (a subset of the node's mask), in
 * letter order. Edges are sorted by letter: when every child is allowed the edge index just
 * advances; otherwise it is the count of the node's smaller letters. */
#define FOR_CHILDREN(g, node, allowed, L, child, body)                     \
    do {                                                                   \
        uint64_t m_ = (g)->mask[node];                                     \
        const uint32_t *t_ = (g)->target + (g)->start[node];               \
        uint64_t a_ = (allowed);                                           \
        if (a_ == m_) {                                                    \
            for (; m_; m_ &= m_ - 1, t_++) {                               \
                int L = __builtin_ctzll(m_);                               \
                uint32_t child = *t_;                                      \
                body                                                       \
            }                                                              \
        } else {                                                           \
            for (; a_; a_ &= a_ - 1) {                                     \
                int L = __builtin_ctzll(a_);                               \
                uint32_t child = t_[bit_count(m_ & (((uint64_t)1 << L) - 1))]; \
                body                                                       \
            }                                                              \
        }                                                                  \
    } while (0)

static void expand(Gen *g, int pos, uint32_t node, uint64_t allowed, int main_sum, int wmul,
                   int cross_total, int placed, int s);

/* The word so far ends just before square `pos` at graph node `node`: take in the tiles already
 * on the board from `pos` on, record the word when it ends there, and go on with the group's
 * letters on the next empty square. */
static inline void extend_right(Gen *g, int pos, uint32_t node, int main_sum, int wmul, int cross_total,
                                int placed, int s) {
    while (pos < N && g->cell[pos] >= 0) {
        int L = g->cell[pos];
        int32_t child = child_of(g, node, L);
        if (child < 0) return;
        g->word[pos] = (uint8_t)L;
        g->wnew[pos] = 0;
        if (!g->cell_joker[pos]) main_sum += g->values[L];
        node = (uint32_t)child;
        pos++;
    }
    if (pos > g->anchor && g->final[node]) record(g, s, pos, main_sum, wmul, cross_total, placed);
    if (pos == N || placed == g->tiles) return;
    uint64_t allowed = g->mask[node] & g->cross[pos] & (g->jokers ? g->all : g->rackmask);
    if (allowed) expand(g, pos, node, allowed, main_sum, wmul, cross_total, placed, s);
}

/* Each allowed letter on the empty square `pos`. */
static void expand(Gen *g, int pos, uint32_t node, uint64_t allowed, int main_sum, int wmul,
                   int cross_total, int placed, int s) {
    int lm = g->lm[pos], wm = g->wm[pos];
    int hc = g->has_cross[pos], cs = g->cross_sum[pos];
    g->wnew[pos] = 1;
    FOR_CHILDREN(g, node, allowed, L, child, {
        g->word[pos] = (uint8_t)L;
        int v = g->values[L] * lm;
        int ct = cross_total + (hc ? (cs + v) * wm : 0);
        int j = place(g, L);
        g->wforced[pos] = (uint8_t)j;
        extend_right(g, pos + 1, child, main_sum + v, wmul * wm, ct, placed + 1, s);
        unplace(g, L, j);
    });
}

/* Left parts lie on empty squares that are not anchors, so they form no cross words. */
static void left_part(Gen *g, int k, uint32_t node, int limit) {
    int s = g->anchor - k, main_sum = 0, wmul = 1;
    for (int i = 0; i < k; i++) {
        int p = s + i;
        g->word[p] = g->pref[i];
        g->wforced[p] = g->pforced[i];
        g->wnew[p] = 1;
        main_sum += g->values[g->pref[i]] * g->lm[p];
        wmul *= g->wm[p];
    }
    extend_right(g, g->anchor, node, main_sum, wmul, 0, k, s);
    if (limit == 0) return;
    uint64_t allowed = g->mask[node] & (g->jokers ? g->all : g->rackmask);
    FOR_CHILDREN(g, node, allowed, L, child, {
        g->pref[k] = (uint8_t)L;
        int j = place(g, L);
        g->pforced[k] = (uint8_t)j;
        left_part(g, k + 1, child, limit - 1);
        unplace(g, L, j);
    });
}

static inline int sq_of(int horizontal, int line, int pos) {
    return horizontal ? line * N + pos : pos * N + line;
}

/* Cross-checks for moves along `horizontal`: which letters make a word with the tiles
 * above and below (or left and right) of each empty square, and those tiles' value. */
static void cross_checks(Gen *g, int horizontal, uint64_t *cross, uint8_t *has, int32_t *sum) {
    for (int line = 0; line < N; line++) {
        for (int pos = 0; pos < N; pos++) {
            int sq = sq_of(horizontal, line, pos);
            cross[sq] = g->all;
            has[sq] = 0;
            sum[sq] = 0;
            if (g->board[sq] >= 0) continue;
            /* the perpendicular line is `pos`, position along it is `line` */
            int a = line, b = line;
            while (a > 0 && g->board[sq_of(!horizontal, pos, a - 1)] >= 0) a--;
            while (b < N - 1 && g->board[sq_of(!horizontal, pos, b + 1)] >= 0) b++;
            if (a == line && b == line) continue;
            has[sq] = 1;
            int32_t total = 0;
            int32_t node = 0;
            for (int q = a; q <= b; q++) {
                int t = sq_of(!horizontal, pos, q);
                if (q == line) continue;
                if (!g->board_joker[t]) total += g->values[g->board[t]];
            }
            sum[sq] = total;
            for (int q = a; q < line && node >= 0; q++) node = child_of(g, (uint32_t)node, g->board[sq_of(!horizontal, pos, q)]);
            uint64_t m = 0;
            if (node >= 0) {
                for (uint32_t e = g->start[node]; e < g->start[node + 1]; e++) {
                    int32_t n2 = (int32_t)g->target[e];
                    for (int q = line + 1; q <= b && n2 >= 0; q++) n2 = child_of(g, (uint32_t)n2, g->board[sq_of(!horizontal, pos, q)]);
                    if (n2 >= 0 && g->final[n2]) m |= (uint64_t)1 << g->letter[e];
                }
            }
            cross[sq] = m;
        }
    }
}

static void generate_direction(Gen *g, int horizontal, const uint8_t *anchor_sq) {
    uint64_t cross[SQ];
    uint8_t has[SQ];
    int32_t sum[SQ];
    cross_checks(g, horizontal, cross, has, sum);
    g->horizontal = horizontal;
    for (int line = 0; line < N; line++) {
        int any_anchor = 0;
        g->line = line;
        for (int pos = 0; pos < N; pos++) {
            int sq = sq_of(horizontal, line, pos);
            g->cell[pos] = g->board[sq];
            g->cell_joker[pos] = g->board_joker[sq];
            g->lm[pos] = g->lmult[sq];
            g->wm[pos] = g->wmult[sq];
            g->cross[pos] = cross[sq];
            g->has_cross[pos] = has[sq];
            g->cross_sum[pos] = sum[sq];
            g->is_anchor[pos] = anchor_sq[sq];
            any_anchor |= anchor_sq[sq];
        }
        if (!any_anchor) continue;
        for (int a = 0; a < N; a++) {
            if (!g->is_anchor[a]) continue;
            g->anchor = a;
            if (a > 0 && g->cell[a - 1] >= 0) {
                int s = a - 1;
                while (s > 0 && g->cell[s - 1] >= 0) s--;
                int32_t node = 0;
                int main_sum = 0;
                for (int p = s; p < a && node >= 0; p++) {
                    node = child_of(g, (uint32_t)node, g->cell[p]);
                    g->word[p] = (uint8_t)g->cell[p];
                    g->wnew[p] = 0;
                    if (!g->cell_joker[p]) main_sum += g->values[g->cell[p]];
                }
                if (node >= 0) extend_right(g, a, (uint32_t)node, main_sum, 1, 0, 0, s);
            } else {
                int k = 0;
                for (int p = a - 1; p >= 0 && g->cell[p] < 0 && !g->is_anchor[p]; p--) k++;
                int limit = k < g->tiles - 1 ? k : g->tiles - 1;
                left_part(g, 0, 0, limit < 0 ? 0 : limit);
            }
        }
    }
}

static int need(Py_buffer *b, Py_ssize_t len, const char *name) {
    if (b->len < len) {
        PyErr_Format(PyExc_ValueError, "buffer %s too short (%zd < %zd bytes)", name, b->len, len);
        return 0;
    }
    return 1;
}

static PyObject *py_generate(PyObject *self, PyObject *args) {
    Py_buffer start, letter, target, final, mask, board, board_joker, values, lmult, wmult, rack;
    int jokers, rack_size, bingo_bonus, start_sq, alpha;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*iiiii", &start, &letter, &target, &final, &mask,
                          &board, &board_joker, &values, &lmult, &wmult, &rack, &jokers, &rack_size,
                          &bingo_bonus, &start_sq, &alpha))
        return NULL;
    Py_buffer *all_bufs[] = {&start, &letter, &target, &final, &mask, &board, &board_joker, &values, &lmult, &wmult, &rack};
    PyObject *result = NULL;
    Gen *g = (Gen *)calloc(1, sizeof(Gen));
    if (!g) { PyErr_NoMemory(); goto done; }
    if (alpha < 1 || alpha > 63) { PyErr_SetString(PyExc_ValueError, "alphabet size must be 1..63"); goto done; }
    if (!need(&board, SQ, "board") || !need(&board_joker, SQ, "board_joker") || !need(&lmult, SQ, "lmult") ||
        !need(&wmult, SQ, "wmult") || !need(&values, 4 * alpha, "values") || !need(&rack, 4 * alpha, "rack") ||
        !need(&start, 8, "start"))
        goto done;
    g->start = (const uint32_t *)start.buf;
    g->letter = (const uint8_t *)letter.buf;
    g->target = (const uint32_t *)target.buf;
    g->final = (const uint8_t *)final.buf;
    g->mask = (const uint64_t *)mask.buf;
    g->values = (const int32_t *)values.buf;
    g->board = (const int8_t *)board.buf;
    g->board_joker = (const uint8_t *)board_joker.buf;
    g->lmult = (const uint8_t *)lmult.buf;
    g->wmult = (const uint8_t *)wmult.buf;
    g->rack_size = rack_size;
    g->bingo_bonus = bingo_bonus;
    g->jokers = jokers;
    g->jokers0 = jokers;
    g->all = ((uint64_t)1 << alpha) - 1;
    g->tiles = jokers;
    for (int i = 0; i < alpha; i++) {
        g->rack[i] = ((const int32_t *)rack.buf)[i];
        if (g->rack[i] < 0) { PyErr_SetString(PyExc_ValueError, "negative letter count"); goto done; }
        if (g->rack[i] > 0) g->rackmask |= (uint64_t)1 << i;
        g->rack0[i] = g->rack[i];
        g->tiles += g->rack[i];
    }
    if (g->tiles > 0) {
        uint8_t anchor_sq[SQ];
        int empty = 1;
        for (int i = 0; i < SQ; i++) {
            if (g->board[i] >= alpha) { PyErr_SetString(PyExc_ValueError, "board letter outside the alphabet"); goto done; }
            if (g->board[i] >= 0) empty = 0;
        }
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++) {
                int sq = r * N + c, a = 0;
                if (g->board[sq] < 0) {
                    if (empty) a = (sq == start_sq); /* RULES.md §1: the first move covers the start square */
                    else a = (r > 0 && g->board[sq - N] >= 0) || (r < N - 1 && g->board[sq + N] >= 0) ||
                             (c > 0 && g->board[sq - 1] >= 0) || (c < N - 1 && g->board[sq + 1] >= 0);
                }
                anchor_sq[sq] = (uint8_t)a;
            }
        Py_BEGIN_ALLOW_THREADS
        generate_direction(g, 1, anchor_sq);
        generate_direction(g, 0, anchor_sq);
        Py_END_ALLOW_THREADS
        if (g->oom) { PyErr_NoMemory(); goto done; }
    }
    result = PyBytes_FromStringAndSize((const char *)g->out, (Py_ssize_t)(g->n * sizeof(Rec)));
done:
    if (g) { free(g->out); free(g); }
    for (size_t i = 0; i < sizeof(all_bufs) / sizeof(all_bufs[0]); i++) PyBuffer_Release(all_bufs[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", py_generate, METH_VARARGS, "All moves as packed records (see corrector.movegen.RECORD)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen", NULL, -1, methods};

PyMODINIT_FUNC PyInit__movegen(void) {
    if (sizeof(Rec) != 28) {
        PyErr_SetString(PyExc_ImportError, "unexpected record layout");
        return NULL;
    }
    return PyModule_Create(&module);
}
