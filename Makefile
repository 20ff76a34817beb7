# Benchmarks against the performance budgets of docs/architecture.md#performance-budgets; method and results in
# docs/benchmarks.md, whose results blocks these commands rewrite. Run ./scripts/run or
# ./scripts/test once first (they install .venv and the npm tools in tools/).
#
#   make bench             every benchmark below, about 30 minutes on 2 cores
#   make bench-catalogue   shop page query and shopper state, 20,000 products (SQLite, PostgreSQL)
#   make bench-orders      order placement, 32 buyers (PostgreSQL: the budget; SQLite)
#   make bench-load        shoppers over websockets, 10/50/100 clients, then 50 beside a burst of
#                          sign-ins and checkouts (embedded set-up; then PostgreSQL + Redis with
#                          2 workers)
#   make bench-lighthouse  Lighthouse mobile and desktop on /, /shop, /product/{id}, /checkout
#   make bench-sales       the dashboard's sales overview, 20,000 orders (SQLite, PostgreSQL)
#
# PG_SERVER names a PostgreSQL server the benchmarks create (and drop) their own database on.
# Every benchmark is bounded: fixed sizes and durations, each Lighthouse run at most 180 s.
# The load and Lighthouse benchmarks build the production frontend in this checkout's .web:
# do not run them while the end-to-end tests build it.

PYTHON ?= .venv/bin/python
PG_SERVER ?= postgresql+psycopg://postgres@127.0.0.1:5432/test

export REFLEX_BUN_PATH ?= $(CURDIR)/tools/node_modules/.bin/bun
# Node.js 24 from tools/package.json ahead of the system's (Reflex 0.10 asks for 22.22 or newer)
export PATH := $(CURDIR)/tools/node_modules/.bin:$(PATH)
export REFLEX_TELEMETRY_ENABLED ?= false

.PHONY: bench bench-catalogue bench-orders bench-sales bench-load bench-lighthouse bench-admin bench-interactions

bench: bench-catalogue bench-orders bench-sales bench-load bench-lighthouse bench-admin bench-interactions

bench-catalogue:
	$(PYTHON) benchmarks/shop_query.py --products 20000 --write-docs
	$(PYTHON) benchmarks/shop_query.py --products 20000 --write-docs --database-url $(PG_SERVER)

bench-orders:
	$(PYTHON) benchmarks/order_placement.py --write-docs --database-url $(PG_SERVER)
	$(PYTHON) benchmarks/order_placement.py --sqlite --write-docs

bench-sales:
	$(PYTHON) benchmarks/sales_overview.py --write-docs
	$(PYTHON) benchmarks/sales_overview.py --write-docs --database-url $(PG_SERVER)

bench-load:
	$(PYTHON) benchmarks/load.py --write-docs
	$(PYTHON) benchmarks/load.py --postgres $(PG_SERVER) --redis --workers 2 --write-docs

bench-lighthouse:
	$(PYTHON) benchmarks/lighthouse.py --write-docs

bench-admin:
	$(PYTHON) benchmarks/admin_products.py --write-docs
	$(PYTHON) benchmarks/admin_products.py --write-docs --database-url $(PG_SERVER)

bench-interactions:
	$(PYTHON) benchmarks/interactions.py --write-docs
