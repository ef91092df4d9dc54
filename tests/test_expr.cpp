// Expressions (cunumpy/expr.h): the parser's answers and errors, the type
// checker's dtypes, fused evaluation against naive double / long double
// loops (broadcasting, negative and non-unit strides, 0-d and empty arrays,
// NaN, reductions over axes), dst handling and every error path. ctest runs
// this file twice: as is (the CPU's fused expr slot) and with
// CUNUMPY_EXPR_UNFUSED=1 (the one-op-at-a-time composition every backend
// without an expr slot uses).
#include "array_testutil.hpp"

#include <cmath>

namespace {

struct Expr {
  cn_expr h = nullptr;
  Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;
  ~Expr() { cn_expr_release(h); }
  cn_expr *out() { return &h; }
};

struct Binding {
  std::vector<const char *> names;
  std::vector<cn_dtype> dtypes;
  std::vector<int32_t> ndims;
  std::vector<cn_array> arrays;
};

Binding bind(std::initializer_list<std::pair<const char *, cn_array>> list) {
  Binding b;
  for (auto &p : list) {
    cn_dtype d;
    int32_t nd;
    REQUIRE(cn_array_dtype(&d, p.second) == CN_OK);
    REQUIRE(cn_array_ndim(&nd, p.second) == CN_OK);
    b.names.push_back(p.first);
    b.dtypes.push_back(d);
    b.ndims.push_back(nd);
    b.arrays.push_back(p.second);
  }
  return b;
}

Arr eval(const char *text, const Binding &b, cn_array dst = nullptr,
         cn_casting casting = CN_CAST_SAFE) {
  Expr e;
  CN_REQUIRE_OK(cn_expr_compile(e.out(), text, (int32_t)b.names.size(),
                                b.names.data(), b.dtypes.data(),
                                b.ndims.data()));
  Arr r;
  CN_REQUIRE_OK(cn_expr_evaluate(r.out(), e.h, (int32_t)b.arrays.size(),
                                 b.arrays.data(), dst, casting));
  return r;
}

cn_status compile_status(const char *text, const Binding &b) {
  Expr e;
  return cn_expr_compile(e.out(), text, (int32_t)b.names.size(),
                         b.names.data(), b.dtypes.data(), b.ndims.data());
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  REQUIRE(cn_array_dtype(&d, a) == CN_OK);
  return d;
}

} // namespace

TEST_CASE("expr: parse reports the names in order of first appearance") {
  Expr e;
  CN_REQUIRE_OK(cn_expr_parse(e.out(), "sin(x) + y * x - where(z > 1, y, 2)"));
  int32_t n = 0;
  CN_REQUIRE_OK(cn_expr_variable_count(&n, e.h));
  REQUIRE(n == 3);
  const char *name = nullptr;
  CN_REQUIRE_OK(cn_expr_variable_name(&name, e.h, 0));
  REQUIRE(std::string(name) == "x");
  CN_REQUIRE_OK(cn_expr_variable_name(&name, e.h, 2));
  REQUIRE(std::string(name) == "z");
  CN_REQUIRE_ERR(cn_expr_variable_name(&name, e.h, 3), CN_ERR_INDEX,
                 "out of range");
  CN_REQUIRE_ERR(cn_expr_variable_name(&name, e.h, -1), CN_ERR_INDEX,
                 "out of range");
  cn_dtype d;
  CN_REQUIRE_ERR(cn_expr_result_dtype(&d, e.h), CN_ERR_VALUE, "not compiled");
  cn_array r = nullptr;
  CN_REQUIRE_ERR(cn_expr_evaluate(&r, e.h, 0, nullptr, nullptr, CN_CAST_SAFE),
                 CN_ERR_VALUE, "not compiled");
  REQUIRE(r == nullptr);
}

