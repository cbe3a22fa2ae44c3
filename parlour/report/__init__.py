"""The designer's report: many simulated games measured, compared and drawn (``parlour report``)."""

SEARCH_BOT = "ismcts:50it"
"""The search bot of the skill games (50 iterations a decision: short, reproducible)."""
