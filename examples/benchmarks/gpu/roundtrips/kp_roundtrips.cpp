/* -*- c++ -*- ----------------------------------------------------------
   kp_roundtrips: a small Kokkos Tools library that counts the host <-> device
   round trips of a run: kernel launches, fences and deep copies (plus DualView
   syncs and allocations), in total and by name.

   Build (no Kokkos headers needed: the few C structs of the tools interface
   are declared below, matching impl/Kokkos_Profiling_C_Interface.h, interface
   version 20240906 and older ones with the same layout):

     g++ -O2 -std=c++17 -shared -fPIC -o libkp_roundtrips.so kp_roundtrips.cpp

   Use (Kokkos built with Kokkos_ENABLE_LIBDL, the default):

     KOKKOS_TOOLS_LIBS=/path/libkp_roundtrips.so lmp -k on t 1 -sf kk ...

   Environment:
     KP_ROUNDTRIPS_OUT   file for the JSON summary written at finalize ("%p" in
                         the name is replaced by the process id, for several MPI
                         ranks); unset: the JSON goes to stderr
     KP_ROUNDTRIPS_TOP   how many names per category the short text summary on
                         stderr lists (default 10; 0: no text summary)

   The library works the same on every backend. On the OpenMP (or Serial)
   backend every memory space is HostSpace, so nothing crosses a bus, yet Kokkos
   issues the same fences as on a GPU, where each one blocks the host: the one
   difference, a copy between a view and its host mirror (the same memory on a
   host backend, so Kokkos skips the copy and its second fence), is counted
   apart as an "aliased" copy. Round trips on a GPU = fences + aliased copies.

   Counting, per category (the JSON keys):
     kernels      parallel_for / parallel_reduce / parallel_scan launches, by
                  kind and label (unlabelled functors carry their type name)
     fences       every fence; "global" (Kokkos::fence(), devID instance 0),
                  "deep_copy" (the deep-copy resource fence, instance 0xffffff)
                  or "instance" (an execution space instance's fence). The
                  origin is "unnamed" (Kokkos' default label of a fence called
                  without a name, i.e. a bare Kokkos::fence() or space.fence()
                  in the application), "kokkos" (a label Kokkos itself gives a
                  fence inside deep_copy, resize, parallel_reduce into a host
                  scalar, ...) or "app" (a label the application chose). The
                  site of a fence: "deep_copy: dst <- src" for a fence inside a
                  deep copy, "kernel: kind: label" for the fence that follows a
                  parallel_reduce or parallel_scan whose result is a host value
                  (the last kernel launched), else "fence: label"
     deep_copies  by direction (host->host, host->device, device->host,
                  device->device, from the SpaceHandle names), by label pair
                  "dst <- src" and by kind: "fill" (deep_copy(view, value):
                  Kokkos labels the source "Scalar" and fences globally before
                  and after the fill, or "(none)" in the overload with an
                  execution space, which fences nothing), "to_scalar" (deep_copy(value,
                  view) of a rank-0 view into a host variable, the destination
                  labelled "Scalar" or "(none)": on a GPU the archetypal
                  blocking round trip) and "view" (view to view); and the
                  "aliased" copies, whose source and destination are the same
                  memory: on a host backend a device view and its host mirror
                  (create_mirror_view returns the view itself), where Kokkos
                  skips the copy and its post-copy fence, while on a GPU the
                  same call copies across the bus and fences once more
     dualview     DualView syncs that moved data (the callback only fires when
                  the modify flags asked for a copy), by label and direction
     allocations  allocations by memory space and label (a device allocation
                  synchronises the device on CUDA)
------------------------------------------------------------------------- */

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

// ----------------------------------------------------------------------
// the C structs of the Kokkos Tools interface that the callbacks below take
// (same layout as impl/Kokkos_Profiling_C_Interface.h)
// ----------------------------------------------------------------------

extern "C" {
struct Kokkos_Profiling_KokkosPDeviceInfo {
  size_t deviceID;
};

struct Kokkos_Profiling_SpaceHandle {
  char name[64];
};

struct Kokkos_Tools_ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};
}

