// libFuzzer target for the attention entry points: random shapes, values (including NaN, ±Inf,
// huge and tiny numbers), masks, similarities, scalings, normalisations and multi-head settings.
//
// Invariants: an error has a message; a result has the promised shapes, weights that are finite,
// rows that sum to 1 (or 0 for a fully masked or zero-sum row), finite outputs whenever the
// inputs are moderate, and a fast float32 path that agrees with it on moderate inputs.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attention.hpp"
#include "fast_attention.hpp"
#include "multihead.hpp"
#include "projection.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

// Reads the fuzzer's bytes as a stream of small choices and numbers; zeros once exhausted.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::size_t pick(std::size_t count) { return byte() % count; }
  double number() {
    const std::uint8_t kind = byte();
    if (kind < 200) return (static_cast<int>(byte()) - 128) / 16.0;  // moderate, exact in float
    if (kind < 250) {
      double x = 0;
      for (int i = 0; i < 8; ++i) reinterpret_cast<std::uint8_t*>(&x)[i] = byte();
      return x;  // any double: NaN, ±Inf, denormals, 1e308
    }
    return kind % 2 ? 1e30 : -1e30;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

attn::Matrix matrix(Bytes& in, std::size_t rows, std::size_t cols, bool& moderate) {
  attn::Matrix out = attn::Matrix::from_shape({rows, cols});
  for (double& x : out) {
    x = in.number();
    moderate = moderate && std::abs(x) <= 8;
  }
  return out;
}

void check_steps(const attn::AttentionSteps& s, bool moderate) {
  for (std::size_t i = 0; i < s.n(); ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < s.m(); ++j) {
      check(std::isfinite(s.weights(i, j)));
      sum += s.weights(i, j);
    }
    const auto problem = s.rows[i].problem;
    if (problem == attn::RowProblem::none && s.config.normalization == attn::Normalization::softmax)
      check(std::abs(sum - 1) < 1e-9);
    if (problem == attn::RowProblem::fully_masked || problem == attn::RowProblem::zero_sum)
      check(sum == 0);
    if (moderate && s.config.normalization == attn::Normalization::softmax)
      for (std::size_t t = 0; t < s.d_v(); ++t) check(std::isfinite(s.output(i, t)));
  }
}

// The float32 kernel against the double path, on inputs small enough for float.
void check_fast(const attn::AttentionSteps& s) {
  const std::size_t n = s.n(), m = s.m(), d = s.d_k(), d_v = s.d_v();
  std::vector<float> q(s.queries.begin(), s.queries.end()), k(s.keys.begin(), s.keys.end()),
      v(s.values.begin(), s.values.end());
  std::vector<std::uint8_t> visible(s.visible.begin(), s.visible.end());
  attn::FastProblem p;
  p.q = q.data(), p.k = k.data(), p.v = v.data();
  p.n = n, p.m = m, p.d = d, p.d_v = d_v;
  p.scale = static_cast<float>(1 / s.divisor);
  p.mask = attn::FastMask::custom;
  p.custom = visible.data();
  std::vector<float> out(n * d_v), weights(n * m);
  attn::FastWorkspace ws;
  check(!attn::fast_attention(p, out.data(), weights.data(), ws));
  for (std::size_t i = 0; i < n * m; ++i) check(std::abs(weights[i] - s.weights.data()[i]) < 1e-4);
  for (std::size_t i = 0; i < n * d_v; ++i) check(std::abs(out[i] - s.output.data()[i]) < 1e-3);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  const std::size_t n = in.pick(9), m = in.pick(9), d_k = in.pick(6), d_v = in.pick(6);
  attn::AttentionConfig c;
  c.similarity = in.pick(2) ? attn::Similarity::cosine : attn::Similarity::dot;
  c.scaling = static_cast<attn::Scaling>(in.pick(3));
  c.temperature = in.number();
  c.mask = static_cast<attn::MaskKind>(in.pick(3));
  c.normalization = in.pick(2) ? attn::Normalization::sum : attn::Normalization::softmax;
  if (c.mask == attn::MaskKind::custom) {
    const std::size_t mn = in.pick(3) ? n : n + 1;  // sometimes the wrong shape
    c.custom_mask = attn::Mask::from_shape({mn, m});
    for (auto&& b : c.custom_mask) b = in.pick(4) != 0;
  }
  bool moderate = true;
  const attn::Matrix q = matrix(in, n, d_k, moderate);
  const attn::Matrix k = matrix(in, m, in.pick(5) ? d_k : d_k + 1, moderate);
  const attn::Matrix v = matrix(in, m, d_v, moderate);
  moderate = moderate && (c.scaling != attn::Scaling::temperature || c.temperature >= 0.25);

  auto r = attn::attention(q, k, v, c);
  if (!r.ok()) {
    check(!r.error().message.empty());
  } else {
    check_steps(r.value(), moderate);
    if (moderate && c.normalization == attn::Normalization::softmax &&
        c.similarity == attn::Similarity::dot)
      check_fast(r.value());  // the fast path computes dot products only
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) check(attn::explain_cell(r.value(), i, j).ok());
    auto plane = attn::project_2d(v, r->output);
    check(plane.ok() || !plane.error().message.empty());
  }

  attn::MultiHeadConfig mh;
  mh.heads = in.pick(4);
  mh.d_k = in.pick(5);
  mh.d_v = in.pick(5);
  mh.projection = static_cast<attn::Projection>(in.pick(2));  // identity or random
  mh.seed = in.byte();
  mh.attention = c;
  auto multi = attn::multi_head(q, mh);
  if (!multi.ok()) {
    check(!multi.error().message.empty());
  } else {
    for (const auto& head : multi->heads) check_steps(head.steps, false);
  }
  return 0;
}
