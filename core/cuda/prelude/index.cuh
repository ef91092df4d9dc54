// ---- indexing: gathers, deterministic scatters, stream compaction --------
// Layout of cn_cu_igeom (core/cuda/index_plan.h); element strides. st[0]
// the iterated operand, st[1] the indexed array (its axis entry is the step
// of one index), st[2] the int64 index array.
struct cn_igeom {
  int ndim, axis;
  long long shape[CN_MAX_DIMS];
  long long st[3][CN_MAX_DIMS];
};

// Offsets of C-order element i: of the iterated operand (*oi), of the index
// (*ox) and of the indexed array without its axis term (*ot), the same
// arithmetic as cn_ew_strided.
CN_DEV void cn_igeom_offs(const cn_igeom &g, long long i, long long *oi,
                          long long *ot, long long *ox) {
  long long r = i, a = 0, b = 0, c = 0;
  for (int d = g.ndim - 1; d >= 0; d--) {
    long long e = g.shape[d];
    long long k = r % e;
    r /= e;
    a += k * g.st[0][d];
    if (d != g.axis)
      b += k * g.st[1][d];
    c += k * g.st[2][d];
  }
  *oi = a;
  *ot = b;
  *ox = c;
}

// Index modes (CN_INDEX_RAISE / WRAP / CLIP of include/cunumpy/index.h).
#define CN_IDX_RAISE 0
#define CN_IDX_WRAP 1
#define CN_IDX_CLIP 2

// v folded into [0, extent) under mode; false (RAISE only) when v is
// outside [-extent, extent). The host rule of cn_idx_normalize.
CN_DEV bool cn_idx_fold(long long v, long long extent, int mode,
                        long long *out) {
  if (mode == CN_IDX_WRAP && extent > 0) {
    v %= extent;
    if (v < 0)
      v += extent;
  } else if (mode == CN_IDX_CLIP && extent > 0) {
    v = v < 0 ? 0 : (v >= extent ? extent - 1 : v);
  } else {
    if (v < 0 && v >= -extent)
      v += extent;
    if (v < 0 || v >= extent)
      return false;
  }
  *out = v;
  return true;
}

// Kernel bodies that use device built-ins are templates (a dummy parameter,
// or the atomic's operand type so that the call is dependent), so that the
// host compilation of the prelude (tests/cuda/prelude_host.cu) never
// instantiates them.

// Normalises idx in place; an out-of-range entry is left as it is and its
// position lowered into *bad (atomicMin), so the record names the first
// offending position whatever the scheduling.
template <class U>
CN_DEV void cn_idx_normalize(long long n, long long *idx, long long extent,
                             int mode, U *bad) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long v;
    if (cn_idx_fold(idx[i], extent, mode, &v))
      idx[i] = v;
    else
      atomicMin(bad, (U)i);
  }
}

// Element copies by size: a gather or scatter moves bytes, whatever the
// dtype.
struct cn_b16 {
  cn_u64 lo, hi;
};

template <class T>
CN_DEV void cn_gather(long long n, const cn_igeom &g, T *out, const T *a,
                      const long long *idx) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long oi, ot, ox;
    cn_igeom_offs(g, i, &oi, &ot, &ox);
    out[oi] = a[ot + idx[ox] * g.st[1][g.axis]];
  }
}

// Deterministic scatter, pass 1: every destination keeps the largest
// (1-based) C-order position that writes it. Positions grow with the index
// order, so the largest is the last write of the CPU's loop.
template <class U>
CN_DEV void cn_scatter_claim(long long n, const cn_igeom &g,
                             const long long *idx, long long lo, U *win) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long oi, ot, ox;
    cn_igeom_offs(g, i, &oi, &ot, &ox);
    atomicMax(&win[ot + idx[ox] * g.st[1][g.axis] - lo], (U)i + 1);
  }
}

// Pass 2: only the winner of each destination writes it.
template <class T>
CN_DEV void cn_scatter_write(long long n, const cn_igeom &g, T *a, const T *v,
                             const long long *idx, long long lo,
                             const unsigned long long *win) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long oi, ot, ox;
    cn_igeom_offs(g, i, &oi, &ot, &ox);
    long long o = ot + idx[ox] * g.st[1][g.axis];
    if (win[o - lo] == (unsigned long long)i + 1)
      a[o] = v[oi];
  }
}

// Without claims (a huge destination span): one thread writes every value
// in index order, so the last write stays.
template <class T>
CN_DEV void cn_scatter_serial(long long n, const cn_igeom &g, T *a,
                              const T *v, const long long *idx) {
  if (blockIdx.x != 0 || threadIdx.x != 0)
    return;
  for (long long i = 0; i < n; i++) {
    long long oi, ot, ox;
    cn_igeom_offs(g, i, &oi, &ot, &ox);
    a[ot + idx[ox] * g.st[1][g.axis]] = v[oi];
  }
}

// ---- stream compaction ------------------------------------------------------
// A tile is CN_CMP_THREADS threads x CN_CMP_ITEMS consecutive elements (one
// block); thread t owns elements [t * ITEMS, (t + 1) * ITEMS) of its tile,
// so an exclusive scan of the thread counts gives C-order output slots.
// CN_CU_CMP_* in core/cuda/index_plan.h.
#define CN_CMP_THREADS 256
#define CN_CMP_ITEMS 4
#define CN_CMP_TILE (CN_CMP_THREADS * CN_CMP_ITEMS)

