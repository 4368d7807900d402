// Where each token moves: the value vectors V (m, d_v) and the output vectors O (n, d_v) placed
// in one shared 2-D plane, so a page can draw an arrow from v_i to o_i.
//
// The plane is the first two principal components of all m + n points together (centred at
// their mean): the eigenvectors of their covariance with the two largest eigenvalues
// λ₁ ≥ λ₂ (≥ λ₃ …). They come from a full symmetric eigen-decomposition (Householder, then QL)
// of the smaller of the covariance (d_v × d_v) and the Gram matrix ((m + n) × (m + n)), exact
// but for rounding: the plane is within about ε·λ₁ / (λ₂ − λ₃) of the true one (ε = 2.2e-16;
// 2e-13 for λ₂ − λ₃ = 1e-3·λ₁), with no iteration left to converge, and `shown` is 1 to 1e-13
// for points in a plane.
// Axes are unit length, orthogonal, and signed so that their largest-magnitude component is
// positive (the first of those within 1e-9 of the largest: a deterministic choice, the same input
// always gives the same picture, and rounding cannot pick between two equal magnitudes).
// Ties: eigenvalues within 1e-12·λ₁ of each other count as equal, and where equal ones leave the
// plane or its axes open (λ₂ = λ₃, or λ₁ = λ₂), the axes taken from such a tied eigenspace E are,
// in turn, the projection onto E of the coordinate axis e_t nearest to E (the largest projection;
// of those within 1e-9 of it, the lowest t), then the projection of the coordinate axis nearest
// to what is left of E, made orthogonal to the first. So λ₂ = λ₃ with w₁ = (2, −2, 1) / 3 in 3-D
// gives the second axis (−1, 1, 4) / √18 (e₃, the nearest to w₁⊥, projected onto it), whatever
// the order or the scale of the points. Points on a line tie every other eigenvalue with 0, and
// E is everything orthogonal to the first axis: the second is the basis vector least aligned
// with it, made orthogonal, and every second coordinate is 0; with d_v = 1 there is no such
// vector and the second axis is zero. With all points equal, E is all of d_v-space, the axes are
// e₁ and e₂ and every coordinate is 0. The axes do not depend on the points' scale: points times
// 1e80 or 1e-90 give the same axes as the points themselves, and their coordinates times 1e80 or
// 1e-90.
#pragma once

#include "common.hpp"

namespace attn {

struct Plane {
  Vector mean;      // (d)
  Matrix axes;      // (2, d) unit rows
  Vector variance;  // (2) variance along each axis
  double total_variance = 0;
  // The share of the total variance the plane shows, (variance[0] + variance[1]) /
  // total_variance: 1 when the points span at most two dimensions, and 1 when every point is the
  // same (total_variance = 0: nothing is hidden).
  double shown = 1;
  Matrix values_2d;   // (m, 2)
  Matrix outputs_2d;  // (n, 2)
};

// Errors: empty inputs, different widths, non-finite entries.
Result<Plane> project_2d(const Matrix& values, const Matrix& outputs);

}  // namespace attn
