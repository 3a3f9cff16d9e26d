"""review_item.claimed_by / claimed_at: the arbiter who has an item open in the web queue (D 5.5.f)

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('review_item', sa.Column('claimed_by', sa.String(length=100), nullable=True))
    op.add_column('review_item', sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('review_item') as batch_op:
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('claimed_by')
