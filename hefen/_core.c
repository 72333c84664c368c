/*
 * hefen._core: the tile-count primitives of hefen.decompose, compiled.
 *
 * Plain C over the CPython API (no Cython, so building needs nothing but a C
 * compiler and Python.h).  Every function here mirrors one pure-Python
 * reference in hefen/decompose.py branch for branch, so that the answers,
 * their order and their shapes are the same:
 *
 *   is_standard_complete(counts)            -> bool
 *   standard_decompositions(counts)         -> tuple of (pair, ((kind, tile), ...))
 *   is_complete(counts, n_melds, forms)     -> bool
 *   completing_tiles(counts, n_melds=0, forms=FORMS_ALL, fifth=False) -> tuple of ints
 *
 * Counts are 34 small non-negative ints.  Any input outside what the C code
 * reads (not a tuple of exact ints, a length other than 34, a count below 0
 * or above MAX_COUNT, an n_melds that is not an int) is handed to the pure
 * reference registered with _set_pure(), so that the answer (or the error)
 * is the reference's own.
 *
 * Later sections compile MCR's detection steps (hefen.mcr.detect), the
 * shanten tables, and (issue #17) the whole MCR scorer: mcr_score (every
 * reading of a Hand and its Result; hefen.mcr._py_score is the reference),
 * fast_hand and fast_context (hefen.hand's fast reader; _py_fast_hand and
 * _fast_context are the references), rules_pass (True only where
 * Hand._check_rules would pass), mcr_score_dict (score_uncached of an MCR
 * object in one call) and new (a registered frozen dataclass built slot by
 * slot).  Each answers None (or False) where it does not read the input,
 * and the Python reference then answers.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* T_OBJECT_EX, READONLY (the slots new() fills) */

#ifndef HEFEN_CORE_SOURCE_HASH
#define HEFEN_CORE_SOURCE_HASH "unknown"
#endif

#define NK 34
#define MAX_COUNT 16
#define CHOW 0
#define PUNG 1

enum {
    F_STANDARD = 1,
    F_SEVEN_PAIRS = 2,
    F_THIRTEEN = 4,
    F_HONORS_KNITTED = 8,
    F_KNITTED = 16,
};

static const char *FORM_NAMES[5] = {
    "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted",
};

static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static int is_orphan[NK];
/* the six knitted straights, as hefen.decompose.KNITTED_STRAIGHTS */
static int knitted[6][9];
static int in_knitted[6][NK];

static PyObject *form_str[5];
static PyObject *set_obj[2][NK]; /* the (kind, tile) tuples, built once */
static PyObject *tile_obj[NK];
static PyObject *empty_tuple;

/* the pure references, for inputs outside the C domain */
static PyObject *pure_isc, *pure_sd, *pure_ic, *pure_ct, *pure_rd, *pure_cw;

/* ------------------------------------------------------------------ */
/* reading the arguments                                              */

/* 1: read; 0: outside the domain (no error set); -1: error set */
static int
read_counts(PyObject *obj, int c[NK])
{
    if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) != NK)
        return 0;
    for (Py_ssize_t i = 0; i < NK; i++) {
        PyObject *v = PyTuple_GET_ITEM(obj, i);
        if (!PyLong_CheckExact(v))
            return 0;
        int overflow = 0;
        long n = PyLong_AsLongAndOverflow(v, &overflow);
        if (n == -1 && PyErr_Occurred())
            return -1;
        if (overflow || n < 0 || n > MAX_COUNT)
            return 0;
        c[i] = (int)n;
    }
    return 1;
}

/* 1: read; 0: outside the domain; -1: error set */
static int
read_melds(PyObject *obj, long *out)
{
    if (!PyLong_CheckExact(obj))
        return 0;
    int overflow = 0;
    long n = PyLong_AsLongAndOverflow(obj, &overflow);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        return 0;
    *out = n;
    return 1;
}

/* a kind (0-33) from a plain int, -1 if not one */
static int
read_kind(PyObject *o)
{
    if (!PyLong_CheckExact(o))
        return -1;
    long v = PyLong_AsLong(o);
    if (v < 0 || v >= NK) {
        PyErr_Clear();
        return -1;
    }
    return (int)v;
}

/* the forms as a bit mask; -1 with an error set */
static int
read_forms(PyObject *forms)
{
    int mask = 0;
    for (int k = 0; k < 5; k++) {
        int r = PySequence_Contains(forms, form_str[k]);
        if (r < 0)
            return -1;
        if (r)
            mask |= 1 << k;
    }
    return mask;
}

static PyObject *
fallback(PyObject *pure, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (pure == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "hefen._core: input outside the compiled domain and no pure "
                        "reference registered (_set_pure)");
        return NULL;
    }
    return PyObject_Vectorcall(pure, args, nargs, kwnames);
}

/* ------------------------------------------------------------------ */
/* the algorithms (each mirrors its Python reference)                  */

/* _suit_splits: nine counts into sets (+ one pair if `pair`) */
static int
suit_splits(int *c, int pair)
{
    int i = 0;
    while (i < 9 && c[i] == 0)
        i++;
    if (i == 9)
        return !pair;
    int r;
    if (pair && c[i] >= 2) {
        c[i] -= 2;
        r = suit_splits(c, 0);
        c[i] += 2;
        if (r)
            return 1;
    }
    if (c[i] >= 3) {
        c[i] -= 3;
        r = suit_splits(c, pair);
        c[i] += 3;
        if (r)
            return 1;
    }
    if (i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--;
        c[i + 1]--;
        c[i + 2]--;
        r = suit_splits(c, pair);
        c[i]++;
        c[i + 1]++;
        c[i + 2]++;
        if (r)
            return 1;
    }
    return 0;
}

/* suit_splits, remembered: one byte per shape of a suit with at most four
 * of a kind (5^9 shapes, 1.9 MB of zeroed static memory, touched only where
 * used); bits 0/1: known/answer without the pair, bits 2/3: with it */
#define SUIT_SHAPES 1953125
static unsigned char suit_memo[SUIT_SHAPES];

static int
suit_splits_memo(int *part, int pair)
{
    int key = 0;
    for (int k = 8; k >= 0; k--) {
        if (part[k] > 4)
            return suit_splits(part, pair);
        key = key * 5 + part[k];
    }
    unsigned char known = pair ? 4 : 1, m = suit_memo[key];
    if (m & known)
        return (m & (known << 1)) != 0;
    int r = suit_splits(part, pair);
    suit_memo[key] = (unsigned char)(m | known | (r ? known << 1 : 0));
    return r;
}

/* is_standard_complete */
static int
std_complete(const int *counts)
{
    int pairs = 0;
    int part[9];
    for (int b = 0; b < 27; b += 9) {
        int s = 0;
        for (int k = 0; k < 9; k++) {
            part[k] = counts[b + k];
            s += part[k];
        }
        int r = s % 3;
        if (r == 1)
            return 0;
        if (r == 2) {
            pairs++;
            if (pairs > 1 || !suit_splits_memo(part, 1))
                return 0;
        }
        else if (s != 0 && !suit_splits_memo(part, 0)) {
            return 0;
        }
    }
    for (int t = 27; t < NK; t++) {
        int n = counts[t];
        if (n == 2) {
            pairs++;
            if (pairs > 1)
                return 0;
        }
        else if (n != 0 && n != 3) {
            return 0;
        }
    }
    return pairs == 1;
}

/* _split(counts, need_pair) non-empty: some split exists */
static int
split_exists(int *c, int i, int need_pair)
{
    while (i < NK && c[i] == 0)
        i++;
    if (i == NK)
        return !need_pair;
    int n = c[i], r;
    if (need_pair && n >= 2) {
        c[i] -= 2;
        r = split_exists(c, i, 0);
        c[i] += 2;
        if (r)
            return 1;
    }
    if (n >= 3) {
        c[i] -= 3;
        r = split_exists(c, i, need_pair);
        c[i] += 3;
        if (r)
            return 1;
    }
    if (i < 27 && i % 9 <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--;
        c[i + 1]--;
        c[i + 2]--;
        r = split_exists(c, i, need_pair);
        c[i]++;
        c[i + 1]++;
        c[i + 2]++;
        if (r)
            return 1;
    }
    return 0;
}

/* _split(counts, need_pair), every split appended to `out` in the
 * reference's order: at the first held kind, the pair, then the pung,
 * then the chow; sets in the order they were taken. */
static int
split_enum(int *c, int i, int need_pair, int pair, int *path, int depth, PyObject *out)
{
    while (i < NK && c[i] == 0)
        i++;
    if (i == NK) {
        if (need_pair)
            return 0;
        PyObject *sets = PyTuple_New(depth);
        if (sets == NULL)
            return -1;
        for (int k = 0; k < depth; k++) {
            PyObject *s = set_obj[path[k] / NK][path[k] % NK];
            Py_INCREF(s);
            PyTuple_SET_ITEM(sets, k, s);
        }
        PyObject *p = pair < 0 ? PyLong_FromLong(-1) : (Py_INCREF(tile_obj[pair]), tile_obj[pair]);
        if (p == NULL) {
            Py_DECREF(sets);
            return -1;
        }
        PyObject *dec = PyTuple_New(2);
        if (dec == NULL) {
            Py_DECREF(sets);
            Py_DECREF(p);
            return -1;
        }
        PyTuple_SET_ITEM(dec, 0, p);
        PyTuple_SET_ITEM(dec, 1, sets);
        int r = PyList_Append(out, dec);
        Py_DECREF(dec);
        return r;
    }
    int n = c[i], r;
    if (need_pair && n >= 2) {
        c[i] -= 2;
        r = split_enum(c, i, 0, i, path, depth, out);
        c[i] += 2;
        if (r < 0)
            return -1;
    }
    if (n >= 3) {
        c[i] -= 3;
        path[depth] = PUNG * NK + i;
        r = split_enum(c, i, need_pair, pair, path, depth + 1, out);
        c[i] += 3;
        if (r < 0)
            return -1;
    }
    if (i < 27 && i % 9 <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--;
        c[i + 1]--;
        c[i + 2]--;
        path[depth] = CHOW * NK + i;
        r = split_enum(c, i, need_pair, pair, path, depth + 1, out);
        c[i]++;
        c[i + 1]++;
        c[i + 2]++;
        if (r < 0)
            return -1;
    }
    return 0;
}

static int
total(const int *c)
{
    int s = 0;
    for (int t = 0; t < NK; t++)
        s += c[t];
    return s;
}

/* is_seven_pairs(counts, allow_four=True) */
static int
seven_pairs(const int *c)
{
    if (total(c) != 14)
        return 0;
    for (int t = 0; t < NK; t++)
        if (c[t] != 0 && c[t] != 2 && c[t] != 4)
            return 0;
    return 1;
}

/* is_thirteen_orphans */
static int
thirteen_orphans(const int *c)
{
    if (total(c) != 14)
        return 0;
    int s = 0;
    for (int k = 0; k < 13; k++) {
        if (c[ORPHANS[k]] < 1)
            return 0;
        s += c[ORPHANS[k]];
    }
    return s == 14;
}

/* honors_and_knitted(counts) is not None */
static int
honors_knitted(const int *c)
{
    if (total(c) != 14)
        return 0;
    for (int t = 0; t < NK; t++)
        if (c[t] > 1)
            return 0;
    for (int k = 0; k < 6; k++) {
        int ok = 1;
        for (int t = 0; t < 27 && ok; t++)
            if (c[t] && !in_knitted[k][t])
                ok = 0;
        if (ok)
            return 1;
    }
    return 0;
}

/* knitted_straight_decompositions(counts) non-empty */
static int
knitted_any(const int *counts)
{
    int c[NK];
    for (int k = 0; k < 6; k++) {
        int ok = 1;
        for (int j = 0; j < 9 && ok; j++)
            if (!counts[knitted[k][j]])
                ok = 0;
        if (!ok)
            continue;
        memcpy(c, counts, sizeof c);
        for (int j = 0; j < 9; j++)
            c[knitted[k][j]]--;
        if (total(c) % 3 == 2 && split_exists(c, 0, 1))
            return 1;
    }
    return 0;
}

/* is_complete */
static int
complete(int *c, long n_melds, int forms)
{
    if (std_complete(c))
        return 1;
    if (n_melds == 0) {
        if ((forms & F_SEVEN_PAIRS) && seven_pairs(c))
            return 1;
        if ((forms & F_THIRTEEN) && thirteen_orphans(c))
            return 1;
        if ((forms & F_HONORS_KNITTED) && honors_knitted(c))
            return 1;
    }
    if ((forms & F_KNITTED) && n_melds <= 1 && knitted_any(c))
        return 1;
    return 0;
}

static int
only_orphans(const int *c)
{
    for (int t = 0; t < NK; t++)
        if (c[t] && !is_orphan[t])
            return 0;
    return 1;
}

static int
max_count(const int *c)
{
    int m = 0;
    for (int t = 0; t < NK; t++)
        if (c[t] > m)
            m = c[t];
    return m;
}

static int
knitted_held(const int *c, int k)
{
    int n = 0;
    for (int j = 0; j < 9; j++)
        if (c[knitted[k][j]])
            n++;
    return n;
}

/* The standard form group by group: is_standard_complete is true exactly
 * when no suit or honour kind fails and exactly one holds the pair (the
 * reference's early returns give the same answer). */
enum { G_OK = 0, G_PAIR = 1, G_FAIL = 2 };

static int
suit_status(const int *counts, int b)
{
    int part[9], s = 0;
    for (int k = 0; k < 9; k++) {
        part[k] = counts[b + k];
        s += part[k];
    }
    int r = s % 3;
    if (r == 1)
        return G_FAIL;
    if (r == 2)
        return suit_splits_memo(part, 1) ? G_PAIR : G_FAIL;
    return s == 0 || suit_splits_memo(part, 0) ? G_OK : G_FAIL;
}

static int
honor_status(int n)
{
    return n == 2 ? G_PAIR : (n == 0 || n == 3) ? G_OK : G_FAIL;
}

typedef struct {
    int status[10]; /* suits 0-2, then the honour kinds 27-33 as 3-9 */
    int fails, pairs;
} StdBase;

static int
group_of(int t)
{
    return t < 27 ? t / 9 : t - 24;
}

static void
std_base(const int *c, StdBase *b)
{
    b->fails = b->pairs = 0;
    for (int g = 0; g < 10; g++) {
        int st = g < 3 ? suit_status(c, g * 9) : honor_status(c[g + 24]);
        b->status[g] = st;
        b->fails += st == G_FAIL;
        b->pairs += st == G_PAIR;
    }
}

/* is_standard_complete(c), where c is the base counts with t added */
static int
std_complete_plus(const int *c, const StdBase *b, int t)
{
    int g = group_of(t);
    int st = g < 3 ? suit_status(c, g * 9) : honor_status(c[t]);
    int old = b->status[g];
    int fails = b->fails - (old == G_FAIL) + (st == G_FAIL);
    int pairs = b->pairs - (old == G_PAIR) + (st == G_PAIR);
    return fails == 0 && pairs == 1;
}

/* is_complete less its first test (the standard form) */
static int
complete_special(int *c, long n_melds, int forms)
{
    if (n_melds == 0) {
        if ((forms & F_SEVEN_PAIRS) && seven_pairs(c))
            return 1;
        if ((forms & F_THIRTEEN) && thirteen_orphans(c))
            return 1;
        if ((forms & F_HONORS_KNITTED) && honors_knitted(c))
            return 1;
    }
    if ((forms & F_KNITTED) && n_melds <= 1 && knitted_any(c))
        return 1;
    return 0;
}

/* _plausible_forms */
static int
plausible_forms(const int *c, long n_melds, int forms)
{
    int keep = forms & F_STANDARD;
    if (n_melds == 0) {
        if (forms & F_SEVEN_PAIRS) {
            int p = 0;
            for (int t = 0; t < NK; t++)
                p += c[t] / 2;
            if (p >= 6)
                keep |= F_SEVEN_PAIRS;
        }
        if ((forms & F_THIRTEEN) && only_orphans(c))
            keep |= F_THIRTEEN;
        if ((forms & F_HONORS_KNITTED) && max_count(c) <= 1)
            keep |= F_HONORS_KNITTED;
    }
    if ((forms & F_KNITTED) && n_melds <= 1) {
        for (int k = 0; k < 6; k++) {
            if (knitted_held(c, k) >= 8) {
                keep |= F_KNITTED;
                break;
            }
        }
    }
    return keep;
}

/* _candidates (as flags per kind; the reference sorts them) */
static void
candidates(const int *c, long n_melds, int forms, char *cand)
{
    memset(cand, 0, NK);
    for (int t = 0; t < NK; t++) {
        if (!c[t])
            continue;
        cand[t] = 1;
        if (t < 27) {
            int r = t % 9;
            for (int d = -2; d <= 2; d++)
                if (d && r + d >= 0 && r + d <= 8)
                    cand[t + d] = 1;
        }
    }
    if (n_melds == 0 && (forms & (F_THIRTEEN | F_HONORS_KNITTED))) {
        if ((forms & F_THIRTEEN) && only_orphans(c))
            for (int k = 0; k < 13; k++)
                cand[ORPHANS[k]] = 1;
        if ((forms & F_HONORS_KNITTED) && max_count(c) <= 1)
            memset(cand, 1, NK);
    }
    if ((forms & F_KNITTED) && n_melds <= 1)
        for (int k = 0; k < 6; k++)
            if (knitted_held(c, k) >= 8)
                for (int j = 0; j < 9; j++)
                    cand[knitted[k][j]] = 1;
}

/* ------------------------------------------------------------------ */
/* the Python functions                                               */

static PyObject *
py_is_standard_complete(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[NK];
    if (nargs != 1)
        return fallback(pure_isc, args, nargs, NULL);
    int r = read_counts(args[0], c);
    if (r < 0)
        return NULL;
    if (r == 0)
        return fallback(pure_isc, args, nargs, NULL);
    return PyBool_FromLong(std_complete(c));
}

static PyObject *
py_standard_decompositions(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[NK];
    if (nargs != 1)
        return fallback(pure_sd, args, nargs, NULL);
    int r = read_counts(args[0], c);
    if (r < 0)
        return NULL;
    if (r == 0)
        return fallback(pure_sd, args, nargs, NULL);
    if (total(c) % 3 != 2) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int path[NK * MAX_COUNT];
    if (split_enum(c, 0, 1, -1, path, 0, out) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *res = PyList_AsTuple(out);
    Py_DECREF(out);
    return res;
}

/* the (counts, n_melds, forms) of a call of three arguments: 1 read, 0 outside the
 * compiled domain (the reference answers; with `set_forms`, forms that are no set
 * too), -1 an error raised */
static int
read_cmf(PyObject *const *args, Py_ssize_t nargs, int set_forms, int *c, long *n_melds,
         int *forms)
{
    if (nargs != 3)
        return 0;
    int r = read_counts(args[0], c);
    if (r == 1)
        r = read_melds(args[1], n_melds);
    if (r == 1 && set_forms && !PyAnySet_Check(args[2]))
        r = 0;
    if (r != 1)
        return r;
    *forms = read_forms(args[2]);
    return *forms < 0 ? -1 : 1;
}

static PyObject *
py_is_complete(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[NK], forms;
    long n_melds;
    int r = read_cmf(args, nargs, 0, c, &n_melds, &forms);
    if (r < 0)
        return NULL;
    if (r == 0)
        return fallback(pure_ic, args, nargs, NULL);
    return PyBool_FromLong(complete(c, n_melds, forms));
}

static int m_n_completing(const int *c0, long n_melds, int forms, int fifth);

/* ready_discards(counts, n_melds, forms): the kinds held whose discard leaves
 * a hand one tile from complete (completing_tiles of the rest not empty, a
 * fifth copy never a wait), ascending; reference
 * hefen.decompose._py_ready_discards */
static PyObject *
py_ready_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[NK], forms;
    long n_melds;
    int r = read_cmf(args, nargs, 1, c, &n_melds, &forms);
    if (r < 0)
        return NULL;
    if (r == 0)
        return fallback(pure_rd, args, nargs, NULL);
    int found[NK], nf = 0;
    for (int t = 0; t < NK; t++) {
        if (c[t] <= 0)
            continue;
        c[t]--;
        if (m_n_completing(c, n_melds, forms, 0) > 0)
            found[nf++] = t;
        c[t]++;
    }
    PyObject *res = PyTuple_New(nf);
    if (res == NULL)
        return NULL;
    for (int i = 0; i < nf; i++) {
        PyObject *v = PyLong_FromLong(found[i]);
        if (v == NULL) {
            Py_DECREF(res);
            return NULL;
        }
        PyTuple_SET_ITEM(res, i, v);
    }
    return res;
}

/* completes_with(tiles, n_melds, forms, tile): whether tile is one of
 * completing_tiles(the counts of tiles, n_melds, forms), tiles a list or
 * tuple of kinds (a claim's first question: does the discard complete the
 * hand?), reference hefen.decompose._py_completes_with */
static PyObject *
py_completes_with(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[NK], forms, tile;
    long n_melds;
    if (nargs != 4 || !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])) ||
        !PyAnySet_Check(args[2]))
        return fallback(pure_cw, args, nargs, NULL);
    int r = read_melds(args[1], &n_melds);
    if (r < 0)
        return NULL;
    if (r == 0 || (tile = read_kind(args[3])) < 0)
        return fallback(pure_cw, args, nargs, NULL);
    memset(c, 0, sizeof c);
    PyObject *seq = args[0];
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        int t = read_kind(items[i]);
        if (t < 0 || c[t] >= MAX_COUNT)
            return fallback(pure_cw, args, nargs, NULL);
        c[t]++;
    }
    if ((forms = read_forms(args[2])) < 0)
        return NULL;
    forms = plausible_forms(c, n_melds, forms);
    char cand[NK];
    candidates(c, n_melds, forms, cand);
    if (!cand[tile] || c[tile] >= 4)
        Py_RETURN_FALSE;
    StdBase base;
    std_base(c, &base);
    c[tile]++;
    return PyBool_FromLong(std_complete_plus(c, &base, tile) ||
                           complete_special(c, n_melds, forms));
}

static PyObject *
py_completing_tiles(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"counts", "n_melds", "forms", "fifth"};
    PyObject *vals[4] = {NULL, NULL, NULL, NULL};
    Py_ssize_t ci = 0; /* where counts is in args */
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs > 4)
        return fallback(pure_ct, args, nargs, kwnames);
    for (Py_ssize_t i = 0; i < nargs; i++)
        vals[i] = args[i];
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = 0;
        for (int j = 0; j < 4; j++) {
            if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0) {
                if (vals[j] != NULL)
                    return fallback(pure_ct, args, nargs, kwnames);
                vals[j] = args[nargs + k];
                if (j == 0)
                    ci = nargs + k;
                found = 1;
                break;
            }
        }
        if (!found)
            return fallback(pure_ct, args, nargs, kwnames);
    }
    if (vals[0] == NULL)
        return fallback(pure_ct, args, nargs, kwnames);

    /* the reference reads tuple(counts) first and caches on
     * (counts, n_melds, forms, fifth): the same hashing errors */
    PyObject *counts = PySequence_Tuple(vals[0]);
    if (counts == NULL)
        return NULL;
    int c[NK];
    long n_melds = 0;
    int r = read_counts(counts, c);
    if (r == 1 && vals[1] != NULL)
        r = read_melds(vals[1], &n_melds);
    if (r == 1 && vals[2] != NULL && !PyAnySet_Check(vals[2]))
        r = 0; /* the reference takes set operations of forms */
    if (r == 1 && vals[2] != NULL && PyObject_Hash(vals[2]) == -1 && PyErr_Occurred())
        r = -1;
    if (r == 1 && vals[3] != NULL && PyObject_Hash(vals[3]) == -1 && PyErr_Occurred())
        r = -1;
    if (r < 0) {
        Py_DECREF(counts);
        return NULL;
    }
    if (r == 0) {
        /* hand the reference the same call, with counts as the tuple read
         * (an iterator given as counts is spent by now) */
        Py_ssize_t n = nargs + nkw;
        PyObject *a[8];
        for (Py_ssize_t i = 0; i < n; i++)
            a[i] = i == ci ? counts : args[i];
        PyObject *res = fallback(pure_ct, a, nargs, kwnames);
        Py_DECREF(counts);
        return res;
    }
    Py_DECREF(counts);

    int forms;
    if (vals[2] == NULL) {
        forms = F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN | F_HONORS_KNITTED | F_KNITTED;
    }
    else {
        forms = read_forms(vals[2]);
        if (forms < 0)
            return NULL;
    }
    int fifth = 0;
    if (vals[3] != NULL) {
        fifth = PyObject_IsTrue(vals[3]);
        if (fifth < 0)
            return NULL;
    }

    forms = plausible_forms(c, n_melds, forms);
    char cand[NK];
    candidates(c, n_melds, forms, cand);
    /* is_standard_complete(c + t) for each candidate t, from the status of
     * each suit and honour kind of c: only t's own group changes */
    StdBase base;
    std_base(c, &base);
    int found[NK], nf = 0;
    for (int t = 0; t < NK; t++) {
        if (!cand[t])
            continue;
        if (c[t] >= 4 && !fifth)
            continue;
        c[t]++;
        if (std_complete_plus(c, &base, t) || complete_special(c, n_melds, forms))
            found[nf++] = t;
        c[t]--;
    }
    PyObject *res = PyTuple_New(nf);
    if (res == NULL)
        return NULL;
    for (int k = 0; k < nf; k++) {
        Py_INCREF(tile_obj[found[k]]);
        PyTuple_SET_ITEM(res, k, tile_obj[found[k]]);
    }
    return res;
}

