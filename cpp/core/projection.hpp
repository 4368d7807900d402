// Where each token moves: the value vectors V (m, d_v) and the output vectors O (n, d_v) placed
// in one shared 2-D plane, so a page can draw an arrow from v_i to o_i.
//
// The plane is the first two principal components of all m + n points together (centred at
// their mean). Axes are unit length, orthogonal, and signed so that their largest-magnitude
// component is positive (a deterministic choice: the same input always gives the same picture).
// When all points lie on a line, the second axis is a unit vector orthogonal to the first (the
// basis vector least aligned with it, made orthogonal) and every second coordinate is 0; with
// d_v = 1 there is no such vector and the second axis is zero. With all points equal, every
// coordinate is 0. The axes do not depend on the points' scale: points times 1e80 or 1e-90 give
// the same axes as the points themselves, and their coordinates times 1e80 or 1e-90.
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
