#version 450
// The debug overlay: coloured world-space lines.
layout(location = 0) in vec4 in_position;
layout(location = 1) in vec4 in_colour;
layout(push_constant) uniform Push { mat4 view_projection; } push;
layout(location = 0) out vec4 out_colour;

void main() {
  out_colour = in_colour;
  gl_Position = push.view_projection * vec4(in_position.xyz, 1.0);
}