static PyObject *
py_set_pure(PyObject *self, PyObject *args)
{
    PyObject *a, *b, *c, *d, *e = NULL, *f = NULL;
    if (!PyArg_ParseTuple(args, "OOOO|OO:_set_pure", &a, &b, &c, &d, &e, &f))
        return NULL;
    Py_INCREF(a);
    Py_INCREF(b);
    Py_INCREF(c);
    Py_INCREF(d);
    Py_XSETREF(pure_isc, a);
    Py_XSETREF(pure_sd, b);
    Py_XSETREF(pure_ic, c);
    Py_XSETREF(pure_ct, d);
    if (e != NULL) { /* kept as registered where not given */
        Py_INCREF(e);
        Py_XSETREF(pure_rd, e);
    }
    if (f != NULL) {
        Py_INCREF(f);
        Py_XSETREF(pure_cw, f);
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ */
/* MCR combination patterns (hefen.mcr.detect)                        */

enum {
    P_PURE_DOUBLE_CHOW, P_MIXED_DOUBLE_CHOW, P_SHORT_STRAIGHT, P_TWO_TERMINAL_CHOWS,
    P_MIXED_TRIPLE_CHOW, P_MIXED_STRAIGHT, P_MIXED_SHIFTED_CHOWS, P_PURE_TRIPLE_CHOW,
    P_PURE_STRAIGHT, P_PURE_SHIFTED_CHOWS, P_QUADRUPLE_CHOW, P_FOUR_PURE_SHIFTED_CHOWS,
    P_DOUBLE_PUNG, P_TWO_DRAGON_PUNGS, P_TRIPLE_PUNG, P_MIXED_SHIFTED_PUNGS,
    P_PURE_SHIFTED_PUNGS, P_BIG_THREE_WINDS, P_BIG_THREE_DRAGONS, P_FOUR_PURE_SHIFTED_PUNGS,
    P_BIG_FOUR_WINDS, N_COMBO
};

static const char *COMBO_NAMES[N_COMBO] = {
    "pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows",
    "mixed_triple_chow", "mixed_straight", "mixed_shifted_chows", "pure_triple_chow",
    "pure_straight", "pure_shifted_chows", "quadruple_chow", "four_pure_shifted_chows",
    "double_pung", "two_dragon_pungs", "triple_pung", "mixed_shifted_pungs",
    "pure_shifted_pungs", "big_three_winds", "big_three_dragons", "four_pure_shifted_pungs",
    "big_four_winds",
};

static PyObject *combo_str[N_COMBO];
static PyObject *kind_chow, *kind_pung, *kind_kong, *str_kind, *str_tile;
static PyObject *handset_type; /* hefen.sets.HandSet */
static PyObject *pure_cc, *pure_sc;

static void
sort_ints(int *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int x = a[j];
            a[j] = a[j - 1];
            a[j - 1] = x;
        }
}

static int is_wind_t(int t) { return 27 <= t && t <= 30; }
static int is_dragon_t(int t) { return 31 <= t && t <= 33; }

/* each writes the pattern ids found, returns how many */
static int
chow_pair(int a, int b, int *out)
{
    int n = 0, sa = a / 9, sb = b / 9;
    if (a == b)
        out[n++] = P_PURE_DOUBLE_CHOW;
    else if (a % 9 == b % 9)
        out[n++] = P_MIXED_DOUBLE_CHOW;
    if (sa == sb && b - a == 3)
        out[n++] = P_SHORT_STRAIGHT;
    if (sa == sb && a % 9 == 0 && b % 9 == 6)
        out[n++] = P_TWO_TERMINAL_CHOWS;
    return n;
}

static int
n_suits(const int *ts, int k)
{
    int seen[4] = {0, 0, 0, 0}, n = 0;
    for (int i = 0; i < k; i++)
        if (!seen[ts[i] / 9]) {
            seen[ts[i] / 9] = 1;
            n++;
        }
    return n;
}

static int
chow_triple(int a, int b, int c, int *out)
{
    int ts[3] = {a, b, c}, r[3], n = 0;
    sort_ints(ts, 3);
    int suits = n_suits(ts, 3);
    for (int i = 0; i < 3; i++)
        r[i] = ts[i] % 9;
    sort_ints(r, 3);
    if (suits == 3) {
        if (r[0] == r[1] && r[1] == r[2])
            out[n++] = P_MIXED_TRIPLE_CHOW;
        if (r[0] == 0 && r[1] == 3 && r[2] == 6)
            out[n++] = P_MIXED_STRAIGHT;
        if (r[1] == r[0] + 1 && r[2] == r[1] + 1)
            out[n++] = P_MIXED_SHIFTED_CHOWS;
    }
    else if (suits == 1) {
        int x = ts[0], y = ts[1], z = ts[2];
        if (x == y && y == z)
            out[n++] = P_PURE_TRIPLE_CHOW;
        if (x % 9 == 0 && y == x + 3 && z == x + 6)
            out[n++] = P_PURE_STRAIGHT;
        if (y - x == z - y && (y - x == 1 || y - x == 2))
            out[n++] = P_PURE_SHIFTED_CHOWS;
    }
    return n;
}

static int
chow_quad(const int *t4, int *out)
{
    int ts[4] = {t4[0], t4[1], t4[2], t4[3]};
    sort_ints(ts, 4);
    int a = ts[0], b = ts[1], c = ts[2], d = ts[3];
    if (a / 9 != d / 9)
        return 0;
    if (a == b && b == c && c == d) {
        out[0] = P_QUADRUPLE_CHOW;
        return 1;
    }
    if (b - a == c - b && c - b == d - c && (b - a == 1 || b - a == 2)) {
        out[0] = P_FOUR_PURE_SHIFTED_CHOWS;
        return 1;
    }
    return 0;
}

static int
pung_pair(int a, int b, int *out)
{
    if (a < 27 && b < 27 && a % 9 == b % 9 && a != b) {
        out[0] = P_DOUBLE_PUNG;
        return 1;
    }
    if (is_dragon_t(a) && is_dragon_t(b)) {
        out[0] = P_TWO_DRAGON_PUNGS;
        return 1;
    }
    return 0;
}

static int
pung_triple(int a, int b, int c, int *out)
{
    int ts[3] = {a, b, c};
    sort_ints(ts, 3);
    if (ts[0] < 27 && ts[1] < 27 && ts[2] < 27) {
        int suits = n_suits(ts, 3), r[3];
        for (int i = 0; i < 3; i++)
            r[i] = ts[i] % 9;
        sort_ints(r, 3);
        if (suits == 3) {
            if (r[0] == r[1] && r[1] == r[2]) {
                out[0] = P_TRIPLE_PUNG;
                return 1;
            }
            if (r[1] == r[0] + 1 && r[2] == r[1] + 1) {
                out[0] = P_MIXED_SHIFTED_PUNGS;
                return 1;
            }
        }
        if (suits == 1 && ts[1] == ts[0] + 1 && ts[2] == ts[1] + 1) {
            out[0] = P_PURE_SHIFTED_PUNGS;
            return 1;
        }
        return 0;
    }
    if (is_wind_t(ts[0]) && is_wind_t(ts[1]) && is_wind_t(ts[2])) {
        out[0] = P_BIG_THREE_WINDS;
        return 1;
    }
    if (is_dragon_t(ts[0]) && is_dragon_t(ts[1]) && is_dragon_t(ts[2])) {
        out[0] = P_BIG_THREE_DRAGONS;
        return 1;
    }
    return 0;
}

static int
pung_quad(const int *t4, int *out)
{
    int ts[4] = {t4[0], t4[1], t4[2], t4[3]};
    sort_ints(ts, 4);
    int a = ts[0], b = ts[1], c = ts[2], d = ts[3];
    if (a < 27 && a / 9 == d / 9 && b == a + 1 && c == b + 1 && d == c + 1) {
        out[0] = P_FOUR_PURE_SHIFTED_PUNGS;
        return 1;
    }
    if (a == 27 && b == 28 && c == 29 && d == 30) {
        out[0] = P_BIG_FOUR_WINDS;
        return 1;
    }
    return 0;
}

static int
append_cand(PyObject *out, int pid, const int *idx, int k)
{
    PyObject *sets = PyTuple_New(k);
    if (sets == NULL)
        return -1;
    for (int i = 0; i < k; i++) {
        PyObject *v = PyLong_FromLong(idx[i]);
        if (v == NULL) {
            Py_DECREF(sets);
            return -1;
        }
        PyTuple_SET_ITEM(sets, i, v);
    }
    PyObject *c = PyTuple_Pack(2, combo_str[pid], sets);
    Py_DECREF(sets);
    if (c == NULL)
        return -1;
    int r = PyList_Append(out, c);
    Py_DECREF(c);
    return r;
}

#define MAX_GROUPS 64

static PyObject *
py_combination_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || handset_type == NULL || !PyList_CheckExact(args[0]) ||
        PyList_GET_SIZE(args[0]) > MAX_GROUPS)
        return fallback(pure_cc, args, nargs, NULL);
    PyObject *groups = args[0];
    Py_ssize_t ng = PyList_GET_SIZE(groups);
    int kind[MAX_GROUPS], tile[MAX_GROUPS]; /* kind: 0 chow, 1 pung-like, 2 other */
    for (Py_ssize_t i = 0; i < ng; i++) {
        PyObject *g = PyList_GET_ITEM(groups, i);
        if ((PyObject *)Py_TYPE(g) != handset_type)
            return fallback(pure_cc, args, nargs, NULL);
        PyObject *k = PyObject_GetAttr(g, str_kind);
        if (k == NULL)
            return NULL;
        int eq;
        if ((eq = PyObject_RichCompareBool(k, kind_chow, Py_EQ)) == 1)
            kind[i] = 0;
        else if (eq == 0 && (eq = PyObject_RichCompareBool(k, kind_pung, Py_EQ)) == 1)
            kind[i] = 1;
        else if (eq == 0 && (eq = PyObject_RichCompareBool(k, kind_kong, Py_EQ)) == 1)
            kind[i] = 1;
        else
            kind[i] = 2;
        Py_DECREF(k);
        if (eq < 0)
            return NULL;
        PyObject *t = PyObject_GetAttr(g, str_tile);
        if (t == NULL)
            return NULL;
        int ok = PyLong_CheckExact(t);
        long v = ok ? PyLong_AsLong(t) : -1;
        Py_DECREF(t);
        if (v == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (!ok || v < 0 || v >= NK)
            return fallback(pure_cc, args, nargs, NULL);
        tile[i] = (int)v;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int pids[8];
    for (int fam = 0; fam < 2; fam++) {
        int idx[MAX_GROUPS], n = 0;
        for (int i = 0; i < ng; i++)
            if (kind[i] == fam)
                idx[n++] = i;
        for (int x = 0; x < n; x++)
            for (int y = x + 1; y < n; y++) {
                int i = idx[x], j = idx[y];
                int a = tile[i], b = tile[j];
                if (a > b) {
                    int tmp = a;
                    a = b;
                    b = tmp;
                }
                int np = fam == 0 ? chow_pair(a, b, pids) : pung_pair(a, b, pids);
                int ij[2] = {i, j};
                for (int q = 0; q < np; q++)
                    if (append_cand(out, pids[q], ij, 2) < 0)
                        goto fail;
                for (int z = y + 1; z < n; z++) {
                    int k = idx[z];
                    np = fam == 0 ? chow_triple(tile[i], tile[j], tile[k], pids)
                                  : pung_triple(tile[i], tile[j], tile[k], pids);
                    int ijk[3] = {i, j, k};
                    for (int q = 0; q < np; q++)
                        if (append_cand(out, pids[q], ijk, 3) < 0)
                            goto fail;
                }
            }
        if (n == 4) {
            int t4[4] = {tile[idx[0]], tile[idx[1]], tile[idx[2]], tile[idx[3]]};
            int np = fam == 0 ? chow_quad(t4, pids) : pung_quad(t4, pids);
            for (int q = 0; q < np; q++)
                if (append_cand(out, pids[q], idx, 4) < 0)
                    goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* select_combinations: the same branch and bound as the reference */
#define MAX_CANDS 64

typedef struct {
    int n;
    long long value[MAX_CANDS];
    long long suffix[MAX_CANDS + 1];
    int pid[MAX_CANDS];  /* distinct pattern ids, numbered */
    int nsets[MAX_CANDS];
    int sets[MAX_CANDS][8];
    int chosen[MAX_CANDS], nchosen;
    int best[MAX_CANDS], nbest;
    long long best_v;
} Search;

static int
find_root(const int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x];
    return x;
}

static void
search(Search *S, int k, const int *parent, const unsigned *used, long long v)
{
    if (v > S->best_v) {
        S->best_v = v;
        memcpy(S->best, S->chosen, sizeof(int) * S->nchosen);
        S->nbest = S->nchosen;
    }
    if (k == S->n)
        return;
    if (v + S->suffix[k] <= S->best_v)
        return;
    int ns = S->nsets[k], pid = S->pid[k];
    const int *sets = S->sets[k];
    int roots[8], ok = 1;
    for (int a = 0; a < ns && ok; a++) {
        roots[a] = find_root(parent, sets[a]);
        for (int b = 0; b < a; b++)
            if (roots[b] == roots[a])
                ok = 0;
        if (used[pid] & (1u << sets[a]))
            ok = 0;
    }
    if (ok) {
        int p2[8];
        unsigned u2[MAX_CANDS];
        memcpy(p2, parent, sizeof p2);
        memcpy(u2, used, sizeof(unsigned) * S->n);
        int r0 = find_root(p2, sets[0]);
        for (int a = 1; a < ns; a++)
            p2[find_root(p2, sets[a])] = r0;
        for (int a = 0; a < ns; a++)
            u2[pid] |= 1u << sets[a];
        S->chosen[S->nchosen++] = k;
        search(S, k + 1, p2, u2, v + S->value[k]);
        S->nchosen--;
    }
    search(S, k + 1, parent, used, v);
}

static PyObject *
py_select_combinations(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_CheckExact(args[0]) || !PyDict_CheckExact(args[1]))
        return fallback(pure_sc, args, nargs, NULL);
    PyObject *cands = args[0], *value = args[1];
    Py_ssize_t n = PyList_GET_SIZE(cands);
    if (n == 0)
        return PyList_New(0);
    if (n > MAX_CANDS)
        return fallback(pure_sc, args, nargs, NULL);
    Search *S = PyMem_Malloc(sizeof(Search));
    if (S == NULL)
        return PyErr_NoMemory();
    PyObject *names[MAX_CANDS]; /* distinct pattern ids (borrowed) */
    int nnames = 0;
    long long val[MAX_CANDS];
    int pidx[MAX_CANDS], nsets[MAX_CANDS], sets[MAX_CANDS][8];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyList_GET_ITEM(cands, i);
        if (!PyTuple_CheckExact(c) || PyTuple_GET_SIZE(c) != 2)
            goto pure;
        PyObject *pid = PyTuple_GET_ITEM(c, 0), *st = PyTuple_GET_ITEM(c, 1);
        if (!PyUnicode_CheckExact(pid) || !PyTuple_CheckExact(st) || PyTuple_GET_SIZE(st) < 1 ||
            PyTuple_GET_SIZE(st) > 8)
            goto pure;
        PyObject *v = PyDict_GetItemWithError(value, pid);
        if (v == NULL) {
            if (PyErr_Occurred())
                goto error;
            goto pure; /* the reference's KeyError */
        }
        if (!PyLong_CheckExact(v))
            goto pure;
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || x > (1LL << 40) || x < -(1LL << 40))
            goto pure;
        val[i] = x;
        nsets[i] = (int)PyTuple_GET_SIZE(st);
        for (int a = 0; a < nsets[i]; a++) {
            PyObject *s = PyTuple_GET_ITEM(st, a);
            if (!PyLong_CheckExact(s))
                goto pure;
            long sv = PyLong_AsLong(s);
            if (sv == -1 && PyErr_Occurred())
                PyErr_Clear();
            if (sv < 0 || sv > 7)
                goto pure;
            sets[i][a] = (int)sv;
        }
        int found = -1;
        for (int q = 0; q < nnames && found < 0; q++) {
            if (names[q] == pid)
                found = q;
            else {
                int eq = PyUnicode_Compare(names[q], pid);
                if (eq == -1 && PyErr_Occurred())
                    goto error;
                if (eq == 0)
                    found = q;
            }
        }
        if (found < 0) {
            names[nnames] = pid;
            found = nnames++;
        }
        pidx[i] = found;
    }
    /* order: sorted by -value, stable */
    int order[MAX_CANDS];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && val[order[j - 1]] < val[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    S->n = (int)n;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        S->value[k] = val[i];
        S->pid[k] = pidx[i];
        S->nsets[k] = nsets[i];
        memcpy(S->sets[k], sets[i], sizeof(int) * 8);
    }
    S->suffix[n] = 0;
    for (int k = (int)n - 1; k >= 0; k--)
        S->suffix[k] = S->suffix[k + 1] + S->value[k];
    S->nchosen = S->nbest = 0;
    S->best_v = -1;
    int parent[8];
    for (int i = 0; i < 8; i++)
        parent[i] = i;
    unsigned used[MAX_CANDS];
    memset(used, 0, sizeof used);
    search(S, 0, parent, used, 0);
    PyObject *res = PyList_New(S->nbest);
    if (res != NULL)
        for (int q = 0; q < S->nbest; q++) {
            PyObject *c = PyList_GET_ITEM(cands, order[S->best[q]]);
            Py_INCREF(c);
            PyList_SET_ITEM(res, q, c);
        }
    PyMem_Free(S);
    return res;
pure:
    PyMem_Free(S);
    return fallback(pure_sc, args, nargs, NULL);
error:
    PyMem_Free(S);
    return NULL;
}

/* --- whole-hand tile patterns: suit_patterns, tile_patterns,
 * rank_patterns and tile_hog of hefen.mcr.detect, each calling t.add as
 * the reference does --- */

enum {
    T_NO_HONORS, T_ONE_VOIDED_SUIT, T_HALF_FLUSH, T_FULL_FLUSH, T_ALL_TYPES, T_ALL_SIMPLES,
    T_REVERSIBLE, T_ALL_GREEN, T_ALL_HONORS, T_ALL_TERMINALS, T_ALL_TERMINALS_AND_HONORS,
    T_LOWER_FOUR, T_LOWER_TILES, T_UPPER_FOUR, T_UPPER_TILES, T_MIDDLE_TILES, T_TILE_HOG,
    N_TRAIT
};
static const char *TRAIT_NAMES[N_TRAIT] = {
    "no_honors", "one_voided_suit", "half_flush", "full_flush", "all_types", "all_simples",
    "reversible_tiles", "all_green", "all_honors", "all_terminals", "all_terminals_and_honors",
    "lower_four", "lower_tiles", "upper_four", "upper_tiles", "middle_tiles", "tile_hog",
};
static PyObject *trait_str[N_TRAIT];
static PyObject *str_add, *kw_n, *kw_n_uses;
static PyObject *quad_codes; /* tuple: tile_to_str(t) * 4 for each kind */
static PyObject *pure_suit, *pure_tilep, *pure_rank, *pure_hog;
static const int REVERSIBLE_T[] = {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33};
static const int GREEN_T[] = {19, 20, 21, 23, 25, 32};
static char is_reversible[NK], is_green[NK];

#define MAX_TILES 64

/* 1 read, 0 outside the domain, -1 error */
static int
read_tiles(PyObject *obj, int *tiles, Py_ssize_t *n)
{
    if (!PyList_CheckExact(obj) && !PyTuple_CheckExact(obj))
        return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(obj);
    if (k > MAX_TILES)
        return 0;
    PyObject **items = PySequence_Fast_ITEMS(obj);
    for (Py_ssize_t i = 0; i < k; i++) {
        if (!PyLong_CheckExact(items[i]))
            return 0;
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(items[i], &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow || v < 0 || v >= NK)
            return 0;
        tiles[i] = (int)v;
    }
    *n = k;
    return 1;
}

static int
is_terminal_t(int t)
{
    return t < 27 && (t % 9 == 0 || t % 9 == 8);
}

/* t.add(pid) */
static int
tally_add(PyObject *t, int pid)
{
    PyObject *args[2] = {t, trait_str[pid]};
    PyObject *r = PyObject_VectorcallMethod(str_add, args, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

#define TILES_ARGS(pure)                                                   \
    int tiles[MAX_TILES];                                                  \
    Py_ssize_t n = 0;                                                      \
    if (nargs != 2)                                                        \
        return fallback(pure, args, nargs, NULL);                          \
    int rr = read_tiles(args[0], tiles, &n);                               \
    if (rr < 0)                                                            \
        return NULL;                                                       \
    if (rr == 0)                                                           \
        return fallback(pure, args, nargs, NULL);                          \
    PyObject *t = args[1];

/* The whole-hand tile patterns, computed once for both tallies (the
 * Python Tally of the reference readings, py_*, and the compiled scorer's
 * MTally, m_*): each writes its traits in the order the Python adds them. */

/* each kind's traits for the tile patterns, once (module init) */
enum { TF_TERM = 1, TF_HON = 2, TF_REV = 4, TF_GREEN = 8 };
static unsigned char m_tflags[NK];

static void
m_tflags_init(void)
{
    for (int x = 0; x < NK; x++)
        m_tflags[x] = (unsigned char)((is_terminal_t(x) ? TF_TERM : 0) | (x >= 27 ? TF_HON : 0) |
                                      (is_reversible[x] ? TF_REV : 0) |
                                      (is_green[x] ? TF_GREEN : 0));
}

/* _py_suit_patterns: trait tr[k] added nn[k] times; returns how many */
static int
suit_traits(const int *tiles, int n, int *tr, int *nn)
{
    int suit_seen[3] = {0, 0, 0}, honors = 0, wind = 0, dragon = 0, k = 0;
    for (int i = 0; i < n; i++) {
        int x = tiles[i];
        if (x < 27)
            suit_seen[x / 9] = 1;
        else
            honors = 1;
        if (is_wind_t(x))
            wind = 1;
        if (is_dragon_t(x))
            dragon = 1;
    }
    int missing = 3 - (suit_seen[0] + suit_seen[1] + suit_seen[2]);
    if (!honors)
        tr[k] = T_NO_HONORS, nn[k++] = 1;
    if (missing == 1)
        tr[k] = T_ONE_VOIDED_SUIT, nn[k++] = 1;
    else if (missing == 2)
        tr[k] = honors ? T_HALF_FLUSH : T_FULL_FLUSH, nn[k++] = 1;
    else if (missing == 3)
        tr[k] = T_ONE_VOIDED_SUIT, nn[k++] = 3;
    if (missing == 0 && wind && dragon)
        tr[k] = T_ALL_TYPES, nn[k++] = 1;
    return k;
}

/* _py_tile_patterns: the traits added (once each); returns how many */
static int
tile_traits(const int *tiles, int n, int *tr)
{
    /* any: some tile has the trait; all: every tile has it */
    unsigned any = 0, all = TF_TERM | TF_HON | TF_REV | TF_GREEN, toh = 1;
    int k = 0;
    for (int i = 0; i < n; i++) {
        unsigned f = m_tflags[tiles[i]];
        any |= f;
        all &= f;
        toh &= (f & (TF_TERM | TF_HON)) != 0;
    }
    int simples = !(any & (TF_TERM | TF_HON));
    if (simples)
        tr[k++] = T_ALL_SIMPLES;
    if (all & TF_REV)
        tr[k++] = T_REVERSIBLE;
    if (all & TF_GREEN)
        tr[k++] = T_ALL_GREEN;
    if (!simples) {
        int pid = (all & TF_HON)    ? T_ALL_HONORS
                  : (all & TF_TERM) ? T_ALL_TERMINALS
                  : toh             ? T_ALL_TERMINALS_AND_HONORS
                                    : -1;
        if (pid >= 0)
            tr[k++] = pid;
    }
    return k;
}

/* _py_rank_patterns: the trait added, -1 none */
static int
rank_trait(const int *tiles, int n)
{
    int ranks = 0; /* bit r for rank r (1..9) */
    for (int i = 0; i < n; i++) {
        if (tiles[i] >= 27)
            return -1;
        ranks |= 1 << (tiles[i] % 9 + 1);
    }
    const int LOW = 0x1e, HIGH = 0x3c0, MID = 0x70; /* {1-4}, {6-9}, {4,5,6} */
    if ((ranks & ~LOW) == 0)
        return (ranks & (1 << 4)) ? T_LOWER_FOUR : T_LOWER_TILES;
    if ((ranks & ~HIGH) == 0)
        return (ranks & (1 << 6)) ? T_UPPER_FOUR : T_UPPER_TILES;
    if ((ranks & ~MID) == 0)
        return T_MIDDLE_TILES;
    return -1;
}

/* _py_tile_hog: how many Tile Hogs (<= 0: none), and the kinds held four
 * times in first-seen order (as Counter keeps them) in quads[*nq] */
static long
hog_quads(const int *tiles, int n, long kongs, int *quads, int *nq)
{
    int c[NK], order[NK], nk = 0;
    memset(c, 0, sizeof c);
    for (int i = 0; i < n; i++)
        if (c[tiles[i]]++ == 0)
            order[nk++] = tiles[i];
    long four = 0;
    for (int x = 0; x < NK; x++)
        four += c[x] == 4;
    *nq = 0;
    for (int k = 0; k < nk; k++)
        if (c[order[k]] == 4)
            quads[(*nq)++] = order[k];
    return four - kongs;
}

/* t.add(trait, n=count) */
static int
tally_add_n(PyObject *t, int pid, int count)
{
    if (count == 1)
        return tally_add(t, pid);
    PyObject *nobj = PyLong_FromLong(count);
    if (nobj == NULL)
        return -1;
    PyObject *a[3] = {t, trait_str[pid], nobj};
    PyObject *r = PyObject_VectorcallMethod(str_add, a, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw_n);
    Py_DECREF(nobj);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static PyObject *
py_suit_patterns(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    TILES_ARGS(pure_suit)
    int tr[4], nn[4];
    int k = suit_traits(tiles, (int)n, tr, nn);
    for (int i = 0; i < k; i++)
        if (tally_add_n(t, tr[i], nn[i]) < 0)
            return NULL;
    Py_RETURN_NONE;
}

static PyObject *
py_tile_patterns(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    TILES_ARGS(pure_tilep)
    int tr[4];
    int k = tile_traits(tiles, (int)n, tr);
    for (int i = 0; i < k; i++)
        if (tally_add(t, tr[i]) < 0)
            return NULL;
    Py_RETURN_NONE;
}

static PyObject *
py_rank_patterns(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    TILES_ARGS(pure_rank)
    int pid = rank_trait(tiles, (int)n);
    if (pid >= 0 && tally_add(t, pid) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
py_tile_hog(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int tiles[MAX_TILES];
    Py_ssize_t n = 0;
    long kongs = 0;
    if (nargs != 3 || quad_codes == NULL)
        return fallback(pure_hog, args, nargs, NULL);
    int rr = read_tiles(args[0], tiles, &n);
    if (rr == 1)
        rr = read_melds(args[1], &kongs);
    if (rr < 0)
        return NULL;
    if (rr == 0 || kongs > 1000 || kongs < -1000)
        return fallback(pure_hog, args, nargs, NULL);
    PyObject *t = args[2];
    int quads[NK], nq = 0;
    long hog = hog_quads(tiles, (int)n, kongs, quads, &nq);
    if (hog <= 0)
        Py_RETURN_NONE;
    PyObject *uses = PyList_New(0);
    if (uses == NULL)
        return NULL;
    for (int k = 0; k < nq; k++)
        if (PyList_Append(uses, PyTuple_GET_ITEM(quad_codes, quads[k])) < 0) {
            Py_DECREF(uses);
            return NULL;
        }
    PyObject *nobj = PyLong_FromLong(hog);
    if (nobj == NULL) {
        Py_DECREF(uses);
        return NULL;
    }
    /* t.add("tile_hog", n=n, uses=quads) */
    PyObject *a[4] = {t, trait_str[T_TILE_HOG], nobj, uses};
    PyObject *r =
        PyObject_VectorcallMethod(str_add, a, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw_n_uses);
    Py_DECREF(nobj);
    Py_DECREF(uses);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
py_set_pure_tiles(PyObject *self, PyObject *args)
{
    PyObject *a, *b, *c, *d, *codes;
    if (!PyArg_ParseTuple(args, "OOOOO!:_set_pure_tiles", &a, &b, &c, &d, &PyTuple_Type, &codes))
        return NULL;
    if (PyTuple_GET_SIZE(codes) != NK) {
        PyErr_SetString(PyExc_ValueError, "_set_pure_tiles: 34 tile codes");
        return NULL;
    }
    PyObject *q = PyTuple_New(NK);
    if (q == NULL)
        return NULL;
    for (int k = 0; k < NK; k++) {
        PyObject *s = PySequence_Repeat(PyTuple_GET_ITEM(codes, k), 4);
        if (s == NULL) {
            Py_DECREF(q);
            return NULL;
        }
        PyTuple_SET_ITEM(q, k, s);
    }
    Py_INCREF(a);
    Py_INCREF(b);
    Py_INCREF(c);
    Py_INCREF(d);
    Py_XSETREF(pure_suit, a);
    Py_XSETREF(pure_tilep, b);
    Py_XSETREF(pure_rank, c);
    Py_XSETREF(pure_hog, d);
    Py_XSETREF(quad_codes, q);
    Py_RETURN_NONE;
}

static PyObject *
py_set_pure_detect(PyObject *self, PyObject *args)
{
    PyObject *a, *b, *t;
    if (!PyArg_ParseTuple(args, "OOO:_set_pure_detect", &a, &b, &t))
        return NULL;
    Py_INCREF(a);
    Py_INCREF(b);
    Py_INCREF(t);
    Py_XSETREF(pure_cc, a);
    Py_XSETREF(pure_sc, b);
    Py_XSETREF(handset_type, t);
    Py_RETURN_NONE;
}

/* ---- the shanten tables (hefen.analysis.shanten) --------------------------
 * _suit_table, _honor_table, _combine, _combine_masks, _best and _best_mask,
 * branch for branch as the Python ones.  A table is 12 kept counts (index
 * sets * 2 + pairs) then 12 masks.  _suffix's process-wide lru_cache is a
 * per-call memo over (rank, a, b) here.  Inputs outside the C domain (not
 * tuples of plain ints of the right length, values past +-1e6, a base whose
 * masks would pass bit 63) go to the Python references. */
#define SH_K 5
#define SH_W 12
#define SH_NEG (-1000)
#define SH_BIG 1000000

typedef struct {
    long long v[SH_W];
    unsigned long long m[SH_W];
} shtab;

static PyObject *pure_suit_table, *pure_honor_table, *pure_combine, *pure_combine_masks,
    *pure_best, *pure_best_mask;

typedef struct {
    int n, lo; /* the window: n ranks from rank lo */
    long long c[9], cap[9], sum[10];
    unsigned char done[10][SH_K + 1][SH_K + 1];
    shtab memo[10][SH_K + 1][SH_K + 1];
} shsuffix;

static shsuffix sh_state; /* under the GIL: one call at a time */

static const int SH_YZ[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};

static inline void
sh_upd(shtab *out, int j, long long v, unsigned long long m)
{
    if (v > out->v[j]) {
        out->v[j] = v;
        out->m[j] = m;
    }
    else if (v == out->v[j])
        out->m[j] |= m;
}

static const shtab *
sh_suffix(shsuffix *st, int pos, int a, int b)
{
    static const shtab empty_closed = {{0}, {0}};
    if (pos == st->n)
        return &empty_closed;
    if (st->done[pos][a][b])
        return &st->memo[pos][a][b];
    long long ci = st->c[pos], capi = st->cap[pos], need = a + b;
    shtab *out = &st->memo[pos][a][b];
    if (need > capi) {
        for (int i = 0; i < SH_W; i++) {
            out->v[i] = SH_NEG;
            out->m[i] = 0;
        }
        st->done[pos][a][b] = 1;
        return out;
    }
    shtab res;
    for (int i = 0; i < SH_W; i++) {
        res.v[i] = SH_NEG;
        res.m[i] = 0;
    }
    long long top = st->sum[pos];
    if (top > SH_K)
        top = SH_K;
    long long max_x = 0;
    if (st->n - pos >= 3) {
        max_x = ci;
        if (st->c[pos + 1] > max_x)
            max_x = st->c[pos + 1];
        if (st->c[pos + 2] > max_x)
            max_x = st->c[pos + 2];
    }
    if (max_x > top)
        max_x = top;
    for (long long x = 0; x <= max_x; x++) {
        long long tx = need + x;
        if (tx > capi)
            break;
        const shtab *child = sh_suffix(st, pos + 1, (int)x, a);
        if (child->v[SH_W - 1] <= SH_NEG / 2)
            continue;
        int nyz = ci ? 4 : 1;
        for (int k = 0; k < nyz; k++) {
            int y = SH_YZ[k][0], z = SH_YZ[k][1];
            long long t = tx + 3 * y + 2 * z;
            if (t > capi)
                continue;
            long long kept;
            unsigned long long miss;
            if (t < ci) {
                kept = t;
                miss = 0;
            }
            else {
                kept = ci;
                miss = t > ci ? 1 : 0;
            }
            long long ds = x + y;
            if (ds > top)
                continue;
            for (long long s = ds; s <= top; s++) {
                int i = (int)(s - ds) * 2;
                int j = (int)s * 2;
                if (!z) {
                    sh_upd(&res, j, child->v[i] + kept, (child->m[i] << 1) | miss);
                    i++;
                }
                j++;
                sh_upd(&res, j, child->v[i] + kept, (child->m[i] << 1) | miss);
            }
        }
    }
    /* counts are not negative (see py_suit_table): 0 <= top <= SH_K */
    for (long long s = top + 1; s <= SH_K; s++) {
        for (int p = 0; p < 2; p++) {
            res.v[s * 2 + p] = res.v[top * 2 + p];
            res.m[s * 2 + p] = res.m[top * 2 + p];
        }
    }
    *out = res;
    st->done[pos][a][b] = 1;
    return out;
}

/* a plain int in [-SH_BIG, SH_BIG] into *out; 0 if it is not one */
static int
sh_read_int(PyObject *o, long long *out)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || v < -SH_BIG || v > SH_BIG)
        return 0;
    *out = v;
    return 1;
}

/* n plain ints in [-SH_BIG, SH_BIG] from a tuple of exactly n; 0 if not */
static int
sh_read_ints(PyObject *t, Py_ssize_t n, long long *out)
{
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!sh_read_int(PyTuple_GET_ITEM(t, i), &out[i]))
            return 0;
    }
    return 1;
}

/* a table (at least 12 counts; with masks, 24 entries, masks in [0, 2^64)) */
static int
sh_read_table(PyObject *t, int masks, shtab *out)
{
    if (!PyTuple_CheckExact(t))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (masks ? n != 2 * SH_W : (n != SH_W && n != 2 * SH_W))
        return 0;
    for (int i = 0; i < SH_W; i++) {
        if (!sh_read_int(PyTuple_GET_ITEM(t, i), &out->v[i]))
            return 0;
        out->m[i] = 0;
    }
    if (masks) {
        for (int i = 0; i < SH_W; i++) {
            PyObject *o = PyTuple_GET_ITEM(t, SH_W + i);
            if (!PyLong_CheckExact(o))
                return 0;
            unsigned long long m = PyLong_AsUnsignedLongLong(o);
            if (m == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            out->m[i] = m;
        }
    }
    return 1;
}

static PyObject *
sh_table_obj(const shtab *t, int shift, int masks)
{
    PyObject *out = PyTuple_New(masks ? 2 * SH_W : SH_W);
    if (!out)
        return NULL;
    for (int i = 0; i < SH_W; i++) {
        PyObject *o = PyLong_FromLongLong(t->v[i]);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, o);
    }
    if (masks) {
        for (int i = 0; i < SH_W; i++) {
            PyObject *o = PyLong_FromUnsignedLongLong(t->m[i] << shift);
            if (!o) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, SH_W + i, o);
        }
    }
    return out;
}

static PyObject *
sh_fallback(PyObject *f, PyObject *const *args, Py_ssize_t nargs)
{
    if (!f) {
        PyErr_SetString(PyExc_RuntimeError, "hefen._core: shanten references not set");
        return NULL;
    }
    return PyObject_Vectorcall(f, args, nargs, NULL);
}

static int
sh_read_base(PyObject *const *args, Py_ssize_t nargs, int dflt, int span, long long *base)
{
    if (nargs < 3) {
        *base = dflt;
        return 1;
    }
    PyObject *o = args[2];
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v + span > 64)
        return 0;
    *base = v;
    return 1;
}

static int sh_suit_compute_raw(const long long *c, const long long *cap, shtab *out);

/* A suit's table depends on its nine counts and caps only, and the hands a
 * game asks about share most suits: the tables of counts and caps in 0..7 are
 * kept in a direct-mapped cache (key: 6 bits a rank, and a bit saying the
 * entry is filled), the Python lru_cache's part for the compiled whole-hand
 * functions. */
#define SH_CACHE_BITS 14
typedef struct {
    unsigned long long key;
    int lo;
    shtab tab;
} shcached;
static shcached *sh_cache;

static int
sh_suit_compute(const long long *c, const long long *cap, shtab *out)
{
    unsigned long long key = 1;
    for (int i = 0; i < 9; i++) {
        if (c[i] > 7 || cap[i] < 0 || cap[i] > 7)
            return sh_suit_compute_raw(c, cap, out);
        key = key << 6 | (unsigned long long)(c[i] << 3 | cap[i]);
    }
    if (!sh_cache) {
        sh_cache = PyMem_RawCalloc((size_t)1 << SH_CACHE_BITS, sizeof(shcached));
        if (!sh_cache)
            return sh_suit_compute_raw(c, cap, out);
    }
    shcached *e = &sh_cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - SH_CACHE_BITS)];
    if (e->key != key) {
        e->lo = sh_suit_compute_raw(c, cap, &e->tab);
        e->key = key;
    }
    *out = e->tab;
    return e->lo;
}

/* the table of one suit's nine counts (not negative) into *out; masks
 * unshifted, bit 0 is rank lo (returned); lo is 0 when no tile is held */
