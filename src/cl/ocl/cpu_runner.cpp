// The OpenCL CPU runner (see cpu_runner.hpp): pocl through the ICD loader, the
// OpenCL 1.2 host API, every object released on every path.
#include "cl/ocl/cpu_runner.hpp"

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue: pocl and the ICD loader have it
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

namespace visakit::cl {

static_assert(sizeof(size_t) == 8, "global sizes and offsets are 64-bit (LaunchShape)");

std::string clErrorName(int code) {
  switch (code) {
#define VISAKIT_CL_ERROR(name) \
  case name: return #name;
    VISAKIT_CL_ERROR(CL_SUCCESS)
    VISAKIT_CL_ERROR(CL_DEVICE_NOT_FOUND)
    VISAKIT_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    VISAKIT_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    VISAKIT_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    VISAKIT_CL_ERROR(CL_OUT_OF_RESOURCES)
    VISAKIT_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    VISAKIT_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    VISAKIT_CL_ERROR(CL_MEM_COPY_OVERLAP)
    VISAKIT_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    VISAKIT_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    VISAKIT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    VISAKIT_CL_ERROR(CL_MAP_FAILURE)
    VISAKIT_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    VISAKIT_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    VISAKIT_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    VISAKIT_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    VISAKIT_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    VISAKIT_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    VISAKIT_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    VISAKIT_CL_ERROR(CL_INVALID_VALUE)
    VISAKIT_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    VISAKIT_CL_ERROR(CL_INVALID_PLATFORM)
    VISAKIT_CL_ERROR(CL_INVALID_DEVICE)
    VISAKIT_CL_ERROR(CL_INVALID_CONTEXT)
    VISAKIT_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    VISAKIT_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    VISAKIT_CL_ERROR(CL_INVALID_HOST_PTR)
    VISAKIT_CL_ERROR(CL_INVALID_MEM_OBJECT)
    VISAKIT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    VISAKIT_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_SAMPLER)
    VISAKIT_CL_ERROR(CL_INVALID_BINARY)
    VISAKIT_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    VISAKIT_CL_ERROR(CL_INVALID_PROGRAM)
    VISAKIT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    VISAKIT_CL_ERROR(CL_INVALID_KERNEL_NAME)
    VISAKIT_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    VISAKIT_CL_ERROR(CL_INVALID_KERNEL)
    VISAKIT_CL_ERROR(CL_INVALID_ARG_INDEX)
    VISAKIT_CL_ERROR(CL_INVALID_ARG_VALUE)
    VISAKIT_CL_ERROR(CL_INVALID_ARG_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    VISAKIT_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    VISAKIT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    VISAKIT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    VISAKIT_CL_ERROR(CL_INVALID_EVENT)
    VISAKIT_CL_ERROR(CL_INVALID_OPERATION)
    VISAKIT_CL_ERROR(CL_INVALID_GL_OBJECT)
    VISAKIT_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_MIP_LEVEL)
    VISAKIT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_PROPERTY)
    VISAKIT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    VISAKIT_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    VISAKIT_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    VISAKIT_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
    VISAKIT_CL_ERROR(CL_INVALID_PIPE_SIZE)
    VISAKIT_CL_ERROR(CL_INVALID_DEVICE_QUEUE)
    VISAKIT_CL_ERROR(CL_INVALID_SPEC_ID)
    VISAKIT_CL_ERROR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
    VISAKIT_CL_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
#undef VISAKIT_CL_ERROR
  }
  return fmt::format("OpenCL error {}", code);
}

bool cpuRunnerAvailable() { return true; }

