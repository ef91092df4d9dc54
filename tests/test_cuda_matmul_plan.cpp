// The CUDA matmul planner (core/cuda/matmul_plan.c), on the CPU: each plan
// is checked against cuBLAS's rules (leading dimensions, batch strides) and
// then executed by a host emulation of cuBLAS's column-major strided-
// batched gemm (packing, transpose and conjugate flags, host loops); the
// result must equal a naive triple loop over the original strided operands,
// and no element outside out may be written. Selected layouts also pin the
// plan itself (no copy for transposed views, conj as op C, packing for
// negative strides).
#include <catch2/catch.hpp>

#include <climits>
#include <complex>
#include <cstring>
#include <vector>

#include "cuda/matmul_plan.h"

using cx = std::complex<double>;

namespace {

// One strided operand over its own buffer; strides in elements.
struct operand {
  std::vector<int64_t> shape, strides;
  std::vector<cx> buf;
  int64_t base = 0; // buffer index of element (0, ..., 0)
};

operand make_operand(std::vector<int64_t> shape, std::vector<int64_t> strides,
                     int seed) {
  operand o{shape, strides, {}, 0};
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < shape.size(); i++) {
    if (shape[i] == 0)
      continue;
    int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? lo : hi) += span;
  }
  o.base = -lo;
  o.buf.resize((size_t)(hi - lo + 1));
  for (size_t i = 0; i < o.buf.size(); i++)
    o.buf[i] = cx((double)((int64_t)(i * 7 + (size_t)seed * 3) % 11 - 5),
                  (double)((int64_t)(i * 5 + (size_t)seed) % 7 - 3));
  return o;
}

// C-order strides of shape, optionally with axes permuted afterwards.
std::vector<int64_t> c_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i] > 1 ? shape[i] : 1;
  }
  return s;
}

std::vector<int64_t> f_matrix_strides(const std::vector<int64_t> &shape) {
  // column-major matrices, batches outermost (C order over the batch)
  size_t nd = shape.size();
  std::vector<int64_t> s(nd);
  int64_t r = shape[nd - 2] > 1 ? shape[nd - 2] : 1;
  int64_t c = shape[nd - 1] > 1 ? shape[nd - 1] : 1;
  s[nd - 2] = 1;
  s[nd - 1] = r;
  int64_t step = r * c;
  for (size_t i = nd - 2; i-- > 0;) {
    s[i] = step;
    step *= shape[i] > 1 ? shape[i] : 1;
  }
  return s;
}

struct problem {
  std::vector<int64_t> batch;
  int64_t m, n, k;
  bool conj = false;
};

cn_mm_geom geom_of(const problem &p, const operand &a, const operand &b,
                   const operand &out) {
  cn_mm_geom g;
  std::memset(&g, 0, sizeof g);
  g.nbatch = (int32_t)p.batch.size();
  for (size_t i = 0; i < p.batch.size(); i++)
    g.batch_shape[i] = p.batch[i];
  g.m = p.m, g.n = p.n, g.k = p.k;
  const operand *ops[3] = {&a, &b, &out};
  for (int op = 0; op < 3; op++)
    for (size_t i = 0; i < ops[op]->strides.size(); i++)
      g.strides[op][i] = ops[op]->strides[i];
  g.conj_a = p.conj;
  return g;
}

// Calls f(offset of the batch index in each operand, batch index) for every
// batch index, in C order.
template <class F>
void for_batch(const std::vector<int64_t> &batch, const int64_t *const st[3],
               F f) {
  int64_t total = 1;
  for (int64_t e : batch)
    total *= e;
  for (int64_t t = 0; t < total; t++) {
    int64_t rem = t, off[3] = {0, 0, 0};
    for (size_t i = batch.size(); i-- > 0;) {
      int64_t idx = rem % batch[i];
      rem /= batch[i];
      for (int op = 0; op < 3; op++)
        off[op] += idx * st[op][i];
    }
    f(off);
  }
}

