"""How often each solver finishes a board without a guess (see mscsp.experiments.completion)."""

import sys

from mscsp.experiments.completion import main

if __name__ == "__main__":
    sys.exit(main())