namespace {

// How a build failure's error begins (its build log follows; runIsolated adds no messages to it).
constexpr std::string_view kCouldNotBuild = "the OpenCL CPU device could not build the program";

// RAII for the OpenCL objects: released when the holder goes, on every path.
template <class H, cl_int (*Release)(H)>
struct Releaser {
  void operator()(H h) const { Release(h); }
};
template <class H, cl_int (*Release)(H)>
using Owned = std::unique_ptr<std::remove_pointer_t<H>, Releaser<H, Release>>;
using ContextPtr = Owned<cl_context, clReleaseContext>;
using QueuePtr = Owned<cl_command_queue, clReleaseCommandQueue>;
using ProgramPtr = Owned<cl_program, clReleaseProgram>;
using KernelPtr = Owned<cl_kernel, clReleaseKernel>;
using MemPtr = Owned<cl_mem, clReleaseMemObject>;
using EventPtr = Owned<cl_event, clReleaseEvent>;

// A failed step: its message becomes CpuRunResult::error.
struct Failure {
  std::string message;
};

void check(cl_int e, std::string_view what) {
  if (e != CL_SUCCESS) throw Failure{fmt::format("OpenCL CPU device: {} failed: {}", what, clErrorName(e))};
}

std::string platformString(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(std::strlen(s.c_str()));
  return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(std::strlen(s.c_str()));
  return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info what, std::string_view name) {
  T v{};
  check(clGetDeviceInfo(d, what, sizeof v, &v, nullptr), fmt::format("clGetDeviceInfo({})", name));
  return v;
}

template <class T>
T kernelWorkGroupValue(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, std::string_view name) {
  T v{};
  check(clGetKernelWorkGroupInfo(k, d, what, sizeof v, &v, nullptr), fmt::format("clGetKernelWorkGroupInfo({})", name));
  return v;
}

std::string programBuildLog(cl_program p, cl_device_id d) {
  size_t n = 0;
  if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(std::strlen(s.c_str()));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string programKernelNames(cl_program p) {
  size_t n = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(std::strlen(s.c_str()));
  std::string out;
  for (char c : s) out += c == ';' ? std::string(", ") : std::string(1, c);
  return out;
}

// The kernel's parameters from clGetKernelArgInfo; nullopt when the device gives none.
std::optional<std::vector<KernelParam>> kernelParams(cl_kernel k, cl_uint count) {
  std::vector<KernelParam> params(count);
  for (cl_uint i = 0; i < count; ++i) {
    cl_kernel_arg_address_qualifier aq = 0;
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, nullptr) != CL_SUCCESS)
      return std::nullopt;
    switch (aq) {
      case CL_KERNEL_ARG_ADDRESS_GLOBAL: params[i].address = AddressQualifier::Global; break;
      case CL_KERNEL_ARG_ADDRESS_LOCAL: params[i].address = AddressQualifier::Local; break;
      case CL_KERNEL_ARG_ADDRESS_CONSTANT: params[i].address = AddressQualifier::Constant; break;
      default: params[i].address = AddressQualifier::Private; break;
    }
    for (auto [what, out] : {std::pair{CL_KERNEL_ARG_TYPE_NAME, &params[i].typeName}, std::pair{CL_KERNEL_ARG_NAME, &params[i].name}}) {
      size_t n = 0;
      if (clGetKernelArgInfo(k, i, what, 0, nullptr, &n) != CL_SUCCESS) return std::nullopt;
      std::string s(n, '\0');
      if (n && clGetKernelArgInfo(k, i, what, n, s.data(), nullptr) != CL_SUCCESS) return std::nullopt;
      s.resize(std::strlen(s.c_str()));
      *out = std::move(s);
    }
  }
  return params;
}

std::string joinLines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += (s.empty() ? "" : "\n") + l;
  return s;
}

