"""Allows ``python -m parlour.cli``."""

from parlour.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
