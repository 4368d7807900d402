#include <cmath>
#include <utility>
#include <vector>

#include "multihead.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;
using attn::test::approx;
using attn::test::mat;
using attn::test::require_close;

namespace {

Matrix sentence() {  // 4 tokens × 3 features
  return mat({{1, 0, 0.5}, {0, 1, 0}, {0.5, 0.5, 1}, {1, 1, -1}});
}

MultiHeadSteps run(const Matrix& x, const MultiHeadConfig& c) {
  auto r = multi_head(x, c);
  INFO(r.error().message);
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("multi-head: one identity head equals single-head self-attention", "[multihead]") {
  MultiHeadConfig c;
  c.heads = 1;
  c.attention.mask = MaskKind::causal;
  const MultiHeadSteps mh = run(sentence(), c);
  auto single = attention(sentence(), sentence(), sentence(), c.attention);
  REQUIRE(single.ok());
  REQUIRE(mh.heads.size() == 1);
  require_close(mh.heads[0].steps.weights, single->weights);
  require_close(mh.concat, single->output);
  require_close(mh.w_o, mat({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
  require_close(mh.output, single->output);
}

TEST_CASE("multi-head: identity heads average to the single-head output", "[multihead]") {
  MultiHeadConfig c;
  c.heads = 3;
  c.d_k = 3;  // identity needs d_k = d_model
  const MultiHeadSteps mh = run(sentence(), c);
  auto single = attention(sentence(), sentence(), sentence());
  REQUIRE(single.ok());
  REQUIRE(mh.concat.shape()[1] == 9);
  require_close(mh.output, single->output);  // three equal heads, averaged by W_O = [I; I; I] / 3
  CHECK(mh.w_o(3, 0) == approx(1.0 / 3));
}

TEST_CASE("multi-head: the same seed gives the same numbers and another seed others",
          "[multihead]") {
  MultiHeadConfig c;
  c.heads = 2;
  c.d_k = 2;
  c.projection = Projection::random;
  c.seed = 42;
  const MultiHeadSteps a = run(sentence(), c), b = run(sentence(), c);
  for (std::size_t h = 0; h < 2; ++h) {
    CHECK(a.heads[h].w_q == b.heads[h].w_q);  // bit for bit
    CHECK(a.heads[h].steps.weights == b.heads[h].steps.weights);
  }
  CHECK(a.output == b.output);
  REQUIRE(a.heads[0].w_q.shape()[0] == 3);
  REQUIRE(a.heads[0].w_q.shape()[1] == 2);
  REQUIRE(a.w_o.shape()[0] == 4);
  REQUIRE(a.w_o.shape()[1] == 3);
  REQUIRE(a.output.shape()[1] == 3);

  // The documented generator: W_Q[0](0, 0) is the first draw of Rng(42), in ±√(3/3).
  Rng rng(42);
  CHECK(a.heads[0].w_q(0, 0) == rng.uniform(-1, 1));
  CHECK(a.heads[0].w_q(0, 1) == rng.uniform(-1, 1));

  c.seed = 43;
  const MultiHeadSteps other = run(sentence(), c);
  CHECK(other.heads[0].w_q(0, 0) != a.heads[0].w_q(0, 0));
}

TEST_CASE("multi-head: random draws are spread over their documented range", "[multihead]") {
  MultiHeadConfig c;
  c.heads = 4;
  c.d_k = 16;
  c.projection = Projection::random;
  Matrix x = xt::ones<double>({std::size_t{5}, std::size_t{48}});
  const MultiHeadSteps mh = run(x, c);
  const double a = std::sqrt(3.0 / 48);
  double sum = 0, sum2 = 0;
  std::size_t count = 0;
  for (const auto& head : mh.heads)
    for (double w : head.w_q) {
      CHECK(std::abs(w) <= a);
      sum += w;
      sum2 += w * w;
      ++count;
    }
  // Variance 1/fan_in = 1/48, mean 0, over 3072 draws.
  CHECK(sum / count == Approx(0).margin(0.01));
  CHECK(sum2 / count == Approx(1.0 / 48).epsilon(0.1));
}

TEST_CASE("multi-head: given projections are used as given", "[multihead]") {
  MultiHeadConfig c;
  c.heads = 2;
  c.d_k = 1;
  c.projection = Projection::given;
  // Head 1 looks at feature 1 only, head 2 at feature 2.
  c.w_q = {mat({{1}, {0}, {0}}), mat({{0}, {1}, {0}})};
  c.w_k = c.w_q;
  c.w_v = c.w_q;
  c.w_o = mat({{1, 0, 0}, {0, 1, 0}});
  const MultiHeadSteps mh = run(sentence(), c);
  // Head 1 is attention over the first column alone.
  const Matrix col0 = mat({{1}, {0}, {0.5}, {1}});
  auto head1 = attention(col0, col0, col0);
  REQUIRE(head1.ok());
  require_close(mh.heads[0].steps.output, head1->output);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(mh.output(i, 0) == approx(mh.concat(i, 0)));
    CHECK(mh.output(i, 1) == approx(mh.concat(i, 1)));
    CHECK(mh.output(i, 2) == 0);
  }
}

TEST_CASE("multi-head: errors name the input", "[multihead][errors]") {
  MultiHeadConfig c;
  c.heads = 0;
  auto r = multi_head(sentence(), c);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::bad_dimension);
  CHECK(r.error().input == "heads");

  c.heads = 2;
  c.d_k = 2;
  r = multi_head(sentence(), c);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message, Catch::Contains("Identity projections need d_k = d_v = 3"));

  c.projection = Projection::given;
  c.w_q = {mat({{1, 0}, {0, 1}, {0, 0}})};
  r = multi_head(sentence(), c);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().input == "wq");
  CHECK_THAT(r.error().message, Catch::Contains("1 matrices but there are 2 heads"));

  c.heads = 1;
  c.w_k = {mat({{1, 0}, {0, 1}})};
  c.w_v = c.w_q;
  r = multi_head(sentence(), c);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().input == "wk[0]");
  CHECK_THAT(r.error().message, Catch::Contains("is 2×2 but must be 3×2"));