CpuRunResult runHere(const CpuRunRequest& q) {
  CpuRunResult r;
  try {
    // The platform and its CPU device.
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, nullptr, &np);
    if (e != CL_SUCCESS && e != CL_PLATFORM_NOT_FOUND_KHR) check(e, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(np);
    if (np) check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
    cl_platform_id platform = nullptr;
    std::vector<std::string> names;
    for (cl_platform_id p : platforms) {
      std::string name = platformString(p, CL_PLATFORM_NAME);
      names.push_back("'" + name + "'");
      if (!platform && name.find(q.platform) != std::string::npos) {
        platform = p;
        r.platform = name;
      }
    }
    if (!platform)
      throw Failure{fmt::format("no OpenCL platform named '{}'{}; the ICD loader found {}", q.platform,
                                q.platform == kCpuPlatformName ? " (pocl; install pocl-opencl-icd, as scripts/setup.sh does)" : "",
                                names.empty() ? std::string("none") : joinLines(names))};
    cl_device_id device = nullptr;
    e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr);
    if (e == CL_DEVICE_NOT_FOUND) throw Failure{fmt::format("the OpenCL platform '{}' has no CPU device", r.platform)};
    check(e, "clGetDeviceIDs");
    r.device = deviceString(device, CL_DEVICE_NAME);

    ContextPtr context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e));
    check(e, "clCreateContext");
    QueuePtr queue(clCreateCommandQueue(context.get(), device, 0, &e));
    check(e, "clCreateCommandQueue");

    // The program, its kernel and the kernel's parameters.
    const char* src = q.source.c_str();
    const size_t srcLen = q.source.size();
    ProgramPtr program(clCreateProgramWithSource(context.get(), 1, &src, &srcLen, &e));
    check(e, "clCreateProgramWithSource");
    std::string options = q.buildOptions.empty() ? "-cl-kernel-arg-info" : q.buildOptions + " -cl-kernel-arg-info";
    e = clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr);
    if (e == CL_BUILD_PROGRAM_FAILURE || e == CL_INVALID_BUILD_OPTIONS || e == CL_COMPILER_NOT_AVAILABLE) {
      std::string log = programBuildLog(program.get(), device);
      throw Failure{fmt::format("{} ({}){}", kCouldNotBuild, clErrorName(e),
                                log.empty() ? std::string() : ":\n" + log)};
    }
    check(e, "clBuildProgram");
    KernelPtr kernel(clCreateKernel(program.get(), q.kernel.c_str(), &e));
    if (e == CL_INVALID_KERNEL_NAME) {
      std::string kernels = programKernelNames(program.get());
      // (Oclgrind answers so for a kernel it lists but cannot create, e.g. one calling a built-in it lacks)
      std::string listed = ", " + kernels + ", ";
      if (listed.find(", " + q.kernel + ", ") != std::string::npos)
        throw Failure{fmt::format("the OpenCL device could not create kernel '{}', though the program lists it "
                                  "(CL_INVALID_KERNEL_NAME)",
                                  q.kernel)};
      throw Failure{fmt::format("the program has no kernel named '{}' (kernels: {})", q.kernel,
                                kernels.empty() ? std::string("none") : kernels)};
    }
    check(e, "clCreateKernel");
    cl_uint nargs = 0;
    check(clGetKernelInfo(kernel.get(), CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr), "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
    if (auto params = kernelParams(kernel.get(), nargs)) r.params = std::move(*params);
    if (!r.params.empty()) {
      auto problems = checkKernelArgs(r.params, q.args);
      if (!problems.empty()) throw Failure{joinLines(problems)};
    }
    if (q.args.size() != nargs)
      throw Failure{fmt::format("kernel '{}' has {} argument{}; {} {} given", q.kernel, nargs, nargs == 1 ? "" : "s",
                                q.args.size(), q.args.size() == 1 ? "is" : "are")};

    // The launch against the device's and the kernel's limits.
    const LaunchShape& L = q.launch;
    if (L.dims < 1 || L.dims > 3) throw Failure{fmt::format("the launch has {} dimensions (1 to 3)", L.dims)};
    const auto maxDims = deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS");
    if (L.dims > maxDims) throw Failure{fmt::format("the OpenCL CPU device takes at most {} dimensions", maxDims)};
    if (L.local) {
      std::vector<size_t> maxSizes(maxDims);
      check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(size_t) * maxDims, maxSizes.data(), nullptr),
            "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)");
      uint64_t groupItems = 1;
      for (unsigned i = 0; i < L.dims; ++i) {
        if ((*L.local)[i] > maxSizes[i])
          throw Failure{fmt::format("--local: {} work-items in dimension {}, over the OpenCL CPU device's limit of {}",
                                    (*L.local)[i], i, maxSizes[i])};
        groupItems *= (*L.local)[i];
      }
      const auto kernelMax = kernelWorkGroupValue<size_t>(kernel.get(), device, CL_KERNEL_WORK_GROUP_SIZE, "CL_KERNEL_WORK_GROUP_SIZE");
      if (groupItems > kernelMax)
        throw Failure{fmt::format("--local: {} work-items in a work-group, over the limit of {} for kernel '{}' on the "
                                  "OpenCL CPU device",
                                  groupItems, kernelMax, q.kernel)};
    }
    const auto maxAlloc = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    const auto localMem = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
    uint64_t localBytes = kernelWorkGroupValue<cl_ulong>(kernel.get(), device, CL_KERNEL_LOCAL_MEM_SIZE, "CL_KERNEL_LOCAL_MEM_SIZE");
    for (size_t i = 0; i < q.args.size(); ++i) {
      if (const auto* b = std::get_if<BufferArg>(&q.args[i]); b && b->bytes.size() > maxAlloc)
        throw Failure{fmt::format("argument {}: {} bytes, over the OpenCL CPU device's largest buffer of {} bytes", i,
                                  b->bytes.size(), maxAlloc)};
      if (const auto* l = std::get_if<LocalArg>(&q.args[i])) {
        if (l->bytes > localMem || localBytes > localMem - l->bytes)
          throw Failure{fmt::format("argument {}: local:{} makes the kernel's __local memory more than the OpenCL CPU "
                                    "device's {} bytes",
                                    i, l->bytes, localMem)};
        localBytes += l->bytes;
      }
    }

    // Buffers and arguments.
    std::vector<MemPtr> mems(q.args.size());
    for (size_t i = 0; i < q.args.size(); ++i) {
      const std::string what = fmt::format("clSetKernelArg (argument {}, {})", i, argSpecText(q.args[i]));
      // (a by-value parameter given as @FILE takes the file's bytes: spec-decisions CL10)
      const bool byValue = i < r.params.size() && r.params[i].address == AddressQualifier::Private;
      if (const auto* b = std::get_if<BufferArg>(&q.args[i]); b && byValue && b->file) {
        check(clSetKernelArg(kernel.get(), static_cast<cl_uint>(i), b->bytes.size(), b->bytes.data()), what);
      } else if (const auto* b = std::get_if<BufferArg>(&q.args[i])) {
        // COPY_HOST_PTR only reads the bytes; the cast is the C API's.
        mems[i].reset(clCreateBuffer(context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b->bytes.size(),
                                     const_cast<uint8_t*>(b->bytes.data()), &e));
        check(e, fmt::format("clCreateBuffer (argument {}, {} bytes)", i, b->bytes.size()));
        cl_mem m = mems[i].get();
        check(clSetKernelArg(kernel.get(), static_cast<cl_uint>(i), sizeof m, &m), what);
      } else if (const auto* l = std::get_if<LocalArg>(&q.args[i])) {
        check(clSetKernelArg(kernel.get(), static_cast<cl_uint>(i), l->bytes, nullptr), what);
      } else {
        std::vector<uint8_t> bytes = scalarBytes(std::get<ScalarArg>(q.args[i]));
        check(clSetKernelArg(kernel.get(), static_cast<cl_uint>(i), bytes.size(), bytes.data()), what);
      }
    }

    // The launch.
    std::array<size_t, 3> global{}, local{}, offset{};
    for (unsigned i = 0; i < L.dims; ++i) {
      global[i] = L.global[i];
      offset[i] = L.offset[i];
      if (L.local) local[i] = (*L.local)[i];
    }
    // One launch, to completion: its wall time.
    auto launch = [&] {
      cl_event ev = nullptr;
      const auto t0 = std::chrono::steady_clock::now();
      check(clEnqueueNDRangeKernel(queue.get(), kernel.get(), L.dims, offset.data(), global.data(),
                                   L.local ? local.data() : nullptr, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel");
      EventPtr event(ev);
      cl_int waited = clWaitForEvents(1, &ev);
      r.launchSeconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      cl_int status = CL_COMPLETE;
      check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
            "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
      if (status < 0) throw Failure{fmt::format("OpenCL CPU device: kernel '{}' failed: {}", q.kernel, clErrorName(status))};
      check(waited, "clWaitForEvents");
    };
    launch();
    // Every buffer back.
    r.buffers.resize(q.args.size());
    for (size_t i = 0; i < q.args.size(); ++i) {
      if (!mems[i]) continue;
      std::vector<uint8_t> out(std::get<BufferArg>(q.args[i]).bytes.size());
      check(clEnqueueReadBuffer(queue.get(), mems[i].get(), CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr),
            fmt::format("clEnqueueReadBuffer (argument {})", i));
      r.buffers[i] = std::move(out);
    }
    // The timed launches, each on the initial bytes again.
    for (unsigned n = 0; n < q.timedLaunches; ++n) {
      for (size_t i = 0; i < q.args.size(); ++i)
        if (mems[i]) {
          const auto& b = std::get<BufferArg>(q.args[i]).bytes;
          check(clEnqueueWriteBuffer(queue.get(), mems[i].get(), CL_TRUE, 0, b.size(), b.data(), 0, nullptr, nullptr),
                fmt::format("clEnqueueWriteBuffer (argument {})", i));
        }
      launch();
    }
    r.ok = true;
  } catch (const Failure& f) {
    r.ok = false;
    r.error = f.message;
    r.buffers.clear();
  } catch (const std::bad_alloc&) {
    r.ok = false;
    r.error = "out of memory";
    r.buffers.clear();
  }
  return r;
}

