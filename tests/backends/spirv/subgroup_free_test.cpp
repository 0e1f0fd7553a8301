// The Vulkan plugin's rewrite of kernels lowered for one subgroup size so that they run
// on any (plugins/vulkan/SubgroupFree.cpp), on the backend's own output, no device
// needed: the generic target's vector_add becomes a valid module reading its thread id
// from LocalInvocationIndex; softmax (subgroup shuffles) is refused with the reason.
#include "KernelBinary.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Target.h"
#include "trident/backends/spirv/Tools.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace trident;

namespace {

spirv::SpirvKernel compileSimtKernel(const char *file, const char *kernel) {
  std::ifstream in(std::string(TRIDENT_SIMT_KERNELS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  Diagnostics diags;
  std::optional<Module> m = parseModule(text.str(), file, diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  spirv::SpirvOptions options;
  options.numWarps = 4;
  std::optional<spirv::SpirvKernel> k = spirv::compileToSpirv(*m, kernel, spirv::genericDevice(), options, diags);
  REQUIRE_MESSAGE(k, diags.str());
  return *k;
}

} // namespace

TEST_CASE("generic-target kernels lose their subgroup ids where nothing else needs subgroups") {
  spirv::SpirvKernel add = compileSimtKernel("vector_add.ttir", "add_kernel");
  CHECK(add.interface.subgroupSize == 32);
  std::string before = spirv::disassemble(add.words);
  REQUIRE(before.find("BuiltIn SubgroupLocalInvocationId") != std::string::npos);
  REQUIRE(before.find("BuiltIn SubgroupId") != std::string::npos);

  std::string why;
  std::optional<std::vector<uint32_t>> free = vulkan::withoutSubgroupIds(add.words, 32, why);
  REQUIRE_MESSAGE(free, why);
  CHECK(spirv::validate(*free) == "");
  std::string after = spirv::disassemble(*free);
  INFO(after);
  CHECK(after.find("BuiltIn LocalInvocationIndex") != std::string::npos);
  CHECK(after.find("SubgroupLocalInvocationId") == std::string::npos);
  CHECK(after.find("BuiltIn SubgroupId") == std::string::npos);
  CHECK(after.find("OpUMod") != std::string::npos);
  CHECK(after.find("OpUDiv") != std::string::npos);
  CHECK(after.find("OpConstant %uint 32") != std::string::npos);
  // Once is enough: the rewritten module has nothing left to rewrite.
  std::optional<std::vector<uint32_t>> again = vulkan::withoutSubgroupIds(*free, 32, why);
  REQUIRE(again);
  CHECK(*again == *free);

  spirv::SpirvKernel softmax = compileSimtKernel("softmax.ttir", "softmax_kernel");
  why.clear();
  CHECK_FALSE(vulkan::withoutSubgroupIds(softmax.words, 32, why));
  CHECK(why.find("subgroup operations (SPIR-V capability") != std::string::npos);
  std::vector<uint32_t> truncated(add.words.begin(), add.words.begin() + 6); // mid-instruction
  CHECK_FALSE(vulkan::withoutSubgroupIds(truncated, 32, why));
  CHECK(why.find("malformed") != std::string::npos);
}
