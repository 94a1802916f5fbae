# The README's commands. Each target first makes sure yajl (Debian's libyajl-dev) is installed.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps bench test build clean

## deps: install libyajl-dev and pkg-config when they are missing (Debian/Ubuntu).
deps:
	@if [ ! -f /usr/include/yajl/yajl_parse.h ] || ! command -v pkg-config >/dev/null 2>&1; then \
		echo "Installing libyajl-dev and pkg-config…"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyajl-dev pkg-config; \
	fi

## bench: the main job — decode the bundled corpus into models and report what was found and how fast.
bench: deps
	$(SWIFT) run -c release handystream bench

## test: the whole test suite.
test: deps
	$(SWIFT) test

build: deps
	$(SWIFT) build

clean:
	rm -rf .build
