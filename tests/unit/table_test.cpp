// The instruction table against the pages' Format tables.
#include <gtest/gtest.h>

#include "visakit/isa.hpp"

using namespace visakit;

TEST(Table, SeedOpcodesMatchPages) {
  // seeds/README.md: QW_SCATTER 0x87, SCATTER4_SCALED 0x75, GATHER_SCALED 0x78, SCATTER_SCALED 0x79, URB_WRITE 0x72.
  EXPECT_STREQ(lookup(uint8_t{0x87})->pageMnemonic, "QW_SCATTER");
  EXPECT_STREQ(lookup(uint8_t{0x75})->pageMnemonic, "SCATTER4_SCALED");
  EXPECT_STREQ(lookup(uint8_t{0x78})->pageMnemonic, "GATHER_SCALED");
  EXPECT_STREQ(lookup(uint8_t{0x79})->pageMnemonic, "SCATTER_SCALED");
  EXPECT_STREQ(lookup(uint8_t{0x72})->pageMnemonic, "URB_WRITE");
}

TEST(Table, FixedFieldWidthsGiveThePagesInstructionSizes) {
  // igc-dialect.md §2.5: QW_SCATTER 18 B, URB_WRITE 31 B, SCATTER4 20 B + vec, scaled 21 B + vec.
  auto fixedBytes = [](Opcode op) {
    unsigned n = 1;
    for (const auto& f : lookup(op)->fieldList()) n += f.width;
    return n;
  };
  EXPECT_EQ(fixedBytes(Opcode::QW_SCATTER), 18u);
  EXPECT_EQ(fixedBytes(Opcode::URB_WRITE), 31u);
  EXPECT_EQ(fixedBytes(Opcode::SCATTER4_SCALED), 20u);
  EXPECT_EQ(fixedBytes(Opcode::GATHER_SCALED), 21u);
  EXPECT_EQ(fixedBytes(Opcode::SCATTER_SCALED), 21u);
}

TEST(Table, MnemonicsBothSpellings) {
  EXPECT_EQ(lookupMnemonic("urb_write_3d"), lookupMnemonic("URB_WRITE"));
  EXPECT_EQ(lookupMnemonic("gather_scaled"), lookupMnemonic("GATHER_SCALED"));
  EXPECT_EQ(lookupMnemonic("Gather_Scaled"), nullptr);
}

TEST(Table, ChannelMaskText) {
  EXPECT_EQ(parseChannelMask("RGBA"), 15u);
  EXPECT_EQ(parseChannelMask("gba"), 14u);
  EXPECT_EQ(parseChannelMask("AR"), std::nullopt);  // must be in RGBA order
  EXPECT_EQ(parseChannelMask(""), std::nullopt);
  EXPECT_EQ(channelMaskText(5), "RB");
}
