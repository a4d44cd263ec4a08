# dashboard — build, run, test and install.
#
#   make run      install missing system packages, build (release), import imports/ into
#                 ./dashboard.sqlite, print the status and the grid, and write every report
#                 (HTML, Markdown, JSON) into reports/
#   make test     install missing system packages, build (debug) and run every test
#   make install  install the binary into $(PREFIX)/bin (default /usr/local)
#   make bench    the performance figures against the sqlite3 shell (docs/performance.md)
#   make stress   the heavy reliability tier (minutes; needs root for tmpfs): release build, then
#                 Tests/Stress/stress.sh (kill -9 of a 300,000-task import, readers during imports,
#                 20 nightly runs at once, a full disk at 10 levels); prints a summary, exits 1 on a violation
#   make fuzz     run libFuzzer on the CSV reader and normalizer (FUZZ_SECONDS=60), then the
#                 command-line fuzzer (make fuzz-cli) for as long
#   make fuzz-cli random argv over every command and option against a small database (release
#                 build, FUZZ_SECONDS=60; FUZZ_SEED=N repeats a run): only documented exit codes

PREFIX ?= /usr/local
DB ?= dashboard.sqlite
SWIFT ?= swift
SWIFT_FLAGS ?=
# Debian packages the build needs: header (or file) that proves each is installed.
DEPS = libcsv-dev:/usr/include/csv.h libsqlite3-dev:/usr/include/sqlite3.h libssl-dev:/usr/include/openssl/evp.h tzdata:/usr/share/zoneinfo/Europe/Berlin sqlite3:/usr/bin/sqlite3 tidy:/usr/bin/tidy python3:/usr/bin/python3

.PHONY: run test build release install deps clean lint fuzz fuzz-cli bench stress

FUZZ_SECONDS ?= 60
FUZZ_BIN = .build/fuzz/fuzz-csv
FUZZ_SOURCES = $(wildcard Sources/DashboardCore/CSV/*.swift) \
	$(addprefix Sources/DashboardCore/Import/,ImportProblem.swift FileKind.swift TextNormalizer.swift ValueParsers.swift \
	  DueDate.swift DueDateParser.swift TimeZoneCatalog.swift Records.swift RowNormalizer.swift RowNormalizer+WideRows.swift InvalidStoredValue.swift) \
	Sources/DashboardCore/Support/Clock.swift Sources/DashboardCore/Support/PathInspection.swift Fuzz/FuzzTarget.swift

deps:
	@missing=""; \
	for dep in $(DEPS); do \
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

test: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	$(SWIFT) test $(SWIFT_FLAGS)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/dashboard $(DESTDIR)$(PREFIX)/bin/dashboard

# libFuzzer over the CSV reader and the normalizer for FUZZ_SECONDS (default 60). The seed
# corpus is Fuzz/corpus/; new inputs go to .build/fuzz/corpus (not committed); a crash is
# written to .build/fuzz/crash-* and fails the target: fix it and keep the input in
# Fuzz/regressions/ (FuzzRegressionTests replays every file there in make test).
fuzz: deps
	@mkdir -p .build/fuzz/corpus
	@rm -f $(FUZZ_BIN)
	$(SWIFT)c -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzCSV -I Sources/CCSV \
	  -Xcc -fmodule-map-file=Sources/CCSV/module.modulemap $(FUZZ_SOURCES) -lcsv -o $(FUZZ_BIN) 2>.build/fuzz/build.log \
	  || { grep -v 'Cannot export local symbol' .build/fuzz/build.log; exit 1; }
	$(FUZZ_BIN) .build/fuzz/corpus Fuzz/corpus Fuzz/regressions -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=.build/fuzz/ -print_final_stats=1
	$(MAKE) fuzz-cli FUZZ_SECONDS=$(FUZZ_SECONDS)

# The command-line fuzzer (Fuzz/cli_fuzz.py, Python 3 standard library): random argv over every
# command and option that --help lists, hostile values, a fresh copy of a small database per
# run in a temporary folder. Exit 70, any undocumented code, a signal or a hang fails the target
# and prints the argv; repeat a run with FUZZ_SEED=<the seed it printed>. make test runs a short
# fixed-seed run of it (HardeningCLIFuzzTests).
fuzz-cli: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)
	python3 Fuzz/cli_fuzz.py --bin "$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/dashboard" \
	  --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

stress: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)
	DASHBOARD_BIN="$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/dashboard" bash Tests/Stress/stress.sh

# Performance figures against baselines measured in the same run (docs/performance.md).
# BENCH_TASKS=100000 BENCH_RUNS=3 make bench for a quick look.
bench: deps release
	$(SWIFT) build -c release --product dashboard-datagen $(SWIFT_FLAGS)
	python3 Bench/bench.py

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Fuzz

clean:
	rm -rf .build
