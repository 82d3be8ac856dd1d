// The soak that looks for blow-ups and for leaks over minutes (`stagger bench --soak`), short.

#include "stagger/bench/soak.h"

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

TEST(Soak, ShortSoakSamplesMemoryEachMinuteAndStaysFinite) {
  bench::SoakOptions options;
  options.enemies = 4;
  options.seconds = 61.0;
  const bench::SoakResult r = bench::run_soak(test::level_scene("courtyard.json"), options);
  EXPECT_EQ(r.enemies, 4);
  ASSERT_EQ(r.rss_mib.size(), 3u) << "at 0 s, at 60 s and at the end";
  for (double mib : r.rss_mib) EXPECT_GT(mib, 1.0);
  EXPECT_TRUE(r.finite);
  EXPECT_EQ(r.resets, 0);
  EXPECT_EQ(r.pushes, 60) << "a shove a second";
  EXPECT_GT(r.ms_per_step, 0.0);
}

}  // namespace
}  // namespace stagger
