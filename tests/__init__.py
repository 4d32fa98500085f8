"""The tests of main.py, a file per part. Importing this package first compiles
main.py into the ignored __pycache__, once per run: this process and every
child process that imports main then read the compiled file, even where
PYTHONDONTWRITEBYTECODE keeps Python from writing it (each would otherwise
compile 4,000 lines anew)."""

import contextlib
import importlib.util
import os
import py_compile

_MAIN_PY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "main.py")
with contextlib.suppress(OSError, py_compile.PyCompileError):
    py_compile.compile(_MAIN_PY, cfile=importlib.util.cache_from_source(_MAIN_PY), doraise=True)
