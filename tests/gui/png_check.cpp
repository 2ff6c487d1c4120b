// Checks screenshots for the gui tests:
//   png_check FILE WIDTH HEIGHT   the image has that size and is not blank (many colours, no
//                                 single colour covering nearly all of it)
//   png_check --differ A B        the two images differ in at least 1% of their pixels
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include <stb/stb_image.h>

namespace {

struct Image {
  int w = 0, h = 0;
  unsigned char* px = nullptr;
  explicit Image(const char* path) {
    int channels = 0;
    px = stbi_load(path, &w, &h, &channels, 4);
  }
  ~Image() { stbi_image_free(px); }
};

int fail(const std::string& message) {
  std::fprintf(stderr, "png_check: %s\n", message.c_str());
  return 1;
}

int check_one(const char* path, int want_w, int want_h) {
  Image img(path);
  if (!img.px) return fail(std::string(path) + ": not a readable PNG");
  if (img.w != want_w || img.h != want_h)
    return fail(std::string(path) + ": " + std::to_string(img.w) + "x" + std::to_string(img.h) +
                ", expected " + std::to_string(want_w) + "x" + std::to_string(want_h));
  std::map<uint32_t, size_t> counts;
  const size_t n = size_t(img.w) * size_t(img.h);
  for (size_t i = 0; i < n; ++i) {
    uint32_t c;
    std::memcpy(&c, img.px + 4 * i, 4);
    ++counts[c];
  }
  size_t top = 0;
  for (const auto& [c, k] : counts) top = std::max(top, k);
  std::printf("%s: %dx%d, %zu colours, the commonest covers %.1f%%\n", path, img.w, img.h,
              counts.size(), 100.0 * double(top) / double(n));
  if (counts.size() < 32) return fail("only " + std::to_string(counts.size()) + " colours: blank?");
  if (double(top) > 0.9 * double(n)) return fail("one colour covers over 90% of the image");
  return 0;
}

int check_differ(const char* a_path, const char* b_path) {
  Image a(a_path), b(b_path);
  if (!a.px || !b.px) return fail("cannot read both images");
  if (a.w != b.w || a.h != b.h) return 0;  // different sizes differ
  const size_t n = size_t(a.w) * size_t(a.h);
  size_t different = 0;
  for (size_t i = 0; i < n; ++i) different += std::memcmp(a.px + 4 * i, b.px + 4 * i, 4) != 0;
  std::printf("%s vs %s: %.2f%% of pixels differ\n", a_path, b_path,
              100.0 * double(different) / double(n));
  return double(different) >= 0.01 * double(n) ? 0 : fail("the images are (nearly) the same");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--differ") == 0) return check_differ(argv[2], argv[3]);
  if (argc == 4) return check_one(argv[1], std::atoi(argv[2]), std::atoi(argv[3]));
  std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT | png_check --differ A B\n");
  return 2;
}
