#!/usr/bin/env bash
# Build and run every test.
#   scripts/test.sh              Release build in build/, all ctest cases
#                                (the window case again under xvfb-run)
#   scripts/test.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
#   scripts/test.sh --fuzz SECS  build the libFuzzer targets, run each SECS s
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
"$here/setup.sh" --deps
jobs=$(nproc)

case "${1:-}" in
--sanitize)
    cmake -S "$top" -B "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug \
        -DFW_SANITIZE=ON >/dev/null
    cmake --build "$top/build-asan" -j"$jobs"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
    cd "$top/build-asan" && ctest --output-on-failure -j"$jobs" \
        -E "${FW_ASAN_EXCLUDE:-^$}"
    ;;
--fuzz)
    secs=${2:-20}
    cmake -S "$top" -B "$top/build-fuzz" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DFW_FUZZ=ON >/dev/null
    targets=""
    for src in "$top"/fuzz/fuzz_*.c "$top"/fuzz/fuzz_*.cpp; do
        [ -f "$src" ] || continue
        name=$(basename "$src")
        targets="$targets ${name%%.*}"
    done
    # shellcheck disable=SC2086
    cmake --build "$top/build-fuzz" -j"$jobs" --target $targets
    for name in $targets; do
        f="$top/build-fuzz/fuzz/$name"
        corpus="$top/fuzz/corpus/${name#fuzz_}"
        work=$(mktemp -d)
        [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
        echo "fuzz: $name for ${secs}s"
        "$f" -max_total_time="$secs" -rss_limit_mb=4096 -print_final_stats=1 \
            "$work" 2>&1 | tail -n 3
        rm -rf "$work"
    done
    ;;
*)
    cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$top/build" -j"$jobs"
    cd "$top/build" && ctest --output-on-failure -j"$jobs"
    # the dealer screen in a real window needs a display: the X virtual
    # framebuffer (scripts/packages.txt) gives it one; without a display
    # the case skips in the run above
    if command -v xvfb-run >/dev/null; then
        xvfb-run -a -s "-screen 0 1280x800x24" \
            ctest --output-on-failure -R '^test_ui[.]window_screenshot$'
    fi
    ;;
esac
