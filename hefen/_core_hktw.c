/* hefen/_core_hktw.c: the Hong Kong scorer, compiled (issue #17).
 *
 * #included by hefen/_core.c near its end (before its method table), so it
 * uses that file's static helpers: the decompositions (m_decompositions,
 * MDecs, the same splits in the same order as
 * hefen.decompose.standard_decompositions), the result types built slot by
 * slot (ft_make, ft_find, ft_attr), the tile tables and the interned names
 * of m_init_strings.  It is not compiled on its own.
 *
 * hk_score(hand, opts) follows hefen.hk._py_score branch for branch: every
 * standard reading (hefen.hk.reading.standard_readings: each decomposition
 * of the standing tiles into the sets the melds leave, each place the
 * winning tile can take in it), seven pairs and thirteen orphans, each with
 * its win and bonus patterns and the exclusions of the table, the first of
 * the best (limit, fan) kept, and its Result (the limit or the fan, the cap,
 * the table minimum, the settlement of HongKong.settle_hand).  The pattern
 * table (ids, values, excludes, groups, names) is handed over by hefen.hk at
 * import (_set_hk); nothing about a pattern is written here but its id.
 * It answers None for anything it does not read (a Hand built with other
 * types, a context the Python refuses, settings it does not know): the
 * Python reference then answers, or raises, as before; False when no
 * reading completes the hand (the Python builds that Result). */

#define HK_MAX 64 /* patterns in the table */
#define HK_MU 8   /* uses of one pattern in one reading */

enum {
    H_BIG_FOUR_WINDS, H_SMALL_FOUR_WINDS, H_ALL_HONORS, H_ALL_TERMINALS,
    H_FOUR_CONCEALED_PUNGS, H_FOUR_KONGS, H_THIRTEEN_ORPHANS, H_NINE_GATES, H_HEAVENLY_HAND,
    H_EARTHLY_HAND, H_BIG_THREE_DRAGONS, H_FULL_FLUSH, H_SMALL_THREE_DRAGONS, H_SEVEN_PAIRS,
    H_ALL_PUNGS, H_HALF_FLUSH, H_ALL_CHOWS, H_DRAGON_PUNG, H_SEAT_WIND, H_ROUND_WIND,
    H_MIXED_TERMINALS, H_OWN_FLOWER, H_OWN_SEASON, H_FOUR_FLOWERS, H_FOUR_SEASONS,
    H_NO_FLOWERS, H_SELF_DRAWN, H_CONCEALED_HAND, H_ROBBING_KONG, H_LAST_TILE,
    H_KONG_REPLACEMENT, H_DOUBLE_KONG_REPLACEMENT, N_HNAMES
};

static const char *H_NAMES[N_HNAMES] = {
    "big_four_winds", "small_four_winds", "all_honors", "all_terminals",
    "four_concealed_pungs", "four_kongs", "thirteen_orphans", "nine_gates", "heavenly_hand",
    "earthly_hand", "big_three_dragons", "full_flush", "small_three_dragons", "seven_pairs",
    "all_pungs", "half_flush", "all_chows", "dragon_pung", "seat_wind", "round_wind",
    "mixed_terminals", "own_flower", "own_season", "four_flowers", "four_seasons",
    "no_flowers", "self_drawn", "concealed_hand", "robbing_kong", "last_tile",
    "kong_replacement", "double_kong_replacement"};

/* the uses, as codes: a set's label (kind * NK + tile) * 3 + (0 from the
 * hand, 1 a claimed meld, 2 a concealed meld), as the MCR's; then the codes
 * of the 42 tiles (the bonus tiles' at NK..NK+7); then the full sets of
 * seasons and of flowers */
#define HU_TILE (4 * NK * 3)
#define HU_FULL (HU_TILE + NK + 8)
#define HU_N (HU_FULL + 2)

static int hk_ready, hk_n;
static int hk_id[N_HNAMES];
static long long hk_value[HK_MAX];
static char hk_limit[HK_MAX], hk_bonus[HK_MAX];
static unsigned long long hk_excl[HK_MAX];
static PyObject *hk_ids, *hk_names_en, *hk_names, *hk_next_notes, *hk_seats;
static PyObject *hk_meld_type, *hk_hit_type, *hk_payment_type, *hk_result_type;
static PyObject *hk_rules_s, *hk_unit_s;
static PyObject *hu_obj[HU_N];
static PyObject *hs_flowers, *hs_heavenly, *hs_earthly, *hs_human, *hs_declared_ready,
    *hs_discarder, *hs_dealer, *hs_dealer_streak, *hs_min_fan, *hs_cap, *hs_half_spicy,
    *hs_small_four_winds, *hs_unit, *hs_self_draw_concealed, *hs_bonus_counts_to_min,
    *hs_bouquet_includes_own, *hs_seven_pairs_four_kind, *hs_nine_gates, *hs_limit, *hs_pure,
    *hs_any;

/* the settings hk_score reads (exactly the values the Python tells apart) */
typedef struct {
    long long min_fan, cap, unit, sfw_value;
    int half_spicy, sfw_limit, self_draw_concealed, bonus_counts_to_min, bouquet_includes_own,
        seven_pairs_four_kind, nine_gates_pure;
} HOpts;

/* the facts of a hand hk_score reads */
typedef struct {
    int c13[NK], c14[NK], all[NK], win, n_melds, n_kongs, concealed; /* all: melds too */
    MGroup melds[4];
    unsigned flowers; /* bit i: the bonus tile NK + i */
    int self_drawn, seat, round, dealer, streak, discarder; /* discarder -1: None */
    int heavenly, earthly, ltw, kr, dkr, rk;
} HHand;

typedef struct {
    int count[HK_MAX], nuses[HK_MAX];
    short uses[HK_MAX][HK_MU];
    unsigned long long on; /* the patterns in the tally (Tally.counts' keys) */
    int overflow;
} HTally;

static void
ht_add(HTally *t, int h, const short *u, int nu)
{
    int p = hk_id[h];
    t->count[p] += 1;
    t->on |= 1ULL << p;
    for (int i = 0; i < nu; i++) {
        if (t->nuses[p] >= HK_MU) {
            t->overflow = 1;
            return;
        }
        t->uses[p][t->nuses[p]++] = u[i];
    }
}

static void
ht_init(HTally *t)
{
    for (unsigned long long m = t->on; m; m &= m - 1) {
        int p = m_ctz64(m);
        t->count[p] = 0;
        t->nuses[p] = 0;
    }
    t->on = 0;
    t->overflow = 0;
}

static int
hk_label(const MGroup *g)
{
    return (g->kind * NK + g->tile) * 3 + (g->declared ? (g->concealed ? 2 : 1) : 0);
}

/* Tally.apply_exclusions: in the table's order, each pattern still there
 * drops what it excludes */