namespace {

// ----------------------------------------------------------------------
// counters
// ----------------------------------------------------------------------

struct Tally {
  uint64_t count = 0;
  uint64_t bytes = 0;
};

typedef std::map<std::string, Tally> TallyMap;

struct Counters {
  // kernels: by kind ("for", "reduce", "scan") and by "kind: label"
  TallyMap kernel_kind, kernel_name;
  // fences: by scope, by origin, by label (prefixed with scope), by call site
  TallyMap fence_scope, fence_origin, fence_name, fence_site;
  // deep copies: by direction, by kind, by "direction: dst <- src"
  TallyMap copy_dir, copy_kind, copy_name;
  // deep copies whose source and destination coincide, by "dst <- src"
  TallyMap copy_alias;
  // DualView syncs that copied: by direction and by "direction: label"
  TallyMap sync_dir, sync_name;
  // allocations: by space and by "space: label"
  TallyMap alloc_space, alloc_name;
  uint64_t kernels = 0, fences = 0, deep_copies = 0, syncs = 0, allocations = 0;
  uint64_t deep_copy_bytes = 0, aliased_copies = 0;
  uint32_t interface_version = 0;
  // the call-site context of a fence: the deep copy under way (empty if none)
  // and the last kernel launched
  std::string current_copy, last_kernel;
};

Counters *counters = nullptr;
std::mutex lock;    // callbacks may come from several host threads

void add(TallyMap &map, const std::string &key, uint64_t bytes = 0)
{
  Tally &t = map[key];
  t.count++;
  t.bytes += bytes;
}

/* host-accessible memory spaces by their SpaceHandle name: HostSpace ("Host"),
   the pinned host spaces of the GPU backends ("CudaHostPinned", "HIPHostPinned",
   "SYCLHostUSM") and HBWSpace; every other space (Cuda, CudaUVM, HIP,
   HIPManaged, SYCLDeviceUSM, SYCLSharedUSM, OpenMPTargetSpace, ...) counts as
   device memory */

bool is_host_space(const char *name)
{
  return !strcmp(name, "Host") || strstr(name, "HostPinned") || strstr(name, "HostUSM") ||
      strstr(name, "HBW");
}

/* a fence's scope from its device id: the top 8 bits are the device type, the
   next 7 the device and the last 17 the instance; Kokkos gives a global fence
   (Kokkos::fence(), ExecSpace::impl_static_fence) instance 0 and the deep-copy
   resource fence all 24 low bits set */

const char *fence_scope(uint32_t devid)
{
  const uint32_t low = devid & 0x00ffffffu;
  if (low == 0) return "global";
  if (low == 0x00ffffffu) return "deep_copy";
  return "instance";
}

/* who named a fence: Kokkos' default labels of unnamed fences contain
   "Unnamed"; other labels starting with "Kokkos::" come from Kokkos itself
   (deep_copy, resize, reductions to host, the tools); anything else is the
   application's own label */

const char *fence_origin(const std::string &name)
{
  if (name.find("Unnamed") != std::string::npos) return "unnamed";
  if (name.compare(0, 8, "Kokkos::") == 0) return "kokkos";
  return "app";
}

/* a deep copy's kind from the labels Kokkos gives the host value of a scalar
   fill, deep_copy(view, value), or read-back, deep_copy(value, view): "Scalar",
   or "(none)" in the overloads with an execution space */

const char *copy_kind(const char *dst_name, const char *src_name)
{
  auto host_value = [](const char *s) {
    return !strcmp(s, "Scalar") || !strcmp(s, "(none)");
  };
  if (host_value(src_name)) return "fill";
  if (host_value(dst_name)) return "to_scalar";
  return "view";
}

void begin_kernel(const char *kind, const char *name)
{
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  counters->kernels++;
  add(counters->kernel_kind, kind);
  counters->last_kernel = std::string(kind) + ": " + (name ? name : "(null)");
  add(counters->kernel_name, counters->last_kernel);
}

// ----------------------------------------------------------------------
// output: a JSON object, every map as {"key": [count, bytes], ...}
// ----------------------------------------------------------------------

std::string json_string(const std::string &s)
{
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += (char) c;
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else
      out += (char) c;
  }
  return out + "\"";
}

void write_map(FILE *fp, const char *key, const TallyMap &map, bool last = false)
{
  fprintf(fp, "  %s: {", json_string(key).c_str());
  const char *sep = "\n";
  for (const auto &kv : map) {
    fprintf(fp, "%s    %s: [%llu, %llu]", sep, json_string(kv.first).c_str(),
            (unsigned long long) kv.second.count, (unsigned long long) kv.second.bytes);
    sep = ",\n";
  }
  fprintf(fp, "%s}%s\n", map.empty() ? "" : "\n  ", last ? "" : ",");
}

