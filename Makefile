# dashboard — build, run, test and install.
#
#   make run      install missing system packages, build (release), import imports/ into
#                 ./dashboard.sqlite, print the status and the grid, and write every report
#                 (HTML, Markdown, JSON) into reports/
#   make test     install missing system packages, build (debug) and run every test: on SQLite,
#                 then every suite again with the store on PostgreSQL, then the example
#                 data-quality suite (Examples/DataQualitySuite: its own package, docs/library.md)
#   make install  install the binary into $(PREFIX)/bin (default /usr/local), the man page
#                 into $(PREFIX)/share/man/man1 and the bash, zsh and fish completions (DESTDIR honoured)
#   make promtool  unpack promtool (Debian's prometheus package, the binary alone) into .build/promtool
#   make man      write the man page (.build/man/dashboard.1) and check that man renders it without warnings
#   make bench    the performance figures against the sqlite3 shell, then the PostgreSQL store's
#                 against psql's \copy and the SQLite store (docs/performance.md)
#   make stress   the heavy reliability tier (minutes; needs root for tmpfs): release build, then
#                 Tests/Stress/stress.sh (kill -9 of a 300,000-task import, readers during imports,
#                 20 nightly runs at once, a full disk at 10 levels); prints a summary, exits 1 on a violation
#   make fuzz     run libFuzzer on the CSV reader and normalizer (FUZZ_SECONDS=60), then the
#                 command-line fuzzer (make fuzz-cli) for as long; the target is built from every
#                 source of the DashboardCore module (about 2.5 min, again only when one changed).
#                 FUZZ_FLAGS passes libFuzzer options (FUZZ_FLAGS=-jobs=2 for both cores).
#                 make test runs `make fuzz-smoke`: the same build and 5 s of it
#   make differential  the byte path's differential test at full size: 1,000,000 generated
#                 values of each field kind against the normalizer (release build; ByteRowNormalizerTests)
#   make fuzz-cli random argv over every command and option against a small database (release
#                 build, FUZZ_SECONDS=60; FUZZ_SEED=N repeats a run): only documented exit codes

PREFIX ?= /usr/local
DB ?= dashboard.sqlite
SWIFT ?= swift
SWIFT_FLAGS ?=
# Debian packages the build needs: header (or file) that proves each is installed.
DEPS = libcsv-dev:/usr/include/csv.h libsqlite3-dev:/usr/include/sqlite3.h libssl-dev:/usr/include/openssl/evp.h libpq-dev:/usr/include/postgresql/libpq-fe.h tzdata:/usr/share/zoneinfo/Europe/Berlin sqlite3:/usr/bin/sqlite3 tidy:/usr/bin/tidy python3:/usr/bin/python3 \
	man-db:/usr/bin/man groff-base:/usr/bin/groff

.PHONY: run test test-locale build release install install-files man deps clean lint fuzz fuzz-smoke fuzz-cli differential bench stress python-tools promtool a11y browser oulad-states

FUZZ_SECONDS ?= 60
FUZZ_BIN = .build/fuzz/fuzz-csv
FUZZ_SMOKE_BIN = .build/fuzz/fuzz-csv-smoke
# The fuzz target is compiled together with every Swift file of the DashboardCore module (found,
# not listed: a new file cannot be forgotten) and the module's C libraries, as SwiftPM builds the
# module, with libFuzzer and AddressSanitizer; rebuilt when a source changes.
FUZZ_MODULE_SOURCES := $(shell find Sources/DashboardCore -name '*.swift' | LC_ALL=C sort)
FUZZ_C_MODULES = CCSV CSQLite CCrypto CPostgreSQL
FUZZ_OPT ?= -O

