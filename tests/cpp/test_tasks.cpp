// The task generators: shapes, vocabularies, targets that are the task's answer, and the
// pattern each head score reads.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tasks.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

struct Sequence {
  std::vector<int> tokens, targets;
};

Sequence draw(const TaskConfig& c, Rng& rng) {
  const TaskInfo info = task_info(c).value();
  Sequence s{std::vector<int>(info.seq_len, -7), std::vector<int>(info.seq_len, -7)};
  generate_sequence(c, rng, s.tokens.data(), s.targets.data());
  return s;
}

// Every token below vocab and every target −1 or below vocab, with targets exactly at `where`.
void check_shape(const TaskConfig& c, const Sequence& s, const std::vector<std::size_t>& where) {
  const TaskInfo info = task_info(c).value();
  for (std::size_t t = 0; t < info.seq_len; ++t) {
    INFO("position " << t);
    CHECK(s.tokens[t] >= 0);
    CHECK(s.tokens[t] < static_cast<int>(info.vocab));
    const bool wanted = std::find(where.begin(), where.end(), t) != where.end();
    CHECK((s.targets[t] >= 0) == wanted);
    CHECK(s.targets[t] < static_cast<int>(info.vocab));
  }
}

}  // namespace

TEST_CASE("tasks: each task states its vocabulary, length and description", "[trainer]") {
  struct Expect {
    TaskKind kind;
    const char* name;
    std::size_t vocab, seq_len;
  };
  const Expect expected[] = {{TaskKind::find_match, "find_match", 20, 5},
                             {TaskKind::copy, "copy", 11, 10},
                             {TaskKind::reverse, "reverse", 11, 10},
                             {TaskKind::sort, "sort", 4, 12},
                             {TaskKind::induction, "induction", 16, 16}};
  for (const Expect& e : expected) {
    TaskConfig c;
    c.kind = e.kind;
    auto info = task_info(c);
    REQUIRE(info.ok());
    CHECK(std::string(info->name) == e.name);
    CHECK(info->vocab == e.vocab);
    CHECK(info->seq_len == e.seq_len);
    const std::string description = info->description;
    CHECK(!description.empty());
    CHECK(description.find('\n') == std::string::npos);
    CHECK(task_token_names(c).size() == e.vocab);
  }
  TaskConfig find;
  CHECK(task_token_names(find)[0] == "bird");
  CHECK(task_token_names(find)[15] == "flying");
}

TEST_CASE("tasks: find-the-match shows one element per group and asks for a present one",
          "[trainer]") {
  TaskConfig c;  // four elements and a query
  Rng rng(5);
  for (int k = 0; k < 200; ++k) {
    const Sequence s = draw(c, rng);
    check_shape(c, s, {4});
    std::set<int> groups;
    for (int i = 0; i < 4; ++i) {
      REQUIRE(s.tokens[i] < 15);  // elements
      groups.insert(s.tokens[i] / 3);
    }
    CHECK(groups.size() == 4);
    const int query = s.tokens[4];
    REQUIRE(query >= 15);
    // The answer is the painting's element of the query's group.
    CHECK(s.targets[4] / 3 == query - 15);
    CHECK(std::count(s.tokens.begin(), s.tokens.begin() + 4, s.targets[4]) == 1);
  }
}

TEST_CASE("tasks: copy reverse and sort answer after the bar with their digits", "[trainer]") {
  Rng rng(6);
  for (TaskKind kind : {TaskKind::copy, TaskKind::reverse, TaskKind::sort}) {
    TaskConfig c;
    c.kind = kind;
    c.length = 4;
    const TaskInfo info = task_info(c).value();
    const int bar = static_cast<int>(info.symbols);
    for (int k = 0; k < 100; ++k) {
      const Sequence s = draw(c, rng);
      check_shape(c, s, {4, 5, 6, 7});
      std::vector<int> digits(s.tokens.begin(), s.tokens.begin() + 4);
      CHECK(s.tokens[4] == bar);
      if (kind == TaskKind::reverse) std::reverse(digits.begin(), digits.end());
      if (kind == TaskKind::sort) std::sort(digits.begin(), digits.end());
      // Position 4 + i predicts answer digit i, and reads answer digit i − 1 (teacher forcing).
      for (int i = 0; i < 4; ++i) CHECK(s.targets[4 + i] == digits[i]);
      for (int i = 0; i < 3; ++i) CHECK(s.tokens[5 + i] == digits[i]);
    }
  }
  // The painting of 3 2 1 0 | reversed: the pattern of position 4 (answering the last digit
  // shown) is position 3, of position 7 is position 0.
  TaskConfig c;
  c.kind = TaskKind::reverse;
  c.length = 4;
  const int tokens[] = {3, 2, 1, 0, 10, 0, 1, 2}, targets[] = {-1, -1, -1, -1, 0, 1, 2, 3};
  float row[8] = {0.1f, 0.2f, 0.3f, 0.4f, 0, 0, 0, 0};
  CHECK(pattern_weight(c, tokens, targets, 4, row) == Approx(0.4));
  c.kind = TaskKind::copy;
  CHECK(pattern_weight(c, tokens, targets, 4, row) == Approx(0.1));
  c.kind = TaskKind::sort;  // position 4 answers 0: the weight on every 0 in the digits
  CHECK(pattern_weight(c, tokens, targets, 4, row) == Approx(0.4));
}

