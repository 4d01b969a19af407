# The two commands people run:
#   make run   installs what is missing, builds, and serves the page (prints the URL)
#   make test  installs what is missing, builds, and runs every test
PORT ?= 8000
NATIVE := build/native
ASAN := build/asan
CMAKE_GEN := -G Ninja

.PHONY: all setup native asan run test test-native test-asan clean

all: native

setup:
	@scripts/setup.sh

native: setup
	@cmake -S . -B $(NATIVE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(NATIVE)

asan: setup
	@cmake -S . -B $(ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DROOFLAB_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN)

run: native
	@$(NATIVE)/rooflab eval

test-native: native
	ctest --test-dir $(NATIVE) --output-on-failure

test-asan: asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(ASAN) --output-on-failure

test: test-native test-asan

clean:
	rm -rf build
