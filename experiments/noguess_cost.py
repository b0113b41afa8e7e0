"""No-guess generation: retries against perturbation (see mscsp.experiments.noguess_cost)."""

import sys

from mscsp.experiments.noguess_cost import main

if __name__ == "__main__":
    sys.exit(main())
