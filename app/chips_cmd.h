/*
 * chips_cmd.h - `feltwatch chips IMAGE [--calib FILE]`: the chips and chip
 * stacks found in one overhead image as JSON on `out`, errors on `err`.
 */
#ifndef FW_CHIPS_CMD_H
#define FW_CHIPS_CMD_H

#include <stdio.h>

/**
 * Run `chips` with argv[0] = "chips", then the image path and optionally
 * `--calib FILE` (a table calibration whose chip set names the colours and
 * gives the values). Prints
 * {"chips":[{"center":[x,y],"radius":r,"color":"red","value":null|v,
 * "confidence":c}],"stacks":[{"center":[x,y],"radius":r,"color":"red",
 * "count":[lo,hi],"confidence":c}]}.
 * \returns the process exit status: 0, 1 on a bad or unreadable image or
 *          calibration file (the message names the path), 2 on usage errors
 */
int fw_chips_main(int argc, char **argv, FILE *out, FILE *err);

#endif