TEST_CASE("expr: syntax errors name the column") {
  struct {
    const char *text;
    const char *needle;
  } cases[] = {
      {"a +", "column 4: unexpected end"},
      {"a + * b", "column 5:"},
      {"(a", "column 3: expected ')'"},
      {"a @ b", "column 3: unexpected character '@'"},
      {"a\x01", "column 2: unexpected character '\\x01'"},
      {"a[1]", "column 2:"},
      {"nosuch(a)", "column 1: unknown function 'nosuch'"},
      {"arctan2(a)", "takes 2 arguments, got 1"},
      {"a or b", "column 3: 'or' is not supported"},
      {"a < b < c", "chained comparisons"},
      {"-sum(a)", "outermost"},
      {"sum(a, axis=1, axis=2)", "multiple values"},
      {"1e+", "exponent"},
      {"0b102", "invalid"},
      {"18446744073709551616", "too large"},
      {"", "empty expression"},
  };
  for (auto &c : cases) {
    Expr e;
    INFO(c.text);
    CN_REQUIRE_ERR(cn_expr_parse(e.out(), c.text), CN_ERR_VALUE, c.needle);
    REQUIRE(e.h == nullptr);
  }
  std::string deep(3000, '(');
  deep += "a";
  deep += std::string(3000, ')');
  Expr e;
  CN_REQUIRE_ERR(cn_expr_parse(e.out(), deep.c_str()), CN_ERR_VALUE,
                 "nested too deeply");
  CN_REQUIRE_ERR(cn_expr_parse(nullptr, "a"), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_expr_parse(e.out(), nullptr), CN_ERR_VALUE, "NULL");
}

TEST_CASE("expr: compile errors") {
  Arr a = tu::arange(4, {4});
  Binding b = bind({{"a", a}});
  Expr e;
  const char *names[2] = {"a", "a"};
  cn_dtype dts[2] = {CN_FLOAT64, CN_FLOAT64};
  int32_t nds[2] = {1, 1};
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a", 2, names, dts, nds),
                 CN_ERR_VALUE, "bound twice");
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a + q", 1, names, dts, nds),
                 CN_ERR_VALUE, "column 5: name 'q' is not defined");
  cn_dtype bad = (cn_dtype)12345;
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a", 1, names, &bad, nds),
                 CN_ERR_TYPE, "not a valid dtype");
  int32_t badnd = -1;
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a", 1, names, dts, &badnd),
                 CN_ERR_VALUE, "ndims[0]");
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a", -1, names, dts, nds),
                 CN_ERR_VALUE, "nin");
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "a", 1, nullptr, dts, nds),
                 CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_expr_compile(e.out(), "sum(a, axis=1)", 1, names, dts,
                                 nds),
                 CN_ERR_AXIS, "out of bounds");
  REQUIRE(compile_status("a - True", b) == CN_OK);
  Arr flag = tu::cast(a, CN_BOOL);
  Binding bb = bind({{"f", flag}});
  CN_REQUIRE_ERR(compile_status("f - f", bb), CN_ERR_TYPE,
                 "column 3: subtract: numpy boolean subtract");
  CN_REQUIRE_ERR(compile_status("-f", bb), CN_ERR_TYPE, "negative");
  CN_REQUIRE_ERR(compile_status("f << 1.5", bb), CN_ERR_TYPE, "no loop");
  Arr i8 = tu::cast(a, CN_INT8);
  Binding bi = bind({{"i", i8}});
  CN_REQUIRE_ERR(compile_status("i + 300", bi), CN_ERR_OVERFLOW,
                 "out of bounds for int8");
  CN_REQUIRE_ERR(compile_status("i ** -1", bi), CN_ERR_VALUE,
                 "negative integer powers");
  REQUIRE(e.h == nullptr);
}

TEST_CASE("expr: dtypes follow the ufuncs with weak scalars") {
  Arr f = tu::cast(tu::arange(3, {3}), CN_FLOAT32);
  Arr i = tu::cast(tu::arange(3, {3}), CN_INT16);
  Arr u = tu::cast(tu::arange(3, {3}), CN_UINT8);
  Binding b = bind({{"f", f}, {"i", i}, {"u", u}});
  struct {
    const char *text;
    cn_dtype want;
  } cases[] = {
      {"f * 2.0", CN_FLOAT32},     {"f * 2", CN_FLOAT32},
      {"f * 2j", CN_COMPLEX64},    {"i + 1", CN_INT16},
      {"i + 1.5", CN_FLOAT64},     {"i / 2", CN_FLOAT64},
      {"i + u", CN_INT16},         {"f + i", CN_FLOAT32},
      {"sin(u)", CN_FLOAT16},      {"sin(i)", CN_FLOAT32},
      {"u < -1", CN_BOOL},         {"abs(f * 1j)", CN_FLOAT32},
      {"float64(f)", CN_FLOAT64},  {"where(u > 1, i, 2.5)", CN_FLOAT64},
      {"where(u, i, 2)", CN_INT16}, {"sum(i)", CN_INT64},
      {"sum(u)", CN_UINT64},       {"prod(f)", CN_FLOAT32},
      {"any(f)", CN_BOOL},         {"max(u)", CN_UINT8},
      {"f + (2 * 3.0)", CN_FLOAT32}, {"f + sin(2.0)", CN_FLOAT64},
      {"i ** 2", CN_INT16},        {"i // 0", CN_INT16},
  };
  for (auto &c : cases) {
    INFO(c.text);
    Expr e;
    CN_REQUIRE_OK(cn_expr_compile(e.out(), c.text, 3, b.names.data(),
                                  b.dtypes.data(), b.ndims.data()));
    cn_dtype d;
    CN_REQUIRE_OK(cn_expr_result_dtype(&d, e.h));
    REQUIRE(d == c.want);
    Arr r;
    CN_REQUIRE_OK(cn_expr_evaluate(r.out(), e.h, 3, b.arrays.data(), nullptr,
                                   CN_CAST_SAFE));
    REQUIRE(dtype_of(r) == c.want);
  }
}

