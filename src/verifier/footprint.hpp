// Bytes of a raw operand an instruction touches (the pages' operand texts).
#pragma once

#include "visakit/isa.hpp"
#include "visakit/kernel.hpp"

namespace visakit {
uint32_t rawFootprint(const InstrDesc& d, const Instruction& inst, Footprint fp, unsigned grfSize);
}