static int
sh_suit_compute_raw(const long long *c, const long long *cap, shtab *out)
{
    int any = 0;
    for (int i = 0; i < 9; i++)
        any |= c[i] != 0;
    if (!any) {
        for (int i = 0; i < SH_W; i++) {
            out->v[i] = 0;
            out->m[i] = 0;
        }
        return 0;
    }
    int lo = 0, hi = 8;
    while (c[lo] == 0)
        lo++;
    while (c[hi] == 0)
        hi--;
    lo = lo - 2 > 0 ? lo - 2 : 0;
    hi = hi + 2 < 8 ? hi + 2 : 8;
    shsuffix *st = &sh_state;
    /* a position's memo depends on the counts and caps from it to the end
     * of the window only: where the last table made had the same window,
     * the positions past the last one whose count or cap differs keep
     * theirs (a hand's discards and draws change one rank) */
    int n = hi - lo + 1;
    /* the highest position whose memo goes: all of them for another window
     * (none before the first table: n is 0 there) */
    int d = st->lo == lo && st->n == n ? -1 : n - 1;
    for (int i = n - 1; i >= 0; i--) {
        if (st->c[i] != c[lo + i] || st->cap[i] != cap[lo + i]) {
            if (d < i)
                d = i;
            st->c[i] = c[lo + i];
            st->cap[i] = cap[lo + i];
        }
    }
    st->n = n;
    st->lo = lo;
    st->sum[n] = 0;
    for (int i = n - 1; i >= 0; i--)
        st->sum[i] = st->sum[i + 1] + st->c[i];
    if (d >= 0)
        memset(st->done, 0, sizeof st->done[0] * (size_t)(d + 1));
    *out = *sh_suffix(st, 0, 0, 0);
    return lo;
}

static PyObject *
py_suit_table(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[9], cap[9], base;
    if (nargs < 2 || nargs > 3 || !sh_read_ints(args[0], 9, c) || !sh_read_ints(args[1], 9, cap) ||
        !sh_read_base(args, nargs, 0, 9, &base))
        return sh_fallback(pure_suit_table, args, nargs);
    for (int i = 0; i < 9; i++) {
        if (c[i] < 0) /* not a count: the Python reference */
            return sh_fallback(pure_suit_table, args, nargs);
    }
    shtab t;
    int lo = sh_suit_compute(c, cap, &t);
    /* masks hold at most n bits; shifted by base + lo they stay under 64 */
    return sh_table_obj(&t, (int)(base + lo), 1);
}

/* the honour table of n counts (bit base + r for kind r) into *out */
static void
sh_honor_compute(const long long *c, const long long *cap, Py_ssize_t n, long long base, shtab *out)
{
    shtab tab, nw;
    for (int i = 0; i < SH_W; i++) {
        tab.v[i] = SH_NEG;
        tab.m[i] = 0;
    }
    tab.v[0] = 0;
    for (Py_ssize_t r = 0; r < n; r++) {
        long long cn = c[r], k = cap[r];
        if (!cn)
            continue;
        unsigned long long bit = 1ULL << (base + r);
        long long opts[4][4];
        int no = 0;
        opts[no][0] = 0, opts[no][1] = 0, opts[no][2] = 0, opts[no][3] = 0, no++;
        if (k >= 3)
            opts[no][0] = 1, opts[no][1] = 0, opts[no][2] = cn < 3 ? cn : 3,
            opts[no][3] = cn < 3, no++;
        if (k >= 2)
            opts[no][0] = 0, opts[no][1] = 1, opts[no][2] = cn < 2 ? cn : 2,
            opts[no][3] = cn < 2, no++;
        if (k >= 5)
            opts[no][0] = 1, opts[no][1] = 1, opts[no][2] = cn < 5 ? cn : 5,
            opts[no][3] = cn < 5, no++;
        for (int i = 0; i < SH_W; i++) {
            nw.v[i] = SH_NEG;
            nw.m[i] = 0;
        }
        for (int idx = 0; idx < SH_W; idx++) {
            long long v = tab.v[idx];
            if (v <= SH_NEG / 2)
                continue;
            for (int o = 0; o < no; o++) {
                int s = (idx >> 1) + (int)opts[o][0];
                int p = (idx & 1) + (int)opts[o][1];
                if (s > SH_K || p > 1)
                    continue;
                int j = s * 2 + p;
                unsigned long long m = tab.m[idx] | (opts[o][3] ? bit : 0);
                sh_upd(&nw, j, v + opts[o][2], m);
            }
        }
        tab = nw;
    }
    /* _closure */
    for (int s = 0; s <= SH_K; s++) {
        for (int p = 0; p < 2; p++) {
            int i = s * 2 + p;
            long long best = tab.v[i];
            unsigned long long mask = tab.m[i];
            int js[2] = {s ? i - 2 : -1, p ? i - 1 : -1};
            for (int q = 0; q < 2; q++) {
                int j = js[q];
                if (j < 0)
                    continue;
                if (tab.v[j] > best) {
                    best = tab.v[j];
                    mask = tab.m[j];
                }
                else if (tab.v[j] == best)
                    mask |= tab.m[j];
            }
            tab.v[i] = best;
            tab.m[i] = mask;
        }
    }
    *out = tab;
}

/* the honours' table of the 34 counts' last seven (base 27), cached as the
 * suits' are (sh_suit_compute) */
static shcached *sh_hcache;

static void
sh_honor7(const long long *c, const long long *cap, shtab *out)
{
    unsigned long long key = 1;
    for (int i = 0; i < 7; i++) {
        if (c[i] > 7 || cap[i] < 0 || cap[i] > 7) {
            sh_honor_compute(c, cap, 7, 27, out);
            return;
        }
        key = key << 6 | (unsigned long long)(c[i] << 3 | cap[i]);
    }
    if (!sh_hcache) {
        sh_hcache = PyMem_RawCalloc((size_t)1 << SH_CACHE_BITS, sizeof(shcached));
        if (!sh_hcache) {
            sh_honor_compute(c, cap, 7, 27, out);
            return;
        }
    }
    shcached *e = &sh_hcache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - SH_CACHE_BITS)];
    if (e->key != key) {
        sh_honor_compute(c, cap, 7, 27, &e->tab);
        e->key = key;
    }
    *out = e->tab;
}

static PyObject *
py_honor_table(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[9], cap[9], base;
    if (nargs < 2 || nargs > 3 || !PyTuple_CheckExact(args[0]))
        return sh_fallback(pure_honor_table, args, nargs);
    Py_ssize_t n = PyTuple_GET_SIZE(args[0]);
    if (n > 9 || !sh_read_ints(args[0], n, c) || !sh_read_ints(args[1], n, cap) ||
        !sh_read_base(args, nargs, 27, (int)n, &base))
        return sh_fallback(pure_honor_table, args, nargs);
    shtab tab;
    sh_honor_compute(c, cap, n, base, &tab);
    return sh_table_obj(&tab, 0, 1);
}

static PyObject *
py_combine(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    shtab x, y, out;
    if (nargs != 2 || !sh_read_table(args[0], 0, &x) || !sh_read_table(args[1], 0, &y))
        return sh_fallback(pure_combine, args, nargs);
    for (int s = 0; s <= SH_K; s++) {
        long long b0 = SH_NEG, b1 = SH_NEG;
        for (int s1 = 0; s1 <= s; s1++) {
            int i = s1 * 2, j = (s - s1) * 2;
            long long x0 = x.v[i], y0 = y.v[j], v;
            v = x0 + y0;
            if (v > b0)
                b0 = v;
            v = x.v[i + 1] + y0;
            if (v > b1)
                b1 = v;
            v = x0 + y.v[j + 1];
            if (v > b1)
                b1 = v;
        }
        out.v[s * 2] = b0;
        out.v[s * 2 + 1] = b1;
    }
    return sh_table_obj(&out, 0, 0);
}

static PyObject *
py_combine_masks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    shtab x, y, out;
    if (nargs != 2 || !sh_read_table(args[0], 1, &x) || !sh_read_table(args[1], 1, &y))
        return sh_fallback(pure_combine_masks, args, nargs);
    for (int i = 0; i < SH_W; i++) {
        out.v[i] = SH_NEG;
        out.m[i] = 0;
    }
    for (int s = 0; s <= SH_K; s++) {
        for (int s1 = 0; s1 <= s; s1++) {
            int i = s1 * 2, j = (s - s1) * 2;
            int trip[3][3] = {{s * 2, i, j}, {s * 2 + 1, i + 1, j}, {s * 2 + 1, i, j + 1}};
            for (int q = 0; q < 3; q++) {
                int o = trip[q][0], a = trip[q][1], b = trip[q][2];
                sh_upd(&out, o, x.v[a] + y.v[b], x.m[a] | y.m[b]);
            }
        }
    }
    return sh_table_obj(&out, 0, 1);
}

static int
sh_read_sets(PyObject *o, long long *sets)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v > SH_K)
        return 0;
    *sets = v;
    return 1;
}

static PyObject *
py_best(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    shtab x, y;
    long long sets;
    if (nargs != 3 || !sh_read_table(args[0], 0, &x) || !sh_read_table(args[1], 0, &y) ||
        !sh_read_sets(args[2], &sets))
        return sh_fallback(pure_best, args, nargs);
    long long best = SH_NEG;
    for (long long s = 0; s <= sets; s++) {
        long long a0 = x.v[s * 2], a1 = x.v[s * 2 + 1];
        long long b0 = y.v[(sets - s) * 2], b1 = y.v[(sets - s) * 2 + 1];
        long long v = a1 + b0 > a0 + b1 ? a1 + b0 : a0 + b1;
        if (v > best)
            best = v;
    }
    return PyLong_FromLongLong(best);
}

static PyObject *
py_best_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    shtab x, y;
    long long sets, best;
    if (nargs != 4 || !sh_read_table(args[0], 1, &x) || !sh_read_table(args[1], 1, &y) ||
        !sh_read_sets(args[2], &sets) || !PyLong_CheckExact(args[3]))
        return sh_fallback(pure_best_mask, args, nargs);
    int overflow;
    best = PyLong_AsLongLongAndOverflow(args[3], &overflow);
    if (overflow)
        return sh_fallback(pure_best_mask, args, nargs);
    unsigned long long mask = 0;
    for (long long s = 0; s <= sets; s++) {
        int i = (int)s * 2, j = (int)(sets - s) * 2;
        if (x.v[i + 1] + y.v[j] == best)
            mask |= x.m[i + 1] | y.m[j];
        if (x.v[i] + y.v[j + 1] == best)
            mask |= x.m[i] | y.m[j + 1];
    }
    return PyLong_FromUnsignedLongLong(mask);
}

/* ---- the forms' distances (hefen.analysis.shanten) -----------------------
 * _standard_kept, _seven_pairs_dist, _orphans_dist, _honors_knitted_dist and
 * _knitted_straight_dist on 34 counts (plain ints in [0, SH_BIG]) and caps
 * (plain ints in [-SH_BIG, SH_BIG]); anything else goes to the references. */
static PyObject *pure_standard_kept, *pure_seven_pairs, *pure_orphans, *pure_honors_knitted,
    *pure_knitted_straight;

static int
sh_read_counts(PyObject *t, long long *out)
{
    if (!sh_read_ints(t, NK, out))
        return 0;
    for (int i = 0; i < NK; i++)
        if (out[i] < 0)
            return 0;
    return 1;
}

/* _standard_kept: the four tables, their products and _best */
static long long
sh_standard_kept(const long long *c, const long long *cap, long long sets)
{
    shtab p[4];
    for (int k = 0; k < 3; k++)
        sh_suit_compute(c + 9 * k, cap + 9 * k, &p[k]);
    sh_honor7(c + 27, cap + 27, &p[3]);
    long long l[SH_W], r[SH_W];
    for (int h = 0; h < 2; h++) {
        const shtab *x = &p[2 * h], *y = &p[2 * h + 1];
        long long *out = h ? r : l;
        for (int s = 0; s <= SH_K; s++) {
            long long b0 = SH_NEG, b1 = SH_NEG;
            for (int s1 = 0; s1 <= s; s1++) {
                int i = s1 * 2, j = (s - s1) * 2;
                long long x0 = x->v[i], y0 = y->v[j], v;
                v = x0 + y0;
                if (v > b0)
                    b0 = v;
                v = x->v[i + 1] + y0;
                if (v > b1)
                    b1 = v;
                v = x0 + y->v[j + 1];
                if (v > b1)
                    b1 = v;
            }
            out[s * 2] = b0;
            out[s * 2 + 1] = b1;
        }
    }
    long long best = SH_NEG;
    for (long long s = 0; s <= sets; s++) {
        long long a0 = l[s * 2], a1 = l[s * 2 + 1];
        long long b0 = r[(sets - s) * 2], b1 = r[(sets - s) * 2 + 1];
        long long v = a1 + b0 > a0 + b1 ? a1 + b0 : a0 + b1;
        if (v > best)
            best = v;
    }
    return best;
}

static PyObject *
py_standard_kept(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[NK], cap[NK], sets;
    if (nargs != 3 || !sh_read_counts(args[0], c) || !sh_read_ints(args[1], NK, cap) ||
        !sh_read_sets(args[2], &sets))
        return sh_fallback(pure_standard_kept, args, nargs);
    return PyLong_FromLongLong(sh_standard_kept(c, cap, sets));
}

/* a bool or a plain int as a truth value; -1 if neither */
static int
sh_read_flag(PyObject *o)
{
    if (PyBool_Check(o))
        return o == Py_True;
    if (PyLong_CheckExact(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        return overflow || v != 0;
    }
    return -1;
}

static long long
sh_seven_dist(const long long *c, int allow)
{
    long long n[5] = {0, 0, 0, 0, 0}, more = 0;
    for (int i = 0; i < NK; i++) {
        if (c[i] <= 4)
            n[c[i]]++;
        else
            more++;
    }
    long long twos = n[2] + n[3] + n[4] + more, ones = n[1];
    if (allow) {
        twos += n[4] + more;
        ones += n[3];
    }
    long long pairs = twos < 7 ? twos : 7;
    long long rest = 7 - pairs;
    return 14 - 2 * pairs - (ones < rest ? ones : rest);
}

static PyObject *
py_seven_pairs_dist(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[NK];
    int allow = nargs == 2 ? sh_read_flag(args[1]) : -1;
    if (allow < 0 || !sh_read_counts(args[0], c))
        return sh_fallback(pure_seven_pairs, args, nargs);
    return PyLong_FromLongLong(sh_seven_dist(c, allow));
}

static const int sh_orphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static long long
sh_orphans_dist(const long long *c)
{
    long long kinds = 0, ones = 0;
    for (int i = 0; i < 13; i++) {
        long long v = c[sh_orphans[i]];
        kinds += v != 0;
        ones += v == 1;
    }
    return 14 - kinds - (kinds > ones ? 1 : 0);
}

static PyObject *
py_orphans_dist(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[NK];
    if (nargs != 1 || !sh_read_counts(args[0], c))
        return sh_fallback(pure_orphans, args, nargs);
    return PyLong_FromLongLong(sh_orphans_dist(c));
}

static long long
sh_held_knitted(const long long *c, int k)
{
    long long n = 0;
    for (int i = 0; i < 9; i++)
        n += c[knitted[k][i]] != 0;
    return n;
}

static long long
sh_honors_knitted_dist(const long long *c)
{
    long long honors = 0, best = 0;
    for (int i = 27; i < NK; i++)
        honors += c[i] != 0;
    for (int k = 0; k < 6; k++) {
        long long h = sh_held_knitted(c, k);
        if (h > best)
            best = h;
    }
    long long t = honors + best;
    return 14 - (t < 14 ? t : 14);
}

static PyObject *
py_honors_knitted_dist(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[NK];
    if (nargs != 1 || !sh_read_counts(args[0], c))
        return sh_fallback(pure_honors_knitted, args, nargs);
    return PyLong_FromLongLong(sh_honors_knitted_dist(c));
}

/* _knitted_straight_dist: the distance to a knitted straight with a set and
 * a pair (n_melds 0 or 1), or beat where no reading comes under it */
static long long
sh_knitted_dist(const long long *c, const long long *cap, long long n_melds, long long beat)
{
    long long sets = 1 - n_melds;
    long long target = 9 + 3 * sets + 2;
    long long held = 0;
    for (int i = 0; i < NK; i++)
        held += c[i];
    long long best = target - beat;
    long long room = 3 * sets + 2 < held ? 3 * sets + 2 : held;
    long long kept[6];
    int order[6], nc = 0;
    for (int k = 0; k < 6; k++) {
        long long kp = sh_held_knitted(c, k), mincap = SH_BIG;
        for (int i = 0; i < 9; i++)
            if (cap[knitted[k][i]] < mincap)
                mincap = cap[knitted[k][i]];
        if (kp + room <= best || mincap < 1)
            continue;
        kept[k] = kp;
        /* most kept first (the order only speeds the bound below) */
        int j = nc++;
        while (j > 0 && kept[order[j - 1]] < kp) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (int q = 0; q < nc; q++) {
        int k = order[q];
        long long kp = kept[k];
        long long other = 3 * sets + 2 < held - kp ? 3 * sets + 2 : held - kp;
        if (kp + other <= best)
            continue;
        long long rc[NK], rcap[NK];
        memcpy(rc, c, sizeof rc);
        memcpy(rcap, cap, sizeof rcap);
        for (int i = 0; i < 9; i++) {
            int t = knitted[k][i];
            if (rc[t])
                rc[t]--;
            rcap[t]--;
        }
        kp += sh_standard_kept(rc, rcap, sets);
        if (kp > best)
            best = kp;
    }
    return best > target - beat ? target - best : beat;
}

static PyObject *
py_knitted_straight_dist(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long c[NK], cap[NK], n_melds, beat = 99;
    if (nargs < 3 || nargs > 4 || !sh_read_counts(args[0], c) || !sh_read_ints(args[1], NK, cap) ||
        !sh_read_int(args[2], &n_melds) || n_melds < 0 || n_melds > 1 ||
        (nargs == 4 && !sh_read_int(args[3], &beat)))
        return sh_fallback(pure_knitted_straight, args, nargs);
    return PyLong_FromLongLong(sh_knitted_dist(c, cap, n_melds, beat));
}

static PyObject *
py_set_pure_forms(PyObject *self, PyObject *args)
{
    PyObject *f[5];
    if (!PyArg_ParseTuple(args, "OOOOO:_set_pure_forms", &f[0], &f[1], &f[2], &f[3], &f[4]))
        return NULL;
    PyObject **dst[5] = {&pure_standard_kept, &pure_seven_pairs, &pure_orphans,
                         &pure_honors_knitted, &pure_knitted_straight};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(f[i]);
        Py_XSETREF(*dst[i], f[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
py_set_pure_shanten(PyObject *self, PyObject *args)
{
    PyObject *f[6];
    if (!PyArg_ParseTuple(args, "OOOOOO:_set_pure_shanten", &f[0], &f[1], &f[2], &f[3], &f[4],
                          &f[5]))
        return NULL;
    PyObject **dst[6] = {&pure_suit_table,    &pure_honor_table, &pure_combine,
                         &pure_combine_masks, &pure_best,        &pure_best_mask};
    for (int i = 0; i < 6; i++) {
        Py_INCREF(f[i]);
        Py_XSETREF(*dst[i], f[i]);
    }
    Py_RETURN_NONE;
}


/* ---- whole hands (hefen.analysis.shanten) ---------------------------------
 * shanten_number, useful_kinds, plan_shanten and plan_shantens of the 34
 * concealed counts, the caps, n_melds, the forms (a tuple of the analysis'
 * form names), the hand size and allow_four_pairs, branch for branch as the
 * Python ones (hefen.analysis.shanten: _distances with its slack, _useful,
 * plan_shanten), in one call instead of a Python walk over the forms and the
 * tables.  The Python functions stay as the references: an input outside the
 * C domain (not six positional arguments, counts not plain ints in
 * [0, 1e6], a form name the C does not know, set slots outside 0..5, a size
 * outside 1..100) is handed to them. */
#define SH_NFORMS 5
static const char *const sh_form_names[SH_NFORMS] = {
    "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"};
static PyObject *sh_form_str[SH_NFORMS];
static PyObject *pure_shanten_number, *pure_useful_kinds, *pure_plan_shanten,
    *pure_plan_shantens, *pure_discard_shantens;


static PyObject *
sh_fallback_kw(PyObject *f, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!f) {
        PyErr_SetString(PyExc_RuntimeError, "hefen._core: shanten references not set");
        return NULL;
    }
    return PyObject_Vectorcall(f, args, nargs, kwnames);
}

typedef struct {
    long long c[NK], cap[NK];
    long long n_melds, size, sets;
    int four;
    unsigned forms; /* bit k: sh_form_names[k] */
} shhand;

static int
sh_read_forms(PyObject *t, unsigned *out)
{
    if (!PyTuple_CheckExact(t))
        return 0;
    unsigned f = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        PyObject *o = PyTuple_GET_ITEM(t, i);
        if (!PyUnicode_CheckExact(o))
            return 0;
        int k = 0;
        for (; k < SH_NFORMS; k++) {
            if (o == sh_form_str[k] || PyUnicode_CompareWithASCIIString(o, sh_form_names[k]) == 0)
                break;
        }
        if (k == SH_NFORMS)
            return 0;
        f |= 1u << k;
    }
    *out = f;
    return 1;
}

/* (counts, cap, n_melds, forms, size, allow_four_pairs) into *h; 0 if any is
 * outside the C domain */
static int
sh_read_hand(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, shhand *h)
{
    if (nargs != 6 || (kwnames && PyTuple_GET_SIZE(kwnames)))
        return 0;
    if (!sh_read_counts(args[0], h->c) || !sh_read_ints(args[1], NK, h->cap) ||
        !sh_read_int(args[2], &h->n_melds) || h->n_melds < 0 || !sh_read_forms(args[3], &h->forms) ||
        !sh_read_int(args[4], &h->size) || h->size < 1 || h->size > 100)
        return 0;
    int four = sh_read_flag(args[5]);
    if (four < 0)
        return 0;
    h->four = four;
    h->sets = (h->size + 1) / 3 - h->n_melds;
    if (h->sets < 0 || h->sets > SH_K)
        return 0;
    return 1;
}

static void
sh_comb(const shtab *x, const shtab *y, shtab *out)
{
    for (int s = 0; s <= SH_K; s++) {
        long long b0 = SH_NEG, b1 = SH_NEG;
        for (int s1 = 0; s1 <= s; s1++) {
            int i = s1 * 2, j = (s - s1) * 2;
            long long x0 = x->v[i], y0 = y->v[j], v;
            v = x0 + y0;
            if (v > b0)
                b0 = v;
            v = x->v[i + 1] + y0;
            if (v > b1)
                b1 = v;
            v = x0 + y->v[j + 1];
            if (v > b1)
                b1 = v;
        }
        out->v[s * 2] = b0;
        out->v[s * 2 + 1] = b1;
        out->m[s * 2] = out->m[s * 2 + 1] = 0;
    }
}

static void
sh_comb_masks(const shtab *x, const shtab *y, shtab *out)
{
    for (int i = 0; i < SH_W; i++) {
        out->v[i] = SH_NEG;
        out->m[i] = 0;
    }
    for (int s = 0; s <= SH_K; s++) {
        for (int s1 = 0; s1 <= s; s1++) {
            int i = s1 * 2, j = (s - s1) * 2;
            sh_upd(out, s * 2, x->v[i] + y->v[j], x->m[i] | y->m[j]);
            sh_upd(out, s * 2 + 1, x->v[i + 1] + y->v[j], x->m[i + 1] | y->m[j]);
            sh_upd(out, s * 2 + 1, x->v[i] + y->v[j + 1], x->m[i] | y->m[j + 1]);
        }
    }
}

static long long
sh_best_of(const shtab *x, const shtab *y, long long sets)
{
    long long best = SH_NEG;
    for (long long s = 0; s <= sets; s++) {
        long long a0 = x->v[s * 2], a1 = x->v[s * 2 + 1];
        long long b0 = y->v[(sets - s) * 2], b1 = y->v[(sets - s) * 2 + 1];
        long long v = a1 + b0 > a0 + b1 ? a1 + b0 : a0 + b1;
        if (v > best)
            best = v;
    }
    return best;
}

static long long
sh_best_unpaired(const shtab *x, const shtab *y, long long sets)
{
    long long best = SH_NEG;
    for (long long s = 0; s <= sets; s++) {
        long long v = x->v[s * 2] + y->v[(sets - s) * 2];
        if (s == 0 || v > best)
            best = v;
    }
    return best;
}

static unsigned long long
sh_best_mask_of(const shtab *x, const shtab *y, long long sets, long long best)
{
    unsigned long long mask = 0;
    for (long long s = 0; s <= sets; s++) {
        int i = (int)s * 2, j = (int)(sets - s) * 2;
        if (x->v[i + 1] + y->v[j] == best)
            mask |= x->m[i + 1] | y->m[j];
        if (x->v[i] + y->v[j + 1] == best)
            mask |= x->m[i] | y->m[j + 1];
    }
    return mask;
}

/* the four tables of the hand (_parts), masks shifted to their kinds */
static void
sh_parts(const long long *c, const long long *cap, shtab p[4])
{
    for (int k = 0; k < 3; k++) {
        int lo = sh_suit_compute(c + 9 * k, cap + 9 * k, &p[k]);
        for (int i = 0; i < SH_W; i++)
            p[k].m[i] <<= 9 * k + lo;
    }
    sh_honor7(c + 27, cap + 27, &p[3]);
}

/* _distances: the distance to each form held (bit k of the answer: form k
 * in d[k]); slack < 0 is None (the knitted straight exactly); p: the two
 * products of c's tables (suits 0-1, suit 2 and the honours: values only are
 * read), or NULL to compute them */
static unsigned
sh_distances(const shhand *h, const long long *c, long long slack, long long d[SH_NFORMS],
             const shtab *p)
{
    unsigned present = 0;
    if (h->forms & 1) {
        long long kept;
        if (p)
            kept = sh_best_of(&p[0], &p[1], h->sets);
        else
            kept = sh_standard_kept(c, h->cap, h->sets);
        d[0] = 3 * h->sets + 2 - kept;
        present |= 1;
    }
    if (h->n_melds == 0 && h->size == 13) {
        if (h->forms & 2) {
            d[1] = sh_seven_dist(c, h->four);
            present |= 2;
        }
        if (h->forms & 4) {
            d[2] = sh_orphans_dist(c);
            present |= 4;
        }
        if (h->forms & 8) {
            d[3] = sh_honors_knitted_dist(c);
            present |= 8;
        }
    }
    if ((h->forms & 16) && h->n_melds <= 1 && h->size == 13) {
        long long beat = 99;
        if (slack >= 0) {
            long long m = 98;
            int any = 0;
            for (int k = 0; k < 4; k++) {
                if (present >> k & 1) {
                    if (!any || d[k] < m)
                        m = d[k];
                    any = 1;
                }
            }
            beat = m + slack;
        }
        d[4] = sh_knitted_dist(c, h->cap, h->n_melds, beat);
        present |= 16;
    }
    return present;
}

static long long
sh_min_dist(unsigned present, const long long d[SH_NFORMS], long long dflt)
{
    long long m = dflt;
    int any = 0;
    for (int k = 0; k < SH_NFORMS; k++) {
        if (present >> k & 1) {
            if (!any || d[k] < m)
                m = d[k];
            any = 1;
        }
    }
    return m;
}

static long long
sh_number(const shhand *h, const long long *c, const shtab *p)
{
    long long d[SH_NFORMS];
    unsigned present = sh_distances(h, c, 0, d, p);
    return sh_min_dist(present, d, 100) - 1;
}

/* _useful of one form (fifth False): the kinds whose draw brings the form
 * under dist, as a mask */
static unsigned long long
sh_useful_form(const shhand *h, int form, long long dist)
{
    long long cl[NK];
    memcpy(cl, h->c, sizeof cl);
    unsigned long long out = 0;
    if (form == 0) {
        long long sets = h->sets;
        shtab p[4], left, right;
        sh_parts(cl, h->cap, p);
        sh_comb_masks(&p[0], &p[1], &left);
        sh_comb_masks(&p[2], &p[3], &right);
        long long full = sh_best_of(&left, &right, sets);
        int free_slot = (sets > 0 && sh_best_of(&left, &right, sets - 1) >= full) ||
                        sh_best_unpaired(&left, &right, sets) >= full;
        if (!free_slot)
            return sh_best_mask_of(&left, &right, sets, full);
        shtab rests[4];
        sh_comb(&p[1], &right, &rests[0]);
        sh_comb(&p[0], &right, &rests[1]);
        sh_comb(&left, &p[3], &rests[2]);
        sh_comb(&left, &p[2], &rests[3]);
        for (int part = 0; part < 4; part++) {
            int base = part * 9, n_kinds = part < 3 ? 9 : 7;
            for (int r = 0; r < n_kinds; r++) {
                int t = base + r;
                if (cl[t] >= h->cap[t] || cl[t] >= 4)
                    continue;
                cl[t]++;
                shtab tab;
                if (part < 3)
                    sh_suit_compute(cl + base, h->cap + base, &tab);
                else
                    sh_honor7(cl + base, h->cap + base, &tab);
                cl[t]--;
                if (3 * sets + 2 - sh_best_of(&tab, &rests[part], sets) < dist)
                    out |= 1ULL << t;
            }
        }
        return out;
    }
    for (int t = 0; t < NK; t++) {
        if (cl[t] >= h->cap[t] || cl[t] >= 4)
            continue;
        cl[t]++;
        long long d;
        if (form == 1)
            d = sh_seven_dist(cl, h->four);
        else if (form == 2)
            d = sh_orphans_dist(cl);
        else if (form == 3)
            d = sh_honors_knitted_dist(cl);
        else
            d = sh_knitted_dist(cl, h->cap, h->n_melds, dist);
        cl[t]--;
        if (d < dist)
            out |= 1ULL << t;
    }
    return out;
}

/* plan_shanten of c, whose four tables (values) are p; the two products
 * of the tables serve both the shanten and the plan's count */
static long long
sh_plan(const shhand *h, const long long *c, const shtab *p)
{
    shtab left, right, lr[2];
    if (h->forms & 1) {
        sh_comb(&p[0], &p[1], &left);
        sh_comb(&p[2], &p[3], &right);
        lr[0] = left;
        lr[1] = right;
    }
    long long out = sh_number(h, c, (h->forms & 1) ? lr : NULL);
    if (h->forms & 1) {
        long long sets = h->sets;
        long long kept = SH_NEG;
        for (long long s = 0; s <= sets; s++) {
            long long a = sh_best_of(&left, &right, s);
            long long b = sh_best_unpaired(&left, &right, s) + 1;
            long long v = (a > b ? a : b) + sets - s;
            if (s == 0 || v > kept)
                kept = v;
        }
        long long alt = 3 * sets + 2 - kept - 1;
        if (alt < out)
            out = alt;
    }
    return out;
}

/* the four tables of c (values; masks unshifted) */
static void
sh_tables(const long long *c, const long long *cap, shtab p[4])
{
    for (int k = 0; k < 3; k++)
        sh_suit_compute(c + 9 * k, cap + 9 * k, &p[k]);
    sh_honor7(c + 27, cap + 27, &p[3]);
}

static PyObject *
py_shanten_number(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    if (!sh_read_hand(args, nargs, kwnames, &h))
        return sh_fallback_kw(pure_shanten_number, args, nargs, kwnames);
    return PyLong_FromLongLong(sh_number(&h, h.c, NULL));
}

/* useful_kinds as a mask (0 where no form fits) */
static unsigned long long
sh_useful_mask(const shhand *h)
{
    long long d[SH_NFORMS];
    unsigned present = sh_distances(h, h->c, 1, d, NULL);
    if (!present)
        return 0;
    long long best = sh_min_dist(present, d, 0);
    unsigned long long mask = 0;
    for (int k = 0; k < SH_NFORMS; k++) {
        if ((present >> k & 1) && d[k] == best)
            mask |= sh_useful_form(h, k, best);
    }
    return mask;
}

static PyObject *
py_useful_kinds(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    if (!sh_read_hand(args, nargs, kwnames, &h))
        return sh_fallback_kw(pure_useful_kinds, args, nargs, kwnames);
    unsigned long long mask = sh_useful_mask(&h);
    int n = 0;
    for (int t = 0; t < NK; t++)
        n += (int)(mask >> t & 1);
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    int j = 0;
    for (int t = 0; t < NK; t++) {
        if (mask >> t & 1) {
            PyObject *o = PyLong_FromLong(t);
            if (!o) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, j++, o);
        }
    }
    return out;
}

static PyObject *
py_plan_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    if (!sh_read_hand(args, nargs, kwnames, &h))
        return sh_fallback_kw(pure_plan_shanten, args, nargs, kwnames);
    shtab p[4];
    sh_tables(h.c, h.cap, p);
    return PyLong_FromLongLong(sh_plan(&h, h.c, p));
}

/* plan_shantens: the plan shanten of the hand, of its half flushes and of its
 * full flushes (suits 0-2: the other suits' counts zeroed, and the honours'
 * too for a full flush), and the shanten of seven pairs alone */
/* plan_shantens: the plan shanten of the hand, of its half flushes and of its
 * full flushes (suits 0-2: the other suits' counts zeroed, and the honours'
 * too for a full flush), and the shanten of seven pairs alone, into v[8] */
static void
sh_plans(const shhand *h, long long v[8])
{
    /* the tables of a suit's or the honours' counts are the same in every
     * plan keeping them, and those of no tile are all 0 (_EMPTY_CLOSED, the
     * honours' closure of nothing): four tables serve the seven plans */
    shtab p[4], q[4];
    sh_tables(h->c, h->cap, p);
    v[0] = sh_plan(h, h->c, p);
    memset(q, 0, sizeof q);
    for (int suit = 0; suit < 3; suit++) {
        long long x[NK];
        for (int t = 0; t < NK; t++)
            x[t] = (t >= 27 || t / 9 == suit) ? h->c[t] : 0;
        q[suit] = p[suit];
        q[3] = p[3];
        v[1 + suit] = sh_plan(h, x, q);
        for (int t = 27; t < NK; t++)
            x[t] = 0;
        memset(&q[3], 0, sizeof q[3]);
        v[4 + suit] = sh_plan(h, x, q);
        memset(&q[suit], 0, sizeof q[suit]);
    }
    /* shanten_number with forms ("seven_pairs",) */
    v[7] = (h->n_melds == 0 && h->size == 13) ? sh_seven_dist(h->c, h->four) - 1 : 99;
}

static PyObject *
py_plan_shantens(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    if (!sh_read_hand(args, nargs, kwnames, &h))
        return sh_fallback_kw(pure_plan_shantens, args, nargs, kwnames);
    long long v[8];
    sh_plans(&h, v);
    PyObject *out = PyTuple_New(8);
    if (!out)
        return NULL;
    for (int i = 0; i < 8; i++) {
        PyObject *o = PyLong_FromLongLong(v[i]);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, o);
    }
    return out;
}

