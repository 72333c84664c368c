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

#include <stdarg.h>

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

/* the settings tw_score reads */
typedef struct {
    long long base, per_tai, flower_kong, concealed_self_draw, dealer_repeat_tai;
    int human_hand, all_chows_self_draw, all_chows_with_flowers, s3d_pungs, b3d_pungs,
        s4w_winds, b4w_winds, flower_kong_includes_own, timing_includes_win;
} WOpts;

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

/* Tally.add of the pattern at index p of its table */
static void
ht_add_p(HTally *t, int p, const short *u, int nu)
{
    if (!(t->on >> p & 1)) { /* a pattern not in the tally starts from nothing */
        t->count[p] = 0;
        t->nuses[p] = 0;
        t->on |= 1ULL << p;
    }
    t->count[p] += 1;
    for (int i = 0; i < nu; i++) {
        if (t->nuses[p] >= HK_MU) {
            t->overflow = 1;
            return;
        }
        t->uses[p][t->nuses[p]++] = u[i];
    }
}

static void
ht_add(HTally *t, int h, const short *u, int nu)
{
    ht_add_p(t, hk_id[h], u, nu);
}

/* an empty tally (the counts and uses of a pattern are read only while its
 * bit is on, and reset when it is first added) */
static void
ht_init(HTally *t)
{
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
ht_exclude(HTally *t, int n, const unsigned long long *excl)
{
    for (int p = 0; p < n; p++) {
        if (!(t->on >> p & 1))
            continue;
        unsigned long long ex = excl[p] & t->on;
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
    ht_exclude(t, hk_n, hk_excl);
}

/* ---- reading the arguments --------------------------------------------- */

/* a note's text (ASCII, short) as a str: snprintf's formats, cheaper than
 * PyUnicode_FromFormat's */
static PyObject *
hk_text(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof buf) {
        PyErr_SetString(PyExc_ValueError, "a note too long");
        return NULL;
    }
    return PyUnicode_FromStringAndSize(buf, n);
}

/* the notes made most often, kept once made (a str is immutable: the same
 * text as the Python's f-string, shared): the table minimum's by (flowers
 * counted, fan, minimum), the cap's by (fan, cap), the dealer's extra by
 * (dealer, streak) for one tai per repeat */
static PyObject *hk_min_notes[2][64][64], *hk_cap_notes[128][41], *tw_dealer_notes[4][101];
static long long tw_dealer_drt[4][101];

static PyObject *
hk_min_note(long long to_min, int with_flowers, long long min_fan)
{
    int kept = to_min >= 0 && to_min < 64 && min_fan >= 0 && min_fan < 64;
    PyObject **slot = kept ? &hk_min_notes[with_flowers][to_min][min_fan] : NULL;
    if (slot && *slot) {
        Py_INCREF(*slot);
        return *slot;
    }
    PyObject *s = hk_text("%lld %s is below the table minimum of %lld.", to_min,
                          with_flowers ? "fan" : "fan without flowers", min_fan);
    if (slot && s) {
        Py_INCREF(s);
        *slot = s;
    }
    return s;
}

static PyObject *
hk_cap_note(long long raw, long long cap)
{
    int kept = raw >= 0 && raw < 128 && cap >= 0 && cap <= 40;
    PyObject **slot = kept ? &hk_cap_notes[raw][cap] : NULL;
    if (slot && *slot) {
        Py_INCREF(*slot);
        return *slot;
    }
    PyObject *s = hk_text("%lld fan is capped at %lld.", raw, cap);
    if (slot && s) {
        Py_INCREF(s);
        *slot = s;
    }
    return s;
}

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
        int k, ts[4], cc;
        Py_ssize_t n;
        int got = m_read_meld(m, hk_meld_type, &k, ts, &n, &cc);
        if (got < 0)
            goto error;
        if (got == 0)
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

/* PatternHit(id, name, value, count, uses, dict(names)) of the pattern at p
 * of a table (its ids, names, names dicts and use strings) */
static PyObject *
hk_hit_of(int k, PyObject *ids, PyObject *names_en, PyObject *names, PyObject *const *uobj, int p,
          long long value, const HTally *t)
{
    PyObject *f[6] = {PyTuple_GET_ITEM(ids, p), PyTuple_GET_ITEM(names_en, p),
                      PyLong_FromLongLong(value), PyLong_FromLong(t->count[p]),
                      PyTuple_New(t->nuses[p]), Py_NewRef(PyTuple_GET_ITEM(names, p))};
    PyObject *h = NULL;
    if (f[2] && f[3] && f[4] && f[5]) {
        for (int u = 0; u < t->nuses[p]; u++) {
            PyObject *s = uobj[t->uses[p][u]];
            Py_INCREF(s);
            PyTuple_SET_ITEM(f[4], u, s);
        }
        h = ft_make(k, f, 6);
    }
    for (int r = 2; r < 6; r++)
        Py_XDECREF(f[r]);
    return h;
}

static PyObject *
hk_hit(int k, int p, long long value, const HTally *t)
{
    return hk_hit_of(k, hk_ids, hk_names_en, hk_names, hu_obj, p, value, t);
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
            s = hk_cap_note(raw, o->cap);
            if (s == NULL || PyList_Append(notes, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
        }
        long long to_min = o->bonus_counts_to_min ? raw : ht_fan(t, value, 1);
        winning = to_min >= o->min_fan;
        if (!winning) {
            s = hk_min_note(to_min, o->bonus_counts_to_min, o->min_fan);
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
            s = hk_text("Half of %lld is rounded up to %lld.", amount,
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
    ht_init(&T[0]);
    ht_init(&T[1]);
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

/* the per-pattern part of a table handed to _set_hk or _set_tw (who): for
 * each of the n patterns its id (a str; id_of[k] the index of names[k]),
 * its value (None: a limit, then value 0 and limit[p] 1 where limit is
 * given), the indices of the patterns it excludes (a bit each in excl) and
 * its names (a str and a dict).  0 done, -1 error (ValueError named for who) */
static int
hk_load_patterns(const char *who, PyObject *ids, PyObject *values, PyObject *excludes,
                 PyObject *names_en, PyObject *names_all, const char *const names[], int n_names,
                 int id_of[], long long value[], char limit[], unsigned long long excl[])
{
    Py_ssize_t n = PyTuple_GET_SIZE(ids);
    for (int k = 0; k < n_names; k++)
        id_of[k] = -1;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *id = PyTuple_GET_ITEM(ids, p);
        if (!PyUnicode_Check(id) || !PyMapping_Check(PyTuple_GET_ITEM(names_all, p)) ||
            !PyUnicode_Check(PyTuple_GET_ITEM(names_en, p))) {
            PyErr_Format(PyExc_ValueError, "%s: ids and names", who);
            return -1;
        }
        for (int k = 0; k < n_names; k++)
            if (PyUnicode_CompareWithASCIIString(id, names[k]) == 0)
                id_of[k] = (int)p;
        PyObject *v = PyTuple_GET_ITEM(values, p);
        if (limit != NULL)
            limit[p] = v == Py_None;
        value[p] = 0;
        if (v != Py_None) {
            value[p] = PyLong_AsLongLong(v);
            if (value[p] == -1 && PyErr_Occurred())
                return -1;
        }
        PyObject *e = PyTuple_GET_ITEM(excludes, p);
        if (!PyTuple_Check(e)) {
            PyErr_Format(PyExc_ValueError, "%s: excludes", who);
            return -1;
        }
        excl[p] = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e); i++) {
            long q = PyLong_AsLong(PyTuple_GET_ITEM(e, i));
            if (q == -1 && PyErr_Occurred())
                return -1;
            if (q < 0 || q >= n) {
                PyErr_Format(PyExc_ValueError, "%s: excludes", who);
                return -1;
            }
            excl[p] |= 1ULL << q;
        }
    }
    for (int k = 0; k < n_names; k++)
        if (id_of[k] < 0) {
            PyErr_Format(PyExc_ValueError, "%s: no pattern %s", who, names[k]);
            return -1;
        }
    return 0;
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
    if (hk_load_patterns("_set_hk", ids, values, excl, nen, nall, H_NAMES, N_HNAMES, hk_id,
                         hk_value, hk_limit, hk_excl) < 0)
        return NULL;
    for (int p = 0; p < hk_n; p++)
        hk_bonus[p] = PyObject_IsTrue(PyTuple_GET_ITEM(bonus, p)) == 1;
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
    int n, which; /* which: 0 Hong Kong's settings, 1 Taiwanese */
    PyObject *k[HC_ITEMS], *tp[HC_ITEMS], *v[HC_ITEMS], *opts;
    HOpts o;
    WOpts wo;
} HCache;
static HCache hc_cache[HC_N];
static int hc_next;

/* 1 the same raw items (names, exact types, values) as e's, 0 not */
static int
hc_same(const HCache *e, PyObject *raw, int which)
{
    Py_ssize_t n = raw ? PyDict_GET_SIZE(raw) : 0, pos = 0;
    if (e->opts == NULL || e->n != n || e->which != which)
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
hc_store(PyObject *raw, PyObject *opts, int which, const HOpts *o, const WOpts *wo)
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
    e->which = which;
    if (o)
        e->o = *o;
    if (wo)
        e->wo = *wo;
}

static int tw_read_opts(PyObject *opts, WOpts *o);

/* the settings of raw (NULL: none given), resolved before (in resolved: the
 * ruleset module's cache), into *o (Hong Kong's) or *wo (Taiwanese): 1, or 0 */
static int
hd_options(PyObject *raw, PyObject *resolved, HOpts *o, WOpts *wo)
{
    int which = wo != NULL;
    for (int i = 0; i < HC_N; i++)
        if (hc_same(&hc_cache[i], raw, which)) {
            if (wo)
                *wo = hc_cache[i].wo;
            else
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
    opts = PyDict_GetItemWithError(resolved, key);
    if (opts == NULL || (wo ? tw_read_opts(opts, wo) : hk_read_opts(opts, o)) != 1)
        goto no;
    hc_store(raw, opts, which, o, wo);
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
    if (!hd_options(v != NULL && v != Py_None ? v : NULL, hd_resolved, o, NULL))
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

/* ==== Taiwanese 16-tile scoring (hefen.tw.score) ==========================
 * tw_score(hand, opts) follows hefen.tw._py_score branch for branch: the
 * waits of the 16 held tiles (standard form), every reading of five sets and
 * a pair (hefen.hk.reading.standard_readings with 5), the four-kong win read
 * from its melds when no reading completes the hand, the flower wins, each
 * reading's patterns with the exclusions as the settings change them, the
 * first reading of the most tai, and its Result (the chicken hand, the
 * settlement of Taiwanese.settle_hand with the dealer's tai, the dealer's
 * patterns or note).  The table comes from hefen.tw (_set_tw); None for
 * what it does not read, False when nothing completes the hand. */

enum {
    W_HEAVENLY_HAND, W_EARTHLY_HAND, W_BIG_FOUR_WINDS, W_ALL_HONORS, W_TIAN_TING, W_HUMAN_HAND,
    W_DI_TING, W_EIGHT_FLOWERS, W_SEVEN_ROB_ONE, W_SMALL_FOUR_WINDS, W_BIG_THREE_DRAGONS,
    W_FULL_FLUSH, W_FIVE_CONCEALED_PUNGS, W_FOUR_KONGS, W_FOUR_CONCEALED_PUNGS, W_ALL_PUNGS,
    W_HALF_FLUSH, W_SMALL_THREE_DRAGONS, W_CONCEALED_SELF_DRAWN, W_ALL_CHOWS,
    W_THREE_CONCEALED_PUNGS, W_ALL_CLAIMED, W_FLOWER_KONG, W_SELF_DRAWN, W_CONCEALED_HAND,
    W_SINGLE_WAIT, W_ROUND_WIND, W_SEAT_WIND, W_DRAGON_PUNG, W_OWN_FLOWER, W_LAST_TILE_OF_WALL,
    W_LAST_DISCARD, W_KONG_REPLACEMENT, W_ROBBING_KONG, W_DEALER, W_DEALER_STREAK,
    W_CHICKEN_HAND, N_WNAMES
};

static const char *W_NAMES[N_WNAMES] = {
    "heavenly_hand", "earthly_hand", "big_four_winds", "all_honors", "tian_ting", "human_hand",
    "di_ting", "eight_flowers", "seven_rob_one", "small_four_winds", "big_three_dragons",
    "full_flush", "five_concealed_pungs", "four_kongs", "four_concealed_pungs", "all_pungs",
    "half_flush", "small_three_dragons", "concealed_self_drawn", "all_chows",
    "three_concealed_pungs", "all_claimed", "flower_kong", "self_drawn", "concealed_hand",
    "single_wait", "round_wind", "seat_wind", "dragon_pung", "own_flower", "last_tile_of_wall",
    "last_discard", "kong_replacement", "robbing_kong", "dealer", "dealer_streak",
    "chicken_hand"};

/* the uses: the set labels and tile codes as Hong Kong's (HU_TILE, the 42
 * codes), then the full sets (seasons, flowers) and all eight bonus tiles */
#define WU_FULL (HU_TILE + NK + 8)
#define WU_EIGHT (WU_FULL + 2)
#define WU_N (WU_EIGHT + 1)

static int tw_ready, tw_n;
static int tw_id[N_WNAMES];
static long long tw_value[HK_MAX];
static unsigned long long tw_excl[HK_MAX];
static PyObject *tw_ids, *tw_names_en, *tw_names, *tw_next_notes, *tw_seats, *tw_meld_type,
    *tw_hit_type, *tw_payment_type, *tw_result_type, *tw_rules_s, *tw_unit_s, *tw_note_flower,
    *tw_note_four_kongs, *tw_note_streak;
static PyObject *wu_obj[WU_N];
static PyObject *ws_base, *ws_per_tai, *ws_flower_kong, *ws_human_hand, *ws_acsd, *ws_acwf,
    *ws_csd, *ws_s3d, *ws_b3d, *ws_s4w, *ws_b4w, *ws_fkio, *ws_drt, *ws_tiw, *ws_tian_ting,
    *ws_di_ting;


typedef struct {
    int c16[NK], c17[NK], all[NK], win, flower_win, n_melds, n_kongs, concealed, any_meld_conc;
    MGroup melds[5];
    unsigned flowers;
    int nflowers;
    int self_drawn, seat, round, dealer, streak, discarder;
    int heavenly, earthly, human, ready, ltw, kr, dkr, rk; /* ready: 0 none, 1 tian, 2 di */
    int n_waits, first_wait; /* up to 2 */
} WHand;

/* 1 read, 0 not, -1 error */
static int
tw_read_opts(PyObject *opts, WOpts *o)
{
    if (!PyDict_CheckExact(opts))
        return 0;
    PyObject *names[14] = {ws_base, ws_per_tai, ws_flower_kong, ws_csd,  ws_drt,
                           ws_human_hand, ws_acsd, ws_acwf, ws_s3d, ws_b3d,
                           ws_s4w, ws_b4w, ws_fkio, ws_tiw};
    PyObject *v[14];
    for (int i = 0; i < 14; i++) {
        v[i] = PyDict_GetItemWithError(opts, names[i]);
        if (v[i] == NULL)
            return PyErr_Occurred() ? -1 : 0;
    }
    long long *ints[5] = {&o->base, &o->per_tai, &o->flower_kong, &o->concealed_self_draw,
                          &o->dealer_repeat_tai};
    for (int i = 0; i < 5; i++)
        if (!hk_int(v[i], i == 2 || i == 3 ? -1000000 : 0, 1000000, ints[i]))
            return 0;
    int *flags[9] = {&o->human_hand, &o->all_chows_self_draw, &o->all_chows_with_flowers,
                     &o->s3d_pungs, &o->b3d_pungs, &o->s4w_winds, &o->b4w_winds,
                     &o->flower_kong_includes_own, &o->timing_includes_win};
    for (int i = 0; i < 9; i++) {
        PyObject *x = v[5 + i];
        if (x != Py_True && x != Py_False)
            return 0;
        *flags[i] = x == Py_True;
    }
    return 1;
}

/* the waits of the held tiles (completing_tiles(counts, n_melds,
 * FORMS_STANDARD)): how many, up to 2, and the first */
static void
tw_waits(WHand *h)
{
    int c[NK];
    memcpy(c, h->c16, sizeof c);
    char cand[NK];
    candidates(c, h->n_melds, F_STANDARD, cand);
    StdBase base;
    std_base(c, &base);
    h->n_waits = 0;
    h->first_wait = -1;
    for (int t = 0; t < NK && h->n_waits < 2; t++) {
        if (!cand[t] || c[t] >= 4)
            continue;
        c[t]++;
        if (std_complete_plus(c, &base, t)) {
            if (h->n_waits++ == 0)
                h->first_wait = t;
        }
        c[t]--;
    }
}

/* the hand: 1 read, 0 not, -1 error */
static int
tw_read_hand(PyObject *hand, WHand *h)
{
    int r = 0;
    PyObject *conc = NULL, *melds = NULL, *wt = NULL, *fl = NULL, *ctx = NULL, *v = NULL;
    if ((conc = ft_attr(hand, s_concealed)) == NULL || (melds = ft_attr(hand, s_melds)) == NULL ||
        (wt = ft_attr(hand, s_win_tile)) == NULL || (fl = ft_attr(hand, hs_flowers)) == NULL ||
        (ctx = ft_attr(hand, s_context)) == NULL)
        goto error;
    long long win;
    if (!PyTuple_CheckExact(conc) || !PyTuple_CheckExact(melds) || !PyTuple_CheckExact(fl) ||
        !hk_int(wt, 0, NK + 7, &win))
        goto out;
    h->win = (int)win;
    h->flower_win = h->win >= NK;
    Py_ssize_t nm = PyTuple_GET_SIZE(melds), nconc = PyTuple_GET_SIZE(conc);
    if (nm > 5 || nconc + 3 * nm != 16)
        goto out;
    memset(h->c16, 0, sizeof h->c16);
    for (Py_ssize_t i = 0; i < nconc; i++) {
        int x;
        if (!m_tile_of(PyTuple_GET_ITEM(conc, i), &x))
            goto out;
        h->c16[x]++;
    }
    int *all = h->all;
    memcpy(all, h->c16, sizeof h->all);
    h->n_melds = (int)nm;
    h->n_kongs = 0;
    h->concealed = 1;
    h->any_meld_conc = 0;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        int k, ts[4], cc;
        Py_ssize_t n;
        int got = m_read_meld(m, tw_meld_type, &k, ts, &n, &cc);
        if (got < 0)
            goto error;
        if (got == 0)
            goto out;
        for (Py_ssize_t j = 0; j < n; j++)
            all[ts[j]]++;
        h->n_kongs += k == GK_KONG;
        h->concealed = h->concealed && cc;
        h->any_meld_conc = h->any_meld_conc || cc;
        MGroup g = {k, ts[0], cc, 1};
        h->melds[i] = g;
    }
    memcpy(h->c17, h->c16, sizeof h->c17);
    if (!h->flower_win) {
        h->c17[h->win]++;
        all[h->win]++;
    }
    for (int x = 0; x < NK; x++)
        if (all[x] > 4)
            goto out;
    h->flowers = 0;
    h->nflowers = (int)PyTuple_GET_SIZE(fl);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fl); i++) {
        long long x;
        if (!hk_int(PyTuple_GET_ITEM(fl, i), NK, NK + 7, &x) || (h->flowers >> (x - NK) & 1))
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
    PyObject *bools[7] = {s_ltw, s_kr, s_dkr, s_rk, hs_heavenly, hs_earthly, hs_human};
    int *slots[7] = {&h->ltw, &h->kr, &h->dkr, &h->rk, &h->heavenly, &h->earthly, &h->human};
    for (int i = 0; i < 7; i++) {
        int b = m_bool_attr(ctx, bools[i]);
        if (b == -2)
            goto error;
        if (b < 0)
            goto out;
        *slots[i] = b;
    }
    v = ft_attr(ctx, hs_declared_ready);
    if (v == NULL)
        goto error;
    if (v == Py_None)
        h->ready = 0;
    else if (PyUnicode_CheckExact(v) && PyUnicode_Compare(v, ws_tian_ting) == 0)
        h->ready = 1;
    else if (PyUnicode_CheckExact(v) && PyUnicode_Compare(v, ws_di_ting) == 0)
        h->ready = 2;
    else
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
    /* what _check_context refuses: the Python says so */
    if (h->human && h->self_drawn)
        goto out;
    if (h->ready && (!h->concealed || h->heavenly))
        goto out;
    if (h->flower_win && (h->nflowers != 7 || (h->flowers >> (h->win - NK) & 1) || h->rk ||
                          h->kr || h->dkr))
        goto out;
    r = 1;
    goto out;
error:
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

/* _read: one reading (pair -1: the four-kong win read from its melds;
 * win_in: the set the winning tile completed, -1 the pair, -2 none) */
static void
tw_read(const WHand *h, const WOpts *o, const MGroup *sets, int nsets, int pair, int win_in,
        HTally *t, const unsigned long long *excl)
{
    int np = 0, chows[5], nc = 0, dragons[5], nd = 0, winds[5], nw = 0, hidden[5], nh = 0;
    for (int i = 0; i < nsets; i++) {
        const MGroup *g = &sets[i];
        if (g->kind == GK_PUNG || g->kind == GK_KONG) {
            np++;
            if (g->tile >= 31)
                dragons[nd++] = i;
            else if (g->tile >= 27)
                winds[nw++] = i;
            if (g->concealed)
                hidden[nh++] = i;
        }
        else
            chows[nc++] = i;
    }
    short u[8];
    int pair_label = -1;
    if (pair >= 0) {
        MGroup pg = {GK_PAIR, pair, 1, 0};
        pair_label = hk_label(&pg);
    }
    if (nh >= 3) {
        for (int i = 0; i < nh; i++)
            u[i] = (short)hk_label(&sets[hidden[i]]);
        ht_add_p(t,
                 tw_id[nh >= 5   ? W_FIVE_CONCEALED_PUNGS
                       : nh == 4 ? W_FOUR_CONCEALED_PUNGS
                                 : W_THREE_CONCEALED_PUNGS],
                 u, nh);
    }
    if (h->n_kongs == 4) {
        int k = 0;
        for (int i = 0; i < nsets; i++)
            if (sets[i].kind == GK_KONG)
                u[k++] = (short)hk_label(&sets[i]);
        ht_add_p(t, tw_id[W_FOUR_KONGS], u, k);
    }
    if (np == 5)
        ht_add_p(t, tw_id[W_ALL_PUNGS], NULL, 0);
    if (nw == 4) {
        for (int i = 0; i < 4; i++)
            u[i] = (short)hk_label(&sets[winds[i]]);
        ht_add_p(t, tw_id[W_BIG_FOUR_WINDS], u, 4);
    }
    else if (nw == 3 && pair >= 27 && pair <= 30) {
        for (int i = 0; i < 3; i++)
            u[i] = (short)hk_label(&sets[winds[i]]);
        u[3] = (short)pair_label;
        ht_add_p(t, tw_id[W_SMALL_FOUR_WINDS], u, 4);
    }
    if (nd == 3) {
        for (int i = 0; i < 3; i++)
            u[i] = (short)hk_label(&sets[dragons[i]]);
        ht_add_p(t, tw_id[W_BIG_THREE_DRAGONS], u, 3);
    }
    else if (nd == 2 && pair >= 31) {
        for (int i = 0; i < 2; i++)
            u[i] = (short)hk_label(&sets[dragons[i]]);
        u[2] = (short)pair_label;
        ht_add_p(t, tw_id[W_SMALL_THREE_DRAGONS], u, 3);
    }
    for (int i = 0; i < nd; i++) {
        u[0] = (short)hk_label(&sets[dragons[i]]);
        ht_add_p(t, tw_id[W_DRAGON_PUNG], u, 1);
    }
    for (int i = 0; i < nw; i++) {
        const MGroup *g = &sets[winds[i]];
        u[0] = (short)hk_label(g);
        if (g->tile == h->round)
            ht_add_p(t, tw_id[W_ROUND_WIND], u, 1);
        if (g->tile == h->seat)
            ht_add_p(t, tw_id[W_SEAT_WIND], u, 1);
    }
    int suits = 0, honors = 0;
    for (int x = 0; x < NK; x++)
        if (h->all[x]) {
            if (x >= 27)
                honors = 1;
            else
                suits |= 1 << (x / 9);
        }
    if (!suits)
        ht_add_p(t, tw_id[W_ALL_HONORS], NULL, 0);
    else if (suits == 1 || suits == 2 || suits == 4)
        ht_add_p(t, tw_id[honors ? W_HALF_FLUSH : W_FULL_FLUSH], NULL, 0);
    if (pair >= 0) {
        int two_sided = 0;
        if (win_in >= 0 && sets[win_in].kind == GK_CHOW && !sets[win_in].declared) {
            int s0 = sets[win_in].tile;
            if (h->win == s0)
                two_sided = s0 % 9 + 1 != 7;
            else if (h->win == s0 + 2)
                two_sided = s0 % 9 + 1 != 1;
        }
        if (nc == 5 && pair < 27 && pair % 9 + 1 >= 2 && pair % 9 + 1 <= 8 &&
            (!h->flowers || o->all_chows_with_flowers) && two_sided && h->n_waits >= 2 &&
            (!h->self_drawn || o->all_chows_self_draw)) {
            for (int i = 0; i < 5; i++)
                u[i] = (short)hk_label(&sets[chows[i]]);
            u[5] = (short)pair_label;
            ht_add_p(t, tw_id[W_ALL_CHOWS], u, 6);
        }
        if (h->n_melds == 5 && !h->any_meld_conc && !h->self_drawn && win_in == -1) {
            for (int i = 0; i < nsets; i++)
                u[i] = (short)hk_label(&sets[i]);
            ht_add_p(t, tw_id[W_ALL_CLAIMED], u, nsets);
        }
        if (h->n_waits == 1) {
            u[0] = (short)(HU_TILE + h->first_wait);
            ht_add_p(t, tw_id[W_SINGLE_WAIT], u, 1);
        }
    }
    /* _win_patterns */
    if (h->heavenly)
        ht_add_p(t, tw_id[W_HEAVENLY_HAND], NULL, 0);
    if (h->earthly || h->human)
        ht_add_p(t, tw_id[!h->self_drawn && o->human_hand ? W_HUMAN_HAND : W_EARTHLY_HAND], NULL,
                 0);
    if (h->ready)
        ht_add_p(t, tw_id[h->ready == 1 ? W_TIAN_TING : W_DI_TING], NULL, 0);
    if (h->concealed) {
        if (!h->self_drawn)
            ht_add_p(t, tw_id[W_CONCEALED_HAND], NULL, 0);
        else if (o->concealed_self_draw == 3)
            ht_add_p(t, tw_id[W_CONCEALED_SELF_DRAWN], NULL, 0);
        else {
            ht_add_p(t, tw_id[W_CONCEALED_HAND], NULL, 0);
            ht_add_p(t, tw_id[W_SELF_DRAWN], NULL, 0);
        }
    }
    else if (h->self_drawn)
        ht_add_p(t, tw_id[W_SELF_DRAWN], NULL, 0);
    if (h->ltw)
        ht_add_p(t, tw_id[h->self_drawn ? W_LAST_TILE_OF_WALL : W_LAST_DISCARD], NULL, 0);
    if (h->kr || h->dkr)
        ht_add_p(t, tw_id[W_KONG_REPLACEMENT], NULL, 0);
    if (h->rk)
        ht_add_p(t, tw_id[W_ROBBING_KONG], NULL, 0);
    /* _flower_patterns */
    int seat = h->seat - 27;
    for (int k = 0; k < 2; k++) {
        unsigned four = 15u << (4 * k);
        int full = (h->flowers & four) == four;
        if (full) {
            short fu = (short)(WU_FULL + k);
            ht_add_p(t, tw_id[W_FLOWER_KONG], &fu, 1);
        }
        int own = 4 * k + seat;
        if ((h->flowers >> own & 1) && !(full && o->flower_kong_includes_own)) {
            short ou = (short)(HU_TILE + NK + own);
            ht_add_p(t, tw_id[W_OWN_FLOWER], &ou, 1);
        }
    }
    ht_exclude(t, tw_n, excl);
}

/* Tally.tai */
static long long
tw_tai(const HTally *t, const long long *value)
{
    long long s = 0;
    for (unsigned long long m = t->on; m; m &= m - 1) {
        int p = m_ctz64(m);
        s += value[p] * t->count[p];
    }
    return s;
}

static int
tw_note(PyObject *notes, PyObject *s)
{
    if (s == NULL)
        return -1;
    int r = PyList_Append(notes, s);
    Py_DECREF(s);
    return r;
}

/* _result: notes holds the notes so far */
static PyObject *
tw_result(const WHand *h, const WOpts *o, HTally *t, const long long *value, PyObject *notes)
{
    int kr = ft_find(tw_result_type), kp = ft_find(tw_payment_type), kh = ft_find(tw_hit_type);
    if (kr < 0 || kp < 0 || kh < 0)
        Py_RETURN_NONE;
    PyObject *res = NULL, *hits = NULL, *payments = NULL, *total_o = NULL;
    long long tai = tw_tai(t, value);
    if (tai == 0)
        ht_add_p(t, tw_id[W_CHICKEN_HAND], NULL, 0);
    int pd = tw_id[W_DEALER], pds = tw_id[W_DEALER_STREAK];
    int winner = h->seat - 27, dealer = h->dealer - 27, discarder = -1;
    if (!h->self_drawn) {
        if (h->discarder < 0) {
            discarder = (winner + 1) % 4;
            if (PyList_Append(notes, PyTuple_GET_ITEM(tw_next_notes, winner)) < 0)
                return NULL;
        }
        else {
            discarder = h->discarder - 27;
            if (discarder == winner) /* settle's refusal: the Python says it */
                Py_RETURN_NONE;
        }
    }
    long long extra = 1 + o->dealer_repeat_tai * h->streak;
    int dealer_pays = 0, only_dealer = discarder >= 0 ? discarder == dealer : 0;
    int with_dealer = dealer == winner || only_dealer;
    int nd = with_dealer ? (h->streak ? 2 : 1) : 0, nh = 0, q = 0;
    unsigned long long shown = t->on & ~(1ULL << pd) & ~(1ULL << pds);
    for (unsigned long long m = shown; m; m &= m - 1)
        nh++;
    hits = PyTuple_New(nh + nd);
    if (hits == NULL)
        return NULL;
    for (unsigned long long m = shown; m; m &= m - 1) {
        int p = m_ctz64(m);
        PyObject *hit = hk_hit_of(kh, tw_ids, tw_names_en, tw_names, wu_obj, p, value[p], t);
        if (hit == NULL)
            goto done;
        PyTuple_SET_ITEM(hits, q++, hit);
    }
    payments = PyTuple_New(discarder >= 0 ? 1 : 3);
    if (payments == NULL)
        goto done;
    int qp = 0;
    for (int p = 0; p < 4; p++) {
        if (p == winner || (discarder >= 0 && p != discarder))
            continue;
        dealer_pays = dealer_pays || p == dealer;
        long long tp = tai + (dealer == winner || dealer == p ? extra : 0);
        PyObject *amount = PyLong_FromLongLong(o->base + tp * o->per_tai);
        if (amount == NULL)
            goto done;
        PyObject *f[3] = {PyTuple_GET_ITEM(tw_seats, p), PyTuple_GET_ITEM(tw_seats, winner),
                          amount};
        PyObject *pay = ft_make(kp, f, 3);
        Py_DECREF(amount);
        if (pay == NULL)
            goto done;
        PyTuple_SET_ITEM(payments, qp++, pay);
    }
    long long total = tai;
    PyObject *dname = PyTuple_GET_ITEM(tw_seats, dealer);
    if (with_dealer) {
        for (int i = 0; i < nd; i++) {
            int p = i ? pds : pd;
            PyObject *uses = PyTuple_Pack(1, dname);
            PyObject *val = PyLong_FromLongLong(i ? o->dealer_repeat_tai : 1);
            PyObject *cnt = PyLong_FromLong(i ? h->streak : 1);
            PyObject *names = Py_NewRef(PyTuple_GET_ITEM(tw_names, p));
            PyObject *hit = NULL;
            if (uses && val && cnt && names) {
                PyObject *f[6] = {PyTuple_GET_ITEM(tw_ids, p), PyTuple_GET_ITEM(tw_names_en, p),
                                  val, cnt, uses, names};
                hit = ft_make(kh, f, 6);
            }
            Py_XDECREF(uses);
            Py_XDECREF(val);
            Py_XDECREF(cnt);
            Py_XDECREF(names);
            if (hit == NULL)
                goto done;
            PyTuple_SET_ITEM(hits, q++, hit);
        }
        total += extra;
    }
    else if (dealer_pays) {
        PyObject *s, **slot = &tw_dealer_notes[dealer][h->streak];
        if (*slot && tw_dealer_drt[dealer][h->streak] == o->dealer_repeat_tai) {
            s = *slot;
            Py_INCREF(s);
        }
        else {
            const char *dn = PyUnicode_AsUTF8(dname);
            if (dn == NULL)
                goto done;
            if (h->streak)
                s = hk_text("The dealer (%s) pays for %lld more tai: 1 for the dealer and %lld "
                            "for each of %d repeats.",
                            dn, extra, o->dealer_repeat_tai, h->streak);
            else
                s = hk_text("The dealer (%s) pays for %lld more tai: 1 for the dealer.", dn,
                            extra);
            if (s != NULL) {
                Py_INCREF(s);
                Py_XSETREF(*slot, s);
                tw_dealer_drt[dealer][h->streak] = o->dealer_repeat_tai;
            }
        }
        if (tw_note(notes, s) < 0)
            goto done;
    }
    total_o = PyLong_FromLongLong(total);
    PyObject *nt = PyList_AsTuple(notes);
    if (total_o == NULL || nt == NULL) {
        Py_XDECREF(nt);
        goto done;
    }
    PyObject *f[10] = {tw_rules_s, Py_True, Py_True,  total_o, tw_unit_s,
                       Py_False,   hits,    payments, Py_None, nt};
    res = ft_make(kr, f, 10);
    Py_DECREF(nt);
done:
    Py_XDECREF(hits);
    Py_XDECREF(payments);
    Py_XDECREF(total_o);
    return res;
}

/* the readings of a read hand and the Result of the best */
static PyObject *
tw_run(WHand *h, const WOpts *o)
{
    long long value[HK_MAX];
    unsigned long long excl[HK_MAX];
    for (int p = 0; p < tw_n; p++) {
        value[p] = tw_value[p];
        excl[p] = tw_excl[p];
    }
    value[tw_id[W_FLOWER_KONG]] = o->flower_kong;
    /* _excludes: the exclusions as the settings change them */
    unsigned long long winds = 1ULL << tw_id[W_ROUND_WIND] | 1ULL << tw_id[W_SEAT_WIND],
                       win_tai = 1ULL << tw_id[W_SELF_DRAWN] | 1ULL << tw_id[W_CONCEALED_HAND] |
                                 1ULL << tw_id[W_CONCEALED_SELF_DRAWN],
                       dragon = 1ULL << tw_id[W_DRAGON_PUNG];
    if (!o->s3d_pungs)
        excl[tw_id[W_SMALL_THREE_DRAGONS]] &= ~dragon;
    if (!o->b3d_pungs)
        excl[tw_id[W_BIG_THREE_DRAGONS]] &= ~dragon;
    if (o->s4w_winds)
        excl[tw_id[W_SMALL_FOUR_WINDS]] |= winds;
    if (!o->b4w_winds)
        excl[tw_id[W_BIG_FOUR_WINDS]] &= ~winds;
    if (!o->timing_includes_win) {
        excl[tw_id[W_HEAVENLY_HAND]] &= ~win_tai;
        excl[tw_id[W_EARTHLY_HAND]] &= ~win_tai;
        excl[tw_id[W_HUMAN_HAND]] &= ~win_tai;
    }
    PyObject *notes = PyList_New(0), *res = NULL;
    if (notes == NULL)
        return NULL;
    HTally T[2];
    ht_init(&T[0]);
    ht_init(&T[1]);
    int cur = 0, best = -1, overflow = 0;
    long long best_v = 0;
#define TW_KEEP()                                \
    do {                                         \
        HTally *t_ = &T[cur];                    \
        overflow |= t_->overflow;                \
        long long v_ = tw_tai(t_, value);        \
        if (best < 0 || v_ > best_v) {           \
            best = cur;                          \
            best_v = v_;                         \
            cur = 1 - cur;                       \
        }                                        \
    } while (0)
    if (h->flower_win) {
        short u = (short)WU_EIGHT;
        ht_add_p(&T[0], tw_id[h->self_drawn ? W_EIGHT_FLOWERS : W_SEVEN_ROB_ONE], &u, 1);
        best = 0;
        if (PyList_Append(notes, tw_note_flower) < 0)
            goto done;
    }
    else {
        tw_waits(h);
        MDecs D;
        int win = h->win, discard = !h->self_drawn, need = 5 - h->n_melds;
        m_decompositions(h->c17, &D);
        overflow |= D.overflow;
        for (int d = 0; d < D.n && !overflow; d++) {
            if (D.nsets[d] != need)
                continue;
            MGroup own[5];
            int pair = D.pair[d];
            for (int i = 0; i < need; i++) {
                MGroup g = {D.kind[d][i] == PUNG ? GK_PUNG : GK_CHOW, D.tile[d][i], 1, 0};
                own[i] = g;
            }
            int places[6], np = 0;
            if (pair == win)
                places[np++] = -1;
            for (int i = 0; i < need; i++) {
                const MGroup *g = &own[i];
                int holds =
                    g->kind == GK_CHOW ? (win >= g->tile && win <= g->tile + 2) : win == g->tile;
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
                MGroup sets[5];
                for (int i = 0; i < h->n_melds; i++)
                    sets[i] = h->melds[i];
                for (int i = 0; i < need; i++) {
                    sets[h->n_melds + i] = own[i];
                    if (i == places[k] && discard && own[i].kind == GK_PUNG)
                        sets[h->n_melds + i].concealed = 0;
                }
                ht_init(&T[cur]);
                tw_read(h, o, sets, 5, pair, places[k] < 0 ? -1 : h->n_melds + places[k],
                        &T[cur], excl);
                TW_KEEP();
            }
        }
        if (best < 0 && !overflow && h->n_kongs == 4) {
            /* the fourth kong ends the hand: read from its melds */
            int saved_waits = h->n_waits;
            h->n_waits = 0; /* the reading's waits are () */
            ht_init(&T[cur]);
            tw_read(h, o, h->melds, h->n_melds, -1, -2, &T[cur], excl);
            h->n_waits = saved_waits;
            TW_KEEP();
            if (PyList_Append(notes, tw_note_four_kongs) < 0)
                goto done;
        }
        if (overflow) {
            res = Py_None;
            Py_INCREF(res);
            goto done;
        }
        if (best < 0) {
            res = Py_False;
            Py_INCREF(res);
            goto done;
        }
        if (T[best].on >> tw_id[W_FOUR_KONGS] & 1) {
            if (PyList_Append(notes, tw_note_streak) < 0)
                goto done;
        }
    }
#undef TW_KEEP
    if (overflow || T[best].overflow) {
        res = Py_None;
        Py_INCREF(res);
        goto done;
    }
    res = tw_result(h, o, &T[best], value, notes);
done:
    Py_DECREF(notes);
    return res;
}

static PyObject *
py_tw_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !tw_ready)
        Py_RETURN_NONE;
    WOpts o;
    WHand h;
    int r = tw_read_opts(args[1], &o);
    if (r == 1)
        r = tw_read_hand(args[0], &h);
    if (r < 0)
        return NULL;
    if (r == 0)
        Py_RETURN_NONE;
    return tw_run(&h, &o);
}

/* _set_tw(ids, values, excludes, names_en, names, labels, codes, full_sets,
 *         eight, seats, next_seat_notes, note_flower_win, note_four_kong_win,
 *         note_four_kongs, meld_type, hit_type, payment_type, result_type,
 *         rules, unit): the Taiwanese table (as _set_hk's; eight: the code
 * of all eight bonus tiles; the notes of a flower win, of a four-kong win
 * read from its melds, and of four kongs ending the streak) */
static PyObject *
py_set_tw(PyObject *self, PyObject *args)
{
    PyObject *ids, *values, *excl, *nen, *nall, *labels, *codes, *full, *eight, *seats, *notes,
        *nf, *n4w, *n4s, *mtype, *htype, *ptype, *rtype, *rules, *unit;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!UO!O!UUUOOOOUU:_set_tw", &PyTuple_Type, &ids,
                          &PyTuple_Type, &values, &PyTuple_Type, &excl, &PyTuple_Type, &nen,
                          &PyTuple_Type, &nall, &PyTuple_Type, &labels, &PyTuple_Type, &codes,
                          &PyTuple_Type, &full, &eight, &PyTuple_Type, &seats, &PyTuple_Type,
                          &notes, &nf, &n4w, &n4s, &mtype, &htype, &ptype, &rtype, &rules, &unit))
        return NULL;
    tw_ready = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(ids);
    if (n > HK_MAX || PyTuple_GET_SIZE(values) != n || PyTuple_GET_SIZE(excl) != n ||
        PyTuple_GET_SIZE(nen) != n || PyTuple_GET_SIZE(nall) != n ||
        PyTuple_GET_SIZE(labels) != HU_TILE || PyTuple_GET_SIZE(codes) != NK + 8 ||
        PyTuple_GET_SIZE(full) != 2 || PyTuple_GET_SIZE(seats) != 4 ||
        PyTuple_GET_SIZE(notes) != 4 || ft_find(htype) < 0 || ft_find(ptype) < 0 ||
        ft_find(rtype) < 0) {
        PyErr_SetString(PyExc_ValueError, "_set_tw: the table's shape");
        return NULL;
    }
    if (hs_flowers == NULL) {
        PyErr_SetString(PyExc_ValueError, "_set_tw: _set_hk first");
        return NULL;
    }
    if (ws_base == NULL) {
#define W_STR(var, text)                                  \
    if ((var = PyUnicode_InternFromString(text)) == NULL) \
        return NULL;
        W_STR(ws_base, "base")
        W_STR(ws_per_tai, "per_tai")
        W_STR(ws_flower_kong, "flower_kong")
        W_STR(ws_human_hand, "human_hand")
        W_STR(ws_acsd, "all_chows_self_draw")
        W_STR(ws_acwf, "all_chows_with_flowers")
        W_STR(ws_csd, "concealed_self_draw")
        W_STR(ws_s3d, "small_three_dragons_includes_pungs")
        W_STR(ws_b3d, "big_three_dragons_includes_pungs")
        W_STR(ws_s4w, "small_four_winds_includes_winds")
        W_STR(ws_b4w, "big_four_winds_includes_winds")
        W_STR(ws_fkio, "flower_kong_includes_own")
        W_STR(ws_drt, "dealer_repeat_tai")
        W_STR(ws_tiw, "timing_includes_win")
        W_STR(ws_tian_ting, "tian_ting")
        W_STR(ws_di_ting, "di_ting")
#undef W_STR
    }
    tw_n = (int)n;
    if (hk_load_patterns("_set_tw", ids, values, excl, nen, nall, W_NAMES, N_WNAMES, tw_id,
                         tw_value, NULL, tw_excl) < 0)
        return NULL;
    for (int u = 0; u < WU_N; u++) {
        PyObject *s = u < HU_TILE    ? PyTuple_GET_ITEM(labels, u)
                      : u < WU_FULL  ? PyTuple_GET_ITEM(codes, u - HU_TILE)
                      : u < WU_EIGHT ? PyTuple_GET_ITEM(full, u - WU_FULL)
                                     : eight;
        Py_INCREF(s);
        Py_XSETREF(wu_obj[u], s);
    }
    PyObject *objs[14] = {ids, nen, nall, notes, seats, mtype, htype,
                          ptype, rtype, rules, unit, nf, n4w, n4s};
    PyObject **slots[14] = {&tw_ids,         &tw_names_en,     &tw_names,          &tw_next_notes,
                            &tw_seats,       &tw_meld_type,    &tw_hit_type,       &tw_payment_type,
                            &tw_result_type, &tw_rules_s,      &tw_unit_s,         &tw_note_flower,
                            &tw_note_four_kongs, &tw_note_streak};
    for (int i = 0; i < 14; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    tw_ready = 1;
    Py_RETURN_NONE;
}

