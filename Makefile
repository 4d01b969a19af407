# The two commands people run:
#   make run   installs what is missing, builds what the page needs, and serves it (prints the URL last)
#   make test  installs what is missing, builds, and runs every test
# Build directories and flags live in CMakePresets.json (native, asan, wasm); this file only
# orders the steps.
PORT ?= 8000
ROOFLAB_BIN := build/native/cli/rooflab

.PHONY: all setup lint native cli asan wasm web run test test-native test-asan test-wasm test-browser bench-page bench-records clean

all: native

setup:
	@scripts/setup.sh

# Everything native, the CUDA kernels too when nvcc is there (ROOFLAB_CUDA=ON: a tree that `make
# run` configured first has them off).
native: setup
	@cmake --preset native -DROOFLAB_CUDA=ON >/dev/null
	@cmake --build --preset native

# The CLI alone (the `rooflab` target and the libraries it links): not the CUDA kernels or the
# tests, which `make native` builds. A tree configured here first is configured without CUDA
# (enabling it costs a configure-time nvcc compile for three architectures, 5-20 s); one that
# exists is kept as it is. `rooflab bench --backend cuda` needs `make native`.
cli: setup
	@if [ -f build/native/CMakeCache.txt ]; then cmake --preset native >/dev/null; \
	 else cmake --preset native -DROOFLAB_CUDA=OFF >/dev/null; fi
	@cmake --build --preset native --target rooflab

asan: setup
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan

# The page: core compiled to WebAssembly (the same CMake tree, configured through emcmake), then
# build/web assembled from web/, the WASM module and Chart.js from node_modules.
wasm: setup
	@emcmake cmake --preset wasm >/dev/null
	@cmake --build --preset wasm

web: wasm
	@scripts/build-web.sh

# Only what the page needs: the WASM module and build/web, and the CLI (README says
# build/native/cli/rooflab exists after `make run`); then the server, which prints the URL last
# and logs nothing but errors. tests/browser/serve.test.mjs holds this build list.
# The two builds run side by side (-j2): one's configure step overlaps the other's compiling.
run:
	@$(MAKE) --no-print-directory -j2 cli web
	@PORT=$(PORT) scripts/serve.sh

test-native: native
	ctest --preset native

test-asan: asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan

test-wasm: native wasm
	ROOFLAB=$(ROOFLAB_BIN) node --test tests/wasm/

test-browser: native web
	ROOFLAB=$(ROOFLAB_BIN) node --test --test-concurrency=1 tests/browser/

# Prints figures (evaluations per second native / node / Chromium, slider-to-paint latency,
# transfer size); not part of `make test`.
bench-page: native web
	ROOFLAB=$(ROOFLAB_BIN) node bench/page/bench.mjs

# Prints time per MB of the record reader and each importer on adversarial inputs from 0.1 to
# 16 MB (tests/record/bench_adversarial.c); not part of `make test`.
bench-records: native
	build/native/tests/record/bench_adversarial

# ESLint (eslint.config.mjs, pinned in package.json) over the page's modules, the tests and the
# benchmarks: errors fail, unused names warn. C formatting is not checked: no clang-format
# configuration matches the C as it is written without reformatting it.
lint: setup
	node_modules/.bin/eslint .

test: lint test-native test-asan test-wasm test-browser

clean:
	rm -rf build
