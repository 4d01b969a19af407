# The two commands people run:
#   make run   installs what is missing, builds, and serves the page (prints the URL)
#   make test  installs what is missing, builds, and runs every test
PORT ?= 8000
NATIVE := build/native
ASAN := build/asan
WASM := build/wasm
ROOFLAB_BIN := $(NATIVE)/cli/rooflab
CMAKE_GEN := -G Ninja

.PHONY: all setup native asan wasm web run test test-native test-asan test-wasm test-browser bench-page clean

all: native

setup:
	@scripts/setup.sh

native: setup
	@cmake -S . -B $(NATIVE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(NATIVE)

asan: setup
	@cmake -S . -B $(ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DROOFLAB_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN)

# The page: core compiled to WebAssembly (same CMake tree, configured with emcmake), then
# build/web assembled from web/, the WASM module and Chart.js from node_modules.
wasm: setup
	@emcmake cmake -S . -B $(WASM) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(WASM)

web: wasm
	@scripts/build-web.sh

run: web
	@PORT=$(PORT) scripts/serve.sh

test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure

test-asan: asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(ASAN) --output-on-failure

test-wasm: native wasm
	ROOFLAB=$(ROOFLAB_BIN) node --test tests/wasm/

test-browser: native web
	ROOFLAB=$(ROOFLAB_BIN) node --test --test-concurrency=1 tests/browser/

# Prints figures (evaluations per second native / node / Chromium, slider-to-paint latency,
# transfer size); not part of `make test`.
bench-page: native web
	ROOFLAB=$(ROOFLAB_BIN) node bench/page/bench.mjs

test: test-native test-asan test-wasm test-browser

clean:
	rm -rf build
