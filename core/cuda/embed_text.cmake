# Concatenates the files IN ('|'-separated, in order) and writes OUT, a C
# file defining `const char NAME[]` with those bytes (NUL-terminated), and,
# when OUT_TEXT is given, the text itself. Run with cmake -P at build time,
# so edits to any part rebuild.
string(REPLACE "|" ";" parts "${IN}")
set(hex "")
foreach(part IN LISTS parts)
  file(READ "${part}" part_hex HEX)
  string(APPEND hex "${part_hex}")
endforeach()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* Generated from ${IN}; do not edit. */\nconst char ${NAME}[] = {\n${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
if(OUT_TEXT)
  file(WRITE "${OUT_TEXT}.tmp" "")
  foreach(part IN LISTS parts)
    file(READ "${part}" text)
    file(APPEND "${OUT_TEXT}.tmp" "${text}")
  endforeach()
  file(RENAME "${OUT_TEXT}.tmp" "${OUT_TEXT}")
endif()
