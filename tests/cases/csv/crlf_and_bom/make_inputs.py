# Writes input.csv with a BOM and CRLF line ends (kept out of git, which may
# rewrite line ends).
from pathlib import Path

Path("input.csv").write_bytes(b"\xef\xbb\xbfid,name\r\n1,ann\r\n2,bob\r\nx,cy\r\n")
