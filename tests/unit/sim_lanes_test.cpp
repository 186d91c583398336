// The model of divergent control flow both tiers share (src/sim/lanes.hpp; chapter 3 "Branch
// Instructions", GOTO page): parked lanes rejoin at their PC, the smallest PC runs first, the
// thread ends when no lane is left. Expected states worked out by hand from the model.
#include <gtest/gtest.h>

#include "sim/lanes.hpp"

namespace {

using visakit::sim::advance;
using visakit::sim::clearParked;
using visakit::sim::kNoPc;
using visakit::sim::park;
using visakit::sim::ParkedGroups;
using visakit::sim::pickNext;

struct State {
  uint32_t pc = 0, em = 0, waiting = 0, waitMin = kNoPc;
  ParkedGroups parked;
  bool done = false;
};

TEST(SimLanes, TheSmallestPcRunsFirstWithAllItsLanes) {
  State t;
  park(t, 0x0000000fu, 40);
  park(t, 0x000000f0u, 10);
  park(t, 0x00000f00u, 25);
  park(t, 0xf0000000u, 10);  // joins the lanes at 10
  EXPECT_EQ(t.waiting, 0xf0000fffu);
  EXPECT_EQ(t.waitMin, 10u);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 10u);
  EXPECT_EQ(t.em, 0xf00000f0u);
  EXPECT_EQ(t.waiting, 0x00000f0fu);
  EXPECT_EQ(t.waitMin, 25u);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 25u);
  EXPECT_EQ(t.em, 0x00000f00u);
  EXPECT_EQ(t.waitMin, 40u);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 40u);
  EXPECT_EQ(t.em, 0x0000000fu);
  EXPECT_EQ(t.waiting, 0u);
  EXPECT_EQ(t.waitMin, kNoPc);
  EXPECT_FALSE(t.done);
  pickNext(t, 100);
  EXPECT_TRUE(t.done);
  EXPECT_EQ(t.em, 0u);
}

TEST(SimLanes, LanesParkedAtTheEndFinish) {
  State t;
  park(t, 0x3u, 100);  // the end of a 100-instruction kernel
  park(t, 0xcu, 7);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 7u);
  EXPECT_EQ(t.em, 0xcu);
  pickNext(t, 100);
  EXPECT_TRUE(t.done);
  EXPECT_EQ(t.waiting, 0u);
}

TEST(SimLanes, RunningLanesRejoinTheLanesWaitingAtTheirPc) {
  State t;
  t.em = 0x00ffu;
  park(t, 0xff00u, 12);
  advance(t, 11, 50);  // not there yet
  EXPECT_EQ(t.pc, 11u);
  EXPECT_EQ(t.em, 0x00ffu);
  advance(t, 12, 50);  // there: all sixteen run on
  EXPECT_EQ(t.pc, 12u);
  EXPECT_EQ(t.em, 0xffffu);
  EXPECT_EQ(t.waiting, 0u);
  // A jump past waiting lanes parks the running ones and runs the waiting ones first.
  park(t, 0x000fu, 20);
  t.em = 0xfff0u;
  advance(t, 30, 50);
  EXPECT_EQ(t.pc, 20u);
  EXPECT_EQ(t.em, 0x000fu);
  EXPECT_EQ(t.waiting, 0xfff0u);
  EXPECT_EQ(t.waitMin, 30u);
}

TEST(SimLanes, ALaneParkedAgainMovesToItsNewPc) {
  State t;
  park(t, 0x7u, 30);
  park(t, 0x18u, 20);
  park(t, 0x5u, 10);  // lanes 0 and 2 leave 30 for 10
  EXPECT_EQ(t.waiting, 0x1fu);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 10u);
  EXPECT_EQ(t.em, 0x5u);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 20u);
  EXPECT_EQ(t.em, 0x18u);
  pickNext(t, 100);
  EXPECT_EQ(t.pc, 30u);
  EXPECT_EQ(t.em, 0x2u);
  pickNext(t, 100);
  EXPECT_TRUE(t.done);
  // Every lane in a group of its own, then cleared.
  State u;
  for (uint32_t l = 0; l < 32; ++l) park(u, 1u << l, 1000 - 3 * l);
  EXPECT_EQ(u.waiting, 0xffffffffu);
  EXPECT_EQ(u.waitMin, 1000u - 93u);
  pickNext(u, 2000);
  EXPECT_EQ(u.em, 0x80000000u);
  clearParked(u);
  pickNext(u, 2000);
  EXPECT_TRUE(u.done);
}

}  // namespace
