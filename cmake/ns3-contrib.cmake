# SPDX-License-Identifier: GPL-2.0-only
# dlsim as an ns-3 contrib module (contrib/dlsim of an ns-3 3.37 source tree), built by ns-3's
# own macros: `./ns3 configure --enable-examples --enable-tests --enable-modules=dlsim`,
# `./ns3 build`, `./ns3 run dlsim-dpsgd-example`, `./test.py -s dlsim`. The module is the learning
# core and the ns-3 layer (what an ns-3 program uses); the scenario runner, its figures and the
# GoogleTest suites are the standalone build's. CMakeLists.txt sets DLSIM_NS3_LIBRARIES first.
# ns-3 links its test runner and examples in other directories than this one: the imported
# targets of torch and the others must be seen there too.
if(CMAKE_VERSION VERSION_LESS 3.24)
  message(FATAL_ERROR "dlsim in an ns-3 tree needs CMake 3.24 or later (global imported targets)")
endif()
set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)
find_package(Torch REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(ZLIB REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/dlsim-sources.cmake)

# The examples (examples/CMakeLists.txt, added by build_lib when examples are enabled).
function(dlsim_example name)
  build_lib_example(
    NAME ${name}
    SOURCE_FILES ${DLSIM_SOURCE_DIR}/examples/${name}.cc
    LIBRARIES_TO_LINK ${libdlsim} ${libcsma}
    IGNORE_PCH
  )
endfunction()

# ns-3's precompiled header is made with ns-3's flags, not torch's: dlsim does without it.
build_lib(
  LIBNAME dlsim
  IGNORE_PCH
  SOURCE_FILES ${DLSIM_CORE_SOURCES} ${DLSIM_NS3_LAYER_SOURCES}
  HEADER_FILES ${DLSIM_MODULE_HEADERS}
  LIBRARIES_TO_LINK ${DLSIM_NS3_LIBRARIES} Eigen3::Eigen ZLIB::ZLIB
  TEST_SOURCES ${DLSIM_SOURCE_DIR}/test/ns3/dlsim-test-suite.cc
)

# dlsim's sources include each other by name, as in the standalone build; torch's and Eigen's
# headers and definitions come with their targets.
set(DLSIM_INCLUDE_DIRS $<BUILD_INTERFACE:${DLSIM_SOURCE_DIR}/model/core>
  $<BUILD_INTERFACE:${DLSIM_SOURCE_DIR}/model> $<BUILD_INTERFACE:${DLSIM_SOURCE_DIR}/helper>)
target_include_directories(${libdlsim-obj} PUBLIC ${DLSIM_INCLUDE_DIRS})
target_link_libraries(${libdlsim-obj} PUBLIC Eigen3::Eigen ZLIB::ZLIB PRIVATE torch)
target_include_directories(${libdlsim} PUBLIC ${DLSIM_INCLUDE_DIRS})
# torch stays private, as in the standalone build (only the learner and the models include it):
# its definitions would otherwise reach every program of the tree, whose precompiled header
# was made without them.
target_link_libraries(${libdlsim} PUBLIC Eigen3::Eigen PRIVATE torch)
