#pragma once
// The float64 reference's products. Every output is a dot product kept as four partial sums over
// i mod 4, added (s0 + s1) + (s2 + s3), with no fused multiply-add: the same bits on every x86 CPU
// (the AVX2 and the portable builds round alike), whatever the blocking or the thread count.
namespace ditmk::model {

// One dot product of length n: the definition, and the slow side of dot_products' test.
double dot(const double* a, const double* b, int n);

// y[m * y_stride + r] = dot(x + m * x_stride, w + r * w_stride, n) for m < rows, r < w_rows, bit for bit:
// blocks of 3 x rows by 4 weight rows share each load, so the products run from registers rather
// than from the caches (the plain loop loads two doubles per multiply).
void dot_products(const double* x, int x_stride, int rows, const double* w, int w_stride, int w_rows, int n,
                  double* y, int y_stride);

}  // namespace ditmk::model