// out = op(a) @ b directly from the strided operands.
std::vector<cx> naive(const problem &p, const operand &a, const operand &b,
                      const operand &out) {
  std::vector<cx> r = out.buf;
  size_t nb = p.batch.size();
  const int64_t *st[3] = {a.strides.data(), b.strides.data(),
                          out.strides.data()};
  for_batch(p.batch, st, [&](const int64_t *off) {
    for (int64_t i = 0; i < p.m; i++)
      for (int64_t j = 0; j < p.n; j++) {
        cx acc = 0;
        for (int64_t q = 0; q < p.k; q++) {
          cx x = a.buf[(size_t)(a.base + off[0] + i * a.strides[nb] +
                                q * a.strides[nb + 1])];
          cx y = b.buf[(size_t)(b.base + off[1] + q * b.strides[nb] +
                                j * b.strides[nb + 1])];
          acc += (p.conj ? std::conj(x) : x) * y;
        }
        r[(size_t)(out.base + off[2] + i * out.strides[nb] +
                   j * out.strides[nb + 1])] = acc;
      }
  });
  return r;
}

// Copies an operand into its packed form (the slot's cn_cu_assign or
// conjugating elementwise copy).
std::vector<cx> pack(const problem &p, const operand &o, int op, bool conj,
                     const cn_mm_plan &plan) {
  std::vector<cx> d((size_t)plan.packed_size[op]);
  size_t nb = p.batch.size();
  const int64_t *ps = plan.packed_strides[op];
  int64_t rows = op == CN_MM_B ? p.k : p.m, cols = op == CN_MM_A ? p.k : p.n;
  const int64_t *st[3] = {o.strides.data(), ps, ps};
  for_batch(p.batch, st, [&](const int64_t *off) {
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) {
        int64_t s = o.base + off[0] + i * o.strides[nb] + j * o.strides[nb + 1];
        int64_t t = off[1] + i * ps[nb] + j * ps[nb + 1];
        REQUIRE(t >= 0);
        REQUIRE(t < plan.packed_size[op]);
        cx v = o.buf[(size_t)s];
        d[(size_t)t] = conj ? std::conj(v) : v;
      }
  });
  return d;
}

// cuBLAS's column-major element (r, c) of op(M) for stored M with ld.
cx op_elem(const cx *M, cn_mm_op op, int64_t ld, int64_t r, int64_t c) {
  if (op == CN_MM_OP_N)
    return M[r + c * ld];
  cx v = M[c + r * ld];
  return op == CN_MM_OP_C ? std::conj(v) : v;
}

int64_t max1(int64_t v) { return v > 1 ? v : 1; }

// Runs the plan the way the CUDA slot does and returns out's buffer.
std::vector<cx> emulate(const problem &p, const operand &a, const operand &b,
                        const operand &out, const cn_mm_plan &plan) {
  std::vector<cx> res = out.buf;
  if (plan.kind == CN_MM_EMPTY)
    return res;
  size_t nb = p.batch.size();
  if (plan.kind == CN_MM_ZERO) {
    const int64_t *st[3] = {out.strides.data(), out.strides.data(),
                            out.strides.data()};
    for_batch(p.batch, st, [&](const int64_t *off) {
      for (int64_t i = 0; i < p.m; i++)
        for (int64_t j = 0; j < p.n; j++)
          res[(size_t)(out.base + off[2] + i * out.strides[nb] +
                       j * out.strides[nb + 1])] = 0;
    });
    return res;
  }
  // cuBLAS's argument rules.
  REQUIRE(plan.m >= 1);
  REQUIRE(plan.n >= 1);
  REQUIRE(plan.k >= 1);
  REQUIRE(plan.ldx >= max1(plan.op_x == CN_MM_OP_N ? plan.m : plan.k));
  REQUIRE(plan.ldy >= max1(plan.op_y == CN_MM_OP_N ? plan.k : plan.n));
  REQUIRE(plan.ldc >= max1(plan.m));
  REQUIRE(plan.batch >= 1);
  REQUIRE(plan.batch <= INT_MAX);
  if (plan.batch > 1) {
    REQUIRE(plan.stride[CN_MM_A] >= 0);
    REQUIRE(plan.stride[CN_MM_B] >= 0);
    REQUIRE(plan.stride[CN_MM_OUT] > 0);
  }
  std::vector<cx> pa, pb, pc;
  const cx *A = a.buf.data() + a.base, *B = b.buf.data() + b.base;
  cx *C = res.data() + out.base;
  if (plan.pack[CN_MM_A]) {
    pa = pack(p, a, CN_MM_A, p.conj, plan);
    A = pa.data();
  }
  if (plan.pack[CN_MM_B]) {
    pb = pack(p, b, CN_MM_B, false, plan);
    B = pb.data();
  }
  if (plan.pack[CN_MM_OUT]) {
    pc.assign((size_t)plan.packed_size[CN_MM_OUT], cx(99, 99));
    C = pc.data();
  }
  const cx *X = plan.swap ? B : A, *Y = plan.swap ? A : B;
  int xi = plan.swap ? CN_MM_B : CN_MM_A, yi = plan.swap ? CN_MM_A : CN_MM_B;
  std::vector<int64_t> loops(plan.loop_shape, plan.loop_shape + plan.nloop);
  const int64_t *ls[3] = {plan.loop_strides[0], plan.loop_strides[1],
                          plan.loop_strides[2]};
  for_batch(loops, ls, [&](const int64_t *off) {
    for (int64_t t = 0; t < plan.batch; t++) {
      const cx *x = X + off[xi] + t * plan.stride[xi];
      const cx *y = Y + off[yi] + t * plan.stride[yi];
      cx *c = C + off[CN_MM_OUT] + t * plan.stride[CN_MM_OUT];
      for (int64_t i = 0; i < plan.m; i++)
        for (int64_t j = 0; j < plan.n; j++) {
          cx acc = 0;
          for (int64_t q = 0; q < plan.k; q++)
            acc += op_elem(x, plan.op_x, plan.ldx, i, q) *
                   op_elem(y, plan.op_y, plan.ldy, q, j);
          c[i + j * plan.ldc] = acc;
        }
    }
  });
  if (plan.pack[CN_MM_OUT]) { // the slot's assign from the packed result
    const int64_t *ps = plan.packed_strides[CN_MM_OUT];
    const int64_t *st[3] = {ps, ps, out.strides.data()};
    for_batch(p.batch, st, [&](const int64_t *off) {
      for (int64_t i = 0; i < p.m; i++)
        for (int64_t j = 0; j < p.n; j++)
          res[(size_t)(out.base + off[2] + i * out.strides[nb] +
                       j * out.strides[nb + 1])] =
              pc[(size_t)(off[0] + i * ps[nb] + j * ps[nb + 1])];
    });
  }
  return res;
}

