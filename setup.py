"""Build hook for the one optional compiled part: the simulator's table kernels.

Everything else is in pyproject.toml. ``optional=True``: on a machine without a C compiler (or
Python's headers) the build goes on without it and the package uses the Python versions of the same
computations, which give the same values (terragen/terrain/_kernels.c says why); it is only slower.
"""

import sys

from setuptools import Extension, setup

# fused multiply-adds would round once where Python rounds twice: turned off, so results match
# the Python solver bit for bit (MSVC does not contract by default)
_ARGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(ext_modules=[Extension("terragen.terrain._kernels", ["terragen/terrain/_kernels.c"],
                             extra_compile_args=_ARGS, optional=True)])
