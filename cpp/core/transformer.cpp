#include "transformer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nn.hpp"
#include "products.hpp"

namespace attn {

template <class T>
Transformer<T> make_transformer(const TransformerConfig& config, std::size_t max_batch) {
  Transformer<T> m;
  m.config = config;
  m.offsets = parameter_offsets(config);
  m.max_batch = max_batch;
  m.params.assign(m.offsets.total, T(0));
  m.grads.assign(m.offsets.total, T(0));
  m.ablated.assign(config.layers * config.heads, 0);

  const std::size_t n = max_batch * config.seq_len, d = config.d_model;
  const std::size_t weights = max_batch * config.heads * config.seq_len * config.seq_len;
  const bool ln = config.layer_norm, mlp = config.mlp != Mlp::none;
  m.tokens.assign(n, 0);
  m.targets.assign(n, -1);
  m.layers.resize(config.layers);
  for (auto& a : m.layers) {
    a.x.assign(n * d, T(0));
    if (ln) {
      a.xhat1.assign(n * d, T(0));
      a.rstd1.assign(n, T(0));
      a.h1.assign(n * d, T(0));
    }
    a.q.assign(n * d, T(0));
    a.k.assign(n * d, T(0));
    a.v.assign(n * d, T(0));
    a.weights.assign(weights, T(0));
    a.z.assign(n * d, T(0));
    if (mlp) {
      a.x_mid.assign(n * d, T(0));
      if (ln) {
        a.xhat2.assign(n * d, T(0));
        a.rstd2.assign(n, T(0));
        a.h2.assign(n * d, T(0));
      }
      a.pre.assign(n * 4 * d, T(0));
      a.post.assign(n * 4 * d, T(0));
    }
  }
  m.x_final.assign(n * d, T(0));
  if (ln) {
    m.xhat_f.assign(n * d, T(0));
    m.rstd_f.assign(n, T(0));
    m.h_f.assign(n * d, T(0));
  }
  m.probs.assign(n * config.vocab, T(0));
  for (auto* buffer : {&m.dx, &m.dh, &m.dq, &m.dk, &m.dv, &m.dz}) buffer->assign(n * d, T(0));
  m.dhidden.assign(mlp ? n * 4 * d : 0, T(0));
  m.dlogits.assign(n * config.vocab, T(0));
  m.drow.assign(d, T(0));
  m.wt.assign(d * std::max({4 * d, config.vocab, config.seq_len}), T(0));
  m.dscores.assign(config.seq_len * config.seq_len, T(0));
  return m;
}

template <class T>
void init_parameters(Transformer<T>& m, Rng& rng) {
  for (const TensorInfo& t : parameter_layout(m.config)) {
    T* p = m.params.data() + t.offset;
    double range = 0;  // uniform in [−range, range): variance range²/3
    switch (t.kind) {
      case TensorKind::token_embedding:
      case TensorKind::position_embedding:
        range = std::sqrt(3.0);
        break;
      case TensorKind::ln_attention_gain:
      case TensorKind::ln_mlp_gain:
      case TensorKind::ln_final_gain:
        for (std::size_t i = 0; i < t.size(); ++i) p[i] = T(1);
        continue;
      case TensorKind::ln_attention_bias:
      case TensorKind::ln_mlp_bias:
      case TensorKind::ln_final_bias:
      case TensorKind::mlp_in_bias:
      case TensorKind::mlp_out_bias:
        for (std::size_t i = 0; i < t.size(); ++i) p[i] = T(0);
        continue;
      default:
        range = std::sqrt(3.0 / static_cast<double>(t.rows));
        break;
    }
    for (std::size_t i = 0; i < t.size(); ++i) p[i] = static_cast<T>(rng.uniform(-range, range));
  }
}

namespace {

// Causal softmax attention of every head of every sequence: weights and z from q, k, v. Both
// products run through the tiled kernel on the whole len × len block (the causal zeros cost less
// than the scalar loops that would skip them), with K_h transposed once so its rows are contiguous.
template <class T>
void attend(Transformer<T>& m, LayerActivations<T>& a, std::size_t layer) {
  const std::size_t len = m.len, d = m.config.d_model, heads = m.config.heads;
  const std::size_t dh = d / heads;
  const T scale = static_cast<T>(1 / std::sqrt(static_cast<double>(dh)));
  T* kt = m.wt.data();  // (d_head, len)
  for (std::size_t b = 0; b < m.batch; ++b)
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t base = b * len * d + h * dh;  // row 0 of this head's columns
      const T* kh = a.k.data() + base;
      for (std::size_t j = 0; j < len; ++j)
        for (std::size_t t = 0; t < dh; ++t) kt[t * len + j] = kh[j * d + t];
      T* w = a.weights.data() + (b * heads + h) * len * len;
      ops::gemm(a.q.data() + base, d, 1, kt, len, w, len, len, dh, len, false);
      for (std::size_t i = 0; i < len; ++i) {
        T* row = w + i * len;
        for (std::size_t j = 0; j <= i; ++j) row[j] *= scale;
        nn::softmax(row, i + 1);  // causal: keys 0 … i
        for (std::size_t j = i + 1; j < len; ++j) row[j] = 0;
      }
      T* zh = a.z.data() + base;
      if (m.ablated[layer * heads + h]) {
        for (std::size_t i = 0; i < len; ++i)
          for (std::size_t t = 0; t < dh; ++t) zh[i * d + t] = 0;
      } else {
        ops::gemm(w, len, 1, a.v.data() + base, d, zh, d, len, len, dh, false);
      }
    }
}

}  // namespace