TEST_CASE("expr: values against naive loops, broadcasting and strides") {
  const int64_t R = 37, C = 301;
  std::vector<double> av(R * C), bv(C), cv(R);
  for (int64_t k = 0; k < R * C; k++)
    av[k] = std::sin(0.37 * (double)k);
  for (int64_t k = 0; k < C; k++)
    bv[k] = 1.5 + std::cos(0.11 * (double)k); /* positive: b ** 2.5 */
  for (int64_t k = 0; k < R; k++)
    cv[k] = (double)k - 10.0;
  Arr a = tu::f64(av, {R, C});
  Arr b = tu::f64(bv, {C});
  Arr c = tu::f64(cv, {R, 1});
  Arr at, bf;
  CN_REQUIRE_OK(cn_transpose(at.out(), a)); // (C, R), strided
  int32_t ax = 0;
  CN_REQUIRE_OK(cn_flip(bf.out(), b, 1, &ax)); // negative stride
  // every bound input broadcasts into the result: one binding per shape
  Binding bd = bind({{"a", a}, {"b", b}, {"c", c}});
  Binding btr = bind({{"t", at}});
  Binding bfl = bind({{"f", bf}, {"b", b}});
  Arr r = eval("a * b + c", bd);
  std::vector<double> got = tu::dvec(r);
  REQUIRE(shape_of(r) == std::vector<int64_t>{R, C});
  for (int64_t i = 0; i < R; i++)
    for (int64_t j = 0; j < C; j++)
      REQUIRE(got[i * C + j] == av[i * C + j] * bv[j] + cv[i]);
  // transposed and reversed operands: sqrt((x - y)**2 + 1) over (C, R)
  Arr r2 = eval("where(t > 0.25, sqrt((t - 1.5) ** 2 + 1), -t) * 2", btr);
  std::vector<double> g2 = tu::dvec(r2);
  for (int64_t j = 0; j < C; j++)
    for (int64_t i = 0; i < R; i++) {
      double t = av[i * C + j];
      double want = (t > 0.25 ? std::sqrt((t - 1.5) * (t - 1.5) + 1) : -t) * 2;
      REQUIRE(std::fabs(g2[j * R + i] - want) <= 1e-15 * (1 + std::fabs(want)));
    }
  Arr r3 = eval("f * 3 + b", bfl);
  std::vector<double> g3 = tu::dvec(r3);
  for (int64_t j = 0; j < C; j++)
    REQUIRE(g3[j] == bv[C - 1 - j] * 3 + bv[j]);
  // small integer powers are products; others go through pow
  Arr r4 = eval("b ** 10 + b ** 2.5", bind({{"b", b}}));
  std::vector<double> g4 = tu::dvec(r4);
  for (int64_t j = 0; j < C; j++) {
    long double x = bv[j];
    long double want = powl(x, 10) + powl(x, 2.5L);
    REQUIRE(std::fabs(g4[j] - (double)want) <= 2e-15 * std::fabs((double)want));
  }
}