/* a discard changes one part's table: the hand's four tables and their two
 * products (suits 0-1, suit 2 and the honours) are made once, and each discard
 * makes its part's table and that product again, which is what
 * sh_standard_kept would make of the whole hand without it */
static void
sh_discard_tables(const shhand *h, shtab p[4], shtab lr[2])
{
    sh_tables(h->c, h->cap, p);
    sh_comb(&p[0], &p[1], &lr[0]);
    sh_comb(&p[2], &p[3], &lr[1]);
}

/* the shanten of the hand without one t (held), c its counts (left as they were) */
static long long
sh_discard_one(const shhand *h, long long *c, const shtab p[4], const shtab lr[2], int t)
{
    c[t]--;
    int k = t < 27 ? t / 9 : 3;
    shtab q, pr[2];
    if (k < 3)
        sh_suit_compute(c + 9 * k, h->cap + 9 * k, &q);
    else
        sh_honor7(c + 27, h->cap + 27, &q);
    if (k < 2) {
        sh_comb(k == 0 ? &q : &p[0], k == 0 ? &p[1] : &q, &pr[0]);
        pr[1] = lr[1];
    }
    else {
        pr[0] = lr[0];
        sh_comb(k == 2 ? &q : &p[2], k == 2 ? &p[3] : &q, &pr[1]);
    }
    long long v = sh_number(h, c, pr);
    c[t]++;
    return v;
}

/* discard_shantens: for each kind held, the shanten of the hand without one
 * of it (None for a kind not held): a discard's choices in one call */
static PyObject *
py_discard_shantens(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    if (!sh_read_hand(args, nargs, kwnames, &h))
        return sh_fallback_kw(pure_discard_shantens, args, nargs, kwnames);
    PyObject *out = PyTuple_New(NK);
    if (!out)
        return NULL;
    long long c[NK];
    memcpy(c, h.c, sizeof c);
    shtab p[4], lr[2];
    sh_discard_tables(&h, p, lr);
    for (int t = 0; t < NK; t++) {
        PyObject *o;
        if (c[t]) {
            o = PyLong_FromLongLong(sh_discard_one(&h, c, p, lr, t));
            if (!o) {
                Py_DECREF(out);
                return NULL;
            }
        }
        else {
            o = Py_None;
            Py_INCREF(o);
        }
        PyTuple_SET_ITEM(out, t, o);
    }
    return out;
}

/* ---- the Hong Kong value of a hand (hefen.game.bots._py_hk_value) --------
 * hk_value(counts, cap, n_melds, forms, size, allow_four_pairs, ctx): the
 * best over the plans of (q * pace) ** (shanten + 1) times the payoff of the
 * plan's fan, with the same float operations in the same order as the
 * Python (pow is the C library's, as Python's float ** is).  A context not
 * of the expected shape goes to the reference. */
static PyObject *pure_hk_value;

static double
hk_payoff(double fan, long long min_fan, long long cap)
{
    double value = 0.0;
    double c = (double)cap;
    if (fan >= (double)min_fan)
        value += 0.55 * pow(2.0, c < fan ? c : fan);
    if (fan + 1 >= (double)min_fan)
        value += 0.45 * 1.5 * pow(2.0, c < fan + 1 ? c : fan + 1);
    return value;
}

static double
hk_ev(double q, double pace, long long sh, double fan, long long min_fan, long long cap)
{
    long long n = sh + 1 > 0 ? sh + 1 : 0;
    return pow(q * pace, (double)n) * hk_payoff(fan, min_fan, cap);
}

static int
hk_read_float(PyObject *o, double *out)
{
    if (!PyFloat_CheckExact(o))
        return 0;
    *out = PyFloat_AS_DOUBLE(o);
    return 1;
}

typedef struct {
    long long min_fan, cap, need, open_suits;
    double q, base;
    int exposed, honour_melds, pungs_ok, seven_ok;
    int n_hon;
    long long hk[NK], hw[NK];
    int hm[NK];
} hkctx;

/* the context tuple (bots.HkContext) into *x; 0 if it is not of that shape */
static int
hk_read_ctx(PyObject *ctx, hkctx *x)
{
    if (!PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 11 ||
        !sh_read_int(PyTuple_GET_ITEM(ctx, 0), &x->min_fan) ||
        !sh_read_int(PyTuple_GET_ITEM(ctx, 1), &x->cap) || x->cap < -1000 || x->cap > 1000 ||
        !hk_read_float(PyTuple_GET_ITEM(ctx, 2), &x->q) ||
        !hk_read_float(PyTuple_GET_ITEM(ctx, 3), &x->base) ||
        !sh_read_int(PyTuple_GET_ITEM(ctx, 4), &x->need) || x->need < 0 ||
        (x->exposed = sh_read_flag(PyTuple_GET_ITEM(ctx, 5))) < 0 ||
        !sh_read_int(PyTuple_GET_ITEM(ctx, 6), &x->open_suits) ||
        (x->honour_melds = sh_read_flag(PyTuple_GET_ITEM(ctx, 7))) < 0 ||
        (x->pungs_ok = sh_read_flag(PyTuple_GET_ITEM(ctx, 8))) < 0 ||
        (x->seven_ok = sh_read_flag(PyTuple_GET_ITEM(ctx, 9))) < 0 || !(x->q > 0.0))
        return 0;
    PyObject *hon = PyTuple_GET_ITEM(ctx, 10);
    if (!PyTuple_CheckExact(hon) || PyTuple_GET_SIZE(hon) > NK)
        return 0;
    x->n_hon = (int)PyTuple_GET_SIZE(hon);
    for (int i = 0; i < x->n_hon; i++) {
        PyObject *e = PyTuple_GET_ITEM(hon, i);
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 3 ||
            !sh_read_int(PyTuple_GET_ITEM(e, 0), &x->hk[i]) || x->hk[i] < 0 || x->hk[i] >= NK ||
            !sh_read_int(PyTuple_GET_ITEM(e, 1), &x->hw[i]) ||
            (x->hm[i] = sh_read_flag(PyTuple_GET_ITEM(e, 2))) < 0)
            return 0;
    }
    return 1;
}

/* _py_hk_value of the hand h under the context x */
static double
hk_value_of(const shhand *h, const hkctx *x)
{
    double honour = 0.0;
    for (int i = 0; i < x->n_hon; i++) {
        long long n = h->c[x->hk[i]];
        if (x->hm[i] || n >= 3)
            honour += (double)x->hw[i];
        else if (n == 2)
            honour += 0.5 * (double)x->hw[i];
    }
    /* the plans as sh_plans makes them, only those the context reads */
    shtab p[4], pq[4];
    sh_tables(h->c, h->cap, p);
    long long min_fan = x->min_fan, cap = x->cap;
    double q = x->q, base = x->base;
    double best = hk_ev(q, 1.0, sh_plan(h, h->c, p), base + honour, min_fan, cap), y;
    memset(pq, 0, sizeof pq);
    for (int suit = 0; suit < 3; suit++) {
        if (!(x->open_suits >> suit & 1))
            continue;
        long long xs[NK];
        for (int t = 0; t < NK; t++)
            xs[t] = (t >= 27 || t / 9 == suit) ? h->c[t] : 0;
        pq[suit] = p[suit];
        pq[3] = p[3];
        y = hk_ev(q, 0.85, sh_plan(h, xs, pq), base + honour + 3, min_fan, cap);
        if (y > best)
            best = y;
        if (!x->honour_melds) {
            for (int t = 27; t < NK; t++)
                xs[t] = 0;
            memset(&pq[3], 0, sizeof pq[3]);
            y = hk_ev(q, 0.65, sh_plan(h, xs, pq), base + 7, min_fan, cap);
            if (y > best)
                best = y;
        }
        memset(&pq[suit], 0, sizeof pq[suit]);
    }
    if (x->pungs_ok) {
        double fan = !x->exposed ? (double)cap - 1 : base + honour + 3;
        long long pungs = 0, pairs = 0, need = x->need;
        for (int t = 0; t < NK; t++) {
            pungs += h->c[t] >= 3;
            pairs += h->c[t] == 2;
        }
        long long m = pungs < need ? pungs : need;
        long long pp = pairs ? 1 : 0;
        long long tt = pairs - pp < need - m ? pairs - pp : need - m;
        y = hk_ev(q, x->exposed ? 0.7 : 0.5, 2 * need - 2 * m - tt - pp, fan, min_fan, cap);
        if (y > best)
            best = y;
    }
    if (x->seven_ok) {
        long long v7 = (h->n_melds == 0 && h->size == 13) ? sh_seven_dist(h->c, h->four) - 1 : 99;
        y = hk_ev(q, 0.6, v7, base + 4, min_fan, cap);
        if (y > best)
            best = y;
    }
    return best;
}

static PyObject *
py_hk_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    hkctx x;
    if (nargs != 7 || (kwnames && PyTuple_GET_SIZE(kwnames)) || !sh_read_hand(args, 6, NULL, &h) ||
        !hk_read_ctx(args[6], &x))
        return sh_fallback_kw(pure_hk_value, args, nargs, kwnames);
    return PyFloat_FromDouble(hk_value_of(&h, &x));
}

/* kinds: a tuple of kinds the hand holds, each once at most; 0 if not */
static int
sh_read_kinds(PyObject *t, const long long *c, int *out, Py_ssize_t *n)
{
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) > NK)
        return 0;
    unsigned long long seen = 0;
    *n = PyTuple_GET_SIZE(t);
    for (Py_ssize_t i = 0; i < *n; i++) {
        long long k;
        if (!sh_read_int(PyTuple_GET_ITEM(t, i), &k) || k < 0 || k >= NK || !c[k] ||
            (seen >> k & 1))
            return 0;
        seen |= 1ULL << k;
        out[i] = (int)k;
    }
    return 1;
}

/* hk_discard_values(counts, cap, n_melds, forms, size, allow_four_pairs, ctx,
 * kinds): hk_value of the hand without one of each of kinds */
static PyObject *pure_hk_discard_values, *pure_discard_ukeire;

static PyObject *
py_hk_discard_values(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    hkctx x;
    int kinds[NK];
    Py_ssize_t n;
    if (nargs != 8 || (kwnames && PyTuple_GET_SIZE(kwnames)) || !sh_read_hand(args, 6, NULL, &h) ||
        !hk_read_ctx(args[6], &x) || !sh_read_kinds(args[7], h.c, kinds, &n))
        return sh_fallback_kw(pure_hk_discard_values, args, nargs, kwnames);
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        h.c[kinds[i]]--;
        PyObject *o = PyFloat_FromDouble(hk_value_of(&h, &x));
        h.c[kinds[i]]++;
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, o);
    }
    return out;
}

/* the unseen copies of the useful kinds of the hand without one k (held); h
 * left as it was */
static long long
sh_discard_useful(shhand *h, int k, const long long *unseen)
{
    h->c[k]--;
    unsigned long long mask = sh_useful_mask(h);
    h->c[k]++;
    long long total = 0;
    for (int t = 0; t < NK; t++)
        if (mask >> t & 1)
            total += unseen[t];
    return total;
}

/* discard_ukeire(counts, cap, n_melds, forms, size, allow_four_pairs, unseen,
 * kinds): for each of kinds, the unseen copies (34 plain ints) of the
 * useful kinds of the hand without one of it */
static PyObject *
py_discard_ukeire(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    long long unseen[NK];
    int kinds[NK];
    Py_ssize_t n;
    if (nargs != 8 || (kwnames && PyTuple_GET_SIZE(kwnames)) || !sh_read_hand(args, 6, NULL, &h) ||
        !sh_read_ints(args[6], NK, unseen) || !sh_read_kinds(args[7], h.c, kinds, &n))
        return sh_fallback_kw(pure_discard_ukeire, args, nargs, kwnames);
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyLong_FromLongLong(sh_discard_useful(&h, kinds[i], unseen));
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, o);
    }
    return out;
}

/* best_discards(counts, cap, n_melds, forms, size, allow_four_pairs, unseen,
 * kinds): the least shanten of the hand without one of any of kinds (distinct
 * kinds held, at least one), and (kind, unseen copies of its useful kinds) for
 * each of kinds that keeps it, in kinds' order: discard_shantens and
 * discard_ukeire of those in one call; reference
 * hefen.game.bots._py_best_discards */
static PyObject *pure_best_discards;

static PyObject *
py_best_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    shhand h;
    long long unseen[NK], sh[NK];
    int kinds[NK];
    Py_ssize_t n;
    if (nargs != 8 || (kwnames && PyTuple_GET_SIZE(kwnames)) || !sh_read_hand(args, 6, NULL, &h) ||
        !sh_read_ints(args[6], NK, unseen) || !sh_read_kinds(args[7], h.c, kinds, &n) || n == 0)
        return sh_fallback_kw(pure_best_discards, args, nargs, kwnames);
    long long c[NK];
    memcpy(c, h.c, sizeof c);
    shtab p[4], lr[2];
    sh_discard_tables(&h, p, lr);
    long long best = 0;
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        sh[i] = sh_discard_one(&h, c, p, lr, kinds[i]);
        if (i == 0 || sh[i] < best)
            best = sh[i];
    }
    for (Py_ssize_t i = 0; i < n; i++)
        m += sh[i] == best;
    PyObject *pairs = PyTuple_New(m);
    if (!pairs)
        return NULL;
    Py_ssize_t j = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (sh[i] != best)
            continue;
        PyObject *o = Py_BuildValue("(iL)", kinds[i], sh_discard_useful(&h, kinds[i], unseen));
        if (!o) {
            Py_DECREF(pairs);
            return NULL;
        }
        PyTuple_SET_ITEM(pairs, j++, o);
    }
    return Py_BuildValue("(LN)", best, pairs);
}

/* unseen_counts(players, seat): the copies of each kind seat cannot see (its
 * own concealed tiles, every river's unclaimed tiles, the melds shown and
 * its own concealed kongs), none below 0; reference
 * hefen.game.bots._py_unseen_counts, which answers any player or meld not of
 * the expected shape (a list of ints, a list of (int, bool), a list of melds
 * with a bool concealed and a tuple of ints) */
static PyObject *pure_unseen_counts;
static PyObject *s_uc_concealed, *s_uc_discards, *s_uc_melds, *s_uc_tiles;

/* subtract the kinds of list/tuple o from n; 0 if o is not of that shape */
static int
uc_take(PyObject *o, int tuple, long long *n)
{
    if (tuple ? !PyTuple_CheckExact(o) : !PyList_CheckExact(o))
        return 0;
    Py_ssize_t len = tuple ? PyTuple_GET_SIZE(o) : PyList_GET_SIZE(o);
    for (Py_ssize_t i = 0; i < len; i++) {
        int t = read_kind(tuple ? PyTuple_GET_ITEM(o, i) : PyList_GET_ITEM(o, i));
        if (t < 0)
            return 0;
        n[t]--;
    }
    return 1;
}

/* one player's share into n; 0 where it is not of the expected shape */
static int
uc_player(PyObject *p, int own, long long *n)
{
    int ok = 1;
    PyObject *x;
    if (own) {
        if (!(x = PyObject_GetAttr(p, s_uc_concealed)))
            return 0;
        ok = uc_take(x, 0, n);
        Py_DECREF(x);
        if (!ok)
            return 0;
    }
    if (!(x = PyObject_GetAttr(p, s_uc_discards)))
        return 0;
    if (!PyList_CheckExact(x))
        ok = 0;
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(x); i++) {
        PyObject *d = PyList_GET_ITEM(x, i);
        if (!PyTuple_CheckExact(d) || PyTuple_GET_SIZE(d) != 2 ||
            !PyBool_Check(PyTuple_GET_ITEM(d, 1))) {
            ok = 0;
            break;
        }
        int t = read_kind(PyTuple_GET_ITEM(d, 0));
        if (t < 0)
            ok = 0;
        else if (PyTuple_GET_ITEM(d, 1) == Py_False)
            n[t]--;
    }
    Py_DECREF(x);
    if (!ok || !(x = PyObject_GetAttr(p, s_uc_melds)))
        return 0;
    if (!PyList_CheckExact(x))
        ok = 0;
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(x); i++) {
        PyObject *m = PyList_GET_ITEM(x, i), *c = PyObject_GetAttr(m, s_uc_concealed);
        if (!c || !PyBool_Check(c)) {
            Py_XDECREF(c);
            ok = 0;
            break;
        }
        int hidden = c == Py_True;
        Py_DECREF(c);
        if (hidden && !own)
            continue; /* a concealed kong of another seat shows nothing */
        PyObject *tiles = PyObject_GetAttr(m, s_uc_tiles);
        ok = tiles && uc_take(tiles, 1, n);
        Py_XDECREF(tiles);
    }
    Py_DECREF(x);
    return ok;
}

static PyObject *
py_unseen_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long long n[NK];
    long seat = -1;
    int ok = nargs == 2 && PyList_CheckExact(args[0]) && PyLong_CheckExact(args[1]);
    if (ok) {
        seat = PyLong_AsLong(args[1]);
        ok = !(seat == -1 && PyErr_Occurred()) && seat >= 0 && seat < PyList_GET_SIZE(args[0]);
        PyErr_Clear();
    }
    if (ok && !s_uc_concealed) {
        s_uc_concealed = PyUnicode_InternFromString("concealed");
        s_uc_discards = PyUnicode_InternFromString("discards");
        s_uc_melds = PyUnicode_InternFromString("melds");
        s_uc_tiles = PyUnicode_InternFromString("tiles");
        if (!s_uc_concealed || !s_uc_discards || !s_uc_melds || !s_uc_tiles)
            return NULL;
    }
    for (int t = 0; t < NK; t++)
        n[t] = 4;
    for (Py_ssize_t s = 0; ok && s < PyList_GET_SIZE(args[0]); s++)
        ok = uc_player(PyList_GET_ITEM(args[0], s), s == seat, n);
    if (!ok) {
        PyErr_Clear();
        return sh_fallback(pure_unseen_counts, args, nargs);
    }
    PyObject *out = PyList_New(NK);
    if (!out)
        return NULL;
    for (int t = 0; t < NK; t++)
        PyList_SET_ITEM(out, t, PyLong_FromLongLong(n[t] > 0 ? n[t] : 0)); /* small ints */
    return out;
}

static PyObject *
py_set_pure_bots(PyObject *self, PyObject *args)
{
    PyObject *a, *b, *c = NULL, *d = NULL;
    if (!PyArg_ParseTuple(args, "OO|OO:_set_pure_bots", &a, &b, &c, &d))
        return NULL;
    Py_INCREF(a);
    Py_INCREF(b);
    Py_XSETREF(pure_hk_discard_values, a);
    Py_XSETREF(pure_discard_ukeire, b);
    if (c != NULL) { /* kept as registered where not given */
        Py_INCREF(c);
        Py_XSETREF(pure_best_discards, c);
    }
    if (d != NULL) {
        Py_INCREF(d);
        Py_XSETREF(pure_unseen_counts, d);
    }
    Py_RETURN_NONE;
}

static PyObject *
py_set_pure_hk_value(PyObject *self, PyObject *f)
{
    Py_INCREF(f);
    Py_XSETREF(pure_hk_value, f);
    Py_RETURN_NONE;
}

static PyObject *
py_set_pure_hands(PyObject *self, PyObject *args)
{
    PyObject *f[5];
    if (!PyArg_ParseTuple(args, "OOOOO:_set_pure_hands", &f[0], &f[1], &f[2], &f[3], &f[4]))
        return NULL;
    PyObject **dst[5] = {&pure_shanten_number, &pure_useful_kinds, &pure_plan_shanten,
                         &pure_plan_shantens, &pure_discard_shantens};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(f[i]);
        Py_XSETREF(*dst[i], f[i]);
    }
    for (int k = 0; k < SH_NFORMS; k++) {
        if (!sh_form_str[k]) {
            sh_form_str[k] = PyUnicode_InternFromString(sh_form_names[k]);
            if (!sh_form_str[k])
                return NULL;
        }
    }
    Py_RETURN_NONE;
}




/* ---- new(cls, *fields): a registered frozen slotted dataclass -------------
 * built without running its generated __init__ (whose object.__setattr__
 * per field is most of a small result's cost): the instance is allocated as
 * object.__new__ does and each field is set through its slot's member
 * descriptor, which is what that __init__ ends in.  Only classes registered
 * with _set_new_types (whose fields are all slots, given in order) are built
 * so; any other call is cls(*fields). */
#define FT_MAX 8
#define FT_FIELDS 16
static PyObject *ft_type[FT_MAX];
static int ft_nf[FT_MAX], ft_n;
static PyObject *ft_descr[FT_MAX][FT_FIELDS];
static PyObject *ft_names[FT_MAX][FT_FIELDS];
/* where each slot lies in the instance (-1: set it through its descriptor) */
static Py_ssize_t ft_offset[FT_MAX][FT_FIELDS];

static PyObject *
ft_make(int k, PyObject *const *vals, Py_ssize_t n)
{
    PyTypeObject *tp = (PyTypeObject *)ft_type[k];
    PyObject *o = tp->tp_alloc(tp, 0);
    if (o == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t off = ft_offset[k][i];
        if (off >= 0) {
            /* what the descriptor's set does to a fresh instance's empty slot */
            Py_INCREF(vals[i]);
            *(PyObject **)((char *)o + off) = vals[i];
            continue;
        }
        PyObject *d = ft_descr[k][i];
        if (Py_TYPE(d)->tp_descr_set(d, o, vals[i]) < 0) {
            Py_DECREF(o);
            return NULL;
        }
    }
    return o;
}

static int
ft_find(PyObject *cls)
{
    for (int k = 0; k < ft_n; k++)
        if (ft_type[k] == cls)
            return k;
    return -1;
}

/* getattr(o, name) (name interned); for an instance of a registered class
 * through its slot's member descriptor, which is what the attribute lookup
 * finds for it */
static struct {
    PyObject *tp, *name, *descr; /* borrowed: the registered classes keep them */
} fa_cache[128];

static PyObject *
ft_attr(PyObject *o, PyObject *name)
{
    PyObject *tp = (PyObject *)Py_TYPE(o);
    size_t h = (((size_t)name >> 4) ^ ((size_t)tp >> 6)) & 127;
    if (fa_cache[h].tp == tp && fa_cache[h].name == name) {
        PyObject *d = fa_cache[h].descr;
        return Py_TYPE(d)->tp_descr_get(d, o, tp);
    }
    for (int k = 0; k < ft_n; k++) {
        if (ft_type[k] != tp)
            continue;
        for (int i = 0; i < ft_nf[k]; i++)
            if (ft_names[k][i] == name) {
                PyObject *d = ft_descr[k][i];
                fa_cache[h].tp = tp;
                fa_cache[h].name = name;
                fa_cache[h].descr = d;
                return Py_TYPE(d)->tp_descr_get(d, o, tp);
            }
        break;
    }
    return PyObject_GetAttr(o, name);
}

static PyObject *
py_new(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "new(cls, *fields)");
        return NULL;
    }
    int k = ft_find(args[0]);
    if (k < 0 || nargs - 1 != ft_nf[k])
        return PyObject_Vectorcall(args[0], args + 1, nargs - 1, NULL);
    return ft_make(k, args + 1, nargs - 1);
}

/* _set_new_types(((cls, (field, ...)), ...)): adds the classes not
 * registered before */
static PyObject *
py_set_new_types(PyObject *self, PyObject *args)
{
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "O!:_set_new_types", &PyTuple_Type, &spec))
        return NULL;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(spec); k++) {
        PyObject *cls, *fields;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(spec, k), "O!O!:_set_new_types", &PyType_Type,
                              &cls, &PyTuple_Type, &fields))
            return NULL;
        Py_ssize_t nf = PyTuple_GET_SIZE(fields);
        if (ft_find(cls) >= 0)
            continue; /* registered before */
        if (ft_n >= FT_MAX) {
            PyErr_SetString(PyExc_ValueError, "_set_new_types: too many classes");
            return NULL;
        }
        if (nf > FT_FIELDS) {
            PyErr_SetString(PyExc_ValueError, "_set_new_types: too many fields");
            return NULL;
        }
        PyObject *dict = ((PyTypeObject *)cls)->tp_dict;
        for (Py_ssize_t i = 0; i < nf; i++) {
            PyObject *d = PyDict_GetItemWithError(dict, PyTuple_GET_ITEM(fields, i));
            if (d == NULL || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "_set_new_types: a field is not a slot");
                for (Py_ssize_t j = 0; j < i; j++)
                    Py_CLEAR(ft_descr[ft_n][j]);
                return NULL;
            }
            Py_INCREF(d);
            ft_descr[ft_n][i] = d;
            PyMemberDef *md = ((PyMemberDescrObject *)d)->d_member;
            ft_offset[ft_n][i] =
                md->type == T_OBJECT_EX && !(md->flags & READONLY) && md->offset > 0 &&
                        (size_t)md->offset + sizeof(PyObject *) <=
                            (size_t)((PyTypeObject *)cls)->tp_basicsize
                    ? md->offset
                    : -1;
            PyObject *name = PyTuple_GET_ITEM(fields, i);
            Py_INCREF(name);
            ft_names[ft_n][i] = name;
        }
        Py_INCREF(cls);
        ft_type[ft_n] = cls;
        ft_nf[ft_n] = (int)nf;
        ft_n++;
    }
    Py_RETURN_NONE;
}
/* ---- MCR scoring, one reading after another (hefen.mcr.score) ------------
 * mcr_score(hand, opts) follows hefen.mcr._py_score branch for branch: the
 * facts of the win (_Win), the waits, every standard reading
 * (_read_standard: the sets, win flags, kong patterns, terminal chows, the
 * combinations and their branch and bound, nine gates, concealed/melded,
 * the pair's patterns, set traits, the whole-hand tile patterns, the wait,
 * the winds, finish: exclusions, per-set patterns, absorbs, Chicken Hand),
 * the special readings (_read_special) and the knitted ones
 * (_read_knitted), and keeps the first reading of the highest total.  It
 * answers that reading's Result as hefen.mcr._result_of builds it (its
 * patterns in the table's order, the flowers, the settlement, the notes),
 * False when no reading completes the hand, and None for an input it does
 * not read (hefen.mcr then runs the Python reference).  The pattern table
 * (ids in ORDER, values, names, exclusions) comes from hefen.mcr at import
 * (_set_mcr, _set_mcr_result).  A tally keeps, per pattern, its count and
 * its uses as codes (a set's label, a tile, four of a tile, a knitted
 * straight), turned into the strings only for the best reading. */

#define MP_MAX 128   /* patterns in the table */
#define MU_MAX 16    /* uses of one pattern in one reading */
#define MG_MAX 8     /* groups of a reading */
#define MD_MAX 128   /* decompositions kept */

enum {
    GK_CHOW, GK_PUNG, GK_KONG, GK_PAIR
};

enum {
    M_LAST_TILE, M_LAST_TILE_DRAW, M_LAST_TILE_CLAIM, M_OUT_WITH_REPLACEMENT_TILE,
    M_ROBBING_THE_KONG, M_SELF_DRAWN, M_MELDED_KONG, M_CONCEALED_KONG, M_TWO_MELDED_KONGS,
    M_TWO_CONCEALED_KONGS, M_CONCEALED_KONG_AND_MELDED_KONG, M_THREE_KONGS, M_FOUR_KONGS,
    M_TWO_CONCEALED_PUNGS, M_THREE_CONCEALED_PUNGS, M_FOUR_CONCEALED_PUNGS, M_ALL_PUNGS,
    M_DRAGON_PUNG, M_PUNG_OF_TERMINALS_OR_HONORS, M_PURE_TERMINAL_CHOWS,
    M_THREE_SUITED_TERMINAL_CHOWS, M_NINE_GATES, M_FULLY_CONCEALED_HAND, M_CONCEALED_HAND,
    M_MELDED_HAND, M_ALL_CHOWS, M_LITTLE_THREE_DRAGONS, M_LITTLE_FOUR_WINDS,
    M_TWO_DRAGON_PUNGS, M_BIG_THREE_WINDS, M_OUTSIDE_HAND, M_ALL_FIVES, M_ALL_EVEN_PUNGS,
    M_EDGE_WAIT, M_CLOSED_WAIT, M_SINGLE_WAIT, M_PREVALENT_WIND, M_SEAT_WIND, M_CHICKEN_HAND,
    M_KNITTED_STRAIGHT, M_SEVEN_SHIFTED_PAIRS, M_SEVEN_PAIRS, M_THIRTEEN_ORPHANS,
    M_GREATER_HONORS_AND_KNITTED_TILES, M_LESSER_HONORS_AND_KNITTED_TILES, N_MNAMES
};
static const char *M_NAMES[N_MNAMES] = {
    "last_tile", "last_tile_draw", "last_tile_claim", "out_with_replacement_tile",
    "robbing_the_kong", "self_drawn", "melded_kong", "concealed_kong", "two_melded_kongs",
    "two_concealed_kongs", "concealed_kong_and_melded_kong", "three_kongs", "four_kongs",
    "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs", "all_pungs",
    "dragon_pung", "pung_of_terminals_or_honors", "pure_terminal_chows",
    "three_suited_terminal_chows", "nine_gates", "fully_concealed_hand", "concealed_hand",
    "melded_hand", "all_chows", "little_three_dragons", "little_four_winds",
    "two_dragon_pungs", "big_three_winds", "outside_hand", "all_fives", "all_even_pungs",
    "edge_wait", "closed_wait", "single_wait", "prevalent_wind", "seat_wind", "chicken_hand",
    "knitted_straight", "seven_shifted_pairs", "seven_pairs", "thirteen_orphans",
    "greater_honors_and_knitted_tiles", "lesser_honors_and_knitted_tiles",
};

