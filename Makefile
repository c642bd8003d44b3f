# A thin layer over CMake. `make run` and `make test` are the two commands.
#   make                       build build/ladder (portable architecture list)
#   make CUDA_ARCH=90          build for one architecture (sm_90: H100, H200)
#   make run [ARGS="--quick"]  build, then run every ladder on GPU 0
#   make test                  build, then run the test suite (GPU tests skip without a GPU)
#   make test-sanitize         host code under AddressSanitizer and UBSan, CPU tests only
#   make fuzz [FUZZ_SECONDS=60] libFuzzer (clang) on each file parser, seeded with tests/corpus
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS := $(if $(CUDA_ARCH),-DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH))
GENERATOR := $(if $(shell command -v ninja),-G Ninja)

FUZZ_SECONDS ?= 60

.PHONY: all build run test test-sanitize fuzz clean

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

# New inputs go to build-fuzz/corpus-NAME; copy the interesting ones (crashes
# fixed) into tests/corpus/NAME by hand.
fuzz:
	cmake -S . -B build-fuzz $(GENERATOR) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DLADDER_FUZZ=ON $(CMAKE_FLAGS)
	cmake --build build-fuzz -j $(JOBS)
	for f in build-fuzz/*_fuzz; do n=$$(basename $$f _fuzz); mkdir -p build-fuzz/corpus-$$n; \
	  $$f -max_total_time=$(FUZZ_SECONDS) build-fuzz/corpus-$$n tests/corpus/$$n || exit 1; done

clean:
	rm -rf $(BUILD) build-sanitize build-fuzz