deps:
	@missing=""; \
	for dep in $(DEPS) $(TEST_DEPS); do \
	  pkg=$${dep%%:*}; file=$${dep#*:}; \
	  [ -e "$$file" ] || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian packages:$$missing"; \
	    (apt-get install -y -q $$missing >/dev/null 2>&1 || \
	     (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null)) || \
	     { echo "error: could not install$$missing" >&2; exit 1; }; \
	  else \
	    echo "error: missing Debian packages:$$missing" >&2; \
	    echo "hint: run 'sudo apt-get install -y$$missing', or run make as root" >&2; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

run: release
	@mkdir -p reports
	@echo "Importing imports/ into $(DB)"
	@status=0; .build/release/dashboard --db $(DB) import imports/ || status=$$?; \
	if [ $$status = 65 ]; then \
	  echo "(exit 65: the sample holds a few invalid rows on purpose, see imports/README.md; the valid rows were imported)"; \
	elif [ $$status != 0 ]; then exit $$status; fi
	@echo
	@.build/release/dashboard --db $(DB) status
	@echo
	@.build/release/dashboard --db $(DB) report grid --format text
	@.build/release/dashboard --db $(DB) --quiet report grid --format html --out reports
	@.build/release/dashboard --db $(DB) --quiet report grid --format markdown --out reports
	@.build/release/dashboard --db $(DB) --quiet report grid --format json --out reports
	@echo "Reports written to reports/: open reports/index.html in a browser, or read reports/index.md"

# Only the tests need these: postgresql is the server the PostgreSQL store's tests start (a
# throwaway one in a temporary folder, stopped after the tests: PostgresTestServer); nginx serves the per-teacher folders with the configuration of
# docs/examples/nginx-dashboard.conf (TeacherWebServerTests), curl and openssl fetch pages and
# make password files, setpriv runs readers as another user (ReadOnlyReaderTests), script gives a report a terminal
# (ReportColourAndFilterCommandTests: colour only on a terminal).
# iproute2 (ip netns) builds the two machines of PostgresNetworkTests (a teacher's and the server).
#
# Two passes: every suite on SQLite files, then every suite again with the store on
# PostgreSQL (DASHBOARD_TEST_STORE=postgresql: each test's database is a database of its own on
# the test process's throwaway server; docs/postgresql.md, "Tests"). Each pass starts its server
# and stops it at its end, also when a test fails or the process dies.
# The machine users' own tools check the outputs made for them (docs/library.md, docs/formats.md,
# docs/operations.md): Python's frictionless (the Table Schema) and prometheus_client (the
# metrics) in a virtual environment of the build (.build/python, from PyPI, pinned), xmllint
# (libxml2-utils) for the JUnit XML schema; python3-venv makes the environment.
test: TEST_DEPS = postgresql:/usr/lib/postgresql/15/bin/initdb nginx-light:/usr/sbin/nginx curl:/usr/bin/curl openssl:/usr/bin/openssl util-linux:/usr/bin/setpriv bsdutils:/usr/bin/script iproute2:/usr/sbin/ip \
	libxml2-utils:/usr/bin/xmllint python3-venv:/usr/share/doc/python3-venv/copyright khal:/usr/bin/khal msmtp:/usr/bin/msmtp \
	locales:/usr/share/i18n/locales/en_US
test: deps python-tools promtool test-locale
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_FLAGS)
	DASHBOARD_TEST_STORE=postgresql DASHBOARD_TEST_PG_LOCALE=$(TEST_PG_LOCALE) $(SWIFT) test --skip-build $(SWIFT_FLAGS)
	$(SWIFT) test --package-path Examples/DataQualitySuite $(SWIFT_FLAGS)
	$(MAKE) fuzz-smoke

# The PostgreSQL pass runs on a server whose databases collate by en_US.UTF-8, as districts'
# servers do (not C: the store must ask for byte order wherever it needs it). Debian's locales
# package has its definition; the locale is generated once (localedef, as root).
TEST_PG_LOCALE = en_US.UTF-8
test-locale: TEST_DEPS = locales:/usr/share/i18n/locales/en_US
test-locale: deps
	@locale -a 2>/dev/null | grep -qix 'en_US.utf8' || { \
	  if [ "$$(id -u)" = 0 ]; then echo "Generating the locale $(TEST_PG_LOCALE)"; \
	    localedef -i en_US -c -f UTF-8 -A /usr/share/locale/locale.alias $(TEST_PG_LOCALE) || exit 1; \
	  else echo "error: the locale $(TEST_PG_LOCALE) is missing" >&2; \
	    echo "hint: run 'sudo localedef -i en_US -f UTF-8 $(TEST_PG_LOCALE)', or run make as root" >&2; exit 1; fi; }