// The child's report to the parent: a small framed encoding of CpuRunResult.
constexpr uint32_t kMagic = 0x4c434b56;  // "VKCL"

void putU64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s += static_cast<char>(v >> (8 * i));
}
void putStr(std::string& s, std::string_view v) {
  putU64(s, v.size());
  s += v;
}

bool writeAll(int fd, const void* data, size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

struct Reader {
  std::string_view s;
  bool ok = true;
  uint64_t u64() {
    if (s.size() < 8) return ok = false, 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<uint8_t>(s[i])} << (8 * i);
    s.remove_prefix(8);
    return v;
  }
  std::string_view bytes(uint64_t n) {
    if (s.size() < n) return ok = false, std::string_view();
    std::string_view v = s.substr(0, n);
    s.remove_prefix(n);
    return v;
  }
  std::string str() { return std::string(bytes(u64())); }
};

[[noreturn]] void childMain(const CpuRunRequest& q, int fd) {
  // The parent may be interrupted or killed: this process goes with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The default actions: a kernel that crashes ends this process by its signal,
  // whatever handlers the caller (or a sanitizer runtime) installed.
  for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGSEGV, SIGBUS, SIGILL, SIGFPE}) std::signal(sig, SIG_DFL);
  // Read by pocl's CPU device when it starts, in this process only.
  if (q.jobs) ::setenv("POCL_MAX_PTHREAD_COUNT", std::to_string(q.jobs).c_str(), 1);
  // Read by the ICD loader at its first call, in this process only.
  if (!q.icdVendors.empty()) ::setenv("OCL_ICD_VENDORS", q.icdVendors.c_str(), 1);
  int rc = 0;
  try {
    CpuRunResult r = runHere(q);
    std::string head;
    putU64(head, kMagic);
    putU64(head, r.ok ? 1 : 0);
    putStr(head, r.error);
    putStr(head, r.platform);
    putStr(head, r.device);
    putU64(head, r.launchSeconds.size());
    for (double sec : r.launchSeconds) putU64(head, std::bit_cast<uint64_t>(sec));
    putU64(head, r.params.size());
    for (const auto& p : r.params) {
      putU64(head, static_cast<uint64_t>(p.address));
      putStr(head, p.typeName);
      putStr(head, p.name);
    }
    putU64(head, r.buffers.size());
    bool ok = writeAll(fd, head.data(), head.size());
    for (const auto& b : r.buffers) {
      if (!ok) break;
      std::string len;
      putU64(len, b ? 1 : 0);
      putU64(len, b ? b->size() : 0);
      ok = writeAll(fd, len.data(), len.size()) && (!b || writeAll(fd, b->data(), b->size()));
    }
    rc = ok ? 0 : 2;
  } catch (...) {
    rc = 3;
  }
  // No atexit handlers, static destructors or stdio flushes of the parent's state.
  ::_exit(rc);
}

