# SPDX-License-Identifier: GPL-2.0
#
# make                 module for the default kernel + the CLI
# make KVER=6.12       the same against another installed kernel
# make check           unit tests, then the selftests in the VM on every kernel
# make lint            checkpatch and sparse on the kernel code
# make bench           the benchmarks in the VM on every kernel (BENCH_KERNELS=6.1,
#                      BENCH_QUICK=1); make bench-compare A=a.json B=b.json
# make install         module (depmod), CLI and man page
#
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

KVER ?=
KERNELRELEASE_FLOWCTL := $(or $(KERNELRELEASE),$(shell $(TOP)/scripts/kver $(KVER) 2>/dev/null))
KDIR ?= $(if $(wildcard /lib/modules/$(KERNELRELEASE_FLOWCTL)/build/Makefile),/lib/modules/$(KERNELRELEASE_FLOWCTL)/build,/usr/src/linux-headers-$(KERNELRELEASE_FLOWCTL))
BUILD := $(TOP)/build/$(KERNELRELEASE_FLOWCTL)
KO := $(BUILD)/kernel/flowctl.ko

KSRC := $(wildcard $(TOP)/kernel/*.c $(TOP)/kernel/*.h $(TOP)/kernel/Kbuild) \
	$(TOP)/Kbuild $(wildcard $(TOP)/include/*/*.h $(TOP)/include/uapi/linux/*.h)

PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all module userland check unit selftests lint install deps clean \
	print-ko print-kdir fuzz bench bench-compare

all: module userland

deps:
	$(TOP)/scripts/deps.sh

# Each kernel builds in its own tree under build/, mirroring kernel/ by
# symlinks, so two kernels never overwrite each other's objects.
$(KO): $(KSRC)
	@test -n "$(KERNELRELEASE_FLOWCTL)" || { echo "no kernel headers: run make deps" >&2; exit 1; }
	@mkdir -p $(BUILD)/kernel
	@ln -sf $(TOP)/Kbuild $(BUILD)/Kbuild
	@for f in $(TOP)/kernel/*.c $(TOP)/kernel/*.h $(TOP)/kernel/Kbuild; do ln -sf $$f $(BUILD)/kernel/; done
	$(MAKE) -C $(KDIR) M=$(BUILD) FLOWCTL_TOP=$(TOP) W=1 modules
	@if [ -z "$(KVER)" ]; then cp $(KO) $(TOP)/kernel/flowctl.ko; fi

module: $(KO)

print-ko:
	@echo $(KO)

print-kdir:
	@echo $(KDIR)

userland:
	$(MAKE) -C $(TOP)/userland

unit: userland
	$(MAKE) -C $(TOP)/userland test

# Every kernel with headers and an image installed, each in its own VM.
check: deps
	@$(TOP)/scripts/check

selftests: module userland
	$(TOP)/scripts/vm-run $(if $(KVER),--kernel $(KVER)) -- $(TOP)/selftests/run

lint:
	@$(TOP)/scripts/lint

# Benchmarks: figures, never a verdict (Documentation/bench.md).
bench:
	@$(TOP)/scripts/bench

bench-compare:
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make bench-compare A=a.json B=b.json" >&2; exit 2; }
	@$(TOP)/bench/compare $(A) $(B)

install: module userland
	install -D -m 644 $(KO) $(DESTDIR)/lib/modules/$(KERNELRELEASE_FLOWCTL)/extra/flowctl.ko
	$(MAKE) -C $(TOP)/userland install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KERNELRELEASE_FLOWCTL); fi

clean:
	rm -rf $(TOP)/build $(TOP)/kernel/flowctl.ko
	$(MAKE) -C $(TOP)/userland clean
	$(MAKE) -C $(TOP)/bench clean

fuzz:
	$(MAKE) -C $(TOP)/userland fuzz
