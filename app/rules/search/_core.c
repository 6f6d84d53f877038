/* The analysis's search (app/rules/search/solver.py) compiled: the same algorithm, move for
 * move (the same nodes in the same order), some 25 times faster (bench/solver.py).
 *
 * Issue 40 asks for exact values of every ru32 position within 10 s on 2 cores, and allows a
 * compiled core only where a benchmark shows Python cannot meet that budget: bench/solver.py
 * --games 16 found a plus-eralash hand led at trick 0 that the Python search had not solved
 * after 30 s. This file is a line-by-line port of solver.Search and of what it reads
 * (search_table.Table's scoring, legal_mask with the referee's masks, representatives, and
 * referee.checks.judge_play's thirteen rules in their order); solver.py stays the reference
 * and the fallback where no compiler is present (native.py chooses).
 * tests/rules/test_native_search.py holds the two to the same legal cards, the same values and
 * the same exactness, and tests/rules/test_analysis.py holds this one to a brute force.
 *
 * Cards are 0-51: suit * 13 + rank (suits S H D C, ranks 2..A); a hand is a 64-bit set.
 * Values are those of solver.py: what is still to come for the seat.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef int64_t i64;

#define INF_V ((i64)1 << 40)
#define CLOCK_MASK 4095
#define HEARTS 1
#define KH 24
#define KH_BIT ((u64)1 << KH)
#define SUIT_OF(c) ((c) / 13)
#define BITOF(c) ((u64)1 << (c))
#define TRUMP_FIESTA 1

static u64 SUIT_MASK[4];
static u64 ABOVE[52];
static u64 BELOW[52];

static inline int hibit(u64 x) { return x ? 63 - __builtin_clzll(x) : -1; }
static inline int lobit(u64 x) { return __builtin_ctzll(x); }
static inline int popcount(u64 x) { return __builtin_popcountll(x); }
/* SUIT_MASK[s] as Python indexes it (a suit of -1 is the last one). */
static inline u64 smask(int s) { return SUIT_MASK[s < 0 ? s + 4 : s]; }

/* --- a hand's constants (search_table.Table, its PlayRules and Referee) ------------------- */

typedef struct {
    u64 deck;
    int trump, n_tricks, seat;
    i64 card_values[52];
    u64 same_class[52];
    i64 trick_value, last_value;
    int ends_early;
    u64 scoring_mask;
    int owner, buyer;
    i64 per_trick, most;
    /* PlayRules */
    int hearts_lead, hearts_breakable, kh_lead, trump_lead, kh_discard_from, kh_first_trick,
        hearts_first_trick, trump_mode;
    u64 penalty_mask;
    int penalty_heart, penalty_drop, must_overtake;
    /* Referee masks */
    u64 lead_mask, follow_by_suit[4], void_by_suit[4];
    /* derived */
    i64 trick_lo[16], trick_hi[16];
    int n_masks;
    i64 mask_value[52];
    u64 mask_cards[52];
    u64 valued;
    int cls[52];
} Tab;

typedef struct {
    u64 hands[4];
    u64 played;
    int trick[4];
    int n;          /* cards in the trick being played */
    int k, leader, paid;
} St;

/* --- the rules of play (referee.checks.judge_play, legality only) ------------------------- */

static int top_of_suit(const int *trick, int n, int suit) {
    int top = -1;
    for (int i = 0; i < n; i++)
        if (SUIT_OF(trick[i]) == suit && trick[i] > top) top = trick[i];
    return top;
}