// Plans, checks and emulates; returns the plan for further checks.
cn_mm_plan check(const problem &p, const operand &a, const operand &b,
                 const operand &out) {
  cn_mm_geom g = geom_of(p, a, b, out);
  cn_mm_plan plan;
  REQUIRE(cn_mm_make_plan(&g, &plan));
  std::vector<cx> want = naive(p, a, b, out);
  std::vector<cx> got = emulate(p, a, b, out, plan);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); i++) {
    INFO("element " << i << " of out's buffer");
    REQUIRE(got[i] == want[i]);
  }
  return plan;
}

std::vector<int64_t> cat(std::vector<int64_t> batch, int64_t r, int64_t c) {
  batch.push_back(r);
  batch.push_back(c);
  return batch;
}

// All three operands C-ordered, or F-ordered matrices.
struct trio {
  operand a, b, out;
};

trio c_order(const problem &p) {
  auto sa = cat(p.batch, p.m, p.k), sb = cat(p.batch, p.k, p.n),
       so = cat(p.batch, p.m, p.n);
  return {make_operand(sa, c_strides(sa), 1),
          make_operand(sb, c_strides(sb), 2),
          make_operand(so, c_strides(so), 3)};
}

trio f_order(const problem &p) {
  auto sa = cat(p.batch, p.m, p.k), sb = cat(p.batch, p.k, p.n),
       so = cat(p.batch, p.m, p.n);
  return {make_operand(sa, f_matrix_strides(sa), 1),
          make_operand(sb, f_matrix_strides(sb), 2),
          make_operand(so, f_matrix_strides(so), 3)};
}

// The (.., r, c) view .mT of a C-ordered (.., c, r) array.
operand transposed(std::vector<int64_t> batch, int64_t r, int64_t c, int seed) {
  auto base = cat(batch, c, r);
  auto st = c_strides(base);
  std::swap(st[st.size() - 1], st[st.size() - 2]);
  return make_operand(cat(batch, r, c), st, seed);
}

} // namespace

