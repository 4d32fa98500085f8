"""The tests of main.py, a file per part: python -m unittest from the project's folder.

A suite that hangs does not hang CI: after SUITE_SECONDS, faulthandler prints every
thread's traceback, the hanging test's name among its frames, and ends the run
(status 1). The whole suite takes a few seconds, even on a busy machine."""

import faulthandler

SUITE_SECONDS = 60
faulthandler.dump_traceback_later(SUITE_SECONDS, exit=True)
