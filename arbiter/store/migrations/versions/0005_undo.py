"""undoable sanctions (issue 12): a sanction is withdrawn, never deleted, so the audit log and the
row agree; existing sanctions are active

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('sanction', sa.Column('status', sa.String(length=20), nullable=False, server_default='active'))


def downgrade() -> None:
    with op.batch_alter_table('sanction') as batch_op:
        batch_op.drop_column('status')
