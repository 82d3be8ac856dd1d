// The push-threshold sweep (`stagger bench --push-thresholds`): S and T per direction from the
// falls per impulse, and a small sweep whose outcomes are certain.

#include "stagger/bench/push_thresholds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace stagger {
namespace {

TEST(PushThresholds, SAndTComeFromTheFallsPerImpulse) {
  const std::vector<float> impulses{50, 55, 60, 65, 70, 75, 80};
  // 60 falls once: S is 55. From 65 up every impulse falls at least 5 times in 6, and 65 falls
  // at all 6: T is 65.
  bench::DirectionThresholds d = bench::thresholds_of(impulses, {0, 0, 1, 6, 6, 5, 6}, 6);
  ASSERT_TRUE(d.survives_ns && d.falls_ns);
  EXPECT_EQ(*d.survives_ns, 55.0f);
  EXPECT_EQ(*d.falls_ns, 65.0f);
  // A hole above: 70 survives 4 times, so nothing below it counts as T.
  d = bench::thresholds_of(impulses, {0, 0, 0, 6, 2, 6, 6}, 6);
  EXPECT_EQ(*d.survives_ns, 60.0f);
  EXPECT_EQ(*d.falls_ns, 75.0f);
  // Nothing falls: no T; the smallest falls: no S.
  d = bench::thresholds_of(impulses, {0, 0, 0, 0, 0, 0, 0}, 6);
  EXPECT_EQ(*d.survives_ns, 80.0f);
  EXPECT_FALSE(d.falls_ns);
  d = bench::thresholds_of(impulses, {6, 6, 6, 6, 6, 6, 6}, 6);
  EXPECT_FALSE(d.survives_ns);
  EXPECT_EQ(*d.falls_ns, 50.0f);
}

TEST(PushThresholds, TwentyNewtonSecondsAreCaughtAndOneFiftyFellInEveryDirection) {
  bench::PushThresholdOptions options;
  options.from_ns = 20.0f;
  options.to_ns = 150.0f;
  options.step_ns = 130.0f;
  options.push_times = 2;
  const bench::PushThresholdResult r = bench::run_push_thresholds(options);
  ASSERT_EQ(r.runs.size(), 32u) << "8 directions x 2 impulses x 2 push times";
  for (int d = 0; d < bench::kPushDirections; ++d) {
    const bench::DirectionThresholds& t = r.directions[static_cast<std::size_t>(d)];
    EXPECT_EQ(t.survives_ns, 20.0f) << bench::push_direction_name(d);
    EXPECT_EQ(t.falls_ns, 150.0f) << bench::push_direction_name(d);
  }
  const std::string table = bench::push_threshold_table(r);
  EXPECT_NE(table.find("back-right"), std::string::npos) << table;
  EXPECT_NE(bench::push_threshold_report_json(r).find("\"survives_ns\": 20"), std::string::npos);
}

// The whole sweep (864 pushes, about 30 s): per direction S >= 50 N·s, T <= 90 N·s, T - S <=
// 15 N·s, every impulse above T falling at least 5 times in 6 (thresholds_of leaves T unset
// otherwise), and mirrored directions' S within 5 N·s. In the release build S is 70-75 N·s and
// T 75-80 N·s in every direction, the mirrored S equal.
TEST(PushThresholds, StandingBodiesHaveSharpSymmetricThresholds) {
  const bench::PushThresholdResult r = bench::run_push_thresholds({});
  ASSERT_EQ(r.runs.size(), 864u);
  for (int d = 0; d < bench::kPushDirections; ++d) {
    const bench::DirectionThresholds& t = r.directions[static_cast<std::size_t>(d)];
    const std::string_view name = bench::push_direction_name(d);
    ASSERT_TRUE(t.survives_ns) << name;
    ASSERT_TRUE(t.falls_ns) << name << ": some impulse above every fall survives";
    RecordProperty(std::string(name) + "_S", static_cast<int>(*t.survives_ns));
    RecordProperty(std::string(name) + "_T", static_cast<int>(*t.falls_ns));
    EXPECT_GE(*t.survives_ns, 50.0f) << name;
    EXPECT_LE(*t.falls_ns, 90.0f) << name;
    EXPECT_LE(*t.falls_ns - *t.survives_ns, 15.0f) << name;
  }
  for (int d = 1; d < bench::kPushDirections / 2; ++d) {
    const auto& a = r.directions[static_cast<std::size_t>(d)];
    const auto& b = r.directions[static_cast<std::size_t>(bench::kPushDirections - d)];
    ASSERT_TRUE(a.survives_ns && b.survives_ns);
    EXPECT_LE(std::fabs(*a.survives_ns - *b.survives_ns), 5.0f)
        << bench::push_direction_name(d) << " against "
        << bench::push_direction_name(bench::kPushDirections - d);
  }
}

}  // namespace
}  // namespace stagger
