#include "gpt2.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "nn.hpp"
#include "products.hpp"

namespace attn {

namespace {

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Error model_error(const std::string& message) {
  return make_error(ErrorCode::bad_argument, "model", -1, -1, "model: " + message);
}

// Reads the tensors of one file by their GPT-2 names, each checked against the shape it must have.
class Weights {
 public:
  // `read` false: only presence and shape are checked (a header read alone), nothing is filled.
  Weights(const SafeTensors& file, std::string prefix, bool read)
      : file_(file), prefix_(std::move(prefix)), read_(read) {}

  bool has(const std::string& name) const { return file_.find(prefix_ + name) != nullptr; }

  // Fills `out`; false (and error()) when missing, of another shape or not finite.
  bool take(const std::string& name, const std::vector<std::size_t>& shape,
            std::vector<float>& out) {
    const TensorEntry* t = file_.find(prefix_ + name);
    if (!t)
      return fail("it has no tensor \"" + prefix_ + name + "\" " + shape_text(shape) +
                  ", which a GPT-2 model needs.");
    if (t->shape != shape)
      return fail("tensor \"" + t->name + "\" has shape " + shape_text(t->shape) +
                  "; this model needs " + shape_text(shape) + ".");
    if (!read_) return true;
    out = tensor_floats(file_, *t);
    for (std::size_t i = 0; i < out.size(); ++i)
      if (!std::isfinite(out[i]))
        return fail("tensor \"" + t->name +
                    "\" holds a value that is not a finite number, at index " + std::to_string(i) +
                    ".");
    return true;
  }
  // A (rows, cols) matrix, kept packed (PackedMatrix): the float32 copy goes once it is packed.
  bool take(const std::string& name, std::size_t rows, std::size_t cols, PackedMatrix& out) {
    std::vector<float> w;
    if (!take(name, {rows, cols}, w)) return false;
    if (read_) out = PackedMatrix::pack(w, rows, cols);
    return true;
  }
  const Error& error() const { return error_; }

