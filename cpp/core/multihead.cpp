#include "multihead.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "rng.hpp"

namespace attn {
namespace {

// a (r, s) · b (s, c) → (r, c), as explicit loops over contiguous rows.
Matrix matmul(const Matrix& a, const Matrix& b) {
  const std::size_t r = a.shape()[0], s = a.shape()[1], c = b.shape()[1];
  Matrix out = xt::zeros<double>({r, c});  // (r, c)
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t k = 0; k < s; ++k) {
      const double aik = a(i, k);
      for (std::size_t j = 0; j < c; ++j) out(i, j) += aik * b(k, j);
    }
  return out;
}

Matrix identity(std::size_t d) {
  Matrix eye = xt::zeros<double>({d, d});  // (d, d)
  for (std::size_t i = 0; i < d; ++i) eye(i, i) = 1;
  return eye;
}

// Uniform in ±√(3 / fan_in): variance 1 / fan_in, so projected rows keep X's scale.
Matrix random_matrix(Rng& rng, std::size_t rows, std::size_t cols, std::size_t fan_in) {
  const double a = std::sqrt(3.0 / static_cast<double>(fan_in));
  Matrix w = Matrix::from_shape({rows, cols});  // (rows, cols)
  for (auto& x : w) x = rng.uniform(-a, a);
  return w;
}

std::string head_name(const char* matrix, std::size_t h) {
  return std::string(matrix) + "[" + std::to_string(h) + "]";
}

std::optional<Error> check_given(const Matrix& w, std::size_t rows, std::size_t cols,
                                 const std::string& name) {
  if (w.shape()[0] != rows || w.shape()[1] != cols) {
    return make_error(ErrorCode::shape_mismatch, name, -1, -1,
                      name + " is " + std::to_string(w.shape()[0]) + "×" +
                          std::to_string(w.shape()[1]) + " but must be " + std::to_string(rows) +
                          "×" + std::to_string(cols) + ".");
  }
  return check_finite(w, name);
}

// A product of finite matrices that overflowed (1e200 · 1e200), as an error naming the step
// (`input`, and `formula` of head `head`, counted from 1; 0 for the output) and the first cell
// that is not finite.
std::optional<Error> check_product(const Matrix& m, const char* input, std::size_t head,
                                   const char* formula) {
  const auto bad = check_finite(m, input);  // finds the cell
  if (!bad) return std::nullopt;
  const std::string step =
      head ? "Head " + std::to_string(head) + ": " + formula : std::string("The output ") + formula;
  return overflow_error(input, step, bad->row, bad->col, "a double");
}

std::optional<Error> check_heads(std::size_t heads) {
  if (heads >= 1 && heads <= Limits::max_heads) return std::nullopt;
  return make_error(ErrorCode::bad_dimension, "heads", -1, -1,
                    "The number of heads must be between 1 and " +
                        std::to_string(Limits::max_heads) + " (got " + std::to_string(heads) +
                        ").");
}

Error no_head(std::size_t head, std::size_t heads) {
  return make_error(ErrorCode::bad_argument, "head", -1, -1,
                    "There is no head " + std::to_string(head + 1) + ": there are " +
                        std::to_string(heads) + ".");
}

// The mean of the rows' entropies, summed in row order.
double mean_entropy(const std::vector<RowStats>& rows) {
  double total = 0;
  for (const RowStats& r : rows) total += r.entropy;
  return total / static_cast<double>(rows.size());
}

}  // namespace

