"""The mail outbox's delivery queue: ``outgoing_mail.status``, ``next_attempt_at`` and
``claimed_until``.

Handlers and services only record mail, in the transaction of the change it reports on; a
delivery worker (a background task of the server, ``python -m shop_app deliver-mail`` from cron)
claims each queued message before it talks to SMTP, so two workers never send one twice, and
retries with back-off (``services.mail``). Existing rows get the status their columns imply:
sent ones ``sent``; ones SMTP already tried and may retry ``queued``; ones that used up their
attempts ``failed``; ones never tried (recorded by the development ``outbox`` backend) ``kept``,
so they are never sent later by surprise.

Revision ID: c5d1f3a8e920
Revises: b8e2d4f61a37
Create Date: 2026-11-29 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "c5d1f3a8e920"
down_revision: str | None = "b8e2d4f61a37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_MAX_ATTEMPTS = 5  # services.mail gave up after this many attempts before this revision


def upgrade() -> None:
    with op.batch_alter_table("outgoing_mail") as batch:
        batch.add_column(
            sa.Column(
                "status",
                sqlmodel.sql.sqltypes.AutoString(length=10),
                nullable=False,
                server_default="queued",
            )
        )
        batch.add_column(
            sa.Column(
                "next_attempt_at",
                sqlmodel.sql.sqltypes.UTCDateTime(),
                nullable=False,
                server_default=sa.func.current_timestamp(),
            )
        )
        batch.add_column(sa.Column("claimed_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    mail = sa.table(
        "outgoing_mail",
        sa.column("status", sa.String()),
        sa.column("sent_at", sa.DateTime()),
        sa.column("attempts", sa.Integer()),
    )
    op.execute(
        mail.update().values(
            status=sa.case(
                (mail.c.sent_at.is_not(None), "sent"),
                (mail.c.attempts >= OLD_MAX_ATTEMPTS, "failed"),
                (mail.c.attempts >= 1, "queued"),
                else_="kept",
            )
        )
    )
    with op.batch_alter_table("outgoing_mail") as batch:
        batch.alter_column("status", server_default=None)
        batch.alter_column("next_attempt_at", server_default=None)
    op.create_index("ix_outgoing_mail_due", "outgoing_mail", ["status", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_outgoing_mail_due", table_name="outgoing_mail")
    with op.batch_alter_table("outgoing_mail") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("next_attempt_at")
        batch.drop_column("status")
