# embed.cmake - turn a text file into a C function returning it as a
# NUL-terminated string:
#   cmake -DIN=file -DOUT=file.c [-DFUNC=name] -P embed.cmake
# FUNC defaults to fw_demo_script.
if(NOT FUNC)
  set(FUNC fw_demo_script)
endif()
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from ${IN}; do not edit */\n"
  "static const char data[] = {${bytes} 0x00};\n"
  "const char *${FUNC}(void) { return data; }\n")
