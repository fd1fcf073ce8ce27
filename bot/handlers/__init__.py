"""The bot's handlers, one module per concern, each a set of functions of the `Chat` being
answered (bot/chat.py): account and linking, the evening's buttons, the online game,
settings, the tournament, the sign-up conversation. bot/dispatch.py routes an update to
one of them; none imports another (import-linter's `bot` contract)."""
