"""First-click opening odds: closed forms against Monte Carlo (see mscsp.experiments.first_click)."""

import sys

from mscsp.experiments.first_click import main

if __name__ == "__main__":
    sys.exit(main())
