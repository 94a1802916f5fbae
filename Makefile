# The README's commands. Each target first makes sure yajl (Debian's libyajl-dev) is installed.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps bench test test-integrations test-release test-asan test-tsan fuzz docs lint format build clean
FUZZ_SECONDS ?= 60

## deps: install libyajl-dev when it is missing (Debian/Ubuntu): yajl's headers and its static archive, which the
## package links (no pkg-config needed).
deps:
	@if [ ! -f /usr/include/yajl/yajl_parse.h ]; then \
		echo "Installing libyajl-dev…"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyajl-dev; \
	fi

## bench: the main job — decode the bundled corpus into models and report what was found and how fast.
bench: deps
	$(SWIFT) run -c release handystream bench

## test: the library's test suite, the quick one a contributor runs (no networking is built), after checking that
## every swift block of the README is in its test as written.
test: deps
	bash .ci/check-readme.sh
	$(SWIFT) test

## test-integrations: the HTTP, Vapor and Hummingbird integrations (package traits, off by default), each against a
## real server on loopback, built once in their own build folder (SwiftNIO, AsyncHTTPClient, Vapor, Hummingbird).
test-integrations: deps
	$(SWIFT) test --traits HTTP,Vapor,Hummingbird --scratch-path .build-integrations \
		--filter "HandyStreamHTTPTests|HandyStreamVaporTests|HandyStreamHummingbirdTests"

## test-release: the test suite on an optimized build (behaviour under the optimizer, e.g. of `let`).
test-release: deps
	$(SWIFT) test -c release -Xswiftc -enable-testing --scratch-path .build-release

## test-asan: the test suite under AddressSanitizer (LeakSanitizer included). The sanitizer and fuzz builds leave
## out the integrations (their traits are off by default): they are tested by `make test-integrations`, and
## SwiftNIO's own build under sanitizers would double CI's time.
test-asan: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan \
		-Xswiftc -DSANITIZED

## test-tsan: the concurrency tests under ThreadSanitizer.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter "$(TSAN_FILTER)" -Xswiftc -DSANITIZED
TSAN_FILTER ?= concurrentUse|asyncElements|cancellation|configuredStrategy|ParallelLinesTests|ParallelArrayTests

## fuzz: libFuzzer with AddressSanitizer for FUZZ_SECONDS, from the seeds in Fuzz/Seeds.
fuzz: deps
	$(SWIFT) build --scratch-path .build-fuzz --product HandyStreamFuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	mkdir -p .build-fuzz/corpus
	.build-fuzz/debug/HandyStreamFuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		-print_final_stats=1 .build-fuzz/corpus Fuzz/Seeds

## docs: the DocC catalog (Sources/HandyStream/HandyStream.docc) with the toolchain's docc, into .build/docs;
## any warning (an unresolved link, an undocumented topic) fails the build. The symbol graph comes from building the
## HandyStream target alone, in a build folder of its own (nothing else of the package, no test module: it works on a
## fresh clone). The compiler rewrites the graph whenever it emits the module again, that is whenever a source changed.
docs: deps
	mkdir -p .build-docs/symbols
	$(SWIFT) build --target HandyStream --scratch-path .build-docs -Xswiftc -emit-symbol-graph \
		-Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build-docs/symbols \
		-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
	docc convert Sources/HandyStream/HandyStream.docc --additional-symbol-graph-dir .build-docs/symbols \
		--output-path .build/docs --fallback-display-name HandyStream --fallback-bundle-identifier HandyStream \
		--warnings-as-errors

## lint: the toolchain's swift-format, in lint mode with the checked-in configuration (.swift-format): any finding
## fails. `make format` rewrites the files the same way.
FORMATTED = Sources Tests Fuzz Benchmarks/Benchmarks Package.swift Benchmarks/Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(FORMATTED)

format:
	$(SWIFT) format format --in-place --recursive $(FORMATTED)

build: deps
	$(SWIFT) build

clean:
	rm -rf .build .build-release .build-asan .build-tsan .build-fuzz .build-integrations .build-docs
