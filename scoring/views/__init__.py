"""Thin function views of the score sheets, one module per concern: read input, call one of
scoring.services, render. Every group page is behind handsite.access.group_view (404 for people outside
the group). HTMX requests get a partial of the same template; every action also works as a plain form
post."""