/* Whether the play breaks no rule (judge_play(...) is None). */
static int judge_legal(const Tab *t, int trick_no, const int *trick, int n, int card,
                       u64 holding, u64 broken) {
    int trump = t->trump;
    if (n == 0) {
        if (t->hearts_lead && SUIT_OF(card) == HEARTS
            && !(t->hearts_breakable && (broken & SUIT_MASK[HEARTS]))
            && (holding & ~SUIT_MASK[HEARTS]))
            return 0;
        if (t->kh_lead && card == KH && (holding & ~KH_BIT)) return 0;
        if (t->trump_lead && SUIT_OF(card) == trump && !(broken & smask(trump))
            && (holding & ~smask(trump)))
            return 0;
        return 1;
    }
    int led = SUIT_OF(trick[0]);
    if (holding & SUIT_MASK[led]) {
        if (SUIT_OF(card) != led) return 0;                         /* follow-suit */
        if (t->trump_mode == TRUMP_FIESTA && led == trump) {          /* must-head-trump */
            u64 above = holding & smask(trump) & ABOVE[top_of_suit(trick, n, trump)];
            return !(above && !(BITOF(card) & above));
        }
        if (t->penalty_drop) {                                        /* penalty-drop */
            u64 below = holding & SUIT_MASK[led] & t->penalty_mask
                        & BELOW[top_of_suit(trick, n, led)];
            if (below) return (BITOF(card) & below) != 0;
        }
        if (t->must_overtake                                          /* must-overtake */
            && !(trump >= 0 && led != trump && top_of_suit(trick, n, trump) >= 0)) {
            u64 above = holding & SUIT_MASK[led] & ABOVE[top_of_suit(trick, n, led)];
            if (above && !(BITOF(card) & above)) return 0;
        }
        return 1;
    }
    if (t->kh_discard_from && trick_no >= t->kh_discard_from && (holding & KH_BIT)
        && card != KH)
        return 0;                                                     /* kh-discard */
    if (t->kh_first_trick && trick_no == 1 && card == KH) return 0;  /* kh-first-trick */
    if (t->hearts_first_trick && trick_no == 1 && SUIT_OF(card) == HEARTS
        && (holding & ~SUIT_MASK[HEARTS]))
        return 0;                                                     /* hearts-first-trick */
    if (t->trump_mode == TRUMP_FIESTA) {                              /* must-overtrump */
        u64 trumps = holding & smask(trump);
        int top = top_of_suit(trick, n, trump);
        if (trumps && top >= 0) {
            u64 above = trumps & ABOVE[top];
            if (above && !(BITOF(card) & above)) return 0;
        }
    }
    if (t->trump_mode) {                                              /* must-trump */
        u64 trumps = holding & smask(trump);
        if (trumps && SUIT_OF(card) != trump
            && !(t->trump_mode == TRUMP_FIESTA && top_of_suit(trick, n, trump) >= 0))
            return 0;
    }
    if (t->penalty_mask) {                                            /* penalty-discard */
        if (t->penalty_heart) {
            if ((holding & KH_BIT) && SUIT_OF(card) != HEARTS) return 0;
        } else {
            u64 penalty = holding & t->penalty_mask;
            if (penalty && !(BITOF(card) & penalty)) return 0;
        }
    }
    return 1;
}

/* search_table.legal_mask */
static u64 legal_mask(const Tab *t, const St *s, int seat) {
    u64 held = s->hands[seat], need, candidates;
    if (s->n == 0) {
        need = held & t->lead_mask;
        candidates = held;
    } else {
        int led = SUIT_OF(s->trick[0]);
        u64 same = held & SUIT_MASK[led];
        if (same) {
            candidates = same;
            need = held & t->follow_by_suit[led];
        } else {
            candidates = held;
            need = held & t->void_by_suit[led];
        }
    }
    if (!need) return candidates;
    u64 legal = 0, rest = candidates;
    while (rest) {
        u64 low = rest & (~rest + 1);
        rest ^= low;
        if (judge_legal(t, s->k + 1, s->trick, s->n, lobit(low), held, s->played)) legal |= low;
    }
    return legal;
}

/* search_table.representatives: one card of each class of equivalent legal cards. */
static int representatives(const Tab *t, const St *s, u64 legal, int seat, int *out) {
    if (!legal) return 0;
    if (!(legal & (legal - 1))) {
        out[0] = hibit(legal);
        return 1;
    }
    u64 live = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & ~s->hands[seat];
    for (int i = 0; i < s->n; i++) live |= BITOF(s->trick[i]);
    int n = 0;
    while (legal) {
        int card = hibit(legal);
        out[n++] = card;
        u64 below = BELOW[card];
        legal &= below | ~SUIT_MASK[SUIT_OF(card)];
        u64 blockers = live & below;
        if (blockers) below &= ABOVE[hibit(blockers)];
        legal &= ~(below & t->same_class[card]);
    }
    return n;
}

/* referee.play.trick_winner: the position (0-3) of the card that wins the trick. */
static int trick_winner(const int *c, int trump) {
    int best = c[0], pos = 0, best_suit = SUIT_OF(c[0]);
    for (int i = 1; i < 4; i++) {
        int s = SUIT_OF(c[i]);
        if (s == best_suit) {
            if (c[i] > best) best = c[i], pos = i;
        } else if (s == trump) {
            best = c[i], pos = i, best_suit = s;
        }
    }
    return pos;
}

/* --- scoring (Table.gain_of, paid_after, rest_bounds) ------------------------------------ */

static inline i64 min64(i64 a, i64 b) { return a < b ? a : b; }
static inline i64 max64(i64 a, i64 b) { return a > b ? a : b; }

static i64 gain_of(const Tab *t, int k, int winner, i64 worth, int paid) {
    i64 gain = 0;
    if (winner == t->seat)
        gain = t->trick_value + worth + (k >= t->n_tricks - 2 ? t->last_value : 0);
    if (winner == t->owner && t->per_trick && t->per_trick * paid < t->most) {
        i64 step = min64(t->most, t->per_trick * (paid + 1)) - t->per_trick * paid;
        gain += t->seat == t->owner ? step : t->seat == t->buyer ? -step : 0;
    }
    return gain;
}

static i64 trick_gain(const Tab *t, int k, int winner, u64 cards, int paid) {
    i64 worth = 0;
    while (cards) {
        worth += t->card_values[lobit(cards)];
        cards &= cards - 1;
    }
    return gain_of(t, k, winner, worth, paid);
}

