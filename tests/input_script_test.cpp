// Input scripts: valid pushes and walks parse; every kind of bad event is reported at its line and
// column, with its index and time.

#include "stagger/sim/input_script.h"

#include <gtest/gtest.h>

namespace stagger::sim {
namespace {

std::string errors_of(const std::string& json) {
  const auto r = parse_input_script(json, "s.json");
  return r.ok() ? "" : r.error();
}

// Whether the script is refused with `expected` in its errors; a failure shows the errors.
::testing::AssertionResult refused_with(const std::string& json, const std::string& expected) {
  const std::string errors = errors_of(json);
  if (errors.find(expected) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "errors: " << errors;
}

TEST(InputScript, ParsesAndSortsPushes) {
  const auto r = parse_input_script(R"({ "events": [
      { "t": 2.0, "type": "push", "enemy": "a", "body": "chest", "impulse": [1, 2, 3] },
      { "t": 0.5, "type": "push", "enemy": "b", "body": "head", "impulse": [0, 0, -4.5] } ] })",
                                    "s.json");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.value().pushes.size(), 2u);
  EXPECT_EQ(r.value().pushes[0].enemy, "b");
  EXPECT_EQ(r.value().pushes[0].body, physics::BodyPart::head);
  EXPECT_EQ(r.value().pushes[0].event_index, 1u);
  EXPECT_EQ(r.value().pushes[1].impulse, (Vec3{1, 2, 3}));
}

TEST(InputScript, UnknownBodyNamesTheEventAndTheChoices) {
  const std::string e = errors_of(
      R"({ "events": [ { "t": 1, "type": "push", "enemy": "a", "body": "chst", "impulse": [1, 0, 0] } ] })");
  EXPECT_NE(e.find("s.json:1:63: error: events[0] (push at t=1): unknown body \"chst\"; expected "
                   "one of pelvis,"),
            std::string::npos)
      << e;
}

TEST(InputScript, NonFiniteNumbersAreRejected) {
  EXPECT_TRUE(refused_with(
      R"({ "events": [ { "t": 1, "type": "push", "enemy": "a", "body": "chest", "impulse": [1e999, 0, 0] } ] })",
      "events[0] (push at t=1): `impulse` must be finite"));
  EXPECT_TRUE(refused_with(
      R"({ "events": [ { "t": 1e999, "type": "push", "enemy": "a", "body": "chest", "impulse": [1, 0, 0] } ] })",
      "events[0] (push): `t` must be finite"));
}

TEST(InputScript, NegativeTimeIsRejected) {
  const std::string e = errors_of(
      R"({ "events": [ { "t": -0.5, "type": "push", "enemy": "a", "body": "chest", "impulse": [1, 0, 0] } ] })");
  EXPECT_NE(e.find("events[0] (push at t=-0.5): `t` must not be negative, got -0.5"),
            std::string::npos)
      << e;
}

TEST(InputScript, EveryProblemIsReportedNotOnlyTheFirst) {
  const std::string e = errors_of(R"({ "events": [
      { "t": 1, "type": "push", "enemy": "a", "body": "tail", "impulse": [1, 0, 0] },
      { "t": 2, "type": "push", "enemy": "a", "body": "chest", "impulse": [1, 0], "force": 3 },
      { "t": 3, "type": "jump" },
      { "t": 4, "type": "hand", "hand": "right" } ] })");
  EXPECT_NE(e.find("events[0] (push at t=1): unknown body"), std::string::npos) << e;
  EXPECT_NE(e.find("events[1] (push at t=2): `impulse` must be an array of three numbers"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("events[1] (push at t=2): unknown key `force`"), std::string::npos) << e;
  EXPECT_NE(e.find("events[2] (jump at t=3): unknown event type \"jump\""), std::string::npos) << e;
  EXPECT_NE(e.find("events[3] (hand at t=4): missing `path`"), std::string::npos) << e;
}

