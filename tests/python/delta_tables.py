"""Delta tables for the tests that the `deltalake` package cannot write: deletion
vectors, column mapping, and a reader feature no reader knows. Written by hand from
the Delta protocol (PROTOCOL.md: actions, deletion vector formats, column mapping),
with pyarrow for the Parquet files. The tests read the column-mapping table back with
`deltalake` too; deltalake 1.6.6 refuses deletion vectors ("not yet supported by the
deltalake reader"), so that table is checked against the rows the test kept."""
import json
import pathlib
import struct
import uuid
import zlib

import pyarrow as pa
import pyarrow.parquet as pq

Z85_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def z85_encode(data):
    """ZeroMQ Z85 (RFC 32); `data` is padded with zero bytes to a multiple of 4."""
    data = data + b"\0" * (-len(data) % 4)
    out = []
    for i in range(0, len(data), 4):
        value = struct.unpack(">I", data[i:i + 4])[0]
        chunk = []
        for _ in range(5):
            chunk.append(Z85_CHARS[value % 85])
            value //= 85
        out.extend(reversed(chunk))
    return "".join(out)


def roaring_array(rows):
    """Delta's RoaringBitmapArray, portable form: magic, u64 bitmap count, then per
    high 32 bits a u32 key and a 32-bit portable Roaring bitmap of array containers."""
    by_key = {}
    for r in sorted(set(rows)):
        by_key.setdefault(r >> 32, []).append(r & 0xFFFFFFFF)
    out = struct.pack("<I", 1681511377) + struct.pack("<Q", len(by_key))
    for key, lows in sorted(by_key.items()):
        containers = {}
        for low in lows:
            containers.setdefault(low >> 16, []).append(low & 0xFFFF)
        assert all(len(v) <= 4096 for v in containers.values()), "array containers only"
        bitmap = struct.pack("<II", 12346, len(containers))  # SERIAL_COOKIE_NO_RUNCONTAINER
        for high, values in sorted(containers.items()):
            bitmap += struct.pack("<HH", high, len(values) - 1)
        offset = len(bitmap) + 4 * len(containers)
        for high, values in sorted(containers.items()):
            bitmap += struct.pack("<I", offset)
            offset += 2 * len(values)
        for high, values in sorted(containers.items()):
            bitmap += struct.pack(f"<{len(values)}H", *values)
        out += struct.pack("<I", key) + bitmap
    return out


def _write_log(table, version, actions):
    log = pathlib.Path(table) / "_delta_log"
    log.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions)
    (log / f"{version:020d}.json").write_text(text)


def _delta_type(arrow_type):
    return {pa.int64(): "long", pa.float64(): "double", pa.string(): "string",
            pa.int32(): "integer", pa.bool_(): "boolean"}[arrow_type]


def _schema_string(schema, mapping=None):
    fields = []
    for i, field in enumerate(schema):
        metadata = {}
        if mapping is not None:
            metadata = {"delta.columnMapping.id": i + 1,
                        "delta.columnMapping.physicalName": mapping[field.name]}
        fields.append({"name": field.name, "type": _delta_type(field.type), "nullable": True,
                       "metadata": metadata})
    return json.dumps({"type": "struct", "fields": fields})


def _add(table, name, data, dv=None):
    path = pathlib.Path(table) / name
    pq.write_table(data, path)
    action = {"path": name, "partitionValues": {}, "size": path.stat().st_size,
              "modificationTime": 1764547200000, "dataChange": True,
              "stats": json.dumps({"numRecords": data.num_rows})}
    if dv is not None:
        action["deletionVector"] = dv
    return {"add": action}


def _metadata(schema_string, configuration):
    return {"metaData": {"id": str(uuid.uuid4()), "format": {"provider": "parquet", "options": {}},
                         "schemaString": schema_string, "partitionColumns": [],
                         "configuration": configuration, "createdTime": 1764547200000}}


def write_deletion_vector_table(table, first, second, deleted_first, deleted_second):
    """Two Parquet files; rows `deleted_first` (indexes) of the first deleted by an
    inline DV, rows `deleted_second` of the second by a DV file ('u' storage)."""
    pathlib.Path(table).mkdir(parents=True, exist_ok=True)
    inline = roaring_array(deleted_first)
    dv_inline = {"storageType": "i", "pathOrInlineDv": z85_encode(inline),
                 "sizeInBytes": len(inline), "cardinality": len(set(deleted_first))}
    file_uuid = uuid.uuid4()
    bitmap = roaring_array(deleted_second)
    blob = (b"\x01" + struct.pack(">I", len(bitmap)) + bitmap
            + struct.pack(">I", zlib.crc32(bitmap) & 0xFFFFFFFF))
    (pathlib.Path(table) / f"deletion_vector_{file_uuid}.bin").write_bytes(blob)
    dv_file = {"storageType": "u", "pathOrInlineDv": z85_encode(file_uuid.bytes), "offset": 1,
               "sizeInBytes": len(bitmap), "cardinality": len(set(deleted_second))}
    _write_log(table, 0, [
        {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                      "readerFeatures": ["deletionVectors"], "writerFeatures": ["deletionVectors"]}},
        _metadata(_schema_string(first.schema), {"delta.enableDeletionVectors": "true"}),
        _add(table, "part-0.parquet", first, dv_inline),
        _add(table, "part-1.parquet", second, dv_file),
    ])


def write_column_mapping_table(table, data):
    """Column mapping mode 'name': the Parquet columns carry physical names
    (col-<uuid>) and field ids; the log maps them to `data`'s names."""
    pathlib.Path(table).mkdir(parents=True, exist_ok=True)
    mapping = {name: f"col-{uuid.uuid4()}" for name in data.schema.names}
    physical = pa.schema([pa.field(mapping[f.name], f.type, metadata={b"PARQUET:field_id": str(i + 1).encode()})
                          for i, f in enumerate(data.schema)])
    renamed = pa.Table.from_arrays(data.columns, schema=physical)
    _write_log(table, 0, [
        {"protocol": {"minReaderVersion": 2, "minWriterVersion": 5}},
        _metadata(_schema_string(data.schema, mapping),
                  {"delta.columnMapping.mode": "name", "delta.columnMapping.maxColumnId": str(len(mapping))}),
        _add(table, "part-0.parquet", renamed),
    ])
    return mapping


def write_unknown_feature_table(table, data, feature="griffinFutureFeature"):
    """A table whose protocol needs a reader feature that no reader supports."""
    pathlib.Path(table).mkdir(parents=True, exist_ok=True)
    _write_log(table, 0, [
        {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                      "readerFeatures": [feature], "writerFeatures": [feature]}},
        _metadata(_schema_string(data.schema), {}),
        _add(table, "part-0.parquet", data),
    ])
