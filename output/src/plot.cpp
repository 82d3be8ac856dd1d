#include "stagger/output/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "stagger/core/enum_table.h"

namespace stagger::output {

namespace {

constexpr float kLeft = 70.0f;  // [px] room for the value axis
constexpr float kRight = 20.0f;
constexpr float kTitle = 60.0f;    // [px] title and legend
constexpr float kPanel = 240.0f;   // [px] per enemy
constexpr float kPlotTop = 28.0f;  // [px] within a panel: the name above the plot
constexpr float kPlotHeight = 180.0f;
constexpr float kValueMax = 1.2f;  // [m] top of the value axis (errors beyond are clipped)

const image::Colour kBackground{250, 250, 247};
const image::Colour kInk{30, 30, 36};
const image::Colour kGrid{205, 205, 200};
const image::Colour kError{210, 40, 40};
const image::Colour kPelvis{40, 90, 200};
const image::Colour kPush{130, 40, 160};

std::string one_decimal(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", v);
  return text;
}

}  // namespace

image::Colour state_colour(physics::LocomotionState state) {
  // In the enum's order: standing, stepping, walking, falling, down, getting_up, dead.
  static const image::Colour kColours[] = {{250, 250, 247}, {252, 226, 140}, {200, 236, 200},
                                           {246, 170, 160}, {220, 190, 190}, {250, 200, 150},
                                           {190, 190, 190}};
  return enum_lookup<physics::LocomotionState::dead>(kColours, state, kBackground);
}

void TracePlot::record(const sim::Simulation& simulation) {
  const auto& enemies = simulation.scene().enemies();
  if (names_.empty()) {
    for (const sim::Enemy& e : enemies) names_.push_back(e.name);
    samples_.resize(enemies.size());
  }
  const auto t = static_cast<float>(simulation.scene().world().time());
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const physics::Ragdoll& body = *enemies[i].ragdoll;
    samples_[i].push_back({t, body.balance().error_m, body.pelvis_height(), body.state()});
  }
}

float TracePlot::x_of(double t, double end_s, int width) {
  const double span = std::max(end_s, 1e-6);
  return kLeft + static_cast<float>(t / span) * (static_cast<float>(width) - kLeft - kRight);
}

image::Canvas TracePlot::render(int width) const {
  const int height = static_cast<int>(
      kTitle + kPanel * static_cast<float>(std::max<std::size_t>(1, names_.size())));
  image::Canvas canvas(width, height, kBackground);
  canvas.text(kLeft, 10.0f, "balance error and pelvis height [m] over time [s]", kInk, 2);
  // Legend: the curves, the pushes, then the state bands.
  float x = kLeft;
  const auto key = [&](image::Colour c, const std::string& label, bool band) {
    if (band) {
      canvas.rect(x, 36.0f, 18.0f, 12.0f, c);
    } else {
      canvas.rect(x, 41.0f, 18.0f, 3.0f, c);
    }
    canvas.text(x + 22.0f, 38.0f, label, kInk, 1);
    x += 30.0f + 6.0f * static_cast<float>(label.size());
  };
  key(kError, "balance error", false);
  key(kPelvis, "pelvis height", false);
  key(kPush, "push", false);
  for (int s = 1; s <= static_cast<int>(physics::LocomotionState::dead); ++s) {
    const auto state = static_cast<physics::LocomotionState>(s);
    key(state_colour(state), std::string(physics::name_of(state)), true);
  }
  double end_s = 0;
  for (const auto& samples : samples_) {
    if (!samples.empty()) end_s = std::max(end_s, static_cast<double>(samples.back().t));
  }
  for (std::size_t i = 0; i < names_.size(); ++i)
    draw_panel(canvas, i, kTitle + kPanel * static_cast<float>(i), end_s);
  return canvas;
}

void TracePlot::draw_panel(image::Canvas& canvas, std::size_t enemy, float top,
                           double end_s) const {
  const std::vector<Sample>& samples = samples_[enemy];
  const int width = canvas.width();
  const float plot_top = top + kPlotTop;
  const float plot_bottom = plot_top + kPlotHeight;
  const auto y_of = [&](float value) {
    return plot_bottom - std::clamp(value, 0.0f, kValueMax) / kValueMax * kPlotHeight;
  };
  canvas.text(kLeft, top + 8.0f, names_[enemy], kInk, 2);
  // State bands: one rectangle per run of a state.
  for (std::size_t a = 0; a < samples.size();) {
    std::size_t b = a;
    while (b + 1 < samples.size() && samples[b + 1].state == samples[a].state) ++b;
    const float x0 = x_of(a == 0 ? 0.0 : static_cast<double>(samples[a - 1].t), end_s, width);
    const float x1 = x_of(static_cast<double>(samples[b].t), end_s, width);
    canvas.rect(x0, plot_top, std::max(1.0f, x1 - x0), kPlotHeight, state_colour(samples[a].state));
    a = b + 1;
  }
  // Value grid and axis labels every 0.2 m; time ticks at a round step.
  for (int k = 0; k <= 6; ++k) {
    const float v = 0.2f * static_cast<float>(k);
    canvas.rect(kLeft, y_of(v), static_cast<float>(width) - kLeft - kRight, 1.0f, kGrid);
    canvas.text(kLeft - 30.0f, y_of(v) - 4.0f, one_decimal(v), kInk, 1);
  }
  double tick = 1.0;
  for (double candidate : {1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0}) {
    if (end_s / candidate <= 15.0) {
      tick = candidate;
      break;
    }
    tick = candidate;
  }
  for (double t = 0; t <= end_s + 1e-9; t += tick) {
    const float px = x_of(t, end_s, width);
    canvas.rect(px, plot_bottom, 1.0f, 5.0f, kInk);
    canvas.text(px - 6.0f, plot_bottom + 8.0f, one_decimal(t), kInk, 1);
  }
  canvas.rect(kLeft, plot_bottom, static_cast<float>(width) - kLeft - kRight, 1.0f, kInk);
  canvas.rect(kLeft, plot_top, 1.0f, kPlotHeight, kInk);
  // Pushes on this enemy.
  for (const sim::PushEvent& push : pushes_) {
    if (push.enemy != names_[enemy] || push.t > end_s) continue;
    const float px = x_of(push.t, end_s, width);
    canvas.rect(px - 1.0f, plot_top, 2.0f, kPlotHeight, kPush);
    canvas.text(px + 4.0f, plot_top + 4.0f,
                one_decimal(static_cast<double>(length(push.impulse))) + " N s", kPush, 1);
  }
  // The curves.
  for (std::size_t s = 1; s < samples.size(); ++s) {
    const float x0 = x_of(static_cast<double>(samples[s - 1].t), end_s, width);
    const float x1 = x_of(static_cast<double>(samples[s].t), end_s, width);
    canvas.line(x0, y_of(samples[s - 1].pelvis_m), x1, y_of(samples[s].pelvis_m), kPelvis, 2.0f);
    canvas.line(x0, y_of(samples[s - 1].error_m), x1, y_of(samples[s].error_m), kError, 2.0f);
  }
}

bool TracePlot::write_png(const std::string& path, int width) const {
  return image::write_png(render(width), path);
}

}  // namespace stagger::output