static int paid_after(const Tab *t, int winner, int paid) {
    if (winner == t->owner && t->per_trick && t->per_trick * paid < t->most) return paid + 1;
    return paid;
}

static void rest_bounds(const Tab *t, int k, u64 cards, int paid, i64 *lo, i64 *hi) {
    i64 l = t->trick_lo[k], h = t->trick_hi[k];
    for (int i = 0; i < t->n_masks; i++) {
        i64 n = popcount(cards & t->mask_cards[i]);
        if (t->mask_value[i] < 0) l += t->mask_value[i] * n;
        else h += t->mask_value[i] * n;
    }
    if (t->per_trick && (t->seat == t->owner || t->seat == t->buyer)) {
        i64 left = max64(0, t->most - t->per_trick * paid);
        i64 room = min64(left, t->per_trick * (t->n_tricks - k));
        if (t->seat == t->owner) h += room;
        else l -= room;
    }
    *lo = l;
    *hi = h;
}

/* --- hash tables ------------------------------------------------------------------------ */

/* A suit's pattern (per card still out, from the highest down: holder and class) interned
 * to a small code, as solver.Search._suit_code does. */
typedef struct { u64 a, b; uint32_t code; uint32_t used; } PatSlot;
typedef struct { PatSlot *slots; size_t cap, count; } PatTable;

/* The transposition table: a trick start -> bounds and the best card's place. */
typedef struct { u64 a, b; int32_t lo, hi; int16_t best; int16_t used; } TTSlot;
typedef struct { TTSlot *slots; size_t cap, count; } TTable;

#define TT_MAX_CAP ((size_t)1 << 23)    /* 8M slots, 256 MB: beyond it, entries are replaced */
#define TT_PROBES 256

static inline u64 mix(u64 a, u64 b) {
    u64 h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return h;
}

static int pat_grow(PatTable *p) {
    size_t cap = p->cap ? p->cap * 2 : 1024;
    PatSlot *slots = calloc(cap, sizeof(PatSlot));
    if (!slots) return -1;
    for (size_t i = 0; i < p->cap; i++) {
        PatSlot *o = &p->slots[i];
        if (!o->used) continue;
        size_t j = mix(o->a, o->b) & (cap - 1);
        while (slots[j].used) j = (j + 1) & (cap - 1);
        slots[j] = *o;
    }
    free(p->slots);
    p->slots = slots;
    p->cap = cap;
    return 0;
}

/* The code of a pattern, a new one if unseen; -1 when out of memory. */
static i64 pat_code(PatTable *p, u64 a, u64 b) {
    if ((p->count + 1) * 2 > p->cap && pat_grow(p) < 0) return -1;
    size_t j = mix(a, b) & (p->cap - 1);
    while (p->slots[j].used) {
        if (p->slots[j].a == a && p->slots[j].b == b) return p->slots[j].code;
        j = (j + 1) & (p->cap - 1);
    }
    p->slots[j].a = a;
    p->slots[j].b = b;
    p->slots[j].used = 1;
    p->slots[j].code = (uint32_t)p->count++;
    return p->slots[j].code;
}

static int tt_grow(TTable *t) {
    size_t cap = t->cap ? t->cap * 2 : 4096;
    TTSlot *slots = calloc(cap, sizeof(TTSlot));
    if (!slots) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        TTSlot *o = &t->slots[i];
        if (!o->used) continue;
        size_t j = mix(o->a, o->b) & (cap - 1);
        for (int probe = 0; slots[j].used && probe < TT_PROBES; probe++) j = (j + 1) & (cap - 1);
        slots[j] = *o;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

static TTSlot *tt_find(TTable *t, u64 a, u64 b) {
    if (!t->cap) return NULL;
    size_t j = mix(a, b) & (t->cap - 1);
    for (int probe = 0; probe < TT_PROBES; probe++) {
        TTSlot *s = &t->slots[j];
        if (!s->used) return NULL;
        if (s->a == a && s->b == b) return s;
        j = (j + 1) & (t->cap - 1);
    }
    return NULL;
}

/* Stores an entry (replacing the key's, or a slot of its probe window once the table is at
 * its largest: an entry only ever saves work, so losing one changes no value). */
static int tt_store(TTable *t, u64 a, u64 b, i64 lo, i64 hi, int best) {
    if ((t->count + 1) * 2 > t->cap && t->cap < TT_MAX_CAP && tt_grow(t) < 0) return -1;
    size_t j = mix(a, b) & (t->cap - 1), first = j;
    TTSlot *s = NULL;
    for (int probe = 0; probe < TT_PROBES; probe++) {
        TTSlot *c = &t->slots[j];
        if (!c->used || (c->a == a && c->b == b)) {
            s = c;
            break;
        }
        j = (j + 1) & (t->cap - 1);
    }
    if (!s) s = &t->slots[first];
    if (!s->used) t->count++;
    s->a = a;
    s->b = b;
    s->lo = (int32_t)lo;
    s->hi = (int32_t)hi;
    s->best = (int16_t)best;
    s->used = 1;
    return 0;
}

/* --- the search ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Tab t;
    int possible, horizon, cut, best;
    long long clock_mask;   /* nodes between two looks at the clock, less one */
    double deadline;
    long long nodes;
    i64 history[4][52];
    int maximises[4];
    i64 worst[4];
    PatTable pats;
    TTable tt;
    jmp_buf stop;
    int stop_reason;    /* 1: out of time, 2: out of memory */
} Search;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void count_node(Search *self) {
    self->nodes++;
    if (!(self->nodes & self->clock_mask) && now_s() > self->deadline) {
        self->stop_reason = 1;
        longjmp(self->stop, 1);
    }
}

