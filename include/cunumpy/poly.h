/* cunumpy/poly.h: NumPy's poly1d-style polynomial functions (coefficient
 * arrays, highest power first): evaluation, arithmetic, derivatives and
 * integrals, least-squares fits, roots and the polynomial of given roots,
 * with NumPy's result dtypes and leading-zero rules. Coefficient arrays
 * are 1-d (0-d ones count as length 1 where NumPy applies atleast_1d);
 * other ranks are CN_ERR_VALUE. polyadd and polysub run on the backend's
 * element-wise ops; the others compute on host copies of their inputs
 * (polymul through cn_convolve, fits and roots through the linear-algebra
 * functions) and move their results to the first input's device. Results
 * are new arrays owned by the caller; inputs are never modified. */
#ifndef CUNUMPY_POLY_H
#define CUNUMPY_POLY_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* p[0] x**(N-1) + ... + p[N-1] at every element of x (Horner's scheme in
 * result_type(p, x); x's dtype and zeros for an empty p). CN_ERR_TYPE for
 * a 0-d p (NumPy cannot iterate it), CN_ERR_VALUE for p of rank > 1. */
CN_API cn_status cn_polyval(cn_array *out, cn_array p, cn_array x);

/* Sum and difference of two polynomials, the shorter padded with leading
 * zeros of its own dtype; NumPy's add/subtract rules and errors (bool
 * subtraction is CN_ERR_TYPE). */
CN_API cn_status cn_polyadd(cn_array *out, cn_array a1, cn_array a2);
CN_API cn_status cn_polysub(cn_array *out, cn_array a1, cn_array a2);

/* Product of two polynomials: leading zeros dropped first (an all-zero or
 * empty one becomes [0]), then the full convolution (cn_convolve). */
CN_API cn_status cn_polymul(cn_array *out, cn_array a1, cn_array a2);

/* Quotient q and remainder r of u / v, in the floating result type of u
 * and v (integers as float64); r loses its leading entries within 1e-8 of
 * zero while longer than 1. A zero v[0] gives inf/nan as NumPy.
 * CN_ERR_INDEX for an empty u or v. */
CN_API cn_status cn_polydiv(cn_array *q, cn_array *r, cn_array u,
                            cn_array v);

/* m-th derivative of p (dtype result_type(p, int64); m == 0 copies p).
 * CN_ERR_VALUE for m < 0, CN_ERR_TYPE for a 0-d p. */
CN_API cn_status cn_polyder(cn_array *out, cn_array p, int32_t m);

/* m-th antiderivative of p with integration constants k (NULL: zeros;
 * one value: used for every order; else at least m values, the first for
 * the first integration), float64 or complex128; m == 0 copies p.
 * CN_ERR_VALUE for m < 0 or fewer than m constants, CN_ERR_TYPE for a
 * 0-d p. */
CN_API cn_status cn_polyint(cn_array *out, cn_array p, int32_t m,
                            cn_array k);

/* Least-squares fit of a degree-deg polynomial to the points (x, y), y 1-d
 * or 2-d (one fit per column), NumPy's algorithm: the Vandermonde matrix
 * of x (rows times w when w is not NULL) with unit-norm columns, solved by
 * cn_linalg_lstsq with rcond (< 0: len(x) * eps of x's dtype). x, y and w
 * compute as floats (integers as float64). coef has shape (deg + 1) or
 * (deg + 1, K); residuals, rank and s are cn_linalg_lstsq's (any of them
 * may be NULL). CN_ERR_VALUE for deg < 0, CN_ERR_TYPE (NumPy's TypeError)
 * for x not 1-d or empty, y not 1-d or 2-d, or x, y, w of different
 * lengths. */
CN_API cn_status cn_polyfit(cn_array *coef, cn_array *residuals,
                            cn_array *rank, cn_array *s, cn_array x,
                            cn_array y, int32_t deg, double rcond,
                            cn_array w);
/* cn_polyfit's coef and the covariance of the coefficients (NumPy's
 * cov=True: inv(A^T A) of the scaled matrix, unscaled back, times
 * residuals / (len(x) - deg - 1); with unscaled != 0 not multiplied, as
 * cov="unscaled"); (deg+1, deg+1) or (deg+1, deg+1, K). CN_ERR_VALUE when
 * the scaled form has len(x) <= deg + 1. */
CN_API cn_status cn_polyfit_cov(cn_array *coef, cn_array *cov, cn_array x,
                                cn_array y, int32_t deg, double rcond,
                                cn_array w, int32_t unscaled);

/* Roots of p: eigenvalues of the companion matrix of p without its
 * leading and trailing zeros, followed by one zero per trailing zero.
 * Integer p computes in float64; float64 results (empty for an all-zero
 * p) or complex where a root is complex, as cn_linalg_eigvals. */
CN_API cn_status cn_roots(cn_array *out, cn_array p);

/* Coefficients of the monic polynomial whose roots are the 1-d
 * seq_of_zeros (float32/float64/complex kept, integers as float64) or the
 * eigenvalues of a non-empty square matrix; real when complex roots come
 * in conjugate pairs; a 0-d 1.0 for no roots. CN_ERR_VALUE for other
 * shapes. */
CN_API cn_status cn_poly(cn_array *out, cn_array seq_of_zeros);

#ifdef __cplusplus
}
#endif
#endif
