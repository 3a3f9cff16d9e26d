"""game.rules_sha256: the rule pack the game was started with, pinned like its word list (issue 21)

Revision ID: 0009
Revises: 0008
"""
from alembic import op
import sqlalchemy as sa

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('rules_sha256', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_column('rules_sha256')
