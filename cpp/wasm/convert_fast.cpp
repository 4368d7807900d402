// The fast float32 path (fast_attention.hpp): large inputs, only the output and the weights.
#include <vector>

#include "convert.hpp"
#include "fast_attention.hpp"

namespace attn::wasm {
namespace {

// Float buffers of their own, kept between calls up to a few MiB (release_buffers): q, k, v (then
// the custom mask's bytes) in, the output (then the weights) out. api/fast.js copies
// Float32Arrays straight into them.
std::vector<float> g_fast_in;
std::vector<float> g_fast_out;
FastWorkspace g_fast_workspace;

}  // namespace

void release_fast_buffers() {
  std::vector<float>().swap(g_fast_in);
  std::vector<float>().swap(g_fast_out);
  g_fast_workspace = FastWorkspace{};
}

Address fast_input(std::size_t floats) {
  if (g_fast_in.size() < floats) g_fast_in.resize(floats);
  return reinterpret_cast<Address>(g_fast_in.data());
}

// The output's address (n·d_v floats, then n·m weights when materialising), or 0 on error. The
// shapes are the inputs' as given, checked here before they are trusted to lay out the buffer.
Address fast_run(std::size_t q_rows, std::size_t q_cols, std::size_t k_rows, std::size_t k_cols,
                 std::size_t v_rows, std::size_t v_cols, std::size_t mask_entries, int scaling,
                 double temperature, int mask, bool materialize) {
  FastShapes s;
  s.q_rows = q_rows, s.q_cols = q_cols, s.k_rows = k_rows, s.k_cols = k_cols;
  s.v_rows = v_rows, s.v_cols = v_cols;
  s.custom_mask = static_cast<FastMask>(mask) == FastMask::custom;
  s.mask_entries = mask_entries;
  if (auto e = check_fast_shapes(s)) return fail(*e);
  const auto scale_kind = static_cast<Scaling>(scaling);
  if (auto e = check_temperature(scale_kind, temperature)) return fail(*e);
  const std::size_t n = q_rows, m = k_rows, d = q_cols, d_v = v_cols;
  FastProblem p;
  p.n = n, p.m = m, p.d = d, p.d_v = d_v;
  p.q = g_fast_in.data();
  p.k = p.q + n * d;
  p.v = p.k + m * d;
  p.scale = static_cast<float>(1 / scale_divisor(scale_kind, d, temperature));
  p.mask = static_cast<FastMask>(mask);
  p.custom = reinterpret_cast<const std::uint8_t*>(p.v + m * d_v);
  if (auto e = check_fast_problem(p)) return fail(*e);
  g_fast_out.resize(n * d_v + (materialize ? n * m : 0));
  float* out = g_fast_out.data();
  if (auto e = fast_attention(p, out, materialize ? out + n * d_v : nullptr, g_fast_workspace)) {
    return fail(*e);
  }
  return reinterpret_cast<Address>(out);
}

}  // namespace attn::wasm