/* the table, from _set_mcr */
static int mp_n;                          /* patterns */
static int mp_ready;                      /* _set_mcr done */
static int mp_id[N_MNAMES];               /* M_* -> pattern index */
static int mp_combo[N_COMBO];             /* P_* -> pattern index */
static int mp_trait[N_TRAIT];             /* T_* -> pattern index */
static long long mp_value[2][MP_MAX];     /* green_book, mil */
static int mp_ex_n[MP_MAX], mp_ex[MP_MAX][MP_MAX];       /* excludes (not per set) */
static int mp_psex_n[MP_MAX], mp_psex[MP_MAX][MP_MAX];   /* per-set excludes */
static int mp_abs_n[MP_MAX], mp_abs[MP_MAX][MP_MAX];     /* absorbs on its sets */
static char mp_keep[MP_MAX];              /* what Nine Gates keeps without its extras */
static int mk_tiles[6][9];                /* KNITTED_STRAIGHTS, in order */
static PyObject *mp_ids, *mp_names_en, *mp_names; /* tuples: each pattern's id, name, names */
static PyObject *mp_hit_type;             /* hefen.result.PatternHit */
/* the uses, as codes: a set's label (kind * NK + tile) * 3 + (0 from the
 * hand, 1 a claimed meld, 2 a concealed meld); then a tile's code, four of
 * a tile's code, a knitted straight */
#define U_TILE (4 * NK * 3)
#define U_QUAD (U_TILE + NK)
#define U_KNIT (U_QUAD + NK)
#define U_N (U_KNIT + 6)
static PyObject *mu_obj[U_N];
static PyObject *s_concealed, *s_melds, *s_win_tile, *s_context, *s_kind, *s_tiles,
    *s_win, *s_self_draw, *s_ltw, *s_kr, *s_dkr, *s_rk, *s_lok, *s_round, *s_seat,
    *s_variant, *s_mil, *s_green_book, *s_knitted_wait, *s_remainder, *s_whole_hand,
    *s_sp_hog, *s_ng_extras, *s_imp_waits, *s_count, *s_ignore, *s_discard;
static PyObject *meld_type; /* hefen.hand.Meld */

typedef struct {
    int kind, tile, concealed, declared;
} MGroup;

typedef struct {
    int fans[MP_MAX];
    int nuses[MP_MAX];
    short uses[MP_MAX][MU_MAX];
    int nps, ps_pid[MG_MAX * 2], ps_grp[MG_MAX * 2];
    int overflow;
    unsigned long long on[2]; /* the patterns added to (their counts may be 0 since) */
} MTally;

/* the lowest set bit of a nonzero word */
#if defined(_MSC_VER)
#include <intrin.h>
static __inline int
m_ctz64(unsigned long long x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
#define m_ctz64(x) __builtin_ctzll(x)
#endif

/* each pattern added to, in the table's order */
#define FOR_ON(t, p)                                                                     \
    for (int w_ = 0, p = 0; w_ < 2; w_++)                                                \
        for (unsigned long long m_ = (t)->on[w_]; m_ && (p = w_ * 64 + m_ctz64(m_), 1);  \
             m_ &= m_ - 1)

typedef struct {
    int win, self_drawn, wall_last, about_kong, fourth, mil;
    int knit_remainder, sp_hog, ng_extras;
    int n_melds, n_kongs, n_exposed, imp;
    int n_waits; /* -1: not counted yet (m_one_wait) */
    int round_wind, seat_wind;
    int c13[NK], c14[NK];
    int tiles[MAX_TILES], ntiles;
    MGroup fixed[4];
} MWin;

/* a clean tally: every count and use list that is not empty has its bit */
static void
mt_init(MTally *t)
{
    FOR_ON(t, p)
    {
        t->fans[p] = 0;
        t->nuses[p] = 0;
    }
    t->on[0] = t->on[1] = 0;
    t->nps = 0;
    t->overflow = 0;
}

static void
mt_add(MTally *t, int pid, const short *u, int nu, int n)
{
    t->fans[pid] += n;
    t->on[pid >> 6] |= 1ULL << (pid & 63);
    for (int i = 0; i < nu; i++) {
        if (t->nuses[pid] >= MU_MAX) {
            t->overflow = 1;
            return;
        }
        t->uses[pid][t->nuses[pid]++] = u[i];
    }
}

static void
mt_add1(MTally *t, int pid, int use)
{
    short u = (short)use;
    mt_add(t, pid, &u, use >= 0 ? 1 : 0, 1);
}

static void
mt_drop(MTally *t, int pid)
{
    t->fans[pid] = 0;
    t->nuses[pid] = 0;
}

static int
m_label(const MGroup *g)
{
    return (g->kind * NK + g->tile) * 3 + (g->declared ? (g->concealed ? 2 : 1) : 0);
}

static void
m_labels(MTally *t, int pid, const MGroup *groups, const int *idx, int n)
{
    short u[MG_MAX * 2];
    for (int i = 0; i < n; i++)
        u[i] = (short)m_label(&groups[idx[i]]);
    mt_add(t, pid, u, n, 1);
}

static void
m_win_flags(const MWin *w, MTally *t)
{
    if (w->fourth)
        mt_add1(t, mp_id[M_LAST_TILE], U_TILE + w->win);
    if (w->wall_last)
        mt_add1(t, mp_id[w->self_drawn ? M_LAST_TILE_DRAW : M_LAST_TILE_CLAIM], -1);
    if (w->about_kong)
        mt_add1(t, mp_id[w->self_drawn ? M_OUT_WITH_REPLACEMENT_TILE : M_ROBBING_THE_KONG], -1);
    if (w->self_drawn)
        mt_add1(t, mp_id[M_SELF_DRAWN], -1);
}

/* detect.kong_patterns */
static void
m_kong_patterns(const MGroup *groups, const int *idx, int nidx, int mil, MTally *t)
{
    int mk[MG_MAX], ck[MG_MAX], cp[MG_MAX], nmk = 0, nck = 0, ncp = 0;
    for (int a = 0; a < nidx; a++) {
        const MGroup *g = &groups[idx[a]];
        if (g->kind == GK_KONG) {
            if (g->concealed)
                ck[nck++] = idx[a];
            else
                mk[nmk++] = idx[a];
        }
        else if (g->kind == GK_PUNG && g->concealed)
            cp[ncp++] = idx[a];
    }
    int k = nmk + nck, both[MG_MAX * 2], nb;
    if (k) {
        if (k == 1) {
            nb = 0;
            for (int a = 0; a < nmk; a++)
                both[nb++] = mk[a];
            for (int a = 0; a < nck; a++)
                both[nb++] = ck[a];
            m_labels(t, mp_id[nmk ? M_MELDED_KONG : M_CONCEALED_KONG], groups, both, nb);
        }
        else if (k == 2) {
            if (nmk == 2)
                m_labels(t, mp_id[M_TWO_MELDED_KONGS], groups, mk, nmk);
            else if (nck == 2)
                m_labels(t, mp_id[M_TWO_CONCEALED_KONGS], groups, ck, nck);
            else if (mil) {
                nb = 0;
                for (int a = 0; a < nck; a++)
                    both[nb++] = ck[a];
                for (int a = 0; a < nmk; a++)
                    both[nb++] = mk[a];
                m_labels(t, mp_id[M_CONCEALED_KONG_AND_MELDED_KONG], groups, both, nb);
            }
            else {
                m_labels(t, mp_id[M_CONCEALED_KONG], groups, ck, nck);
                m_labels(t, mp_id[M_MELDED_KONG], groups, mk, nmk);
            }
        }
        else if (k == 3 || k == 4) {
            nb = 0;
            for (int a = 0; a < nmk; a++)
                both[nb++] = mk[a];
            for (int a = 0; a < nck; a++)
                both[nb++] = ck[a];
            m_labels(t, mp_id[k == 3 ? M_THREE_KONGS : M_FOUR_KONGS], groups, both, nb);
        }
    }
    int hidden[MG_MAX * 2], nh = 0;
    for (int a = 0; a < nck; a++)
        hidden[nh++] = ck[a];
    for (int a = 0; a < ncp; a++)
        hidden[nh++] = cp[a];
    if (nh >= 2) {
        if (nh > 4) {
            t->overflow = 1; /* the reference's KeyError */
            return;
        }
        static const int runs[5] = {0, 0, M_TWO_CONCEALED_PUNGS, M_THREE_CONCEALED_PUNGS,
                                    M_FOUR_CONCEALED_PUNGS};
        m_labels(t, mp_id[runs[nh]], groups, hidden, nh);
    }
    if (nidx == 4)
        m_labels(t, mp_id[M_ALL_PUNGS], groups, idx, nidx);
    for (int a = 0; a < nidx; a++) {
        int x = groups[idx[a]].tile, pid = -1;
        if (is_dragon_t(x))
            pid = mp_id[M_DRAGON_PUNG];
        else if (is_terminal_t(x) || is_wind_t(x))
            pid = mp_id[M_PUNG_OF_TERMINALS_OR_HONORS];
        if (pid >= 0) {
            if (t->nps >= MG_MAX * 2) {
                t->overflow = 1;
                return;
            }
            t->ps_pid[t->nps] = pid;
            t->ps_grp[t->nps++] = idx[a];
        }
    }
}

/* the whole-hand tile patterns into an MTally (the traits computed by
 * suit_traits, tile_traits, rank_trait and hog_quads, as the py_* twins) */
static void
m_suit_patterns(const int *tiles, int n, MTally *t)
{
    int tr[4], nn[4];
    int k = suit_traits(tiles, n, tr, nn);
    for (int i = 0; i < k; i++)
        mt_add(t, mp_trait[tr[i]], NULL, 0, nn[i]);
}

static void
m_tile_patterns(const int *tiles, int n, MTally *t)
{
    int tr[4];
    int k = tile_traits(tiles, n, tr);
    for (int i = 0; i < k; i++)
        mt_add1(t, mp_trait[tr[i]], -1);
}

static void
m_rank_patterns(const int *tiles, int n, MTally *t)
{
    int pid = rank_trait(tiles, n);
    if (pid >= 0)
        mt_add1(t, mp_trait[pid], -1);
}

static void
m_tile_hog(const int *tiles, int n, int kongs, MTally *t)
{
    int quads[NK], nq = 0;
    long hog = hog_quads(tiles, n, kongs, quads, &nq);
    if (hog <= 0)
        return;
    short u[NK];
    for (int k = 0; k < nq; k++)
        u[k] = (short)(U_QUAD + quads[k]);
    mt_add(t, mp_trait[T_TILE_HOG], u, nq, (int)hog);
}

/* _wait_pattern: the pattern it adds (-1 none) */
static int
m_wait_kind(const MGroup *groups, int ng, int win)
{
    int edge = 0, closed = 0, single = 0;
    for (int i = 0; i < ng; i++) {
        const MGroup *g = &groups[i];
        if (g->declared)
            continue;
        if (g->kind == GK_CHOW) {
            if (g->tile + 1 == win)
                closed = 1;
            else if (g->tile == win || g->tile + 2 == win)
                edge = 1;
        }
        else if (g->kind == GK_PAIR && g->tile == win)
            single = 1;
    }
    return edge ? mp_id[M_EDGE_WAIT] : closed ? mp_id[M_CLOSED_WAIT] : single ? mp_id[M_SINGLE_WAIT] : -1;
}

static void
m_wait_pattern(const MGroup *groups, int ng, int win, MTally *t)
{
    int pid = m_wait_kind(groups, ng, win);
    if (pid >= 0)
        mt_add1(t, pid, U_TILE + win);
}

static void
m_wind_patterns(const MGroup *groups, int ng, int prevalent, int seat, MTally *t)
{
    for (int i = 0; i < ng; i++) {
        const MGroup *g = &groups[i];
        if (g->kind == GK_PUNG || g->kind == GK_KONG) {
            if (g->tile == prevalent)
                mt_add1(t, mp_id[M_PREVALENT_WIND], m_label(g));
            if (g->tile == seat)
                mt_add1(t, mp_id[M_SEAT_WIND], m_label(g));
        }
    }
}

/* detect.finish */
static void
m_finish(MTally *t, const MGroup *groups)
{
    int nps = t->nps, pp[MG_MAX * 2], pg[MG_MAX * 2];
    memcpy(pp, t->ps_pid, sizeof(int) * nps);
    memcpy(pg, t->ps_grp, sizeof(int) * nps);
    int keys[MP_MAX], nkeys = 0;
    FOR_ON(t, p)
    if (t->fans[p] > 0)
        keys[nkeys++] = p;
    for (int q = 0; q < nkeys; q++) {
        int pid = keys[q];
        if (t->fans[pid] <= 0)
            continue;
        for (int e = 0; e < mp_ex_n[pid]; e++)
            mt_drop(t, mp_ex[pid][e]);
        if (nps) {
            for (int e = 0; e < mp_psex_n[pid]; e++) {
                int ex = mp_psex[pid][e], m = 0;
                for (int a = 0; a < nps; a++)
                    if (pp[a] != ex) {
                        pp[m] = pp[a];
                        pg[m++] = pg[a];
                    }
                nps = m;
            }
            if (mp_abs_n[pid]) {
                int m = 0;
                for (int a = 0; a < nps; a++) {
                    int drop = 0;
                    for (int e = 0; e < mp_abs_n[pid] && !drop; e++)
                        if (mp_abs[pid][e] == pp[a]) {
                            int lab = m_label(&groups[pg[a]]);
                            for (int u = 0; u < t->nuses[pid]; u++)
                                if (t->uses[pid][u] == lab) {
                                    drop = 1;
                                    break;
                                }
                        }
                    if (!drop) {
                        pp[m] = pp[a];
                        pg[m++] = pg[a];
                    }
                }
                nps = m;
            }
        }
    }
    if (nps && t->fans[mp_id[M_NINE_GATES]] > 0) {
        for (int a = 0; a < nps; a++)
            if (pp[a] == mp_id[M_PUNG_OF_TERMINALS_OR_HONORS]) {
                for (int b = a + 1; b < nps; b++) {
                    pp[b - 1] = pp[b];
                    pg[b - 1] = pg[b];
                }
                nps--;
                break;
            }
    }
    for (int a = 0; a < nps; a++)
        mt_add1(t, pp[a], m_label(&groups[pg[a]]));
    int any = 0;
    FOR_ON(t, p)
    {
        if (t->fans[p] <= 0)
            t->fans[p] = 0;
        else
            any = 1;
    }
    if (!any)
        mt_add1(t, mp_id[M_CHICKEN_HAND], -1);
}

/* the candidates of combination_candidates, over C groups */
typedef struct {
    int pid, n, sets[4];
} MCand;

static int
m_candidates(const MGroup *groups, int ng, MCand *out)
{
    int nc = 0, pids[8];
    for (int fam = 0; fam < 2; fam++) {
        int idx[MG_MAX], n = 0;
        for (int i = 0; i < ng; i++) {
            int k = groups[i].kind;
            if (fam == 0 ? k == GK_CHOW : (k == GK_PUNG || k == GK_KONG))
                idx[n++] = i;
        }
        for (int x = 0; x < n; x++)
            for (int y = x + 1; y < n; y++) {
                int i = idx[x], j = idx[y];
                int a = groups[i].tile, b = groups[j].tile;
                if (a > b) {
                    int tmp = a;
                    a = b;
                    b = tmp;
                }
                int np = fam == 0 ? chow_pair(a, b, pids) : pung_pair(a, b, pids);
                for (int q = 0; q < np; q++) {
                    out[nc].pid = pids[q];
                    out[nc].n = 2;
                    out[nc].sets[0] = i;
                    out[nc++].sets[1] = j;
                }
                for (int z = y + 1; z < n; z++) {
                    int k = idx[z];
                    np = fam == 0 ? chow_triple(groups[i].tile, groups[j].tile, groups[k].tile, pids)
                                  : pung_triple(groups[i].tile, groups[j].tile, groups[k].tile, pids);
                    for (int q = 0; q < np; q++) {
                        out[nc].pid = pids[q];
                        out[nc].n = 3;
                        out[nc].sets[0] = i;
                        out[nc].sets[1] = j;
                        out[nc++].sets[2] = k;
                    }
                }
            }
        if (n == 4) {
            int t4[4] = {groups[idx[0]].tile, groups[idx[1]].tile, groups[idx[2]].tile,
                         groups[idx[3]].tile};
            int np = fam == 0 ? chow_quad(t4, pids) : pung_quad(t4, pids);
            for (int q = 0; q < np; q++) {
                out[nc].pid = pids[q];
                out[nc].n = 4;
                for (int a = 0; a < 4; a++)
                    out[nc].sets[a] = idx[a];
                nc++;
            }
        }
    }
    return nc;
}

/* select_combinations over C candidates: writes the chosen ones' indices
 * (in the order the reference gives them) */
static int
m_select(const MCand *cands, int n, const long long *value, Search *S, int *chosen)
{
    if (n == 0)
        return 0;
    int names[N_COMBO], nnames = 0, pidx[MAX_CANDS];
    long long val[MAX_CANDS];
    for (int i = 0; i < n; i++) {
        val[i] = value[mp_combo[cands[i].pid]];
        int found = -1;
        for (int q = 0; q < nnames; q++)
            if (names[q] == cands[i].pid)
                found = q;
        if (found < 0) {
            names[nnames] = cands[i].pid;
            found = nnames++;
        }
        pidx[i] = found;
    }
    int order[MAX_CANDS];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && val[order[j - 1]] < val[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    S->n = n;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        S->value[k] = val[i];
        S->pid[k] = pidx[i];
        S->nsets[k] = cands[i].n;
        memcpy(S->sets[k], cands[i].sets, sizeof(int) * 4);
    }
    S->suffix[n] = 0;
    for (int k = n - 1; k >= 0; k--)
        S->suffix[k] = S->suffix[k + 1] + S->value[k];
    S->nchosen = S->nbest = 0;
    S->best_v = -1;
    int parent[8];
    for (int i = 0; i < 8; i++)
        parent[i] = i;
    unsigned used[MAX_CANDS];
    memset(used, 0, sizeof used);
    search(S, 0, parent, used, 0);
    for (int q = 0; q < S->nbest; q++)
        chosen[q] = order[S->best[q]];
    return S->nbest;
}

static int
m_trait(const MGroup *g)
{
    int ts[4], n;
    if (g->kind == GK_CHOW) {
        ts[0] = g->tile;
        ts[1] = g->tile + 1;
        ts[2] = g->tile + 2;
        n = 3;
    }
    else {
        n = g->kind == GK_KONG ? 4 : g->kind == GK_PAIR ? 2 : 3;
        for (int i = 0; i < n; i++)
            ts[i] = g->tile;
    }
    for (int i = 0; i < n; i++)
        if (is_terminal_t(ts[i]) || ts[i] >= 27)
            return 0;
    for (int i = 0; i < n; i++)
        if (ts[i] < 27 && ts[i] % 9 == 4)
            return 1;
    if (g->kind != GK_CHOW && g->tile < 27 && g->tile % 9 % 2 == 1)
        return 2;
    return 3;
}

static int m_one_wait(MWin *w);

static void
m_read_standard(MWin *w, int pair, const int *sk, const int *ss, int nsets, Search *S,
                MTally *t)
{
    int win = w->win;
    int claimed_pung = !w->self_drawn;
    for (int i = 0; i < nsets && claimed_pung; i++)
        if (sk[i] != PUNG && ss[i] <= win && win <= ss[i] + 2)
            claimed_pung = 0;
    MGroup groups[MG_MAX];
    int ng = 0;
    for (int i = 0; i < w->n_melds; i++)
        groups[ng++] = w->fixed[i];
    for (int i = 0; i < nsets; i++) {
        MGroup g = {sk[i] != PUNG ? GK_CHOW : GK_PUNG, ss[i], 1, 0};
        if (sk[i] == PUNG && claimed_pung && ss[i] == win)
            g.concealed = 0;
        groups[ng++] = g;
    }
    MGroup pg = {GK_PAIR, pair, 1, 0};
    groups[ng++] = pg;
    m_win_flags(w, t);
    int nso = ng - 1;
    int pung_idx[MG_MAX], chow_idx[MG_MAX], npi = 0, nci = 0;
    for (int i = 0; i < nso; i++) {
        if (groups[i].kind == GK_CHOW)
            chow_idx[nci++] = i;
        else if (groups[i].kind == GK_PUNG || groups[i].kind == GK_KONG)
            pung_idx[npi++] = i;
    }
    if (npi)
        m_kong_patterns(groups, pung_idx, npi, w->mil, t);
    int terminal_chows = -1;
    if (nci == 4 && pair < 27 && pair % 9 == 4) {
        int chows[4];
        for (int a = 0; a < 4; a++)
            chows[a] = groups[chow_idx[a]].tile;
        sort_ints(chows, 4);
        int ps = pair / 9, same = 1, other = 1;
        for (int a = 0; a < 4; a++) {
            if (chows[a] / 9 != ps)
                same = 0;
            else
                other = 0;
        }
        if (same && chows[0] % 9 == 0 && chows[1] % 9 == 0 && chows[2] % 9 == 6 &&
            chows[3] % 9 == 6)
            terminal_chows = mp_id[M_PURE_TERMINAL_CHOWS];
        else if (other) {
            /* two suits, each with its 123 and 789: sorted by (suit, rank),
             * chows are s1 0, s1 6, s2 0, s2 6 */
            int s1 = chows[0] / 9, s2 = chows[3] / 9;
            if (s1 != s2 && chows[0] == s1 * 9 && chows[1] == s1 * 9 + 6 && chows[2] == s2 * 9 &&
                chows[3] == s2 * 9 + 6)
                terminal_chows = mp_id[M_THREE_SUITED_TERMINAL_CHOWS];
        }
    }
    MCand cands[MAX_CANDS];
    int nc = m_candidates(groups, nso, cands);
    if (terminal_chows >= 0) {
        int idx[5];
        for (int a = 0; a < 4; a++)
            idx[a] = chow_idx[a];
        idx[4] = ng - 1;
        m_labels(t, terminal_chows, groups, idx, 5);
        int m = 0;
        for (int i = 0; i < nc; i++) {
            int all = 1;
            for (int a = 0; a < cands[i].n; a++)
                if (groups[cands[i].sets[a]].kind != GK_CHOW)
                    all = 0;
            if (!all)
                cands[m++] = cands[i];
        }
        nc = m;
    }
    int chosen[MAX_CANDS];
    int nch = m_select(cands, nc, mp_value[w->mil], S, chosen);
    for (int q = 0; q < nch; q++) {
        const MCand *c = &cands[chosen[q]];
        m_labels(t, mp_combo[c->pid], groups, c->sets, c->n);
    }
    if (w->n_melds == 0) {
        for (int s = 0; s < 3; s++) {
            int b = s * 9, ok = w->c13[b] == 3 && w->c13[b + 8] == 3;
            for (int r = 1; r < 8 && ok; r++)
                if (w->c13[b + r] != 1)
                    ok = 0;
            if (ok)
                mt_add1(t, mp_id[M_NINE_GATES], -1);
        }
    }
    if (w->n_exposed == 0)
        mt_add1(t, mp_id[w->self_drawn ? M_FULLY_CONCEALED_HAND : M_CONCEALED_HAND], -1);
    else if (w->n_exposed == 4 && !w->self_drawn)
        mt_add1(t, mp_id[M_MELDED_HAND], -1);
    if (nci == 4) {
        if (pair < 27)
            mt_add1(t, mp_id[M_ALL_CHOWS], -1);
    }
    else {
        int from = -1, to = -1;
        if (t->fans[mp_id[M_TWO_DRAGON_PUNGS]] && 31 <= pair && pair <= 33) {
            from = mp_id[M_TWO_DRAGON_PUNGS];
            to = mp_id[M_LITTLE_THREE_DRAGONS];
        }
        else if (t->fans[mp_id[M_BIG_THREE_WINDS]] && 27 <= pair && pair <= 30) {
            from = mp_id[M_BIG_THREE_WINDS];
            to = mp_id[M_LITTLE_FOUR_WINDS];
        }
        if (from >= 0) {
            short u[MU_MAX + 1];
            int nu = t->nuses[from];
            memcpy(u, t->uses[from], sizeof(short) * nu);
            u[nu++] = (short)m_label(&groups[ng - 1]);
            mt_drop(t, from);
            mt_add(t, to, u, nu, 1);
        }
    }
    int traits[4] = {0, 0, 0, 0};
    for (int i = 0; i < ng; i++)
        traits[m_trait(&groups[i])]++;
    if (traits[0] == 5)
        mt_add1(t, mp_id[M_OUTSIDE_HAND], -1);
    else if (traits[1] == 5)
        mt_add1(t, mp_id[M_ALL_FIVES], -1);
    else if (traits[2] == 5)
        mt_add1(t, mp_id[M_ALL_EVEN_PUNGS], -1);
    m_suit_patterns(w->tiles, w->ntiles, t);
    m_tile_patterns(w->tiles, w->ntiles, t);
    m_rank_patterns(w->tiles, w->ntiles, t);
    m_tile_hog(w->tiles, w->ntiles, w->n_kongs, t);
    if (!t->fans[mp_id[M_MELDED_HAND]] && !t->fans[mp_id[M_FOUR_KONGS]]) {
        int pid = m_wait_kind(groups, ng, win); /* the waits only when it adds one */
        if (pid >= 0 && m_one_wait(w))
            mt_add1(t, pid, U_TILE + win);
    }
    m_wind_patterns(groups, ng, w->round_wind, w->seat_wind, t);
    m_finish(t, groups);
    if (t->fans[mp_id[M_NINE_GATES]] && !w->ng_extras)
        FOR_ON(t, p)
    if (!mp_keep[p])
        mt_drop(t, p);
}

/* the waits of a hand one tile short: len(completing_tiles(...)), counted
 * up to 2 (the readings ask only whether there is exactly one) */
static int
m_n_completing(const int *c0, long n_melds, int forms, int fifth)
{
    int c[NK];
    memcpy(c, c0, sizeof c);
    forms = plausible_forms(c, n_melds, forms);
    char cand[NK];
    candidates(c, n_melds, forms, cand);
    StdBase base;
    std_base(c, &base);
    int nf = 0;
    for (int t = 0; t < NK; t++) {
        if (!cand[t])
            continue;
        if (c[t] >= 4 && !fifth)
            continue;
        c[t]++;
        if (std_complete_plus(c, &base, t) || complete_special(c, n_melds, forms))
            if (++nf == 2)
                return nf;
        c[t]--;
    }
    return nf;
}

/* len(_hand_waits(w)) == 1, counted once a hand, when first asked */
static int
m_one_wait(MWin *w)
{
    if (w->n_waits < 0) {
        if (w->imp)
            w->n_waits = m_n_completing(
                w->c13, w->n_melds, w->n_melds ? F_STANDARD : (F_STANDARD | F_SEVEN_PAIRS), 1);
        else
            w->n_waits = m_n_completing(
                w->c13, w->n_melds,
                F_STANDARD | F_SEVEN_PAIRS | F_THIRTEEN | F_HONORS_KNITTED | F_KNITTED, 0);
    }
    return w->n_waits == 1;
}

static void
m_read_knitted(MWin *w, int ks, int pair, const int *sk, const int *ss, int nsets,
               MTally *t)
{
    mt_add1(t, mp_id[M_KNITTED_STRAIGHT], U_KNIT + ks);
    MGroup g;
    if (nsets) {
        g.kind = sk[0] != PUNG ? GK_CHOW : GK_PUNG;
        g.tile = ss[0];
        g.concealed = 1;
        g.declared = 0;
    }
    else
        g = w->fixed[0];
    MGroup groups[2] = {g, {GK_PAIR, pair, 1, 0}};
    if (g.kind == GK_CHOW) {
        if (pair < 27)
            mt_add1(t, mp_id[M_ALL_CHOWS], -1);
    }
    else {
        int idx[1] = {0};
        m_kong_patterns(groups, idx, 1, w->mil, t);
    }
    m_win_flags(w, t);
    int ck = g.kind == GK_KONG && g.concealed;
    if (!w->n_melds || ck)
        mt_add1(t, mp_id[w->self_drawn ? M_FULLY_CONCEALED_HAND : M_CONCEALED_HAND], -1);
    m_suit_patterns(w->tiles, w->ntiles, t);
    m_tile_hog(w->tiles, w->ntiles, w->n_kongs, t);
    int rem[6], nr = 0;
    if (g.kind == GK_CHOW) {
        rem[nr++] = g.tile;
        rem[nr++] = g.tile + 1;
        rem[nr++] = g.tile + 2;
    }
    else
        for (int i = 0; i < (g.kind == GK_KONG ? 4 : 3); i++)
            rem[nr++] = g.tile;
    rem[nr++] = pair;
    rem[nr++] = pair;
    int in_rem = 0;
    for (int i = 0; i < nr; i++)
        if (rem[i] == w->win)
            in_rem = 1;
    if (in_rem) {
        if (w->n_melds && !ck)
            mt_add1(t, mp_id[M_SINGLE_WAIT], U_TILE + w->win);
        else if (w->knit_remainder) {
            int rest[NK];
            memset(rest, 0, sizeof rest);
            for (int i = 0; i < nr; i++)
                rest[rem[i]]++;
            rest[w->win]--;
            if (m_n_completing(rest, 3, F_STANDARD, 1) == 1)
                m_wait_pattern(groups, 2, w->win, t);
        }
        else if (m_one_wait(w))
            m_wait_pattern(groups, 2, w->win, t);
    }
    m_wind_patterns(groups, 1, w->round_wind, w->seat_wind, t);
    m_finish(t, groups);
}

/* the decompositions of split_enum, into C arrays */
typedef struct {
    int n, overflow;
    int pair[MD_MAX], nsets[MD_MAX], kind[MD_MAX][5], tile[MD_MAX][5];
} MDecs;

static void
m_split(int *c, int i, int need_pair, int pair, int *path, int depth, MDecs *D)
{
    while (i < NK && c[i] == 0)
        i++;
    if (i == NK) {
        if (need_pair)
            return;
        if (D->n >= MD_MAX || depth > 5) {
            D->overflow = 1;
            return;
        }
        D->pair[D->n] = pair;
        D->nsets[D->n] = depth;
        for (int k = 0; k < depth; k++) {
            D->kind[D->n][k] = path[k] / NK;
            D->tile[D->n][k] = path[k] % NK;
        }
        D->n++;
        return;
    }
    int n = c[i];
    if (need_pair && n >= 2) {
        c[i] -= 2;
        m_split(c, i, 0, i, path, depth, D);
        c[i] += 2;
    }
    if (n >= 3) {
        c[i] -= 3;
        path[depth] = PUNG * NK + i;
        m_split(c, i, need_pair, pair, path, depth + 1, D);
        c[i] += 3;
    }
    if (i < 27 && i % 9 <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--;
        c[i + 1]--;
        c[i + 2]--;
        path[depth] = CHOW * NK + i;
        m_split(c, i, need_pair, pair, path, depth + 1, D);
        c[i]++;
        c[i + 1]++;
        c[i + 2]++;
    }
}

static void
m_decompositions(const int *counts, MDecs *D)
{
    int c[NK], path[NK * MAX_COUNT];
    memcpy(c, counts, sizeof c);
    D->n = D->overflow = 0;
    if (total(c) % 3 != 2)
        return;
    m_split(c, 0, 1, -1, path, 0, D);
}

static long long
m_total(const MTally *t, const long long *value)
{
    long long s = 0;
    FOR_ON(t, p)
    s += value[p] * t->fans[p];
    return s;
}

/* read an exact int from 0 to NK-1; 1 read, 0 not */
static int
m_tile_of(PyObject *o, int *out)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (overflow || v < 0 || v >= NK)
        return 0;
    *out = (int)v;
    return 1;
}

/* an attribute that must be True or False: 1/0, -1 neither, -2 error */
static int
m_bool_attr(PyObject *o, PyObject *name)
{
    PyObject *v = ft_attr(o, name);
    if (v == NULL)
        return -2;
    int r = v == Py_True ? 1 : v == Py_False ? 0 : -1;
    Py_DECREF(v);
    return r;
}

