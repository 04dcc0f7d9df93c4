# Writes input.csv with an invalid UTF-8 record (row 1).
from pathlib import Path

Path("input.csv").write_bytes(b"a,b\n1,ok\n2,\xff\xfe\n3,caf\xc3\xa9\n")