TEST(InputScript, HandPathsAreCheckedPointByPoint) {
  const std::string e = errors_of(R"({ "events": [
      { "t": 1, "type": "hand", "hand": "middle", "path": [ { "t": 1, "position": [0, 1, 0] } ] },
      { "t": 2, "type": "hand", "hand": "left", "path": [ { "t": 2, "position": [0, 1] },
                                                          { "t": 3, "position": [0, 1, 1] },
                                                          { "t": 2.5, "position": [0, 1, 2] } ] } ] })");
  EXPECT_NE(e.find("events[0] (hand at t=1): `hand` must be \"left\" or \"right\", got \"middle\""),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("events[1] (hand at t=2): path[0] must be { \"t\": seconds >= 0, \"position\": "
                   "[x, y, z] in m }"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("events[1] (hand at t=2): path[2] goes back in time (t=2.5 after t=3)"),
            std::string::npos)
      << e;
  const auto good = parse_input_script(R"({ "events": [ { "t": 1, "type": "hand", "hand": "right",
      "path": [ { "t": 1, "position": [0, 1.3, 1] }, { "t": 1.2, "position": [0, 1.3, -0.2] } ] } ] })",
                                       "h.json");
  ASSERT_TRUE(good) << good.error();
  ASSERT_EQ(good.value().hands.size(), 1u);
  EXPECT_EQ(good.value().hands[0].hand, 1);
  EXPECT_EQ(good.value().hands[0].path.size(), 2u);
  EXPECT_EQ(good.value().hands[0].path[1].position, (Vec3{0, 1.3f, -0.2f}));
}

TEST(InputScript, MissingFieldsAndBadJson) {
  EXPECT_NE(errors_of(R"({ "events": [ { "type": "push" } ] })").find("missing `t`"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({ "events": [ { "t": 1, "type": "push" } ] })").find("missing `enemy`"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({ "evnts": [] })").find("unknown top-level key `evnts`"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({ "events": [ )").find("s.json:1:15: error: not valid JSON"),
            std::string::npos);
}

TEST(InputScript, WalkEventsCarryTheLocomotionIntent) {
  const auto r = parse_input_script(R"({ "events": [
      { "t": 3, "type": "walk", "enemy": "a", "gait": "idle" },
      { "t": 1, "type": "walk", "enemy": "a", "velocity": [0, 0, 1.2] },
      { "t": 2, "type": "walk", "enemy": "a", "velocity": [2, 0, 0], "gait": "run", "facing_deg": 90 } ] })",
                                    "s.json");
  ASSERT_TRUE(r.ok()) << r.error();
  const auto& walks = r.value().walks;
  ASSERT_EQ(walks.size(), 3u);
  EXPECT_EQ(walks[0].intent.gait, physics::Gait::walk);
  EXPECT_EQ(walks[0].intent.velocity, (Vec3{0, 0, 1.2f}));
  EXPECT_FALSE(walks[0].intent.has_facing);
  EXPECT_EQ(walks[1].intent.gait, physics::Gait::run);
  EXPECT_TRUE(walks[1].intent.has_facing);
  EXPECT_NEAR(walks[1].intent.facing_rad, kPi / 2, 1e-6);
  EXPECT_EQ(walks[2].intent.gait, physics::Gait::idle);
}

TEST(InputScript, BadWalkEventsAreReported) {
  const std::string e = errors_of(R"({ "events": [
      { "t": 1, "type": "walk", "enemy": "a", "velocity": [0, 0, 1], "gait": "crawl" },
      { "t": 2, "type": "walk", "enemy": "a" },
      { "t": 3, "type": "walk", "enemy": "a", "velocity": [1e999, 0, 0], "facing_deg": "north" } ] })");
  EXPECT_NE(
      e.find("events[0] (walk at t=1): unknown gait \"crawl\"; expected one of idle, walk, run"),
      std::string::npos)
      << e;
  EXPECT_NE(e.find("events[1] (walk at t=2): missing `velocity`"), std::string::npos) << e;
  EXPECT_NE(e.find("events[2] (walk at t=3): `velocity` must be finite"), std::string::npos) << e;
  EXPECT_NE(e.find("events[2] (walk at t=3): `facing_deg` must be a finite number"),
            std::string::npos)
      << e;
}

