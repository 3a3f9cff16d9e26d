"""slip.print (the ink of its written boxes: the same paper is recognised by it), slip.pile (the
scan that filed it: one step takes a pile back), round.judged (what the last correction judged:
a slip filed or changed since makes the round unfit to publish)

Revision ID: 0008
Revises: 0007
"""
from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('slip', sa.Column('ink_print', sa.Text(), nullable=True))
    op.add_column('slip', sa.Column('pile', sa.Integer(), nullable=True))
    op.add_column('round', sa.Column('judged', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('round') as batch_op:
        batch_op.drop_column('judged')
    with op.batch_alter_table('slip') as batch_op:
        batch_op.drop_column('pile')
        batch_op.drop_column('ink_print')
