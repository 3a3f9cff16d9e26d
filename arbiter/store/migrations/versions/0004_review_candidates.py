"""review_item.candidates: the decoder's competing readings of a slip, each with its outcome

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('review_item', sa.Column('candidates', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('review_item') as batch_op:
        batch_op.drop_column('candidates')
