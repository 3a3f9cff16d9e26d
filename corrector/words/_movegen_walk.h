/* The search of _movegen.c, included there once per instruction set: the edge lookups count
 * bits (`BIT_COUNT`), and x86-64 processors since 2008 do that in one instruction (POPCNT) that
 * the baseline x86-64 target may not use. `W(name)` names this copy's functions, `WALK_ATTR`
 * gives them their target. Not a stand-alone header. */

static WALK_ATTR inline uint32_t W(bit_count)(uint64_t x) {
    return BIT_COUNT(x);
}

/* Edges are sorted by letter, so an edge's index is the count of smaller letters in the mask. */
static WALK_ATTR inline uint32_t W(edge_of)(const Gen *g, uint32_t node, int L) {
    return g->start[node] + W(bit_count)(g->mask[node] & (((uint64_t)1 << L) - 1));
}

static WALK_ATTR inline int32_t W(child_of)(const Gen *g, uint32_t node, int L) {
    if (!((g->mask[node] >> L) & 1u)) return -1;
    return (int32_t)g->target[W(edge_of)(g, node, L)];
}


static WALK_ATTR void W(expand)(Gen *g, int pos, uint32_t node, uint64_t allowed, int main_sum, int wmul,
                   int cross_total, int placed, int s);

/* The word so far ends just before square `pos` at graph node `node`: take in the tiles already
 * on the board from `pos` on, record the word when it ends there, and go on with the group's
 * letters on the next empty square. */
static WALK_ATTR inline void W(extend_right)(Gen *g, int pos, uint32_t node, int main_sum, int wmul, int cross_total,
                                int placed, int s) {
    while (pos < N && g->cell[pos] >= 0) {
        int L = g->cell[pos];
        int32_t child = W(child_of)(g, node, L);
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
    if (allowed) W(expand)(g, pos, node, allowed, main_sum, wmul, cross_total, placed, s);
}

/* Each allowed letter on the empty square `pos`. */
static WALK_ATTR void W(expand)(Gen *g, int pos, uint32_t node, uint64_t allowed, int main_sum, int wmul,
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
        W(extend_right)(g, pos + 1, child, main_sum + v, wmul * wm, ct, placed + 1, s);
        unplace(g, L, j);
    });
}

/* Left parts lie on empty squares that are not anchors, so they form no cross words: their
 * letters and points enter only in `record` (main_sum and wmul count the right part here). */
static WALK_ATTR void W(left_part)(Gen *g, int k, uint32_t node, int limit) {
    g->kprefix = k;
    W(extend_right)(g, g->anchor, node, 0, 1, 0, k, g->anchor - k);
    if (limit == 0) return;
    uint64_t allowed = g->mask[node] & (g->jokers ? g->all : g->rackmask);
    FOR_CHILDREN(g, node, allowed, L, child, {
        g->pref[k] = (uint8_t)L;
        int j = place(g, L);
        g->pforced[k] = (uint8_t)j;
        W(left_part)(g, k + 1, child, limit - 1);
        unplace(g, L, j);
    });
}

/* Cross-checks for moves along `horizontal`: which letters make a word with the tiles
 * above and below (or left and right) of each empty square, and those tiles' value. */
static WALK_ATTR void W(cross_checks)(Gen *g, int horizontal, uint64_t *cross, uint8_t *has, int32_t *sum) {
    uint32_t lines = horizontal ? g->rows : g->cols;
    for (int line = 0; line < N; line++) {
        if (!((lines >> line) & 1u)) continue; /* a line not searched needs no cross-checks */
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
            for (int q = a; q < line && node >= 0; q++) node = W(child_of)(g, (uint32_t)node, g->board[sq_of(!horizontal, pos, q)]);
            uint64_t m = 0;
            if (node >= 0) {
                for (uint32_t e = g->start[node]; e < g->start[node + 1]; e++) {
                    int32_t n2 = (int32_t)g->target[e];
                    for (int q = line + 1; q <= b && n2 >= 0; q++) n2 = W(child_of)(g, (uint32_t)n2, g->board[sq_of(!horizontal, pos, q)]);
                    if (n2 >= 0 && g->final[n2]) m |= (uint64_t)1 << g->letter[e];
                }
            }
            cross[sq] = m;
        }
    }
}

static WALK_ATTR void W(generate_direction)(Gen *g, int horizontal, const uint8_t *anchor_sq) {
    uint64_t cross[SQ];
    uint8_t has[SQ];
    int32_t sum[SQ];
    W(cross_checks)(g, horizontal, cross, has, sum);
    g->horizontal = horizontal;
    uint32_t lines = horizontal ? g->rows : g->cols;
    for (int line = 0; line < N; line++) {
        if (!((lines >> line) & 1u)) continue;
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
                    node = W(child_of)(g, (uint32_t)node, g->cell[p]);
                    g->word[p] = (uint8_t)g->cell[p];
                    g->wnew[p] = 0;
                    if (!g->cell_joker[p]) main_sum += g->values[g->cell[p]];
                }
                g->kprefix = 0;
                if (node >= 0) W(extend_right)(g, a, (uint32_t)node, main_sum, 1, 0, 0, s);
            } else {
                int k = 0;
                for (int p = a - 1; p >= 0 && g->cell[p] < 0 && !g->is_anchor[p]; p--) k++;
                int limit = k < g->tiles - 1 ? k : g->tiles - 1;
                W(left_part)(g, 0, 0, limit < 0 ? 0 : limit);
            }
        }
    }
}
