"""anticipation games (RULES.md §7): the game's groups and round→group order, each round's move
rulings and each player's totals in the anticipation form

Every new column is nullable, so the games already stored stay valid: their `kind` is already
'duplicate' (0001) and duplicate games never read these columns.

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('groups', sa.JSON(), nullable=True))
    op.add_column('game', sa.Column('group_order', sa.JSON(), nullable=True))
    op.add_column('decision', sa.Column('moves', sa.JSON(), nullable=True))
    op.add_column('standing', sa.Column('detail', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('standing') as batch_op:
        batch_op.drop_column('detail')
    with op.batch_alter_table('decision') as batch_op:
        batch_op.drop_column('moves')
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_column('group_order')
        batch_op.drop_column('groups')