template <class T>
double forward(Transformer<T>& m, const int* tokens, const int* targets, std::size_t batch,
               std::size_t len) {
  const TransformerConfig& c = m.config;
  const ParameterOffsets& o = m.offsets;
  const std::size_t n = batch * len, d = c.d_model, hidden = 4 * d, vocab = c.vocab;
  const T* p = m.params.data();
  m.batch = batch;
  m.len = len;
  m.target_count = 0;
  for (std::size_t r = 0; r < n; ++r) {
    m.tokens[r] = tokens[r];
    m.targets[r] = targets ? targets[r] : -1;
    if (m.targets[r] >= 0) ++m.target_count;
  }

  T* x = m.layers.empty() ? m.x_final.data() : m.layers[0].x.data();
  for (std::size_t r = 0; r < n; ++r) {
    const T* te = p + o.token_embedding + static_cast<std::size_t>(tokens[r]) * d;
    const T* pe = p + o.position_embedding + (r % len) * d;
    for (std::size_t t = 0; t < d; ++t) x[r * d + t] = te[t] + pe[t];
  }

  for (std::size_t l = 0; l < c.layers; ++l) {
    LayerActivations<T>& a = m.layers[l];
    const LayerOffsets& lo = o.layer[l];
    const T* h1 = a.x.data();
    if (c.layer_norm) {
      nn::layer_norm(a.x.data(), p + lo.ln1_gain, p + lo.ln1_bias, a.h1.data(), n, d,
                     nn::kLayerNormEps, a.xhat1.data(), a.rstd1.data());
      h1 = a.h1.data();
    }
    ops::matmul(h1, p + lo.w_q, a.q.data(), n, d, d);
    ops::matmul(h1, p + lo.w_k, a.k.data(), n, d, d);
    ops::matmul(h1, p + lo.w_v, a.v.data(), n, d, d);
    attend(m, a, l);

    const bool mlp = c.mlp != Mlp::none;
    T* next = l + 1 < c.layers ? m.layers[l + 1].x.data() : m.x_final.data();
    T* mid = mlp ? a.x_mid.data() : next;
    for (std::size_t i = 0; i < n * d; ++i) mid[i] = a.x[i];
    ops::matmul(a.z.data(), p + lo.w_o, mid, n, d, d, true);
    if (!mlp) continue;

    const T* h2 = mid;
    if (c.layer_norm) {
      nn::layer_norm(mid, p + lo.ln2_gain, p + lo.ln2_bias, a.h2.data(), n, d, nn::kLayerNormEps,
                     a.xhat2.data(), a.rstd2.data());
      h2 = a.h2.data();
    }
    ops::matmul(h2, p + lo.w_in, a.pre.data(), n, d, hidden);
    const T* b_in = p + lo.b_in;
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t t = 0; t < hidden; ++t) {
        T& u = a.pre[r * hidden + t];
        u += b_in[t];
        a.post[r * hidden + t] = c.mlp == Mlp::relu ? (u > 0 ? u : T(0)) : nn::gelu(u);
      }
    const T* b_out = p + lo.b_out;
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t t = 0; t < d; ++t) next[r * d + t] = mid[r * d + t] + b_out[t];
    ops::matmul(a.post.data(), p + lo.w_out, next, n, hidden, d, true);
  }

  const T* hf = m.x_final.data();
  if (c.layer_norm) {
    nn::layer_norm(m.x_final.data(), p + o.ln_final_gain, p + o.ln_final_bias, m.h_f.data(), n, d,
                   nn::kLayerNormEps, m.xhat_f.data(), m.rstd_f.data());
    hf = m.h_f.data();
  }
  ops::matmul(hf, p + o.unembedding, m.probs.data(), n, d, vocab);

  // Softmax of each row of logits in place; the loss from the log-sum-exp, in double, so that a
  // probability that rounds to 0 in float32 still gives a finite loss.
  double loss = 0;
  for (std::size_t r = 0; r < n; ++r) {
    T* row = m.probs.data() + r * vocab;
    const int target = m.targets[r];
    const double target_logit = target >= 0 ? static_cast<double>(row[target]) : 0;
    const nn::SoftmaxRow<T> s = nn::softmax(row, vocab);
    if (target >= 0)
      loss += static_cast<double>(s.max) + std::log(static_cast<double>(s.sum)) - target_logit;
  }
  return m.target_count ? loss / static_cast<double>(m.target_count) : 0.0;
}

template Transformer<float> make_transformer<float>(const TransformerConfig&, std::size_t);
template Transformer<double> make_transformer<double>(const TransformerConfig&, std::size_t);
template void init_parameters<float>(Transformer<float>&, Rng&);
template void init_parameters<double>(Transformer<double>&, Rng&);
template double forward<float>(Transformer<float>&, const int*, const int*, std::size_t,
                               std::size_t);
template double forward<double>(Transformer<double>&, const int*, const int*, std::size_t,
                                std::size_t);

}  // namespace attn
