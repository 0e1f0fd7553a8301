// The binary container the CUDA, HIP and CPU plugins share (trident/sdk/BinaryContainer.h)
// and the GPU plugins' kernel lines on it (GpuModules.h): the exact bytes of each
// plugin's format, which disk caches and bundles hold, and what each malformed binary
// is refused for.

#include "trident/sdk/BinaryContainer.h"
#include "trident/sdk/GpuModules.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace sdk = trident::sdk;

namespace {

constexpr std::string_view kCpuHeader = "// trident-cpu-binary 1\n";
constexpr std::string_view kObject[] = {"object"};

// Reads a CPU-shaped container, collecting its lines ("word|rest"); a line "bad" is refused.
sdk::ContainerError read(std::string_view bytes, std::vector<std::string> &lines, std::string &code) {
  std::string kind;
  return sdk::readContainer(
      bytes, kCpuHeader, kObject, /*sized=*/true,
      [&](const std::string &word, std::istringstream &fields) {
        std::string rest;
        std::getline(fields, rest);
        lines.push_back(word + "|" + rest);
        return word != "bad";
      },
      kind, code);
}

} // namespace

TEST_CASE("BinaryContainer: the CPU plugin's bytes, written and read back") {
  std::string object("\x7f"
                     "ELF\0\n\x01",
                     7);
  std::string bytes =
      sdk::writeContainer(kCpuHeader, "cpu znver3 +avx2\nkernel add 0 1 5\n", "object", object, true);
  CHECK(bytes == "// trident-cpu-binary 1\ncpu znver3 +avx2\nkernel add 0 1 5\nobject 7\n" + object);
  std::vector<std::string> lines;
  std::string code;
  REQUIRE(read(bytes, lines, code) == sdk::ContainerError::None);
  CHECK(lines == std::vector<std::string>{"cpu| znver3 +avx2", "kernel| add 0 1 5"});
  CHECK(code == object);
}

TEST_CASE("BinaryContainer: what a malformed binary is refused for") {
  std::vector<std::string> lines;
  std::string code;
  CHECK(read("// trident-gpu-binary 1\nobject 0\n", lines, code) == sdk::ContainerError::Header);
  CHECK(read("// trident-cpu-binary 1\ncpu x\nbad line\nobject 0\n", lines, code) ==
        sdk::ContainerError::Line);
  CHECK(lines.back() == "bad| line"); // the lines before it were read, in order
  CHECK(read("// trident-cpu-binary 1\ncpu x\n", lines, code) == sdk::ContainerError::Code);
  CHECK(read("// trident-cpu-binary 1\ncpu x", lines, code) == sdk::ContainerError::Code); // no newline
  CHECK(read("// trident-cpu-binary 1\nobject 5\nabcd", lines, code) == sdk::ContainerError::Size);
  CHECK(read("// trident-cpu-binary 1\nobject 3\nabcd", lines, code) == sdk::ContainerError::Size);
  CHECK(read("// trident-cpu-binary 1\nobject\nabcd", lines, code) == sdk::ContainerError::Size);
  REQUIRE(read("// trident-cpu-binary 1\nobject 4\nab\nd", lines, code) == sdk::ContainerError::None);
  CHECK(code == "ab\nd"); // the code may hold newlines
}

TEST_CASE("BinaryContainer: the CUDA and HIP plugins' bytes through the GPU kernel lines") {
  sdk::GpuBinary cuda{
      {{"add", 128, 0, 4, {}}, {"mm", 256, 98304, 9, std::vector<int64_t>(19, 7)}}, "ptx", ".entry"};
  std::string bytes = sdk::encodeGpuBinary("trident-cuda-binary 2\n", cuda, /*sized=*/false);
  std::string maps = " maps 19";
  for (int i = 0; i < 19; ++i)
    maps += " 7";
  CHECK(bytes == "trident-cuda-binary 2\nkernel add threads 128 shared 0 params 4\n"
                 "kernel mm threads 256 shared 98304 params 9" +
                     maps + "\nptx\n.entry");
  static constexpr std::string_view cudaKinds[] = {"ptx", "cubin"};
  sdk::GpuBinary back;
  REQUIRE(sdk::decodeGpuBinary(bytes, "trident-cuda-binary 2\n", cudaKinds, false, back));
  REQUIRE(back.kernels.size() == 2);
  CHECK(back.kernels[1].name == "mm");
  CHECK(back.kernels[1].shared == 98304);
  CHECK(back.kernels[1].tensorMaps == cuda.kernels[1].tensorMaps);
  CHECK(back.kind == "ptx");
  CHECK(back.code == ".entry");
  sdk::GpuBinary empty;
  CHECK(
      sdk::decodeGpuBinary("trident-cuda-binary 2\nptx", "trident-cuda-binary 2\n", cudaKinds, false, empty));
  CHECK(empty.code.empty());
  CHECK(!sdk::decodeGpuBinary("trident-cuda-binary 2\nptx 3\nabc", "trident-cuda-binary 2\n", cudaKinds,
                              false, empty));
  CHECK(!sdk::decodeGpuBinary("trident-cuda-binary 2\nkernel add threads 1\nptx\n", "trident-cuda-binary 2\n",
                              cudaKinds, false, empty));
  CHECK(!sdk::decodeGpuBinary("trident-cuda-binary 2\nkernel a threads 1 shared 0 params 1 maps 18\nptx\n",
                              "trident-cuda-binary 2\n", cudaKinds, false, empty));

  sdk::GpuBinary hip{{{"add", 256, 0, 4, {}}},
                     "hsaco",
                     std::string("\x7f"
                                 "ELF\n",
                                 5)};
  bytes = sdk::encodeGpuBinary("trident-hip-binary 1\n", hip, /*sized=*/true);
  CHECK(bytes == "trident-hip-binary 1\nkernel add threads 256 shared 0 params 4\nhsaco 5\n" + hip.code);
  static constexpr std::string_view hipKinds[] = {"hsaco"};
  sdk::GpuBinary hipBack, truncated;
  REQUIRE(sdk::decodeGpuBinary(bytes, "trident-hip-binary 1\n", hipKinds, true, hipBack));
  CHECK(hipBack.kernels.size() == 1);
  CHECK(hipBack.code == hip.code);
  CHECK(!sdk::decodeGpuBinary(bytes.substr(0, bytes.size() - 1), "trident-hip-binary 1\n", hipKinds, true,
                              truncated));
}
