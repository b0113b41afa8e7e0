"""Sphinx extension of the mscsp documentation (filled in by later pages)."""


def setup(app):
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
