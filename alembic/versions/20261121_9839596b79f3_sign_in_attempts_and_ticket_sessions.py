"""sign-in attempts and ticket sessions

Revision ID: 9839596b79f3
Revises: e38a427271ec
Create Date: 2026-11-21 02:47:54.206130

"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '9839596b79f3'
down_revision: str | None = 'e38a427271ec'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('sign_in_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
    sa.Column('ip_address', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('attempted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.create_index('ix_sign_in_attempts_address_time', ['ip_address', 'attempted_at'], unique=False)
        batch_op.create_index('ix_sign_in_attempts_email_time', ['email', 'attempted_at'], unique=False)

    with op.batch_alter_table('auth_tokens', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_auth_tokens_session_id', 'sessions', ['session_id'], ['id'], ondelete='CASCADE')



def downgrade() -> None:
    with op.batch_alter_table('auth_tokens', schema=None) as batch_op:
        batch_op.drop_constraint('fk_auth_tokens_session_id', type_='foreignkey')
        batch_op.drop_column('session_id')

    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_sign_in_attempts_email_time')
        batch_op.drop_index('ix_sign_in_attempts_address_time')

    op.drop_table('sign_in_attempts')
