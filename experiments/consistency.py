"""Consistency of compiled 3-CNF boards (see mscsp.experiments.consistency)."""

import sys

from mscsp.experiments.consistency import main

if __name__ == "__main__":
    sys.exit(main())
