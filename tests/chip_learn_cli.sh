#!/bin/sh
# chip_learn_cli.sh FELTWATCH CHIP_PHOTO DIR - `feltwatch calibrate --chip`
# end to end: photos of two chips, learned into a calibration that
# `calibrate --check` accepts and lists; a truncated photo and two chips
# that look alike are refused with a message naming the files.
fw=$1
photo=$2
dir=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$dir" || exit 1
rm -f "$dir"/*.png "$dir"/*.json
"$photo" "$dir/a.png" white || exit 1
"$photo" "$dir/b.png" red yellow 6 || exit 1
"$photo" "$dir/c.png" red white 8 || exit 1

out=$("$fw" calibrate --chip 25="$dir/a.png" --chip 100:redyellow="$dir/b.png" \
    --chip 500="$dir/c.png" -o "$dir/out.json" 2>&1)
[ $? -eq 0 ] || fail "learning: $out"
echo "$out"
check=$("$fw" calibrate --check "$dir/out.json" 2>&1)
[ $? -eq 0 ] || fail "check: $check"
echo "$check"
case "$check" in *"3 chips"*) ;; *) fail "check does not count 3 chips" ;; esac
case "$check" in
*"chip 25: white"*"edge 8 spots"*) ;;
*) fail "check does not list the white chip with 8 spots" ;;
esac
case "$check" in
*"chip 100: redyellow"*"edge 6 spots"*) ;;
*) fail "check does not list the named chip with 6 spots" ;;
esac
case "$check" in *"chip 500: red,"*"edge 8 spots"*) ;;
*) fail "check does not list the red chip with 8 spots" ;;
esac

# a truncated photo: exit 1, the message names it
head -c 300 "$dir/a.png" > "$dir/cut.png"
err=$("$fw" calibrate --chip 25="$dir/cut.png" -o "$dir/x.json" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "truncated photo: exit $rc"
case "$err" in *cut.png*) ;; *) fail "truncated photo: $err" ;; esac

# the same chip twice: alike, both files named
"$photo" "$dir/a2.png" white || exit 1
err=$("$fw" calibrate --chip 25="$dir/a.png" --chip 50="$dir/a2.png" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "alike chips: exit $rc"
case "$err" in *a.png*a2.png*"look alike"*) ;; *) fail "alike: $err" ;; esac

if [ $fails -ne 0 ]; then echo "0 passed, $fails failed"; exit 1; fi
echo "1 passed, 0 failed"