TEST_CASE("cuda matmul plan: C-order operands use out^T = b^T a^T") {
  problem p{{}, 3, 5, 4};
  trio t = c_order(p);
  cn_mm_plan plan = check(p, t.a, t.b, t.out);
  REQUIRE(plan.kind == CN_MM_GEMM);
  REQUIRE(!plan.pack[0]);
  REQUIRE(!plan.pack[1]);
  REQUIRE(!plan.pack[2]);
  REQUIRE(plan.swap);
  REQUIRE(plan.op_x == CN_MM_OP_N);
  REQUIRE(plan.op_y == CN_MM_OP_N);
  REQUIRE(plan.m == 5);
  REQUIRE(plan.n == 3);
  REQUIRE(plan.ldx == 5);
  REQUIRE(plan.ldy == 4);
  REQUIRE(plan.ldc == 5);
  REQUIRE(plan.batch == 1);
  REQUIRE(plan.nloop == 0);
}

TEST_CASE("cuda matmul plan: F-order operands are passed as they are") {
  problem p{{2}, 3, 5, 4};
  trio t = f_order(p);
  cn_mm_plan plan = check(p, t.a, t.b, t.out);
  REQUIRE(!plan.swap);
  REQUIRE(plan.op_x == CN_MM_OP_N);
  REQUIRE(plan.op_y == CN_MM_OP_N);
  REQUIRE(plan.ldx == 3);
  REQUIRE(plan.ldy == 4);
  REQUIRE(plan.ldc == 3);
  REQUIRE(plan.batch == 2);
  REQUIRE(plan.stride[CN_MM_A] == 12);
  REQUIRE(plan.stride[CN_MM_B] == 20);
  REQUIRE(plan.stride[CN_MM_OUT] == 15);
}

TEST_CASE("cuda matmul plan: mixed orders and transposed views need no copy") {
  problem p{{3}, 4, 6, 5};
  trio c = c_order(p), f = f_order(p);
  operand at = transposed(p.batch, p.m, p.k, 7);
  operand bt = transposed(p.batch, p.k, p.n, 8);
  const operand *as[] = {&c.a, &f.a, &at};
  const operand *bs[] = {&c.b, &f.b, &bt};
  const operand *outs[] = {&c.out, &f.out};
  for (const operand *a : as)
    for (const operand *b : bs)
      for (const operand *o : outs) {
        cn_mm_plan plan = check(p, *a, *b, *o);
        REQUIRE(!plan.pack[0]);
        REQUIRE(!plan.pack[1]);
        REQUIRE(!plan.pack[2]);
        REQUIRE(plan.batch == 3);
        REQUIRE(plan.nloop == 0);
      }
  // .mT of a C-order a with a C-order out: a is read with op T.
  cn_mm_plan plan = check(p, at, c.b, c.out);
  REQUIRE(plan.swap);
  REQUIRE(plan.op_y == CN_MM_OP_T);
  REQUIRE(plan.op_x == CN_MM_OP_N);
}

TEST_CASE("cuda matmul plan: conj(a) is op C where a is read transposed") {
  problem p{{}, 4, 3, 5, true};
  trio c = c_order(p), f = f_order(p);
  operand at = transposed(p.batch, p.m, p.k, 9);
  // column-major a, row-major out: op C, no copy
  cn_mm_plan plan = check(p, at, c.b, c.out);
  REQUIRE(!plan.pack[CN_MM_A]);
  REQUIRE(plan.op_y == CN_MM_OP_C);
  // row-major a, column-major out: op C, no copy
  plan = check(p, c.a, f.b, f.out);
  REQUIRE(!plan.pack[CN_MM_A]);
  REQUIRE(!plan.swap);
  REQUIRE(plan.op_x == CN_MM_OP_C);
  // row-major a and out: conj(a) untransposed has no op; a is packed
  // (conjugated while copying) and read with op N.
  plan = check(p, c.a, c.b, c.out);
  REQUIRE(plan.pack[CN_MM_A]);
  REQUIRE(!plan.pack[CN_MM_B]);
  REQUIRE(plan.op_y == CN_MM_OP_N);
  // column-major a and out: the same, transposed
  plan = check(p, f.a, f.b, f.out);
  REQUIRE(plan.pack[CN_MM_A]);
  // a row vector out fits both orientations: the one with op C wins
  problem v{{}, 1, 3, 5, true};
  trio cv = c_order(v);
  plan = check(v, cv.a, cv.b, cv.out);
  REQUIRE(!plan.pack[CN_MM_A]);
  REQUIRE(plan.op_y == CN_MM_OP_C);
}

