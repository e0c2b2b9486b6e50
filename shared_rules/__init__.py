"""The laws engine and scoring: pure Python, no I/O, no clock reads.

Every event carries its own timestamp, so replaying a log gives the same answer every time.
"""