/* 1 read, 0 outside the domain, -1 error */
/* the settings mcr_score reads (exactly the values the reference tells
 * apart): 1 read, 0 outside the domain, -1 error */
static int
m_read_opts(PyObject *opts, MWin *w)
{
    PyObject *v;
    if (!PyDict_CheckExact(opts))
        return 0;
    /* options: exactly the values the reference distinguishes */
    v = PyDict_GetItemWithError(opts, s_variant);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyUnicode_CheckExact(v))
        return 0;
    if (PyUnicode_Compare(v, s_mil) == 0)
        w->mil = 1;
    else if (PyUnicode_Compare(v, s_green_book) == 0)
        w->mil = 0;
    else
        return 0;
    v = PyDict_GetItemWithError(opts, s_knitted_wait);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyUnicode_CheckExact(v))
        return 0;
    if (PyUnicode_Compare(v, s_remainder) == 0)
        w->knit_remainder = 1;
    else if (PyUnicode_Compare(v, s_whole_hand) == 0)
        w->knit_remainder = 0;
    else
        return 0;
    int imp;
    v = PyDict_GetItemWithError(opts, s_imp_waits);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyUnicode_CheckExact(v))
        return 0;
    if (PyUnicode_Compare(v, s_count) == 0)
        imp = 1;
    else if (PyUnicode_Compare(v, s_ignore) == 0)
        imp = 0;
    else
        return 0;
    v = PyDict_GetItemWithError(opts, s_sp_hog);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (v != Py_True && v != Py_False)
        return 0;
    w->sp_hog = v == Py_True;
    v = PyDict_GetItemWithError(opts, s_ng_extras);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (v != Py_True && v != Py_False)
        return 0;
    w->ng_extras = v == Py_True;
    w->imp = imp;
    return 1;
}

/* one meld of a hand's ``melds``, of the ruleset's Meld type, as
   Meld.check() makes sure of: its kind (GK_CHOW, GK_PUNG, GK_KONG), tiles
   (*n of them, 3 or 4) and whether it is a concealed kong.
   1 read, 0 not (another type, a kind or tiles it does not take), -1 error */
static int
m_read_meld(PyObject *m, PyObject *type, int *kind, int ts[4], Py_ssize_t *n, int *concealed)
{
    if ((PyObject *)Py_TYPE(m) != type)
        return 0;
    PyObject *kobj = ft_attr(m, s_kind);
    if (kobj == NULL)
        return -1;
    int k = -1;
    if (PyUnicode_CheckExact(kobj)) {
        if (PyUnicode_Compare(kobj, kind_chow) == 0)
            k = GK_CHOW;
        else if (PyUnicode_Compare(kobj, kind_pung) == 0)
            k = GK_PUNG;
        else if (PyUnicode_Compare(kobj, kind_kong) == 0)
            k = GK_KONG;
    }
    Py_DECREF(kobj);
    if (k < 0)
        return 0;
    PyObject *mt = ft_attr(m, s_tiles);
    if (mt == NULL)
        return -1;
    Py_ssize_t len = PyTuple_CheckExact(mt) ? PyTuple_GET_SIZE(mt) : -1;
    int ok = len == (k == GK_KONG ? 4 : 3);
    for (Py_ssize_t j = 0; ok && j < len; j++)
        ok = m_tile_of(PyTuple_GET_ITEM(mt, j), &ts[j]);
    Py_DECREF(mt);
    if (ok && k == GK_CHOW)
        ok = ts[0] < 27 && ts[0] % 9 <= 6 && ts[1] == ts[0] + 1 && ts[2] == ts[0] + 2;
    else if (ok)
        for (Py_ssize_t j = 1; j < len; j++)
            ok = ok && ts[j] == ts[0];
    if (!ok)
        return 0;
    int cc = m_bool_attr(m, s_concealed);
    if (cc == -2)
        return -1;
    if (cc < 0 || (cc && k != GK_KONG))
        return 0;
    *kind = k;
    *n = len;
    *concealed = cc;
    return 1;
}

static int
m_read_win(PyObject *hand, PyObject *opts, MWin *w)
{
    int r = m_read_opts(opts, w);
    if (r <= 0)
        return r;
    r = 0;
    PyObject *conc = NULL, *melds = NULL, *wt = NULL, *ctx = NULL, *v = NULL;
    conc = ft_attr(hand, s_concealed);
    if (conc == NULL)
        goto error;
    melds = ft_attr(hand, s_melds);
    if (melds == NULL)
        goto error;
    wt = ft_attr(hand, s_win_tile);
    if (wt == NULL)
        goto error;
    ctx = ft_attr(hand, s_context);
    if (ctx == NULL)
        goto error;
    if (!PyTuple_CheckExact(conc) || !PyTuple_CheckExact(melds) || !m_tile_of(wt, &w->win))
        goto out;
    Py_ssize_t nm = PyTuple_GET_SIZE(melds), nconc = PyTuple_GET_SIZE(conc);
    if (nm > 4 || nconc + 3 * nm != 13)
        goto out;
    w->n_melds = (int)nm;
    memset(w->c13, 0, sizeof w->c13);
    w->ntiles = 0;
    for (Py_ssize_t i = 0; i < nconc; i++) {
        int x;
        if (!m_tile_of(PyTuple_GET_ITEM(conc, i), &x))
            goto out;
        w->c13[x]++;
        w->tiles[w->ntiles++] = x;
    }
    int in_melds = 0;
    w->n_kongs = w->n_exposed = 0;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        int k, ts[4], cc;
        Py_ssize_t n;
        int got = m_read_meld(m, meld_type, &k, ts, &n, &cc);
        if (got < 0)
            goto error;
        if (got == 0)
            goto out;
        int cnt = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            cnt += ts[j] == w->win;
            w->tiles[w->ntiles++] = ts[j];
        }
        in_melds += k != GK_CHOW ? cnt : cnt > 0;
        w->n_kongs += k == GK_KONG;
        w->n_exposed += !cc;
        MGroup g = {k, ts[0], cc, 1};
        w->fixed[i] = g;
    }
    w->tiles[w->ntiles++] = w->win;
    memcpy(w->c14, w->c13, sizeof w->c14);
    w->c14[w->win]++;
    for (int x = 0; x < NK; x++)
        if (w->c14[x] > 4)
            goto out;
    /* the context */
    v = ft_attr(ctx, s_win);
    if (v == NULL)
        goto error;
    if (!PyUnicode_CheckExact(v)) {
        Py_CLEAR(v);
        goto out;
    }
    if (PyUnicode_Compare(v, s_self_draw) == 0)
        w->self_drawn = 1;
    else if (PyUnicode_Compare(v, s_discard) == 0)
        w->self_drawn = 0;
    else {
        Py_CLEAR(v);
        goto out;
    }
    Py_CLEAR(v);
    int ltw = m_bool_attr(ctx, s_ltw), kr = m_bool_attr(ctx, s_kr), dkr = m_bool_attr(ctx, s_dkr),
        rk = m_bool_attr(ctx, s_rk), lok = m_bool_attr(ctx, s_lok);
    if (ltw == -2 || kr == -2 || dkr == -2 || rk == -2 || lok == -2)
        goto error;
    if (ltw < 0 || kr < 0 || dkr < 0 || rk < 0 || lok < 0)
        goto out;
    w->wall_last = ltw;
    w->about_kong = kr || dkr || rk;
    w->fourth = lok || (in_melds == 3 && w->c13[w->win] == 0);
    v = ft_attr(ctx, s_round);
    if (v == NULL)
        goto error;
    int ok = m_tile_of(v, &w->round_wind);
    Py_CLEAR(v);
    v = ft_attr(ctx, s_seat);
    if (v == NULL)
        goto error;
    ok = ok && m_tile_of(v, &w->seat_wind);
    Py_CLEAR(v);
    if (!ok)
        goto out;
    /* the waits (_hand_waits): counted when first asked (m_one_wait) */
    w->n_waits = -1;
    r = 1;
    goto out;
error:
    /* an attribute the reference reads differently: it answers */
    PyErr_Clear();
    r = 0;
out:
    Py_XDECREF(conc);
    Py_XDECREF(melds);
    Py_XDECREF(wt);
    Py_XDECREF(ctx);
    return r;
}

typedef struct {
    MWin w;
    MDecs D;
    Search S;
    MTally t[2];
} MWork;

/* the best reading's patterns: [PatternHit(id, name, value, count, uses,
 * dict(names)), ...] in the table's order, and their points */
static PyObject *
m_hits(const MTally *t, const long long *value, int extra, long long *points)
{
    int k = ft_find(mp_hit_type), n = 0, q = 0;
    if (k < 0)
        Py_RETURN_NONE;
    FOR_ON(t, p)
    n += t->fans[p] > 0;
    /* a tuple with `extra` places left at its end (the flowers') */
    PyObject *hits = PyTuple_New(n + extra);
    if (hits == NULL)
        return NULL;
    *points = 0;
    FOR_ON(t, p)
    {
        if (t->fans[p] <= 0)
            continue;
        *points += value[p] * t->fans[p];
        PyObject *f[6] = {PyTuple_GET_ITEM(mp_ids, p), PyTuple_GET_ITEM(mp_names_en, p),
                          PyLong_FromLongLong(value[p]), PyLong_FromLong(t->fans[p]),
                          PyTuple_New(t->nuses[p]), Py_NewRef(PyTuple_GET_ITEM(mp_names, p))};
        PyObject *h = NULL;
        if (f[2] && f[3] && f[4] && f[5]) {
            for (int u = 0; u < t->nuses[p]; u++) {
                PyObject *s = mu_obj[t->uses[p][u]];
                Py_INCREF(s);
                PyTuple_SET_ITEM(f[4], u, s);
            }
            h = ft_make(k, f, 6);
        }
        for (int r = 2; r < 6; r++)
            Py_XDECREF(f[r]);
        if (h == NULL) {
            Py_DECREF(hits);
            return NULL;
        }
        PyTuple_SET_ITEM(hits, q++, h);
    }
    return hits;
}

/* ---- the Result of the best reading (hefen.mcr._result_of) ---------------
 * the flowers' pattern, the settlement (RULESET.settle_hand for a context
 * it accepts: every opponent pays BASE, the discarder or on a self-draw
 * each opponent the total too; a discard win with no discarder is paid by
 * the next seat, with its note) and the Result, as the Python builds them.
 * The classes, codes and sentences come from _set_mcr_result. */
static PyObject *mr_result_type, *mr_payment_type, *mr_codes, *mr_flower_id, *mr_flower_name,
    *mr_flower_names, *mr_seats, *mr_next_notes, *mr_rules, *mr_unit;
static long mr_min_points, mr_base;
static PyObject *s_flowers_attr, *s_dealer, *s_dealer_streak, *s_discarder;

typedef struct {
    int flowers[8], nflowers;
    int seat, dealer, streak, discarder; /* discarder -1: None */
} MCtx;

/* 1 read, 0 outside what the Python fast settlement takes, -1 error */
static int
mr_read(PyObject *hand, MCtx *c)
{
    int r = 0;
    PyObject *fl = ft_attr(hand, s_flowers_attr), *ctx = NULL, *v = NULL;
    if (fl == NULL)
        goto error;
    if (!PyTuple_CheckExact(fl) || PyTuple_GET_SIZE(fl) > 8)
        goto out;
    c->nflowers = (int)PyTuple_GET_SIZE(fl);
    for (int i = 0; i < c->nflowers; i++) {
        PyObject *x = PyTuple_GET_ITEM(fl, i);
        long t = PyLong_CheckExact(x) ? PyLong_AsLong(x) : -1;
        if (t == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (t < 0 || t >= PyTuple_GET_SIZE(mr_codes))
            goto out;
        c->flowers[i] = (int)t;
    }
    ctx = ft_attr(hand, s_context);
    if (ctx == NULL)
        goto error;
    PyObject *names[4] = {s_seat, s_dealer, s_dealer_streak, s_discarder};
    long vals[4];
    for (int i = 0; i < 4; i++) {
        v = ft_attr(ctx, names[i]);
        if (v == NULL)
            goto error;
        if (v == Py_None && i == 3)
            vals[i] = -1;
        else if (!PyLong_CheckExact(v)) {
            Py_CLEAR(v);
            goto out;
        }
        else {
            int overflow = 0;
            vals[i] = PyLong_AsLongAndOverflow(v, &overflow);
            if (overflow || (vals[i] == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                Py_CLEAR(v);
                goto out;
            }
        }
        Py_CLEAR(v);
    }
    if (vals[0] < 27 || vals[0] > 30 || vals[1] < 27 || vals[1] > 30 || vals[2] < 0 ||
        vals[2] > 100 || (vals[3] != -1 && (vals[3] < 27 || vals[3] > 30)))
        goto out;
    c->seat = (int)vals[0];
    c->dealer = (int)vals[1];
    c->streak = (int)vals[2];
    c->discarder = (int)vals[3];
    r = 1;
    goto out;
error:
    PyErr_Clear();
    r = 0;
out:
    Py_XDECREF(fl);
    Py_XDECREF(ctx);
    return r;
}

/* hits: the reading's patterns, with one place left at the end when there
 * are flowers */
static PyObject *
mr_result(const MWin *w, const MCtx *c, PyObject *hits, long long points)
{
    int kr = ft_find(mr_result_type), kp = ft_find(mr_payment_type), kh = ft_find(mp_hit_type);
    if (kr < 0 || kp < 0 || kh < 0)
        Py_RETURN_NONE;
    PyObject *res = NULL, *patterns = NULL, *payments = NULL, *notes = NULL, *total_o = NULL;
    if (c->nflowers) {
        PyObject *uses = PyTuple_New(c->nflowers);
        if (uses == NULL)
            return NULL;
        for (int i = 0; i < c->nflowers; i++) {
            PyObject *s = PyTuple_GET_ITEM(mr_codes, c->flowers[i]);
            Py_INCREF(s);
            PyTuple_SET_ITEM(uses, i, s);
        }
        PyObject *one = PyLong_FromLong(1), *cnt = PyLong_FromLong(c->nflowers),
                 *names = Py_NewRef(mr_flower_names), *h = NULL;
        if (one && cnt && names) {
            PyObject *f[6] = {mr_flower_id, mr_flower_name, one, cnt, uses, names};
            h = ft_make(kh, f, 6);
        }
        Py_XDECREF(one);
        Py_XDECREF(cnt);
        Py_XDECREF(names);
        Py_DECREF(uses);
        if (h == NULL)
            return NULL;
        PyTuple_SET_ITEM(hits, PyTuple_GET_SIZE(hits) - 1, h);
    }
    long long total = points + c->nflowers;
    int winning = points >= mr_min_points;
    patterns = hits;
    Py_INCREF(patterns);
    total_o = PyLong_FromLongLong(total);
    if (patterns == NULL || total_o == NULL)
        goto done;
    if (winning) {
        int winner = c->seat - 27, discarder = -1, note = 0;
        if (!w->self_drawn) {
            if (c->discarder < 0) {
                discarder = (winner + 1) % 4;
                note = 1;
            }
            else {
                discarder = c->discarder - 27;
                if (discarder == winner) {
                    res = Py_None;
                    Py_INCREF(res);
                    goto done;
                }
            }
        }
        payments = PyTuple_New(3);
        if (payments == NULL)
            goto done;
        int q = 0;
        for (int p = 0; p < 4; p++) {
            if (p == winner)
                continue;
            PyObject *amount =
                PyLong_FromLongLong(mr_base + (discarder < 0 || p == discarder ? total : 0));
            if (amount == NULL)
                goto done;
            PyObject *f[3] = {PyTuple_GET_ITEM(mr_seats, p), PyTuple_GET_ITEM(mr_seats, winner),
                              amount};
            PyObject *pay = ft_make(kp, f, 3);
            Py_DECREF(amount);
            if (pay == NULL)
                goto done;
            PyTuple_SET_ITEM(payments, q++, pay);
        }
        notes = note ? PyTuple_Pack(1, PyTuple_GET_ITEM(mr_next_notes, winner)) : PyTuple_New(0);
    }
    else {
        payments = PyTuple_New(0);
        char buf[96];
        snprintf(buf, sizeof buf, "%lld points without flowers is below the %ld-point minimum.",
                 points, mr_min_points);
        PyObject *s = PyUnicode_FromString(buf);
        if (s != NULL) {
            notes = PyTuple_Pack(1, s);
            Py_DECREF(s);
        }
    }
    if (payments == NULL || notes == NULL)
        goto done;
    PyObject *f[10] = {mr_rules,   Py_True, winning ? Py_True : Py_False, total_o, mr_unit,
                       Py_False,   patterns, payments, Py_None, notes};
    res = ft_make(kr, f, 10);
done:
    Py_XDECREF(patterns);
    Py_XDECREF(payments);
    Py_XDECREF(notes);
    Py_XDECREF(total_o);
    return res;
}

/* _set_mcr_result(Result, Payment, codes, flower_id, flower_name, flower_names,
 *                 seats, next_seat_notes, min_points, base, rules, unit) */
static PyObject *
py_set_mcr_result(PyObject *self, PyObject *args)
{
    PyObject *rt, *pt, *codes, *fid, *fname, *fnames, *seats, *notes, *rules, *unit;
    long minp, base;
    if (!PyArg_ParseTuple(args, "OOO!UUOO!O!llUU:_set_mcr_result", &rt, &pt, &PyTuple_Type,
                          &codes, &fid, &fname, &fnames, &PyTuple_Type, &seats, &PyTuple_Type,
                          &notes, &minp, &base, &rules, &unit))
        return NULL;
    if (!PyMapping_Check(fnames)) {
        PyErr_SetString(PyExc_TypeError, "_set_mcr_result: flower names");
        return NULL;
    }
    if (PyTuple_GET_SIZE(seats) != 4 || PyTuple_GET_SIZE(notes) != 4) {
        PyErr_SetString(PyExc_ValueError, "_set_mcr_result: four seats");
        return NULL;
    }
    if (s_flowers_attr == NULL) {
        s_flowers_attr = PyUnicode_InternFromString("flowers");
        s_dealer = PyUnicode_InternFromString("dealer");
        s_dealer_streak = PyUnicode_InternFromString("dealer_streak");
        s_discarder = PyUnicode_InternFromString("discarder");
        if (!s_flowers_attr || !s_dealer || !s_dealer_streak || !s_discarder)
            return NULL;
    }
    PyObject *objs[10] = {rt, pt, codes, fid, fname, fnames, seats, notes, rules, unit};
    PyObject **slots[10] = {&mr_result_type, &mr_payment_type, &mr_codes,      &mr_flower_id,
                            &mr_flower_name, &mr_flower_names, &mr_seats,      &mr_next_notes,
                            &mr_rules,       &mr_unit};
    for (int i = 0; i < 10; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    mr_min_points = minp;
    mr_base = base;
    Py_RETURN_NONE;
}

static MWork m_work;
static int m_busy;

static void
m_done(MWork *W)
{
    m_busy--;
    if (W != &m_work)
        PyMem_Free(W);
}

/* the readings of a read hand (W->w) and its Result (c: its flowers and
 * seats): the Result, False (no reading completes it) or None */
static PyObject *
m_run(MWork *W, const MCtx *c)
{
    MWin *w = &W->w;
    const long long *value = mp_value[w->mil];
    int cur = 0, best = -1, overflow = 0;
    long long best_v = 0;
#define M_KEEP()                                                       \
    do {                                                               \
        MTally *t_ = &W->t[cur];                                       \
        overflow |= t_->overflow;                                      \
        long long v_ = m_total(t_, value);                             \
        if (best < 0 || v_ > best_v) {                                 \
            best = cur;                                                \
            best_v = v_;                                               \
            cur = 1 - cur;                                             \
        }                                                              \
    } while (0)
    /* the standard readings */
    m_decompositions(w->c14, &W->D);
    overflow |= W->D.overflow;
    int n_sets = 4 - w->n_melds;
    for (int d = 0; d < W->D.n && !overflow; d++) {
        if (W->D.nsets[d] != n_sets)
            continue;
        mt_init(&W->t[cur]);
        m_read_standard(w, W->D.pair[d], W->D.kind[d], W->D.tile[d], W->D.nsets[d], &W->S,
                        &W->t[cur]);
        M_KEEP();
    }
    /* the special readings */
    if (!w->n_melds && !overflow) {
        const int *c = w->c14;
        if (seven_pairs(c)) {
            MTally *t = &W->t[cur];
            mt_init(t);
            int pairs[7], np = 0, distinct = 0, last = -1;
            for (int x = 0; x < NK; x++)
                for (int k = 0; k < c[x] / 2 && np < 7; k++) {
                    if (x != last)
                        distinct++;
                    last = x;
                    pairs[np++] = x;
                }
            if (distinct == 7 && pairs[0] < 27 && pairs[6] - pairs[0] == 6 &&
                pairs[0] / 9 == pairs[6] / 9)
                mt_add1(t, mp_id[M_SEVEN_SHIFTED_PAIRS], -1);
            else
                mt_add1(t, mp_id[M_SEVEN_PAIRS], -1);
            m_suit_patterns(w->tiles, w->ntiles, t);
            m_tile_patterns(w->tiles, w->ntiles, t);
            m_rank_patterns(w->tiles, w->ntiles, t);
            if (w->sp_hog)
                m_tile_hog(w->tiles, w->ntiles, 0, t);
            m_win_flags(w, t);
            m_finish(t, NULL);
            M_KEEP();
        }
        if (thirteen_orphans(c)) {
            MTally *t = &W->t[cur];
            mt_init(t);
            mt_add1(t, mp_id[M_THIRTEEN_ORPHANS], -1);
            m_win_flags(w, t);
            m_finish(t, NULL);
            M_KEEP();
        }
        if (honors_knitted(c)) {
            MTally *t = &W->t[cur];
            mt_init(t);
            int honors = 0;
            for (int x = 27; x < 34; x++)
                honors += c[x] != 0;
            if (honors == 7)
                mt_add1(t, mp_id[M_GREATER_HONORS_AND_KNITTED_TILES], -1);
            else {
                mt_add1(t, mp_id[M_LESSER_HONORS_AND_KNITTED_TILES], -1);
                if (honors == 5)
                    mt_add1(t, mp_id[M_KNITTED_STRAIGHT], -1);
            }
            m_win_flags(w, t);
            m_finish(t, NULL);
            M_KEEP();
        }
    }
    /* the knitted readings */
    if (w->n_melds <= 1 && !overflow) {
        for (int k = 0; k < 6 && !overflow; k++) {
            int ok = 1, c[NK];
            for (int j = 0; j < 9 && ok; j++)
                if (!w->c14[mk_tiles[k][j]])
                    ok = 0;
            if (!ok)
                continue;
            memcpy(c, w->c14, sizeof c);
            for (int j = 0; j < 9; j++)
                c[mk_tiles[k][j]]--;
            m_decompositions(c, &W->D);
            overflow |= W->D.overflow;
            for (int d = 0; d < W->D.n && !overflow; d++) {
                if (W->D.nsets[d] + w->n_melds != 1)
                    continue;
                mt_init(&W->t[cur]);
                m_read_knitted(w, k, W->D.pair[d], W->D.kind[d], W->D.tile[d], W->D.nsets[d],
                               &W->t[cur]);
                M_KEEP();
            }
        }
    }
#undef M_KEEP
    PyObject *res;
    if (overflow) {
        res = Py_None;
        Py_INCREF(res);
    }
    else if (best < 0) {
        res = Py_False;
        Py_INCREF(res);
    }
    else {
        long long points = 0;
        PyObject *ph = m_hits(&W->t[best], value, c->nflowers ? 1 : 0, &points);
        if (ph == NULL || ph == Py_None)
            res = ph;
        else {
            res = mr_result(w, c, ph, points);
            Py_DECREF(ph);
        }
    }
    return res;
}


static PyObject *
py_mcr_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !mp_ready || mr_result_type == NULL)
        Py_RETURN_NONE;
    /* the work space: one kept clean between calls (a call made while one
     * runs, from Python code an attribute ran, gets its own) */
    MWork *W = m_busy ? PyMem_Calloc(1, sizeof(MWork)) : &m_work;
    if (W == NULL)
        return PyErr_NoMemory();
    m_busy++;
    MCtx c = {{0}, 0, 0, 0, 0, -1};
    int r = m_read_win(args[0], args[1], &W->w);
    if (r == 1)
        r = mr_read(args[0], &c);
    PyObject *res;
    if (r < 0)
        res = NULL;
    else if (r == 0) {
        res = Py_None;
        Py_INCREF(res);
    }
    else
        res = m_run(W, &c);
    m_done(W);
    return res;
}

/* _set_mcr(ids, values_gb, values_mil, exclusions, keeps, labels, codes,
 *          knitted, knitted_codes, meld_type):
 * ids: the pattern ids in the table's order; values_*: their values (None:
 * 0); exclusions: per pattern (per-set excludes, excludes, absorbs) as
 * tuples of pattern indices; keeps: the indices Nine Gates keeps; labels:
 * the 4 * 34 * 3 set labels (chow, pung, kong, pair; from the hand, a
 * claimed meld, a concealed meld); codes: the 34 tile codes; knitted: the
 * six knitted straights; knitted_codes: their codes. */
static int
m_index_tuple(PyObject *o, int *out, int *n)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > MP_MAX)
        return 0;
    *n = (int)PyTuple_GET_SIZE(o);
    for (int i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v >= mp_n)
            return 0;
        out[i] = (int)v;
    }
    return 1;
}

static PyObject *
py_set_mcr(PyObject *self, PyObject *args)
{
    PyObject *ids, *vgb, *vmil, *excl, *keeps, *labels, *codes, *knit, *kcodes, *mtype, *nen,
        *nall, *htype;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!OO!O!O:_set_mcr", &PyTuple_Type, &ids,
                          &PyTuple_Type, &vgb, &PyTuple_Type, &vmil, &PyTuple_Type, &excl,
                          &PyTuple_Type, &keeps, &PyTuple_Type, &labels, &PyTuple_Type, &codes,
                          &PyTuple_Type, &knit, &PyTuple_Type, &kcodes, &mtype, &PyTuple_Type,
                          &nen, &PyTuple_Type, &nall, &htype))
        return NULL;
    mp_ready = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(ids);
    if (n > MP_MAX || PyTuple_GET_SIZE(vgb) != n || PyTuple_GET_SIZE(vmil) != n ||
        PyTuple_GET_SIZE(excl) != n || PyTuple_GET_SIZE(labels) != 4 * NK * 3 ||
        PyTuple_GET_SIZE(codes) != NK || PyTuple_GET_SIZE(knit) != 6 ||
        PyTuple_GET_SIZE(kcodes) != 6 || PyTuple_GET_SIZE(nen) != n ||
        PyTuple_GET_SIZE(nall) != n || quad_codes == NULL || ft_find(htype) < 0) {
        PyErr_SetString(PyExc_ValueError, "_set_mcr: the table's shape");
        return NULL;
    }
    mp_n = (int)n;
    for (int k = 0; k < N_MNAMES; k++)
        mp_id[k] = -1;
    for (int k = 0; k < N_COMBO; k++)
        mp_combo[k] = -1;
    for (int k = 0; k < N_TRAIT; k++)
        mp_trait[k] = -1;
    for (int p = 0; p < mp_n; p++) {
        PyObject *id = PyTuple_GET_ITEM(ids, p);
        for (int k = 0; k < N_MNAMES; k++)
            if (PyUnicode_CompareWithASCIIString(id, M_NAMES[k]) == 0)
                mp_id[k] = p;
        for (int k = 0; k < N_COMBO; k++)
            if (PyUnicode_CompareWithASCIIString(id, COMBO_NAMES[k]) == 0)
                mp_combo[k] = p;
        for (int k = 0; k < N_TRAIT; k++)
            if (PyUnicode_CompareWithASCIIString(id, TRAIT_NAMES[k]) == 0)
                mp_trait[k] = p;
        for (int v = 0; v < 2; v++) {
            PyObject *x = PyTuple_GET_ITEM(v ? vmil : vgb, p);
            long long val = x == Py_None ? 0 : PyLong_AsLongLong(x);
            if (val == -1 && PyErr_Occurred())
                return NULL;
            mp_value[v][p] = val;
        }
    }
    for (int k = 0; k < N_MNAMES; k++)
        if (mp_id[k] < 0)
            return PyErr_Format(PyExc_ValueError, "_set_mcr: no pattern %s", M_NAMES[k]);
    for (int k = 0; k < N_COMBO; k++)
        if (mp_combo[k] < 0)
            return PyErr_Format(PyExc_ValueError, "_set_mcr: no pattern %s", COMBO_NAMES[k]);
    for (int k = 0; k < N_TRAIT; k++)
        if (mp_trait[k] < 0)
            return PyErr_Format(PyExc_ValueError, "_set_mcr: no pattern %s", TRAIT_NAMES[k]);
    for (int p = 0; p < mp_n; p++) {
        PyObject *e = PyTuple_GET_ITEM(excl, p);
        int r = 0;
        if (PyTuple_Check(e) && PyTuple_GET_SIZE(e) == 3) {
            r = m_index_tuple(PyTuple_GET_ITEM(e, 0), mp_psex[p], &mp_psex_n[p]);
            if (r == 1)
                r = m_index_tuple(PyTuple_GET_ITEM(e, 1), mp_ex[p], &mp_ex_n[p]);
            if (r == 1)
                r = m_index_tuple(PyTuple_GET_ITEM(e, 2), mp_abs[p], &mp_abs_n[p]);
        }
        if (r < 0)
            return NULL;
        if (r == 0) {
            PyErr_SetString(PyExc_ValueError, "_set_mcr: the exclusions' shape");
            return NULL;
        }
    }
    int kp[MP_MAX], nkp;
    int r = m_index_tuple(keeps, kp, &nkp);
    if (r < 0)
        return NULL;
    if (r == 0) {
        PyErr_SetString(PyExc_ValueError, "_set_mcr: keeps");
        return NULL;
    }
    memset(mp_keep, 0, sizeof mp_keep);
    for (int i = 0; i < nkp; i++)
        mp_keep[kp[i]] = 1;
    for (int k = 0; k < 6; k++) {
        PyObject *ks = PyTuple_GET_ITEM(knit, k);
        if (!PyTuple_Check(ks) || PyTuple_GET_SIZE(ks) != 9) {
            PyErr_SetString(PyExc_ValueError, "_set_mcr: knitted straights");
            return NULL;
        }
        for (int j = 0; j < 9; j++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(ks, j));
            if (v == -1 && PyErr_Occurred())
                return NULL;
            if (v < 0 || v >= 27) {
                PyErr_SetString(PyExc_ValueError, "_set_mcr: knitted straights");
                return NULL;
            }
            mk_tiles[k][j] = (int)v;
        }
    }
    for (int p = 0; p < mp_n; p++)
        if (!PyMapping_Check(PyTuple_GET_ITEM(nall, p))) {
            PyErr_SetString(PyExc_ValueError, "_set_mcr: names");
            return NULL;
        }
    Py_INCREF(ids);
    Py_XSETREF(mp_ids, ids);
    Py_INCREF(nen);
    Py_XSETREF(mp_names_en, nen);
    Py_INCREF(nall);
    Py_XSETREF(mp_names, nall);
    Py_INCREF(htype);
    Py_XSETREF(mp_hit_type, htype);
    for (int u = 0; u < U_N; u++) {
        PyObject *s = u < U_TILE   ? PyTuple_GET_ITEM(labels, u)
                      : u < U_QUAD ? PyTuple_GET_ITEM(codes, u - U_TILE)
                      : u < U_KNIT ? PyTuple_GET_ITEM(quad_codes, u - U_QUAD)
                                   : PyTuple_GET_ITEM(kcodes, u - U_KNIT);
        Py_INCREF(s);
        Py_XSETREF(mu_obj[u], s);
    }
    Py_INCREF(mtype);
    Py_XSETREF(meld_type, mtype);
    mp_ready = 1;
    Py_RETURN_NONE;
}

