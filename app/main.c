/*
 * main.c - the `feltwatch` program: command-line dispatch.
 */
#include "calibrate_cmd.h"
#include "cards_cmd.h"
#include "chips_cmd.h"
#include "sim_cmd.h"
#include "demo.h"
#include "export.h"
#include "kiosk.h"
#include "phh.h"
#include "replay.h"
#include "ui_demo.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: feltwatch COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  demo [--headless] [--out DIR] [--script-only]\n"
            "                      the demo session drawn by the simulated "
            "camera through the\n"
            "                      kiosk; DIR (./feltwatch-demo) gets "
            "feltwatch.db, events.jsonl,\n"
            "                      records.jsonl and, headless, screens/\n"
            "  run [--source URI] [--calib FILE] [--setup FILE.jsonl] "
            "[--headless] [--out DIR]\n"
            "      [--frames N] [--script FILE.jsonl] [--deck NAME]\n"
            "                      the kiosk: frames (sim:, file:, dir:, "
            "v4l2:, libcamera:) through\n"
            "                      card and chip vision and the trackers to "
            "the rules and the screen\n"
            "  replay FILE|- [--db FILE]\n"
            "                      rules engine over table events (JSON "
            "Lines, PROTOCOL.md);\n"
            "                      --db records every hand in SQLite\n"
            "  phh FILE|-          replay a PHH hand history, print "
            "finishing stacks\n"
            "  export --format phh|ohh|pokerstars --db FILE [--hand N] "
            "[--out FILE]\n"
            "                      recorded hands as hand histories\n"
            "  screen [--headless --out DIR] [--size WxH] [--delay MS] "
            "[--kiosk] FILE|-\n"
            "                      the dealer screen over recorded table "
            "events\n"
            "  calibrate --check FILE | --default\n"
            "                      validate a table calibration, or print "
            "the simulated table's\n"
            "  calibrate --markers IMAGE | --corners X1,Y1,...,X4,Y4 "
            "--image-size WxH\n"
            "      [--template FILE] [--felt WxH] [--camera FILE] "
            "[-o OUT.json]\n"
            "                      calibrate a real table from its four "
            "corner markers (ArUco\n"
            "                      0-3 clockwise from top left) or four "
            "measured points\n"
            "  calibrate --intrinsics --board 9x6 --square-mm 25 "
            "[-o OUT.json] IMG...\n"
            "                      camera matrix and lens distortion from "
            "checkerboard photos\n"
            "  cards IMAGE         the playing cards in a photo as JSON\n"
            "  chips IMAGE [--calib FILE]\n"
            "                      the chips and stacks in an overhead photo "
            "as JSON\n"
            "  sim [--seed N] [--hard] ... OUT.png\n"
            "                      render a table scene from the Debian card "
            "art, truth as JSON\n"
            "  help                this text\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "replay") == 0)
        return fw_replay_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "phh") == 0) {
        if (argc != 3) {
            fprintf(stderr, "usage: feltwatch phh FILE|-\n");
            return 2;
        }
        return fw_phh_main(argv[2], stdout, stderr);
    }
    if (strcmp(cmd, "export") == 0)
        return fw_export_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "calibrate") == 0)
        return fw_calibrate_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "screen") == 0)
        return fw_ui_demo_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "cards") == 0)
        return fw_cards_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "chips") == 0)
        return fw_chips_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "sim") == 0)
        return fw_sim_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "run") == 0)
        return fw_kiosk_run(argc - 1, argv + 1, fw_demo_script(), stdout,
                            stderr);
    if (strcmp(cmd, "demo") == 0)
        return fw_demo_main(argc - 1, argv + 1, stdout, stderr);
    fprintf(stderr, "feltwatch: unknown command \"%s\"\n", cmd);
    usage(stderr);
    return 2;
}
