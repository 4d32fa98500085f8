"""The tests of main.py, a file per part: python -m unittest from the project's folder."""
