"""Builds the move generator's C loop at install (`pip install -e .` or
`python setup.py build_ext --inplace`). It is optional: without a C compiler the package still
installs and `corrector.words.movegen` uses its pure-Python twin, which gives the same moves."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "corrector.words._movegen",
            sources=["corrector/words/_movegen.c"],
            depends=["corrector/words/_movegen_walk.h"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        )
    ]
)