TEST(InputScript, UnknownEnemyIsFoundAgainstTheScene) {
  const auto r = parse_input_script(
      R"({ "events": [ { "t": 1, "type": "push", "enemy": "guard", "body": "chest", "impulse": [1, 0, 0] } ] })",
      "s.json");
  ASSERT_TRUE(r.ok());
  const std::string e = check_against_scene(r.value(), builtin_scene(2), "s.json");
  EXPECT_EQ(e,
            "s.json:1:50: error: events[0] (push at t=1): unknown enemy `guard` (the scene has: "
            "dummy, dummy-2)");
  EXPECT_EQ(check_against_scene(r.value(), builtin_scene(1), "s.json").empty(), false);
}

// Numbers outside the documented bounds are refused at their place, not clamped or ignored.
TEST(InputScript, OutOfBoundsNumbersAreRefusedWithTheirPlace) {
  EXPECT_TRUE(
      refused_with(R"({"events":[{"t":1,"type":"walk","enemy":"a","velocity":[10,0,0]}]})",
                   "s.json:1:56: error: events[0] (walk at t=1): `velocity` must be at most 1.6 "
                   "m/s walking"));
  EXPECT_TRUE(
      refused_with(R"({"events":[{"t":1,"type":"walk","enemy":"a","velocity":[0,1e38,1.2]}]})",
                   "its y must be 0"));
  EXPECT_TRUE(refused_with(R"({"events":[{"t":1,"type":"player","position":[1e29,0,0]}]})",
                           "events[0] (player at t=1): `position` must lie inside the world (every "
                           "coordinate within +-10000 m)"));
  EXPECT_TRUE(refused_with(R"({"events":[{"t":1e308,"type":"kill","enemy":"a"}]})",
                           "`t` must be at most 86400 s"));
  EXPECT_TRUE(refused_with(
      R"({"events":[{"t":1,"type":"push","enemy":"a","body":"chest","impulse":[1e30,0,0]}]})",
      "`impulse` must be at most 1000 N·s long"));
  EXPECT_TRUE(refused_with(
      R"({"events":[{"t":1,"type":"hand","hand":"left","path":[{"t":0,"position":[0,1e9,0]}]}]})",
      "`path[0].position` must lie inside the world"));
}

TEST(InputScript, DuplicateKeysAreErrors) {
  EXPECT_TRUE(refused_with(
      R"({"events":[{"t":1,"t":2,"type":"kill","enemy":"a"}]})",
      "s.json:1:19: error: events[0] (kill at t=1): duplicate key `t` in a kill event"));
  EXPECT_NE(errors_of(R"({"events":[],"events":[]})").find("duplicate key `events` in the script"),
            std::string::npos);
}

TEST(InputScript, DeepNestingIsRefusedWithItsPlace) {
  const std::string deep =
      "{\"events\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::string e = errors_of(deep);
  EXPECT_EQ(e.rfind("s.json:1:", 0), 0u) << e.substr(0, 200);
  EXPECT_NE(e.find("nested more than 256 deep"), std::string::npos) << e.substr(0, 200);
}

TEST(InputScript, LongValuesAreCutInMessages) {
  const std::string name(5 * 1024 * 1024, 'x');
  const auto r = parse_input_script(R"({"events":[{"t":1,"type":"push","enemy":")" + name +
                                        R"(","body":"chest","impulse":[1,0,0]}]})",
                                    "s.json");
  ASSERT_TRUE(r.ok());
  const std::string e = check_against_scene(r.value(), builtin_scene(1), "s.json");
  EXPECT_LT(e.size(), 300u);
  EXPECT_NE(e.find("... (5242880 bytes)"), std::string::npos) << e;
  const std::string body = errors_of(R"({"events":[{"t":1,"type":"push","enemy":"a","body":")" +
                                     name + R"(","impulse":[1,0,0]}]})");
  EXPECT_LT(body.size(), 400u);
}

}  // namespace
}  // namespace stagger::sim
