# cmake --install BUILD --prefix P: what LAMMPS' own rules install (lmp, liblammps, its
# headers, the LAMMPS CMake package, bench/, potentials/, the man page) and, beside it,
#   lib/libhgrid_core.a            the pure library liblammps links (in LAMMPS' CMake
#                                  package, LAMMPS::hgrid_core), headers in include/lammps/libhgrid
#   share/doc/hgrid/               README, doc/ (the LAMMPS doc pages of hgrid), the hgrid examples
# lmp and liblammps find their libraries relative to themselves ($ORIGIN/../lib), so a
# prefix can be moved or copied as a whole.
include(GNUInstallDirs)
if(BUILD_SHARED_LIBS)
  # LAMMPS exports liblammps (install(EXPORT LAMMPS_Targets)): the static library it links
  # publicly must be in the same export set
  install(TARGETS hgrid_core EXPORT LAMMPS_Targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/libhgrid/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lammps/libhgrid
          FILES_MATCHING PATTERN "*.h" PATTERN "methods" EXCLUDE)
  set_target_properties(lammps PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()
set_target_properties(lmp PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/doc/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/hgrid DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        PATTERN "log.*" EXCLUDE)

# LAMMPS' install rules read folders of the LAMMPS tree the build does not compile (the
# patched copy holds cmake/ src/ lib/ third_party/ only): copied once from the pristine
# tree where it has them
foreach(item python bench potentials doc/lammps.1 doc/msi2lmp.1)
  if(EXISTS "${HGRID_LAMMPS_PRISTINE}/${item}" AND NOT EXISTS "${HGRID_LAMMPS_DIR}/${item}")
    get_filename_component(_to "${HGRID_LAMMPS_DIR}/${item}" DIRECTORY)
    file(COPY "${HGRID_LAMMPS_PRISTINE}/${item}" DESTINATION "${_to}")
  endif()
endforeach()
