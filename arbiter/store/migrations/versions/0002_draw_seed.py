"""game.draw_seed: the seed from which `round draw` replays the game master's draws

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('draw_seed', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_column('draw_seed')
