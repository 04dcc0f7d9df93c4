# Writes input.csv.gz.
import gzip

with gzip.open("input.csv.gz", "wb") as out:
    out.write(b"a,b\n1,x\n-2,y\n3,z\n")
