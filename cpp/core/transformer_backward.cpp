// The backward pass: forward() in reverse, each step's gradient from the activations it kept.
#include <algorithm>
#include <cmath>

#include "nn.hpp"
#include "products.hpp"
#include "transformer.hpp"

namespace attn {

namespace {

template <class T>
void add_row_sums(const T* g, T* out, std::size_t n, std::size_t d) {
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t t = 0; t < d; ++t) out[t] += g[r * d + t];
}

// dq, dk, dv from dz through every head's weights. With P = softmax(S), dS = P ⊙ (dP − rowsum(P ⊙
// dP)); the causal zeros of P need no mask of their own, since they carry no gradient. The four
// products are the tiled kernel's, on one head's columns in place (A read transposed where the
// math has Pᵀ or dSᵀ).
template <class T>
void attend_backward(Transformer<T>& m, const LayerActivations<T>& a, std::size_t layer) {
  const std::size_t len = m.len, d = m.config.d_model, heads = m.config.heads;
  const std::size_t dh = d / heads, n = m.batch * len;
  const T scale = static_cast<T>(1 / std::sqrt(static_cast<double>(dh)));
  std::fill(m.dq.begin(), m.dq.begin() + n * d, T(0));
  std::fill(m.dk.begin(), m.dk.begin() + n * d, T(0));
  std::fill(m.dv.begin(), m.dv.begin() + n * d, T(0));
  T* vt = m.wt.data();       // (d_head, len)
  T* ds = m.dscores.data();  // (len, len)
  for (std::size_t b = 0; b < m.batch; ++b)
    for (std::size_t h = 0; h < heads; ++h) {
      if (m.ablated[layer * heads + h]) continue;  // its output was zero whatever its inputs
      const std::size_t base = b * len * d + h * dh;
      const T* p = a.weights.data() + (b * heads + h) * len * len;
      const T* dzh = m.dz.data() + base;
      const T* vh = a.v.data() + base;
      for (std::size_t j = 0; j < len; ++j)
        for (std::size_t t = 0; t < dh; ++t) vt[t * len + j] = vh[j * d + t];
      ops::gemm(dzh, d, 1, vt, len, ds, len, len, dh, len, false);              // dP = dZ·Vᵀ
      ops::gemm(p, 1, len, dzh, d, m.dv.data() + base, d, len, len, dh, true);  // dV += Pᵀ·dZ
      for (std::size_t i = 0; i < len; ++i) {
        const T* pr = p + i * len;
        T* dr = ds + i * len;
        T mean = 0;
        for (std::size_t j = 0; j <= i; ++j) mean += pr[j] * dr[j];
        for (std::size_t j = 0; j < len; ++j) dr[j] = pr[j] * (dr[j] - mean) * scale;
      }
      ops::gemm(ds, len, 1, a.k.data() + base, d, m.dq.data() + base, d, len, len, dh, true);
      ops::gemm(ds, 1, len, a.q.data() + base, d, m.dk.data() + base, d, len, len, dh, true);
    }
}

}  // namespace

