#!/bin/sh
# expect_error.sh TEXT CMD ARGS... - passes when CMD exits non-zero (not by a
# signal: a crash fails) and its standard error contains TEXT.
text=$1
shift
err=$("$@" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 0 ]; then
    echo "expected a failure, got exit 0"; echo "0 passed, 1 failed"; exit 1
fi
if [ "$rc" -gt 128 ]; then
    echo "crashed (exit $rc): $err"; echo "0 passed, 1 failed"; exit 1
fi
case "$err" in
*"$text"*) echo "exit $rc: $err"; echo "1 passed, 0 failed"; exit 0 ;;
esac
echo "message lacks \"$text\": $err"; echo "0 passed, 1 failed"; exit 1
