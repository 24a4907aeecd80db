"""Build hook for the optional compiled parts: the simulator's table kernels and its plain game's turns.

Everything else is in pyproject.toml. ``optional=True``: on a machine without a C compiler (or
Python's headers) the build goes on without it and the package uses the Python versions of the same
computations, which give the same values (terragen/terrain/_kernels.c says why); it is only slower.
"""

import sys

from setuptools import Extension, setup

# fused multiply-adds would round once where Python rounds twice: turned off, so results match
# the Python solver bit for bit (MSVC does not contract by default)
_ARGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]
# the plain game's turns: integers and look-ups only, no floating point, the same games on any compiler
_TURNS_ARGS = [] if sys.platform == "win32" else ["-O2"]
# read by both: how they take a Python int (its own file says why)
_SMALL_INT = "terragen/terrain/_small_int.h"

setup(ext_modules=[
    Extension("terragen.terrain._kernels", ["terragen/terrain/_kernels.c"], depends=[_SMALL_INT],
              extra_compile_args=_ARGS, optional=True),
    Extension("terragen.terrain.sim._fast_turns", ["terragen/terrain/sim/_fast_turns.c"], depends=[_SMALL_INT],
              extra_compile_args=_TURNS_ARGS, optional=True),
])
