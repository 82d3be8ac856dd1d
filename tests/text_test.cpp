// Text a user gives: well-formed UTF-8 is told from bytes that are not, values quoted in messages
// are printable and short, and a byte order mark at the start of a JSON file is allowed.

#include <gtest/gtest.h>

#include <string>

#include "stagger/core/limits.h"
#include "stagger/levels/load.h"
#include "stagger/sim/input_script.h"

namespace stagger {
namespace {

TEST(Text, Utf8CharacterLengths) {
  EXPECT_EQ(limits::utf8_character_length("a", 0), 1u);
  EXPECT_EQ(limits::utf8_character_length("\xC3\xA9", 0), 2u);          // é
  EXPECT_EQ(limits::utf8_character_length("\xE2\x80\xA6", 0), 3u);      // …
  EXPECT_EQ(limits::utf8_character_length("\xF0\x9F\x98\x80", 0), 4u);  // an emoji
  EXPECT_EQ(limits::utf8_character_length("\xE9", 0), 0u);              // Latin-1 é
  EXPECT_EQ(limits::utf8_character_length("\x80", 0), 0u);              // a lone continuation byte
  EXPECT_EQ(limits::utf8_character_length("\xC0\xAF", 0), 0u);          // overlong '/'
  EXPECT_EQ(limits::utf8_character_length("\xED\xA0\x80", 0), 0u);      // a surrogate
  EXPECT_EQ(limits::utf8_character_length("\xF4\x90\x80\x80", 0), 0u);  // above U+10FFFF
  EXPECT_EQ(limits::utf8_character_length("\xE2\x80", 0), 0u);          // cut short
}

TEST(Text, NamesArePrintableUtf8) {
  EXPECT_TRUE(limits::printable_utf8("guard \xC3\xA9 2"));
  EXPECT_FALSE(limits::printable_utf8("guard\n"));
  EXPECT_FALSE(limits::printable_utf8("a\x1b[2J"));
  EXPECT_FALSE(limits::printable_utf8("caf\xE9"));
  EXPECT_FALSE(limits::printable_utf8(std::string("a\0b", 3)));
}

TEST(Text, QuotedValuesArePrintableAndShort) {
  EXPECT_EQ(limits::quoted("a\x1b[31mb\n"), "a\\x1b[31mb\\x0a");
  EXPECT_EQ(limits::quoted("caf\xE9"), "caf\\xe9");
  const std::string long_value(100, 'x');
  EXPECT_EQ(limits::quoted(long_value),
            std::string(limits::kMaxQuotedBytes, 'x') + "... (100 bytes)");
  // Never cut inside a character: 30 two-byte characters fill 60 bytes exactly, a 31st is left out.
  std::string accents;
  for (int i = 0; i < 31; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(limits::quoted(accents), accents.substr(0, 60) + "... (62 bytes)");
  std::string shifted = "x" + accents;
  EXPECT_EQ(limits::quoted(shifted), shifted.substr(0, 59) + "... (63 bytes)");
}

constexpr const char* kByteOrderMark = "\xEF\xBB\xBF";

TEST(Text, ALevelMayStartWithAByteOrderMark) {
  const std::string level = std::string(kByteOrderMark) + R"({"format":"stagger-level","version":1,
"geometry":[{"type":"box","center":[0,-0.5,0],"size":[20,1,20]}],"player":{"position":[0,0,0]},"bad":1})";
  const levels::LoadResult r = levels::parse_level(level, "bom.json", "");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  // Columns count from after the mark, as an editor shows them.
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 96);
  EXPECT_NE(r.diagnostics[0].message.find("unknown key `bad`"), std::string::npos)
      << r.diagnostics[0].message;
}

TEST(Text, AnInputScriptMayStartWithAByteOrderMark) {
  const auto r = sim::parse_input_script(
      std::string(kByteOrderMark) + R"({"events":[{"t":1,"type":"kill","enemy":"a"}]})", "s.json");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().kills.size(), 1u);
}

}  // namespace
}  // namespace stagger
