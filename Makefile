# Developer targets, run from the checkout. CI itself is .ci/run (a fresh virtual
# environment, then the same commands as `make check`).
PY ?= python
PYTEST = PYTHONPATH=$(CURDIR) $(PY) -m pytest -p no:cacheprovider

.PHONY: check typing test slow slow-all

check: typing test slow  ## what CI runs: typing, the suite, the bounded slow step

typing:
	PYTHONPATH=$(CURDIR) $(PY) -m mypy --strict crewcheck

test:  ## the suite (the slow tests skipped), one worker per core
	$(PYTEST) -n auto

slow:  ## the slow tests that fit CI's time (CI's slow step)
	$(PYTEST) -n auto --runslow -m "slow and not long" tests

slow-all:  ## every slow test, the long sweeps too (hours on 2 cores: see the README)
	$(PYTEST) -n auto --runslow -m slow tests