# Prometheus's promtool checks and unit-tests the documented alert rules (docs/examples): the
# binary alone, unpacked from Debian's prometheus package into .build/promtool (made once), so
# no Prometheus server is installed or started on the machine that runs the tests.
promtool: .build/promtool/usr/bin/promtool
.build/promtool/usr/bin/promtool:
	@rm -rf .build/promtool && mkdir -p .build/promtool/deb
	@cd .build/promtool/deb && { apt-get download prometheus >/dev/null 2>&1 || \
	  { apt-get update -q >/dev/null 2>&1 && apt-get download prometheus >/dev/null; }; } \
	  && dpkg-deb -x prometheus_*.deb .. && rm -f prometheus_*.deb ../usr/bin/prometheus \
	  || { echo "error: could not download Debian's prometheus package for promtool" >&2; \
	       echo "hint: run 'sudo apt-get update', or make as root" >&2; rm -rf ../../promtool; exit 1; }
	@test -x $@

# The Python packages the tests run (see `test`), pinned, in .build/python; PyYAML
# (frictionless's own dependency) reads the alert rules in MonitoringAlertRulesTests; icalendar and
# ics (with the versions of ics's own dependencies it is known to parse with) read the calendar
# feeds, aiosmtpd receives the digests (CalendarFeedClientTests, DigestDeliveryTests). The
# environment records the list it was made from (.build/python/.installed) and is made again
# when the list changes.
PYTHON_TOOLS = frictionless==5.21.0 prometheus_client==0.26.0 PyYAML==6.0.4 icalendar==7.3.2 ics==0.7.2 TatSu==5.15.1 arrow==1.4.0 aiosmtpd==1.4.6
python-tools:
	@want='$(PYTHON_TOOLS)'; \
	if [ "$$(cat .build/python/.installed 2>/dev/null)" != "$$want" ]; then \
	  python=/usr/bin/python3; [ -x $$python ] || python=python3; rm -rf .build/python; \
	  $$python -m venv .build/python && .build/python/bin/pip install --quiet --disable-pip-version-check $(PYTHON_TOOLS) \
	    && echo "$$want" > .build/python/.installed \
	    || { echo "error: could not install $(PYTHON_TOOLS) into .build/python from PyPI" >&2; rm -rf .build/python; exit 1; }; \
	fi

# The man page and the completions are generated by the binary from its own declarations
# (`dashboard help --man`, `dashboard completions SHELL`), so they always match it.
# install-files installs DASHBOARD_BIN as it is (the tests install the debug build with it).
DASHBOARD_BIN ?= .build/release/dashboard
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

install: release install-files

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(MAN_DIR) $(BASH_DIR) $(ZSH_DIR) $(FISH_DIR)
	install -m 0755 $(DASHBOARD_BIN) $(DESTDIR)$(PREFIX)/bin/dashboard
	$(DASHBOARD_BIN) help --man > $(MAN_DIR)/dashboard.1
	$(DASHBOARD_BIN) completions bash > $(BASH_DIR)/dashboard
	$(DASHBOARD_BIN) completions zsh > $(ZSH_DIR)/_dashboard
	$(DASHBOARD_BIN) completions fish > $(FISH_DIR)/dashboard.fish
	chmod 0644 $(MAN_DIR)/dashboard.1 $(BASH_DIR)/dashboard $(ZSH_DIR)/_dashboard $(FISH_DIR)/dashboard.fish

# The man page, and man's check of it: any warning (a bad request, a bad escape) fails.
man: deps build
	@mkdir -p .build/man
	.build/debug/dashboard help --man > .build/man/dashboard.1
	@warnings="$$(MANWIDTH=80 man --warnings -l .build/man/dashboard.1 2>&1 >/dev/null)"; \
	if [ -n "$$warnings" ]; then echo "$$warnings" >&2; exit 1; fi
	@echo "man -l .build/man/dashboard.1: no warnings"

# libFuzzer over the CSV reader and the normalizer for FUZZ_SECONDS (default 60). The seed
# corpus is Fuzz/corpus/; new inputs go to .build/fuzz/corpus (not committed); a crash is
# written to .build/fuzz/crash-* and fails the target: fix it and keep the input in
# Fuzz/regressions/ (FuzzRegressionTests replays every file there in make test).
fuzz: deps $(FUZZ_BIN)
	@mkdir -p .build/fuzz/corpus
	$(FUZZ_BIN) .build/fuzz/corpus Fuzz/corpus Fuzz/regressions -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=.build/fuzz/ -print_final_stats=1 $(FUZZ_FLAGS)
	$(MAKE) fuzz-cli FUZZ_SECONDS=$(FUZZ_SECONDS)

