"""The tests of main.py, a file per part. Importing this package first compiles
main.py and the test files into the ignored __pycache__, once per run: this
process and every child process that imports main then read the compiled
files, even where PYTHONDONTWRITEBYTECODE keeps Python from writing them (each
child would otherwise compile 6,500 lines of main.py anew). The facts the
layout and glossary tests read off its source are kept there too (tests.support)."""

import contextlib
import glob
import importlib.util
import os
import py_compile

_HERE = os.path.dirname(os.path.abspath(__file__))
for _path in [os.path.join(os.path.dirname(_HERE), "main.py"),
              *glob.glob(os.path.join(_HERE, "*.py"))]:
    _cached = importlib.util.cache_from_source(_path)
    with contextlib.suppress(OSError, py_compile.PyCompileError):
        if not os.path.exists(_cached) or os.path.getmtime(_cached) < os.path.getmtime(_path):
            py_compile.compile(_path, cfile=_cached, doraise=True)
