# Writes input.csv.zst with pyarrow's zstd codec.
import pyarrow as pa

with pa.CompressedOutputStream("input.csv.zst", "zstd") as out:
    out.write(b"a,b\n1,x\n2,q\n3,y\n4,\n")