TEST_CASE("expr: 0-d, empty, NaN and literal-only expressions") {
  Arr z = tu::f64({2.5}, {});
  Arr n = tu::f64({NAN, 1.0, -0.0}, {3});
  Arr e = tu::f64({}, {0, 4});
  Binding b = bind({{"z", z}, {"n", n}, {"e", e}});
  Binding bz = bind({{"z", z}});
  Arr r = eval("z * 2 + 1", bz);
  REQUIRE(shape_of(r).empty());
  REQUIRE(tu::dvec(r)[0] == 6.0);
  Binding bn = bind({{"n", n}});
  Arr rn = eval("where(isnan(n), -1, n * z)", bind({{"n", n}, {"z", z}}));
  std::vector<double> gn = tu::dvec(rn);
  REQUIRE(gn[0] == -1.0);
  REQUIRE(gn[1] == 2.5);
  REQUIRE(gn[2] == 0.0);
  REQUIRE(std::signbit(gn[2]));
  Arr mx = eval("max(n)", bn);
  REQUIRE(std::isnan(tu::dvec(mx)[0]));
  Binding be = bind({{"e", e}});
  Arr re = eval("e * 2", be);
  REQUIRE(shape_of(re) == std::vector<int64_t>{0, 4});
  Arr se = eval("sum(e, axis=0)", be);
  REQUIRE(tu::dvec(se) == std::vector<double>(4, 0.0));
  Arr pe = eval("prod(e)", be);
  REQUIRE(tu::dvec(pe)[0] == 1.0);
  Expr x;
  CN_REQUIRE_OK(cn_expr_compile(x.out(), "max(e)", 1, be.names.data(),
                                be.dtypes.data(), be.ndims.data()));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, x.h, 1, be.arrays.data(), nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "zero-size array to reduction operation maximum");
  Binding none;
  Arr lit = eval("2 ** 3 + 0.5", none);
  REQUIRE(dtype_of(lit) == CN_FLOAT64);
  REQUIRE(tu::dvec(lit)[0] == 8.5);
  Arr zero = eval("z ** 0", bz);
  REQUIRE(tu::dvec(zero)[0] == 1.0);
}

TEST_CASE("expr: reductions against long double, with axes and keepdims") {
  const int64_t A = 5, B = 1031, Cn = 3;
  std::vector<double> v(A * B * Cn);
  for (size_t k = 0; k < v.size(); k++)
    v[k] = 0.1 + 1e-3 * (double)(k % 97);
  Arr a = tu::f64(v, {A, B, Cn});
  Binding b = bind({{"a", a}});
  long double total = 0;
  for (double x : v)
    total += (long double)x * 3;
  Arr s = eval("sum(a * 3)", b);
  REQUIRE(shape_of(s).empty());
  REQUIRE(std::fabs(tu::dvec(s)[0] - (double)total) <=
          1e-14 * (double)total);
  Arr sk = eval("sum(a * 3, axis=(0, 1, 2), keepdims=True)", b);
  REQUIRE(shape_of(sk) == std::vector<int64_t>{1, 1, 1});
  Arr s1 = eval("sum(a, axis=1)", b);
  REQUIRE(shape_of(s1) == std::vector<int64_t>{A, Cn});
  std::vector<double> g1 = tu::dvec(s1);
  for (int64_t i = 0; i < A; i++)
    for (int64_t k = 0; k < Cn; k++) {
      long double w = 0;
      for (int64_t j = 0; j < B; j++)
        w += v[(i * B + j) * Cn + k];
      REQUIRE(std::fabs(g1[i * Cn + k] - (double)w) <= 1e-13 * (double)w);
    }
  Arr m = eval("max(a - 1, axis=-1, keepdims=True)", b);
  REQUIRE(shape_of(m) == std::vector<int64_t>{A, B, 1});
  Arr an = eval("any(a > 0.19)", b);
  REQUIRE(dtype_of(an) == CN_BOOL);
  REQUIRE(tu::dvec(an)[0] == 1.0);
  Arr al = eval("all(a > 0.1)", b);
  REQUIRE(tu::dvec(al)[0] == 0.0);
}

