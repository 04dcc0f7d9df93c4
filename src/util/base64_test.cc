#include "util/base64.h"

#include <gtest/gtest.h>

#include <random>

namespace griffin {
namespace {

TEST(Base64, Rfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Decode("Zm9vYmE="), "fooba");
  EXPECT_EQ(Base64Decode("Zg=="), "f");
}

TEST(Base64, RoundTripsEveryByte) {
  std::mt19937 rng(7);
  for (size_t size = 0; size < 70; ++size) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
    EXPECT_EQ(Base64Decode(Base64Encode(bytes)), bytes) << size;
  }
}

TEST(Base64, RefusesWhatIsNotBase64) {
  EXPECT_FALSE(Base64Decode("Zg="));      // not a multiple of 4
  EXPECT_FALSE(Base64Decode("Z!=="));     // outside the alphabet
  EXPECT_FALSE(Base64Decode("Zg=a"));     // padding in the middle
  EXPECT_FALSE(Base64Decode("Zg==Zm9v")); // padding before the end
}

}  // namespace
}  // namespace griffin
