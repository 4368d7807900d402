#include "decoder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "nn.hpp"
#include "products.hpp"

namespace attn {

namespace {

// out (n, m) = a (n, k) · w (k, m) + bias (m), on the trainer's register tiles over w's strips.
// An empty bias is none. `a_row` is a's row stride when a row holds more than w's inputs.
void affine(const float* a, std::size_t n, const PackedMatrix& w, const std::vector<float>& bias,
            float* out, std::size_t a_row = 0) {
  const std::size_t m = w.cols;
  for (std::size_t i = 0; i < n; ++i)
    if (bias.empty())
      std::fill_n(out + i * m, m, 0.0f);
    else
      std::copy(bias.begin(), bias.end(), out + i * m);
  ops::gemm_packed(a, a_row ? a_row : w.rows, w.strips.data(), out, m, n, w.rows, m, true);
}

// a · b over n floats, in eight running sums: the compiler keeps them in two vector registers,
// where a single running sum must be added in order, one float at a time.
float dot(const float* a, const float* b, std::size_t n) {
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (std::size_t k = 0; k < 8; ++k) s[k] += a[j + k] * b[j + k];
  float total = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; j < n; ++j) total += a[j] * b[j];
  return total;
}

// dot() of `a` with four consecutive rows of `b` (rows n apart), into out[0 … 3]: each row's eight
// running sums and their adding up are dot()'s, so each result is dot()'s to the bit, while `a`
// is read once for the four and four streams of b are in flight.
void dot4(const float* a, const float* b, std::size_t n, float* out) {
  typedef float f32x4 __attribute__((vector_size(16)));
  const auto load = [](const float* p) {
    f32x4 x;
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  f32x4 lo[4] = {}, hi[4] = {};
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const f32x4 a0 = load(a + j), a1 = load(a + j + 4);
    for (std::size_t r = 0; r < 4; ++r) {
      lo[r] += a0 * load(b + r * n + j);
      hi[r] += a1 * load(b + r * n + j + 4);
    }
  }
  for (std::size_t r = 0; r < 4; ++r) {
    float total = ((lo[r][0] + lo[r][1]) + (lo[r][2] + lo[r][3])) +
                  ((hi[r][0] + hi[r][1]) + (hi[r][2] + hi[r][3]));
    for (std::size_t k = j; k < n; ++k) total += a[k] * b[r * n + k];
    out[r] = total;
  }
}

// The family's norm over n rows of width C, its statistics in double as PyTorch's kernels sum
// them: one function for the three places a block and the model's end call it, so it is
// compiled once.
[[gnu::noinline]] void norm(const DecoderConfig& c, const float* x, const std::vector<float>& w,
                            const std::vector<float>& b, float* out, std::size_t n, std::size_t C) {
  if (c.family == Family::llama)
    nn::rms_norm<float, double>(x, w.data(), out, n, C, c.norm_eps);
  else
    nn::layer_norm<float, double>(x, w.data(), b.data(), out, n, C, c.norm_eps);
}

constexpr std::size_t kStrip = 8;  // PackedMatrix's strip width

}  // namespace

PackedMatrix PackedMatrix::pack(const std::vector<float>& w, std::size_t rows, std::size_t cols) {
  PackedMatrix p;
  p.rows = rows;
  p.cols = cols;
  p.strips.assign((cols + kStrip - 1) / kStrip * kStrip * rows, 0.0f);
  for (std::size_t j0 = 0; j0 < cols; j0 += kStrip) {
    float* strip = p.strips.data() + j0 * rows;
    const std::size_t width = std::min(kStrip, cols - j0);
    for (std::size_t i = 0; i < rows; ++i)
      std::copy_n(w.data() + i * cols + j0, width, strip + i * kStrip);
  }
  return p;
}

PackedMatrix PackedMatrix::pack_linear(const std::vector<const std::vector<float>*>& ws,
                                       std::size_t rows) {
  PackedMatrix p;
  p.rows = rows;
  for (const std::vector<float>* w : ws) p.cols += w->size() / rows;
  p.strips.assign((p.cols + kStrip - 1) / kStrip * kStrip * rows, 0.0f);
  std::size_t j = 0;  // the column being filled: one output of one of the matrices
  for (const std::vector<float>* w : ws)
    for (std::size_t o = 0; o < w->size() / rows; ++o, ++j) {
      float* column = p.strips.data() + (j - j % kStrip) * rows + j % kStrip;
      const float* weights = w->data() + o * rows;  // output o's row: its weight on each input
      for (std::size_t i = 0; i < rows; ++i) column[i * kStrip] = weights[i];
    }
  return p;
}

