# Writes input.jsonl.gz.
import gzip

with gzip.open("input.jsonl.gz", "wb") as out:
    out.write(b'{"a": 1}\n{"a": null}\n{"a": 3}\n')
