# Helpers shared by every module and test folder.

# Kernel files carry their instruction set in their name; only they are compiled for it, and the
# engine picks one at run time (the build never assumes the CPU it runs on).
function(ditmk_isa_flags)
  foreach(src ${ARGN})
    if(src MATCHES "_amx\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS
        "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-mavx512bf16;-mfma;-mf16c;-mamx-tile;-mamx-bf16")
    elseif(src MATCHES "_avx512vnni\\.cpp$")
      # no BF16: Cascade Lake and Ice Lake have AVX512-VNNI without it
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS
        "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-mavx512vnni;-mfma;-mf16c")
    elseif(src MATCHES "_avx512f\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-mfma;-mf16c")
    elseif(src MATCHES "_avx512\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS
        "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-mavx512bf16;-mfma;-mf16c")
    elseif(src MATCHES "_avxvnni\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-mf16c;-mavxvnni")
    elseif(src MATCHES "_avx2\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-mf16c")
    endif()
  endforeach()
endfunction()

# ditmk_module(NAME DEPS ...): the .cpp files of the calling folder (not its subfolders) become the
# static library ditmk_NAME.
function(ditmk_module name)
  cmake_parse_arguments(M "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(NOT srcs)
    return()  # a module folder being created has no sources yet
  endif()
  add_library(ditmk_${name} STATIC ${srcs})
  target_include_directories(ditmk_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(ditmk_${name} PUBLIC ${M_DEPS})
  ditmk_isa_flags(${srcs})
endfunction()

# ditmk_test(NAME DEPS ... [UNSANITIZED file ...]): the .cpp files of the calling folder become the
# GoogleTest binary test_NAME, registered with ctest. UNSANITIZED files hold only tests that repeat
# a release build's numeric comparison at full size (docs/testing.md): a sanitized build leaves them
# out rather than compile them to run nothing.
function(ditmk_test name)
  cmake_parse_arguments(T "" "" "DEPS;UNSANITIZED" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(DITMK_SANITIZE)
    foreach(file ${T_UNSANITIZED})
      list(REMOVE_ITEM srcs ${CMAKE_CURRENT_SOURCE_DIR}/${file})
    endforeach()
  endif()
  if(NOT srcs)
    return()
  endif()
  add_executable(test_${name} ${srcs})
  target_link_libraries(test_${name} PRIVATE ${T_DEPS} GTest::gtest_main Threads::Threads)
  # The tests find the sources and the build folder through ditmk/core/build_paths.hpp.
  ditmk_isa_flags(${srcs})
  # Heads the tests open keep their packed weights under the build folder, not the user's cache.
  gtest_discover_tests(test_${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${name}
    ENVIRONMENT "DITMK_WEIGHT_CACHE=${PROJECT_BINARY_DIR}/test-weight-cache")
endfunction()