 private:
  const SafeTensors& file_;
  std::string prefix_;
  bool read_;
  Error error_;
  bool fail(const std::string& m) {
    error_ = model_error(m);
    return false;
  }
};

// out (n, m) = a (n, k) · w (k, m) + bias (m), on the trainer's register tiles over w's strips.
void affine(const float* a, std::size_t n, const PackedMatrix& w, const std::vector<float>& bias,
            float* out) {
  const std::size_t m = w.cols;
  for (std::size_t i = 0; i < n; ++i) std::copy(bias.begin(), bias.end(), out + i * m);
  ops::gemm_packed(a, w.rows, w.strips.data(), out, m, n, w.rows, m, true);
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

// LayerNorm over n rows of width C as GPT-2 and PyTorch compute it, the statistics in double: one
// function for the three places a block and the model's end call it, so it is compiled once.
[[gnu::noinline]] void gpt2_layer_norm(const float* x, const std::vector<float>& w,
                                       const std::vector<float>& b, float* out, std::size_t n,
                                       std::size_t C) {
  nn::layer_norm<float, double>(x, w.data(), b.data(), out, n, C, nn::kLayerNormEps);
}

// ", and it looks like a Llama-family model", from a tensor name only that family uses, or "".
std::string family(const SafeTensors& file) {
  static const std::pair<const char*, const char*> kMarks[] = {
      {"self_attn.q_proj", "a Llama-family model (Llama, Mistral, Qwen …)"},
      {"gpt_neox.", "a GPT-NeoX-family model (Pythia …)"},
      {"attention.self.query", "a BERT-family model"},
      {"self_attention.query_key_value", "a BLOOM- or Falcon-family model"},
      {"attn.attention.q_proj", "a GPT-Neo model"},
      {"encoder.block.", "a T5-family model"}};
  for (const auto& [mark, name] : kMarks)
    for (const TensorEntry& t : file.tensors)
      if (t.name.find(mark) != std::string::npos) return std::string(", and it looks like ") + name;
  return {};
}

}  // namespace

PackedMatrix PackedMatrix::pack(const std::vector<float>& w, std::size_t rows, std::size_t cols) {
  constexpr std::size_t kStrip = 8;
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

Result<Gpt2> load_gpt2(const SafeTensors& file, std::size_t heads, bool read) {
  const std::string prefix = file.find("wte.weight")               ? ""
                             : file.find("transformer.wte.weight") ? "transformer."
                                                                   : "?";
  if (prefix == "?") {
    std::string seen;
    for (std::size_t i = 0; i < file.tensors.size() && i < 4; ++i)
      seen += (i ? ", " : "") + file.tensors[i].name;
    // The parts a GPT-2 model has, named as they are missing (with or without "transformer.").
    std::string missing = "no token embedding \"wte.weight\"";
    const auto has = [&](const std::string& n) {
      return file.find(n) || file.find("transformer." + n);
    };
    if (!has("wpe.weight")) missing += ", no position embedding \"wpe.weight\"";
    if (!has("h.0.ln_1.weight")) missing += ", no blocks \"h.0.…\"";
    if (!has("ln_f.weight")) missing += ", no final LayerNorm \"ln_f\"";
    return model_error("this is not a GPT-2 model: it has " + missing + family(file) +
                       " (its tensors begin " + (seen.empty() ? "with none" : seen) + ").");
  }
  const TensorEntry& wte = *file.find(prefix + "wte.weight");
  const TensorEntry* wpe = file.find(prefix + "wpe.weight");
  if (wte.shape.size() != 2 || wte.shape[0] == 0 || wte.shape[1] == 0)
    return model_error("tensor \"" + wte.name + "\" has shape " + shape_text(wte.shape) +
                       "; a token embedding is [vocabulary, width].");
  if (!wpe || wpe->shape.size() != 2 || wpe->shape[0] == 0)
    return model_error("it has no position embedding \"" + prefix + "wpe.weight\" [context, " +
                       std::to_string(wte.shape[1]) + "], which a GPT-2 model needs.");
  Gpt2 m;
  Gpt2Config& c = m.config;
  c.vocab = wte.shape[0];
  c.width = wte.shape[1];
  c.context = wpe->shape[0];
  Weights w(file, prefix, read);
  while (w.has("h." + std::to_string(c.layers) + ".ln_1.weight")) ++c.layers;
  if (c.layers == 0)
    return model_error("it has no blocks (\"" + prefix +
                       "h.0.ln_1.weight\" and the rest): it is not a GPT-2 model.");
  if (heads == 0 && file.meta("n_head")) {
    const std::string& s = *file.meta("n_head");
    heads = s.find_first_not_of("0123456789") == std::string::npos && !s.empty() && s.size() < 6
                ? std::stoul(s)
                : 0;
    if (heads == 0)
      return model_error("its metadata n_head, \"" + s + "\", is not a count of heads.");
  }
  if (heads == 0) heads = c.width % 64 == 0 ? c.width / 64 : 0;
  if (heads == 0 || c.width % heads != 0)
    return model_error("its width, " + std::to_string(c.width) + ", does not divide into " +
                       (heads ? std::to_string(heads) : "heads of 64") +
                       " heads: give the head count.");
  c.heads = heads;
  const std::size_t C = c.width;
  if (!w.take("wte.weight", {c.vocab, C}, m.wte) || !w.take("wpe.weight", {c.context, C}, m.wpe))
    return w.error();
  m.blocks.resize(c.layers);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    Gpt2Block& b = m.blocks[l];
    const bool ok =
        w.take(h + "ln_1.weight", {C}, b.ln1_w) && w.take(h + "ln_1.bias", {C}, b.ln1_b) &&
        w.take(h + "attn.c_attn.weight", C, 3 * C, b.attn_w) &&
        w.take(h + "attn.c_attn.bias", {3 * C}, b.attn_b) &&
        w.take(h + "attn.c_proj.weight", C, C, b.proj_w) &&
        w.take(h + "attn.c_proj.bias", {C}, b.proj_b) && w.take(h + "ln_2.weight", {C}, b.ln2_w) &&
        w.take(h + "ln_2.bias", {C}, b.ln2_b) && w.take(h + "mlp.c_fc.weight", C, 4 * C, b.fc_w) &&
        w.take(h + "mlp.c_fc.bias", {4 * C}, b.fc_b) &&
        w.take(h + "mlp.c_proj.weight", 4 * C, C, b.out_w) &&
        w.take(h + "mlp.c_proj.bias", {C}, b.out_b);
    if (!ok) return w.error();
  }
  if (!w.take("ln_f.weight", {C}, m.lnf_w) || !w.take("ln_f.bias", {C}, m.lnf_b)) return w.error();
  if (file.find("lm_head.weight")) {
    Weights top(file, "", read);
    if (!top.take("lm_head.weight", {c.vocab, C}, m.lm_head)) return top.error();
    c.tied = false;
  }
  return m;
}

// The cache grows with the tokens (GPT-2 small's whole context would be 75 MB held from the start).
Gpt2Cache::Gpt2Cache(const Gpt2& model)
    : model_(model), k_(model.config.layers), v_(model.config.layers) {}

// Attention is the only step where tokens mix across time: new token i (at position t0 + i) reads
// the keys and values of every position up to its own, the cached ones and the new ones before it,
// so the causal mask is just where the loop over keys stops. Shapes: qkv (n, 3C), the cache's
// K and V (t, C), z (n, C); head h works on columns h·d … (h+1)·d − 1 of each.
void Gpt2Cache::attend(std::size_t l, const float* qkv, std::size_t n, float* z,
                       Gpt2LayerSteps* steps) {
  const Gpt2Config& c = model_.config;
  const std::size_t C = c.width, H = c.heads, d = c.head_size(), t0 = size_, t = size_ + n;
  const float* K = k_[l].data();
  const float* V = v_[l].data();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  std::vector<float> scores(t);  // (t) one query's scores, then its weights, over the keys
  std::fill(z, z + n * C, 0.0f);
  for (std::size_t hd = 0; hd < H; ++hd) {
    for (std::size_t i = 0; i < n; ++i) {
      const float* q = qkv + i * 3 * C + hd * d;
      const std::size_t seen = t0 + i + 1;  // keys 0 … t0 + i
      // the scores q·k / √d, and their softmax
      for (std::size_t j = 0; j < seen; ++j) scores[j] = dot(q, K + j * C + hd * d, d) * scale;
      nn::softmax(scores.data(), seen);
      // the weighted sum of the values, into this head's columns of z
      float* zi = z + i * C + hd * d;
      for (std::size_t j = 0; j < seen; ++j) {
        const float wgt = scores[j];
        if (steps) steps->weights[(hd * n + i) * t + j] = wgt;
        const float* v = V + j * C + hd * d;
        for (std::size_t e = 0; e < d; ++e) zi[e] += wgt * v[e];
      }
    }
  }
}

Result<Gpt2Steps> Gpt2Cache::append(const std::vector<int>& tokens, bool steps) {
  const Gpt2Config& c = model_.config;
  const std::size_t n = tokens.size(), C = c.width, H = c.heads, t0 = size_, t = size_ + n;
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
  Gpt2Steps out;
  out.first = t0;
  // The n new tokens' buffers, allocated once for every layer.
  std::vector<float> x(n * C);        // (n, C) the residual stream
  std::vector<float> h(n * C);        // (n, C) x normalised: a sublayer's input
  std::vector<float> qkv(n * 3 * C);  // (n, 3C) each token's query, key and value, side by side
  std::vector<float> z(n * C);        // (n, C) the heads' outputs, side by side
  std::vector<float> a(n * C);        // (n, C) a sublayer's output, before it is added to x
  std::vector<float> mid(n * 4 * C);  // (n, 4C) the MLP's hidden layer

  // token embedding + position embedding (the positions after those already in the cache)
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < C; ++j)
      x[i * C + j] = model_.wte[tokens[i] * C + j] + model_.wpe[(t0 + i) * C + j];

