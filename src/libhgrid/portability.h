/* hgrid: function qualifiers for code shared by the serial, OpenMP and Kokkos
   builders.  With Kokkos (KOKKOS_INLINE_FUNCTION defined before this header is
   included) the small inline functions of LevelView and the pair-search kernel
   compile for the device as well; otherwise they are plain inline functions.
   HGRID_FORCE_INLINE: the functions of the host pair search that receive its visitor
   (hgrid::PairSearch), inlined whatever the compiler's size limits.  A builder's
   visitor holds the row being written, its length n among them, by reference: one
   call left out of line (g++ kept test() and cells() out of line in the serial
   builder) and n lives in memory for the whole search, a store and reload per
   candidate on the loop's critical path (N = 1e5, omega 100, 3d: -11 to -13 % per
   build; omega 1: -18 %; 2d: -17 %).  Under Kokkos they stay KOKKOS_INLINE_FUNCTION
   (the Kokkos builders showed no change on the host); HGRID_HOST_FORCE_INLINE marks
   the host-only ones (the GATHER batch), plain inline under Kokkos as before. */

#ifndef HGRID_PORTABILITY_H
#define HGRID_PORTABILITY_H

#if defined(KOKKOS_INLINE_FUNCTION)
#define HGRID_INLINE KOKKOS_INLINE_FUNCTION
#define HGRID_FORCE_INLINE KOKKOS_INLINE_FUNCTION
#define HGRID_HOST_FORCE_INLINE inline
#else
#define HGRID_INLINE inline
#if defined(__GNUC__)
#define HGRID_FORCE_INLINE inline __attribute__((always_inline))
#else
#define HGRID_FORCE_INLINE inline
#endif
#define HGRID_HOST_FORCE_INLINE HGRID_FORCE_INLINE
#endif

// a hint to load the cache line at address (host builders)
#if defined(__GNUC__)
#define HGRID_PREFETCH(address) __builtin_prefetch(address)
#else
#define HGRID_PREFETCH(address) ((void) (address))
#endif

#endif
