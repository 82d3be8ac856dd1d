#version 450
// Instanced lit meshes: each instance places a unit shape (translation, rotation quaternion,
// per-axis scale) and gives it a colour. World space is Stagger's: metres, +Y up.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_translation;
layout(location = 3) in vec4 in_rotation;  // x, y, z, w
layout(location = 4) in vec4 in_scale;
layout(location = 5) in vec4 in_colour;    // linear RGB; a = 2 draws a floor checker

layout(push_constant) uniform Push { mat4 view_projection; } push;

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec4 out_colour;
layout(location = 2) out vec3 out_world;

vec3 rotate(vec4 q, vec3 v) {
  vec3 t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}

void main() {
  vec3 world = rotate(in_rotation, in_position * in_scale.xyz) + in_translation.xyz;
  // Normals of a scaled shape scale by the inverse.
  out_normal = normalize(rotate(in_rotation, in_normal / in_scale.xyz));
  out_colour = in_colour;
  out_world = world;
  gl_Position = push.view_projection * vec4(world, 1.0);
}
