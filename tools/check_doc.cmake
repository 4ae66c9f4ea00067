# Run as: cmake -DDOC_EXE=... -DDOC=... -DOUT=... -P check_doc.cmake
# Fails unless DOC is byte for byte what DOC_EXE prints; the output is left
# in OUT to diff against.
execute_process(COMMAND ${DOC_EXE}
  OUTPUT_VARIABLE generated
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DOC_EXE} failed: ${rc}")
endif()
file(WRITE ${OUT} "${generated}")
if(NOT EXISTS ${DOC})
  message(FATAL_ERROR "${DOC} is missing. Generate it:\n"
    "  build/tools/profile_doc > docs/rulebooks.md")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "docs/rulebooks.md does not match the profile data "
    "in rules/profile.c (this build's output: ${OUT}). Regenerate it:\n"
    "  build/tools/profile_doc > docs/rulebooks.md")
endif()
