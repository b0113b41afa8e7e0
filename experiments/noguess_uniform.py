"""Uniform no-guess boards: the chain against the census and against retry (see mscsp.experiments.noguess_uniform)."""

import sys

from mscsp.experiments.noguess_uniform import main

if __name__ == "__main__":
    sys.exit(main())
