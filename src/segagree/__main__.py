"""``python -m segagree``: the command line."""

from segagree.cli import main

main()