  for (std::size_t l = 0; l < c.layers; ++l) {
    const Gpt2Block& b = model_.blocks[l];
    // attention's LayerNorm, then the qkv matmul
    gpt2_layer_norm(x.data(), b.ln1_w, b.ln1_b, h.data(), n, C);
    affine(h.data(), n, b.attn_w, b.attn_b, qkv.data());
    // save the keys and values of these positions in the KV cache
    std::vector<float>& K = k_[l];
    std::vector<float>& V = v_[l];
    K.resize(t * C);
    V.resize(t * C);
    for (std::size_t i = 0; i < n; ++i) {
      std::copy_n(qkv.data() + i * 3 * C + C, C, K.data() + (t0 + i) * C);
      std::copy_n(qkv.data() + i * 3 * C + 2 * C, C, V.data() + (t0 + i) * C);
    }
    // the steps keep the queries and the weights; the keys and values are the cache's
    Gpt2LayerSteps* ls = nullptr;
    if (steps) {
      ls = &out.layers.emplace_back();
      ls->q.resize(n * C);
      for (std::size_t i = 0; i < n; ++i)
        std::copy_n(qkv.data() + i * 3 * C, C, ls->q.data() + i * C);
      ls->weights.assign(H * n * t, 0.0f);
    }
    // every head's attention, then the output projection
    attend(l, qkv.data(), n, z.data(), ls);
    affine(z.data(), n, b.proj_w, b.proj_b, a.data());
    // residual connection
    for (std::size_t i = 0; i < n * C; ++i) x[i] += a[i];
    // the MLP: LayerNorm, c_fc, GELU, c_proj
    gpt2_layer_norm(x.data(), b.ln2_w, b.ln2_b, h.data(), n, C);
    affine(h.data(), n, b.fc_w, b.fc_b, mid.data());
    for (float& m : mid) m = nn::gelu(m);
    affine(mid.data(), n, b.out_w, b.out_b, a.data());
    // residual connection
    for (std::size_t i = 0; i < n * C; ++i) x[i] += a[i];
  }

  // the final LayerNorm, and the unembedding into logits (n, vocab)
  gpt2_layer_norm(x.data(), model_.lnf_w, model_.lnf_b, h.data(), n, C);
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
