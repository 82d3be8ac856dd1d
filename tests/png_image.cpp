#include "png_image.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

namespace stagger::test {

PngImage read_png(const std::string& path) {
  PngImage image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (data == nullptr) return {};
  image.rgb.assign(data, data + static_cast<std::size_t>(image.width) *
                                    static_cast<std::size_t>(image.height) * 3);
  stbi_image_free(data);
  return image;
}

}  // namespace stagger::test
