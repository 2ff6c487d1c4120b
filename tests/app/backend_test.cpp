// The backend a run asks for: one enum, named and parsed in one place, so that the command line,
// scripts, the Launch panel's list and the JSON reports all use the same words.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "app/backend.hpp"
#include "device/gpu/device_query.hpp"

namespace coop::app {
namespace {

TEST(BackendRequest, TheWordsAreThoseTheCommandLineHasAlwaysTaken) {
  // Saved scripts, shell history and JSON readers depend on these words: they must not change.
  EXPECT_STREQ(to_string(BackendRequest::Auto), "auto");
  EXPECT_STREQ(to_string(BackendRequest::Gpu), "gpu");
  EXPECT_STREQ(to_string(BackendRequest::Emu), "emu");
  // A request for one backend is written as a trace names the backend it ran on.
  EXPECT_STREQ(to_string(BackendRequest::Gpu), to_string(Backend::Gpu));
  EXPECT_STREQ(to_string(BackendRequest::Emu), to_string(Backend::Emu));
  EXPECT_EQ(backend_request_words(), "auto, gpu or emu");
  EXPECT_EQ(backend_request_words(kNamedBackends), "gpu or emu");
}

TEST(BackendRequest, EveryWordParsesBackToItsRequest) {
  std::set<std::string> words;
  for (BackendRequest request : kBackendRequests) {
    EXPECT_TRUE(words.insert(to_string(request)).second) << to_string(request);
    Result<BackendRequest> parsed = parse_backend_request(to_string(request));
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_EQ(*parsed, request) << to_string(request);
  }
  // The Launch panel lists them in this order, auto first (the default).
  EXPECT_EQ(kBackendRequests[0], BackendRequest::Auto);
  EXPECT_EQ(BackendRequest{}, BackendRequest::Auto);
}

TEST(BackendRequest, AnUnknownWordIsRefusedNamingTheAllowedOnes) {
  Result<BackendRequest> tpu = parse_backend_request("tpu");
  ASSERT_FALSE(tpu);
  EXPECT_EQ(tpu.message(), "--backend 'tpu': choose auto, gpu or emu");
  Result<BackendRequest> in_script = parse_backend_request("GPU", "backend");
  ASSERT_FALSE(in_script);
  EXPECT_EQ(in_script.message(), "backend 'GPU': choose auto, gpu or emu");
  // A benchmark measures the backend it is told: auto is not one of its words.
  Result<BackendRequest> bench = parse_backend_request("auto", "--backend", kNamedBackends);
  ASSERT_FALSE(bench);
  EXPECT_EQ(bench.message(), "--backend 'auto': choose gpu or emu");
  Result<BackendRequest> emu = parse_backend_request("emu", "--backend", kNamedBackends);
  ASSERT_TRUE(emu) << emu.message();
  EXPECT_EQ(*emu, BackendRequest::Emu);
}

TEST(BackendRequest, EachRequestIsChosenAsItSays) {
  Result<BackendChoice> emu = choose_backend(BackendRequest::Emu);
  ASSERT_TRUE(emu) << emu.message();
  EXPECT_EQ(emu->exec->backend(), Backend::Emu);
  EXPECT_TRUE(emu->banner.empty()) << "the emulator was asked for: nothing to point out";
  if (query_gpus()) GTEST_SKIP() << "this machine has a GPU";
  Result<BackendChoice> gpu = choose_backend(BackendRequest::Gpu);
  EXPECT_FALSE(gpu) << "a GPU asked for and none here is an error, not a stand-in";
  Result<BackendChoice> automatic = choose_backend(BackendRequest::Auto);
  ASSERT_TRUE(automatic) << automatic.message();
  EXPECT_EQ(automatic->exec->backend(), Backend::Emu);
  EXPECT_NE(automatic->banner.find("CPU emulator"), std::string::npos) << automatic->banner;
}

}  // namespace
}  // namespace coop::app
