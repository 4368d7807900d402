#include "word_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

// "vectors: byte 31, word 3: what" (the word counted from 1), with col = the byte and row = the
// word's index, or -1 when the problem is not one word's.
Error at(ErrorCode code, std::size_t byte, long word, const std::string& what) {
  const std::string where = "vectors: byte " + std::to_string(byte) +
                            (word >= 0 ? ", word " + std::to_string(word + 1) : "") + ": ";
  return make_error(code, "vectors", word, static_cast<long>(byte), where + what);
}

Error at(std::size_t byte, long word, const std::string& what) {
  return at(ErrorCode::parse_error, byte, word, what);
}

// Whitespace (Unicode's White_Space) and control characters: the tokenizer ends a token at each
// of them, so a word that holds one could never be found in a sentence.
bool splits_tokens(char32_t c) {
  return c <= 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// The header's fields other than the magic and textBytes, checked in the order they lie.
std::optional<Error> check_header(std::uint32_t n, std::uint32_t d, std::uint32_t learned,
                                  float scale) {
  if (n == 0) return at(4, -1, "the file holds 0 words; it needs at least one.");
  if (n > Limits::max_words)
    return at(ErrorCode::too_large, 4, -1,
              std::to_string(n) + " words, above the limit of " +
                  std::to_string(Limits::max_words) + ".");
  if (d == 0) return at(8, -1, "the words have 0 dims; they need at least one.");
  if (d > Limits::max_dim)
    return at(
        ErrorCode::too_large, 8, -1,
        std::to_string(d) + " dims, above the limit of " + std::to_string(Limits::max_dim) + ".");
  if (learned > n)
    return at(
        12, -1,
        std::to_string(learned) + " words learned, but the file holds " + std::to_string(n) + ".");
  if (!std::isfinite(scale) || scale <= 0)
    return at(16, -1,
              "the scale is " + number_text(scale) + "; it must be a finite number above 0.");
  return std::nullopt;
}

// Word i, bytes [start, end) of the text: an error if it cannot be a word.
std::optional<Error> check_word(std::string_view bytes, std::size_t start, std::size_t end,
                                long i) {
  if (start == end)
    return at(start, i,
              "the word is empty; words are separated by one line break, with none before the "
              "first or after the last.");
  for (std::size_t pos = start; pos < end;) {
    const utf8::CodePoint cp = utf8::decode(bytes.substr(0, end), pos);
    if (cp.length == 0) return at(pos, i, "the word is not valid UTF-8 here.");
    if (splits_tokens(cp.value))
      return at(pos, i,
                quote(bytes.substr(start, end - start)) +
                    " holds whitespace or a control character here, which no word can hold.");
    pos += cp.length;
  }
  return std::nullopt;
}

}  // namespace

Result<WordVectors> read_word_vectors(std::string_view bytes) {
  const std::size_t size = bytes.size();
  if (size > Limits::max_vector_file_bytes)
    return make_error(ErrorCode::too_large, "vectors", -1, -1,
                      "vectors: the file is " + std::to_string(size) +
                          " bytes, above the limit of " +
                          std::to_string(Limits::max_vector_file_bytes) + " bytes.");
  if (size == 0)
    return make_error(ErrorCode::empty_input, "vectors", -1, -1, "vectors: the file is empty.");
  if (std::memcmp(bytes.data(), kMagic, std::min<std::size_t>(size, 4)) != 0)
    return at(0, -1, "not a word-vector file (it does not start with \"APV1\").");
  if (size < kHeaderBytes)
    return at(
        size, -1,
        "the file ends inside its header, which takes " + std::to_string(kHeaderBytes) + " bytes.");

  const std::uint32_t n = u32_at(bytes, 4), d = u32_at(bytes, 8), learned = u32_at(bytes, 12);
  const std::uint32_t scale_bits = u32_at(bytes, 16), text_bytes = u32_at(bytes, 20);
  float scale;
  std::memcpy(&scale, &scale_bits, 4);
  if (auto e = check_header(n, d, learned, scale)) return *e;

  // In 64 bits: textBytes alone can reach 4 GB, past a wasm size_t. n·d fits (both are capped).
  const std::uint64_t text_end = kHeaderBytes + std::uint64_t{text_bytes};
  const std::uint64_t end = text_end + std::uint64_t{n} * d;
  if (size < text_end)
    return at(
        size, -1,
        "the file ends inside its words, which end at byte " + std::to_string(text_end) + ".");
  if (size < end)
    return at(size, static_cast<long>((size - text_end) / d),
              "the file ends inside this word's vector; " + std::to_string(n) + " words of " +
                  std::to_string(d) + " dims end at byte " + std::to_string(end) + ".");
  if (size > end) {
    const std::uint64_t extra = size - end;
    return at(end, -1,
              "the file should end after the last vector, but " + std::to_string(extra) +
                  (extra == 1 ? " more byte follows." : " more bytes follow."));
  }

  WordVectors result;
  std::vector<std::string> features;
  for (std::uint32_t j = 1; j <= d; ++j) features.push_back("d" + std::to_string(j));
  result.lexicon = Lexicon(std::move(features));
  result.learned = learned;
  const std::size_t vectors = static_cast<std::size_t>(text_end);
  const std::string_view text = bytes.substr(0, vectors);
  std::vector<double> vector(d);
  std::size_t start = kHeaderBytes;
  for (std::size_t i = 0;; ++i) {
    const std::size_t stop = std::min(text.find('\n', start), vectors);
    if (auto e = check_word(text, start, stop, static_cast<long>(i))) return *e;
    if (i == n)
      return at(start, static_cast<long>(i),
                "the text holds more words than the " + std::to_string(n) +
                    " the header gives (byte 4).");
    const std::string_view word = text.substr(start, stop - start);
    for (std::size_t j = 0; j < d; ++j) {
      const int q = static_cast<unsigned char>(bytes[vectors + i * d + j]);  // two's complement
      vector[j] = (q < 128 ? q : q - 256) * double{scale};
    }
    const std::size_t before = result.lexicon.size();
    result.lexicon.add(std::string(word), vector);
    if (result.lexicon.size() == before)
      return at(
          start, static_cast<long>(i),
          quote(word) + " repeats word " + std::to_string(result.lexicon.index_of(word) + 1) + ".");
    if (stop == vectors) break;
    start = stop + 1;
  }
  if (result.lexicon.size() < n)
    return at(vectors, -1,
              "the text holds " + std::to_string(result.lexicon.size()) +
                  " words, but the header gives " + std::to_string(n) + " (byte 4).");
  return result;
}