// First element of thread t's run in tile `tile`.
CN_DEV long long cn_cmp_first(long long tile, int t) {
  return tile * CN_CMP_TILE + (long long)t * CN_CMP_ITEMS;
}

// One Hillis-Steele step of an inclusive scan over CN_CMP_THREADS values:
// out[t] = in[t] + in[t - off]. The block runs the steps off = 1, 2, ...,
// THREADS / 2 between two buffers, with a barrier after each.
CN_DEV void cn_cmp_scan_step(const long long *in, long long *out, int t,
                             int off) {
  out[t] = in[t] + (t >= off ? in[t - off] : 0);
}

// Exclusive scan of v over the block; *total gets the sum. sh holds
// 2 * CN_CMP_THREADS entries.
template <int UNUSED>
CN_DEV long long cn_block_excl_scan(long long v, long long *sh,
                                    long long *total) {
  int t = threadIdx.x;
  sh[t] = v;
  CN_SYNC();
  int src = 0;
  for (int off = 1; off < CN_CMP_THREADS; off <<= 1) {
    cn_cmp_scan_step(sh + src * CN_CMP_THREADS,
                     sh + (1 - src) * CN_CMP_THREADS, t, off);
    src = 1 - src;
    CN_SYNC();
  }
  long long incl = sh[src * CN_CMP_THREADS + t];
  *total = sh[src * CN_CMP_THREADS + CN_CMP_THREADS - 1];
  CN_SYNC(); // sh is reused by the caller's next scan
  return incl - v;
}

// Selected elements of thread t's run (P: bool operator()(long long i)).
template <class P>
CN_DEV long long cn_cmp_thread_count(const P &pred, long long n,
                                     long long tile, int t) {
  long long c = 0, i0 = cn_cmp_first(tile, t);
  for (int k = 0; k < CN_CMP_ITEMS; k++)
    if (i0 + k < n && pred(i0 + k))
      c++;
  return c;
}

// Kernel body: counts[tile] = selected elements of the tile.
template <class P>
CN_DEV void cn_cmp_count(const P &pred, long long n, long long *counts) {
  CN_SHARED long long sh[2 * CN_CMP_THREADS];
  for (long long tile = blockIdx.x; tile * CN_CMP_TILE < n;
       tile += gridDim.x) {
    long long total;
    cn_block_excl_scan<0>(cn_cmp_thread_count(pred, n, tile, threadIdx.x), sh,
                          &total);
    if (threadIdx.x == 0)
      counts[tile] = total;
  }
}

// Kernel body, one scan level: x[0, len) scanned in place (exclusive) tile
// by tile; upper[tile] = the tile's total.
template <int UNUSED>
CN_DEV void cn_cmp_scan_tile(long long len, long long *x, long long *upper) {
  CN_SHARED long long sh[2 * CN_CMP_THREADS];
  for (long long tile = blockIdx.x; tile * CN_CMP_TILE < len;
       tile += gridDim.x) {
    long long i0 = cn_cmp_first(tile, threadIdx.x), run = 0, total;
    for (int k = 0; k < CN_CMP_ITEMS; k++)
      if (i0 + k < len)
        run += x[i0 + k];
    long long acc = cn_block_excl_scan<0>(run, sh, &total);
    for (int k = 0; k < CN_CMP_ITEMS; k++)
      if (i0 + k < len) {
        long long v = x[i0 + k];
        x[i0 + k] = acc;
        acc += v;
      }
    if (threadIdx.x == 0)
      upper[tile] = total;
  }
}

// Kernel body, down-sweep: x[i] += upper[i / TILE] (upper scanned).
template <int UNUSED>
CN_DEV void cn_cmp_scan_add(long long len, long long *x,
                            const long long *upper) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < len;
       i += (long long)gridDim.x * blockDim.x)
    x[i] += upper[i / CN_CMP_TILE];
}

// Kernel body: each selected element i goes to slot offs[tile] + (selected
// before it in the tile) through W: void operator()(long long slot,
// long long i).
template <class P, class W>
CN_DEV void cn_cmp_scatter(const P &pred, const W &write, long long n,
                           const long long *offs) {
  CN_SHARED long long sh[2 * CN_CMP_THREADS];
  for (long long tile = blockIdx.x; tile * CN_CMP_TILE < n;
       tile += gridDim.x) {
    long long total;
    long long slot =
        offs[tile] + cn_block_excl_scan<0>(
                         cn_cmp_thread_count(pred, n, tile, threadIdx.x), sh,
                         &total);
    long long i0 = cn_cmp_first(tile, threadIdx.x);
    for (int k = 0; k < CN_CMP_ITEMS; k++)
      if (i0 + k < n && pred(i0 + k))
        write(slot++, i0 + k);
  }
}

// Predicates and writers of the two compactions.
template <class T> struct cn_nz_pred {
  const T *a;
  const cn_igeom *g;
  CN_DEV bool operator()(long long i) const {
    long long oi, ot, ox;
    cn_igeom_offs(*g, i, &oi, &ot, &ox);
    return cn_cast<bool>(a[oi]);
  }
};
struct cn_mask_pred {
  const cn_u8 *m;
  CN_DEV bool operator()(long long i) const { return m[i] != 0; }
};
struct cn_pos_writer {
  long long *out;
  CN_DEV void operator()(long long slot, long long i) const { out[slot] = i; }
};
template <class T> struct cn_copy_writer {
  T *out;
  const T *a;
  CN_DEV void operator()(long long slot, long long i) const {
    out[slot] = a[i];
  }
};
