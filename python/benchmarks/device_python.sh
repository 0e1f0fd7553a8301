#!/usr/bin/env bash
# One call of the device tool for the python package (docs/python.md): builds trident._C on
# the GPU machine for its python3 (3.12 there, 3.11 here) against a Release libtrident, runs
# the Python tests on cuda:0 and vulkan:0 and the launch benchmarks (Trident's and Triton's).
# It reads, from .pyd/ in the checkout the tool sends (ignored through .git/info/exclude):
#   rel.tar.xz   build-rel/lib/libtrident.so* and lib/trident/plugins/{host,cuda,vulkan}
#   deps.tar.xz  deps/: the libraries LLVM needs (scripts/device-bundle.sh makes this one)
#   src.tar      python/, runtime/include/, samples/*.py of this tree
# and the Vulkan loader's .debs from .gl/ (the device tool's README). Run as
#   run(command="bash .pyd/device_python.sh", carry=[".pyd", ".gl"])
set -uo pipefail
R=$(pwd); W=/tmp/w; mkdir -p $W; cd $W
tar -xJf $R/.pyd/rel.tar.xz; tar -C /tmp -xJf $R/.pyd/deps.tar.xz; tar -xf $R/.pyd/src.tar
for f in $R/.gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/tmp/deps TRIDENT_CACHE_DIR=/tmp/tc PYTHONUNBUFFERED=1
nvidia-smi -L
python3 -c 'import sys,sysconfig,torch,triton; print(sys.version, sysconfig.get_paths()["include"], torch.__version__, triton.__version__)'
EXT=$(python3 -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
INC=$(python3 -m pybind11 --includes)
mkdir -p build-rel/python/trident /tmp/o; cp python/trident/*.py build-rel/python/trident/
for f in python/src/*.cpp; do c++ -O2 -fPIC -std=c++20 -fvisibility=hidden $INC -Iruntime/include -c $f -o /tmp/o/$(basename $f).o & done; wait
c++ -shared /tmp/o/*.o -Lbuild-rel/lib -ltrident -Wl,-rpath,$W/build-rel/lib -o build-rel/python/trident/_C$EXT || exit 1
export PYTHONPATH=$W/build-rel/python
python3 -c "import trident; print(trident.devices()); [print(p) for p in trident.plugins()]"
( cd python/tests && TRIDENT_PY_TEST_DEVICES=cuda:0,vulkan:0 timeout 400 python3 -m unittest -v test_cuda test_samples test_compat test_tuning test_dlpack test_errors 2>&1 | tee $OUT/tests.log | tail -40 )
for d in cuda:0 vulkan:0 host:0; do
  extra=""; [ $d = cuda:0 ] && extra=--torch
  timeout 60 python3 python/benchmarks/launch_overhead.py --device $d $extra
done 2>&1 | tee $OUT/bench.txt
timeout 60 python3 python/benchmarks/triton_launch_overhead.py 2>&1 | tee -a $OUT/bench.txt
