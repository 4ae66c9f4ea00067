#!/bin/sh
# chips_cli.sh FELTWATCH DIR - `feltwatch sim --chips` renders a table of
# chips and stacks with its truth, and `feltwatch chips` reads it back:
# every single chip, stacks with a count range, narrower with --focal;
# bad options are refused with a message.
fw=$1
dir=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$dir" || exit 1

truth=$("$fw" sim --chips 12 --stacks 4 --focal 900 --seed 7 --table wood \
    "$dir/table.png") || { echo "FAIL: sim: $truth"; exit 1; }
echo "truth: $truth"
case "$truth" in
'{"felt":"wood","width":1280,"height":720,"focal_px":900.0,"chips":[{'*) ;;
*) fail "sim truth: $truth" ;;
esac
nt=$(printf '%s' "$truth" | grep -o '"base"' | wc -l)
[ "$nt" -eq 4 ] || fail "sim placed $nt stacks, not 4"

told=$("$fw" chips "$dir/table.png" --focal 900) || fail "chips --focal"
blind=$("$fw" chips "$dir/table.png") || fail "chips"
echo "told: $told"
echo "blind: $blind"
# 12 single chips, each found once (stacks are listed apart)
chips_part=${told%%\"stacks\"*}
nc=$(printf '%s' "$chips_part" | grep -o '"center"' | wc -l)
[ "$nc" -eq 12 ] || fail "found $nc single chips, not 12"
ns=$(printf '%s' "$told" | grep -o '"side_px"' | wc -l)
[ "$ns" -ge 2 ] || fail "only $ns stacks seen from above"
# a range for every stack, low confidence
printf '%s' "$told" | grep -q '"count":\[[0-9]*,[0-9]*\],"side_px":[0-9.]*,"confidence":0\.[0-4]' ||
    fail "a stack without a count range and a low confidence"
# the focal length narrows the ranges: sum of widths told < blind
width() {
    printf '%s' "$1" | grep -o '"count":\[[0-9]*,[0-9]*\]' |
        sed 's/.*\[\([0-9]*\),\([0-9]*\)\]/\2 \1/' |
        awk '{s += $1 - $2} END {print s + 0}'
}
wt=$(width "$told")
wb=$(width "$blind")
[ "$wt" -lt "$wb" ] || fail "ranges told ($wt) not narrower than blind ($wb)"

# the side camera: stacks rendered side on, counted from their edges
side=$("$fw" sim --side --stacks 3 --seed 5 --table wood "$dir/side.png") ||
    fail "sim --side: $side"
echo "side truth: $side"
counted=$("$fw" chips --side "$dir/side.png") || fail "chips --side"
echo "side read: $counted"
want=$(printf '%s' "$side" | grep -o '"count":[0-9]*' | cut -d: -f2)
ranges=$(printf '%s' "$counted" | grep -o '"count_range":\[[0-9]*,[0-9]*\]' |
    sed 's/.*\[\([0-9]*\),\([0-9]*\)\]/\1 \2/')
[ "$(printf '%s\n' "$want" | wc -l)" -eq 3 ] || fail "sim --side drew not 3"
[ "$(printf '%s\n' "$ranges" | grep -c .)" -eq 3 ] ||
    fail "chips --side found not 3 stacks"
for c in $want; do
    printf '%s\n' "$ranges" | awk -v c="$c" '$1 <= c && c <= $2 {f = 1}
        END {exit !f}' || fail "no stack's range holds the count $c"
done

# bad options: usage or a message, exit 2
for bad in "--focal 0" "--focal abc" "--focal" "--frob"; do
    # shellcheck disable=SC2086
    err=$("$fw" chips "$dir/table.png" $bad 2>&1)
    rc=$?
    [ $rc -eq 2 ] || fail "chips $bad: exit $rc ($err)"
done
for bad in "--chips -1" "--chips 401" "--stacks x" "--focal -5" \
    "--chips 3 --table grey" "--chips 3 --deck standard" "--side" \
    "--side --stacks 17" "--side --stacks 2 --chips 3"; do
    # shellcheck disable=SC2086
    err=$("$fw" sim $bad "$dir/x.png" 2>&1)
    rc=$?
    [ $rc -eq 2 ] || fail "sim $bad: exit $rc ($err)"
done

[ $fails -eq 0 ] && echo "ok" || exit 1
