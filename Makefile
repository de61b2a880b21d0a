# SPDX-License-Identifier: GPL-2.0
#
# make                 module for the default kernel + the CLI
# make KVER=6.12       the same against another installed kernel
# make check           unit tests, then the selftests in the VM on every kernel
# make demo            the lossless-Ethernet lab: tables and plots (scripts/lab)
# make lint            checkpatch, sparse and a 32-bit (i386) build of the kernel code
# make debug-kernel    build the KASAN/lockdep/kmemleak/UBSAN kernel (once, ~30 min)
# make check-debug     every selftest and the stress test on that kernel
# make sabotage        break each documented claim in turn: its tests must fail
# make module KVER=debug   the module against the debug kernel's tree
# make bench           the benchmarks in the VM on every kernel (BENCH_KERNELS=6.1,
#                      BENCH_QUICK=1); make bench-compare A=a.json B=b.json
# make install         module (depmod), CLI, man page, uapi header, YNL spec
# make uninstall       what make install put there
# make dkms-install    the module's source to /usr/src/flowctl-VERSION, added,
#                      built and installed by DKMS for every kernel with
#                      headers, and rebuilt for each new one; dkms-uninstall
#
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

KVER ?=
# KVER=debug (or debug-6.1, debug-6.12): the debug kernel's tree in the cache
# (scripts/debug-kernel/build); its release names the build directory.
DEBUG_SERIES := $(or $(patsubst debug-%,%,$(filter debug-%,$(KVER))),$(FLOWCTL_DEBUG_SERIES),6.1)
ifneq ($(filter debug debug-%,$(KVER)),)
KERNELRELEASE_FLOWCTL := $(or $(KERNELRELEASE),$(shell $(TOP)/scripts/debug-kernel/build --path release $(DEBUG_SERIES) 2>/dev/null))
KDIR ?= $(shell $(TOP)/scripts/debug-kernel/build --path kdir $(DEBUG_SERIES))
NO_KERNEL_MSG := the $(DEBUG_SERIES) debug kernel is not built: run make debug-kernel KVER=debug-$(DEBUG_SERIES)
else
KERNELRELEASE_FLOWCTL := $(or $(KERNELRELEASE),$(shell $(TOP)/scripts/kver $(KVER) 2>/dev/null))
KDIR ?= $(or $(shell $(TOP)/scripts/kver --kdir $(KERNELRELEASE_FLOWCTL) 2>/dev/null),/usr/src/linux-headers-$(KERNELRELEASE_FLOWCTL))
NO_KERNEL_MSG := module skipped: no kernel headers$(if $(KVER), for $(KVER)) (scripts/kver finds none; run make deps)
endif
BUILD := $(TOP)/build/$(KERNELRELEASE_FLOWCTL)
KO := $(BUILD)/kernel/flowctl.ko

KSRC := $(wildcard $(TOP)/kernel/*.c $(TOP)/kernel/*.h $(TOP)/kernel/Kbuild) \
	$(TOP)/Kbuild $(TOP)/VERSION $(wildcard $(TOP)/include/*/*.h $(TOP)/include/uapi/linux/*.h)

PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all module userland check unit selftests lint install uninstall deps clean \
	dkms-install dkms-uninstall dkms-check \
	print-ko print-kdir fuzz debug-kernel check-debug check-debug-selftest \
	bench bench-compare demo sabotage deb

# The CLI first: it builds where no kernel headers are installed, and then
# the module is skipped with the reason (make exits non-zero).
all: userland module

deps:
	$(TOP)/scripts/deps.sh

# Each kernel builds in its own tree under build/, mirroring kernel/ by
# symlinks, so two kernels never overwrite each other's objects.
$(KO): $(KSRC)
	@test -n "$(KERNELRELEASE_FLOWCTL)" || { echo "$(NO_KERNEL_MSG)" >&2; exit 1; }
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

# The debug lane (Documentation/check-debug.md): not part of make check or CI.
debug-kernel:
	$(TOP)/scripts/debug-kernel/build $(DEBUG_SERIES)

check-debug:
	@$(TOP)/scripts/check-debug $(DEBUG_SERIES)

# Proof that the lane catches a planted use-after-free, lock inversion, leak.
check-debug-selftest:
	@$(TOP)/selftests/debug/planted.sh $(DEBUG_SERIES)

# Proof that the tests can fail: each claim broken by a one-line change,
# the cases that judge it run in one VM (Documentation/sabotage.md).
# SABOTAGE="name ..." runs only those; SABOTAGE_KERNEL=6.1 the other kernel.
sabotage:
	@$(TOP)/scripts/sabotage $(if $(SABOTAGE_KERNEL),--kernel $(SABOTAGE_KERNEL)) $(SABOTAGE)

# DEMO_ARGS: scripts/lab's options, e.g. DEMO_ARGS="-e hol -t 20 -k 6.12".
demo:
	@$(TOP)/scripts/lab $(DEMO_ARGS)

selftests: module userland
	$(TOP)/scripts/vm-run $(if $(KVER),--kernel $(KVER)) --nic virtio --nic e1000e --nic igb -- $(TOP)/selftests/run

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

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KERNELRELEASE_FLOWCTL)/extra/flowctl.ko
	$(MAKE) -C $(TOP)/userland uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KERNELRELEASE_FLOWCTL); fi

# Debian packages (debian/, scripts/deb): apt install ./build/deb/*.deb
deb:
	@$(TOP)/scripts/deb $(TOP)/build/deb

VERSION := $(shell cat $(TOP)/VERSION)
DKMS_SRC := /usr/src/flowctl-$(VERSION)

# DKMS (Debian's dkms): the source goes where dkms looks for it; then add,
# and build and install for every installed kernel with headers (scripts/kver).
dkms-install:
	@command -v dkms >/dev/null || { echo "dkms not installed: apt-get install dkms" >&2; exit 1; }
	-dkms remove -m flowctl -v $(VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_SRC)
	$(TOP)/scripts/dkms-src $(DKMS_SRC)
	dkms add -m flowctl -v $(VERSION)
	for k in $$($(TOP)/scripts/kver --list | xargs -n1 $(TOP)/scripts/kver); do \
		if [ ! -e /lib/modules/$$k/build/Makefile ]; then \
			echo "dkms-install: $$k skipped: its headers are only in the cache, and it is not installed here"; \
			continue; fi; \
		dkms install -m flowctl -v $(VERSION) -k $$k || exit 1; done

dkms-uninstall:
	-dkms remove -m flowctl -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

# Debian's dkms builds and installs the module for every kernel, in a
# private tree (scripts/dkms-check): nothing is installed on this host.
dkms-check:
	$(TOP)/scripts/dkms-check

clean:
	rm -rf $(TOP)/build $(TOP)/kernel/flowctl.ko
	$(MAKE) -C $(TOP)/userland clean
	$(MAKE) -C $(TOP)/bench clean

fuzz:
	$(MAKE) -C $(TOP)/userland fuzz
