"""Win rates of whole games with least-probability guesses (see mscsp.experiments.winrate)."""

import sys

from mscsp.experiments.winrate import main

if __name__ == "__main__":
    sys.exit(main())