static void
ht_exclusions(HTally *t)
{
    for (int p = 0; p < hk_n; p++) {
        if (!(t->on >> p & 1))
            continue;
        unsigned long long ex = hk_excl[p] & t->on;
        for (; ex; ex &= ex - 1) {
            int q = m_ctz64(ex);
            t->count[q] = 0;
            t->nuses[q] = 0;
            t->on &= ~(1ULL << q);
        }
    }
}

/* Tally.fan (skip_bonus: skip_group="bonus"); value: the values of this
 * hand's settings (a limit 0) */
static long long
ht_fan(const HTally *t, const long long *value, int skip_bonus)
{
    long long s = 0;
    for (unsigned long long m = t->on; m; m &= m - 1) {
        int p = m_ctz64(m);
        if (!(skip_bonus && hk_bonus[p]))
            s += value[p] * t->count[p];
    }
    return s;
}

/* _tile_patterns: the flushes, all honours, mixed terminals (the same for
 * every reading of the hand: the tiles are all its tiles) */
static void
hk_tile_patterns(const HHand *h, HTally *t)
{
    int suits = 0, honors = 0, outside = 1;
    for (int x = 0; x < NK; x++) {
        if (!h->all[x])
            continue;
        if (x >= 27)
            honors = 1;
        else {
            suits |= 1 << (x / 9);
            if (x % 9 != 0 && x % 9 != 8)
                outside = 0;
        }
    }
    if (!suits)
        ht_add(t, H_ALL_HONORS, NULL, 0);
    else if (suits == 1 || suits == 2 || suits == 4)
        ht_add(t, honors ? H_HALF_FLUSH : H_FULL_FLUSH, NULL, 0);
    if (outside)
        ht_add(t, H_MIXED_TERMINALS, NULL, 0);
}