TEST_CASE("expr: dst, casting and overlap") {
  Arr a = tu::arange(6, {2, 3});
  Binding b = bind({{"a", a}});
  Arr dst;
  int64_t sh[2] = {2, 3};
  CN_REQUIRE_OK(cn_zeros(dst.out(), 2, sh, CN_FLOAT64, CN_ORDER_C));
  Arr r = eval("a * 2", b, dst);
  REQUIRE(r.h == dst.h);
  REQUIRE(tu::dvec(dst) == std::vector<double>{0, 2, 4, 6, 8, 10});
  Arr d32;
  CN_REQUIRE_OK(cn_zeros(d32.out(), 2, sh, CN_FLOAT32, CN_ORDER_C));
  Expr e;
  CN_REQUIRE_OK(cn_expr_compile(e.out(), "a + 1", 1, b.names.data(),
                                b.dtypes.data(), b.ndims.data()));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, b.arrays.data(), d32,
                                  CN_CAST_SAFE),
                 CN_ERR_TYPE, "casting rule 'safe'");
  CN_REQUIRE_OK(cn_expr_evaluate(&out, e.h, 1, b.arrays.data(), d32,
                                 CN_CAST_SAME_KIND));
  cn_array_release(out);
  REQUIRE(tu::dvec(d32) == std::vector<double>{1, 2, 3, 4, 5, 6});
  Arr wrong;
  int64_t s3[1] = {3};
  CN_REQUIRE_OK(cn_zeros(wrong.out(), 1, s3, CN_FLOAT64, CN_ORDER_C));
  out = nullptr;
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, b.arrays.data(), wrong,
                                  CN_CAST_SAFE),
                 CN_ERR_SHAPE, "argument 'dst' has shape (3,)");
  Arr ro;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), dst));
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, b.arrays.data(), ro,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "read-only");
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, b.arrays.data(), dst,
                                  (cn_casting)9),
                 CN_ERR_VALUE, "casting");
  REQUIRE(out == nullptr);
  // in place (dst is the input) and shifted overlap (through a temporary)
  Arr x = tu::arange(8, {8});
  Binding bx = bind({{"x", x}});
  Arr same = eval("x * x", bx, x);
  REQUIRE(tu::dvec(x) == std::vector<double>{0, 1, 4, 9, 16, 25, 36, 49});
  Arr lo, hi;
  int64_t start = 0, stop = 7, step = 1, start2 = 1, stop2 = 8;
  CN_REQUIRE_OK(cn_slice_axis(lo.out(), x, 0, start, stop, step));
  CN_REQUIRE_OK(cn_slice_axis(hi.out(), x, 0, start2, stop2, step));
  Binding bh = bind({{"h", hi}});
  Arr moved = eval("h + 0", bh, lo);
  REQUIRE(tu::dvec(x) == std::vector<double>{1, 4, 9, 16, 25, 36, 49, 49});
}

TEST_CASE("expr: evaluate refuses mismatched inputs") {
  Arr a = tu::arange(4, {4});
  Arr a32 = tu::cast(a, CN_FLOAT32);
  Arr m = tu::arange(6, {2, 3});
  Binding b = bind({{"a", a}});
  Expr e;
  CN_REQUIRE_OK(cn_expr_compile(e.out(), "a * 2", 1, b.names.data(),
                                b.dtypes.data(), b.ndims.data()));
  cn_array out = nullptr;
  cn_array in32[1] = {a32};
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, in32, nullptr, CN_CAST_SAFE),
                 CN_ERR_TYPE, "compiled for float64");
  cn_array inm[1] = {m};
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, inm, nullptr, CN_CAST_SAFE),
                 CN_ERR_SHAPE, "dimensions");
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 0, nullptr, nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "compiled for 1 inputs");
  cn_array innull[1] = {nullptr};
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e.h, 1, innull, nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "inputs[0]");
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, nullptr, 1, b.arrays.data(), nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "NULL");
  // shapes that do not broadcast
  Arr c3 = tu::arange(3, {3});
  Binding b2 = bind({{"a", a}, {"c", c3}});
  Expr e2;
  CN_REQUIRE_OK(cn_expr_compile(e2.out(), "a + c", 2, b2.names.data(),
                                b2.dtypes.data(), b2.ndims.data()));
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e2.h, 2, b2.arrays.data(), nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_SHAPE, "broadcast");
  // an integer power by a negative array element
  Arr ib = tu::i64({2, 3, 4}, {3});
  Arr ie = tu::i64({1, -1, 2}, {3});
  Binding bi = bind({{"x", ib}, {"y", ie}});
  Expr e3;
  CN_REQUIRE_OK(cn_expr_compile(e3.out(), "x ** y", 2, bi.names.data(),
                                bi.dtypes.data(), bi.ndims.data()));
  CN_REQUIRE_ERR(cn_expr_evaluate(&out, e3.h, 2, bi.arrays.data(), nullptr,
                                  CN_CAST_SAFE),
                 CN_ERR_VALUE, "negative integer powers");
  REQUIRE(out == nullptr);
  cn_expr_release(nullptr);
}

TEST_CASE("expr: cn_evaluate in one call") {
  Arr a = tu::arange(5, {5});
  cn_array in[1] = {a};
  const char *names[1] = {"a"};
  Arr r;
  CN_REQUIRE_OK(cn_evaluate(r.out(), "a ** 2 - 1", 1, names, in, nullptr));
  REQUIRE(tu::dvec(r) == std::vector<double>{-1, 0, 3, 8, 15});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_evaluate(&out, "a +", 1, names, in, nullptr), CN_ERR_VALUE,
                 "column 4");
  CN_REQUIRE_ERR(cn_evaluate(&out, "a", 1, nullptr, in, nullptr), CN_ERR_VALUE,
                 "NULL");
}
