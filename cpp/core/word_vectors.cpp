#include "word_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "utf8.hpp"

namespace attn {

namespace {

constexpr char kMagic[4] = {'A', 'P', 'V', '1'};
constexpr std::size_t kHeaderBytes = 24;

std::uint32_t u32_at(std::string_view bytes, std::size_t at) {
  const auto b = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i]));
  };
  return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}

// `pattern` with each '#' replaced by the next of a, b, c, '@' by quote(word) and '$' by
// number_text(real). Messages are built here, in one call with small constants, rather than by
// chains of std::string operations at each check, which the engine's build inlines
// (cpp/wasm/CMakeLists.txt says why) at a cost in its size.
std::string said(const char* pattern, std::uint64_t a = 0, std::uint64_t b = 0, std::uint64_t c = 0,
                 std::string_view word = {}, double real = 0) {
  const std::uint64_t numbers[] = {a, b, c};
  const std::uint64_t* next = numbers;
  std::string out;
  for (const char* p = pattern; *p; ++p) {
    if (*p == '@') {
      out += quote(word);
    } else if (*p == '$') {
      out += number_text(real);
    } else if (*p == '#') {
      char digits[20];
      int count = 0;
      for (std::uint64_t x = *next++; count == 0 || x > 0; x /= 10)
        digits[count++] = static_cast<char>('0' + x % 10);
      while (count > 0) out += digits[--count];
    } else {
      out += *p;
    }
  }
  return out;
}

