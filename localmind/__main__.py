"""``python -m localmind`` runs the command line."""

from localmind.cli import main

main()
