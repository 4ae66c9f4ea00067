#!/bin/sh
# The banned list (CONVENTIONS.md, after curl): no sprintf, strcpy, strcat,
# gets, atoi, atof in the project's sources.
cd "$(dirname "$0")/.." || exit 1
hits=$(grep -nE '(^|[^a-z_])(sprintf|vsprintf|strcpy|strcat|gets|atoi|atol|atof)\(' \
    -r common rules app vision calibration bench fuzz tests tools \
    --include='*.c' --include='*.cpp' --include='*.h' 2>/dev/null)
if [ -n "$hits" ]; then
    echo "banned functions used:"; echo "$hits"; exit 1
fi
echo "banned functions: none"
