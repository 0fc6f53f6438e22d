# Installs bondcheck-serve.service (run by `cmake --install` and CPack, from
# the install(CODE) block of the top CMakeLists.txt, which sets BC_UNIT_IN,
# BC_UNIT_OUT, BC_SBINDIR, BC_DOCDIR and BC_SYSTEMD_UNITDIR).
#
# Everything here is decided at install time, because the prefix is:
# `cmake --install --prefix P` and cpack (CPACK_PACKAGING_INSTALL_PREFIX
# /usr) both replace the configured CMAKE_INSTALL_PREFIX.
#
# Unit directory: BC_SYSTEMD_UNITDIR if set (absolute, or relative to the
# prefix); else /lib/systemd/system for the prefix /usr, which is where
# Debian 12's systemd.pc (systemdsystemunitdir) and dh_installsystemd put
# units (dpkg does not know that /lib and /usr/lib are one folder after the
# /usr merge, so a Debian 12 package ships units in /lib); else
# PREFIX/lib/systemd/system, so that a test or a /usr/local install stays
# under its prefix.  GNUInstallDirs has no variable for it, and the
# absolute path from pkg-config would ignore the prefix.
if(BC_SYSTEMD_UNITDIR)
  set(unitdir "${BC_SYSTEMD_UNITDIR}")
  if(NOT IS_ABSOLUTE "${unitdir}")
    set(unitdir "${CMAKE_INSTALL_PREFIX}/${unitdir}")
  endif()
elseif(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(unitdir "/lib/systemd/system")
else()
  set(unitdir "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
foreach(v BC_SBINDIR BC_DOCDIR)
  if(NOT IS_ABSOLUTE "${${v}}")
    set(${v} "${CMAKE_INSTALL_PREFIX}/${${v}}")
  endif()
endforeach()
set(BC_EXAMPLESDIR "${BC_DOCDIR}/examples")
configure_file("${BC_UNIT_IN}" "${BC_UNIT_OUT}" @ONLY)
# file(INSTALL) adds $DESTDIR and records the file in install_manifest.txt
file(INSTALL DESTINATION "${unitdir}" TYPE FILE PERMISSIONS OWNER_READ OWNER_WRITE
  GROUP_READ WORLD_READ FILES "${BC_UNIT_OUT}")
