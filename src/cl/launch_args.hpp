// visakit cl: the launch description of an OpenCL kernel, parsed and checked
// before anything runs (docs/spec-decisions.md, "visakit cl: arguments and
// comparison"). No OpenCL dependency: the simulator side and the OpenCL CPU
// runner (src/cl/ocl/cpu_runner.hpp) both take what is parsed here.
//
//   std::string err;
//   auto shape = parseLaunchShape("64,4", "16,4", std::nullopt, LaunchLimits{}, err);
//   auto args = parseKernelArgs({"0=@in.bin", "1=zero:1024", "2=u32:64"}, {"1=out.bin"}, LaunchLimits{}, err);
//   std::vector<std::string> problems = checkKernelArgs(params, *args);
//
// Every function that can fail returns nullopt (or a list of problems) and sets
// `err` to one message that names the option and the argument.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace visakit::cl {

// Limits of one launch. The defaults are ones no real launch meets; exceeding
// one is a clear error before anything is allocated. `visakit cl` names them
// --max-work-items, --max-buffer-size and --max-memory (cl::Request).
struct LaunchLimits {
  uint64_t maxWorkItems = uint64_t{1} << 32;    // work-items in the launch (product of --global)
  uint64_t maxWorkGroupSize = 1024;             // work-items in one work-group (product of --local)
  uint64_t maxBufferBytes = uint64_t{1} << 32;  // one @FILE, zero:N or local:N argument
  uint64_t maxTotalBytes = uint64_t{16} << 30;  // every @FILE and zero:N argument together
};

// The most argument indices: --arg I with I >= kMaxArgs is an error.
constexpr unsigned kMaxArgs = 1024;

// The NDRange. Only the first `dims` entries of each array are meaningful; the
// others are 1 (global, local) and 0 (offset).
struct LaunchShape {
  unsigned dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::optional<std::array<uint64_t, 3>> local;  // nullopt: the OpenCL implementation chooses
  std::array<uint64_t, 3> offset{0, 0, 0};
  uint64_t workItems = 1;  // product of global, checked to fit in 64 bits and the limit
};

// --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]]: sizes decimal or
// 0x hexadecimal, each >= 1 (offsets >= 0); --local and --offset must have as
// many dimensions as --global; each global size must be a multiple of the
// local size; the largest global id (offset + global - 1) must fit in 64 bits.
std::optional<LaunchShape> parseLaunchShape(std::string_view global, std::optional<std::string_view> local,
                                            std::optional<std::string_view> offset, const LaunchLimits& limits,
                                            std::string& err);

// The scalar types of `--arg I=TYPE:VALUE` (kF16 only describes half kernel
// parameters and buffers; it is not a SPEC type).
enum class ScalarType : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };
std::string_view scalarTypeName(ScalarType t);  // "i8" ... "f64" ("f16")
unsigned scalarTypeSize(ScalarType t);          // bytes
bool isFloat(ScalarType t);
bool isSigned(ScalarType t);  // signed integers

// A __global (or __constant) buffer: FILE's bytes (`@FILE`) or N zero bytes (`zero:N`).
struct BufferArg {
  std::vector<uint8_t> bytes;
  std::string spec;  // as written, for messages: "@in.bin", "zero:64"
  bool file = false;  // @FILE (a by-value parameter may take its bytes: takeByValueFiles)
};
// A __local buffer of N bytes (`local:N`).
struct LocalArg {
  uint64_t bytes = 0;
};
// A scalar (`TYPE:VALUE`): the value's bits in the type's width, in the low
// bytes of `bits` (stored little-endian on this host, as OpenCL devices take them).
struct ScalarArg {
  ScalarType type = ScalarType::U32;
  uint64_t bits = 0;
  std::string spec;           // as written: "u32:64"
  std::vector<uint8_t> raw{};  // a by-value parameter given as @FILE: its bytes (then type and bits are unused)
};
using KernelArgValue = std::variant<BufferArg, LocalArg, ScalarArg>;

// The argument's value as the bytes clSetKernelArg takes (scalars only; size = the type's
// size, or the file's for one given as @FILE).
std::vector<uint8_t> scalarBytes(const ScalarArg& a);
// "@in.bin", "zero:64", "local:256", "u32:64": how the argument was given.
std::string argSpecText(const KernelArgValue& v);