# The target's build, with $(1) the optimization: -O for make fuzz's long runs, -Onone for make
# test's smoke (28 s to build here instead of about 150 s; it only has to build and run).
define FUZZ_BUILD
	@mkdir -p .build/fuzz/CSQLiteConfig
	@printf 'module CSQLiteConfig {\n    umbrella header "%s/Sources/CSQLiteConfig/include/sqlite_config.h"\n    export *\n}\n' \
	  "$(CURDIR)" > .build/fuzz/CSQLiteConfig/module.modulemap
	clang -c -O1 -fsanitize=fuzzer-no-link,address -I Sources/CSQLiteConfig/include Sources/CSQLiteConfig/sqlite_config.c \
	  -o .build/fuzz/sqlite_config.o
	$(SWIFT)c -sanitize=fuzzer,address -parse-as-library $(1) -wmo -num-threads 2 -module-name FuzzCSV \
	  -package-name DashboardCore $(foreach m,$(FUZZ_C_MODULES),-Xcc -fmodule-map-file=Sources/$(m)/module.modulemap) \
	  -Xcc -fmodule-map-file=.build/fuzz/CSQLiteConfig/module.modulemap $(FUZZ_MODULE_SOURCES) Fuzz/FuzzTarget.swift \
	  .build/fuzz/sqlite_config.o -o $@ 2>$@.log \
	  || { grep -v 'Cannot export local symbol' $@.log; rm -f $@; exit 1; }
endef

$(FUZZ_BIN): $(FUZZ_MODULE_SOURCES) Fuzz/FuzzTarget.swift Sources/CSQLiteConfig/sqlite_config.c
	$(call FUZZ_BUILD,$(FUZZ_OPT))

$(FUZZ_SMOKE_BIN): $(FUZZ_MODULE_SOURCES) Fuzz/FuzzTarget.swift Sources/CSQLiteConfig/sqlite_config.c
	$(call FUZZ_BUILD,-Onone)

# make test's fuzz smoke: the libFuzzer target builds (so make test fails the day it stops
# building) and runs FUZZ_SMOKE_SECONDS over the committed corpus; what it finds goes to a scratch
# folder, never into Fuzz/corpus. The command-line fuzzer's smoke is HardeningCLIFuzzTests.
FUZZ_SMOKE_SECONDS ?= 5
fuzz-smoke: deps $(FUZZ_SMOKE_BIN)
	@rm -rf .build/fuzz/smoke && mkdir -p .build/fuzz/smoke
	@$(FUZZ_SMOKE_BIN) .build/fuzz/smoke Fuzz/corpus Fuzz/regressions -max_total_time=$(FUZZ_SMOKE_SECONDS) -max_len=4096 -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=.build/fuzz/ -print_final_stats=1 2>.build/fuzz/smoke.log \
	  || { tail -40 .build/fuzz/smoke.log; exit 1; }
	@echo "fuzz smoke: $$(grep -o 'number_of_executed_units: *[0-9]*' .build/fuzz/smoke.log | grep -o '[0-9]*$$') executions in $(FUZZ_SMOKE_SECONDS) s, no crash"

# The command-line fuzzer (Fuzz/cli_fuzz.py, Python 3 standard library): random argv over every
# command and option that --help lists, hostile values, a fresh copy of a small database per
# run in a temporary folder. Exit 70, any undocumented code, a signal or a hang fails the target
# and prints the argv; repeat a run with FUZZ_SEED=<the seed it printed>. make test runs a short
# fixed-seed run of it (HardeningCLIFuzzTests).
fuzz-cli: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)
	python3 Fuzz/cli_fuzz.py --bin "$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/dashboard" \
	  --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

# ByteRowNormalizerTests with 1,000,000 generated values of each field kind instead of make
# test's 20,000 (docs/performance.md, "The byte path"): a release build, minutes.
differential: deps
	DASHBOARD_DIFFERENTIAL_VALUES=1000000 $(SWIFT) test -c release --filter ByteRowNormalizerTests $(SWIFT_FLAGS)

