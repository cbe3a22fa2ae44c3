"""The ``parlour`` command-line program (the only layer besides the server that does I/O)."""
