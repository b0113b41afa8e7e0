"""Win rates along the policy ladder, and the exact optimum on small boards (see mscsp.experiments.winrate)."""

import sys

from mscsp.experiments.winrate import main

if __name__ == "__main__":
    sys.exit(main())