void write_json(FILE *fp, const Counters &c)
{
  fprintf(fp, "{\n  \"tool\": \"kp_roundtrips\",\n  \"interface_version\": %u,\n",
          c.interface_version);
  fprintf(fp,
          "  \"totals\": {\"kernels\": %llu, \"fences\": %llu, \"deep_copies\": %llu, "
          "\"deep_copy_bytes\": %llu, \"aliased_copies\": %llu, \"dualview_syncs\": %llu, "
          "\"allocations\": %llu},\n",
          (unsigned long long) c.kernels, (unsigned long long) c.fences,
          (unsigned long long) c.deep_copies, (unsigned long long) c.deep_copy_bytes,
          (unsigned long long) c.aliased_copies, (unsigned long long) c.syncs,
          (unsigned long long) c.allocations);
  write_map(fp, "kernel_kind", c.kernel_kind);
  write_map(fp, "kernel_name", c.kernel_name);
  write_map(fp, "fence_scope", c.fence_scope);
  write_map(fp, "fence_origin", c.fence_origin);
  write_map(fp, "fence_name", c.fence_name);
  write_map(fp, "fence_site", c.fence_site);
  write_map(fp, "copy_dir", c.copy_dir);
  write_map(fp, "copy_kind", c.copy_kind);
  write_map(fp, "copy_name", c.copy_name);
  write_map(fp, "copy_alias", c.copy_alias);
  write_map(fp, "sync_dir", c.sync_dir);
  write_map(fp, "sync_name", c.sync_name);
  write_map(fp, "alloc_space", c.alloc_space);
  write_map(fp, "alloc_name", c.alloc_name, true);
  fprintf(fp, "}\n");
}

// the top n entries of a map by count, as text lines on stderr

