#version 450
// Simple lit shading: a sun, a sky/ground hemisphere and a metre checker on level geometry so
// that distance and motion read in a still frame. Output is linear; the target is sRGB.
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_colour;
layout(location = 2) in vec3 in_world;
layout(location = 0) out vec4 out_colour;

void main() {
  vec3 n = normalize(in_normal);
  if (!gl_FrontFacing) n = -n;
  const vec3 sun = normalize(vec3(0.35, 1.0, 0.25));
  float diffuse = max(dot(n, sun), 0.0);
  float sky = 0.5 + 0.5 * n.y;
  vec3 base = in_colour.rgb;
  if (in_colour.a > 1.5 && abs(n.y) > 0.5) {  // (floors and tops only: on walls it shimmers)
    float cell = mod(floor(in_world.x) + floor(in_world.z), 2.0);
    base *= 0.82 + 0.18 * cell;
  }
  out_colour = vec4(base * (0.18 + 0.22 * sky + 0.65 * diffuse), 1.0);
}
