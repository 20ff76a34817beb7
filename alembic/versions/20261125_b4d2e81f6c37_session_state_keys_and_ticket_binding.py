"""Sessions found by a secret, sign-in tickets bound to their browser.

``sessions.state_key_hash``: a signed-in tab's server-side state finds its session by a random
secret (its SHA-256 here), no longer by the row id a client could guess. Sessions opened before
this revision have none and are found by their cookie only.

``auth_tokens.binding_hash``: the SHA-256 of the binding cookie of the browser that signed in; the
ticket is spent only by that browser (login CSRF). Unspent tickets of older revisions have none
and can no longer be spent (they live 60 seconds).

Revision ID: b4d2e81f6c37
Revises: 3f6a1c2e9b70
Create Date: 2026-11-25 20:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b4d2e81f6c37"
down_revision: str | None = "3f6a1c2e9b70"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("state_key_hash", sa.String(length=64), nullable=True))
        batch.create_unique_constraint("uq_sessions_state_key_hash", ["state_key_hash"])
    with op.batch_alter_table("auth_tokens") as batch:
        batch.add_column(sa.Column("binding_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auth_tokens") as batch:
        batch.drop_column("binding_hash")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_constraint("uq_sessions_state_key_hash", type_="unique")
        batch.drop_column("state_key_hash")