// Whitespace (Unicode's White_Space) and control characters: the tokenizer ends a token at each
// of them, so a word that holds one could never be found in a sentence.
bool splits_tokens(char32_t c) {
  return c <= 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// One read of a file: each check returns false at the first fault, with error() saying it.
// Sizes are 64-bit: textBytes alone can reach 4 GB, past a wasm size_t.
class VectorFile {
 public:
  using u64 = std::uint64_t;

  explicit VectorFile(std::string_view bytes) : bytes_(bytes), size_(bytes.size()) {}

  // Everything but the words: the header against the file's size.
  bool check() {
    if (size_ > Limits::max_vector_file_bytes)
      return fail(-1, -1, "the file is # bytes, above the limit of # bytes.", size_,
                  Limits::max_vector_file_bytes, 0, ErrorCode::too_large);
    if (size_ == 0) return fail(-1, -1, "the file is empty.", 0, 0, 0, ErrorCode::empty_input);
    if (std::memcmp(bytes_.data(), kMagic, std::min<u64>(size_, 4)) != 0)
      return fail(0, -1, "not a word-vector file (it does not start with \"APV1\").");
    if (size_ < kHeaderBytes)
      return fail(size_, -1, "the file ends inside its header, which takes 24 bytes.");
    n_ = u32_at(bytes_, 4), d_ = u32_at(bytes_, 8);
    return header() && sizes();
  }

  // After check(): "d1" … "dd", and the words learned.
  std::vector<std::string> features() const {
    std::vector<std::string> names;
    for (u64 j = 1; j <= d_; ++j) names.push_back(said("d#", j));
    return names;
  }
  std::size_t learned() const { return u32_at(bytes_, 12); }

  // After check(): the words and their vectors, into `lexicon`.
  bool words(Lexicon& lexicon) {
    const auto vectors = static_cast<std::size_t>(text_end_);
    const auto d = static_cast<std::size_t>(d_);
    const std::string_view text = bytes_.substr(0, vectors);
    std::vector<double> vector(d);
    for (std::size_t i = 0, start = kHeaderBytes;; ++i) {
      const std::size_t stop = std::min(text.find('\n', start), vectors);
      if (!word(text, start, stop, i)) return false;
      if (i == n_) return fail(start, i, "the text holds more than the # words of byte 4.", n_);
      for (std::size_t j = 0; j < d; ++j) {
        const int q = static_cast<unsigned char>(bytes_[vectors + i * d + j]);  // two's complement
        vector[j] = (q < 128 ? q : q - 256) * double{scale_};
      }
      const std::size_t before = lexicon.size();
      lexicon.add(std::string(quoted_), vector);
      if (lexicon.size() == before)
        return fail(start, i, "@ repeats word #.", lexicon.index_of(quoted_) + 1);
      if (stop == vectors) break;
      start = stop + 1;
    }
    if (lexicon.size() < n_)
      return fail(vectors, -1, "the text holds # words, not the # of byte 4.", lexicon.size(), n_);
    return true;
  }

  Error& error() { return error_; }

 private:
  // "vectors: byte 31, word 3: " (the word counted from 1; no place when byte < 0), then
  // said(pattern, a, b, c, quoted_, real_). col = the byte, row = the word's index, or -1.
  bool fail(long long byte, long long word, const char* pattern, u64 a = 0, u64 b = 0, u64 c = 0,
            ErrorCode code = ErrorCode::parse_error) {
    const char* where = byte < 0   ? "vectors: "
                        : word < 0 ? "vectors: byte #: "
                                   : "vectors: byte #, word #: ";
    std::string message = said(where, static_cast<u64>(byte), static_cast<u64>(word + 1));
    message += said(pattern, a, b, c, quoted_, real_);
    error_ = make_error(code, "vectors", static_cast<long>(word), static_cast<long>(byte),
                        std::move(message));
    return false;
  }

  // The header's fields after n and d, checked in the order they lie.
  bool header() {
    if (n_ == 0) return fail(4, -1, "the file holds 0 words; it needs at least one.");
    if (n_ > Limits::max_words)
      return fail(4, -1, "# words, above the limit of #.", n_, Limits::max_words, 0,
                  ErrorCode::too_large);
    if (d_ == 0) return fail(8, -1, "the words have 0 dims; they need at least one.");
    if (d_ > Limits::max_dim)
      return fail(8, -1, "# dims, above the limit of #.", d_, Limits::max_dim, 0,
                  ErrorCode::too_large);
    const std::uint32_t learned = u32_at(bytes_, 12), bits = u32_at(bytes_, 16);
    if (learned > n_) return fail(12, -1, "# words learned, but the file holds #.", learned, n_);
    std::memcpy(&scale_, &bits, 4);
    real_ = scale_;
    if (!std::isfinite(scale_) || scale_ <= 0)
      return fail(16, -1, "the scale is $; it must be a finite number above 0.");
    return true;
  }

  // The sizes the header gives against the file's: where it ends early, or goes on too long.
  bool sizes() {
    text_end_ = kHeaderBytes + u64{u32_at(bytes_, 20)};
    const u64 end = text_end_ + n_ * d_;
    if (size_ < text_end_)
      return fail(size_, -1, "the file ends inside its words, which end at byte #.", text_end_);
    if (size_ < end)
      return fail(size_, (size_ - text_end_) / d_,
                  "the file ends inside this word's vector, before byte #.", end);
    if (size_ > end)
      return fail(end, -1, "the file goes on after its last vector, which ends here.");
    return true;
  }

  // Word i, bytes [start, end) of the text: whether it can be a word.
  bool word(std::string_view text, std::size_t start, std::size_t end, std::size_t i) {
    if (start == end)
      return fail(start, i, "the word is empty (a line break at either end, or two in a row).");
    quoted_ = text.substr(start, end - start);
    for (std::size_t pos = start; pos < end;) {
      const utf8::CodePoint cp = utf8::decode(text.substr(0, end), pos);
      if (cp.length == 0) return fail(pos, i, "the word is not valid UTF-8 here.");
      if (splits_tokens(cp.value))
        return fail(pos, i, "@ holds whitespace or a control character, which no word can.");
      pos += cp.length;
    }
    return true;
  }

  std::string_view bytes_;
  u64 size_;
  u64 n_ = 0, d_ = 0, text_end_ = 0;
  float scale_ = 1;
  std::string_view quoted_;  // what '@' quotes in a message
  double real_ = 0;          // what '$' writes
  Error error_;
};

}  // namespace

