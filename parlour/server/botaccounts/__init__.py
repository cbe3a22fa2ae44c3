"""Server bot accounts (issue 36): bots playing at the table server with an API token ."""
