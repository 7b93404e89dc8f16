#!/bin/sh
# deploy bench --from at up to 10,000 connections (not part of make
# check): the end-to-end test tests/deploy/bench_remote.sh with four
# clients (20, 80, 150 and 250 ms away through its delay relays), the
# ladder 10,100,1000,10000, 5 s a run, 2 rounds, old beside new; its
# table, JSON and HTML report are kept in tests/bench/results/remote/
# (or DIR).
#
#   sh tests/bench/remote.sh [DIR]
set -u
cd "$(dirname "$0")/../.." || exit 1
out=${1:-$(pwd)/tests/bench/results/remote}
BENCH_REMOTE_OUT=$out BENCH_REMOTE_CLIENTS=${BENCH_REMOTE_CLIENTS:-4} \
    BENCH_REMOTE_LADDER=${BENCH_REMOTE_LADDER:-10,100,1000,10000} \
    BENCH_REMOTE_DURATION=${BENCH_REMOTE_DURATION:-5} \
    BENCH_REMOTE_ROUNDS=${BENCH_REMOTE_ROUNDS:-2} \
    sh tests/deploy/bench_remote.sh bin/deploy
