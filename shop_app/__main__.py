"""``python -m shop_app``: see ``shop_app.cli``."""

import sys

from shop_app.cli import main

sys.exit(main())