  Matrix bad = sentence();
  bad(2, 1) = std::numeric_limits<double>::quiet_NaN();
  r = multi_head(bad, MultiHeadConfig{});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().input == "x");
  CHECK(r.error().row == 2);

  MultiHeadConfig cos;
  cos.attention.similarity = Similarity::cosine;
  r = multi_head(mat({{1, 0}, {0, 0}}), cos);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message, Catch::StartsWith("Head 1: Query 2 is all zeros"));
}

TEST_CASE("multi-head: finite inputs whose products overflow name the step and cell",
          "[multihead][errors]") {
  MultiHeadConfig c;
  c.projection = Projection::given;
  c.w_q = {mat({{1e200}})};
  c.w_k = {mat({{1}})};
  c.w_v = {mat({{1}})};
  c.w_o = mat({{1}});
  // X·W_Q: row 2 is 1e200 · 1e200 = 1e400, beyond the largest double (~1.8e308).
  auto r = multi_head(mat({{1}, {1e200}}), c);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::not_finite);
  CHECK(r.error().input == "queries");
  CHECK(r.error().row == 1);
  CHECK(r.error().col == 0);
  CHECK(r.error().message ==
        "Head 1: X·W_Q at row 2, column 1 is too large to compute (it "
        "overflows a double). Use smaller numbers.");

  // One token: its weight is 1, so the head's output is V = X = 1e10, and 1e10 · 1e300 = 1e310.
  c.w_q = {mat({{1}})};
  c.w_o = mat({{1e300}});
  r = multi_head(mat({{1e10}}), c);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::not_finite);
  CHECK(r.error().input == "output");
  CHECK(r.error().row == 0);
  CHECK(r.error().message ==
        "The output concat·W_O at row 1, column 1 is too large to compute "
        "(it overflows a double). Use smaller numbers.");

  // Just below the largest double it is still a number.
  c.w_o = mat({{1e298}});
  const MultiHeadSteps fine = run(mat({{1e10}}), c);
  CHECK(fine.output(0, 0) == approx(1e308));
}

TEST_CASE("multi-head: concat column 5 of 3 heads with d_v 2 is column 1 of head 2",
          "[multihead][columns]") {
  MultiHeadConfig c;
  c.heads = 3;
  c.d_k = 2;
  c.projection = Projection::random;
  const MultiHeadSteps mh = run(sentence(), c);
  REQUIRE(mh.column_head == std::vector<std::size_t>{0, 0, 1, 1, 2, 2});
  REQUIRE(mh.column_in_head == std::vector<std::size_t>{0, 1, 0, 1, 0, 1});
  // Each column of concat is that column of that head's output.
  for (std::size_t col = 0; col < 6; ++col)
    for (std::size_t i = 0; i < 4; ++i)
      CHECK(mh.concat(i, col) ==
            mh.heads[mh.column_head[col]].steps.output(i, mh.column_in_head[col]));
}

TEST_CASE("multi-head: one identity head maps concat column t to column t of head 0",
          "[multihead][columns]") {
  const MultiHeadSteps mh = run(sentence(), MultiHeadConfig{});
  CHECK(mh.column_head == std::vector<std::size_t>{0, 0, 0});
  CHECK(mh.column_in_head == std::vector<std::size_t>{0, 1, 2});
}

