#!/usr/bin/env bash
set -u
nvidia-smi --query-gpu=name --format=csv,noheader
make build CUDA_ARCH=90 >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export LADDER_SCRATCH_W128=1
timeout 200 build/hgemm_gpu_test >/tmp/gpu_test.log 2>&1; echo "hgemm_gpu_test (w128) rc $?"; tail -1 /tmp/gpu_test.log
unset LADDER_SCRATCH_W128
mkdir -p /tmp/r
S=200x11008x4096,192x6144x4096,250x5000x3000,200x8192x8192,160x16384x4096,256x14336x4096
for r in 1 2; do for mode in base w128; do
  unset LADDER_SCRATCH_W128; [ $mode = w128 ] && export LADDER_SCRATCH_W128=1
  build/ladder run hgemm --variant swap_ab --size $S --no-energy --quiet --json /tmp/r/$mode-$r.json > /tmp/r/$mode-$r.txt 2>&1 || { echo "$mode rc $?"; tail -3 /tmp/r/$mode-$r.txt; }
done; done
python3 scratch/sum.py /tmp/r/*.json | sort -k3,3 -k1,1 | awk '{print $1,$3,$4,$6,$7}'
