"""The bias of no-guess generators against uniform boards (see mscsp.experiments.noguess_bias)."""

import sys

from mscsp.experiments.noguess_bias import main

if __name__ == "__main__":
    sys.exit(main())
