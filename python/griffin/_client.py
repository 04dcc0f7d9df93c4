"""griffin.Client: the Griffin quality service (`griffin serve`) over HTTP,
and over Arrow Flight for columnar batches.

    client = griffin.Client("http://127.0.0.1:8080", api_key="...", flight_url="grpc://127.0.0.1:8815")
    report = client.validate("transactions", table)          # the CLI's JSON report, as a dict
    answer = client.metrics("steps", step=12, loss=0.31, records=rows)
    results, report = client.exchange("transactions", batches)

One persistent HTTP/1.1 connection per client, guarded by a lock (a client
may be shared by threads; calls then take turns). Refusals raise
ServiceError with the HTTP status, the server's one-line reason and, for
429/503, its Retry-After in seconds. Nothing is retried here: a training
loop that wants backoff uses griffin.jax.QualityGate(url=...).
"""
from __future__ import annotations

import http.client
import json
import os
import ssl
import threading
import urllib.parse
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ._griffin import DEFAULT_MAX_VIOLATIONS, GriffinError

_CONTENT_TYPES = {".csv": "text/csv", ".tsv": "text/tab-separated-values", ".jsonl": "application/x-ndjson",
                  ".ndjson": "application/x-ndjson", ".arrow": "application/vnd.apache.arrow.file",
                  ".feather": "application/vnd.apache.arrow.file", ".ipc": "application/vnd.apache.arrow.stream"}


class ServiceError(GriffinError):
    """The service refused a request: `status` (HTTP, or the Flight
    equivalent), `reason` (its one-line message), `retry_after` (seconds, for
    429 and 503, else None)."""

    def __init__(self, status: int, reason: str, retry_after: Optional[float] = None) -> None:
        super().__init__("HTTP %d: %s" % (status, reason))
        self.status = status
        self.reason = reason
        self.retry_after = retry_after


def _arrow_ipc(data: Any) -> bytes:
    """Arrow data (pyarrow Table/RecordBatch, pandas DataFrame, dict of
    arrays, anything with __arrow_c_stream__) as IPC stream bytes."""
    import pyarrow as pa

    from ._frames import table_of

    if not (isinstance(data, (pa.RecordBatch, pa.Table, dict)) or hasattr(data, "__arrow_c_stream__")
            or type(data).__module__.split(".")[0] == "pandas"):
        raise TypeError("validate() takes bytes, str, a path, or Arrow data (pyarrow, pandas, polars, dict of "
                        "arrays); got %s" % type(data).__name__)
    table = table_of(data)   # InputError for a frame Arrow cannot hold, as Validator.validate()
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