Result<WordVectors> read_word_vectors(std::string_view bytes) {
  VectorFile file(bytes);
  if (!file.check()) return std::move(file.error());
  Result<WordVectors> result = WordVectors{Lexicon(file.features()), file.learned()};
  result.value().lexicon.set_unknown_words(Lexicon::Unknown::zero);
  if (!file.words(result.value().lexicon)) return std::move(file.error());
  return result;
}

namespace {

// The place of `word` in the lexicon (as find() finds it) and its vector's squared length, or
// the error that names it as `input`.
std::optional<Error> find_word(const Lexicon& lexicon, std::string_view word, const char* input,
                               std::size_t& index, double& norm2) {
  index = lexicon.index_of(word);
  const char* what = ": @ is not in the word vectors.";
  ErrorCode code = ErrorCode::bad_argument;
  if (index != std::string_view::npos) {
    norm2 = 0;
    for (double x : lexicon.vector_at(index)) norm2 += x * x;
    if (norm2 > 0) return std::nullopt;
    what = ": @ has a vector of zeros, with no direction to compare.";
    code = ErrorCode::zero_vector;
  }
  return make_error(code, input, -1, -1, input + said(what, 0, 0, 0, word));
}

// a·b / √(|a|²·|b|²), within [−1, 1]: rounding can leave the quotient of parallel vectors an ulp
// beyond 1, where the angle (acos) a reader might take of it does not exist.
double cosine_of(const std::vector<double>& a, const std::vector<double>& b, double aa, double bb) {
  double ab = 0;
  for (std::size_t j = 0; j < a.size(); ++j) ab += a[j] * b[j];
  return std::max(-1.0, std::min(1.0, ab / std::sqrt(aa * bb)));
}

}  // namespace

Result<std::vector<WordNeighbour>> nearest_words(const Lexicon& lexicon, std::string_view word,
                                                 std::size_t k) {
  if (k > Limits::max_neighbours)
    return make_error(ErrorCode::bad_argument, "k", -1, -1,
                      said("k: # neighbours asked; at most # can be.", k, Limits::max_neighbours));
  std::size_t self = 0;
  double qq = 0;
  if (auto e = find_word(lexicon, word, "word", self, qq)) return std::move(*e);
  const std::vector<double>& q = lexicon.vector_at(self);

  // The best so far, best first: a candidate goes in after every kept one at least as near, so
  // of equal cosines the earlier word stays ahead, and one that ties the last kept stays out.
  struct Kept {
    double cosine;
    std::size_t index;
  };
  Kept best[Limits::max_neighbours + 1];
  std::size_t kept = 0;
  for (std::size_t i = 0; i < lexicon.size() && k > 0; ++i) {
    const std::vector<double>& v = lexicon.vector_at(i);
    double vv = 0;
    for (double x : v) vv += x * x;
    if (i == self || vv == 0) continue;
    const double cosine = cosine_of(q, v, qq, vv);
    if (kept == k && cosine <= best[k - 1].cosine) continue;
    std::size_t place = kept < k ? kept++ : k - 1;
    for (; place > 0 && best[place - 1].cosine < cosine; --place) best[place] = best[place - 1];
    best[place] = Kept{cosine, i};
  }
  std::vector<WordNeighbour> out(kept);
  for (std::size_t i = 0; i < kept; ++i) out[i] = {lexicon.words()[best[i].index], best[i].cosine};
  return out;
}

Result<double> word_similarity(const Lexicon& lexicon, std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  double aa = 0, bb = 0;
  if (auto e = find_word(lexicon, a, "a", i, aa)) return std::move(*e);
  if (auto e = find_word(lexicon, b, "b", j, bb)) return std::move(*e);
  return cosine_of(lexicon.vector_at(i), lexicon.vector_at(j), aa, bb);
}

}  // namespace attn
