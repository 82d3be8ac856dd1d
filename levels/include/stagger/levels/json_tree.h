#pragma once
// A JSON document with the line and column of every value and key, read with RapidJSON's SAX
// reader through a stream that tracks positions. Numbers are kept as text and converted by the
// loader, so a number too large for a double is reported where it stands instead of aborting the
// whole parse. The reader refuses nesting deeper than limits::kMaxJsonDepth as it opens each
// container, so no input can drive it (or a later walk over the tree) into deep recursion. Keys are
// kept as written, duplicates included, for the readers to report with their context.

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace stagger::levels {

struct TextPosition {
  int line = 1;    ///< 1-based
  int column = 1;  ///< 1-based, in bytes
};

struct JsonValue;

struct JsonMember {
  std::string key;
  TextPosition key_at;
  std::unique_ptr<JsonValue> value;

  JsonMember() = default;
  JsonMember(const JsonMember& other);  ///< a deep copy, so a subtree can be kept (a profile)
  JsonMember& operator=(const JsonMember& other);
  JsonMember(JsonMember&&) noexcept = default;
  JsonMember& operator=(JsonMember&&) noexcept = default;
  ~JsonMember();
};

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  TextPosition at;
  bool boolean = false;
  std::string text;                 ///< a string's value, or a number's digits as written
  std::vector<JsonValue> items;     ///< array
  std::vector<JsonMember> members;  ///< object, in file order

  const JsonValue* find(std::string_view key) const;
  const JsonMember* find_member(std::string_view key) const;
};

struct JsonSyntaxError {
  TextPosition at;
  std::string message;
};

/// What a number too large for a double (1e400) is: a syntax error where it stands, or a number
/// value like any other (its text kept) for the reader to report with its context.
enum class HugeNumbers { syntax_error, as_values };

/// Parses a whole document (UTF-8, standard JSON, no comments, at most
/// limits::kMaxJsonDepth arrays and objects deep).
std::variant<JsonValue, JsonSyntaxError> parse_json_with_positions(
    std::string_view text, HugeNumbers huge = HugeNumbers::syntax_error);

/// Every key that repeats an earlier key of the same object, anywhere in the document, in file
/// order (for formats whose other reader would silently keep the last one).
std::vector<const JsonMember*> repeated_keys(const JsonValue& root);

/// The same JSON, places aside: kinds, keys in order, strings and numbers as written.
bool same_json(const JsonValue& a, const JsonValue& b);

/// Edits (insertions, deletions, substitutions) between two words.
std::size_t edit_distance(std::string_view a, std::string_view b);
/// The closest of `choices` to `word`, if it is close enough to be a likely typo (for "did you
/// mean ...?").
std::optional<std::string_view> closest(std::string_view word,
                                        std::span<const std::string_view> choices);
inline std::optional<std::string_view> closest(std::string_view word,
                                               std::initializer_list<std::string_view> choices) {
  return closest(word, std::span<const std::string_view>(choices.begin(), choices.size()));
}

/// Position of a byte offset in `text`.
TextPosition position_of(std::string_view text, std::size_t offset);

}  // namespace stagger::levels