static int
hk_nine_gates(const HHand *h, const HOpts *o)
{
    static const int shape[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    if (h->n_melds)
        return 0;
    for (int s = 0; s < 27; s += 9) {
        int ok = 1, sum = 0;
        for (int i = 0; i < 9 && ok; i++) {
            if (o->nine_gates_pure)
                ok = h->c13[s + i] == shape[i];
            else {
                ok = h->c14[s + i] >= shape[i];
                sum += h->c14[s + i];
            }
        }
        if (ok && (o->nine_gates_pure || sum == 14))
            return 1;
    }
    return 0;
}

/* _read_standard: sets (the melds, then the sets from the hand) and pair */
static void
hk_read_standard(const HHand *h, const HOpts *o, const MGroup *sets, int pair, HTally *t)
{
    int pungs[4], np = 0, chows[4], nc = 0, dragons[4], nd = 0, winds[4], nw = 0;
    for (int i = 0; i < 4; i++) {
        const MGroup *g = &sets[i];
        if (g->kind == GK_PUNG || g->kind == GK_KONG) {
            pungs[np++] = i;
            if (g->tile >= 31)
                dragons[nd++] = i;
            else if (g->tile >= 27)
                winds[nw++] = i;
        }
        else
            chows[nc++] = i;
    }
    short u[8];
    MGroup pg = {GK_PAIR, pair, 1, 0};
    int pair_label = hk_label(&pg);
    /* limit hands */
    if (nw == 4) {
        for (int i = 0; i < 4; i++)
            u[i] = (short)hk_label(&sets[winds[i]]);
        ht_add(t, H_BIG_FOUR_WINDS, u, 4);
    }
    else if (nw == 3 && pair >= 27 && pair <= 30) {
        for (int i = 0; i < 3; i++)
            u[i] = (short)hk_label(&sets[winds[i]]);
        u[3] = (short)pair_label;
        ht_add(t, H_SMALL_FOUR_WINDS, u, 4);
    }
    if (np == 4) {
        int term = pair < 27 && (pair % 9 == 0 || pair % 9 == 8);
        for (int i = 0; i < 4 && term; i++) {
            int x = sets[i].tile;
            term = x < 27 && (x % 9 == 0 || x % 9 == 8);
        }
        if (term)
            ht_add(t, H_ALL_TERMINALS, NULL, 0);
        int conc = 1;
        for (int i = 0; i < 4; i++)
            conc = conc && sets[i].concealed;
        if (conc) {
            for (int i = 0; i < 4; i++)
                u[i] = (short)hk_label(&sets[pungs[i]]);
            ht_add(t, H_FOUR_CONCEALED_PUNGS, u, 4);
        }
    }
    if (h->n_kongs == 4) {
        for (int i = 0; i < np; i++)
            u[i] = (short)hk_label(&sets[pungs[i]]);
        ht_add(t, H_FOUR_KONGS, u, np);
    }
    if (hk_nine_gates(h, o))
        ht_add(t, H_NINE_GATES, NULL, 0);
    /* dragons */
    if (nd == 3) {
        for (int i = 0; i < 3; i++)
            u[i] = (short)hk_label(&sets[dragons[i]]);
        ht_add(t, H_BIG_THREE_DRAGONS, u, 3);
    }
    else if (nd == 2 && pair >= 31) {
        for (int i = 0; i < 2; i++)
            u[i] = (short)hk_label(&sets[dragons[i]]);
        u[2] = (short)pair_label;
        ht_add(t, H_SMALL_THREE_DRAGONS, u, 3);
    }
    for (int i = 0; i < nd; i++) {
        u[0] = (short)hk_label(&sets[dragons[i]]);
        ht_add(t, H_DRAGON_PUNG, u, 1);
    }
    /* winds: one pung may give both */
    for (int i = 0; i < nw; i++) {
        const MGroup *g = &sets[winds[i]];
        u[0] = (short)hk_label(g);
        if (g->tile == h->seat)
            ht_add(t, H_SEAT_WIND, u, 1);
        if (g->tile == h->round)
            ht_add(t, H_ROUND_WIND, u, 1);
    }
    if (np == 4)
        ht_add(t, H_ALL_PUNGS, NULL, 0);
    else if (nc == 4) {
        for (int i = 0; i < 4; i++)
            u[i] = (short)hk_label(&sets[chows[i]]);
        ht_add(t, H_ALL_CHOWS, u, 4);
    }
    hk_tile_patterns(h, t);
}

/* _win_patterns, _bonus_patterns and the exclusions, for every reading */
static void
hk_finish(const HHand *h, const HOpts *o, HTally *t)
{
    if (h->heavenly)
        ht_add(t, H_HEAVENLY_HAND, NULL, 0);
    if (h->earthly)
        ht_add(t, H_EARTHLY_HAND, NULL, 0);
    if (h->self_drawn)
        ht_add(t, H_SELF_DRAWN, NULL, 0);
    if (h->concealed && (!h->self_drawn || o->self_draw_concealed))
        ht_add(t, H_CONCEALED_HAND, NULL, 0);
    if (h->rk)
        ht_add(t, H_ROBBING_KONG, NULL, 0);
    if (h->ltw)
        ht_add(t, H_LAST_TILE, NULL, 0);
    if (h->dkr)
        ht_add(t, H_DOUBLE_KONG_REPLACEMENT, NULL, 0);
    else if (h->kr)
        ht_add(t, H_KONG_REPLACEMENT, NULL, 0);
    if (!h->flowers)
        ht_add(t, H_NO_FLOWERS, NULL, 0);
    else {
        int seat = h->seat - 27;
        /* seasons (the bonus tiles 0-3), then flowers (4-7) */
        for (int k = 0; k < 2; k++) {
            unsigned four = 15u << (4 * k);
            int full = (h->flowers & four) == four;
            if (full) {
                short u = (short)(HU_FULL + k);
                ht_add(t, k ? H_FOUR_FLOWERS : H_FOUR_SEASONS, &u, 1);
            }
            int own = 4 * k + seat;
            if ((h->flowers >> own & 1) && !(full && o->bouquet_includes_own)) {
                short u = (short)(HU_TILE + NK + own);
                ht_add(t, k ? H_OWN_FLOWER : H_OWN_SEASON, &u, 1);
            }
        }
    }
    ht_exclusions(t);
}

/* ---- reading the arguments --------------------------------------------- */

/* an exact int in [lo, hi]: 1 read, 0 not */
static int
hk_int(PyObject *o, long long lo, long long hi, long long *out)
{
    if (o == NULL || !PyLong_CheckExact(o))
        return 0;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (overflow || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* 1 read, 0 not, -1 error */
static int
hk_read_opts(PyObject *opts, HOpts *o)
{
    if (!PyDict_CheckExact(opts))
        return 0;
    PyObject *names[11] = {hs_min_fan,
                           hs_cap,
                           hs_half_spicy,
                           hs_small_four_winds,
                           hs_unit,
                           hs_self_draw_concealed,
                           hs_bonus_counts_to_min,
                           hs_bouquet_includes_own,
                           hs_seven_pairs_four_kind,
                           hs_nine_gates,
                           NULL};
    PyObject *v[10];
    for (int i = 0; i < 10; i++) {
        v[i] = PyDict_GetItemWithError(opts, names[i]);
        if (v[i] == NULL)
            return PyErr_Occurred() ? -1 : 0;
    }
    if (!hk_int(v[0], -1000000000LL, 1000000000LL, &o->min_fan) || !hk_int(v[1], 0, 40, &o->cap) ||
        !hk_int(v[4], 0, 1000000, &o->unit))
        return 0;
    int *flags[6] = {&o->half_spicy,          &o->self_draw_concealed,
                     &o->bonus_counts_to_min, &o->bouquet_includes_own,
                     &o->seven_pairs_four_kind, NULL};
    int at[5] = {2, 5, 6, 7, 8};
    for (int i = 0; i < 5; i++) {
        PyObject *x = v[at[i]];
        if (x != Py_True && x != Py_False)
            return 0;
        *flags[i] = x == Py_True;
    }
    PyObject *x = v[3];
    if (PyUnicode_CheckExact(x)) {
        if (PyUnicode_Compare(x, hs_limit) != 0)
            return 0;
        o->sfw_limit = 1;
        o->sfw_value = 0;
    }
    else if (hk_int(x, -1000000, 1000000, &o->sfw_value))
        o->sfw_limit = 0;
    else
        return 0;
    x = v[9];
    if (!PyUnicode_CheckExact(x))
        return 0;
    if (PyUnicode_Compare(x, hs_pure) == 0)
        o->nine_gates_pure = 1;
    else if (PyUnicode_Compare(x, hs_any) == 0)
        o->nine_gates_pure = 0;
    else
        return 0;
    return 1;
}

/* an attribute that must be an exact int in [lo, hi] (or None, read as
 * -1, where none_ok): 1 read, 0 not, -1 error */
static int
hk_int_attr(PyObject *o, PyObject *name, long long lo, long long hi, int none_ok, int *out)
{
    PyObject *v = ft_attr(o, name);
    if (v == NULL)
        return -1;
    long long x;
    int r = 1;
    if (v == Py_None && none_ok)
        *out = -1;
    else if (hk_int(v, lo, hi, &x))
        *out = (int)x;
    else
        r = 0;
    Py_DECREF(v);
    return r;
}

/* the hand (a validated Hand as hefen.hk scores it): 1 read, 0 not, -1
 * error */
static int
hk_read_hand(PyObject *hand, HHand *h)
{
    int r = 0;
    PyObject *conc = NULL, *melds = NULL, *wt = NULL, *fl = NULL, *ctx = NULL, *v = NULL;
    if ((conc = ft_attr(hand, s_concealed)) == NULL || (melds = ft_attr(hand, s_melds)) == NULL ||
        (wt = ft_attr(hand, s_win_tile)) == NULL || (fl = ft_attr(hand, hs_flowers)) == NULL ||
        (ctx = ft_attr(hand, s_context)) == NULL)
        goto error;
    if (!PyTuple_CheckExact(conc) || !PyTuple_CheckExact(melds) || !PyTuple_CheckExact(fl) ||
        !m_tile_of(wt, &h->win))
        goto out;
    Py_ssize_t nm = PyTuple_GET_SIZE(melds), nconc = PyTuple_GET_SIZE(conc);
    if (nm > 4 || nconc + 3 * nm != 13)
        goto out;
    memset(h->c13, 0, sizeof h->c13);
    for (Py_ssize_t i = 0; i < nconc; i++) {
        int x;
        if (!m_tile_of(PyTuple_GET_ITEM(conc, i), &x))
            goto out;
        h->c13[x]++;
    }
    int *all = h->all;
    memcpy(all, h->c13, sizeof h->all);
    h->n_melds = (int)nm;
    h->n_kongs = 0;
    h->concealed = 1;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        if ((PyObject *)Py_TYPE(m) != hk_meld_type)
            goto out;
        PyObject *kind = ft_attr(m, s_kind);
        if (kind == NULL)
            goto error;
        int k = -1;
        if (PyUnicode_CheckExact(kind)) {
            if (PyUnicode_Compare(kind, kind_chow) == 0)
                k = GK_CHOW;
            else if (PyUnicode_Compare(kind, kind_pung) == 0)
                k = GK_PUNG;
            else if (PyUnicode_Compare(kind, kind_kong) == 0)
                k = GK_KONG;
        }
        Py_DECREF(kind);
        if (k < 0)
            goto out;
        PyObject *mt = ft_attr(m, s_tiles);
        if (mt == NULL)
            goto error;
        Py_ssize_t n = PyTuple_CheckExact(mt) ? PyTuple_GET_SIZE(mt) : -1;
        int ts[4], ok = n == (k == GK_KONG ? 4 : 3);
        for (Py_ssize_t j = 0; ok && j < n; j++)
            ok = m_tile_of(PyTuple_GET_ITEM(mt, j), &ts[j]);
        Py_DECREF(mt);
        if (ok && k == GK_CHOW)
            ok = ts[0] < 27 && ts[0] % 9 <= 6 && ts[1] == ts[0] + 1 && ts[2] == ts[0] + 2;
        else if (ok)
            for (Py_ssize_t j = 1; j < n; j++)
                ok = ok && ts[j] == ts[0];
        if (!ok)
            goto out;
        int cc = m_bool_attr(m, s_concealed);
        if (cc == -2)
            goto error;
        if (cc < 0 || (cc && k != GK_KONG))
            goto out;
        for (Py_ssize_t j = 0; j < n; j++)
            all[ts[j]]++;
        h->n_kongs += k == GK_KONG;
        h->concealed = h->concealed && cc;
        MGroup g = {k, ts[0], cc, 1};
        h->melds[i] = g;
    }
    memcpy(h->c14, h->c13, sizeof h->c14);
    h->c14[h->win]++;
    all[h->win]++;
    for (int x = 0; x < NK; x++)
        if (all[x] > 4)
            goto out;
    h->flowers = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fl); i++) {
        long long x;
        if (!hk_int(PyTuple_GET_ITEM(fl, i), NK, NK + 7, &x))
            goto out;
        h->flowers |= 1u << (x - NK);
    }
    /* the context */
    v = ft_attr(ctx, s_win);
    if (v == NULL)
        goto error;
    if (!PyUnicode_CheckExact(v))
        goto out;
    if (PyUnicode_Compare(v, s_self_draw) == 0)
        h->self_drawn = 1;
    else if (PyUnicode_Compare(v, s_discard) == 0)
        h->self_drawn = 0;
    else
        goto out;
    Py_CLEAR(v);
    PyObject *bools[8] = {s_ltw, s_kr, s_dkr, s_rk, hs_heavenly, hs_earthly, hs_human, NULL};
    int *slots[7] = {&h->ltw, &h->kr, &h->dkr, &h->rk, &h->heavenly, &h->earthly, NULL};
    int human = 0;
    slots[6] = &human;
    for (int i = 0; i < 7; i++) {
        int b = m_bool_attr(ctx, bools[i]);
        if (b == -2)
            goto error;
        if (b < 0)
            goto out;
        *slots[i] = b;
    }
    /* what _check_context refuses: the Python says so */
    if (human || (h->earthly && h->self_drawn))
        goto out;
    v = ft_attr(ctx, hs_declared_ready);
    if (v == NULL)
        goto error;
    if (v != Py_None)
        goto out;
    Py_CLEAR(v);
    PyObject *ints[5] = {s_seat, s_round, hs_dealer, hs_discarder, hs_dealer_streak};
    int *islots[5] = {&h->seat, &h->round, &h->dealer, &h->discarder, &h->streak};
    for (int i = 0; i < 5; i++) {
        int rr = hk_int_attr(ctx, ints[i], i < 4 ? 27 : 0, i < 4 ? 30 : 100, i == 3, islots[i]);
        if (rr < 0)
            goto error;
        if (rr == 0)
            goto out;
    }
    r = 1;
    goto out;
error:
    /* an attribute the Python reads differently: it answers */
    PyErr_Clear();
    r = 0;
out:
    Py_XDECREF(v);
    Py_XDECREF(conc);
    Py_XDECREF(melds);
    Py_XDECREF(wt);
    Py_XDECREF(fl);
    Py_XDECREF(ctx);
    return r;
}