template <class T>
void backward(Transformer<T>& m) {
  const TransformerConfig& c = m.config;
  const ParameterOffsets& o = m.offsets;
  const std::size_t n = m.batch * m.len, d = c.d_model, hidden = 4 * d, vocab = c.vocab;
  const T* p = m.params.data();
  T* g = m.grads.data();
  T* wt = m.wt.data();
  std::fill(m.grads.begin(), m.grads.end(), T(0));

  // d loss / d logits = (probs − one-hot(target)) / count on the positions with a target.
  const T inv_count = m.target_count ? T(1) / static_cast<T>(m.target_count) : T(0);
  for (std::size_t r = 0; r < n; ++r) {
    T* dl = m.dlogits.data() + r * vocab;
    const int target = m.targets[r];
    for (std::size_t t = 0; t < vocab; ++t)
      dl[t] = target >= 0 ? m.probs[r * vocab + t] * inv_count : T(0);
    if (target >= 0) dl[target] -= inv_count;
  }

  T* dx = m.dx.data();
  T* dh = m.dh.data();
  const T* hf = c.layer_norm ? m.h_f.data() : m.x_final.data();
  ops::matmul_tn_add(hf, m.dlogits.data(), g + o.unembedding, n, d, vocab);
  if (c.layer_norm) {
    ops::matmul_nt(m.dlogits.data(), p + o.unembedding, dh, n, d, vocab, wt);
    std::fill(m.dx.begin(), m.dx.begin() + n * d, T(0));
    nn::layer_norm_backward(dh, m.xhat_f.data(), m.rstd_f.data(), p + o.ln_final_gain, dx,
                            g + o.ln_final_gain, g + o.ln_final_bias, m.drow.data(), n, d);
  } else {
    ops::matmul_nt(m.dlogits.data(), p + o.unembedding, dx, n, d, vocab, wt);
  }

  // dx holds d loss / d (the stream after layer l) on entry to each iteration, and d loss / d
  // (its input) on exit: the residual connections pass it on unchanged and each block adds to it.
  for (std::size_t l = c.layers; l-- > 0;) {
    const LayerActivations<T>& a = m.layers[l];
    const LayerOffsets& lo = o.layer[l];
    if (c.mlp != Mlp::none) {
      add_row_sums(dx, g + lo.b_out, n, d);
      ops::matmul_tn_add(a.post.data(), dx, g + lo.w_out, n, hidden, d);
      T* du = m.dhidden.data();
      ops::matmul_nt(dx, p + lo.w_out, du, n, hidden, d, wt);
      for (std::size_t i = 0; i < n * hidden; ++i) {
        const T u = a.pre[i];
        du[i] *= c.mlp == Mlp::relu ? (u > 0 ? T(1) : T(0)) : nn::gelu_derivative(u);
      }
      add_row_sums(du, g + lo.b_in, n, hidden);
      const T* h2 = c.layer_norm ? a.h2.data() : a.x_mid.data();
      ops::matmul_tn_add(h2, du, g + lo.w_in, n, d, hidden);
      if (c.layer_norm) {
        ops::matmul_nt(du, p + lo.w_in, dh, n, d, hidden, wt);
        nn::layer_norm_backward(dh, a.xhat2.data(), a.rstd2.data(), p + lo.ln2_gain, dx,
                                g + lo.ln2_gain, g + lo.ln2_bias, m.drow.data(), n, d);
      } else {
        ops::matmul_nt(du, p + lo.w_in, dx, n, d, hidden, wt, true);
      }
    }

    ops::matmul_tn_add(a.z.data(), dx, g + lo.w_o, n, d, d);
    ops::matmul_nt(dx, p + lo.w_o, m.dz.data(), n, d, d, wt);
    attend_backward(m, a, l);
    const T* h1 = c.layer_norm ? a.h1.data() : a.x.data();
    ops::matmul_tn_add(h1, m.dq.data(), g + lo.w_q, n, d, d);
    ops::matmul_tn_add(h1, m.dk.data(), g + lo.w_k, n, d, d);
    ops::matmul_tn_add(h1, m.dv.data(), g + lo.w_v, n, d, d);
    T* dh1 = c.layer_norm ? dh : dx;
    ops::matmul_nt(m.dq.data(), p + lo.w_q, dh1, n, d, d, wt, !c.layer_norm);
    ops::matmul_nt(m.dk.data(), p + lo.w_k, dh1, n, d, d, wt, true);
    ops::matmul_nt(m.dv.data(), p + lo.w_v, dh1, n, d, d, wt, true);
    if (c.layer_norm)
      nn::layer_norm_backward(dh, a.xhat1.data(), a.rstd1.data(), p + lo.ln1_gain, dx,
                              g + lo.ln1_gain, g + lo.ln1_bias, m.drow.data(), n, d);
  }

  for (std::size_t r = 0; r < n; ++r) {
    T* te = g + o.token_embedding + static_cast<std::size_t>(m.tokens[r]) * d;
    T* pe = g + o.position_embedding + (r % m.len) * d;
    for (std::size_t t = 0; t < d; ++t) {
      te[t] += dx[r * d + t];
      pe[t] += dx[r * d + t];
    }
  }
}

template void backward<float>(Transformer<float>&);
template void backward<double>(Transformer<double>&);

}  // namespace attn