static void stop_no_memory(Search *self) {
    self->stop_reason = 2;
    longjmp(self->stop, 1);
}

static i64 trick_start(Search *self, St *s, i64 alpha, i64 beta);
static i64 turn(Search *self, St *s, i64 alpha, i64 beta, int first);
static i64 last(Search *self, St *s, i64 alpha, i64 beta);

static int settled(const Search *self, const St *s) {
    const Tab *t = &self->t;
    return s->k >= t->n_tricks || !(t->valued & ~s->played)
           || (t->ends_early && (s->played & t->scoring_mask) == t->scoring_mask);
}

static i64 final_trick(Search *self, St *s) {
    const Tab *t = &self->t;
    self->nodes += 4;
    int cards[4];
    for (int i = 0; i < 4; i++) cards[i] = hibit(s->hands[(s->leader + i) & 3]);
    int winner = (s->leader + trick_winner(cards, t->trump)) & 3;
    i64 worth = t->card_values[cards[0]] + t->card_values[cards[1]]
                + t->card_values[cards[2]] + t->card_values[cards[3]];
    return gain_of(t, s->k, winner, worth, s->paid);
}

/* Search._key: per suit the interned pattern of the cards still out; the owner's paid
 * tricks; the leader. */
static void make_key(Search *self, const St *s, u64 *ka, u64 *kb) {
    u64 codes[4];
    for (int suit = 0; suit < 4; suit++) {
        u64 sm = SUIT_MASK[suit];
        u64 rest = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & sm;
        u64 pa = 0, pb = 0;
        int n = 0;
        while (rest) {
            int c = hibit(rest);
            u64 bit = BITOF(c);
            rest ^= bit;
            int holder = s->hands[0] & bit ? 0 : s->hands[1] & bit ? 1 : s->hands[2] & bit ? 2 : 3;
            u64 entry = (u64)(holder << 4 | self->t.cls[c]);
            if (n < 10) pa |= entry << (6 * n);
            else pb |= entry << (6 * (n - 10));
            n++;
        }
        pa |= (u64)n << 60;
        i64 code = pat_code(&self->pats, pa, pb);
        if (code < 0 || code >= (i64)1 << 24) stop_no_memory(self);   /* the key holds 24 bits */
        codes[suit] = (u64)code;
    }
    *ka = codes[0] << 32 | codes[1];
    *kb = codes[2] << 40 | codes[3] << 16 | (u64)s->paid << 2 | (u64)s->leader;
}

static int place_of(const u64 *hands, int card) {
    u64 out = (hands[0] | hands[1] | hands[2] | hands[3]) & ABOVE[card];
    return SUIT_OF(card) << 4 | popcount(out);
}

static int card_at(const u64 *hands, int place) {
    u64 out = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[place >> 4];
    for (int i = 0; i < (place & 15); i++) out ^= BITOF(hibit(out));
    return hibit(out);
}

static i64 trick_start(Search *self, St *s, i64 alpha, i64 beta) {
    const Tab *t = &self->t;
    if (settled(self, s)) return 0;
    if (s->k == t->n_tricks - 1) return final_trick(self, s);
    u64 ka, kb;
    make_key(self, s, &ka, &kb);
    TTSlot *e = tt_find(&self->tt, ka, kb);
    i64 lo, hi;
    int first;
    if (!e) {
        rest_bounds(t, s->k, t->deck & ~s->played, s->paid, &lo, &hi);
        if (s->k >= self->horizon) {
            self->cut = 1;
            return self->possible ? hi : lo;
        }
        first = -1;
    } else {
        lo = e->lo;
        hi = e->hi;
        first = e->best;
    }
    if (lo >= beta || lo == hi) return lo;
    if (hi <= alpha) return hi;
    if (first >= 0) first = card_at(s->hands, first);
    i64 a = max64(alpha, lo), b = min64(beta, hi);
    i64 value = turn(self, s, a, b, first);
    i64 nlo = lo, nhi = hi;
    if (value <= a) nhi = value;
    else if (value >= b) nlo = value;
    else nlo = nhi = value;
    if (tt_store(&self->tt, ka, kb, nlo, nhi, place_of(s->hands, self->best)) < 0)
        stop_no_memory(self);
    return value;
}

