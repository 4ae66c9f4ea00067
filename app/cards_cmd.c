/*
 * cards_cmd.c - `feltwatch cards IMAGE` over the detector of vision.h.
 */
#include "cards_cmd.h"

#include "vision.h"

#include <jansson.h>

#define FW_CARDS_MAX 64

/* Build the result document; NULL when out of memory. */
static json_t *cards_json(const fw_card_obs *obs, int n)
{
    json_t *arr = json_array();
    if (!arr)
        return NULL;
    for (int i = 0; i < n; i++) {
        char name[3];
        json_t *card = json_null();
        if (obs[i].card != FW_CARD_NONE) {
            fw_card_str(obs[i].card, name);
            card = json_string(name);
        }
        json_t *c = json_pack(
            "{s:o, s:s, s:[[f,f],[f,f],[f,f],[f,f]], s:f, s:[[f,f],[f,f]], "
            "s:i}",
            "card", card, "face", obs[i].face_up ? "up" : "down", "corners",
            (double)obs[i].corners[0][0], (double)obs[i].corners[0][1],
            (double)obs[i].corners[1][0], (double)obs[i].corners[1][1],
            (double)obs[i].corners[2][0], (double)obs[i].corners[2][1],
            (double)obs[i].corners[3][0], (double)obs[i].corners[3][1],
            "confidence", (double)obs[i].confidence, "shows",
            (double)obs[i].shows[0], (double)obs[i].shows[1],
            (double)obs[i].shows[2], (double)obs[i].shows[3], "cards_over",
            obs[i].cards_over);
        if (!c || json_array_append_new(arr, c) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return json_pack("{s:o}", "cards", arr);
}

int fw_cards_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc != 2) {
        fprintf(err, "usage: feltwatch cards IMAGE\n");
        return 2;
    }
    const char *path = argv[1];
    fw_image img = {0};
    int rc = fw_vision_load_image(path, &img);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch cards: %s\n", fw_last_error());
        return 1;
    }
    fw_vision *v = NULL;
    rc = fw_vision_new(&v);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch cards: %s\n", fw_last_error());
        fw_vision_image_free(&img);
        return 1;
    }
    fw_card_obs obs[FW_CARDS_MAX];
    int n = 0;
    rc = fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                                obs, FW_CARDS_MAX, &n);
    fw_vision_free(v);
    fw_vision_image_free(&img);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch cards: %s: %s\n", path, fw_last_error());
        return 1;
    }
    json_t *doc = cards_json(obs, n);
    if (!doc) {
        fprintf(err, "feltwatch cards: out of memory\n");
        return 1;
    }
    int wr = json_dumpf(doc, out, JSON_COMPACT | JSON_REAL_PRECISION(5));
    json_decref(doc);
    if (wr != 0 || fputc('\n', out) == EOF) {
        fprintf(err, "feltwatch cards: cannot write the result\n");
        return 1;
    }
    return 0;
}