static int
m_init_strings(void)
{
#define M_STR(var, text)                                 \
    if ((var = PyUnicode_InternFromString(text)) == NULL) \
        return -1;
    M_STR(s_concealed, "concealed")
    M_STR(s_melds, "melds")
    M_STR(s_win_tile, "win_tile")
    M_STR(s_context, "context")
    M_STR(s_kind, "kind")
    M_STR(s_tiles, "tiles")
    M_STR(s_win, "win")
    M_STR(s_self_draw, "self_draw")
    M_STR(s_discard, "discard")
    M_STR(s_ltw, "last_tile_of_wall")
    M_STR(s_kr, "kong_replacement")
    M_STR(s_dkr, "double_kong_replacement")
    M_STR(s_rk, "robbing_kong")
    M_STR(s_lok, "last_of_kind")
    M_STR(s_round, "round_wind")
    M_STR(s_seat, "seat_wind")
    M_STR(s_variant, "variant")
    M_STR(s_mil, "mil")
    M_STR(s_green_book, "green_book")
    M_STR(s_knitted_wait, "knitted_wait")
    M_STR(s_remainder, "remainder")
    M_STR(s_whole_hand, "whole_hand")
    M_STR(s_sp_hog, "seven_pairs_tile_hog")
    M_STR(s_ng_extras, "nine_gates_extras")
    M_STR(s_imp_waits, "impossible_waits")
    M_STR(s_count, "count")
    M_STR(s_ignore, "ignore")
#undef M_STR
    return 0;
}

/* ---- _fast_context, compiled: the same Context (from the same cache) or
 * None (the Python's None or its exception: the reference reads it) ----- */
static PyObject *fc_default, *fc_bools, *fc_winds, *fc_wind_codes, *fc_win_kinds, *fc_ready,
    *fc_cache, *fc_type;
static PyObject *s_declared_ready, *s_dealer_streak_k, *s_discarder_k;

static PyObject *
fc_context(PyObject *obj)
{
    if (obj == Py_None) {
        Py_INCREF(fc_default);
        return fc_default;
    }
    if (!PyDict_CheckExact(obj))
        Py_RETURN_NONE;
    PyObject *kw = PyDict_New(), *res = NULL;
    if (kw == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *v;
    while (PyDict_Next(obj, &pos, &key, &v)) {
        if (!PyUnicode_CheckExact(key))
            goto none;
        int r = PySet_Contains(fc_bools, key);
        if (r < 0)
            goto error;
        if (r) {
            if (v != Py_True && v != Py_False)
                goto none;
        }
        else if ((r = PySet_Contains(fc_winds, key)) != 0) {
            if (r < 0)
                goto error;
            v = PyDict_GetItemWithError(fc_wind_codes, v);
            if (v == NULL) {
                PyErr_Clear();
                goto none;
            }
        }
        else if (PyUnicode_Compare(key, s_win) == 0) {
            if (!PyUnicode_CheckExact(v) || (r = PySet_Contains(fc_win_kinds, v)) == 0)
                goto none;
            if (r < 0)
                goto error;
        }
        else if (PyUnicode_Compare(key, s_discarder_k) == 0) {
            if (v == Py_None)
                continue;
            v = PyDict_GetItemWithError(fc_wind_codes, v);
            if (v == NULL) {
                PyErr_Clear();
                goto none;
            }
        }
        else if (PyUnicode_Compare(key, s_declared_ready) == 0) {
            if (v == Py_None)
                continue;
            if (!PyUnicode_CheckExact(v) || (r = PySet_Contains(fc_ready, v)) == 0)
                goto none;
            if (r < 0)
                goto error;
        }
        else if (PyUnicode_Compare(key, s_dealer_streak_k) == 0) {
            if (!PyLong_CheckExact(v))
                goto none;
            int overflow = 0;
            long n = PyLong_AsLongAndOverflow(v, &overflow);
            if (overflow || n < 0 || n > 99) {
                PyErr_Clear();
                goto none;
            }
        }
        else
            goto none;
        if (PyDict_SetItem(kw, key, v) < 0)
            goto error;
    }
    Py_ssize_t n = PyDict_GET_SIZE(kw);
    if (n == 0) {
        res = fc_default;
        Py_INCREF(res);
        goto out;
    }
    if (n == 1) {
        PyObject *w = PyDict_GetItemWithError(kw, s_win);
        if (w != NULL && PyUnicode_Compare(w, s_discard) == 0) {
            res = fc_default;
            Py_INCREF(res);
            goto out;
        }
        PyErr_Clear();
    }
    PyObject *ck = PyTuple_New(n);
    if (ck == NULL)
        goto error;
    pos = 0;
    for (Py_ssize_t i = 0; PyDict_Next(kw, &pos, &key, &v); i++) {
        PyObject *item = PyTuple_Pack(2, key, v);
        if (item == NULL) {
            Py_DECREF(ck);
            goto error;
        }
        PyTuple_SET_ITEM(ck, i, item);
    }
    res = PyDict_GetItemWithError(fc_cache, ck);
    if (res != NULL) {
        Py_INCREF(res);
        Py_DECREF(ck);
        goto out;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(ck);
        goto error;
    }
    if (PyDict_GET_SIZE(fc_cache) >= 4096)
        PyDict_Clear(fc_cache);
    res = PyObject_Call(fc_type, empty_tuple, kw);
    if (res == NULL || PyDict_SetItem(fc_cache, ck, res) < 0) {
        Py_DECREF(ck);
        Py_CLEAR(res);
        PyErr_Clear();
        goto none;
    }
    Py_DECREF(ck);
    goto out;
none:
    res = Py_None;
    Py_INCREF(res);
    goto out;
error:
    PyErr_Clear();
    goto none;
out:
    Py_DECREF(kw);
    return res;
}

static PyObject *
py_fast_context(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || fc_default == NULL) {
        PyErr_SetString(PyExc_TypeError, "fast_context(obj), after _set_fast_context");
        return NULL;
    }
    return fc_context(args[0]);
}

/* _set_fast_context(default, bools, winds, wind_codes, win_kinds, ready, cache, Context) */
static PyObject *
py_set_fast_context(PyObject *self, PyObject *args)
{
    PyObject *d, *b, *w, *wc, *wk, *r, *c, *t;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!O!O!O:_set_fast_context", &d, &PyFrozenSet_Type, &b,
                          &PyFrozenSet_Type, &w, &PyDict_Type, &wc, &PyFrozenSet_Type, &wk,
                          &PyFrozenSet_Type, &r, &PyDict_Type, &c, &t))
        return NULL;
    if (s_declared_ready == NULL) {
        s_declared_ready = PyUnicode_InternFromString("declared_ready");
        s_dealer_streak_k = PyUnicode_InternFromString("dealer_streak");
        s_discarder_k = PyUnicode_InternFromString("discarder");
        if (!s_declared_ready || !s_dealer_streak_k || !s_discarder_k)
            return NULL;
    }
    PyObject *objs[8] = {d, b, w, wc, wk, r, c, t};
    PyObject **slots[8] = {&fc_default, &fc_bools,  &fc_winds, &fc_wind_codes,
                           &fc_win_kinds, &fc_ready, &fc_cache, &fc_type};
    for (int i = 0; i < 8; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    Py_RETURN_NONE;
}

/* ---- rules_pass(hand, need, flower_wins, default_context): True when
 * Hand._check_rules(ruleset) (concealed_size need) would not raise, False
 * when it would or when this does not read the hand (the Python then runs
 * it and says which) ---------------------------------------------------- */
static PyObject *s_heavenly, *s_earthly, *s_human;

/* -1 not an int of 0..41 */
static int
rp_tile(PyObject *o)
{
    if (!PyLong_CheckExact(o))
        return -1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v >= NK + 8) {
        PyErr_Clear();
        return -1;
    }
    return (int)v;
}

static int
rp_check(PyObject *hand, long need, int flower_wins, PyObject *dflt)
{
    int ok = 0;
    PyObject *conc = ft_attr(hand, s_concealed), *melds = NULL, *wt = NULL,
             *fl = NULL, *ctx = NULL;
    if (conc == NULL || (melds = ft_attr(hand, s_melds)) == NULL ||
        (wt = ft_attr(hand, s_win_tile)) == NULL ||
        (fl = ft_attr(hand, s_flowers_attr)) == NULL ||
        (ctx = ft_attr(hand, s_context)) == NULL)
        goto out;
    if (!PyTuple_CheckExact(conc) || !PyTuple_CheckExact(melds) || !PyTuple_CheckExact(fl))
        goto out;
    int w = -2; /* None */
    if (wt != Py_None && (w = rp_tile(wt)) < 0)
        goto out;
    int flower_win = w >= NK;
    if (flower_win && !flower_wins)
        goto out;
    Py_ssize_t nf = PyTuple_GET_SIZE(fl);
    if (nf || flower_win) {
        int seen[8] = {0};
        for (Py_ssize_t i = 0; i < nf; i++) {
            int t = rp_tile(PyTuple_GET_ITEM(fl, i));
            if (t < NK || seen[t - NK]++)
                goto out;
        }
        if (flower_win && seen[w - NK])
            goto out;
    }
    Py_ssize_t nc = PyTuple_GET_SIZE(conc), nm = PyTuple_GET_SIZE(melds);
    if (nc + 3 * nm != need)
        goto out;
    int c[NK], cw = 0; /* cw: copies of the winning tile in the concealed hand */
    memset(c, 0, sizeof c);
    for (Py_ssize_t i = 0; i < nc; i++) {
        int t = rp_tile(PyTuple_GET_ITEM(conc, i));
        if (t < 0 || t >= NK)
            goto out;
        c[t]++;
        cw += t == w;
    }
    int kongs = 0, claimed = 0, w_in_melds = 0;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        if ((PyObject *)Py_TYPE(m) != meld_type)
            goto out;
        PyObject *mt = ft_attr(m, s_tiles), *kind = ft_attr(m, s_kind);
        int cc = mt && kind ? m_bool_attr(m, s_concealed) : -2;
        int good = cc >= 0 && PyTuple_CheckExact(mt) && PyUnicode_CheckExact(kind);
        if (good) {
            kongs += PyUnicode_Compare(kind, kind_kong) == 0;
            claimed += !cc;
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(mt) && good; j++) {
                int t = rp_tile(PyTuple_GET_ITEM(mt, j));
                if (t < 0 || t >= NK)
                    good = 0;
                else {
                    c[t]++;
                    w_in_melds |= t == w;
                }
            }
        }
        Py_XDECREF(mt);
        Py_XDECREF(kind);
        if (!good)
            goto out;
    }
    if (w >= 0 && !flower_win)
        c[w]++;
    for (int t = 0; t < NK; t++)
        if (c[t] > 4)
            goto out;
    /* _check_context */
    if (ctx == dflt) {
        ok = 1;
        goto out;
    }
    PyObject *bn[8] = {s_rk, s_kr, s_dkr, s_heavenly, s_earthly, s_human, s_lok, NULL};
    int b[7];
    for (int i = 0; i < 7; i++)
        if ((b[i] = m_bool_attr(ctx, bn[i])) < 0)
            goto out;
    int rk = b[0], kr = b[1], dkr = b[2], heavenly = b[3], earthly = b[4], human = b[5],
        lok = b[6];
    PyObject *v = ft_attr(ctx, s_win);
    if (v == NULL)
        goto out;
    int self_drawn = PyUnicode_CheckExact(v) && PyUnicode_Compare(v, s_self_draw) == 0;
    int known = PyUnicode_CheckExact(v) && (self_drawn || PyUnicode_Compare(v, s_discard) == 0);
    Py_DECREF(v);
    if (!known)
        goto out;
    int seat = -1, dealer = -1, disc = -1;
    PyObject *iv[3] = {s_seat, s_dealer, s_discarder};
    int *io[3] = {&seat, &dealer, &disc};
    for (int i = 0; i < 3; i++) {
        v = ft_attr(ctx, iv[i]);
        if (v == NULL)
            goto out;
        int t = v == Py_None && i == 2 ? -2 : rp_tile(v);
        Py_DECREF(v);
        if (t == -1)
            goto out;
        *io[i] = t;
    }
    int is_dealer = seat == dealer;
    if (rk && self_drawn)
        goto out;
    if (kr && (!self_drawn || kongs == 0))
        goto out;
    if (dkr && (!self_drawn || kongs < 2))
        goto out;
    if (heavenly && (!self_drawn || nm || !is_dealer))
        goto out;
    if ((earthly || human) && (is_dealer || claimed))
        goto out;
    if (heavenly && (earthly || human))
        goto out;
    if (disc != -2 && (self_drawn || disc == seat))
        goto out;
    if (rk && w >= 0 && w < NK && (cw || w_in_melds))
        goto out;
    if (lok && w >= 0 && cw)
        goto out;
    ok = 1;
out:
    if (PyErr_Occurred())
        PyErr_Clear();
    Py_XDECREF(conc);
    Py_XDECREF(melds);
    Py_XDECREF(wt);
    Py_XDECREF(fl);
    Py_XDECREF(ctx);
    return ok;
}

static PyObject *
py_rules_pass(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || meld_type == NULL || s_flowers_attr == NULL)
        Py_RETURN_FALSE;
    if (s_heavenly == NULL) {
        s_heavenly = PyUnicode_InternFromString("heavenly");
        s_earthly = PyUnicode_InternFromString("earthly");
        s_human = PyUnicode_InternFromString("human");
        if (!s_heavenly || !s_earthly || !s_human)
            return NULL;
    }
    if (!PyLong_CheckExact(args[1]))
        Py_RETURN_FALSE;
    long need = PyLong_AsLong(args[1]);
    if (need == -1 && PyErr_Occurred())
        return NULL;
    int fw = PyObject_IsTrue(args[2]);
    if (fw < 0)
        return NULL;
    return PyBool_FromLong(rp_check(args[0], need, fw, args[3]));
}

/* ---- fast_hand(cls, obj, need_win_tile): hefen.hand._fast_hand ------------
 * One pass over a well-formed plain-dict hand object, branch for branch as
 * the Python _fast_hand: None at the first thing it does not expect (the
 * Python raises there for an unhashable or unknown code; both mean "the
 * reference parser reads it"), else the Hand.  The tables (_PARSE, _MELDS,
 * the key sets, the default ruleset, BONUS_FIRST), _fast_context and the
 * Hand class come from hefen.hand (_set_fast_hand); a class other than that
 * Hand goes to the Python _fast_hand. */
static PyObject *fh_parse, *fh_melds, *fh_top_keys, *fh_meld_keys, *fh_default_rules,
    *fh_context, *fh_hand_type, *fh_py;
static long fh_bonus_first;
static PyObject *s_rules, *s_hand, *s_flowers, *s_options;

/* keys(d) <= allowed: 1, 0, -1 error */
static int
fh_keys_in(PyObject *d, PyObject *allowed)
{
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(d, &pos, &k, &v)) {
        int r = PySet_Contains(allowed, k);
        if (r <= 0)
            return r;
    }
    return 1;
}

/* the sorted tile numbers of a list of codes: a new tuple, or NULL (no
 * error set: a code _PARSE does not know, or not hashable) */
static PyObject *
fh_tiles(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > 64)
        return NULL;
    PyObject *vals[64];
    long keys[64];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemWithError(fh_parse, PyList_GET_ITEM(list, i));
        if (v == NULL || !PyLong_CheckExact(v)) {
            PyErr_Clear();
            return NULL;
        }
        long x = PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        /* insertion sort: stable, as sorted() (equal ints are one object
         * in _PARSE's values, so which one goes first does not show) */
        Py_ssize_t j = i;
        while (j > 0 && keys[j - 1] > x) {
            keys[j] = keys[j - 1];
            vals[j] = vals[j - 1];
            j--;
        }
        keys[j] = x;
        vals[j] = v;
    }
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(vals[i]);
        PyTuple_SET_ITEM(t, i, vals[i]);
    }
    return t;
}

/* _fast_meld: a new reference to the Meld, or NULL (no error set) */
static PyObject *
fh_meld(PyObject *obj)
{
    if (!PyDict_CheckExact(obj))
        return NULL;
    int r = fh_keys_in(obj, fh_meld_keys);
    if (r <= 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *concealed = PyDict_GetItemWithError(obj, s_concealed);
    if (concealed == NULL) {
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        concealed = Py_False;
    }
    if (concealed != Py_True && concealed != Py_False)
        return NULL;
    PyObject *raw = PyDict_GetItemWithError(obj, s_tiles);
    PyObject *kind = raw ? PyDict_GetItemWithError(obj, s_kind) : NULL;
    if (raw == NULL || kind == NULL || !PyList_CheckExact(raw) || !PyUnicode_CheckExact(kind)) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *tiles = fh_tiles(raw);
    if (tiles == NULL)
        return NULL;
    PyObject *key = PyTuple_Pack(3, kind, tiles, concealed);
    Py_DECREF(tiles);
    if (key == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *m = PyDict_GetItemWithError(fh_melds, key);
    Py_DECREF(key);
    if (m == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_INCREF(m);
    return m;
}

static PyObject *
fh_read(PyObject *obj, int need_win_tile)
{
    PyObject *f[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL}, *res = NULL, *v;
    if (!PyDict_CheckExact(obj))
        Py_RETURN_NONE;
    int r = fh_keys_in(obj, fh_top_keys);
    if (r < 0)
        return NULL;
    if (r == 0)
        Py_RETURN_NONE;
    /* rules */
    v = PyDict_GetItemWithError(obj, s_rules);
    if (v == NULL && PyErr_Occurred())
        return NULL;
    if (v == NULL)
        v = fh_default_rules;
    if (!PyUnicode_CheckExact(v))
        Py_RETURN_NONE;
    Py_INCREF(v);
    f[0] = v;
    /* hand */
    v = PyDict_GetItemWithError(obj, s_hand);
    if (v == NULL && PyErr_Occurred())
        goto error;
    if (v == NULL || !PyList_CheckExact(v))
        goto none;
    f[1] = fh_tiles(v);
    if (f[1] == NULL)
        goto none;
    Py_ssize_t nc = PyTuple_GET_SIZE(f[1]);
    if (nc && PyLong_AsLong(PyTuple_GET_ITEM(f[1], nc - 1)) >= fh_bonus_first)
        goto none;
    /* melds */
    v = PyDict_GetItemWithError(obj, s_melds);
    if (v == NULL && PyErr_Occurred())
        goto error;
    if (v != NULL && v != Py_None) {
        if (!PyList_CheckExact(v))
            goto none;
        Py_ssize_t nm = PyList_GET_SIZE(v);
        f[2] = PyTuple_New(nm);
        if (f[2] == NULL)
            goto error;
        for (Py_ssize_t i = 0; i < nm; i++) {
            PyObject *m = fh_meld(PyList_GET_ITEM(v, i));
            if (m == NULL)
                goto none;
            PyTuple_SET_ITEM(f[2], i, m);
        }
    }
    else if (v == Py_None)
        goto none; /* "melds" in obj, null */
    else {
        Py_INCREF(empty_tuple);
        f[2] = empty_tuple;
    }
    /* win_tile */
    v = PyDict_GetItemWithError(obj, s_win_tile);
    if (v == NULL && PyErr_Occurred())
        goto error;
    if (v != NULL && v != Py_None) {
        PyObject *t = PyDict_GetItemWithError(fh_parse, v);
        if (t == NULL) {
            PyErr_Clear();
            goto none;
        }
        Py_INCREF(t);
        f[3] = t;
    }
    else if (need_win_tile)
        goto none;
    else {
        Py_INCREF(Py_None);
        f[3] = Py_None;
    }
    /* flowers */
    v = PyDict_GetItemWithError(obj, s_flowers);
    if (v == NULL && PyErr_Occurred())
        goto error;
    if (v != NULL && v != Py_None) {
        if (!PyList_CheckExact(v))
            goto none;
        f[4] = fh_tiles(v);
        if (f[4] == NULL)
            goto none;
    }
    else if (v == Py_None)
        goto none;
    else {
        Py_INCREF(empty_tuple);
        f[4] = empty_tuple;
    }
    /* context */
    v = PyDict_GetItemWithError(obj, s_context);
    if (v == NULL && PyErr_Occurred())
        goto error;
    f[5] = fc_default != NULL ? fc_context(v ? v : Py_None)
                              : PyObject_CallOneArg(fh_context, v ? v : Py_None);
    if (f[5] == NULL) {
        PyErr_Clear(); /* the Python raises: the reference reads it */
        goto none;
    }
    if (f[5] == Py_None)
        goto none;
    /* options */
    v = PyDict_GetItemWithError(obj, s_options);
    if (v == NULL && PyErr_Occurred())
        goto error;
    if (v == NULL || v == Py_None)
        f[6] = PyDict_New();
    else if (!PyDict_CheckExact(v))
        goto none;
    else
        f[6] = PyDict_Copy(v);
    if (f[6] == NULL)
        goto error;
    int k = ft_find(fh_hand_type);
    res = k >= 0 ? ft_make(k, f, 7) : PyObject_Vectorcall(fh_hand_type, f, 7, NULL);
    goto out;
none:
    res = Py_None;
    Py_INCREF(res);
    goto out;
error:
    res = NULL;
out:
    for (int i = 0; i < 7; i++)
        Py_XDECREF(f[i]);
    return res;
}

static PyObject *
py_fast_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (fh_py == NULL || nargs != 3 || args[0] != fh_hand_type) {
        if (fh_py == NULL) {
            PyErr_SetString(PyExc_TypeError, "fast_hand: _set_fast_hand first");
            return NULL;
        }
        return PyObject_Vectorcall(fh_py, args, nargs, NULL);
    }
    int need = PyObject_IsTrue(args[2]);
    if (need < 0)
        return NULL;
    return fh_read(args[1], need);
}

/* _set_fast_hand(parse, melds, top_keys, meld_keys, default_rules,
 *                bonus_first, fast_context, hand_type, py_fast_hand) */
static PyObject *
py_set_fast_hand(PyObject *self, PyObject *args)
{
    PyObject *parse, *melds, *top, *mk, *dr, *ctx, *ht, *py;
    long bf;
    if (!PyArg_ParseTuple(args, "O!O!O!O!UlOOO:_set_fast_hand", &PyDict_Type, &parse,
                          &PyDict_Type, &melds, &PyFrozenSet_Type, &top, &PyFrozenSet_Type, &mk,
                          &dr, &bf, &ctx, &ht, &py))
        return NULL;
    if (s_rules == NULL) {
        s_rules = PyUnicode_InternFromString("rules");
        s_hand = PyUnicode_InternFromString("hand");
        s_flowers = PyUnicode_InternFromString("flowers");
        s_options = PyUnicode_InternFromString("options");
        if (!s_rules || !s_hand || !s_flowers || !s_options)
            return NULL;
    }
    PyObject *objs[8] = {parse, melds, top, mk, dr, ctx, ht, py};
    PyObject **slots[8] = {&fh_parse, &fh_melds, &fh_top_keys, &fh_meld_keys,
                           &fh_default_rules, &fh_context, &fh_hand_type, &fh_py};
    for (int i = 0; i < 8; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    fh_bonus_first = bf;
    Py_RETURN_NONE;
}

/* ---- mcr_score_dict(obj): hefen.score_uncached(obj) for a well-formed MCR
 * hand object, in one call: the fast reader (fast_hand), the rules check
 * (rules_pass, with MCR's tile count), the resolved settings (from
 * hefen.mcr's cache of them: a setting not resolved before is left to the
 * Python) and mcr_score.  None wherever any of them would not answer (the
 * Python path then reads, checks and scores the object, and says what is
 * wrong), else the Result the Python path gives. */
static PyObject *sd_rules, *sd_resolved, *sd_default_ctx;
static PyObject *sd_ctx_index; /* a context key's place in sd_context */
static PyObject *sd_top_index, *sd_meld_index; /* a hand's, a meld's keys' places */
static long sd_size;
static int sd_flower_wins;

static PyObject *
sd_settings(PyObject *raw)
{
    /* the key of hefen.mcr._resolved: ((name, type, value), ...) */
    if (!PyDict_CheckExact(raw))
        return NULL;
    Py_ssize_t n = PyDict_GET_SIZE(raw), pos = 0, i = 0;
    PyObject *key = PyTuple_New(n), *k, *v;
    if (key == NULL)
        return NULL;
    while (PyDict_Next(raw, &pos, &k, &v)) {
        PyTypeObject *tp = Py_TYPE(v);
        if (tp != &PyUnicode_Type && tp != &PyLong_Type && tp != &PyBool_Type &&
            tp != &PyFloat_Type && v != Py_None) {
            Py_DECREF(key);
            return NULL;
        }
        PyObject *item = PyTuple_Pack(3, k, (PyObject *)tp, v);
        if (item == NULL) {
            Py_DECREF(key);
            return NULL;
        }
        PyTuple_SET_ITEM(key, i++, item);
    }
    PyObject *opts = PyDict_GetItemWithError(sd_resolved, key);
    Py_DECREF(key);
    Py_XINCREF(opts);
    return opts;
}

/* ---- the direct reading of mcr_score_dict: the object's fields straight
 * into the work space, with no Hand, Meld tuple or Context built, taking
 * exactly what fast_hand, fast_context and rules_pass take for an MCR hand
 * (anything else: 0, and the Python path answers) ---------------------- */

/* _PARSE's one- and two-letter ASCII codes, by their letters (-1: none) */
static signed char sd_t1[128], sd_t2[128][128];
static int sd_tables;

static void
sd_build_tables(void)
{
    memset(sd_t1, -1, sizeof sd_t1);
    memset(sd_t2, -1, sizeof sd_t2);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(fh_parse, &pos, &k, &v)) {
        if (!PyUnicode_CheckExact(k) || !PyUnicode_IS_COMPACT_ASCII(k) || !PyLong_CheckExact(v))
            continue;
        long x = PyLong_AsLong(v);
        if (x < 0 || x >= NK + 8) {
            PyErr_Clear();
            continue;
        }
        const unsigned char *b = PyUnicode_1BYTE_DATA(k);
        Py_ssize_t n = PyUnicode_GET_LENGTH(k);
        if (n == 1)
            sd_t1[b[0] & 127] = (signed char)x;
        else if (n == 2)
            sd_t2[b[0] & 127][b[1] & 127] = (signed char)x;
    }
    sd_tables = 1;
}

/* a tile code's number (0 to 41), -1 for a code _PARSE does not know */
static int
sd_code(PyObject *code)
{
    if (sd_tables && PyUnicode_CheckExact(code) && PyUnicode_IS_COMPACT_ASCII(code)) {
        /* what the lookup in _PARSE answers for an exact str: every ASCII
         * key of one or two letters is in the tables, and no longer one */
        Py_ssize_t n = PyUnicode_GET_LENGTH(code);
        const unsigned char *b = PyUnicode_1BYTE_DATA(code);
        if (n == 1)
            return sd_t1[b[0]];
        if (n == 2)
            return sd_t2[b[0]][b[1]];
    }
    PyObject *v = PyDict_GetItemWithError(fh_parse, code);
    if (v == NULL || !PyLong_CheckExact(v)) {
        PyErr_Clear();
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x < 0 || x >= NK + 8) {
        PyErr_Clear();
        return -1;
    }
    return (int)x;
}

/* a list of codes, sorted (as sorted() of their numbers): how many, -1 */
static int
sd_codes(PyObject *list, int *out, int max)
{
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) > max)
        return -1;
    int n = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < n; i++) {
        int x = sd_code(PyList_GET_ITEM(list, i)), j = i;
        if (x < 0)
            return -1;
        while (j > 0 && out[j - 1] > x) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}

/* the values of a dict's keys, each known key at its place in `index`
 * (a dict: name -> place): 1, or 0 for a key not in it */
/* the place of an exact ASCII str key among `names` (n of them), by its
 * letters (what the index dict's lookup answers for it); -1 not there, -2
 * not such a key */
static int
sd_place(PyObject *k, const char *const *names, int n)
{
    if (!PyUnicode_CheckExact(k) || !PyUnicode_IS_COMPACT_ASCII(k))
        return -2;
    Py_ssize_t len = PyUnicode_GET_LENGTH(k);
    const char *b = (const char *)PyUnicode_1BYTE_DATA(k);
    for (int i = 0; i < n; i++)
        if (names[i][0] == b[0] && (Py_ssize_t)strlen(names[i]) == len &&
            memcmp(names[i], b, len) == 0)
            return i;
    return -1;
}

static const char *const SD_TOP[7] = {"rules",   "hand",    "melds",  "win_tile",
                                      "flowers", "context", "options"};
static const char *const SD_MELD[3] = {"kind", "tiles", "concealed"};
/* a context's keys, in sd_ctx_index's order */
static const char *const SD_CTX[15] = {
    "last_tile_of_wall", "kong_replacement", "double_kong_replacement", "robbing_kong",
    "last_of_kind",      "heavenly",         "earthly",                 "human",
    "seat_wind",         "round_wind",       "dealer",                  "discarder",
    "win",               "declared_ready",   "dealer_streak"};

static int
sd_fields(PyObject *d, PyObject *index, PyObject **vals, int n)
{
    for (int i = 0; i < n; i++)
        vals[i] = NULL;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    const char *const *names = index == sd_top_index ? SD_TOP : SD_MELD;
    while (PyDict_Next(d, &pos, &k, &v)) {
        int at = sd_place(k, names, n);
        if (at >= 0) {
            vals[at] = v;
            continue;
        }
        if (at == -1)
            return 0;
        PyObject *io = PyDict_GetItemWithError(index, k);
        if (io == NULL) {
            PyErr_Clear();
            return 0;
        }
        vals[PyLong_AsLong(io)] = v;
    }
    return 1;
}

/* a meld object, as _fast_meld finds it in _MELDS: 1 read, 0 not */
static int
sd_meld(PyObject *obj, MGroup *g, int *tiles, int *n)
{
    PyObject *f[3]; /* kind, tiles, concealed */
    if (!PyDict_CheckExact(obj) || !sd_fields(obj, sd_meld_index, f, 3))
        return 0;
    PyObject *conc = f[2] ? f[2] : Py_False, *raw = f[1], *kind = f[0];
    if (conc != Py_True && conc != Py_False)
        return 0;
    if (raw == NULL || kind == NULL || !PyUnicode_CheckExact(kind))
        return 0;
    int k = sd_codes(raw, tiles, 4);
    if (k < 3)
        return 0;
    int cc = conc == Py_True, same = tiles[0] < NK;
    for (int i = 1; i < k; i++)
        same = same && tiles[i] == tiles[0];
    if (PyUnicode_Compare(kind, kind_chow) == 0) {
        if (k != 3 || cc || tiles[0] >= 27 || tiles[0] % 9 > 6 || tiles[1] != tiles[0] + 1 ||
            tiles[2] != tiles[0] + 2)
            return 0;
        g->kind = GK_CHOW;
    }
    else if (PyUnicode_Compare(kind, kind_pung) == 0) {
        if (k != 3 || cc || !same)
            return 0;
        g->kind = GK_PUNG;
    }
    else if (PyUnicode_Compare(kind, kind_kong) == 0) {
        if (k != 4 || !same)
            return 0;
        g->kind = GK_KONG;
    }
    else
        return 0;
    g->tile = tiles[0];
    g->concealed = cc;
    g->declared = 1;
    *n = k;
    return 1;
}

typedef struct {
    int win_sd, seat, round, dealer, streak, discarder;
    int ltw, kr, dkr, rk, lok, heavenly, earthly, human;
} SdCtx;

