/* hgrid: function qualifiers for code shared by the serial, OpenMP and Kokkos
   builders.  With Kokkos (KOKKOS_INLINE_FUNCTION defined before this header is
   included) the small inline functions of LevelView and the pair-search kernel
   compile for the device as well; otherwise they are plain inline functions. */

#ifndef HGRID_PORTABILITY_H
#define HGRID_PORTABILITY_H

#if defined(KOKKOS_INLINE_FUNCTION)
#define HGRID_INLINE KOKKOS_INLINE_FUNCTION
#else
#define HGRID_INLINE inline
#endif

#endif