TEST_CASE("cuda matmul plan: negative and zero matrix strides are packed") {
  problem p{{2}, 3, 4, 5};
  trio c = c_order(p);
  // a[..., ::-1]
  operand an = make_operand(c.a.shape, {15, 5, -1}, 4);
  cn_mm_plan plan = check(p, an, c.b, c.out);
  REQUIRE(plan.pack[CN_MM_A]);
  REQUIRE(!plan.pack[CN_MM_B]);
  REQUIRE(plan.packed_size[CN_MM_A] == 30);
  // b[::-1, :]
  operand bn = make_operand(c.b.shape, {20, -4, 1}, 5);
  plan = check(p, c.a, bn, c.out);
  REQUIRE(plan.pack[CN_MM_B]);
  // out[:, ::-1]: computed in scratch, then assigned
  operand on = make_operand(c.out.shape, {12, 4, -1}, 6);
  plan = check(p, c.a, c.b, on);
  REQUIRE(plan.pack[CN_MM_OUT]);
  REQUIRE(plan.packed_size[CN_MM_OUT] == 24);
  // a broadcast along its rows (stride 0 on an extent-3 axis)
  operand a0 = make_operand(c.a.shape, {5, 0, 1}, 7);
  plan = check(p, a0, c.b, c.out);
  REQUIRE(plan.pack[CN_MM_A]);
  // a row stride below the row length (overlapping rows)
  operand ov = make_operand(c.a.shape, {15, 2, 1}, 8);
  plan = check(p, ov, c.b, c.out);
  REQUIRE(plan.pack[CN_MM_A]);
}

TEST_CASE("cuda matmul plan: stride-0 batch broadcast stays one batched call") {
  problem p{{6}, 3, 4, 2};
  trio c = c_order(p);
  operand b0 = make_operand(c.b.shape, {0, 4, 1}, 3);
  cn_mm_plan plan = check(p, c.a, b0, c.out);
  REQUIRE(plan.batch == 6);
  REQUIRE(plan.stride[CN_MM_B] == 0);
  REQUIRE(plan.nloop == 0);
  // a broadcast input that must be packed is packed once, not per batch
  operand bn = make_operand(c.b.shape, {0, 4, -1}, 4);
  plan = check(p, c.a, bn, c.out);
  REQUIRE(plan.pack[CN_MM_B]);
  REQUIRE(plan.packed_size[CN_MM_B] == 8);
  REQUIRE(plan.stride[CN_MM_B] == 0);
  REQUIRE(plan.batch == 6);
}

TEST_CASE("cuda matmul plan: two-level batches") {
  problem p{{2, 3}, 4, 2, 3};
  trio c = c_order(p);
  // uniform C-order batches merge into one batch of 6
  cn_mm_plan plan = check(p, c.a, c.b, c.out);
  REQUIRE(plan.batch == 6);
  REQUIRE(plan.nloop == 0);
  // a's batch axes swapped (a.transpose(1, 0, 2, 3) of a (3, 2, m, k)):
  // one dim batched, the other looped
  operand asw = make_operand(c.a.shape, {12, 24, 3, 1}, 5);
  plan = check(p, asw, c.b, c.out);
  REQUIRE(plan.nloop == 1);
  REQUIRE(plan.batch * plan.loop_shape[0] == 6);
  // broadcast over the outer batch dim only
  operand bb = make_operand(c.b.shape, {0, 6, 2, 1}, 6);
  plan = check(p, c.a, bb, c.out);
  REQUIRE(plan.batch * (plan.nloop ? plan.loop_shape[0] : 1) == 6);
  // a negative batch stride is looped on the host, never batched
  operand aneg = make_operand(c.a.shape, {36, -12, 3, 1}, 7);
  plan = check(p, aneg, c.b, c.out);
  REQUIRE(plan.nloop == 1);
  REQUIRE(plan.loop_shape[0] == 3);
  REQUIRE(plan.batch == 2);
  // every batch dim reversed: all looped
  operand arev = make_operand(c.a.shape, {-36, -12, 3, 1}, 8);
  plan = check(p, arev, c.b, c.out);
  REQUIRE(plan.batch == 1);
  // extent-1 batch dims are ignored
  problem q{{1, 3, 1}, 2, 2, 2};
  trio cq = c_order(q);
  plan = check(q, cq.a, cq.b, cq.out);
  REQUIRE(plan.batch == 3);
  REQUIRE(plan.nloop == 0);
}

