"""A club's history in and out: imports of past games from the field's formats (a preview
first, one transaction, undone as a whole), exports of seasons, tournaments, a player's games
and the whole club, and the unclaimed players of old records that members claim."""