namespace {

EntropySweep sweep_of(std::size_t heads, std::size_t head, std::vector<std::size_t> d_ks) {
  EntropySweep s;
  s.heads = heads;
  s.head = head;
  s.d_ks = std::move(d_ks);
  s.seed = 7;
  return s;
}

std::vector<EntropyRow> sweep(const Matrix& x, const EntropySweep& s) {
  auto r = entropy_by_dk(x, s);
  INFO(r.error().message);
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("entropy by d_k: three equal tokens spread evenly with entropy ln 3",
          "[multihead][entropy]") {
  const Matrix same = mat({{1, 2}, {1, 2}, {1, 2}});  // equal scores: uniform weights
  const auto rows = sweep(same, sweep_of(2, 1, {1, 2, 4}));
  REQUIRE(rows.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(rows[k].d_k == std::size_t{1} << k);
    CHECK(rows[k].scaled == approx(std::log(3.0)));
    CHECK(rows[k].unscaled == approx(std::log(3.0)));
  }
}

TEST_CASE("entropy by d_k: three equal causal tokens average ln 1 and ln 2 and ln 3",
          "[multihead][entropy]") {
  EntropySweep s = sweep_of(1, 0, {8});
  s.mask = MaskKind::causal;
  const auto rows = sweep(mat({{1, 2}, {1, 2}, {1, 2}}), s);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].scaled == approx(std::log(6.0) / 3));  // (0 + ln 2 + ln 3) / 3
  CHECK(rows[0].unscaled == approx(std::log(6.0) / 3));
}

TEST_CASE("entropy by d_k: each row is the mean row entropy of multi_head scaled and unscaled",
          "[multihead][entropy]") {
  EntropySweep s = sweep_of(2, 1, {1, 4, 16});
  s.similarity = Similarity::cosine;
  const auto rows = sweep(sentence(), s);
  REQUIRE(rows.size() == 3);
  for (const EntropyRow& row : rows) {
    for (const Scaling scaling : {Scaling::sqrt_dk, Scaling::none}) {
      MultiHeadConfig c;
      c.heads = 2;
      c.d_k = row.d_k;
      c.projection = Projection::random;
      c.seed = 7;
      c.attention.similarity = Similarity::cosine;
      c.attention.scaling = scaling;
      const MultiHeadSteps mh = run(sentence(), c);
      double total = 0;
      for (const RowStats& r : mh.heads[1].steps.rows) total += r.entropy;
      CHECK((scaling == Scaling::none ? row.unscaled : row.scaled) == approx(total / 4));
    }
  }
  // d_k = 1 divides by √1: nothing changes.
  CHECK(rows[0].scaled == rows[0].unscaled);
  // Dividing by √16 = 4 flattens the weights: more entropy than without.
  CHECK(rows[2].scaled > rows[2].unscaled);
}

TEST_CASE("entropy by d_k: 4 heads stop before d_k 512 since 4 × 512 is above 1024",
          "[multihead][entropy]") {
  const auto rows = sweep(sentence(), sweep_of(4, 3, {128, 256, 512}));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].d_k == 128);
  CHECK(rows[1].d_k == 256);
  CHECK(sweep(sentence(), sweep_of(4, 0, {512, 1024})).empty());
}

TEST_CASE("entropy by d_k: errors name the head and the d_k entry and the mask",
          "[multihead][entropy][errors]") {
  auto head = entropy_by_dk(sentence(), sweep_of(2, 2, {1}));
  REQUIRE_FALSE(head.ok());
  CHECK(head.error().code == ErrorCode::bad_argument);
  CHECK(head.error().input == "head");
  CHECK(head.error().message == "There is no head 3: there are 2.");
  auto order = entropy_by_dk(sentence(), sweep_of(1, 0, {1, 4, 2}));
  REQUIRE_FALSE(order.ok());
  CHECK(order.error().input == "dKs");
  CHECK(order.error().col == 2);
  auto zero = entropy_by_dk(sentence(), sweep_of(1, 0, {0}));
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().col == 0);
  EntropySweep custom = sweep_of(1, 0, {1});
  custom.mask = MaskKind::custom;
  CHECK(entropy_by_dk(sentence(), custom).error().input == "mask");
  CHECK(entropy_by_dk(sentence(), sweep_of(0, 0, {1})).error().code == ErrorCode::bad_dimension);
  // A run's own error, with its d_k: cosine of a zero token.
  EntropySweep cosine = sweep_of(1, 0, {2});
  cosine.similarity = Similarity::cosine;
  auto zero_row = entropy_by_dk(mat({{1, 2}, {0, 0}}), cosine);
  REQUIRE_FALSE(zero_row.ok());
  CHECK(zero_row.error().code == ErrorCode::zero_vector);
  CHECK(zero_row.error().message.rfind("With d_k = 2: Head 1: ", 0) == 0);
}

