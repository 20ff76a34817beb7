"""Demo data and its artwork: the shop as a visitor first sees it, and catalogues for benchmarks.

Pure data and drawing code, no database and no web framework (``tests/unit/demo`` checks the
imports): ``demo_catalog`` (categories, products, website images and the demo administrator,
assembled from the ``demo_*`` tables), ``synthetic`` (large generated catalogues for the
benchmarks) and ``artwork`` (deterministic Pillow drawings of every product and banner;
``images`` is its older name). Loading it into the database is a use-case of the shop,
``shop_app.services.seeding`` (``python -m shop_app seed --demo``).
"""
