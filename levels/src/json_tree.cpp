#include "json_tree.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "stagger/core/limits.h"

namespace stagger::levels {
namespace {

// A RapidJSON input stream over a string that remembers where the current token began: the
// opening bracket or quote, or the first character of a number or literal. SAX events arrive when
// a token ends, so this is how a value learns its position.
class TrackingStream {
 public:
  using Ch = char;
  explicit TrackingStream(std::string_view text) : text_(text) {}

  Ch Peek() const { return offset_ < text_.size() ? text_[offset_] : '\0'; }
  Ch Take() {
    if (offset_ >= text_.size()) return '\0';
    const Ch c = text_[offset_];
    note(c);
    ++offset_;
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  std::size_t Tell() const { return offset_; }
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  TextPosition token_start() const { return token_start_; }
  std::size_t token_offset() const { return token_offset_; }

 private:
  void note(Ch c) {
    const TextPosition here{line_, column_};
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      previous_ = c;
      return;
    }
    const bool separator = previous_ == '\0' || previous_ == ' ' || previous_ == '\t' ||
                           previous_ == '\n' || previous_ == '\r' || previous_ == ',' ||
                           previous_ == ':' || previous_ == '[' || previous_ == '{';
    if (c == '"') {
      in_string_ = true;
      token_start_ = here;
      token_offset_ = offset_;
    } else if (c == '{' || c == '[' || separator) {
      token_start_ = here;
      token_offset_ = offset_;
    }
    previous_ = c;
  }

  std::string_view text_;
  std::size_t offset_ = 0;
  int line_ = 1;
  int column_ = 1;
  bool in_string_ = false;
  bool escaped_ = false;
  Ch previous_ = '\0';
  TextPosition token_start_;
  std::size_t token_offset_ = 0;
};

// Builds the tree from SAX events; containers are open on a stack until their end event.
class TreeBuilder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, TreeBuilder> {
 public:
  TreeBuilder(const TrackingStream& stream,
              const std::vector<std::pair<std::size_t, std::string>>& hidden)
      : stream_(stream), hidden_(hidden) {}

  bool Null() { return add(JsonValue::Kind::null); }
  bool Bool(bool b) {
    JsonValue& v = add_value(JsonValue::Kind::boolean);
    v.boolean = b;
    return true;
  }
  bool RawNumber(const char* text, rapidjson::SizeType length, bool) {
    add_value(JsonValue::Kind::number).text.assign(text, length);
    return true;
  }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    // A huge number hidden as a string of the same length: a number again, with its own text.
    const std::size_t start = stream_.token_offset();
    // In offset order, so a binary search finds it.
    const auto it =
        std::lower_bound(hidden_.begin(), hidden_.end(), start,
                         [](const auto& h, std::size_t offset) { return h.first < offset; });
    if (it != hidden_.end() && it->first == start) {
      add_value(JsonValue::Kind::number).text = it->second;
      return true;
    }
    add_value(JsonValue::Kind::string).text.assign(text, length);
    return true;
  }
  bool StartObject() { return open(JsonValue::Kind::object); }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    JsonMember member;
    member.key.assign(text, length);
    member.key_at = stream_.token_start();
    member.value = std::make_unique<JsonValue>();
    open_.back()->members.push_back(std::move(member));
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    open_.pop_back();
    return true;
  }
  bool StartArray() { return open(JsonValue::Kind::array); }
  bool EndArray(rapidjson::SizeType) {
    open_.pop_back();
    return true;
  }

  JsonValue root;
  /// Set when the document nests deeper than limits::kMaxJsonDepth: where the container opened.
  std::optional<TextPosition> too_deep_at;

 private:
  bool open(JsonValue::Kind kind) {
    if (open_.size() >= static_cast<std::size_t>(limits::kMaxJsonDepth)) {
      // Stops the reader before it recurses any deeper: RapidJSON's reader recurses once per
      // container, so this bounds its stack too.
      too_deep_at = stream_.token_start();
      return false;
    }
    open_.push_back(&add_value(kind));
    return true;
  }
  bool add(JsonValue::Kind kind) {
    add_value(kind);
    return true;
  }
  // The slot for the next value: the root, the next array item, or the last key's value.
  JsonValue& add_value(JsonValue::Kind kind) {
    JsonValue* slot = &root;
    if (!open_.empty()) {
      JsonValue& parent = *open_.back();
      if (parent.kind == JsonValue::Kind::array) {
        parent.items.emplace_back();
        slot = &parent.items.back();
      } else {
        slot = parent.members.back().value.get();
      }
    }
    slot->kind = kind;
    slot->at = stream_.token_start();
    return *slot;
  }

  const TrackingStream& stream_;
  const std::vector<std::pair<std::size_t, std::string>>& hidden_;  // offset, text of huge numbers
  // Containers being filled, innermost last. Only the innermost one grows, so the pointers to
  // the outer ones (which hold it) stay valid.
  std::vector<JsonValue*> open_;
};

}  // namespace

JsonMember::JsonMember(const JsonMember& other)
    : key(other.key),
      key_at(other.key_at),
      value(other.value ? std::make_unique<JsonValue>(*other.value) : nullptr) {}

JsonMember& JsonMember::operator=(const JsonMember& other) {
  if (this != &other) *this = JsonMember(other);
  return *this;
}

JsonMember::~JsonMember() = default;

