"""A block of the bot is per club's bot now (notifications.TelegramBlock, which 0010 filled
from this field first)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0012_membership'),
        ('notifications', '0010_telegram_block'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='user',
            name='telegram_blocked_at',
        ),
    ]
