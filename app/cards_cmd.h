/*
 * cards_cmd.h - `feltwatch cards IMAGE`: the cards found in one image as
 * JSON on `out`, errors on `err`.
 */
#ifndef FW_CARDS_CMD_H
#define FW_CARDS_CMD_H

#include <stdio.h>

/**
 * Run `cards` with argv[0] = "cards", argv[1] = the image path. Prints
 * {"cards":[{"card":"Ah"|null,"face":"up"|"down","corners":[[x,y]x4],
 * "confidence":c}]}.
 * \returns the process exit status: 0, 1 on a bad or unreadable image,
 *          2 on usage errors
 */
int fw_cards_main(int argc, char **argv, FILE *out, FILE *err);

#endif
