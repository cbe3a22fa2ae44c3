"""Post-game analysis: each decision judged from its seat's information set by rollouts (docs/analysis.md)."""
