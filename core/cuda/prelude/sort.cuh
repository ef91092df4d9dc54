
// ---- sort: the passes of an LSD radix sort (core/cuda/sort.c runs them) ---
// Keys are the order-preserving maps of core/sort_key_bits.h (part of this
// prelude, just before). The geometry (RADIX, THREADS, ITEMS) comes from
// core/cuda/sort_plan.h through the generated wrappers. Each kernel is a
// sequence of steps separated by barriers, written with CN_STEP_BEGIN /
// CN_STEP_END and per-thread state in CN_TLOCAL arrays so that
// tests/cuda/sort_host.cu can run the same code on the CPU, one thread
// after another within each step.
#ifndef CN_STEP_BEGIN
#define CN_STEP_BEGIN(t, NT) {const int t = (int)threadIdx.x;
#define CN_STEP_END } CN_SYNC();
#define CN_TLOCAL(NT) 1
#define CN_TL(t) 0
#define CN_ATOM_ADD(p, v) atomicAdd((p), (v))
#define CN_ATOM_OR(p, v) atomicOr((p), (v))
#define CN_ATOM_AND(p, v) atomicAnd((p), (v))
#define CN_POPC(x) cn_sort_popc(x)
#endif
// A template, so that a host compilation of the prelude that does not
// instantiate the sort (tests/cuda/prelude_host.cu) never sees __popc.
template <class T> CN_DEV int cn_sort_popc(T x) { return __popc(x); }

// Element kinds of the key maps.
#define CN_SK_UNSIGNED 0
#define CN_SK_SIGNED 1
#define CN_SK_FLOAT 2
#define CN_SK_BOOL 3
#define CN_SK_WORD_SEGMENT 3 // CN_SORT_WORD_SEGMENT of sort_plan.h

template <int KIND, class U> CN_DEV cn_u64 cn_sk_key(U u, bool canon) {
  if (KIND == CN_SK_SIGNED)
    return cn_key_signed((cn_u64)u, (int)sizeof(U) * 8);
  if (KIND == CN_SK_BOOL)
    return u != 0;
  if (KIND == CN_SK_FLOAT)
    return sizeof(U) == 8 ? cn_key_bits64((cn_u64)u, canon)
                          : cn_key_bits32((cn_u32)u, canon);
  return (cn_u64)u;
}

// Key word `word` of element e (lane-major, lanes of n): real dtypes have
// one word (the key; canon: -0.0 equals 0.0); complex three, least
// significant first: imaginary key, real key, NaN class (0 none, 1 NaN
// imaginary part, 2 NaN real part, 3 both) -- NumPy's order, as
// cn_cplx_less of core/sort_keys.h; CN_SK_WORD_SEGMENT is the lane.
template <int KIND, class U, bool CPLX>
CN_DEV cn_u64 cn_sk_word(const U *src, long long e, long long n, int word,
                         bool canon) {
  if (word == CN_SK_WORD_SEGMENT)
    return (cn_u64)(e / n);
  if (!CPLX)
    return cn_sk_key<KIND, U>(src[e], canon);
  cn_u64 kr = cn_sk_key<KIND, U>(src[2 * e], true);
  cn_u64 ki = cn_sk_key<KIND, U>(src[2 * e + 1], true);
  if (word == 0)
    return ki;
  if (word == 1)
    return kr;
  const cn_u64 nan_key = sizeof(U) == 8 ? ~0ull : 0xffffffffull;
  return (cn_u64)((kr == nan_key) * 2 + (ki == nan_key));
}

// AND and OR of every key word (acc[w], acc[4 + w]) over the elements
// i = t0, t0 + nt, ... < total, into the running values in acc.
template <int KIND, class U, bool CPLX>
CN_DEV void cn_sort_bits_run(const U *src, long long total, long long n,
                             bool canon, long long t0, long long nt,
                             cn_u64 *acc) {
  const int nw = CPLX ? 3 : 1;
  for (long long e = t0; e < total; e += nt)
    for (int w = 0; w < nw; w++) {
      cn_u64 k = cn_sk_word<KIND, U, CPLX>(src, e, n, w, canon);
      acc[w] &= k;
      acc[4 + w] |= k;
    }
}

// keys[i] = word of element perm[i] (with init: of element base + i, and
// perm[i] = base + i), i < len; keys and perm point at the sort's range.
template <int KIND, class U, bool CPLX>
CN_DEV void cn_sort_keys_at(const U *src, long long *perm, cn_u64 *keys,
                            long long base, long long n, int word, bool canon,
                            bool init, long long i) {
  long long e = init ? base + i : perm[i];
  if (init)
    perm[i] = e;
  keys[i] = cn_sk_word<KIND, U, CPLX>(src, e, n, word, canon);
}

// Output of sorted position p (lane = p / n): the position within its lane
// into vperm, the value into vals (C-contiguous outputs of the input's
// shape, q = extent after the axis). roundtrip (real vals-only sorts, as
// the CPU): the value rebuilt from its non-canonical key (NaNs canonical).
template <int KIND, class U, bool CPLX>
CN_DEV void cn_sort_out_at(const U *src, const long long *perm, long long n,
                           long long q, U *vals, long long *vperm,
                           bool roundtrip, long long p) {
  long long e = perm[p], lane = p / n, i = p - lane * n;
  long long o = (lane / q) * n * q + lane % q + i * q;
  if (vperm)
    vperm[o] = e - lane * n;
  if (!vals)
    return;
  if (CPLX) {
    vals[2 * o] = src[2 * e];
    vals[2 * o + 1] = src[2 * e + 1];
    return;
  }
  U u = src[e];
  if (roundtrip) {
    if (KIND == CN_SK_FLOAT)
      u = sizeof(U) == 8 ? (U)cn_unkey_bits64(cn_key_bits64((cn_u64)u, false))
                         : (U)cn_unkey_bits32(cn_key_bits32((cn_u32)u, false));
    else if (KIND == CN_SK_BOOL)
      u = (U)(u != 0);
  }
  vals[o] = u;
}