// One `--arg` value (the text after `I=`). `index` only names the argument in messages.
std::optional<KernelArgValue> parseArgValue(unsigned index, std::string_view spec, const LaunchLimits& limits,
                                            std::string& err);

struct KernelArgs {
  std::vector<std::optional<KernelArgValue>> values;  // by index; nullopt: no --arg for it
  std::vector<std::pair<unsigned, std::string>> outs;  // --out I=FILE, in the order given
};

// Every `--arg I=SPEC` and `--out I=FILE`: indices decimal, 0 .. kMaxArgs-1, each
// at most once; --out only for buffer arguments, no two outputs to one file;
// the buffers' sizes against the limits (files are sized before they are read).
std::optional<KernelArgs> parseKernelArgs(const std::vector<std::string>& args, const std::vector<std::string>& outs,
                                          const LaunchLimits& limits, std::string& err);

// A kernel parameter, as kernel argument info gives it: IGC's patch token
// (address qualifier "__global", type name "int*;8", where ";N" is the size of
// the argument itself) or OpenCL's clGetKernelArgInfo (type name "int*").
enum class AddressQualifier : uint8_t { Global, Local, Constant, Private };
std::optional<AddressQualifier> parseAddressQualifier(std::string_view s);  // "__global" or "global", ...
std::string_view addressQualifierName(AddressQualifier q);                  // "__global", ...

struct KernelParam {
  AddressQualifier address = AddressQualifier::Private;
  std::string typeName;  // "int*;8", "float4*", "uint;4", "struct S*;8"
  std::string name;      // may be empty
};

// What a type name says.
struct TypeInfo {
  std::string base;       // the type without '*' and ";N": "float4", "struct S", "myint"
  bool pointer = false;   // ends in '*'
  std::optional<uint64_t> argSize;  // ";N": the argument's own size in bytes, when given
  // The (pointee's) component type, when `base` is a built-in scalar or vector
  // type (char, uchar, ..., half, float, double, and their 2/3/4/8/16 vectors;
  // also "unsigned int" etc.). nullopt: anything else (struct, typedef name, void,
  // images, samplers, arrays), compared as bytes.
  std::optional<ScalarType> scalar;
  unsigned components = 1;  // vector width (1 for scalars)
  unsigned slots = 1;       // components in memory: a 3-component vector takes 4
  // The size of one value of `base` (the pointee for a pointer) when known:
  // built-in types, and a non-pointer with ";N".
  std::optional<uint64_t> valueSize() const;
};
TypeInfo parseTypeName(std::string_view typeName);

// Checks the arguments against the kernel's parameters: every parameter has
// an --arg and no --arg is beyond them; __global/__constant pointers take @FILE
// or zero:N, __local pointers local:N, the others a scalar whose size equals the
// parameter's (an integer parameter takes an integer type of its size, a float
// or double parameter f32/f64; vectors and structs by value take an integer of
// their size as raw bits); a buffer holds whole elements of the pointee type.
// Samplers and images are not supported. Returns one message per problem, in
// argument order; empty when the arguments fit.
std::vector<std::string> checkKernelArgs(const std::vector<KernelParam>& params, const KernelArgs& args);
// CL10: a by-value parameter given as @FILE (checked: exactly its size) takes the
// file's bytes as its value; after checkKernelArgs.
void takeByValueFiles(const std::vector<KernelParam>& params, KernelArgs& args);
// The same for a full list of values (one per argument, as the runner takes them).
std::vector<std::string> checkKernelArgs(const std::vector<KernelParam>& params, std::span<const KernelArgValue> args);

// --tolerance ulp:N | rel:X (floating-point outputs only; integers are exact).
struct Tolerance {
  enum class Kind : uint8_t { Exact, Ulp, Rel };
  Kind kind = Kind::Exact;
  uint64_t ulps = 0;  // Ulp: the most units in the last place two values may differ by
  double rel = 0;     // Rel: |a - b| <= rel * max(|a|, |b|)
};
std::optional<Tolerance> parseTolerance(std::string_view s, std::string& err);

}  // namespace visakit::cl
