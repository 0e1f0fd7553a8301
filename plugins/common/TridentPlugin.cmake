# trident_add_plugin(<name> SOURCES ... LIBRARIES ...) for plugins built against an
# installed Trident (find_package(Trident) includes this file): a module
# libtrident-plugin-<name>.so exporting only trident_plugin_entry, the static libraries
# it links hidden inside it (-Wl,--exclude-libs,ALL), a GNU build id (part of the
# runtime's disk-cache keys), put in <build>/plugins and installed beside libtrident's
# other plugins. Load it from the build folder with TRIDENT_PLUGIN_PATH=<build>/plugins.
function(trident_add_plugin name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(trident_plugin_${name} MODULE ${P_SOURCES})
  target_link_libraries(trident_plugin_${name} PRIVATE Trident::plugin_abi ${P_LIBRARIES})
  target_compile_features(trident_plugin_${name} PRIVATE cxx_std_20)
  set_target_properties(trident_plugin_${name} PROPERTIES
    OUTPUT_NAME trident-plugin-${name}
    PREFIX lib
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/plugins
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(trident_plugin_${name} PRIVATE -Wl,--exclude-libs,ALL -Wl,-Bsymbolic -Wl,--build-id)
  install(TARGETS trident_plugin_${name} LIBRARY DESTINATION ${Trident_PLUGIN_DIR})
endfunction()