/* Search.order: the representative legal cards, by history (stable), the table's first. */
static int order(Search *self, const St *s, int seat, int first, int *cards) {
    int n = representatives(&self->t, s, legal_mask(&self->t, s, seat), seat, cards);
    if (n < 2) return n;
    const i64 *h = self->history[seat];
    for (int i = 1; i < n; i++) {
        int x = cards[i], j = i - 1;
        while (j >= 0 && h[cards[j]] < h[x]) {
            cards[j + 1] = cards[j];
            j--;
        }
        cards[j + 1] = x;
    }
    for (int i = 0; i < n; i++) {
        if (cards[i] == first) {
            memmove(cards + 1, cards, (size_t)i * sizeof(int));
            cards[0] = first;
            break;
        }
    }
    return n;
}

/* The mover's choice after a card worth ``v``: the best so far and the window; whether the
 * window closed (the rest of the cards need no search). */
static inline int choose(int maximise, i64 v, int card, i64 *best, int *best_card, i64 *alpha,
                         i64 *beta) {
    if (maximise) {
        if (v > *best) {
            *best = v, *best_card = card;
            if (v > *alpha) *alpha = v;
        }
    } else if (v < *best) {
        *best = v, *best_card = card;
        if (v < *beta) *beta = v;
    }
    return *alpha >= *beta;
}

static i64 turn(Search *self, St *s, i64 alpha, i64 beta, int first) {
    int pos = s->n, seat = (s->leader + pos) & 3, maximise = self->maximises[seat];
    int cards[16];
    int n = order(self, s, seat, first, cards);
    i64 best = self->worst[seat];
    int best_card = n ? cards[0] : -1;
    for (int i = 0; i < n; i++) {
        int card = cards[i];
        count_node(self);
        u64 bit = BITOF(card);
        s->hands[seat] ^= bit;
        s->trick[s->n++] = card;
        i64 v = pos + 1 == 3 ? last(self, s, alpha, beta) : turn(self, s, alpha, beta, -1);
        s->n--;
        s->hands[seat] |= bit;
        if (choose(maximise, v, card, &best, &best_card, &alpha, &beta)) {
            self->history[seat][card] += (i64)1 << (self->t.n_tricks - s->k);
            break;
        }
    }
    self->best = best_card;
    return best;
}

typedef struct { i64 order; int winner, card; i64 gain; } Choice;

static int choice_cmp(const void *x, const void *y) {
    const Choice *a = x, *b = y;
    if (a->order != b->order) return a->order < b->order ? -1 : 1;
    if (a->winner != b->winner) return a->winner < b->winner ? -1 : 1;
    return a->card < b->card ? -1 : a->card > b->card;
}

/* Search._last_choices: each choice of the trick's last card with what it makes of the
 * trick, best first. */
static int last_choices(Search *self, const St *s, int seat, int maximise, Choice *out) {
    const Tab *t = &self->t;
    int c0 = s->trick[0], c1 = s->trick[1], c2 = s->trick[2];
    int top = c0, pos = 0, suit = SUIT_OF(c0);
    int rest[2] = {c1, c2};
    for (int i = 0; i < 2; i++) {
        int c = rest[i], cs = SUIT_OF(c);
        if (cs == suit) {
            if (c > top) top = c, pos = i + 1;
        } else if (cs == t->trump) {
            top = c, pos = i + 1, suit = cs;
        }
    }
    int holder = (s->leader + pos) & 3;
    i64 worth = t->card_values[c0] + t->card_values[c1] + t->card_values[c2];
    int cards[16];
    int n = representatives(t, s, legal_mask(t, s, seat), seat, cards);
    for (int i = 0; i < n; i++) {
        int c = cards[i], cs = SUIT_OF(c);
        int winner = (cs == suit ? c > top : cs == t->trump) ? seat : holder;
        i64 gain = gain_of(t, s->k, winner, worth + t->card_values[c], s->paid);
        out[i].order = maximise ? -gain : gain;
        out[i].winner = winner;
        out[i].card = c;
        out[i].gain = gain;
    }
    qsort(out, (size_t)n, sizeof(Choice), choice_cmp);
    return n;
}

static i64 last(Search *self, St *s, i64 alpha, i64 beta) {
    const Tab *t = &self->t;
    int seat = (s->leader + 3) & 3, maximise = self->maximises[seat];
    Choice choices[16];
    int n = last_choices(self, s, seat, maximise, choices);
    u64 played = s->played;
    int leader = s->leader, paid = s->paid;
    int t0 = s->trick[0], t1 = s->trick[1], t2 = s->trick[2];
    u64 before = played | BITOF(t0) | BITOF(t1) | BITOF(t2);
    s->n = 0;
    s->k++;
    i64 best = self->worst[seat];
    int best_card = choices[0].card;
    for (int i = 0; i < n; i++) {
        count_node(self);
        int card = choices[i].card;
        i64 gain = choices[i].gain;
        u64 bit = BITOF(card);
        s->hands[seat] ^= bit;
        s->played = before | bit;
        s->leader = choices[i].winner;
        s->paid = paid_after(t, choices[i].winner, paid);
        i64 v = gain + trick_start(self, s, alpha - gain, beta - gain);
        s->hands[seat] |= bit;
        if (choose(maximise, v, card, &best, &best_card, &alpha, &beta)) break;
    }
    s->played = played;
    s->leader = leader;
    s->paid = paid;
    s->trick[0] = t0, s->trick[1] = t1, s->trick[2] = t2;
    s->n = 3;
    s->k--;
    self->best = best_card;
    return best;
}