class Client:
    """A client of `griffin serve`.

    Client(url, api_key=None, *, timeout=30.0, ssl_context=None, flight_url=None)

    `url` is http://HOST:PORT or https://HOST:PORT; `flight_url` (grpc://
    or grpc+tls://) enables exchange() and put(). `ssl_context` verifies a
    private certificate authority (ssl.create_default_context(cafile=...))."""

    def __init__(self, url: str, api_key: Optional[str] = None, *, timeout: float = 30.0,
                 ssl_context: Optional[ssl.SSLContext] = None, flight_url: Optional[str] = None,
                 tls_root_certs: Optional[bytes] = None) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("url: expected http://host:port or https://host:port, got %r" % url)
        self.url = url.rstrip("/")
        self._scheme, self._host, self._port = parsed.scheme, parsed.hostname, parsed.port
        self._base = parsed.path.rstrip("/")
        self._api_key = api_key
        self._timeout = timeout
        self._ssl = ssl_context
        self._lock = threading.Lock()
        self._connection: Optional[http.client.HTTPConnection] = None
        self._flight_url = flight_url
        self._tls_root_certs = tls_root_certs
        self._flight: Any = None

    # --- HTTP ---------------------------------------------------------------

    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            if self._scheme == "https":
                self._connection = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout,
                                                               context=self._ssl)
            else:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
        return self._connection

    def _request(self, method: str, path: str, body: Optional[bytes] = None, content_type: Optional[str] = None,
                 params: Optional[Dict[str, Any]] = None) -> Tuple[bytes, str]:
        query = {k: ("true" if v is True else "false" if v is False else v) for k, v in (params or {}).items()
                 if v is not None}
        target = self._base + path + ("?" + urllib.parse.urlencode(query) if query else "")
        headers = {"Connection": "keep-alive"}
        if self._api_key:
            headers["Authorization"] = "Bearer " + self._api_key
        if content_type:
            headers["Content-Type"] = content_type
        with self._lock:
            while True:
                reused = self._connection is not None
                connection = self._connect()
                try:
                    connection.request(method, target, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
                    self._close_connection()
                    if reused:
                        continue  # the server had closed the idle keep-alive connection: once more, on a new one
                    raise
                except (OSError, http.client.HTTPException):
                    self._close_connection()
                    raise
                if response.getheader("Connection", "").lower() == "close":
                    self._close_connection()
                break
        if response.status != 200:
            try:
                reason = str(json.loads(data).get("error", ""))
            except (ValueError, AttributeError):
                reason = data[:200].decode("utf-8", "replace")
            retry = response.getheader("Retry-After")
            raise ServiceError(response.status, reason, float(retry) if retry else None)
        return data, response.getheader("Content-Type", "")

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        data, _ = self._request(method, path, **kwargs)
        return json.loads(data)

    def health(self) -> Dict[str, Any]:
        """GET /healthz: {"status": "ok", "datasets": N, "version": ...}."""
        return self._json("GET", "/healthz")

    def datasets(self) -> List[Dict[str, Any]]:
        """The datasets this key may use, with their rules' sha256 and version."""
        return self._json("GET", "/v1/datasets")["datasets"]

    def runs(self, dataset: str, limit: int = 100) -> List[Dict[str, Any]]:
        """The recorded runs of `dataset`, newest first (from the run store)."""
        return self._json("GET", "/v1/runs", params={"dataset": dataset, "limit": limit})["runs"]

    def prometheus(self) -> str:
        """GET /metrics: the Prometheus text exposition."""
        return self._request("GET", "/metrics")[0].decode()

    def validate(self, dataset: str, data: Any, *, content_type: Optional[str] = None,
                 max_violations: int = DEFAULT_MAX_VIOLATIONS, store: bool = True,
                 batch_hash: Optional[str] = None) -> Dict[str, Any]:
        """Validate `data` with the dataset's rules; the CLI's JSON report as a dict.

        `data`: bytes or str (give `content_type`: text/csv, text/tab-separated-values,
        application/x-ndjson, application/vnd.apache.arrow.stream), a path (the type
        from its extension), or Arrow data (sent as an Arrow IPC stream).
        `batch_hash` lets a later metrics() call name this batch instead of sending it."""
        if isinstance(data, os.PathLike) or (isinstance(data, str) and content_type is None and os.path.isfile(data)):
            path = os.fspath(data)
            content_type = content_type or _CONTENT_TYPES.get(os.path.splitext(path)[1].lower())
            if content_type is None:
                raise ValueError("%s: unknown extension; give content_type=" % path)
            with open(path, "rb") as f:
                body = f.read()
        elif isinstance(data, (bytes, bytearray, memoryview, str)):
            if content_type is None:
                raise ValueError("validate() of bytes or text needs content_type=")
            body = data.encode() if isinstance(data, str) else bytes(data)
        else:
            body, content_type = _arrow_ipc(data), "application/vnd.apache.arrow.stream"
        return self._json("POST", "/v1/datasets/%s/validate" % urllib.parse.quote(dataset, safe=""), body=body,
                          content_type=content_type,
                          params={"max_violations": max_violations, "store": store, "batch_hash": batch_hash})

    def metrics(self, dataset: str, *, step: Optional[int] = None, loss: Optional[float] = None,
                metrics: Optional[Dict[str, float]] = None, records: Optional[Sequence[Dict[str, Any]]] = None,
                batch_hash: Optional[str] = None, run: Optional[str] = None) -> Dict[str, Any]:
        """POST /metrics: {"quality_score", "passed", "reasons", "data_score", "telemetry_score"}.
        Non-finite floats (a NaN loss) are sent as the strings Griffin parses."""
        payload: Dict[str, Any] = {"dataset": dataset, "step": step, "loss": _finite_or_text(loss),
                                   "metrics": {k: _finite_or_text(v) for k, v in (metrics or {}).items()}}
        if records is not None:
            payload["records"] = [{k: _finite_or_text(v) for k, v in r.items()} for r in records]
        if batch_hash is not None:
            payload["batch_hash"] = batch_hash
        if run is not None:
            payload["run"] = run
        body = json.dumps(payload, allow_nan=False).encode()
        return self._json("POST", "/metrics", body=body, content_type="application/json")

    # --- Arrow Flight -------------------------------------------------------

    def _flight_client(self) -> Any:
        import pyarrow.flight as flight

        if self._flight_url is None:
            raise ValueError("Client(..., flight_url='grpc://host:port') is needed for Arrow Flight")
        if self._flight is None:
            kwargs = {"tls_root_certs": self._tls_root_certs} if self._tls_root_certs else {}
            self._flight = flight.FlightClient(self._flight_url, **kwargs)
        return self._flight

    def _call_options(self) -> Any:
        import pyarrow.flight as flight

        headers = [(b"authorization", ("Bearer " + self._api_key).encode())] if self._api_key else []
        return flight.FlightCallOptions(headers=headers, timeout=self._timeout)

    def _descriptor(self, dataset: str, batch_hash: Optional[str], max_violations: int, store: bool) -> Any:
        import pyarrow.flight as flight

        command = {"dataset": dataset, "max_violations": max_violations, "store": store}
        if batch_hash is not None:
            command["batch_hash"] = batch_hash
        return flight.FlightDescriptor.for_command(json.dumps(command))

    def exchange(self, dataset: str, batches: Iterable[Any], *, batch_hash: Optional[str] = None,
                 max_violations: int = DEFAULT_MAX_VIOLATIONS, store: bool = True) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
        """Arrow Flight DoExchange: streams `batches` (pyarrow RecordBatches of
        one schema), reading each one's results before sending the next.
        Returns (one result dict per batch: batch, first_row, rows, bad_rows,
        checks), the final report)."""
        client = self._flight_client()
        writer, reader = client.do_exchange(self._descriptor(dataset, batch_hash, max_violations, store),
                                            options=self._call_options())
        results: List[Dict[str, Any]] = []
        with writer:
            started = False
            for batch in batches:
                if not started:
                    writer.begin(batch.schema)
                    started = True
                writer.write_batch(batch)
                results.extend(reader.read_chunk().data.to_pylist())
            if not started:
                raise ValueError("exchange() needs at least one batch (for the schema)")
            writer.done_writing()
            final = reader.read_chunk()
        return results, json.loads(final.app_metadata.to_pybytes())

    def put(self, dataset: str, data: Any, *, batch_hash: Optional[str] = None,
            max_violations: int = DEFAULT_MAX_VIOLATIONS,
            store: bool = True) -> Dict[str, Any]:
        """Arrow Flight DoPut: uploads a pyarrow Table (or RecordBatch), validates
        and records it; returns the report."""
        import pyarrow as pa

        table = pa.Table.from_batches([data]) if isinstance(data, pa.RecordBatch) else data
        client = self._flight_client()
        writer, reader = client.do_put(self._descriptor(dataset, batch_hash, max_violations, store), table.schema,
                                       options=self._call_options())
        with writer:
            writer.write_table(table)
            writer.done_writing()
            answer = reader.read()
        return json.loads(answer.to_pybytes())

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def close(self) -> None:
        with self._lock:
            self._close_connection()
        if self._flight is not None:
            self._flight.close()
            self._flight = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<griffin.Client %s%s>" % (self.url, " flight=" + self._flight_url if self._flight_url else "")


def _finite_or_text(value: Any) -> Any:
    """A float that JSON cannot hold (nan, inf) as the text Griffin parses."""
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if hasattr(value, "item") and not isinstance(value, (list, dict)):  # numpy / jax scalars
        return _finite_or_text(value.item())
    return value
