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
    int kprefix; /* the word starts with pref[0..kprefix) on empty squares before the anchor */
    /* new tiles of the word being recorded */
    int n_new;
    uint8_t new_letter[N], new_off[N];
    int32_t delta[N];
    int real[64];
    /* output */
    Rec *out;
    size_t n, cap;
    int oom;
    /* lines searched (bit `line` of rows for words across, of cols for words down) and, for the
     * best score alone, the best found so far (records are then dropped once scored) */
    uint32_t rows, cols;
    int best_only, found;
    int32_t best;
} Gen;

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
static void record_all(Gen *g, int s, int end, int main_sum, int wmul, int cross_total, int placed) {
    if (g->oom) return;
    int len = end - s;
    /* the left part is only written out and scored for words that get recorded */
    for (int i = 0, p = s; i < g->kprefix; i++, p++) {
        int L = g->pref[i];
        g->word[p] = (uint8_t)L;
        g->wforced[p] = g->pforced[i];
        g->wnew[p] = 1;
        main_sum += g->values[L] * g->lm[p];
        wmul *= g->wm[p];
    }
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

/* Records a word; for the best score alone, keeps the best of its joker placements and drops
 * the records, so the search writes nothing out (the tactic top asks this once per first move). */
static void record(Gen *g, int s, int end, int main_sum, int wmul, int cross_total, int placed) {
    size_t n0 = g->n;
    record_all(g, s, end, main_sum, wmul, cross_total, placed);
    if (!g->best_only) return;
    for (size_t i = n0; i < g->n; i++)
        if (!g->found || g->out[i].score > g->best) g->best = g->out[i].score, g->found = 1;
    g->n = n0;
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
                uint32_t child = t_[W(bit_count)(m_ & (((uint64_t)1 << L) - 1))]; \
                body                                                       \
            }                                                              \
        }                                                                  \
    } while (0)
static inline int sq_of(int horizontal, int line, int pos) {
    return horizontal ? line * N + pos : pos * N + line;
}

/* The search, twice on x86: with the POPCNT instruction (chosen at run time when the processor
 * has it) and without (the portable build, a few shifts and masks per count). Elsewhere the
 * compiler's builtin is the native instruction. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && \
    !defined(MOVEGEN_PORTABLE_ONLY) /* -DMOVEGEN_PORTABLE_ONLY: build the portable copy alone */
#define HAVE_POPCNT_VARIANT 1
#endif

static inline uint32_t soft_bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
}

#define W(name) name##_portable
#define WALK_ATTR
#if defined(__GNUC__) && !defined(HAVE_POPCNT_VARIANT)
#define BIT_COUNT(x) ((uint32_t)__builtin_popcountll(x))
#else
#define BIT_COUNT(x) soft_bit_count(x)
#endif
#include "_movegen_walk.h"
#undef W
#undef WALK_ATTR
#undef BIT_COUNT

#ifdef HAVE_POPCNT_VARIANT
#define W(name) name##_popcnt
#define WALK_ATTR __attribute__((target("popcnt")))
#define BIT_COUNT(x) ((uint32_t)__builtin_popcountll(x))
#include "_movegen_walk.h"
#undef W
#undef WALK_ATTR
#undef BIT_COUNT
#endif

#ifdef HAVE_POPCNT_VARIANT
static int use_popcnt;
#endif

/* The records, handed to Python without a copy: an object that owns the generator's buffer and
 * exposes it read-only through the buffer protocol (numpy.frombuffer keeps it alive). */
typedef struct {
    PyObject_HEAD
    Rec *buf;
    Py_ssize_t len; /* bytes */
} Records;

static void records_dealloc(PyObject *self) {
    free(((Records *)self)->buf);
    Py_TYPE(self)->tp_free(self);
}

static int records_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    static char empty[1];
    Records *r = (Records *)self;
    return PyBuffer_FillInfo(view, self, r->buf ? (void *)r->buf : (void *)empty, r->len, 1, flags);
}

static Py_ssize_t records_length(PyObject *self) {
    return ((Records *)self)->len / (Py_ssize_t)sizeof(Rec);
}