static i64 trick_end(Search *self, St *s, i64 alpha, i64 beta) {
    const Tab *t = &self->t;
    int winner = (s->leader + trick_winner(s->trick, t->trump)) & 3;
    u64 mask = BITOF(s->trick[0]) | BITOF(s->trick[1]) | BITOF(s->trick[2]) | BITOF(s->trick[3]);
    i64 gain = trick_gain(t, s->k, winner, mask, s->paid);
    u64 played = s->played;
    int leader = s->leader, paid = s->paid, saved[4];
    memcpy(saved, s->trick, sizeof saved);
    s->played |= mask;
    s->k++;
    s->leader = winner;
    s->paid = paid_after(t, winner, paid);
    s->n = 0;
    i64 value = gain + trick_start(self, s, alpha - gain, beta - gain);
    s->played = played;
    s->leader = leader;
    s->paid = paid;
    s->k--;
    memcpy(s->trick, saved, sizeof saved);
    s->n = 4;
    return value;
}

/* Search._child: plays ``card`` for the seat to play, values what follows, takes it back. */
static i64 child(Search *self, St *s, int card, i64 alpha, i64 beta) {
    count_node(self);
    int seat = (s->leader + s->n) & 3;
    u64 bit = BITOF(card);
    s->hands[seat] ^= bit;
    s->trick[s->n++] = card;
    i64 value = s->n == 4 ? trick_end(self, s, alpha, beta)
                : s->n == 3 ? last(self, s, alpha, beta) : turn(self, s, alpha, beta, -1);
    s->n--;
    s->hands[seat] |= bit;
    return value;
}

/* --- reading Python values -------------------------------------------------------------- */

