"""Objects in S3 and GCS (`s3://bucket/key`, `gs://...`, prefixes) for the
pyarrow readers of iter_batches() and Report.split(): the objects a URI stands
for are those the engine reads (griffin._griffin.expand_inputs, the CLI's
expansion), and each is read through a pyarrow filesystem made with the
engine's settings for its store (object_client_settings: `?endpoint=`,
AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL / STORAGE_EMULATOR_HOST, `?region=`,
AWS_REGION ...). Credentials come from the providers' usual chains, as the
engine's (docs/object-stores.md)."""
from __future__ import annotations

import datetime
import functools
from typing import Any, List, Tuple

import pyarrow as pa
import pyarrow.fs as pafs

from . import _griffin


def is_object_uri(path: str) -> bool:
    """True for s3:// and gs:// URIs (the scheme in any case)."""
    return path[:5].lower() in ("s3://", "gs://")


def expand(uri: str) -> List[str]:
    """The object URIs `uri` stands for (a prefix: its supported objects in key
    order). InputError naming a missing bucket, object or empty prefix."""
    return list(_griffin.expand_inputs([uri]))


@functools.lru_cache(maxsize=16)
def _filesystem(scheme: str, endpoint_scheme: str, host_port: str, region: str, anonymous: bool) -> Any:
    endpoint = {"scheme": endpoint_scheme, "endpoint_override": host_port} if host_port else {}
    if scheme == "gs":
        return pafs.GcsFileSystem(anonymous=anonymous, retry_time_limit=datetime.timedelta(seconds=4), **endpoint)
    return pafs.S3FileSystem(region=region or None, connect_timeout=5, request_timeout=30,
                             retry_strategy=pafs.AwsStandardS3RetryStrategy(max_attempts=3), **endpoint)


def locate(uri: str) -> Tuple[Any, str, str]:
    """(pyarrow filesystem, its path "bucket/key", the URI without its query)."""
    settings = _griffin.object_client_settings(uri)
    fs = _filesystem(settings["scheme"], settings["endpoint_scheme"], settings["endpoint_host_port"],
                     settings["region"], settings["anonymous"])
    return fs, settings["bucket_path"], settings["display"]


def open_input_file(uri: str) -> pa.NativeFile:
    """The object, for random access (Parquet, Arrow IPC)."""
    fs, path, _ = locate(uri)
    return fs.open_input_file(path)


def open_input_stream(uri: str) -> pa.NativeFile:
    """The object as a stream, decompressed by its key's extension (.gz, .zst)."""
    fs, path, _ = locate(uri)
    return fs.open_input_stream(path, compression="detect")


def display(uri: str) -> str:
    """How messages name the object: the URI without its query."""
    return uri.split("?", 1)[0] if is_object_uri(uri) else uri