// Reads what the child wrote to its stdout and stderr (the pipe's end fd) into messages, of which at
// most kMaxMessages bytes are kept; false at the pipe's end (or an error).
constexpr size_t kMaxMessages = 8192;
bool readMessages(int fd, std::string& messages) {
  char buf[4096];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0) return errno == EINTR;
  if (n == 0) return false;
  if (messages.size() < kMaxMessages) messages.append(buf, std::min(static_cast<size_t>(n), kMaxMessages - messages.size()));
  return true;
}

CpuRunResult runIsolated(const CpuRunRequest& q) {
  CpuRunResult r;
  int fds[2], errFds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.error = fmt::format("cannot start the OpenCL CPU run: pipe: {}", std::strerror(errno));
    return r;
  }
  if (::pipe2(errFds, O_CLOEXEC) != 0) {
    r.error = fmt::format("cannot start the OpenCL CPU run: pipe: {}", std::strerror(errno));
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    r.error = fmt::format("cannot start the OpenCL CPU run: fork: {}", std::strerror(errno));
    for (int fd : {fds[0], fds[1], errFds[0], errFds[1]}) ::close(fd);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::close(errFds[0]);
    // (the device's messages, a compiler's summary line or an assertion, go into an error, not
    // before visakit's own output; the kernel's printf output is visakit's to print, K12)
    ::dup2(errFds[1], STDOUT_FILENO);
    ::dup2(errFds[1], STDERR_FILENO);
    childMain(q, fds[1]);
  }
  ::close(fds[1]);
  ::close(errFds[1]);
  std::string messages;

  // Read the report, within the time limit.
  std::string data;
  bool timedOut = false, readFailed = false;
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(q.timeoutSeconds);
  std::vector<char> buf(1 << 16);
  while (true) {
    int waitMs = -1;
    if (q.timeoutSeconds) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      waitMs = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd pfd[2] = {{fds[0], POLLIN, 0}, {errFds[0], POLLIN, 0}};
    int pr = ::poll(pfd, 2, waitMs);
    if (pr < 0 && errno == EINTR) continue;
    if (pr < 0) {
      readFailed = true;
      break;
    }
    if (pr == 0) continue;  // the deadline is checked above
    if (pfd[1].revents && errFds[0] >= 0 && !readMessages(errFds[0], messages)) {
      ::close(errFds[0]);
      errFds[0] = -1;  // (poll skips it)
    }
    if (!pfd[0].revents) continue;
    ssize_t n = ::read(fds[0], buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      readFailed = true;
      break;
    }
    if (n == 0) break;
    try {
      data.append(buf.data(), static_cast<size_t>(n));
    } catch (const std::bad_alloc&) {
      readFailed = true;
      break;
    }
  }
  ::close(fds[0]);
  if (timedOut || readFailed) ::kill(pid, SIGKILL);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (errFds[0] >= 0) {
    // (what the child wrote before it ended; not waiting for a process it may have left holding the pipe)
    ::fcntl(errFds[0], F_SETFL, O_NONBLOCK);
    while (readMessages(errFds[0], messages)) {
    }
    ::close(errFds[0]);
  }
  while (!messages.empty() && std::isspace(static_cast<unsigned char>(messages.back()))) messages.pop_back();
  auto withMessages = [&](std::string error) {
    return messages.empty() ? error : error + "\nthe OpenCL CPU device printed:\n" + messages;
  };
  if (timedOut) {
    r.timedOut = true;
    r.error = fmt::format("kernel '{}' did not finish within {} s on the OpenCL CPU device; it was stopped", q.kernel,
                          q.timeoutSeconds);
    return r;
  }
  if (readFailed) {
    r.error = "cannot read the OpenCL CPU run's results";
    return r;
  }
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    r.crashed = true;
    r.error = withMessages(fmt::format(
        "the OpenCL CPU run of kernel '{}' ended by signal {} ({}); the kernel may do what OpenCL leaves undefined (an "
        "access out of bounds, a barrier that not every work-item reaches)",
        q.kernel, sig, ::strsignal(sig)));
    return r;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    r.error = withMessages(fmt::format("the OpenCL CPU run of kernel '{}' ended with exit status {}", q.kernel,
                                       WIFEXITED(st) ? WEXITSTATUS(st) : -1));
    return r;
  }

  Reader rd{data};
  bool good = rd.u64() == kMagic;
  r.ok = rd.u64() == 1;
  r.error = rd.str();
  r.platform = rd.str();
  r.device = rd.str();
  uint64_t nl = rd.u64();
  for (uint64_t i = 0; good && rd.ok && i < nl; ++i) r.launchSeconds.push_back(std::bit_cast<double>(rd.u64()));
  uint64_t np = rd.u64();
  for (uint64_t i = 0; good && rd.ok && i < np; ++i) {
    KernelParam p;
    uint64_t a = rd.u64();
    p.address = a <= 3 ? static_cast<AddressQualifier>(a) : AddressQualifier::Private;
    p.typeName = rd.str();
    p.name = rd.str();
    r.params.push_back(std::move(p));
  }
  uint64_t nb = rd.u64();
  for (uint64_t i = 0; good && rd.ok && i < nb; ++i) {
    bool present = rd.u64() == 1;
    std::string_view b = rd.bytes(rd.u64());
    if (present && rd.ok) r.buffers.emplace_back(std::vector<uint8_t>(b.begin(), b.end()));
    else r.buffers.emplace_back(std::nullopt);
  }
  if (!good || !rd.ok || !rd.s.empty()) {
    CpuRunResult bad;
    bad.error = "the OpenCL CPU run's report is malformed";
    return bad;
  }
  // (a build failure's log is in its error already)
  if (!r.ok && !r.error.starts_with(kCouldNotBuild)) r.error = withMessages(r.error);
  return r;
}

}  // namespace

CpuRunResult runOnCpu(const CpuRunRequest& request) { return request.isolate ? runIsolated(request) : runHere(request); }

}  // namespace visakit::cl