Result<MultiHeadSteps> multi_head(const Matrix& x, const MultiHeadConfig& config) {
  if (auto e = check_size(x.shape()[0], x.shape()[1], "x")) return *e;
  if (auto e = check_finite(x, "x")) return *e;
  const std::size_t d_model = x.shape()[1];
  const std::size_t heads = config.heads;
  if (auto e = check_heads(heads)) return *e;
  const std::size_t d_k =
      config.d_k ? config.d_k : (d_model % heads == 0 ? d_model / heads : d_model);
  const std::size_t d_v = config.d_v ? config.d_v : d_k;
  if (d_k > Limits::max_dim || d_v > Limits::max_dim || heads * d_v > Limits::max_dim) {
    return make_error(ErrorCode::too_large, "dK", -1, -1,
                      "d_k = " + std::to_string(d_k) + " and d_v = " + std::to_string(d_v) +
                          " with " + std::to_string(heads) + " heads is above the limit of " +
                          std::to_string(Limits::max_dim) + " features.");
  }

  MultiHeadSteps out;
  out.x = x;
  out.heads.resize(heads);
  switch (config.projection) {
    case Projection::identity:
      if (d_k != d_model || d_v != d_model) {
        return make_error(ErrorCode::bad_dimension, "dK", -1, -1,
                          "Identity projections need d_k = d_v = " + std::to_string(d_model) +
                              " (the width of X), but d_k = " + std::to_string(d_k) +
                              " and d_v = " + std::to_string(d_v) +
                              ". Use random projections for other sizes.");
      }
      for (auto& head : out.heads) head.w_q = head.w_k = head.w_v = identity(d_model);
      // Stacked identities ÷ H: the output is the mean of the heads, in X's feature space.
      out.w_o = Matrix::from_shape({heads * d_v, d_model});
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t r = 0; r < d_v; ++r)
          for (std::size_t c = 0; c < d_model; ++c)
            out.w_o(h * d_v + r, c) = r == c ? 1.0 / static_cast<double>(heads) : 0.0;
      break;
    case Projection::random: {
      Rng rng(config.seed);
      for (auto& head : out.heads) {
        head.w_q = random_matrix(rng, d_model, d_k, d_model);
        head.w_k = random_matrix(rng, d_model, d_k, d_model);
        head.w_v = random_matrix(rng, d_model, d_v, d_model);
      }
      out.w_o = random_matrix(rng, heads * d_v, d_model, heads * d_v);
      break;
    }
    case Projection::given:
      for (const auto* list : {&config.w_q, &config.w_k, &config.w_v}) {
        if (list->size() != heads) {
          const char* name = list == &config.w_q ? "wq" : list == &config.w_k ? "wk" : "wv";
          return make_error(ErrorCode::shape_mismatch, name, -1, -1,
                            std::string(name) + " has " + std::to_string(list->size()) +
                                " matrices but there are " + std::to_string(heads) + " heads.");
        }
      }
      for (std::size_t h = 0; h < heads; ++h) {
        if (auto e = check_given(config.w_q[h], d_model, d_k, head_name("wq", h))) return *e;
        if (auto e = check_given(config.w_k[h], d_model, d_k, head_name("wk", h))) return *e;
        if (auto e = check_given(config.w_v[h], d_model, d_v, head_name("wv", h))) return *e;
        out.heads[h].w_q = config.w_q[h];
        out.heads[h].w_k = config.w_k[h];
        out.heads[h].w_v = config.w_v[h];
      }
      if (auto e = check_given(config.w_o, heads * d_v, d_model, "wo")) return *e;
      out.w_o = config.w_o;
      break;
  }

  const std::size_t n = x.shape()[0];
  out.concat = Matrix::from_shape({n, heads * d_v});  // (n, H·d_v)
  out.column_head.resize(heads * d_v);
  out.column_in_head.resize(heads * d_v);
  for (std::size_t c = 0; c < heads * d_v; ++c) {
    out.column_head[c] = c / d_v;
    out.column_in_head[c] = c % d_v;
  }
  for (std::size_t h = 0; h < heads; ++h) {
    HeadSteps& head = out.heads[h];
    // Q_h (n, d_k), K_h (n, d_k), V_h (n, d_v)
    const Matrix qkv[3] = {matmul(x, head.w_q), matmul(x, head.w_k), matmul(x, head.w_v)};
    static const char* const inputs[3] = {"queries", "keys", "values"};
    static const char* const formulas[3] = {"X·W_Q", "X·W_K", "X·W_V"};
    for (std::size_t p = 0; p < 3; ++p)
      if (auto e = check_product(qkv[p], inputs[p], h + 1, formulas[p])) return *e;
    auto steps = attention(qkv[0], qkv[1], qkv[2], config.attention);
    if (!steps.ok()) {
      Error e = steps.error();
      e.message = "Head " + std::to_string(h + 1) + ": " + e.message;
      return e;
    }
    head.steps = std::move(steps).value();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < d_v; ++t) out.concat(i, h * d_v + t) = head.steps.output(i, t);
  }
  out.output = matmul(out.concat, out.w_o);  // (n, d_model)
  if (auto e = check_product(out.output, "output", 0, "concat·W_O")) return *e;
  return out;
}