/* ---- tw_score_dict(obj): hefen.score_uncached(obj) for a well-formed
 * Taiwanese hand object, in one call, as hk_score_dict: the reader's
 * fields, the rules of the hand (16 tiles, the flower wins), the settings
 * hefen.tw resolved before, tw_run; None wherever any of them would not
 * answer, or nothing completes the hand. */
static PyObject *wd_rules, *wd_resolved;

/* obj into h and o: 1, or 0 */
static int
wd_direct(PyObject *obj, WHand *h, WOpts *o)
{
    PyObject *v, *f[7]; /* rules, hand, melds, win_tile, flowers, context, options */
    if (!PyDict_CheckExact(obj) || !sd_fields(obj, sd_top_index, f, 7))
        goto no;
    v = f[0] ? f[0] : fh_default_rules;
    if (!PyUnicode_CheckExact(v) || PyUnicode_Compare(v, wd_rules) != 0)
        goto no;
    int conc[64], nc;
    v = f[1];
    if (v == NULL || (nc = sd_codes(v, conc, 64)) < 0 || (nc && conc[nc - 1] >= NK))
        goto no;
    int nm = 0, mt[5][4], mn[5];
    v = f[2];
    if (v != NULL) {
        if (!PyList_CheckExact(v) || PyList_GET_SIZE(v) > 5)
            goto no;
        nm = (int)PyList_GET_SIZE(v);
        for (int i = 0; i < nm; i++)
            if (!sd_meld(PyList_GET_ITEM(v, i), &h->melds[i], mt[i], &mn[i]))
                goto no;
    }
    /* the winning tile: a tile or a bonus tile (a flower win) */
    v = f[3];
    if (v == NULL || v == Py_None || (h->win = sd_code(v)) < 0)
        goto no;
    h->flower_win = h->win >= NK;
    /* the flowers: bonus tiles, each once, the winning one not among them */
    int fl[8], nf = 0;
    v = f[4];
    if (v != NULL) {
        if ((nf = sd_codes(v, fl, 8)) < 0)
            goto no;
        for (int i = 0; i < nf; i++)
            if (fl[i] < NK || (i && fl[i] == fl[i - 1]) || fl[i] == h->win)
                goto no;
    }
    h->flowers = 0;
    for (int i = 0; i < nf; i++)
        h->flowers |= 1u << (fl[i] - NK);
    h->nflowers = nf;
    SdCtx x;
    if (!sd_context(f[5], &x))
        goto no;
    h->ready = 0;
    if (f[5] != NULL && f[5] != Py_None) {
        PyObject *dr = PyDict_GetItemWithError(f[5], hs_declared_ready_key);
        if (dr == NULL && PyErr_Occurred())
            goto no;
        if (dr != NULL && dr != Py_None) {
            if (!PyUnicode_CheckExact(dr))
                goto no;
            if (PyUnicode_Compare(dr, ws_tian_ting) == 0)
                h->ready = 1;
            else if (PyUnicode_Compare(dr, ws_di_ting) == 0)
                h->ready = 2;
            else
                goto no;
        }
    }
    v = f[6];
    if (v != NULL && v != Py_None && !PyDict_CheckExact(v))
        goto no;
    if (!hd_options(v != NULL && v != Py_None ? v : NULL, wd_resolved, NULL, o))
        goto no;
    /* the rules of the hand (Hand._check_rules, as rules_pass) */
    if (nc + 3 * nm != 16)
        goto no;
    memset(h->c16, 0, sizeof h->c16);
    for (int i = 0; i < nc; i++)
        h->c16[conc[i]]++;
    int *all = h->all, in_melds = 0, n_exposed = 0;
    memcpy(all, h->c16, sizeof h->all);
    h->n_melds = nm;
    h->n_kongs = 0;
    h->concealed = 1;
    h->any_meld_conc = 0;
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
        h->any_meld_conc = h->any_meld_conc || h->melds[i].concealed;
    }
    memcpy(h->c17, h->c16, sizeof h->c17);
    if (!h->flower_win) {
        all[h->win]++;
        h->c17[h->win]++;
    }
    for (int t = 0; t < NK; t++)
        if (all[t] > 4)
            goto no;
    int sd = x.win_sd, in_conc = !h->flower_win && h->c16[h->win] > 0,
        is_dealer = x.seat == x.dealer;
    if ((x.rk && sd) || (x.kr && (!sd || h->n_kongs == 0)) ||
        (x.dkr && (!sd || h->n_kongs < 2)) || (x.heavenly && (!sd || nm || !is_dealer)) ||
        ((x.earthly || x.human) && (is_dealer || n_exposed)) ||
        (x.heavenly && (x.earthly || x.human)) ||
        (x.discarder >= 0 && (sd || x.discarder == x.seat)) ||
        (x.rk && !h->flower_win && (in_conc || in_melds)) || (x.lok && in_conc))
        goto no;
    h->self_drawn = sd;
    h->seat = x.seat;
    h->round = x.round;
    h->dealer = x.dealer;
    h->streak = x.streak;
    h->discarder = x.discarder;
    h->heavenly = x.heavenly;
    h->earthly = x.earthly;
    h->human = x.human;
    h->ltw = x.ltw;
    h->kr = x.kr;
    h->dkr = x.dkr;
    h->rk = x.rk;
    /* what hefen.tw's _check_context refuses: the Python says so */
    if (h->human && h->self_drawn)
        goto no;
    if (h->ready && (!h->concealed || h->heavenly))
        goto no;
    if (h->flower_win && (nf != 7 || h->rk || h->kr || h->dkr))
        goto no;
    return 1;