// Histogram of the digit at `shift` of keys[0, len) per tile (block b):
// counts[d * tiles + b], the layout whose exclusive scan in order gives
// each (digit, tile) its first output position.
template <int RADIX, int THREADS, int ITEMS>
CN_DEV void cn_sort_hist_block(const cn_u64 *keys, long long len, int shift,
                               long long tiles, long long *counts,
                               long long b) {
  CN_SHARED unsigned int h[RADIX];
  CN_STEP_BEGIN(t, THREADS)
  for (int d = t; d < RADIX; d += THREADS)
    h[d] = 0;
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  long long lo = b * (long long)(THREADS * ITEMS);
  for (int k = 0; k < ITEMS; k++) {
    long long i = lo + (long long)k * THREADS + t;
    if (i < len)
      CN_ATOM_ADD(&h[(keys[i] >> shift) & (RADIX - 1)], 1u);
  }
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  for (int d = t; d < RADIX; d += THREADS)
    counts[(long long)d * tiles + b] = h[d];
  CN_STEP_END
}

// Exclusive scan of row d (block d) of counts, in place, and the row's sum
// into totals[d]: each thread scans a run of the row, thread 0 the runs.
template <int THREADS>
CN_DEV void cn_sort_scan_block(long long *counts, long long tiles,
                               long long *totals, long long d) {
  CN_SHARED long long part[THREADS];
  long long *row = counts + d * tiles;
  long long run = (tiles + THREADS - 1) / THREADS;
  CN_STEP_BEGIN(t, THREADS)
  long long s = 0;
  for (long long j = t * run; j < (t + 1) * run && j < tiles; j++)
    s += row[j];
  part[t] = s;
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  if (t == 0) {
    long long s = 0;
    for (int u = 0; u < THREADS; u++) {
      long long c = part[u];
      part[u] = s;
      s += c;
    }
    totals[d] = s;
  }
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  long long s = part[t];
  for (long long j = t * run; j < (t + 1) * run && j < tiles; j++) {
    long long c = row[j];
    row[j] = s;
    s += c;
  }
  CN_STEP_END
}

// Per-thread state of the scatter between its steps.
struct cn_sort_lane {
  cn_u64 key;
  long long perm;
  int digit, rank;
  bool valid, last;
};

// Stable scatter of tile b by the digit at `shift`: the tile's elements go,
// in rounds of THREADS, to their digit's next positions (scanned counts
// plus the digit's base, the exclusive scan of totals). Within a round a
// thread's rank among equal digits counts the lower threads with that digit
// (bit masks per digit), so equal keys keep their order.
template <int RADIX, int THREADS, int ITEMS>
CN_DEV void cn_sort_scatter_block(const cn_u64 *kin, const long long *pin,
                                  cn_u64 *kout, long long *pout, long long len,
                                  int shift, long long tiles,
                                  const long long *counts,
                                  const long long *totals, long long b) {
  const int W = THREADS / 32;
  CN_SHARED long long off[RADIX];
  CN_SHARED unsigned int mask[RADIX * W];
  cn_sort_lane st[CN_TLOCAL(THREADS)];
  CN_STEP_BEGIN(t, THREADS)
  for (int d = t; d < RADIX; d += THREADS) {
    off[d] = totals[d];
    for (int w = 0; w < W; w++)
      mask[d * W + w] = 0;
  }
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  if (t == 0) {
    long long s = 0;
    for (int d = 0; d < RADIX; d++) {
      long long c = off[d];
      off[d] = s;
      s += c;
    }
  }
  CN_STEP_END
  CN_STEP_BEGIN(t, THREADS)
  for (int d = t; d < RADIX; d += THREADS)
    off[d] += counts[(long long)d * tiles + b];
  CN_STEP_END
  long long lo = b * (long long)(THREADS * ITEMS);
  for (int r = 0; r < ITEMS; r++) {
    CN_STEP_BEGIN(t, THREADS)
    cn_sort_lane &s = st[CN_TL(t)];
    long long i = lo + (long long)r * THREADS + t;
    s.valid = i < len;
    if (s.valid) {
      s.key = kin[i];
      s.perm = pin[i];
      s.digit = (int)((s.key >> shift) & (RADIX - 1));
      CN_ATOM_OR(&mask[s.digit * W + t / 32], 1u << (t % 32));
    }
    CN_STEP_END
    CN_STEP_BEGIN(t, THREADS)
    cn_sort_lane &s = st[CN_TL(t)];
    if (s.valid) {
      const unsigned int *m = mask + s.digit * W;
      int w0 = t / 32, rank = 0;
      bool above = (m[w0] >> (t % 32)) >> 1 != 0;
      for (int w = 0; w < w0; w++)
        rank += CN_POPC(m[w]);
      for (int w = w0 + 1; w < W; w++)
        above = above || m[w] != 0;
      rank += CN_POPC(m[w0] & ((1u << (t % 32)) - 1u));
      long long pos = off[s.digit] + rank;
      kout[pos] = s.key;
      pout[pos] = s.perm;
      s.rank = rank;
      s.last = !above;
    }
    CN_STEP_END
    CN_STEP_BEGIN(t, THREADS)
    cn_sort_lane &s = st[CN_TL(t)];
    if (s.valid && s.last) { // the digit's last thread: advance and clear
      off[s.digit] += s.rank + 1;
      for (int w = 0; w < W; w++)
        mask[s.digit * W + w] = 0;
    }
    CN_STEP_END
  }
}
