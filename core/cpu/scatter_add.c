/* The scatter_add slot on the CPU: out[idx[i]] += w[i] (or += 1), the
 * kernel of bincount and the histograms.
 *
 * Counts run on threads: each thread counts its share of idx into a
 * private row when out is small next to idx (the rows are then summed
 * bin by bin), else into out itself with relaxed atomic adds. Both are
 * exact. Weighted sums stay on one thread in index order, so that a float
 * result is the sequential sum NumPy's bincount computes. */
#include <omp.h>
#include <stdlib.h>

#include "cpu.h"

/* Private rows are used while they total at most this many bins (64 MiB of
 * int64) and no more bins than a thread has values. */
#define CN_SCATTER_ROWS_MAX ((int64_t)8 << 20)

static void count_serial(int64_t *o, int64_t m, const int64_t *ix, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    int64_t k = ix[i];
    if ((uint64_t)k < (uint64_t)m)
      o[k]++;
  }
}

static cn_status count(int64_t *o, int64_t m, const int64_t *ix, int64_t n) {
  int nt = cn_cpu_threads_for(n);
  if (nt <= 1) {
    count_serial(o, m, ix, n);
    return CN_OK;
  }
  int64_t per = n / nt;
  int64_t *rows = NULL;
  if (m <= per && m * nt <= CN_SCATTER_ROWS_MAX)
    rows = calloc((size_t)(m * nt), sizeof *rows);
  if (rows) {
#pragma omp parallel num_threads(nt)
    {
      int t = omp_get_thread_num(), T = omp_get_num_threads();
      int64_t lo = n * t / T, hi = n * (t + 1) / T;
      count_serial(rows + (int64_t)t * m, m, ix + lo, hi - lo);
#pragma omp barrier
#pragma omp for schedule(static)
      for (int64_t k = 0; k < m; k++) {
        int64_t s = o[k];
        for (int r = 0; r < T; r++)
          s += rows[(int64_t)r * m + k];
        o[k] = s;
      }
    }
    free(rows);
    return CN_OK;
  }
  /* many bins (or no memory for rows): shared counters */
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t i = 0; i < n; i++) {
    int64_t k = ix[i];
    if ((uint64_t)k < (uint64_t)m)
      __atomic_fetch_add(&o[k], 1, __ATOMIC_RELAXED);
  }
  return CN_OK;
}

static cn_status cpu_scatter_add(cn_array_s *out, const cn_array_s *idx,
                                 const cn_array_s *w) {
  const int64_t *ix = (const int64_t *)idx->data;
  int64_t n = idx->size, m = out->size;
  if (n == 0 || m == 0)
    return CN_OK;
  if (w == NULL)
    return count((int64_t *)out->data, m, ix, n);
  if (w->dtype == CN_COMPLEX128) {
    double *o = (double *)out->data;
    const double *wv = (const double *)w->data;
    for (int64_t i = 0; i < n; i++) {
      int64_t k = ix[i];
      if ((uint64_t)k < (uint64_t)m) {
        o[2 * k] += wv[2 * i];
        o[2 * k + 1] += wv[2 * i + 1];
      }
    }
    return CN_OK;
  }
  double *o = (double *)out->data;
  const double *wv = (const double *)w->data;
  for (int64_t i = 0; i < n; i++) {
    int64_t k = ix[i];
    if ((uint64_t)k < (uint64_t)m)
      o[k] += wv[i];
  }
  return CN_OK;
}

void cn_cpu_scatter_add_fill(cn_backend_compute *t) {
  t->scatter_add = cpu_scatter_add;
}
