"""player.groups: in a blind anticipation game (A 8.4) each player's own 15 groups

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('player', sa.Column('groups', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('player') as batch_op:
        batch_op.drop_column('groups')