/* ---- the readings and the Result ---------------------------------------- */

static PyObject *
hk_hit(int k, int p, long long value, const HTally *t)
{
    PyObject *f[6] = {PyTuple_GET_ITEM(hk_ids, p), PyTuple_GET_ITEM(hk_names_en, p),
                      PyLong_FromLongLong(value), PyLong_FromLong(t->count[p]),
                      PyTuple_New(t->nuses[p]), PyDict_Copy(PyTuple_GET_ITEM(hk_names, p))};
    PyObject *h = NULL;
    if (f[2] && f[3] && f[4] && f[5]) {
        for (int u = 0; u < t->nuses[p]; u++) {
            PyObject *s = hu_obj[t->uses[p][u]];
            Py_INCREF(s);
            PyTuple_SET_ITEM(f[4], u, s);
        }
        h = ft_make(k, f, 6);
    }
    for (int r = 2; r < 6; r++)
        Py_XDECREF(f[r]);
    return h;
}

/* hefen.hk.multiplier */
static long long
hk_multiplier(long long fan, int half_spicy)
{
    if (!half_spicy || fan <= 4)
        return 1LL << fan;
    long long extra = fan - 4, value = 16LL << (extra / 2);
    return extra % 2 ? value * 3 / 2 : value;
}

/* _result (with RULESET.settle_hand) of the best reading */
static PyObject *
hk_result(const HHand *h, const HOpts *o, const HTally *t, const long long *value,
          unsigned long long limit_mask)
{
    int kr = ft_find(hk_result_type), kp = ft_find(hk_payment_type), kh = ft_find(hk_hit_type);
    if (kr < 0 || kp < 0 || kh < 0)
        Py_RETURN_NONE;
    PyObject *res = NULL, *hits = NULL, *payments = NULL, *notes = NULL, *total_o = NULL, *s;
    unsigned long long limits = 0;
    int nlim = 0, n = 0;
    for (unsigned long long m = t->on; m; m &= m - 1) {
        int p = m_ctz64(m);
        n++;
        if (limit_mask >> p & 1) {
            limits |= 1ULL << p;
            nlim++;
        }
    }
    notes = PyList_New(0);
    if (notes == NULL)
        return NULL;
    long long fan;
    int winning;
    if (nlim) {
        hits = PyTuple_New(nlim);
        if (hits == NULL)
            goto done;
        int q = 0;
        for (unsigned long long m = limits; m; m &= m - 1) {
            int p = m_ctz64(m);
            PyObject *hit = hk_hit(kh, p, q ? 0 : o->cap, t);
            if (hit == NULL)
                goto done;
            PyTuple_SET_ITEM(hits, q++, hit);
        }
        if (nlim > 1) {
            PyObject *names = PyList_New(0);
            if (names == NULL)
                goto done;
            for (unsigned long long m = limits & (limits - 1); m; m &= m - 1)
                if (PyList_Append(names, PyTuple_GET_ITEM(hk_names_en, m_ctz64(m))) < 0) {
                    Py_DECREF(names);
                    goto done;
                }
            PyObject *sep = PyUnicode_FromString(", ");
            PyObject *joined = sep ? PyUnicode_Join(sep, names) : NULL;
            Py_XDECREF(sep);
            Py_DECREF(names);
            if (joined == NULL)
                goto done;
            s = PyUnicode_FromFormat("A limit hand scores the cap once: %U not added.", joined);
            Py_DECREF(joined);
            if (s == NULL || PyList_Append(notes, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
        fan = o->cap;
        winning = 1;
    }
    else {
        hits = PyTuple_New(n);
        if (hits == NULL)
            goto done;
        int q = 0;
        for (unsigned long long m = t->on; m; m &= m - 1) {
            int p = m_ctz64(m);
            PyObject *hit = hk_hit(kh, p, value[p], t);
            if (hit == NULL)
                goto done;
            PyTuple_SET_ITEM(hits, q++, hit);
        }
        long long raw = ht_fan(t, value, 0);
        fan = raw < o->cap ? raw : o->cap;
        if (raw > o->cap) {
            s = PyUnicode_FromFormat("%lld fan is capped at %lld.", raw, o->cap);
            if (s == NULL || PyList_Append(notes, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
        long long to_min = o->bonus_counts_to_min ? raw : ht_fan(t, value, 1);
        winning = to_min >= o->min_fan;
        if (!winning) {
            s = PyUnicode_FromFormat("%lld %s is below the table minimum of %lld.", to_min,
                                     o->bonus_counts_to_min ? "fan" : "fan without flowers",
                                     o->min_fan);
            if (s == NULL || PyList_Append(notes, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
    }
    if (winning) {
        int winner = h->seat - 27, discarder = -1;
        if (!h->self_drawn) {
            if (h->discarder < 0) {
                discarder = (winner + 1) % 4;
                if (PyList_Append(notes, PyTuple_GET_ITEM(hk_next_notes, winner)) < 0)
                    goto done;
            }
            else {
                discarder = h->discarder - 27;
                if (discarder == winner) { /* settle's refusal: the Python says it */
                    res = Py_None;
                    Py_INCREF(res);
                    goto done;
                }
            }
        }
        long long amount = o->unit * hk_multiplier(fan < o->cap ? fan : o->cap, o->half_spicy);
        PyObject *amount_o = PyLong_FromLongLong(discarder >= 0 ? amount : (amount + 1) / 2);
        if (amount_o == NULL)
            goto done;
        payments = PyTuple_New(discarder >= 0 ? 1 : 3);
        if (payments == NULL) {
            Py_DECREF(amount_o);
            goto done;
        }
        int q = 0;
        for (int p = 0; p < 4; p++) {
            if (p == winner || (discarder >= 0 && p != discarder))
                continue;
            PyObject *f[3] = {PyTuple_GET_ITEM(hk_seats, p), PyTuple_GET_ITEM(hk_seats, winner),
                              amount_o};
            PyObject *pay = ft_make(kp, f, 3);
            if (pay == NULL) {
                Py_DECREF(amount_o);
                goto done;
            }
            PyTuple_SET_ITEM(payments, q++, pay);
        }
        Py_DECREF(amount_o);
        if (discarder < 0 && amount % 2) {
            s = PyUnicode_FromFormat("Half of %lld is rounded up to %lld.", amount,
                                     (amount + 1) / 2);
            if (s == NULL || PyList_Append(notes, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
    }
    else {
        payments = PyTuple_New(0);
        if (payments == NULL)
            goto done;
    }
    total_o = PyLong_FromLongLong(fan);
    PyObject *nt = PyList_AsTuple(notes);
    if (total_o == NULL || nt == NULL) {
        Py_XDECREF(nt);
        goto done;
    }
    PyObject *f[10] = {hk_rules_s, Py_True,  winning ? Py_True : Py_False,
                       total_o,    hk_unit_s, nlim ? Py_True : Py_False,
                       hits,       payments,  Py_None,
                       nt};
    res = ft_make(kr, f, 10);
    Py_DECREF(nt);
done:
    Py_XDECREF(hits);
    Py_XDECREF(payments);
    Py_XDECREF(notes);
    Py_XDECREF(total_o);
    return res;
}

/* keep t (the reading just read) when it beats the best so far: the first
 * of the highest (limit, fan), as max() with Tally.key */
#define HK_KEEP()                                                              \
    do {                                                                       \
        HTally *t_ = &T[cur];                                                  \
        overflow |= t_->overflow;                                              \
        int lim_ = (t_->on & limit_mask) != 0;                                 \
        long long f_ = ht_fan(t_, value, 0);                                   \
        if (best < 0 || lim_ > best_lim || (lim_ == best_lim && f_ > best_f)) { \
            best = cur;                                                        \
            best_lim = lim_;                                                   \
            best_f = f_;                                                       \
            cur = 1 - cur;                                                     \
        }                                                                      \
    } while (0)

/* the readings of a read hand and the Result of the best: the Result,
 * False (none completes it) or None */
static PyObject *
hk_run(const HHand *h, const HOpts *o)
{
    long long value[HK_MAX];
    unsigned long long limit_mask = 0;
    for (int p = 0; p < hk_n; p++) {
        value[p] = hk_value[p];
        if (hk_limit[p])
            limit_mask |= 1ULL << p;
    }
    /* a 6-fan Small Four Winds (t.values) */
    int sfw = hk_id[H_SMALL_FOUR_WINDS];
    if (!o->sfw_limit) {
        value[sfw] = o->sfw_value;
        limit_mask &= ~(1ULL << sfw);
    }
    HTally T[2];
    memset(T, 0, sizeof T);
    MDecs D;
    int cur = 0, best = -1, best_lim = 0, overflow = 0;
    long long best_f = 0;
    int win = h->win, discard = !h->self_drawn, need = 4 - h->n_melds;
    m_decompositions(h->c14, &D);
    overflow |= D.overflow;
    for (int d = 0; d < D.n && !overflow; d++) {
        if (D.nsets[d] != need)
            continue;
        MGroup own[4];
        int pair = D.pair[d];
        for (int i = 0; i < need; i++) {
            MGroup g = {D.kind[d][i] == PUNG ? GK_PUNG : GK_CHOW, D.tile[d][i], 1, 0};
            own[i] = g;
        }
        /* the places the winning tile can take: the pair (-1), each set
         * holding it that is not the same as one before */
        int places[5], np = 0;
        if (pair == win)
            places[np++] = -1;
        for (int i = 0; i < need; i++) {
            const MGroup *g = &own[i];
            int holds = g->kind == GK_CHOW ? (win >= g->tile && win <= g->tile + 2) : win == g->tile;
            if (!holds)
                continue;
            int seen = 0;
            for (int j = 0; j < np && !seen; j++)
                seen = places[j] >= 0 && own[places[j]].kind == g->kind &&
                       own[places[j]].tile == g->tile;
            if (!seen)
                places[np++] = i;
        }
        for (int k = 0; k < np; k++) {
            MGroup sets[4];
            for (int i = 0; i < h->n_melds; i++)
                sets[i] = h->melds[i];
            for (int i = 0; i < need; i++) {
                sets[h->n_melds + i] = own[i];
                if (i == places[k] && discard && own[i].kind == GK_PUNG)
                    sets[h->n_melds + i].concealed = 0;
            }
            ht_init(&T[cur]);
            hk_read_standard(h, o, sets, pair, &T[cur]);
            hk_finish(h, o, &T[cur]);
            HK_KEEP();
        }
    }
    if (!h->n_melds && !overflow) {
        const int *c = h->c14;
        int sp = total(c) == 14;
        for (int x = 0; x < NK && sp; x++)
            sp = c[x] == 0 || c[x] == 2 || (c[x] == 4 && o->seven_pairs_four_kind);
        if (sp) {
            ht_init(&T[cur]);
            ht_add(&T[cur], H_SEVEN_PAIRS, NULL, 0);
            hk_tile_patterns(h, &T[cur]);
            hk_finish(h, o, &T[cur]);
            HK_KEEP();
        }
        if (thirteen_orphans(c)) {
            ht_init(&T[cur]);
            ht_add(&T[cur], H_THIRTEEN_ORPHANS, NULL, 0);
            hk_finish(h, o, &T[cur]);
            HK_KEEP();
        }
    }
    if (overflow)
        Py_RETURN_NONE;
    if (best < 0)
        Py_RETURN_FALSE;
    return hk_result(h, o, &T[best], value, limit_mask);
}
#undef HK_KEEP

static PyObject *
py_hk_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !hk_ready)
        Py_RETURN_NONE;
    HOpts o;
    HHand h;
    int r = hk_read_opts(args[1], &o);
    if (r == 1)
        r = hk_read_hand(args[0], &h);
    if (r < 0)
        return NULL;
    if (r == 0)
        Py_RETURN_NONE;
    return hk_run(&h, &o);
}

/* _set_hk(ids, values, excludes, bonus, names_en, names, labels, codes,
 *         full_sets, seats, next_seat_notes, meld_type, hit_type,
 *         payment_type, result_type, rules, unit):
 * ids: the pattern ids in the table's order; values: their fan (None: a
 * limit); excludes: per pattern the indices of those it excludes; bonus:
 * per pattern whether its group is "bonus"; names_en, names: each pattern's
 * name and names; labels: the 4 * 34 * 3 set labels (chow, pung, kong,
 * pair; from the hand, a claimed meld, a concealed meld); codes: the 42
 * tile codes; full_sets: the four seasons' and the four flowers' codes;
 * seats: E S W N; next_seat_notes: the note of a discard win with no
 * discarder, by the winner's seat. */
static PyObject *
py_set_hk(PyObject *self, PyObject *args)
{
    PyObject *ids, *values, *excl, *bonus, *nen, *nall, *labels, *codes, *full, *seats, *notes,
        *mtype, *htype, *ptype, *rtype, *rules, *unit;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!O!O!OOOOUU:_set_hk", &PyTuple_Type, &ids,
                          &PyTuple_Type, &values, &PyTuple_Type, &excl, &PyTuple_Type, &bonus,
                          &PyTuple_Type, &nen, &PyTuple_Type, &nall, &PyTuple_Type, &labels,
                          &PyTuple_Type, &codes, &PyTuple_Type, &full, &PyTuple_Type, &seats,
                          &PyTuple_Type, &notes, &mtype, &htype, &ptype, &rtype, &rules, &unit))
        return NULL;
    hk_ready = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(ids);
    if (n > HK_MAX || PyTuple_GET_SIZE(values) != n || PyTuple_GET_SIZE(excl) != n ||
        PyTuple_GET_SIZE(bonus) != n || PyTuple_GET_SIZE(nen) != n || PyTuple_GET_SIZE(nall) != n ||
        PyTuple_GET_SIZE(labels) != HU_TILE || PyTuple_GET_SIZE(codes) != NK + 8 ||
        PyTuple_GET_SIZE(full) != 2 || PyTuple_GET_SIZE(seats) != 4 ||
        PyTuple_GET_SIZE(notes) != 4 || ft_find(htype) < 0 || ft_find(ptype) < 0 ||
        ft_find(rtype) < 0) {
        PyErr_SetString(PyExc_ValueError, "_set_hk: the table's shape");
        return NULL;
    }
    if (hs_flowers == NULL) {
#define H_STR(var, text)                                  \
    if ((var = PyUnicode_InternFromString(text)) == NULL) \
        return NULL;
        H_STR(hs_flowers, "flowers")
        H_STR(hs_heavenly, "heavenly")
        H_STR(hs_earthly, "earthly")
        H_STR(hs_human, "human")
        H_STR(hs_declared_ready, "declared_ready")
        H_STR(hs_discarder, "discarder")
        H_STR(hs_dealer, "dealer")
        H_STR(hs_dealer_streak, "dealer_streak")
        H_STR(hs_min_fan, "min_fan")
        H_STR(hs_cap, "cap")
        H_STR(hs_half_spicy, "half_spicy")
        H_STR(hs_small_four_winds, "small_four_winds")
        H_STR(hs_unit, "unit")
        H_STR(hs_self_draw_concealed, "self_draw_concealed")
        H_STR(hs_bonus_counts_to_min, "bonus_counts_to_min")
        H_STR(hs_bouquet_includes_own, "bouquet_includes_own")
        H_STR(hs_seven_pairs_four_kind, "seven_pairs_four_kind")
        H_STR(hs_nine_gates, "nine_gates")
        H_STR(hs_limit, "limit")
        H_STR(hs_pure, "pure")
        H_STR(hs_any, "any")
#undef H_STR
    }
    hk_n = (int)n;
    for (int k = 0; k < N_HNAMES; k++)
        hk_id[k] = -1;
    for (int p = 0; p < hk_n; p++) {
        PyObject *id = PyTuple_GET_ITEM(ids, p);
        if (!PyUnicode_Check(id) || !PyDict_Check(PyTuple_GET_ITEM(nall, p)) ||
            !PyUnicode_Check(PyTuple_GET_ITEM(nen, p))) {
            PyErr_SetString(PyExc_ValueError, "_set_hk: ids and names");
            return NULL;
        }
        for (int k = 0; k < N_HNAMES; k++)
            if (PyUnicode_CompareWithASCIIString(id, H_NAMES[k]) == 0)
                hk_id[k] = p;
        PyObject *v = PyTuple_GET_ITEM(values, p);
        hk_limit[p] = v == Py_None;
        hk_value[p] = 0;
        if (v != Py_None) {
            hk_value[p] = PyLong_AsLongLong(v);
            if (hk_value[p] == -1 && PyErr_Occurred())
                return NULL;
        }
        hk_bonus[p] = PyObject_IsTrue(PyTuple_GET_ITEM(bonus, p)) == 1;
        PyObject *e = PyTuple_GET_ITEM(excl, p);
        if (!PyTuple_Check(e)) {
            PyErr_SetString(PyExc_ValueError, "_set_hk: excludes");
            return NULL;
        }
        hk_excl[p] = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e); i++) {
            long q = PyLong_AsLong(PyTuple_GET_ITEM(e, i));
            if (q == -1 && PyErr_Occurred())
                return NULL;
            if (q < 0 || q >= n) {
                PyErr_SetString(PyExc_ValueError, "_set_hk: excludes");
                return NULL;
            }
            hk_excl[p] |= 1ULL << q;
        }
    }
    for (int k = 0; k < N_HNAMES; k++)
        if (hk_id[k] < 0)
            return PyErr_Format(PyExc_ValueError, "_set_hk: no pattern %s", H_NAMES[k]);
    for (int u = 0; u < HU_N; u++) {
        PyObject *s = u < HU_TILE   ? PyTuple_GET_ITEM(labels, u)
                      : u < HU_FULL ? PyTuple_GET_ITEM(codes, u - HU_TILE)
                                    : PyTuple_GET_ITEM(full, u - HU_FULL);
        Py_INCREF(s);
        Py_XSETREF(hu_obj[u], s);
    }
    PyObject *objs[11] = {ids, nen, nall, notes, seats, mtype, htype, ptype, rtype, rules, unit};
    PyObject **slots[11] = {&hk_ids,         &hk_names_en,  &hk_names,        &hk_next_notes,
                            &hk_seats,       &hk_meld_type, &hk_hit_type,     &hk_payment_type,
                            &hk_result_type, &hk_rules_s,   &hk_unit_s};
    for (int i = 0; i < 11; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    hk_ready = 1;
    Py_RETURN_NONE;
}

/* ---- hk_score_dict(obj): hefen.score_uncached(obj) for a well-formed Hong
 * Kong hand object, in one call: the object's fields read as
 * mcr_score_dict reads them (sd_fields, sd_codes, sd_meld, sd_context:
 * exactly what fast_hand, fast_context and rules_pass take), the settings
 * resolved before (hefen.hk's cache of them, by the raw items with their
 * types: a setting not resolved yet is left to the Python) and hk_run.  None
 * wherever any of them would not answer, or no reading completes the hand:
 * the Python path then reads, checks and scores the object. */
static PyObject *hd_rules, *hd_resolved, *hs_declared_ready_key;

#define HC_N 8
#define HC_ITEMS 12
typedef struct {
    int n;
    PyObject *k[HC_ITEMS], *tp[HC_ITEMS], *v[HC_ITEMS], *opts;
    HOpts o;
} HCache;
static HCache hc_cache[HC_N];
static int hc_next;

/* 1 the same raw items (names, exact types, values) as e's, 0 not */
static int
hc_same(const HCache *e, PyObject *raw)
{
    Py_ssize_t n = raw ? PyDict_GET_SIZE(raw) : 0, pos = 0;
    if (e->opts == NULL || e->n != n)
        return 0;
    PyObject *k, *v;
    for (int i = 0; raw && PyDict_Next(raw, &pos, &k, &v); i++) {
        PyTypeObject *tp = Py_TYPE(v);
        if ((PyObject *)tp != e->tp[i])
            return 0;
        if (k != e->k[i] && (!PyUnicode_CheckExact(k) || PyUnicode_Compare(k, e->k[i]) != 0)) {
            PyErr_Clear();
            return 0;
        }
        if (v == e->v[i])
            continue;
        if (tp == &PyUnicode_Type) {
            if (PyUnicode_Compare(v, e->v[i]) != 0)
                return 0;
        }
        else if (tp == &PyLong_Type) {
            if (PyObject_RichCompareBool(v, e->v[i], Py_EQ) != 1) {
                PyErr_Clear();
                return 0;
            }
        }
        else
            return 0; /* bool and None are one object each; a float is not kept */
    }
    return 1;
}

static void
hc_store(PyObject *raw, PyObject *opts, const HOpts *o)
{
    Py_ssize_t n = raw ? PyDict_GET_SIZE(raw) : 0, pos = 0;
    if (n > HC_ITEMS)
        return;
    PyObject *k, *v;
    while (raw && PyDict_Next(raw, &pos, &k, &v))
        if (!PyUnicode_CheckExact(k) || PyFloat_CheckExact(v))
            return;
    HCache *e = &hc_cache[hc_next];
    hc_next = (hc_next + 1) % HC_N;
    for (int i = 0; i < e->n; i++) {
        Py_CLEAR(e->k[i]);
        Py_CLEAR(e->tp[i]);
        Py_CLEAR(e->v[i]);
    }
    Py_CLEAR(e->opts);
    pos = 0;
    for (int i = 0; raw && PyDict_Next(raw, &pos, &k, &v); i++) {
        Py_INCREF(k);
        Py_INCREF(v);
        Py_INCREF(Py_TYPE(v));
        e->k[i] = k;
        e->v[i] = v;
        e->tp[i] = (PyObject *)Py_TYPE(v);
    }
    e->n = (int)n;
    Py_INCREF(opts);
    e->opts = opts;
    e->o = *o;
}

/* the settings of raw (NULL: none given), resolved before, into *o: 1, or 0 */
static int
hd_options(PyObject *raw, HOpts *o)
{
    for (int i = 0; i < HC_N; i++)
        if (hc_same(&hc_cache[i], raw)) {
            *o = hc_cache[i].o;
            return 1;
        }
    /* the key of hefen.hk._resolved: ((name, type, value), ...) */
    Py_ssize_t n = raw ? PyDict_GET_SIZE(raw) : 0, pos = 0, i = 0;
    PyObject *key = PyTuple_New(n), *k, *v, *opts = NULL;
    if (key == NULL)
        goto no;
    while (raw && PyDict_Next(raw, &pos, &k, &v)) {
        PyTypeObject *tp = Py_TYPE(v);
        if (tp != &PyUnicode_Type && tp != &PyLong_Type && tp != &PyBool_Type &&
            tp != &PyFloat_Type && v != Py_None)
            goto no;
        PyObject *item = PyTuple_Pack(3, k, (PyObject *)tp, v);
        if (item == NULL)
            goto no;
        PyTuple_SET_ITEM(key, i++, item);
    }
    opts = PyDict_GetItemWithError(hd_resolved, key);
    if (opts == NULL || hk_read_opts(opts, o) != 1)
        goto no;
    hc_store(raw, opts, o);
    Py_DECREF(key);
    return 1;
no:
    Py_XDECREF(key);
    PyErr_Clear();
    return 0;
}

/* obj into h and o: 1, or 0 */
static int
hd_direct(PyObject *obj, HHand *h, HOpts *o)
{
    PyObject *v, *f[7]; /* rules, hand, melds, win_tile, flowers, context, options */
    if (!PyDict_CheckExact(obj) || !sd_fields(obj, sd_top_index, f, 7))
        goto no;
    v = f[0] ? f[0] : fh_default_rules;
    if (!PyUnicode_CheckExact(v) || PyUnicode_Compare(v, hd_rules) != 0)
        goto no;
    /* the concealed tiles */
    int conc[64], nc;
    v = f[1];
    if (v == NULL || (nc = sd_codes(v, conc, 64)) < 0 || (nc && conc[nc - 1] >= NK))
        goto no;
    /* the melds */
    int nm = 0, mt[4][4], mn[4];
    v = f[2];
    if (v != NULL) {
        if (!PyList_CheckExact(v) || PyList_GET_SIZE(v) > 4)
            goto no;
        nm = (int)PyList_GET_SIZE(v);
        for (int i = 0; i < nm; i++)
            if (!sd_meld(PyList_GET_ITEM(v, i), &h->melds[i], mt[i], &mn[i]))
                goto no;
    }
    /* the winning tile: a tile, not a bonus tile (no flower wins here) */
    v = f[3];
    if (v == NULL || v == Py_None || (h->win = sd_code(v)) < 0 || h->win >= NK)
        goto no;
    /* the flowers: bonus tiles, each once */
    int fl[8], nf = 0;
    v = f[4];
    if (v != NULL) {
        if ((nf = sd_codes(v, fl, 8)) < 0)
            goto no;
        for (int i = 0; i < nf; i++)
            if (fl[i] < NK || (i && fl[i] == fl[i - 1]))
                goto no;
    }
    h->flowers = 0;
    for (int i = 0; i < nf; i++)
        h->flowers |= 1u << (fl[i] - NK);
    /* the context; what hefen.hk's _check_context refuses goes to the Python */
    SdCtx x;
    if (!sd_context(f[5], &x))
        goto no;
    if (f[5] != NULL && f[5] != Py_None) {
        PyObject *dr = PyDict_GetItemWithError(f[5], hs_declared_ready_key);
        if (dr == NULL && PyErr_Occurred())
            goto no;
        if (dr != NULL && dr != Py_None)
            goto no;
    }
    if (x.human || (x.earthly && x.win_sd))
        goto no;
    /* the settings, resolved before */
    v = f[6];
    if (v != NULL && v != Py_None && !PyDict_CheckExact(v))
        goto no;
    if (!hd_options(v != NULL && v != Py_None ? v : NULL, o))
        goto no;
    /* the rules of the hand (Hand._check_rules, as rules_pass) */
    if (nc + 3 * nm != 13)
        goto no;
    memset(h->c13, 0, sizeof h->c13);
    for (int i = 0; i < nc; i++)
        h->c13[conc[i]]++;
    int *all = h->all, in_melds = 0, n_exposed = 0;
    memcpy(all, h->c13, sizeof h->all);
    h->n_melds = nm;
    h->n_kongs = 0;
    h->concealed = 1;
    for (int i = 0; i < nm; i++) {
        int hits = 0;
        for (int j = 0; j < mn[i]; j++) {
            all[mt[i][j]]++;
            hits += mt[i][j] == h->win;
        }
        in_melds |= hits > 0;
        h->n_kongs += h->melds[i].kind == GK_KONG;
        n_exposed += !h->melds[i].concealed;
        h->concealed = h->concealed && h->melds[i].concealed;
    }
    all[h->win]++;
    for (int t = 0; t < NK; t++)
        if (all[t] > 4)
            goto no;
    int sd = x.win_sd, in_conc = h->c13[h->win] > 0, is_dealer = x.seat == x.dealer;
    if ((x.rk && sd) || (x.kr && (!sd || h->n_kongs == 0)) ||
        (x.dkr && (!sd || h->n_kongs < 2)) || (x.heavenly && (!sd || nm || !is_dealer)) ||
        ((x.earthly || x.human) && (is_dealer || n_exposed)) ||
        (x.heavenly && (x.earthly || x.human)) ||
        (x.discarder >= 0 && (sd || x.discarder == x.seat)) || (x.rk && (in_conc || in_melds)) ||
        (x.lok && in_conc))
        goto no;
    memcpy(h->c14, h->c13, sizeof h->c14);
    h->c14[h->win]++;
    h->self_drawn = sd;
    h->seat = x.seat;
    h->round = x.round;
    h->dealer = x.dealer;
    h->streak = x.streak;
    h->discarder = x.discarder;
    h->heavenly = x.heavenly;
    h->earthly = x.earthly;
    h->ltw = x.ltw;
    h->kr = x.kr;
    h->dkr = x.dkr;
    h->rk = x.rk;
    return 1;
no:
    PyErr_Clear();
    return 0;
}

static PyObject *
py_hk_score_dict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || !hk_ready || hd_rules == NULL || sd_top_index == NULL ||
        sd_meld_index == NULL || sd_ctx_index == NULL || fh_parse == NULL || fc_ready == NULL)
        Py_RETURN_NONE;
    HHand h;
    HOpts o;
    if (!hd_direct(args[0], &h, &o))
        Py_RETURN_NONE;
    PyObject *res = hk_run(&h, &o);
    if (res == NULL || res == Py_False) {
        PyErr_Clear();
        Py_XDECREF(res);
        Py_RETURN_NONE;
    }
    return res;
}

/* _set_hk_score_dict(rules, resolved): after _set_mcr_score_dict (whose
 * tables of the keys and codes it reads) and _set_hk */
static PyObject *
py_set_hk_score_dict(PyObject *self, PyObject *args)
{
    PyObject *rules, *resolved;
    if (!PyArg_ParseTuple(args, "UO!:_set_hk_score_dict", &rules, &PyDict_Type, &resolved))
        return NULL;
    if (!hk_ready || sd_top_index == NULL || sd_meld_index == NULL || sd_ctx_index == NULL ||
        fh_parse == NULL || fc_ready == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "_set_hk_score_dict: _set_hk and _set_mcr_score_dict first");
        return NULL;
    }
    if (hs_declared_ready_key == NULL &&
        (hs_declared_ready_key = PyUnicode_InternFromString("declared_ready")) == NULL)
        return NULL;
    for (int i = 0; i < HC_N; i++) {
        HCache *e = &hc_cache[i];
        for (int j = 0; j < e->n; j++) {
            Py_CLEAR(e->k[j]);
            Py_CLEAR(e->tp[j]);
            Py_CLEAR(e->v[j]);
        }
        e->n = 0;
        Py_CLEAR(e->opts);
    }
    Py_INCREF(rules);
    Py_XSETREF(hd_rules, rules);
    Py_INCREF(resolved);
    Py_XSETREF(hd_resolved, resolved);
    Py_RETURN_NONE;
}