void print_top(const char *title, const TallyMap &map, int n)
{
  std::vector<std::pair<uint64_t, std::string>> v;
  for (const auto &kv : map) v.emplace_back(kv.second.count, kv.first);
  std::sort(
      v.begin(), v.end(),
      [](const std::pair<uint64_t, std::string> &a, const std::pair<uint64_t, std::string> &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
  fprintf(stderr, "kp_roundtrips: top %s\n", title);
  for (int i = 0; i < n && i < (int) v.size(); i++)
    fprintf(stderr, "  %10llu  %s\n", (unsigned long long) v[i].first, v[i].second.c_str());
}

}    // namespace

// ----------------------------------------------------------------------
// the callbacks Kokkos looks up by name in the tool library
// ----------------------------------------------------------------------

extern "C" {

void kokkosp_init_library(const int /*loadseq*/, const uint64_t version,
                          const uint32_t /*ndevinfo*/, Kokkos_Profiling_KokkosPDeviceInfo *)
{
  std::lock_guard<std::mutex> guard(lock);
  delete counters;
  counters = new Counters;
  counters->interface_version = (uint32_t) version;
}

/* without this request Kokkos fences the device around every callback
   ("Kokkos Profile Tool Fence"), which would both distort the run and inflate
   the fence count: a counting tool needs no fences of its own */

void kokkosp_request_tool_settings(const uint32_t /*nsettings*/,
                                   Kokkos_Tools_ToolSettings *settings)
{
  settings->requires_global_fencing = false;
}

void kokkosp_finalize_library()
{
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  const char *path = getenv("KP_ROUNDTRIPS_OUT");
  FILE *fp = stderr;
  std::string name;
  if (path && *path) {
    name = path;
    const size_t at = name.find("%p");
    if (at != std::string::npos) name.replace(at, 2, std::to_string((long) getpid()));
    fp = fopen(name.c_str(), "w");
    if (!fp) {
      fprintf(stderr, "kp_roundtrips: cannot open %s, writing to stderr\n", name.c_str());
      fp = stderr;
    }
  }
  write_json(fp, *counters);
  if (fp != stderr) fclose(fp);

  const char *top = getenv("KP_ROUNDTRIPS_TOP");
  const int n = top ? atoi(top) : 10;
  if (n > 0) {
    fprintf(stderr,
            "kp_roundtrips: %llu kernels, %llu fences, %llu deep copies (%llu aliased), "
            "%llu DualView syncs, %llu allocations%s%s\n",
            (unsigned long long) counters->kernels, (unsigned long long) counters->fences,
            (unsigned long long) counters->deep_copies,
            (unsigned long long) counters->aliased_copies, (unsigned long long) counters->syncs,
            (unsigned long long) counters->allocations, fp != stderr ? "; JSON in " : "",
            fp != stderr ? name.c_str() : "");
    print_top("fences", counters->fence_name, n);
    print_top("fence sites", counters->fence_site, n);
    print_top("deep copies", counters->copy_name, n);
  }
  delete counters;
  counters = nullptr;
}

// kernels: the id returned through kid is not needed (nothing is timed)

void kokkosp_begin_parallel_for(const char *name, const uint32_t, uint64_t *kid)
{
  *kid = 0;
  begin_kernel("for", name);
}

void kokkosp_end_parallel_for(const uint64_t) {}

void kokkosp_begin_parallel_reduce(const char *name, const uint32_t, uint64_t *kid)
{
  *kid = 0;
  begin_kernel("reduce", name);
}

void kokkosp_end_parallel_reduce(const uint64_t) {}

void kokkosp_begin_parallel_scan(const char *name, const uint32_t, uint64_t *kid)
{
  *kid = 0;
  begin_kernel("scan", name);
}

void kokkosp_end_parallel_scan(const uint64_t) {}

// fences

void kokkosp_begin_fence(const char *name, const uint32_t devid, uint64_t *handle)
{
  *handle = 0;
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  const std::string label = name ? name : "(null)";
  const char *scope = fence_scope(devid);
  counters->fences++;
  add(counters->fence_scope, scope);
  add(counters->fence_origin, fence_origin(label));
  add(counters->fence_name, std::string(scope) + ": " + label);

  // the site: a fence of deep_copy's own, or one a reduction or scan into a host
  // value issues after its kernel, else the fence's label
  std::string site;
  if (!counters->current_copy.empty())
    site = "deep_copy: " + counters->current_copy;
  else if (label.compare(0, 24, "Kokkos::parallel_reduce:") == 0 ||
           label.compare(0, 22, "Kokkos::parallel_scan:") == 0)
    site = "kernel: " + counters->last_kernel;
  else
    site = "fence: " + label;
  add(counters->fence_site, site);
}

void kokkosp_end_fence(const uint64_t) {}

// deep copies: direction from the space names, label pair, kind, aliasing

void kokkosp_begin_deep_copy(Kokkos_Profiling_SpaceHandle dst_space, const char *dst_name,
                             const void *dst_ptr, Kokkos_Profiling_SpaceHandle src_space,
                             const char *src_name, const void *src_ptr, const uint64_t size)
{
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  dst_space.name[63] = src_space.name[63] = '\0';
  if (!dst_name || !*dst_name) dst_name = "(unlabelled)";
  if (!src_name || !*src_name) src_name = "(unlabelled)";
  const std::string dir = std::string(is_host_space(src_space.name) ? "host" : "device") + "->" +
      (is_host_space(dst_space.name) ? "host" : "device");
  counters->deep_copies++;
  counters->deep_copy_bytes += size;
  add(counters->copy_dir, dir, size);
  add(counters->copy_kind, copy_kind(dst_name, src_name), size);
  add(counters->copy_name, dir + ": " + dst_name + " <- " + src_name, size);
  counters->current_copy = std::string(dst_name) + " <- " + src_name;
  if (dst_ptr && dst_ptr == src_ptr) {
    counters->aliased_copies++;
    add(counters->copy_alias, std::string(dst_name) + " <- " + src_name, size);
  }
}

void kokkosp_end_deep_copy()
{
  std::lock_guard<std::mutex> guard(lock);
  if (counters) counters->current_copy.clear();
}

// DualView syncs (only reported when the sync copied) and modifies (ignored)

void kokkosp_dual_view_sync(const char *name, const void *const, bool to_device)
{
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  const char *dir = to_device ? "host->device" : "device->host";
  counters->syncs++;
  add(counters->sync_dir, dir);
  add(counters->sync_name, std::string(dir) + ": " + (name ? name : "(null)"));
}

void kokkosp_dual_view_modify(const char *, const void *const, bool) {}

// allocations

void kokkosp_allocate_data(const Kokkos_Profiling_SpaceHandle space, const char *name,
                           const void *const, const uint64_t size)
{
  std::lock_guard<std::mutex> guard(lock);
  if (!counters) return;
  std::string sname(space.name, strnlen(space.name, sizeof(space.name)));
  counters->allocations++;
  add(counters->alloc_space, sname, size);
  add(counters->alloc_name, sname + ": " + (name ? name : "(null)"), size);
}

void kokkosp_deallocate_data(const Kokkos_Profiling_SpaceHandle, const char *, const void *const,
                             const uint64_t)
{
}

}    // extern "C"