TEST_CASE("tasks: induction repeats distinct symbols after a random shift", "[trainer]") {
  TaskConfig c;
  c.kind = TaskKind::induction;
  c.length = 6;
  c.symbols = 12;
  Rng rng(7);
  std::set<std::size_t> shifts;
  for (int k = 0; k < 200; ++k) {
    const Sequence s = draw(c, rng);
    // The first copy's symbols are distinct; the repeat starts where the first symbol recurs.
    const std::set<int> first(s.tokens.begin(), s.tokens.begin() + 6);
    REQUIRE(first.size() == 6);
    std::size_t shift = 0;
    while (s.tokens[6 + shift] != s.tokens[0]) ++shift;
    REQUIRE(shift <= 3);
    shifts.insert(shift);
    std::vector<std::size_t> where;
    for (std::size_t i = 0; i + 1 + shift < 6; ++i) where.push_back(6 + shift + i);
    check_shape(c, s, where);
    for (std::size_t t : where) {
      CHECK(s.tokens[t] == s.tokens[t - 6 - shift]);
      CHECK(s.targets[t] == s.tokens[t - 6 - shift + 1]);
    }
    // The filler symbols appear nowhere else.
    for (std::size_t i = 0; i < shift; ++i) CHECK(first.count(s.tokens[6 + i]) == 0);
  }
  CHECK(shifts.size() == 4);  // 0, 1, 2 and 3 all occur
  // Prefix matching: at the second A (position 3) of A B C A, the weight on B (position 1).
  const int tokens[] = {0, 1, 2, 0}, targets[] = {-1, -1, -1, 1};
  const float row[] = {0.1f, 0.6f, 0.2f, 0.1f};
  CHECK(pattern_weight(c, tokens, targets, 3, row) == Approx(0.6));
  CHECK(previous_token_weight(3, row) == Approx(0.2));
}

TEST_CASE("tasks: the same seed gives the same sequences", "[trainer]") {
  for (TaskKind kind : {TaskKind::find_match, TaskKind::copy, TaskKind::reverse, TaskKind::sort,
                        TaskKind::induction}) {
    TaskConfig c;
    c.kind = kind;
    Rng a(42), b(42);
    for (int k = 0; k < 20; ++k) {
      const Sequence x = draw(c, a), y = draw(c, b);
      CHECK(x.tokens == y.tokens);
      CHECK(x.targets == y.targets);
    }
  }
}

TEST_CASE("tasks: a length or alphabet out of range is an error naming it", "[trainer]") {
  TaskConfig c;
  c.length = 6;  // five groups in the painting
  auto e = task_info(c);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().input == "length");
  CHECK(e.error().message == "length: 6 for find_match; it must be from 2 to 5.");
  c.kind = TaskKind::copy;
  c.length = 17;  // 34 positions
  CHECK(task_info(c).error().input == "length");
  c.length = 4;
  c.symbols = 11;
  CHECK(task_info(c).error().input == "symbols");
  c.kind = TaskKind::induction;
  c.length = 8;
  c.symbols = 11;  // 8 distinct plus up to 4 filler symbols
  CHECK(task_info(c).error().message ==
        "symbols: 11 for induction of length 8; it must be from 12 to 64.");
  c.length = 2;  // a repeat shifted by one would leave nothing to predict
  CHECK(task_info(c).error().message == "length: 2 for induction; it must be from 3 to 16.");
  c.kind = static_cast<TaskKind>(9);
  CHECK(task_info(c).error().input == "task");
}
