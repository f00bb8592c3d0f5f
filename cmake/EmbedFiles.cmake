# Writes a C++ source that holds files as byte arrays, run as a script at build time:
#   cmake -DOUTPUT=out.cpp -DHEADER=report/report_assets.h -DNAMESPACE=asg::report
#         -DTYPE=ReportAsset -DFUNCTION=ReportAssets -DFILES="a.css|b.js" -P EmbedFiles.cmake
# The source defines `std::span<const TYPE> FUNCTION()` returning {file name, content} for each
# file, in the order given; TYPE is a struct of two std::string_views {name, text} that HEADER
# declares together with FUNCTION. The bytes are kept exactly (no text conversion).
string(REPLACE "|" ";" FILES "${FILES}")  # given as a|b|c
set(body "")
set(table "")
set(index 0)
foreach(path IN LISTS FILES)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # A line break every 16 bytes keeps the generated file readable by tools.
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
  string(APPEND body "constexpr char kFile${index}[] = {\n    ${bytes}};\n\n")
  string(APPEND table "    ${TYPE}{\"${name}\", std::string_view(kFile${index}, ${size})},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated at build time by cmake/EmbedFiles.cmake from: ${FILES}\n"
"// Do not edit; edit those files.\n"
"#include \"${HEADER}\"\n\n"
"#include <array>\n\n"
"namespace ${NAMESPACE} {\n\nnamespace {\n\n"
"${body}"
"constexpr std::array kEmbedded = {\n${table}};\n\n"
"}  // namespace\n\n"
"std::span<const ${TYPE}> ${FUNCTION}() { return kEmbedded; }\n\n"
"}  // namespace ${NAMESPACE}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