TEST_CASE("cuda matmul plan: empty products and k = 0") {
  for (problem p : {problem{{}, 0, 3, 2}, problem{{}, 3, 0, 2},
                    problem{{0}, 3, 3, 2}, problem{{2, 0}, 1, 1, 1}}) {
    trio c = c_order(p);
    cn_mm_plan plan = check(p, c.a, c.b, c.out);
    REQUIRE(plan.kind == CN_MM_EMPTY);
  }
  problem z{{2}, 3, 4, 0};
  trio c = c_order(z);
  cn_mm_plan plan = check(z, c.a, c.b, c.out);
  REQUIRE(plan.kind == CN_MM_ZERO);
  // k = 0 and m = 0 at once: nothing to fill
  problem e{{2}, 0, 4, 0};
  trio ce = c_order(e);
  REQUIRE(check(e, ce.a, ce.b, ce.out).kind == CN_MM_EMPTY);
}

TEST_CASE("cuda matmul plan: 1x1 and one-column matrices keep ld >= 1") {
  problem p{{3}, 1, 1, 1};
  trio c = c_order(p), f = f_order(p);
  cn_mm_plan plan = check(p, c.a, c.b, c.out);
  REQUIRE(!plan.pack[0]);
  REQUIRE(!plan.pack[1]);
  REQUIRE(!plan.pack[2]);
  check(p, f.a, f.b, f.out);
  // matrix strides of extent-1 axes are ignored (0 or anything)
  operand a1 = make_operand(c.a.shape, {1, 0, 0}, 2);
  operand o1 = make_operand(c.out.shape, {1, 77, -5}, 3);
  plan = check(p, a1, c.b, o1);
  REQUIRE(!plan.pack[CN_MM_A]);
  REQUIRE(!plan.pack[CN_MM_OUT]);
  // a matrix-vector product: b (k, 1) from a 1-d operand (strides (s, 0))
  problem mv{{}, 4, 1, 3};
  trio cm = c_order(mv);
  operand bv = make_operand(cm.b.shape, {1, 0}, 4);
  operand ov = make_operand(cm.out.shape, {1, 0}, 5);
  plan = check(mv, cm.a, bv, ov);
  REQUIRE(!plan.pack[CN_MM_B]);
  REQUIRE(!plan.pack[CN_MM_OUT]);
  // a strided vector (every other element): still no copy
  operand b2 = make_operand(cm.b.shape, {2, 0}, 6);
  plan = check(mv, cm.a, b2, ov);
  REQUIRE(!plan.pack[CN_MM_B]);
  // a vector-matrix product: a (1, k)
  problem vm{{}, 1, 4, 3};
  trio cv = c_order(vm);
  operand av = make_operand(cv.a.shape, {0, 1}, 7);
  plan = check(vm, av, cv.b, cv.out);
  REQUIRE(!plan.pack[CN_MM_A]);
  // an inner product (1, k) @ (k, 1) of strided vectors
  problem dot{{}, 1, 1, 6};
  trio cd = c_order(dot);
  operand ad = make_operand(cd.a.shape, {0, 3}, 8);
  operand bd = make_operand(cd.b.shape, {2, 0}, 9);
  plan = check(dot, ad, bd, cd.out);
  REQUIRE(!plan.pack[CN_MM_A]);
  REQUIRE(!plan.pack[CN_MM_B]);
}

TEST_CASE("cuda matmul plan: extents beyond cuBLAS's int are refused") {
  cn_mm_geom g;
  std::memset(&g, 0, sizeof g);
  g.m = (int64_t)INT_MAX + 1;
  g.n = g.k = 1;
  g.strides[0][0] = 1;
  g.strides[1][0] = 1;
  g.strides[2][0] = 1;
  cn_mm_plan plan;
  REQUIRE(!cn_mm_make_plan(&g, &plan));
  // a leading dimension beyond int is packed instead
  problem p{{}, 2, 2, 2};
  trio c = c_order(p);
  cn_mm_geom h = geom_of(p, c.a, c.b, c.out);
  h.strides[CN_MM_A][0] = (int64_t)INT_MAX + 10;
  REQUIRE(cn_mm_make_plan(&h, &plan));
  REQUIRE(plan.pack[CN_MM_A]);
}