static PyBufferProcs records_buffer = {records_getbuffer, NULL};
static PySequenceMethods records_sequence = {records_length};

static PyTypeObject RecordsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "corrector._movegen.Records",
    .tp_basicsize = sizeof(Records),
    .tp_dealloc = records_dealloc,
    .tp_as_sequence = &records_sequence,
    .tp_as_buffer = &records_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Move records (corrector.movegen.RECORD), read through the buffer protocol.",
};

/* Takes over g->out (shrunk to its records). */
static PyObject *records_new(Gen *g) {
    Records *r = PyObject_New(Records, &RecordsType);
    if (!r) return NULL;
    r->buf = g->out;
    r->len = (Py_ssize_t)(g->n * sizeof(Rec));
    g->out = NULL;
    if (r->buf && g->n < g->cap) {
        Rec *p = (Rec *)realloc(r->buf, g->n ? g->n * sizeof(Rec) : 1);
        if (p) r->buf = p;
    }
    return (PyObject *)r;
}

static int need(Py_buffer *b, Py_ssize_t len, const char *name) {
    if (b->len < len) {
        PyErr_Format(PyExc_ValueError, "buffer %s too short (%zd < %zd bytes)", name, b->len, len);
        return 0;
    }
    return 1;
}

/* The search behind both entry points: every move (records out) or the best score alone, over
 * the lines in `rows` (words across) and `cols` (words down). */
static PyObject *run(PyObject *args, int best_only) {
    Py_buffer start, letter, target, final, mask, board, board_joker, values, lmult, wmult, rack;
    int jokers, rack_size, bingo_bonus, start_sq, alpha;
    unsigned int rows = (1u << N) - 1, cols = (1u << N) - 1;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*iiiii|II", &start, &letter, &target, &final, &mask,
                          &board, &board_joker, &values, &lmult, &wmult, &rack, &jokers, &rack_size,
                          &bingo_bonus, &start_sq, &alpha, &rows, &cols))
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
    g->rows = rows;
    g->cols = cols;
    g->best_only = best_only;
    g->found = 0;
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
#ifdef HAVE_POPCNT_VARIANT
        if (use_popcnt) {
            generate_direction_popcnt(g, 1, anchor_sq);
            generate_direction_popcnt(g, 0, anchor_sq);
        } else
#endif
        {
            generate_direction_portable(g, 1, anchor_sq);
            generate_direction_portable(g, 0, anchor_sq);
        }
        Py_END_ALLOW_THREADS
        if (g->oom) { PyErr_NoMemory(); goto done; }
    }
    if (best_only) result = !g->found ? Py_NewRef(Py_None) : PyLong_FromLong(g->best);
    else result = records_new(g);
done:
    if (g) { free(g->out); free(g); }
    for (size_t i = 0; i < sizeof(all_bufs) / sizeof(all_bufs[0]); i++) PyBuffer_Release(all_bufs[i]);
    return result;
}

static PyObject *py_generate(PyObject *self, PyObject *args) {
    return run(args, 0);
}

static PyObject *py_best_score(PyObject *self, PyObject *args) {
    return run(args, 1);
}

static PyMethodDef methods[] = {
    {"generate", py_generate, METH_VARARGS, "All moves as packed records (see corrector.movegen.RECORD), in a buffer object; optional row and column masks restrict the lines searched."},
    {"best_score", py_best_score, METH_VARARGS, "The best move's score (None without a move), with the arguments of generate."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen", NULL, -1, methods};

PyMODINIT_FUNC PyInit__movegen(void) {
    if (sizeof(Rec) != 28) {
        PyErr_SetString(PyExc_ImportError, "unexpected record layout");
        return NULL;
    }
    if (PyType_Ready(&RecordsType) < 0) return NULL;
#ifdef HAVE_POPCNT_VARIANT
    __builtin_cpu_init();
    use_popcnt = __builtin_cpu_supports("popcnt") ? 1 : 0;
#endif
    return PyModule_Create(&module);
}