std::vector<float> rope_frequencies(const DecoderConfig& c) {
  if (c.rope_theta <= 0) return {};
  const std::size_t d = c.head_size();
  const RopeScaling& s = c.rope_scaling;
  std::vector<float> f(d / 2);
  for (std::size_t i = 0; i < d / 2; ++i) {
    // 1 / θ^(2i/d), each step rounded to float32 as PyTorch's arange(0, d, 2).float() / d is
    const float exponent = static_cast<float>(2 * i) / static_cast<float>(d);
    // (θ^e as e^(e·ln θ) in double, rounded once: libm's pow would add 3 KB to the page's module)
    float inv = 1.0f / static_cast<float>(std::exp(exponent * std::log(c.rope_theta)));
    if (s.factor > 0) {
      // Llama 3: a wavelength (in positions) longer than the original context / low_freq_factor
      // is stretched by the factor, one shorter than it / high_freq_factor is kept, and between
      // the two the frequency is blended by where the wavelength lies.
      const double wavelength = 2 * M_PI / inv, context = static_cast<double>(s.original_context);
      if (wavelength > context / s.low_freq_factor) {
        inv = static_cast<float>(inv / s.factor);
      } else if (wavelength >= context / s.high_freq_factor) {
        const double smooth =
            (context / wavelength - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
        inv = static_cast<float>((1 - smooth) * inv / s.factor + smooth * inv);
      }
    }
    f[i] = inv;
  }
  return f;
}

// The cache grows with the tokens (GPT-2 small's whole context would be 75 MB held from the start).
KvCache::KvCache(const Decoder& model)
    : model_(model),
      frequencies_(rope_frequencies(model.config)),
      k_(model.config.layers),
      v_(model.config.layers) {}

// Qwen3 normalises each head's q and k on its own d numbers first. RoPE then turns each pair of
// coordinates (i, i + d/2) of every query and key head by the angle position · frequency_i, as
// Hugging Face's rotate_half does: the keys are cached already turned, as the scores use them.
void KvCache::position(const DecoderBlock& b, float* qkv, std::size_t n,
                       const std::vector<float>& turns) const {
  const DecoderConfig& c = model_.config;
  const std::size_t H = c.heads, G = c.kv_head_count(), d = c.head_size(), row = (H + 2 * G) * d;
  if (!b.q_norm.empty())
    for (std::size_t i = 0; i < n; ++i) {
      float* q = qkv + i * row;
      nn::rms_norm<float, double>(q, b.q_norm.data(), q, H, d, c.norm_eps);
      nn::rms_norm<float, double>(q + H * d, b.k_norm.data(), q + H * d, G, d, c.norm_eps);
    }
  if (turns.empty()) return;
  const std::size_t half = d / 2;
  for (std::size_t i = 0; i < n; ++i) {
    const float* cos = turns.data() + i * d;  // position i's cosines, then its sines
    const float* sin = cos + half;
    // the query heads and then the key heads lie side by side: H + G heads of d
    for (std::size_t hd = 0; hd < H + G; ++hd) {
      float* x = qkv + i * row + hd * d;
      for (std::size_t k = 0; k < half; ++k) {
        const float x1 = x[k], x2 = x[k + half];
        x[k] = x1 * cos[k] - x2 * sin[k];
        x[k + half] = x2 * cos[k] + x1 * sin[k];
      }
    }
  }
}

// Attention is the only step where tokens mix across time: new token i (at position t0 + i) reads
// the keys and values of every position up to its own, the cached ones and the new ones before it,
// so the causal mask is just where the loop over keys stops. Shapes: qkv (n, (H + 2G)·d), the
// cache's K and V (t, G·d), z (n, H·d); query head h reads key/value head kv_head_of(h).
void KvCache::attend(std::size_t l, const float* qkv, std::size_t n, float* z, LayerSteps* steps) {
  const DecoderConfig& c = model_.config;
  const std::size_t H = c.heads, G = c.kv_head_count(), d = c.head_size(), t0 = size_,
                    t = size_ + n, row = (H + 2 * G) * d, kv = G * d;
  const float* K = k_[l].data();
  const float* V = v_[l].data();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  std::vector<float> scores(t);  // (t) one query's scores, then its weights, over the keys
  std::fill(z, z + n * H * d, 0.0f);
  for (std::size_t hd = 0; hd < H; ++hd) {
    const std::size_t g = c.kv_head_of(hd);
    for (std::size_t i = 0; i < n; ++i) {
      const float* q = qkv + i * row + hd * d;
      const std::size_t seen = t0 + i + 1;  // keys 0 … t0 + i
      // the scores q·k / √d, and their softmax
      for (std::size_t j = 0; j < seen; ++j) scores[j] = dot(q, K + j * kv + g * d, d) * scale;
      nn::softmax(scores.data(), seen);
      // the weighted sum of the values, into this head's columns of z
      float* zi = z + (i * H + hd) * d;
      for (std::size_t j = 0; j < seen; ++j) {
        const float wgt = scores[j];
        if (steps) steps->weights[(hd * n + i) * t + j] = wgt;
        const float* v = V + j * kv + g * d;
        for (std::size_t e = 0; e < d; ++e) zi[e] += wgt * v[e];
      }
    }
  }
}

Result<DecoderSteps> KvCache::append(const std::vector<int>& tokens, bool steps) {
  const DecoderConfig& c = model_.config;
  const std::size_t n = tokens.size(), C = c.width, H = c.heads, t0 = size_, t = size_ + n;
  const std::size_t QW = c.q_width(), KW = c.kv_width(), row = QW + 2 * KW;
  if (n == 0)
    return make_error(ErrorCode::empty_input, "tokens", -1, -1, "tokens: there are none to run.");
  for (std::size_t i = 0; i < n; ++i)
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= c.vocab)
      return make_error(ErrorCode::bad_argument, "tokens", static_cast<long>(i), -1,
                        "tokens: token " + std::to_string(i + 1) + " is " +
                            std::to_string(tokens[i]) + ", outside the vocabulary of " +
                            std::to_string(c.vocab) + ".");
  if (t > c.context)
    return make_error(ErrorCode::too_large, "tokens", -1, -1,
                      "tokens: " + std::to_string(t) +
                          " tokens in all, but the model sees at most " +
                          std::to_string(c.context) + " (its context).");
  const bool swiglu = c.family == Family::llama;
  const std::size_t I = c.mlp_width();
  DecoderSteps out;
  out.first = t0;
  // The n new tokens' buffers, allocated once for every layer.
  std::vector<float> x(n * C);                       // (n, C) the residual stream
  std::vector<float> h(n * C);                       // (n, C) x normalised: a sublayer's input
  std::vector<float> qkv(n * row);                   // (n, (H + 2G)·d) [Q | K | V] of each token
  std::vector<float> z(n * QW);                      // (n, H·d) the heads' outputs, side by side
  std::vector<float> a(n * C);                       // (n, C) a sublayer's output, before x +=
  std::vector<float> mid(n * (swiglu ? 2 * I : I));  // (n, I) the MLP's hidden layer; SwiGLU's
                                                     // (n, 2I) [gate | up]

  // token embedding, + position embedding (the positions after those in the cache) for GPT-2
  for (std::size_t i = 0; i < n; ++i)
    std::copy_n(model_.wte.data() + tokens[i] * C, C, x.data() + i * C);
  if (!model_.wpe.empty())
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < C; ++j) x[i * C + j] += model_.wpe[(t0 + i) * C + j];

  // RoPE's cosines and sines of the new positions, the same in every layer: (n, d) a position's
  // d/2 cosines, then its d/2 sines, of the angles position · frequency_k (the float32 product,
  // as PyTorch's)
  std::vector<float> turns(frequencies_.empty() ? 0 : n * c.head_size());
  const std::size_t half = frequencies_.size();
  for (std::size_t i = 0; half && i < n; ++i)
    for (std::size_t k = 0; k < half; ++k) {
      const double angle = static_cast<float>(t0 + i) * frequencies_[k];
      turns[i * 2 * half + k] = static_cast<float>(std::cos(angle));
      turns[i * 2 * half + half + k] = static_cast<float>(std::sin(angle));
    }

  for (std::size_t l = 0; l < c.layers; ++l) {
    const DecoderBlock& b = model_.blocks[l];
    // attention's norm, then the qkv matmul
    norm(c, x.data(), b.norm1_w, b.norm1_b, h.data(), n, C);
    affine(h.data(), n, b.qkv_w, b.qkv_b, qkv.data());
    // Llama: q and k turned by their positions (and first normalised, in Qwen3)
    position(b, qkv.data(), n, turns);
    // save the keys and values of these positions in the KV cache
    std::vector<float>& K = k_[l];
    std::vector<float>& V = v_[l];
    K.resize(t * KW);
    V.resize(t * KW);
    for (std::size_t i = 0; i < n; ++i) {
      std::copy_n(qkv.data() + i * row + QW, KW, K.data() + (t0 + i) * KW);
      std::copy_n(qkv.data() + i * row + QW + KW, KW, V.data() + (t0 + i) * KW);
    }
    // the steps keep the queries and the weights; the keys and values are the cache's
    LayerSteps* ls = nullptr;
    if (steps) {
      ls = &out.layers.emplace_back();
      ls->q.resize(n * QW);
      for (std::size_t i = 0; i < n; ++i)
        std::copy_n(qkv.data() + i * row, QW, ls->q.data() + i * QW);
      ls->weights.assign(H * n * t, 0.0f);
    }
    // every head's attention, then the output projection
    attend(l, qkv.data(), n, z.data(), ls);
    affine(z.data(), n, b.proj_w, b.proj_b, a.data());
    // residual connection
    for (std::size_t i = 0; i < n * C; ++i) x[i] += a[i];
    // the MLP: its norm, then GELU's c_fc, GELU, c_proj or SwiGLU's down(SiLU(gate) ⊙ up)
    norm(c, x.data(), b.norm2_w, b.norm2_b, h.data(), n, C);
    affine(h.data(), n, b.fc_w, b.fc_b, mid.data());
    if (swiglu) {
      for (std::size_t i = 0; i < n; ++i) {
        float* gate = mid.data() + i * 2 * I;  // the gate's I numbers, then up's
        for (std::size_t j = 0; j < I; ++j) gate[j] = nn::silu(gate[j]) * gate[I + j];
      }
      affine(mid.data(), n, b.out_w, b.out_b, a.data(), 2 * I);
    } else {
      for (float& m : mid) m = nn::gelu(m);
      affine(mid.data(), n, b.out_w, b.out_b, a.data());
    }
    // residual connection
    for (std::size_t i = 0; i < n * C; ++i) x[i] += a[i];
  }

  // the final norm, and the unembedding into logits (n, vocab)
  norm(c, x.data(), model_.norm_w, model_.norm_b, h.data(), n, C);
  const std::vector<float>& U = c.tied ? model_.wte : model_.lm_head;  // (vocab, C)
  out.logits.resize(n * c.vocab);
  if (n < 8) {  // a token or a few (generation): a dot product per logit, four rows of U at once
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t v = 0;
      for (; v + 4 <= c.vocab; v += 4)
        dot4(h.data() + i * C, U.data() + v * C, C, out.logits.data() + i * c.vocab + v);
      for (; v < c.vocab; ++v)
        out.logits[i * c.vocab + v] = dot(h.data() + i * C, U.data() + v * C, C);
    }
  } else {
    // logitsᵀ (vocab, n) = U (vocab, C) · hᵀ (C, n) on the tiled product, 8 tokens a tile: U's
    // rows are the vocabulary's, so it is read as it is stored, and only h is transposed.
    std::vector<float> ht(C * n), lt(c.vocab * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < C; ++j) ht[j * n + i] = h[i * C + j];
    ops::gemm_f32(U.data(), C, 1, ht.data(), n, lt.data(), n, c.vocab, C, n, false);
    for (std::size_t v = 0; v < c.vocab; ++v)
      for (std::size_t i = 0; i < n; ++i) out.logits[i * c.vocab + v] = lt[v * n + i];
  }
  size_ = t;
  return out;
}

double surprisal_bits(const float* logits, std::size_t vocab, int id) {
  return -nn::log_sum_exp(logits, vocab).log_probability(logits[id]) / std::log(2.0);
}

}  // namespace attn