stress: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)
	DASHBOARD_BIN="$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/dashboard" bash Tests/Stress/stress.sh

# Performance figures against baselines measured in the same run (docs/performance.md).
# BENCH_TASKS=100000 BENCH_RUNS=3 make bench for a quick look.
# Then the PostgreSQL store's figures (Bench/bench_postgres.py: a throwaway server, psql's \copy as
# baseline, the same reports on SQLite, 50 teachers' roles reading during an import); both run
# whatever the first gives, and the target fails if either has a failing figure.
bench: BENCH_DEPS = postgresql:/usr/lib/postgresql/15/bin/initdb util-linux:/usr/sbin/runuser
bench: TEST_DEPS = $(BENCH_DEPS)
bench: deps release
	$(SWIFT) build -c release --product dashboard-datagen $(SWIFT_FLAGS)
	@status=0; python3 Bench/bench.py || status=1; python3 Bench/bench_postgres.py || status=1; exit $$status

# SPEC §11 on the whole of OULAD (Bench/oulad_states.py; docs/performance.md, "Real data"): the
# converter in ../shared (--states --roster registrations) into SQLite and a throwaway PostgreSQL
# server, every course's to-grade, completed, open and late counts against the CSV's own.
oulad-states: TEST_DEPS = $(BENCH_DEPS)
oulad-states: BENCH_DEPS = postgresql:/usr/lib/postgresql/15/bin/initdb util-linux:/usr/sbin/runuser
oulad-states: deps release
	python3 Bench/oulad_states.py

# `make browser`: the report pages' filters in headless Chromium (Tests/Browser/pages_browser.py:
# typing, chips, the due window, fragment and Back, keyboard only, with and without script, at
# 1280 and 390 px, counts against the command line's, axe-core, the Content-Security-Policy and
# the time a keystroke takes on 5,000 rows; screenshots in .build/browser). `make a11y`:
# the morning digest's HTML part in headless Chromium (Debian's chromium and chromedriver):
# screenshots at 1280 and 390 px (with Noto's CJK and emoji fonts, so titles in any script show)
# and axe-core's checks (axe.min.js from the pinned PyPI wheel of
# axe-playwright-python, taken out without its dependencies), in .build/a11y; fails on any
# violation (docs/reports.md, "The morning digest"). Not part of `make test`: a browser is heavy.
A11Y_TOOLS = selenium==4.51.0
A11Y_AXE = axe-playwright-python==0.1.8
a11y browser: TEST_DEPS = chromium:/usr/bin/chromium chromium-driver:/usr/bin/chromedriver python3-venv:/usr/share/doc/python3-venv/copyright \
	fonts-noto-cjk:/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc fonts-noto-color-emoji:/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
a11y browser: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	@if [ "$$(cat .build/a11y/.installed 2>/dev/null)" != '$(A11Y_TOOLS) $(A11Y_AXE)' ]; then \
	  rm -rf .build/a11y && python3 -m venv .build/a11y/venv && .build/a11y/venv/bin/pip install --quiet --disable-pip-version-check $(A11Y_TOOLS) \
	  && .build/a11y/venv/bin/pip download --quiet --disable-pip-version-check --no-deps $(A11Y_AXE) -d .build/a11y/wheel \
	  && .build/a11y/venv/bin/python -c 'import glob, zipfile; open(".build/a11y/axe.min.js", "wb").write(zipfile.ZipFile(glob.glob(".build/a11y/wheel/*.whl")[0]).read("axe_playwright_python/axe.min.js"))' \
	  && echo '$(A11Y_TOOLS) $(A11Y_AXE)' > .build/a11y/.installed \
	  || { echo "error: could not install $(A11Y_TOOLS) $(A11Y_AXE) into .build/a11y from PyPI" >&2; rm -rf .build/a11y; exit 1; }; \
	fi
	@if [ "$@" = a11y ]; then \
	  .build/a11y/venv/bin/python Tests/Fixtures/Mail/digest_a11y.py "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/dashboard" .build/a11y/axe.min.js .build/a11y/pages; \
	else \
	  .build/a11y/venv/bin/python Tests/Browser/pages_browser.py "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/dashboard" .build/a11y/axe.min.js .build/browser; \
	fi

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Fuzz Examples

clean:
	rm -rf .build