/* a context object as _fast_context reads it: 1 read, 0 not */
static int
sd_context(PyObject *obj, SdCtx *x)
{
    memset(x, 0, sizeof *x);
    x->seat = x->round = x->dealer = 27;
    x->discarder = -1;
    if (obj == NULL || obj == Py_None)
        return 1;
    if (!PyDict_CheckExact(obj))
        return 0;
    Py_ssize_t pos = 0;
    PyObject *key, *v;
    int *slots[12] = {&x->ltw,     &x->kr,      &x->dkr,   &x->rk,
                      &x->lok,     &x->heavenly, &x->earthly, &x->human,
                      &x->seat,    &x->round,   &x->dealer, &x->discarder};
    while (PyDict_Next(obj, &pos, &key, &v)) {
        if (!PyUnicode_CheckExact(key))
            return 0;
        long i = sd_place(key, SD_CTX, 15);
        if (i == -1)
            return 0; /* not a context key */
        if (i == -2) {
            PyObject *io = PyDict_GetItemWithError(sd_ctx_index, key);
            if (io == NULL) {
                PyErr_Clear();
                return 0;
            }
            i = PyLong_AsLong(io);
        }
        if (i < 8) { /* a flag */
            if (v != Py_True && v != Py_False)
                return 0;
            *slots[i] = v == Py_True;
        }
        else if (i < 12) { /* a wind */
            if (v == Py_None && i == 11)
                continue;
            /* _WIND_CODES is _PARSE's codes of the winds */
            long n = sd_code(v);
            if (n < 27 || n > 30)
                return 0;
            *slots[i] = (int)n;
        }
        else if (i == 12) { /* win */
            if (!PyUnicode_CheckExact(v))
                return 0;
            if (PyUnicode_Compare(v, s_self_draw) == 0)
                x->win_sd = 1;
            else if (PyUnicode_Compare(v, s_discard) == 0)
                x->win_sd = 0;
            else
                return 0;
        }
        else if (i == 13) { /* declared_ready */
            if (v == Py_None)
                continue;
            int r = PyUnicode_CheckExact(v) ? PySet_Contains(fc_ready, v) : 0;
            if (r != 1) {
                PyErr_Clear();
                return 0;
            }
        }
        else { /* dealer_streak */
            if (!PyLong_CheckExact(v))
                return 0;
            int overflow = 0;
            long n = PyLong_AsLongAndOverflow(v, &overflow);
            if (overflow || n < 0 || n > 99) {
                PyErr_Clear();
                return 0;
            }
            x->streak = (int)n;
        }
    }
    return 1;
}

/* the settings of the last objects, by their raw items (name, exact type,
 * value: what hefen.mcr._resolved keys them by, in the dict's order), with
 * the resolved dict and what m_read_opts read from it; filled only from hits
 * in hefen.mcr's own cache, so that a hit here is a hit there */
#define SC_N 8
#define SC_ITEMS 8
typedef struct {
    int n;
    PyObject *k[SC_ITEMS], *tp[SC_ITEMS], *v[SC_ITEMS], *opts;
    int mil, knit_remainder, sp_hog, ng_extras, imp;
} SCache;
static SCache sc_cache[SC_N];
static int sc_next;

/* 1 the same items, 0 not */
static int
sc_same(const SCache *e, PyObject *raw)
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
sc_store(PyObject *raw, PyObject *opts, const MWin *w)
{
    Py_ssize_t n = raw ? PyDict_GET_SIZE(raw) : 0, pos = 0;
    if (n > SC_ITEMS)
        return;
    PyObject *k, *v;
    while (raw && PyDict_Next(raw, &pos, &k, &v))
        if (!PyUnicode_CheckExact(k) || PyFloat_CheckExact(v))
            return;
    SCache *e = &sc_cache[sc_next];
    sc_next = (sc_next + 1) % SC_N;
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
    e->mil = w->mil;
    e->knit_remainder = w->knit_remainder;
    e->sp_hog = w->sp_hog;
    e->ng_extras = w->ng_extras;
    e->imp = w->imp;
}

/* the resolved settings of raw (NULL: none given) into *opts (a new
 * reference) and w: 1, or 0 (not resolved before, or not read) */
static int
sd_options(PyObject *raw, MWin *w, PyObject **opts)
{
    for (int i = 0; i < SC_N; i++) {
        SCache *e = &sc_cache[i];
        if (sc_same(e, raw)) {
            Py_INCREF(e->opts);
            *opts = e->opts;
            w->mil = e->mil;
            w->knit_remainder = e->knit_remainder;
            w->sp_hog = e->sp_hog;
            w->ng_extras = e->ng_extras;
            w->imp = e->imp;
            return 1;
        }
    }
    if (raw != NULL)
        *opts = sd_settings(raw);
    else {
        *opts = PyDict_GetItemWithError(sd_resolved, empty_tuple);
        Py_XINCREF(*opts);
    }
    if (*opts == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (m_read_opts(*opts, w) != 1) {
        Py_CLEAR(*opts);
        PyErr_Clear();
        return 0;
    }
    sc_store(raw, *opts, w);
    return 1;
}

/* obj into W->w and c, its settings into *opts (a new reference): 1, or 0 */
static int
sd_direct(PyObject *obj, MWork *W, MCtx *c, PyObject **opts)
{
    MWin *w = &W->w;
    PyObject *v, *f[7]; /* rules, hand, melds, win_tile, flowers, context, options */
    if (!PyDict_CheckExact(obj) || !sd_fields(obj, sd_top_index, f, 7))
        goto no;
    v = f[0] ? f[0] : fh_default_rules;
    if (!PyUnicode_CheckExact(v) || PyUnicode_Compare(v, sd_rules) != 0)
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
            if (!sd_meld(PyList_GET_ITEM(v, i), &w->fixed[i], mt[i], &mn[i]))
                goto no;
    }
    /* the winning tile: a tile, not a bonus tile (MCR has no flower wins) */
    v = f[3];
    if (v == NULL || v == Py_None || (w->win = sd_code(v)) < 0 || w->win >= NK)
        goto no;
    /* the flowers: bonus tiles, each once */
    c->nflowers = 0;
    v = f[4];
    if (v != NULL) {
        if ((c->nflowers = sd_codes(v, c->flowers, 8)) < 0)
            goto no;
        for (int i = 0; i < c->nflowers; i++)
            if (c->flowers[i] < NK || (i && c->flowers[i] == c->flowers[i - 1]))
                goto no;
    }
    /* the context */
    SdCtx x;
    if (!sd_context(f[5], &x))
        goto no;
    /* the settings, resolved before */
    v = f[6];
    if (v != NULL && v != Py_None && !PyDict_CheckExact(v))
        goto no;
    if (!sd_options(v != NULL && v != Py_None ? v : NULL, w, opts))
        goto no;
    /* the rules of the hand (Hand._check_rules, as rules_pass) and _Win */
    if (nc + 3 * nm != sd_size || sd_size != 13)
        goto no_opts;
    memset(w->c13, 0, sizeof w->c13);
    w->ntiles = 0;
    for (int i = 0; i < nc; i++) {
        w->c13[conc[i]]++;
        w->tiles[w->ntiles++] = conc[i];
    }
    int cnt[NK], in_melds = 0, w_in_melds = 0;
    memcpy(cnt, w->c13, sizeof cnt);
    w->n_melds = nm;
    w->n_kongs = w->n_exposed = 0;
    for (int i = 0; i < nm; i++) {
        int hits = 0;
        for (int j = 0; j < mn[i]; j++) {
            cnt[mt[i][j]]++;
            hits += mt[i][j] == w->win;
            w->tiles[w->ntiles++] = mt[i][j];
        }
        w_in_melds |= hits > 0;
        in_melds += w->fixed[i].kind != GK_CHOW ? hits : hits > 0;
        w->n_kongs += w->fixed[i].kind == GK_KONG;
        w->n_exposed += !w->fixed[i].concealed;
    }
    cnt[w->win]++;
    for (int t = 0; t < NK; t++)
        if (cnt[t] > 4)
            goto no_opts;
    int sd = x.win_sd, in_conc = w->c13[w->win] > 0, is_dealer = x.seat == x.dealer;
    if ((x.rk && sd) || (x.kr && (!sd || w->n_kongs == 0)) ||
        (x.dkr && (!sd || w->n_kongs < 2)) || (x.heavenly && (!sd || nm || !is_dealer)) ||
        ((x.earthly || x.human) && (is_dealer || w->n_exposed)) ||
        (x.heavenly && (x.earthly || x.human)) ||
        (x.discarder >= 0 && (sd || x.discarder == x.seat)) ||
        (x.rk && (in_conc || w_in_melds)) || (x.lok && in_conc))
        goto no_opts;
    w->tiles[w->ntiles++] = w->win;
    memcpy(w->c14, w->c13, sizeof w->c14);
    w->c14[w->win]++;
    w->self_drawn = sd;
    w->wall_last = x.ltw;
    w->about_kong = x.kr || x.dkr || x.rk;
    w->fourth = x.lok || (in_melds == 3 && !in_conc);
    w->round_wind = x.round;
    w->seat_wind = x.seat;
    w->n_waits = -1;
    c->seat = x.seat;
    c->dealer = x.dealer;
    c->streak = x.streak;
    c->discarder = x.discarder;
    return 1;
no_opts:
    Py_CLEAR(*opts);
no:
    PyErr_Clear();
    return 0;
}

static PyObject *
py_mcr_score_dict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || sd_rules == NULL || fh_py == NULL || !mp_ready || s_flowers_attr == NULL ||
        meld_type == NULL || fc_wind_codes == NULL || mr_result_type == NULL || sd_flower_wins ||
        sd_ctx_index == NULL || sd_top_index == NULL || sd_meld_index == NULL)
        Py_RETURN_NONE;
    MWork *W = m_busy ? PyMem_Calloc(1, sizeof(MWork)) : &m_work;
    if (W == NULL)
        return PyErr_NoMemory();
    m_busy++;
    MCtx c = {{0}, 0, 0, 0, 0, -1};
    PyObject *opts = NULL, *res = NULL;
    if (sd_direct(args[0], W, &c, &opts))
        res = m_run(W, &c);
    Py_XDECREF(opts);
    m_done(W);
    if (res == NULL || res == Py_False) {
        PyErr_Clear();
        Py_XDECREF(res);
        res = Py_None;
        Py_INCREF(res);
    }
    return res;
}

/* _set_mcr_score_dict(rules, resolved, default_context, concealed_size, flower_wins) */
static PyObject *
py_set_mcr_score_dict(PyObject *self, PyObject *args)
{
    PyObject *rules, *resolved, *dctx;
    long size;
    int fw;
    if (!PyArg_ParseTuple(args, "UO!Olp:_set_mcr_score_dict", &rules, &PyDict_Type, &resolved,
                          &dctx, &size, &fw))
        return NULL;
    if (s_heavenly == NULL) {
        s_heavenly = PyUnicode_InternFromString("heavenly");
        s_earthly = PyUnicode_InternFromString("earthly");
        s_human = PyUnicode_InternFromString("human");
        if (!s_heavenly || !s_earthly || !s_human)
            return NULL;
    }
    Py_INCREF(rules);
    Py_XSETREF(sd_rules, rules);
    Py_INCREF(resolved);
    Py_XSETREF(sd_resolved, resolved);
    Py_INCREF(dctx);
    Py_XSETREF(sd_default_ctx, dctx);
    sd_size = size;
    sd_flower_wins = fw;
    if (fh_parse == NULL || fc_wind_codes == NULL) {
        PyErr_SetString(PyExc_ValueError, "_set_mcr_score_dict: _set_fast_hand first");
        return NULL;
    }
    PyObject *names[15] = {s_ltw,     s_kr,    s_dkr,    s_rk,          s_lok,
                           s_heavenly, s_earthly, s_human, s_seat,       s_round,
                           s_dealer,  s_discarder, s_win, s_declared_ready, s_dealer_streak_k};
    PyObject *index = PyDict_New();
    if (index == NULL)
        return NULL;
    for (int i = 0; i < 15; i++) {
        PyObject *n = PyLong_FromLong(i);
        if (n == NULL || names[i] == NULL || PyDict_SetItem(index, names[i], n) < 0) {
            Py_XDECREF(n);
            Py_DECREF(index);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_set_mcr_score_dict: the names");
            return NULL;
        }
        Py_DECREF(n);
    }
    Py_XSETREF(sd_ctx_index, index);
    /* the keys of a hand and of a meld, as hefen.hand's _TOP_KEYS and
     * _MELD_KEYS (which must be exactly these) */
    PyObject *top[7] = {s_rules, s_hand, s_melds, s_win_tile, s_flowers, s_context, s_options};
    PyObject *mk[3] = {s_kind, s_tiles, s_concealed};
    PyObject *ti = PyDict_New(), *mi = PyDict_New();
    int ok = ti != NULL && mi != NULL && PySet_GET_SIZE(fh_top_keys) == 7 &&
             PySet_GET_SIZE(fh_meld_keys) == 3;
    for (int i = 0; ok && i < 7; i++) {
        PyObject *n = PyLong_FromLong(i);
        ok = n != NULL && PySet_Contains(fh_top_keys, top[i]) == 1 &&
             PyDict_SetItem(ti, top[i], n) == 0;
        Py_XDECREF(n);
    }
    for (int i = 0; ok && i < 3; i++) {
        PyObject *n = PyLong_FromLong(i);
        ok = n != NULL && PySet_Contains(fh_meld_keys, mk[i]) == 1 &&
             PyDict_SetItem(mi, mk[i], n) == 0;
        Py_XDECREF(n);
    }
    if (!ok) {
        Py_XDECREF(ti);
        Py_XDECREF(mi);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_set_mcr_score_dict: the keys of a hand");
        return NULL;
    }
    Py_XSETREF(sd_top_index, ti);
    Py_XSETREF(sd_meld_index, mi);
    sd_build_tables();
    Py_RETURN_NONE;
}

/* the Hong Kong and Taiwanese scorers (hk_score, _set_hk) */
#include "_core_hktw.c"

/* score_dict(obj): the one-call answer of the ruleset the plain dict `obj`
 * names (its "rules", else the default registered with _set_fast_hand),
 * among those registered (mcr_score_dict, hk_score_dict, tw_score_dict,
 * each keyed by the name it was registered with); None otherwise, as each
 * of them answers (the Python path then does).  One C call in place of
 * hefen.scoring._one_call's lookups: the same answers. */
static PyObject *sd_rules_key;

static PyObject *
py_score_dict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || !PyDict_CheckExact(args[0]) || fh_default_rules == NULL)
        Py_RETURN_NONE;
    if (sd_rules_key == NULL && (sd_rules_key = PyUnicode_InternFromString("rules")) == NULL)
        return NULL;
    PyObject *r = PyDict_GetItemWithError(args[0], sd_rules_key); /* borrowed */
    if (r == NULL) {
        if (PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        r = fh_default_rules;
    }
    if (!PyUnicode_CheckExact(r))
        Py_RETURN_NONE;
    if (sd_rules != NULL && (r == sd_rules || PyUnicode_Compare(r, sd_rules) == 0))
        return py_mcr_score_dict(self, args, 1);
    if (hd_rules != NULL && (r == hd_rules || PyUnicode_Compare(r, hd_rules) == 0))
        return py_hk_score_dict(self, args, 1);
    if (wd_rules != NULL && (r == wd_rules || PyUnicode_Compare(r, wd_rules) == 0))
        return py_tw_score_dict(self, args, 1);
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"is_standard_complete", (PyCFunction)(void (*)(void))py_is_standard_complete, METH_FASTCALL,
     "is_standard_complete(counts) -> bool: sets and one pair."},
    {"standard_decompositions", (PyCFunction)(void (*)(void))py_standard_decompositions,
     METH_FASTCALL,
     "standard_decompositions(counts) -> every split into sets and one pair, as "
     "(pair, ((kind, tile), ...)) in the pure reference's order."},
    {"is_complete", (PyCFunction)(void (*)(void))py_is_complete, METH_FASTCALL,
     "is_complete(counts, n_melds, forms) -> bool: complete in one of the forms."},
    {"ready_discards", (PyCFunction)(void (*)(void))py_ready_discards, METH_FASTCALL,
     "ready_discards(counts, n_melds, forms) -> tuple: the kinds held whose discard leaves "
     "the hand one tile from complete (a fifth copy never a wait)."},
    {"completes_with", (PyCFunction)(void (*)(void))py_completes_with, METH_FASTCALL,
     "completes_with(tiles, n_melds, forms, tile) -> whether tile completes the hand of the "
     "kinds tiles (one of its completing_tiles)."},
    {"completing_tiles", (PyCFunction)(void (*)(void))py_completing_tiles,
     METH_FASTCALL | METH_KEYWORDS,
     "completing_tiles(counts, n_melds=0, forms=FORMS_ALL, fifth=False) -> the "
     "tile kinds that complete a hand one tile short."},
    {"combination_candidates", (PyCFunction)(void (*)(void))py_combination_candidates,
     METH_FASTCALL,
     "combination_candidates(groups) -> every MCR pattern combining two or more sets, "
     "with the sets it uses (hefen.mcr.detect)."},
    {"select_combinations", (PyCFunction)(void (*)(void))py_select_combinations, METH_FASTCALL,
     "select_combinations(cands, value) -> the most valuable admissible choice of "
     "combination patterns (hefen.mcr.detect)."},
    {"_set_pure_detect", py_set_pure_detect, METH_VARARGS,
     "_set_pure_detect(combination_candidates, select_combinations, HandSet): the pure "
     "references of hefen.mcr.detect and the set type the C code reads."},
    {"suit_patterns", (PyCFunction)(void (*)(void))py_suit_patterns, METH_FASTCALL,
     "suit_patterns(tiles, t): No Honors, One Voided Suit, the flushes, All Types."},
    {"tile_patterns", (PyCFunction)(void (*)(void))py_tile_patterns, METH_FASTCALL,
     "tile_patterns(tiles, t): All Simples, Reversible, All Green, the terminal and "
     "honour hands."},
    {"rank_patterns", (PyCFunction)(void (*)(void))py_rank_patterns, METH_FASTCALL,
     "rank_patterns(tiles, t): Lower/Upper Four, Lower/Middle/Upper Tiles."},
    {"tile_hog", (PyCFunction)(void (*)(void))py_tile_hog, METH_FASTCALL,
     "tile_hog(tiles, kongs, t): four of a kind that is not a kong."},
    {"_set_pure_tiles", py_set_pure_tiles, METH_VARARGS,
     "_set_pure_tiles(suit_patterns, tile_patterns, rank_patterns, tile_hog, codes): the "
     "pure references and the 34 tile codes."},
    {"_set_pure", py_set_pure, METH_VARARGS,
     "_set_pure(is_standard_complete, standard_decompositions, is_complete, "
     "completing_tiles[, ready_discards[, completes_with]]): the pure references, for inputs "
     "outside the C domain."},
    {"hk_discard_values", (PyCFunction)(void (*)(void))py_hk_discard_values,
     METH_FASTCALL | METH_KEYWORDS,
     "hk_discard_values(counts, cap, n_melds, forms, size, allow_four_pairs, ctx, kinds) -> "
     "hk_value of the hand without one of each of kinds."},
    {"discard_ukeire", (PyCFunction)(void (*)(void))py_discard_ukeire,
     METH_FASTCALL | METH_KEYWORDS,
     "discard_ukeire(counts, cap, n_melds, forms, size, allow_four_pairs, unseen, kinds) -> "
     "for each of kinds, the unseen copies of the useful kinds of the hand without one of it."},
    {"_set_pure_bots", py_set_pure_bots, METH_VARARGS,
     "_set_pure_bots(hk_discard_values, discard_ukeire[, best_discards[, unseen_counts]]): "
     "their references."},
    {"unseen_counts", (PyCFunction)(void (*)(void))py_unseen_counts, METH_FASTCALL,
     "unseen_counts(players, seat) -> the copies of each kind seat cannot see (a list of 34)."},
    {"best_discards", (PyCFunction)(void (*)(void))py_best_discards, METH_FASTCALL | METH_KEYWORDS,
     "best_discards(counts, cap, n_melds, forms, size, allow_four_pairs, unseen, kinds) -> "
     "(shanten, ((kind, useful), ...)): the least shanten over the discards of kinds and the "
     "unseen useful tiles of each that keeps it."},
    {"hk_value", (PyCFunction)(void (*)(void))py_hk_value, METH_FASTCALL | METH_KEYWORDS,
     "hk_value(counts, cap, n_melds, forms, size, allow_four_pairs, ctx) -> the Hong Kong "
     "value layer's expected payment of a hand (hefen.game.bots._py_hk_value)."},
    {"_set_pure_hk_value", py_set_pure_hk_value, METH_O,
     "_set_pure_hk_value(hk_value): the reference of hk_value."},
    {"shanten_number", (PyCFunction)(void (*)(void))py_shanten_number,
     METH_FASTCALL | METH_KEYWORDS,
     "shanten_number(counts, cap, n_melds, forms, size, allow_four_pairs) -> the shanten."},
    {"useful_kinds", (PyCFunction)(void (*)(void))py_useful_kinds, METH_FASTCALL | METH_KEYWORDS,
     "useful_kinds(counts, cap, n_melds, forms, size, allow_four_pairs) -> the kinds whose "
     "draw lowers the shanten."},
    {"plan_shanten", (PyCFunction)(void (*)(void))py_plan_shanten, METH_FASTCALL | METH_KEYWORDS,
     "plan_shanten(counts, cap, n_melds, forms, size, allow_four_pairs) -> the shanten of the "
     "tiles a plan keeps."},
    {"plan_shantens", (PyCFunction)(void (*)(void))py_plan_shantens,
     METH_FASTCALL | METH_KEYWORDS,
     "plan_shantens(counts, cap, n_melds, forms, size, allow_four_pairs) -> plan_shanten of "
     "the hand, its half and full flushes, and the seven pairs shanten."},
    {"discard_shantens", (PyCFunction)(void (*)(void))py_discard_shantens,
     METH_FASTCALL | METH_KEYWORDS,
     "discard_shantens(counts, cap, n_melds, forms, size, allow_four_pairs) -> for each kind "
     "held, the shanten without one of it (None for the others)."},
    {"_set_pure_hands", py_set_pure_hands, METH_VARARGS,
     "_set_pure_hands(shanten_number, useful_kinds, plan_shanten, plan_shantens, "
     "discard_shantens): the references of the whole-hand functions."},
    {"suit_table", (PyCFunction)(void (*)(void))py_suit_table, METH_FASTCALL,
     "suit_table(c, cap, base=0) -> the shanten table of one suit (hefen.analysis.shanten)."},
    {"honor_table", (PyCFunction)(void (*)(void))py_honor_table, METH_FASTCALL,
     "honor_table(c, cap, base=27) -> the shanten table of the honours."},
    {"combine", (PyCFunction)(void (*)(void))py_combine, METH_FASTCALL,
     "combine(x, y) -> max-plus product of the kept counts of two closed tables."},
    {"combine_masks", (PyCFunction)(void (*)(void))py_combine_masks, METH_FASTCALL,
     "combine_masks(x, y) -> combine with the masks."},
    {"best", (PyCFunction)(void (*)(void))py_best, METH_FASTCALL,
     "best(x, y, sets) -> most kept with sets set slots and one pair slot."},
    {"best_mask", (PyCFunction)(void (*)(void))py_best_mask, METH_FASTCALL,
     "best_mask(x, y, sets, best) -> the joined masks of the ways to keep best."},
    {"standard_kept", (PyCFunction)(void (*)(void))py_standard_kept, METH_FASTCALL,
     "standard_kept(c, cap, sets) -> most tiles of the 34 counts a standard hand keeps."},
    {"seven_pairs_dist", (PyCFunction)(void (*)(void))py_seven_pairs_dist, METH_FASTCALL,
     "seven_pairs_dist(c, allow_four) -> distance to seven pairs."},
    {"orphans_dist", (PyCFunction)(void (*)(void))py_orphans_dist, METH_FASTCALL,
     "orphans_dist(c) -> distance to thirteen orphans."},
    {"honors_knitted_dist", (PyCFunction)(void (*)(void))py_honors_knitted_dist, METH_FASTCALL,
     "honors_knitted_dist(c) -> distance to honours and knitted tiles."},
    {"knitted_straight_dist", (PyCFunction)(void (*)(void))py_knitted_straight_dist,
     METH_FASTCALL,
     "knitted_straight_dist(c, cap, n_melds, beat=99) -> distance to a knitted straight."},
    {"_set_pure_forms", py_set_pure_forms, METH_VARARGS,
     "_set_pure_forms(standard_kept, seven_pairs_dist, orphans_dist, honors_knitted_dist, "
     "knitted_straight_dist): the pure references of the forms' distances."},
    {"_set_pure_shanten", py_set_pure_shanten, METH_VARARGS,
     "_set_pure_shanten(suit_table, honor_table, combine, combine_masks, best, best_mask): "
     "the pure references of hefen.analysis.shanten."},
    {"mcr_score", (PyCFunction)(void (*)(void))py_mcr_score, METH_FASTCALL,
     "mcr_score(hand, opts): the Result of a validated MCR hand, False when no reading "
     "completes it, None for an input the compiled scorer does not read."},
    {"new", (PyCFunction)(void (*)(void))py_new, METH_FASTCALL,
     "new(cls, *fields): an instance of a class registered with _set_new_types, its fields "
     "set slot by slot (cls(*fields) for any other class)."},
    {"_set_new_types", py_set_new_types, METH_VARARGS,
     "_set_new_types(((cls, fields), ...)): the frozen slotted dataclasses new() builds."},
    {"fast_hand", (PyCFunction)(void (*)(void))py_fast_hand, METH_FASTCALL,
     "fast_hand(cls, obj, need_win_tile): hefen.hand._fast_hand, compiled."},
    {"_set_fast_hand", py_set_fast_hand, METH_VARARGS,
     "_set_fast_hand(parse, melds, top_keys, meld_keys, default_rules, bonus_first, "
     "fast_context, hand_type, py_fast_hand): the tables of fast_hand."},
    {"_set_mcr_result", py_set_mcr_result, METH_VARARGS,
     "_set_mcr_result(Result, Payment, codes, flower_id, flower_name, flower_names, seats, "
     "next_seat_notes, min_points, base, rules, unit): what mcr_score builds its Result from."},
    {"fast_context", (PyCFunction)(void (*)(void))py_fast_context, METH_FASTCALL,
     "fast_context(obj): hefen.hand._fast_context, compiled."},
    {"_set_fast_context", py_set_fast_context, METH_VARARGS,
     "_set_fast_context(default, bools, winds, wind_codes, win_kinds, ready, cache, Context): "
     "the tables of fast_context."},
    {"rules_pass", (PyCFunction)(void (*)(void))py_rules_pass, METH_FASTCALL,
     "rules_pass(hand, concealed_size, flower_wins, default_context): True when "
     "Hand._check_rules would not raise; False when it would or the hand is not read here."},
    {"score_dict", (PyCFunction)(void (*)(void))py_score_dict, METH_FASTCALL,
     "score_dict(obj): score_uncached(obj) for a well-formed hand object of a ruleset whose "
     "one-call path is registered (MCR, Hong Kong, Taiwanese), or None (the Python path "
     "answers)."},
    {"mcr_score_dict", (PyCFunction)(void (*)(void))py_mcr_score_dict, METH_FASTCALL,
     "mcr_score_dict(obj): score_uncached(obj) for a well-formed MCR hand object, or None "
     "(the Python path answers)."},
    {"_set_mcr_score_dict", py_set_mcr_score_dict, METH_VARARGS,
     "_set_mcr_score_dict(rules, resolved, default_context, concealed_size, flower_wins)."},
    {"_set_mcr", py_set_mcr, METH_VARARGS,
     "_set_mcr(ids, values_gb, values_mil, exclusions, keeps, labels, codes, knitted, "
     "knitted_codes, meld_type, names_en, names, hit_type): the MCR pattern table for "
     "mcr_score."},
    {"hk_score", (PyCFunction)(void (*)(void))py_hk_score, METH_FASTCALL,
     "hk_score(hand, opts): the Result of a validated Hong Kong hand, False when no reading "
     "completes it, None for an input the compiled scorer does not read."},
    {"_set_hk", py_set_hk, METH_VARARGS,
     "_set_hk(ids, values, excludes, bonus, names_en, names, labels, codes, full_sets, seats, "
     "next_seat_notes, meld_type, hit_type, payment_type, result_type, rules, unit): the "
     "Hong Kong pattern table for hk_score."},
    {"hk_score_dict", (PyCFunction)(void (*)(void))py_hk_score_dict, METH_FASTCALL,
     "hk_score_dict(obj): score_uncached(obj) for a well-formed Hong Kong hand object, or "
     "None (the Python path answers)."},
    {"_set_hk_score_dict", py_set_hk_score_dict, METH_VARARGS,
     "_set_hk_score_dict(rules, resolved): the settings hk_score_dict reads."},
    {"tw_score", (PyCFunction)(void (*)(void))py_tw_score, METH_FASTCALL,
     "tw_score(hand, opts): the Result of a validated Taiwanese hand, False when no reading "
     "completes it, None for an input the compiled scorer does not read."},
    {"_set_tw", py_set_tw, METH_VARARGS,
     "_set_tw(ids, values, excludes, names_en, names, labels, codes, full_sets, eight, seats, "
     "next_seat_notes, note_flower_win, note_four_kong_win, note_four_kongs, meld_type, "
     "hit_type, payment_type, result_type, rules, unit): the Taiwanese pattern table for "
     "tw_score."},
    {"tw_score_dict", (PyCFunction)(void (*)(void))py_tw_score_dict, METH_FASTCALL,
     "tw_score_dict(obj): score_uncached(obj) for a well-formed Taiwanese hand object, or "
     "None (the Python path answers)."},
    {"_set_tw_score_dict", py_set_tw_score_dict, METH_VARARGS,
     "_set_tw_score_dict(rules, resolved): the settings tw_score_dict reads."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "hefen._core",
    "The compiled tile-count primitives of hefen.decompose (see hefen/_core.c).", -1,
    core_methods,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    /* KNITTED_STRAIGHTS: for each permutation of the suits (in
     * itertools.permutations order), suit perm[j] holds ranks j, j+3, j+6 */
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int k = 0; k < 6; k++) {
        int n = 0;
        memset(in_knitted[k], 0, sizeof in_knitted[k]);
        for (int j = 0; j < 3; j++)
            for (int d = 0; d < 9; d += 3) {
                int t = perms[k][j] * 9 + j + d;
                knitted[k][n++] = t;
                in_knitted[k][t] = 1;
            }
    }
    for (int k = 0; k < 13; k++)
        is_orphan[ORPHANS[k]] = 1;

    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    empty_tuple = PyTuple_New(0);
    if (empty_tuple == NULL)
        goto fail;
    for (int k = 0; k < 5; k++) {
        form_str[k] = PyUnicode_InternFromString(FORM_NAMES[k]);
        if (form_str[k] == NULL)
            goto fail;
    }
    for (int t = 0; t < NK; t++) {
        tile_obj[t] = PyLong_FromLong(t);
        if (tile_obj[t] == NULL)
            goto fail;
    }
    for (int kind = 0; kind < 2; kind++)
        for (int t = 0; t < NK; t++) {
            set_obj[kind][t] = Py_BuildValue("(ii)", kind, t);
            if (set_obj[kind][t] == NULL)
                goto fail;
        }
    for (int k = 0; k < N_COMBO; k++) {
        combo_str[k] = PyUnicode_InternFromString(COMBO_NAMES[k]);
        if (combo_str[k] == NULL)
            goto fail;
    }
    for (int k = 0; k < N_TRAIT; k++) {
        trait_str[k] = PyUnicode_InternFromString(TRAIT_NAMES[k]);
        if (trait_str[k] == NULL)
            goto fail;
    }
    for (size_t k = 0; k < sizeof REVERSIBLE_T / sizeof *REVERSIBLE_T; k++)
        is_reversible[REVERSIBLE_T[k]] = 1;
    for (size_t k = 0; k < sizeof GREEN_T / sizeof *GREEN_T; k++)
        is_green[GREEN_T[k]] = 1;
    m_tflags_init();
    str_add = PyUnicode_InternFromString("add");
    kw_n = Py_BuildValue("(s)", "n");
    kw_n_uses = Py_BuildValue("(ss)", "n", "uses");
    if (!str_add || !kw_n || !kw_n_uses)
        goto fail;
    kind_chow = PyUnicode_InternFromString("chow");
    kind_pung = PyUnicode_InternFromString("pung");
    kind_kong = PyUnicode_InternFromString("kong");
    str_kind = PyUnicode_InternFromString("kind");
    str_tile = PyUnicode_InternFromString("tile");
    if (!kind_chow || !kind_pung || !kind_kong || !str_kind || !str_tile)
        goto fail;
    if (m_init_strings() < 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "SOURCE_HASH", HEFEN_CORE_SOURCE_HASH) < 0)
        goto fail;
    if (PyModule_AddIntConstant(m, "MAX_COUNT", MAX_COUNT) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