static int get_u64(PyObject *seq, Py_ssize_t i, u64 *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    Py_DECREF(item);
    if (PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int get_i64(PyObject *seq, Py_ssize_t i, i64 *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long long v = PyLong_AsLongLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int get_int(PyObject *seq, Py_ssize_t i, int *out) {
    i64 v;
    if (get_i64(seq, i, &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

/* The table from native.py's flat tuple (see native._packed for the order). */
static int read_table(PyObject *p, Tab *t) {
    memset(t, 0, sizeof *t);
    PyObject *values = NULL, *classes = NULL, *follow = NULL, *voids = NULL;
    if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 29) {
        PyErr_SetString(PyExc_ValueError, "the table: a tuple of 29 items");
        return -1;
    }
    if (get_u64(p, 0, &t->deck) || get_int(p, 1, &t->trump) || get_int(p, 2, &t->n_tricks)
        || get_int(p, 3, &t->seat))
        return -1;
    values = PyTuple_GET_ITEM(p, 4);
    classes = PyTuple_GET_ITEM(p, 5);
    for (int c = 0; c < 52; c++)
        if (get_i64(values, c, &t->card_values[c]) || get_u64(classes, c, &t->same_class[c]))
            return -1;
    if (get_i64(p, 6, &t->trick_value) || get_i64(p, 7, &t->last_value)
        || get_int(p, 8, &t->ends_early) || get_u64(p, 9, &t->scoring_mask)
        || get_int(p, 10, &t->owner) || get_int(p, 11, &t->buyer)
        || get_i64(p, 12, &t->per_trick) || get_i64(p, 13, &t->most)
        || get_int(p, 14, &t->hearts_lead) || get_int(p, 15, &t->hearts_breakable)
        || get_int(p, 16, &t->kh_lead) || get_int(p, 17, &t->trump_lead)
        || get_int(p, 18, &t->kh_discard_from) || get_int(p, 19, &t->kh_first_trick)
        || get_int(p, 20, &t->hearts_first_trick) || get_int(p, 21, &t->trump_mode)
        || get_u64(p, 22, &t->penalty_mask) || get_int(p, 23, &t->penalty_heart)
        || get_int(p, 24, &t->penalty_drop) || get_int(p, 25, &t->must_overtake)
        || get_u64(p, 26, &t->lead_mask))
        return -1;
    follow = PyTuple_GET_ITEM(p, 27);
    voids = PyTuple_GET_ITEM(p, 28);
    for (int s = 0; s < 4; s++)
        if (get_u64(follow, s, &t->follow_by_suit[s]) || get_u64(voids, s, &t->void_by_suit[s]))
            return -1;
    if (t->n_tricks < 1 || t->n_tricks > 13 || t->seat < 0 || t->seat > 3
        || t->trump < -1 || t->trump > 3) {
        PyErr_SetString(PyExc_ValueError, "the table: tricks, seat or trump out of range");
        return -1;
    }
    /* _trick_bounds */
    for (int k = 0; k <= t->n_tricks; k++) {
        i64 lo = 0, hi = 0;
        for (int j = k; j < t->n_tricks; j++) {
            i64 v = t->trick_value + (j >= t->n_tricks - 2 ? t->last_value : 0);
            lo += v < 0 ? v : 0;
            hi += v > 0 ? v : 0;
        }
        t->trick_lo[k] = lo;
        t->trick_hi[k] = hi;
    }
    /* _value_masks */
    for (int c = 0; c < 52; c++) {
        i64 v = t->card_values[c];
        if (!v) continue;
        int i = 0;
        while (i < t->n_masks && t->mask_value[i] != v) i++;
        if (i == t->n_masks) t->mask_value[t->n_masks++] = v;
        t->mask_cards[i] |= BITOF(c);
    }
    /* _valued_cards */
    if (t->trick_value || t->last_value || t->per_trick) {
        t->valued = t->deck;
    } else {
        for (int c = 0; c < 52; c++)
            if (t->card_values[c]) t->valued |= BITOF(c);
        t->valued &= t->deck;
    }
    /* _key_classes: worth, K♥, penalty card, scoring card, numbered as first met */
    i64 seen_value[52];
    int seen_flags[52], n_seen = 0;
    for (int c = 0; c < 52; c++) {
        int flags = (c == KH) | ((t->penalty_mask & BITOF(c)) ? 2 : 0)
                    | ((t->scoring_mask & BITOF(c)) ? 4 : 0);
        int i = 0;
        while (i < n_seen && !(seen_value[i] == t->card_values[c] && seen_flags[i] == flags)) i++;
        if (i == n_seen) {
            seen_value[n_seen] = t->card_values[c];
            seen_flags[n_seen++] = flags;
        }
        t->cls[c] = i;
    }
    if (n_seen > 16) {
        PyErr_SetString(PyExc_ValueError, "the table: more than 16 classes of cards");
        return -1;
    }
    return 0;
}

/* A State (search_table.State) read into a C state. */
static int read_state(PyObject *state, St *s) {
    memset(s, 0, sizeof *s);
    PyObject *hands = PyObject_GetAttrString(state, "hands");
    PyObject *trick = hands ? PyObject_GetAttrString(state, "trick") : NULL;
    PyObject *played = trick ? PyObject_GetAttrString(state, "played") : NULL;
    int ok = played != NULL;
    if (ok) {
        for (int i = 0; i < 4 && ok; i++) ok = get_u64(hands, i, &s->hands[i]) == 0;
        Py_ssize_t n = ok ? PySequence_Size(trick) : -1;
        ok = ok && n >= 0 && n < 4;
        for (Py_ssize_t i = 0; ok && i < n; i++) ok = get_int(trick, i, &s->trick[i]) == 0;
        s->n = (int)n;
        unsigned long long pl = ok ? PyLong_AsUnsignedLongLong(played) : 0;
        ok = ok && !PyErr_Occurred();
        s->played = pl;
    }
    Py_XDECREF(hands);
    Py_XDECREF(trick);
    Py_XDECREF(played);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the state: a trick of 0-3 cards");
        return -1;
    }
    const char *names[3] = {"k", "leader", "paid"};
    int *fields[3] = {&s->k, &s->leader, &s->paid};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyObject_GetAttrString(state, names[i]);
        if (!v) return -1;
        long x = PyLong_AsLong(v);
        Py_DECREF(v);
        if (x == -1 && PyErr_Occurred()) return -1;
        *fields[i] = (int)x;
    }
    u64 cards = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3] | s->played;
    for (int i = 0; i < s->n; i++)
        if (s->trick[i] < 0 || s->trick[i] > 51) cards |= (u64)1 << 63;
    if (cards >> 52 || s->k < 0 || s->k > 13 || s->paid < 0 || s->paid > 13) {
        PyErr_SetString(PyExc_ValueError, "the state: a card, trick or count out of range");
        return -1;
    }
    return 0;
}

/* --- the Python type -------------------------------------------------------------------- */

static PyObject *OutOfTime;   /* solver.OutOfTime, given by native.py */

static int Search_init(Search *self, PyObject *args, PyObject *kwds) {
    PyObject *table;
    int possible, horizon;
    double seconds;
    long long clock_mask = CLOCK_MASK;
    static char *kwlist[] = {"table", "possible", "horizon", "seconds", "clock_mask", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Opid|L", kwlist, &table, &possible, &horizon,
                                     &seconds, &clock_mask))
        return -1;
    self->clock_mask = clock_mask;
    if (read_table(table, &self->t) < 0) return -1;
    self->possible = possible;
    self->horizon = horizon;
    self->deadline = now_s() + seconds;
    self->cut = 0;
    self->nodes = 0;
    self->best = -1;
    memset(self->history, 0, sizeof self->history);
    for (int seat = 0; seat < 4; seat++) {
        self->maximises[seat] = possible || seat == self->t.seat;
        self->worst[seat] = self->maximises[seat] ? -INF_V : INF_V;
    }
    return 0;
}

static void Search_dealloc(Search *self) {
    free(self->pats.slots);
    free(self->tt.slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* After a longjmp: the exception that says why the search stopped. */
static PyObject *stopped(Search *self) {
    if (self->stop_reason == 2) return PyErr_NoMemory();
    PyErr_SetNone(OutOfTime ? OutOfTime : PyExc_TimeoutError);
    return NULL;
}

/* MTD(f) from ``guess`` (solver.Search.value_after) into [*lo, *hi]; 0, or why it stopped.
 * Runs without the GIL: it reads and writes only the search's own C memory. */
static int run_value_after(Search *self, const St *s0, int card, i64 *lo, i64 *hi, i64 guess) {
    if (setjmp(self->stop)) return self->stop_reason;
    i64 value = max64(*lo, min64(*hi, guess));
    while (*lo < *hi) {
        i64 beta = value == *lo ? value + 1 : value;
        St work = *s0;
        value = child(self, &work, card, beta - 1, beta);
        if (value < beta) *hi = value;
        else *lo = value;
    }
    return 0;
}

static int run_child(Search *self, St *s, int card, i64 alpha, i64 beta, i64 *value) {
    if (setjmp(self->stop)) return self->stop_reason;
    *value = child(self, s, card, alpha, beta);
    return 0;
}

static PyObject *Search_value_after(Search *self, PyObject *args) {
    PyObject *state;
    int card, status;
    long long lo, hi, guess;
    if (!PyArg_ParseTuple(args, "OiLLL", &state, &card, &lo, &hi, &guess)) return NULL;
    St s0;
    if (read_state(state, &s0) < 0) return NULL;
    if (card < 0 || card > 51) {
        PyErr_SetString(PyExc_ValueError, "a card out of range");
        return NULL;
    }
    i64 vlo = lo, vhi = hi;
    Py_BEGIN_ALLOW_THREADS
    status = run_value_after(self, &s0, card, &vlo, &vhi, guess);
    Py_END_ALLOW_THREADS
    if (status) return stopped(self);
    return PyLong_FromLongLong(vlo);
}

static PyObject *Search_child(Search *self, PyObject *args) {
    PyObject *state;
    int card, status;
    long long alpha, beta;
    if (!PyArg_ParseTuple(args, "OiLL", &state, &card, &alpha, &beta)) return NULL;
    St s;
    if (read_state(state, &s) < 0) return NULL;
    if (card < 0 || card > 51) {
        PyErr_SetString(PyExc_ValueError, "a card out of range");
        return NULL;
    }
    i64 value = 0;
    Py_BEGIN_ALLOW_THREADS
    status = run_child(self, &s, card, alpha, beta, &value);
    Py_END_ALLOW_THREADS
    if (status) return stopped(self);
    return PyLong_FromLongLong(value);
}

static PyObject *Search_settled(Search *self, PyObject *state) {
    St s;
    if (read_state(state, &s) < 0) return NULL;
    return PyBool_FromLong(settled(self, &s));
}

static PyObject *Search_legal(Search *self, PyObject *args) {
    PyObject *state;
    int seat;
    if (!PyArg_ParseTuple(args, "Oi", &state, &seat)) return NULL;
    St s;
    if (read_state(state, &s) < 0) return NULL;
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "a seat out of range");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(legal_mask(&self->t, &s, seat));
}

static PyObject *Search_get_cut(Search *self, void *closure) { return PyBool_FromLong(self->cut); }
static PyObject *Search_get_nodes(Search *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

static PyMethodDef Search_methods[] = {
    {"value_after", (PyCFunction)Search_value_after, METH_VARARGS,
     "value_after(state, card, lo, hi, guess): as solver.Search.value_after"},
    {"child", (PyCFunction)Search_child, METH_VARARGS,
     "child(state, card, alpha, beta): as solver.Search.child"},
    {"settled", (PyCFunction)Search_settled, METH_O, "settled(state): as solver.Search.settled"},
    {"legal", (PyCFunction)Search_legal, METH_VARARGS,
     "legal(state, seat): as search_table.legal_mask"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"cut", (getter)Search_get_cut, NULL, "a horizon stopped some line", NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "cards played by the search", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "app.rules.search._core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "solver.Search compiled",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static PyObject *set_out_of_time(PyObject *module, PyObject *cls) {
    Py_XDECREF(OutOfTime);
    Py_INCREF(cls);
    OutOfTime = cls;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_out_of_time", set_out_of_time, METH_O,
     "set_out_of_time(cls): the exception a search past its deadline raises"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_core", "solver.Search compiled (see _core.c)", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int s = 0; s < 4; s++) SUIT_MASK[s] = (u64)0x1FFF << (13 * s);
    for (int c = 0; c < 52; c++) {
        u64 sm = SUIT_MASK[c / 13];
        ABOVE[c] = sm & ~((BITOF(c) << 1) - 1);
        BELOW[c] = sm & (BITOF(c) - 1);
    }
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
