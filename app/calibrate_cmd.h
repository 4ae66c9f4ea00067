/*
 * calibrate_cmd.h - private to app/: `feltwatch calibrate`.
 */
#ifndef FW_CALIBRATE_CMD_H
#define FW_CALIBRATE_CMD_H

#include <stdio.h>

/**
 * `feltwatch calibrate --check FILE` validates a calibration file and
 * describes it; `feltwatch calibrate --default` prints the simulated table's
 * calibration (a starting point for a real table). argv[0] is "calibrate".
 * \returns the process exit status (0 valid, 1 invalid, 2 usage).
 */
int fw_calibrate_main(int argc, char **argv, FILE *out, FILE *err);

#endif
