# SPDX-License-Identifier: GPL-2.0-only
# Writes OUT (a header with dlsim's version) when its contents change: `git describe` of the
# source tree when it is a git checkout, else the project version. Run at every build, so a
# new commit shows in the next run's provenance without reconfiguring.
execute_process(
  COMMAND git -C "${SRC}" describe --always --dirty --tags
  OUTPUT_VARIABLE describe
  RESULT_VARIABLE failed
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET)
if(failed OR describe STREQUAL "")
  set(describe "${PROJECT_VERSION}")
endif()
set(text "#define DLSIM_VERSION \"${describe}\"\n#define DLSIM_NS3_VERSION \"${NS3_VERSION}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
