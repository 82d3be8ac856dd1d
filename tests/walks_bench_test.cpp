// The walks on flat ground (`stagger bench --walks`): every stance is counted once, the stances'
// slides agree with the fall witness's largest slide of each walk, and the run repeats itself.

#include "stagger/bench/walks_bench.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace stagger {
namespace {

TEST(WalksBench, TenWalksWithoutAFallWhoseStancesGiveTheWitnessFigure) {
  const bench::WalksResult r = bench::run_walks({});
  ASSERT_EQ(r.walks.size(), bench::walk_definitions().size());
  ASSERT_EQ(r.walks.size(), 10u);
  EXPECT_FALSE(r.interrupted);
  std::size_t first = 0;
  for (const bench::WalkRun& w : r.walks) {
    SCOPED_TRACE(w.name);
    EXPECT_EQ(w.falls, 0);
    // Twelve seconds at about three steps a second, each step a stance of the foot it lands.
    EXPECT_GE(w.stances, 25);
    EXPECT_LE(w.stances, w.steps_taken + 2);
    ASSERT_LE(first + static_cast<std::size_t>(w.stances), r.stance_slips_m.size());
    const auto begin = r.stance_slips_m.begin() + static_cast<std::ptrdiff_t>(first);
    const auto end = begin + w.stances;
    EXPECT_FLOAT_EQ(*std::max_element(begin, end), w.max_foot_slip_m);
    EXPECT_EQ(std::count_if(begin, end, [&](float s) { return s > r.options.bar_m; }),
              w.stances_over);
    first += static_cast<std::size_t>(w.stances);
  }
  EXPECT_EQ(first, r.stance_slips_m.size());

  const nlohmann::json j = nlohmann::json::parse(bench::walks_report_json(r));
  EXPECT_EQ(j["walks"].size(), 10u);
  EXPECT_EQ(j["stance_slips_m"].size(), r.stance_slips_m.size());
  EXPECT_EQ(j["stance_slip_m"]["stances"].get<std::size_t>(), r.stance_slips_m.size());
}

TEST(WalksBench, RepeatsItselfAndANudgedSpawnIsAnotherSample) {
  bench::WalksOptions options;
  const bench::WalksResult a = bench::run_walks(options);
  const bench::WalksResult b = bench::run_walks(options);
  EXPECT_EQ(a.state_hash, b.state_hash);
  EXPECT_EQ(a.stance_slips_m, b.stance_slips_m);
  options.vary_seed = 1;
  const bench::WalksResult nudged = bench::run_walks(options);
  EXPECT_NE(nudged.state_hash, a.state_hash);
  EXPECT_NE(bench::walks_table(nudged).find("spawn nudged from seed 1"), std::string::npos);
}

}  // namespace
}  // namespace stagger
