"""The Telegram bot: a door of its own, above the club and the games it acts on, and above
the outbox (notifications/) its replies go out through. The webhook and long polling hand
each update to `bot.process.process_update` (docs/architecture.md)."""