TEST_CASE("explain projection: Q(1 0) of identity heads is x_1 · column 0 of I = 0",
          "[multihead][explain]") {
  const MultiHeadSteps mh = run(sentence(), MultiHeadConfig{});
  auto p = explain_projection(mh, ProjectionKind::queries, 0, 1, 0);
  REQUIRE(p.ok());
  CHECK(p->left == std::vector<double>{0, 1, 0});   // x_1
  CHECK(p->right == std::vector<double>{1, 0, 0});  // column 0 of W_Q = I
  CHECK(p->terms == std::vector<double>{0, 0, 0});
  CHECK(p->value == 0);
  // x_2 = (0.5, 0.5, 1) times column 2 of I is its third entry, 1.
  CHECK(explain_projection(mh, ProjectionKind::values, 0, 2, 2)->value == 1);
}

TEST_CASE(
    "explain projection: terms add up to the entry of each head's Q and K and V and the output",
    "[multihead][explain]") {
  MultiHeadConfig c;
  c.heads = 2;
  c.d_k = 2;
  c.d_v = 3;
  c.projection = Projection::random;
  c.seed = 5;
  const MultiHeadSteps mh = run(sentence(), c);
  const ProjectionKind kinds[3] = {ProjectionKind::queries, ProjectionKind::keys,
                                   ProjectionKind::values};
  for (std::size_t h = 0; h < 2; ++h)
    for (const ProjectionKind kind : kinds) {
      const HeadSteps& head = mh.heads[h];
      const Matrix& out = kind == ProjectionKind::queries ? head.steps.queries
                          : kind == ProjectionKind::keys  ? head.steps.keys
                                                          : head.steps.values;
      const Matrix& w = kind == ProjectionKind::queries ? head.w_q
                        : kind == ProjectionKind::keys  ? head.w_k
                                                        : head.w_v;
      auto p = explain_projection(mh, kind, h, 3, 1);
      REQUIRE(p.ok());
      REQUIRE(p->terms.size() == 3);
      double sum = 0;
      for (std::size_t t = 0; t < 3; ++t) {
        CHECK(p->left[t] == mh.x(3, t));
        CHECK(p->right[t] == w(t, 1));
        CHECK(p->terms[t] == p->left[t] * p->right[t]);
        sum += p->terms[t];
      }
      CHECK(p->value == out(3, 1));
      CHECK(sum == approx(p->value));
    }
  auto f = explain_projection(mh, ProjectionKind::output, 0, 2, 0);
  REQUIRE(f.ok());
  REQUIRE(f->terms.size() == 6);  // H·d_v = 2 × 3
  double sum = 0;
  for (std::size_t s = 0; s < 6; ++s) {
    CHECK(f->left[s] == mh.concat(2, s));
    CHECK(f->right[s] == mh.w_o(s, 0));
    sum += f->terms[s];
  }
  CHECK(f->value == mh.output(2, 0));
  CHECK(sum == approx(f->value));
}

TEST_CASE("explain projection: a head or an entry out of range is a bad argument",
          "[multihead][explain][errors]") {
  MultiHeadConfig c;
  c.heads = 2;
  c.d_k = 2;
  c.projection = Projection::random;
  const MultiHeadSteps mh = run(sentence(), c);  // 4 tokens; Q, K, V 4×2; output 4×3
  auto head = explain_projection(mh, ProjectionKind::keys, 2, 0, 0);
  REQUIRE_FALSE(head.ok());
  CHECK(head.error().code == ErrorCode::bad_argument);
  CHECK(head.error().input == "head");
  auto col = explain_projection(mh, ProjectionKind::queries, 0, 0, 2);
  REQUIRE_FALSE(col.ok());
  CHECK(col.error().input == "queries");
  CHECK(col.error().row == 0);
  CHECK(col.error().col == 2);
  CHECK(col.error().message == "There is no entry (1, 3) of queries: it is 4×2.");
  auto row = explain_projection(mh, ProjectionKind::output, 0, 4, 0);
  REQUIRE_FALSE(row.ok());
  CHECK(row.error().input == "output");
  CHECK(row.error().row == 4);
  // The output does not use the head.
  CHECK(explain_projection(mh, ProjectionKind::output, 9, 3, 2).ok());
}