namespace {

// A word's place in the lexicon and its vector's squared length.
struct Found {
  std::size_t index = 0;
  double norm2 = 0;
};

double norm2(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return sum;
}

// `word` as find() finds it, or the error that names it as `input`.
Result<Found> find_word(const Lexicon& lexicon, std::string_view word, const char* input) {
  const std::size_t i = lexicon.index_of(word);
  if (i == std::string_view::npos)
    return make_error(ErrorCode::bad_argument, input, -1, -1,
                      std::string(input) + ": " + quote(word) + " is not in the word vectors.");
  const double n2 = norm2(lexicon.vector_at(i));
  if (n2 == 0)
    return make_error(ErrorCode::zero_vector, input, -1, -1,
                      std::string(input) + ": " + quote(word) +
                          " has a vector of zeros, which has no direction to compare.");
  return Found{i, n2};
}

// a·b / √(|a|²·|b|²), within [−1, 1]: rounding can leave the quotient of parallel vectors an ulp
// beyond 1, where the angle (acos) a reader might take of it does not exist.
double cosine_of(double ab, double aa, double bb) {
  return std::max(-1.0, std::min(1.0, ab / std::sqrt(aa * bb)));
}

}  // namespace

Result<std::vector<WordNeighbour>> nearest_words(const Lexicon& lexicon, std::string_view word,
                                                 std::size_t k) {
  if (k > Limits::max_neighbours)
    return make_error(ErrorCode::bad_argument, "k", -1, -1,
                      "k: " + std::to_string(k) + " neighbours asked; at most " +
                          std::to_string(Limits::max_neighbours) + " can be.");
  auto found = find_word(lexicon, word, "word");
  if (!found) return found.error();
  const std::vector<double>& q = lexicon.vector_at(found->index);

  // The best so far, best first: a candidate goes in after every kept one at least as near, so
  // of equal cosines the earlier word stays ahead, and one that ties the last kept stays out.
  struct Kept {
    double cosine;
    std::size_t index;
  };
  std::vector<Kept> best;
  best.reserve(k + 1);
  for (std::size_t i = 0; i < lexicon.size() && k > 0; ++i) {
    if (i == found->index) continue;
    const std::vector<double>& v = lexicon.vector_at(i);
    double ab = 0, bb = 0;
    for (std::size_t j = 0; j < v.size(); ++j) {
      ab += q[j] * v[j];
      bb += v[j] * v[j];
    }
    if (bb == 0) continue;
    const double cosine = cosine_of(ab, found->norm2, bb);
    if (best.size() == k && cosine <= best.back().cosine) continue;
    std::size_t place = best.size();
    while (place > 0 && best[place - 1].cosine < cosine) --place;
    best.insert(best.begin() + static_cast<std::ptrdiff_t>(place), Kept{cosine, i});
    if (best.size() > k) best.pop_back();
  }
  std::vector<WordNeighbour> out;
  out.reserve(best.size());
  for (const Kept& b : best) out.push_back(WordNeighbour{lexicon.words()[b.index], b.cosine});
  return out;
}

Result<double> word_similarity(const Lexicon& lexicon, std::string_view a, std::string_view b) {
  auto x = find_word(lexicon, a, "a");
  if (!x) return x.error();
  auto y = find_word(lexicon, b, "b");
  if (!y) return y.error();
  const std::vector<double>&u = lexicon.vector_at(x->index), &v = lexicon.vector_at(y->index);
  double ab = 0;
  for (std::size_t j = 0; j < u.size(); ++j) ab += u[j] * v[j];
  return cosine_of(ab, x->norm2, y->norm2);
}

}  // namespace attn