Result<std::vector<EntropyRow>> entropy_by_dk(const Matrix& x, const EntropySweep& sweep) {
  if (auto e = check_size(x.shape()[0], x.shape()[1], "x")) return *e;
  if (auto e = check_finite(x, "x")) return *e;
  if (auto e = check_heads(sweep.heads)) return *e;
  if (sweep.head >= sweep.heads) return no_head(sweep.head, sweep.heads);
  if (sweep.mask == MaskKind::custom) {
    return make_error(ErrorCode::bad_argument, "mask", -1, -1,
                      "The entropy sweep takes the mask none or causal, not a custom one.");
  }
  for (std::size_t k = 0; k < sweep.d_ks.size(); ++k) {
    if (sweep.d_ks[k] == 0 || (k > 0 && sweep.d_ks[k] <= sweep.d_ks[k - 1])) {
      return make_error(ErrorCode::bad_argument, "dKs", -1, static_cast<long>(k),
                        "The values of d_k must be at least 1 and increase, but entry " +
                            std::to_string(k + 1) + " is " + std::to_string(sweep.d_ks[k]) + ".");
    }
  }

  MultiHeadConfig c;
  c.heads = sweep.heads;
  c.projection = Projection::random;
  c.seed = sweep.seed;
  c.attention.similarity = sweep.similarity;
  c.attention.mask = sweep.mask;
  std::vector<EntropyRow> rows;
  for (const std::size_t d_k : sweep.d_ks) {
    if (d_k > Limits::max_dim / sweep.heads) break;  // d_k·heads above the limit
    c.d_k = d_k;
    EntropyRow row;
    row.d_k = d_k;
    for (const Scaling scaling : {Scaling::sqrt_dk, Scaling::none}) {
      c.attention.scaling = scaling;
      auto r = multi_head(x, c);
      if (!r) {
        Error e = r.error();
        e.message = "With d_k = " + std::to_string(d_k) + ": " + e.message;
        return e;
      }
      const double mean = mean_entropy(r->heads[sweep.head].steps.rows);
      (scaling == Scaling::none ? row.unscaled : row.scaled) = mean;
    }
    rows.push_back(row);
  }
  return rows;
}

Result<ProjectionExplanation> explain_projection(const MultiHeadSteps& steps, ProjectionKind kind,
                                                 std::size_t head, std::size_t i, std::size_t j) {
  static const char* const names[4] = {"queries", "keys", "values", "output"};
  const char* name = names[static_cast<int>(kind)];
  const bool is_output = kind == ProjectionKind::output;
  if (!is_output && head >= steps.heads.size()) return no_head(head, steps.heads.size());
  const Matrix* out = &steps.output;   // (n, d_model)
  const Matrix* left = &steps.concat;  // (n, H·d_v)
  const Matrix* right = &steps.w_o;    // (H·d_v, d_model)
  if (!is_output) {
    const HeadSteps& h = steps.heads[head];
    out = kind == ProjectionKind::queries ? &h.steps.queries
          : kind == ProjectionKind::keys  ? &h.steps.keys
                                          : &h.steps.values;
    left = &steps.x;
    right = kind == ProjectionKind::queries ? &h.w_q
            : kind == ProjectionKind::keys  ? &h.w_k
                                            : &h.w_v;
  }
  if (i >= out->shape()[0] || j >= out->shape()[1]) {
    return make_error(ErrorCode::bad_argument, name, static_cast<long>(i), static_cast<long>(j),
                      std::string("There is no entry (") + std::to_string(i + 1) + ", " +
                          std::to_string(j + 1) + ") of " + name + ": it is " +
                          std::to_string(out->shape()[0]) + "×" + std::to_string(out->shape()[1]) +
                          ".");
  }
  ProjectionExplanation p;
  p.row = i;
  p.col = j;
  const std::size_t len = left->shape()[1], cols = right->shape()[1];
  p.left.assign(row_of(*left, i), row_of(*left, i) + len);
  p.right.resize(len);
  p.terms.resize(len);
  for (std::size_t t = 0; t < len; ++t) {
    p.right[t] = right->data()[t * cols + j];
    p.terms[t] = p.left[t] * p.right[t];
  }
  p.value = row_of(*out, i)[j];
  return p;
}

}  // namespace attn
