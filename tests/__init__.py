"""The tests of main.py, a file per part: python -m unittest from the project's folder.

The suite keeps no clock of its own: a slow run on a busy machine is not a hang.
CI ends a suite that hangs (.ci/run: timeout, and faulthandler's traceback of the
test it hung in)."""
