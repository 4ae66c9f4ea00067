# embed_bin.cmake - a binary file as a C array with its size:
#   cmake -DIN=file -DOUT=file.c -DNAME=sym -P embed_bin.cmake
# writes `const unsigned char sym[]` and `const unsigned long sym_size`.
# A missing IN gives an empty array (size 0).
if(EXISTS ${IN})
  file(READ ${IN} hex HEX)
else()
  set(hex "")
endif()
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* generated from ${IN}; do not edit */\n"
  "const unsigned char ${NAME}[] = {\n${bytes} 0x00};\n"
  "const unsigned long ${NAME}_size = ${size};\n")
