"""The kernel: what every room and door stands on, and that knows nothing of the club's
evenings, its games or its members (docs/architecture.md, «The rooms»).

The one refusal (`errors`), strict input (`parsing`, `bodies`), the cache that fails open
(`cache`, `breaker`), tasks queued by name after the commit (`queueing`), the throttles,
a club and its settings (`clubs`), the club in scope (`tenancy`), the API's error schema
(`schemas`), the health check, the console mail, the CSV writer and a secret key kept as
its hash (`secret_keys`). It imports the standard library, Django and the rules engines'
pure helpers (`games.rules.events`), and nothing of the rooms above it.
"""
