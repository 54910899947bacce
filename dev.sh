#!/usr/bin/env bash
# dev.sh - set up, build and run ftc from a fresh clone.
#
#   bash dev.sh examples   install what is missing, build, run examples/
#   bash dev.sh test       install what is missing, build, run every test
#                          (a normal build, then again under ASan+UBSan)
#   bash dev.sh build      install what is missing and build only
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build, the tests and the examples need.
# python3-torch: PyTorch, the baseline of bench/run (the bench_quick test).
# clang, libclang-rt-14-dev: libFuzzer, for the harnesses of tests/fuzz.
PACKAGES="gcc libc6-dev pkg-config meson ninja-build re2c lemon libisl-dev check python3 python3-numpy libopenblas-dev python3-torch clang libclang-rt-14-dev"

# Install missing packages (as root with apt-get; otherwise say what to do).
install_missing() {
    local missing=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "dev.sh: missing packages:$missing; install them as root (apt-get install$missing)" >&2
        exit 1
    fi
    echo "dev.sh: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# Configure (once) and build one build folder: build_dir [meson options...]
build() {
    local dir=$1; shift
    [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
    ninja -C "$dir" >/dev/null
}

run_tests() {
    build build
    meson test -C build --print-errorlogs --num-processes 2
    # The same suites under AddressSanitizer + UndefinedBehaviorSanitizer (all but
    # the stdlib suite, whose ~110 compiles take too long under ASan for CI).
    build build-san -Db_sanitize=address,undefined -Db_lundef=false
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ASAN_OPTIONS=detect_leaks=1 CK_FORK=no \
        meson test -C build-san --print-errorlogs --num-processes 2 --suite unit --suite golden --suite numeric --suite robust --suite tune
    # The schedule fuzzer under the sanitizers with fewer sequences (~2 min).
    FTC_FUZZ_SEQS=228 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
        meson test -C build-san --print-errorlogs --suite schedule
    # The libFuzzer harnesses (tests/fuzz/README), built by clang under
    # ASan+UBSan: 60 s of each, then the replay of tests/fuzz/regress (~5 min).
    CC=clang build build-fuzz -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=true
    meson test -C build-fuzz --print-errorlogs --suite fuzz
}

install_missing
case "${1:-}" in
    examples) build build; FTC="$PWD/build/ftc" bash examples/run ;;
    test) run_tests ;;
    build) build build ;;
    *) echo "usage: bash dev.sh examples|test|build" >&2; exit 2 ;;
esac
