"""What every app's doors share: the API's wiring and its handlers (`api`, `api_auth`), the
request types the doors see (`requests`), a page action's answer to a refusal
(`responses`), the middleware, the template context and the Content-Security-Policy's
exceptions (`csp`). A door may import any room; no room imports a door
(docs/architecture.md, «The arrows»)."""
