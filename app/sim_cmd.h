/*
 * sim_cmd.h - `feltwatch sim`: render a table scene from Debian's card art
 * and print its ground truth.
 */
#ifndef FW_SIM_CMD_H
#define FW_SIM_CMD_H

#include <stdio.h>

/**
 * Run `sim` with argv[0] = "sim":
 *   feltwatch sim [--seed N] [--deck NAME] [--held-out] [--hard]
 *                 [--size WxH] [--cards N] [--table green|blue|red|wood|grey]
 *                 [--cache DIR] [--decks] OUT.png|OUT.jpg
 * writes the image and prints the ground truth as JSON on `out`:
 * {"deck":"ar-anglo","width":W,"height":H,"cards":[{"card":"Ah","face":
 * "up"|"down","corners":[[x,y]x4],"visible":v,"index_visible":true}]}.
 * --decks lists the decks instead (name, installed, held out).
 * \returns the process exit status: 0, 1 on failure, 2 on usage errors
 */
int fw_sim_main(int argc, char **argv, FILE *out, FILE *err);

#endif