bool same_json(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.text != b.text ||
      a.items.size() != b.items.size() || a.members.size() != b.members.size())
    return false;
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    if (!same_json(a.items[i], b.items[i])) return false;
  }
  for (std::size_t i = 0; i < a.members.size(); ++i) {
    const JsonMember& x = a.members[i];
    const JsonMember& y = b.members[i];
    if (x.key != y.key || !x.value != !y.value) return false;
    if (x.value && !same_json(*x.value, *y.value)) return false;
  }
  return true;
}

const JsonMember* JsonValue::find_member(std::string_view key) const {
  for (const JsonMember& m : members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  const JsonMember* m = find_member(key);
  return m ? m->value.get() : nullptr;
}

std::vector<const JsonMember*> repeated_keys(const JsonValue& root) {
  std::vector<const JsonMember*> repeated;
  // Depth first with a stack of its own: a tree is at most limits::kMaxJsonDepth deep, but wide.
  std::vector<const JsonValue*> open{&root};
  while (!open.empty()) {
    const JsonValue* v = open.back();
    open.pop_back();
    std::unordered_set<std::string_view> seen;
    for (const JsonMember& m : v->members) {
      if (!seen.insert(m.key).second) repeated.push_back(&m);
      open.push_back(m.value.get());
    }
    for (const JsonValue& item : v->items) open.push_back(&item);
  }
  std::sort(repeated.begin(), repeated.end(), [](const JsonMember* a, const JsonMember* b) {
    return a->key_at.line != b->key_at.line ? a->key_at.line < b->key_at.line
                                            : a->key_at.column < b->key_at.column;
  });
  return repeated;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string_view> closest(std::string_view word,
                                        std::span<const std::string_view> choices) {
  // [bytes] no typo is suggested for longer words: the comparison's cost grows with the square
  // of the lengths, and a hostile file can hold megabyte-long names.
  constexpr std::size_t kLongestSuggested = 64;
  std::optional<std::string_view> best;
  if (word.size() > kLongestSuggested) return best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (std::string_view c : choices) {
    if (c.size() > kLongestSuggested) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition p;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

namespace {

// The byte offsets of the numbers outside strings that a double cannot hold. RapidJSON refuses
// them even when it hands numbers over as text.
std::vector<std::size_t> huge_number_offsets(std::string_view text) {
  std::vector<std::size_t> offsets;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    if (c != '-' && (c < '0' || c > '9')) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < text.size() &&
           std::string_view("0123456789+-.eE").find(text[end]) != std::string_view::npos)
      ++end;
    if (!std::isfinite(std::strtod(std::string(text.substr(i, end - i)).c_str(), nullptr)))
      offsets.push_back(i);
    i = end;
  }
  return offsets;
}

// The text with each huge number replaced by a string of the same length (so every position
// stays), and those numbers' texts by offset.
std::string hide_huge_numbers(std::string_view text, const std::vector<std::size_t>& offsets,
                              std::vector<std::pair<std::size_t, std::string>>& hidden) {
  std::string out(text);
  for (std::size_t offset : offsets) {
    std::size_t end = offset + 1;
    while (end < text.size() &&
           std::string_view("0123456789+-.eE").find(text[end]) != std::string_view::npos)
      ++end;
    // Any number a double cannot hold has at least four characters ("1e400"), room for quotes.
    hidden.emplace_back(offset, std::string(text.substr(offset, end - offset)));
    out[offset] = '"';
    for (std::size_t k = offset + 1; k + 1 < end; ++k) out[k] = '#';
    out[end - 1] = '"';
  }
  return out;
}

}  // namespace

std::variant<JsonValue, JsonSyntaxError> parse_json_with_positions(std::string_view original,
                                                                   HugeNumbers huge) {
  // A UTF-8 byte order mark (some Windows editors write one) is not part of the document; lines and
  // columns count from after it, as an editor shows them.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (original.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    original.remove_prefix(kByteOrderMark.size());
  std::vector<std::pair<std::size_t, std::string>> hidden;
  std::string replaced;
  std::string_view text = original;
  if (huge == HugeNumbers::as_values) {
    const std::vector<std::size_t> offsets = huge_number_offsets(original);
    if (!offsets.empty()) {
      replaced = hide_huge_numbers(original, offsets, hidden);
      text = replaced;
    }
  }
  TrackingStream stream(text);
  TreeBuilder builder(stream, hidden);
  rapidjson::Reader reader;
  const rapidjson::ParseResult ok =
      reader.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag |
                   rapidjson::kParseValidateEncodingFlag>(stream, builder);
  if (builder.too_deep_at) {
    return JsonSyntaxError{
        *builder.too_deep_at,
        "arrays and objects nested more than " + std::to_string(limits::kMaxJsonDepth) + " deep"};
  }
  if (!ok) {
    // RapidJSON checks numbers even when it hands them over as text.
    const std::string message = ok.Code() == rapidjson::kParseErrorNumberTooBig
                                    ? "a number too large for a double (not finite)"
                                : ok.Code() == rapidjson::kParseErrorStringInvalidEncoding
                                    ? "a string that is not valid UTF-8 or holds a raw control "
                                      "character (write it as \\n, \\t, \\u0001)"
                                    : rapidjson::GetParseError_En(ok.Code());
    return JsonSyntaxError{position_of(text, ok.Offset()), message};
  }
  // Only whitespace may follow the document.
  for (std::size_t i = stream.Tell(); i < text.size(); ++i) {
    const char c = text[i];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      return JsonSyntaxError{position_of(text, i),
                             "The document root must not be followed by other values."};
    }
  }
  return std::move(builder.root);
}

}  // namespace stagger::levels
