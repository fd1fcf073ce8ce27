"""The history's rows: imports and their games, claims of unclaimed players."""
