# A thin layer over CMake. `make run` and `make test` are the two commands.
#   make                       build build/ladder (portable architecture list)
#   make CUDA_ARCH=90          build for one architecture (sm_90: H100, H200)
#   make run [ARGS="--quick"]  build, then run every ladder on GPU 0
#   make test                  build, then run the test suite (GPU tests skip without a GPU)
#   make test-sanitize         host code under AddressSanitizer and UBSan, CPU tests only
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS := $(if $(CUDA_ARCH),-DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH))
GENERATOR := $(if $(shell command -v ninja),-G Ninja)

.PHONY: all build run test test-sanitize clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	@if [ -n "$(CUDA_ARCH)" ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null; fi
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/ladder run $(ARGS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize:
	cmake -S . -B build-sanitize $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DLADDER_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build build-sanitize -j $(JOBS)
	cd build-sanitize && ASAN_OPTIONS=protect_shadow_gap=0 ctest --output-on-failure -L cpu -j $(JOBS)

clean:
	rm -rf $(BUILD) build-sanitize
