/* kernel_times: a Kokkos Tools library that times every kernel of a CUDA run and
   counts its deep copies, to see where a GPU neighbor build spends its time.

   Each parallel_for/reduce/scan is bracketed by cudaDeviceSynchronize(), so its time is
   the kernel's own (and the run is slower than without the tool: use it for the
   breakdown, not for the totals). Deep copies are counted by direction (source space ->
   destination space) with their bytes; a Cuda -> Host copy is a host sync.

   build:  examples/benchmarks/gpu/build_kernel_times.sh libkernel_times.so
   use:    KOKKOS_TOOLS_LIBS=$PWD/libkernel_times.so KERNEL_TIMES_OUT=times.tsv lmp -k on g 1 ...
   output: one line per kernel name and per copy direction, tab-separated:
           kind  count  seconds  bytes  name                                             */

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <map>
#include <string>
#include <vector>

namespace {

struct Tally {
  long count = 0;
  double seconds = 0.0;
  unsigned long long bytes = 0;
};

struct SpaceHandle {    // Kokkos_Profiling_SpaceHandle
  char name[64];
};

std::map<std::string, Tally> kernels;           // by "kind\tname"
std::vector<std::string> open_kernels;          // by kernel ID
std::vector<double> open_starts;
std::map<std::string, Tally> copies;            // by "src->dst"
std::string open_copy;
double copy_start = 0.0;

double now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "LAMMPS_NS::NPairHGridKokkos<...>::search<0>(...)::{lambda(...)#1}" from a typeid name
std::string readable(const char *name)
{
  int status = 0;
  char *plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string text = (status == 0 && plain) ? plain : name;
  std::free(plain);
  return text.size() > 200 ? text.substr(0, 200) : text;
}

void begin(const char *kind, const char *name, uint64_t *id)
{
  cudaDeviceSynchronize();
  *id = open_kernels.size();
  open_kernels.push_back(std::string(kind) + "\t" + readable(name));
  open_starts.push_back(now());
}

void end(uint64_t id)
{
  cudaDeviceSynchronize();
  if (id >= open_kernels.size()) return;
  Tally &t = kernels[open_kernels[id]];
  t.count++;
  t.seconds += now() - open_starts[id];
  if (id + 1 == open_kernels.size()) {    // kernels do not nest: keep the arrays short
    open_kernels.pop_back();
    open_starts.pop_back();
  }
}

}    // namespace

extern "C" {

void kokkosp_init_library(int, uint64_t, uint32_t, void *) {}

void kokkosp_begin_parallel_for(const char *name, uint32_t, uint64_t *id)
{
  begin("for", name, id);
}
void kokkosp_end_parallel_for(uint64_t id) { end(id); }
void kokkosp_begin_parallel_reduce(const char *name, uint32_t, uint64_t *id)
{
  begin("reduce", name, id);
}
void kokkosp_end_parallel_reduce(uint64_t id) { end(id); }
void kokkosp_begin_parallel_scan(const char *name, uint32_t, uint64_t *id)
{
  begin("scan", name, id);
}
void kokkosp_end_parallel_scan(uint64_t id) { end(id); }

void kokkosp_begin_deep_copy(SpaceHandle dst, const char *, const void *, SpaceHandle src,
                             const char *, const void *, uint64_t size)
{
  open_copy = size ? std::string(src.name) + "->" + dst.name : std::string();
  copies[open_copy].bytes += size;
  copy_start = now();
}

void kokkosp_end_deep_copy()
{
  if (open_copy.empty()) return;
  Tally &t = copies[open_copy];
  t.count++;
  t.seconds += now() - copy_start;
}

void kokkosp_finalize_library()
{
  const char *path = std::getenv("KERNEL_TIMES_OUT");
  FILE *out = path ? std::fopen(path, "w") : stderr;
  if (!out) out = stderr;
  for (const auto &k : kernels) {
    const auto tab = k.first.find('\t');
    std::fprintf(out, "%s\t%ld\t%.6f\t0\t%s\n", k.first.substr(0, tab).c_str(), k.second.count,
                 k.second.seconds, k.first.substr(tab + 1).c_str());
  }
  for (const auto &c : copies)
    if (!c.first.empty())
      std::fprintf(out, "copy\t%ld\t%.6f\t%llu\t%s\n", c.second.count, c.second.seconds,
                   c.second.bytes, c.first.c_str());
  if (out != stderr) std::fclose(out);
}

}    // extern "C"
