# kingsheet: the two commands of README.md.
#   make run   installs and starts the app on 127.0.0.1:5000 (SQLite in instance/); make run PORT=8000
#   make test  installs what the tests need and runs the whole suite
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run test coverage install install-test system-deps bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'

# Chromium (browser tests), poppler (pdftotext), fonts with the suit glyphs (PDF), gcc (the
# analysis's compiled search; before the install, which builds it).
system-deps:
	@bash scripts/system-deps.sh

run: install
	$(BIN)/flask --app app run --host 127.0.0.1 --port $(PORT)

test: system-deps install-test
	@bash scripts/run-tests.sh $(BIN)

# The whole suite with the line coverage of app/ printed (slower: about 13 minutes on 2 cores);
# make coverage TESTS=tests/rules measures a part.
coverage: system-deps install-test
	$(BIN)/pip install -q -e '.[test,coverage]'
	@bash scripts/run-tests.sh $(BIN) --cov=app --cov-report=term $(TESTS)

bench: install-test
	$(BIN)/python bench/engine.py
