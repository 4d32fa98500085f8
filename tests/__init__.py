"""The tests of main.py, a file per part. Importing this package first compiles
main.py and the test files into the ignored __pycache__, once per run: this
process and every child process that imports main then read the compiled
files, even where PYTHONDONTWRITEBYTECODE keeps Python from writing them (each
child would otherwise compile 4,000 lines of main.py anew)."""

import contextlib
import glob
import importlib.util
import os
import py_compile

_HERE = os.path.dirname(os.path.abspath(__file__))
for _path in [os.path.join(os.path.dirname(_HERE), "main.py"),
              *glob.glob(os.path.join(_HERE, "*.py"))]:
    with contextlib.suppress(OSError, py_compile.PyCompileError):
        py_compile.compile(_path, cfile=importlib.util.cache_from_source(_path), doraise=True)
