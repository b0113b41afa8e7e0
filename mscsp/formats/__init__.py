"""What mscsp reads and writes: the grid text format, other tools' boards, and files.

- :mod:`mscsp.formats.text` — the grid text shared by position and layout files;
- :mod:`mscsp.formats.foreign` — boards saved by other Minesweeper tools
  (JSMinesweeper's position text, Minesweeper Arbiter's ``.mbf``);
- :mod:`mscsp.formats.files` — size limits, checked paths and whole writes for the
  files the command line reads and writes.
"""