no:
    PyErr_Clear();
    return 0;
}

static PyObject *
py_tw_score_dict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || !tw_ready || wd_rules == NULL || sd_top_index == NULL ||
        sd_meld_index == NULL || sd_ctx_index == NULL || fh_parse == NULL || fc_ready == NULL)
        Py_RETURN_NONE;
    WHand h;
    WOpts o;
    if (!wd_direct(args[0], &h, &o))
        Py_RETURN_NONE;
    PyObject *res = tw_run(&h, &o);
    if (res == NULL || res == Py_False) {
        PyErr_Clear();
        Py_XDECREF(res);
        Py_RETURN_NONE;
    }
    return res;
}

/* _set_tw_score_dict(rules, resolved): after _set_hk_score_dict and _set_tw */
static PyObject *
py_set_tw_score_dict(PyObject *self, PyObject *args)
{
    PyObject *rules, *resolved;
    if (!PyArg_ParseTuple(args, "UO!:_set_tw_score_dict", &rules, &PyDict_Type, &resolved))
        return NULL;
    if (!tw_ready || hs_declared_ready_key == NULL || sd_top_index == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "_set_tw_score_dict: _set_tw and _set_hk_score_dict first");
        return NULL;
    }
    Py_INCREF(rules);
    Py_XSETREF(wd_rules, rules);
    Py_INCREF(resolved);
    Py_XSETREF(wd_resolved, resolved);
    Py_RETURN_NONE;
}
