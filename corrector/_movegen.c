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
    int jokers;
    uint64_t all;
    /* current line */
    int horizontal, line, anchor;
    int8_t cell[N];
    uint8_t cell_joker[N], lm[N], wm[N], has_cross[N], is_anchor[N];
    uint64_t cross[N];
    int32_t cross_sum[N];
    /* partial word, indexed by square along the line */
    uint8_t word[N], wjoker[N], wnew[N];
    uint8_t pref[N], pjoker[N];
    /* output */
    Rec *out;
    size_t n, cap;
    int oom;
} Gen;

static inline int32_t child_of(const Gen *g, uint32_t node, int L) {
    if (!((g->mask[node] >> L) & 1u)) return -1;
    for (uint32_t e = g->start[node]; e < g->start[node + 1]; e++)
        if (g->letter[e] == L) return (int32_t)g->target[e];
    return -1;
}

static void record(Gen *g, int s, int end, int main_sum, int wmul, int cross_total, int placed) {
    if (g->oom) return;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 4096;
        Rec *p = (Rec *)realloc(g->out, cap * sizeof(Rec));
        if (!p) { g->oom = 1; return; }
        g->out = p;
        g->cap = cap;
    }
    Rec *r = &g->out[g->n++];
    memset(r, 0, sizeof(Rec));
    r->score = main_sum * wmul + cross_total + (placed >= g->rack_size ? g->bingo_bonus : 0);
    r->horizontal = (uint8_t)g->horizontal;
    r->row = (uint8_t)(g->horizontal ? g->line : s);
    r->col = (uint8_t)(g->horizontal ? s : g->line);
    r->length = (uint8_t)(end - s);
    r->placed = (uint8_t)placed;
    for (int p = s; p < end; p++) {
        int i = p - s;
        r->letters[i] = g->word[p];
        if (g->wnew[p]) r->new_mask |= (uint16_t)(1u << i);
        if (g->wjoker[p]) r->joker_mask |= (uint16_t)(1u << i);
    }
}

static void extend_right(Gen *g, int pos, uint32_t node, int main_sum, int wmul, int cross_total,
                         int placed, int s) {
    if (pos < N && g->cell[pos] < 0) {
        if (pos > g->anchor && g->final[node]) record(g, s, pos, main_sum, wmul, cross_total, placed);
        if (placed == g->tiles) return;
        uint64_t allowed = g->mask[node] & g->cross[pos];
        if (!allowed) return;
        int lm = g->lm[pos], wm = g->wm[pos];
        for (uint32_t e = g->start[node]; e < g->start[node + 1]; e++) {
            int L = g->letter[e];
            if (!((allowed >> L) & 1u)) continue;
            uint32_t child = g->target[e];
            g->word[pos] = (uint8_t)L;
            g->wnew[pos] = 1;
            if (g->rack[L] > 0) {
                int v = g->values[L] * lm;
                int ct = cross_total + (g->has_cross[pos] ? (g->cross_sum[pos] + v) * wm : 0);
                g->rack[L]--;
                g->wjoker[pos] = 0;
                extend_right(g, pos + 1, child, main_sum + v, wmul * wm, ct, placed + 1, s);
                g->rack[L]++;
            }
            if (g->jokers > 0) {
                int ct = cross_total + (g->has_cross[pos] ? g->cross_sum[pos] * wm : 0);
                g->jokers--;
                g->wjoker[pos] = 1;
                extend_right(g, pos + 1, child, main_sum, wmul * wm, ct, placed + 1, s);
                g->jokers++;
            }
        }
    } else if (pos < N) {
        int L = g->cell[pos];
        int32_t child = child_of(g, node, L);
        if (child < 0) return;
        g->word[pos] = (uint8_t)L;
        g->wnew[pos] = 0;
        g->wjoker[pos] = g->cell_joker[pos];
        int v = g->cell_joker[pos] ? 0 : g->values[L];
        extend_right(g, pos + 1, (uint32_t)child, main_sum + v, wmul, cross_total, placed, s);
    } else if (pos > g->anchor && g->final[node]) {
        record(g, s, pos, main_sum, wmul, cross_total, placed);
    }
}

/* Left parts lie on empty squares that are not anchors, so they form no cross words. */
static void left_part(Gen *g, int k, uint32_t node, int limit) {
    int s = g->anchor - k, main_sum = 0, wmul = 1;
    for (int i = 0; i < k; i++) {
        int p = s + i;
        g->word[p] = g->pref[i];
        g->wjoker[p] = g->pjoker[i];
        g->wnew[p] = 1;
        if (!g->pjoker[i]) main_sum += g->values[g->pref[i]] * g->lm[p];
        wmul *= g->wm[p];
    }
    extend_right(g, g->anchor, node, main_sum, wmul, 0, k, s);
    if (limit == 0) return;
    for (uint32_t e = g->start[node]; e < g->start[node + 1]; e++) {
        int L = g->letter[e];
        uint32_t child = g->target[e];
        g->pref[k] = (uint8_t)L;
        if (g->rack[L] > 0) {
            g->rack[L]--;
            g->pjoker[k] = 0;
            left_part(g, k + 1, child, limit - 1);
            g->rack[L]++;
        }
        if (g->jokers > 0) {
            g->jokers--;
            g->pjoker[k] = 1;
            left_part(g, k + 1, child, limit - 1);
            g->jokers++;
        }
    }
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

static void generate_direction(Gen *g, int horizontal, const uint8_t *anchor_sq, int empty_board) {
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
        (void)empty_board;
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
                    g->wjoker[p] = g->cell_joker[p];
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
    g->all = ((uint64_t)1 << alpha) - 1;
    g->tiles = jokers;
    for (int i = 0; i < alpha; i++) {
        g->rack[i] = ((const int32_t *)rack.buf)[i];
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
        generate_direction(g, 1, anchor_sq, empty);
        generate_direction(g, 0, anchor_sq, empty);
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
