"""The QualityGate's client for the Griffin service's POST /metrics: a
persistent HTTP/1.1 connection, a deadline per call, and exponential backoff
with full jitter on 429, 5xx and connection failures (Retry-After, when the
server sends one, is a floor for the next wait).

Wait before retry k (k = 0, 1, ...): uniform(0, min(backoff_max,
backoff_base * 2**k)), raised to Retry-After when that is larger, and cut to
what is left of the deadline. 4xx other than 429 are not retried.
"""
from __future__ import annotations

import http.client
import json
import random
import ssl
import time
import urllib.parse
from typing import Any, Callable, Dict, List, Optional, Tuple


class QualityServiceError(RuntimeError):
    """The quality service could not give an answer within the deadline, or
    refused the request (the message says which, with the last status)."""

    def __init__(self, message: str, status: Optional[int] = None, attempts: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class MetricsClient:
    def __init__(self, url: str, api_key: Optional[str] = None, *, deadline: float = 5.0,
                 request_timeout: float = 1.0, backoff_base: float = 0.05, backoff_max: float = 2.0,
                 rng: Optional[random.Random] = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("url: expected http://host:port or https://host:port, got %r" % url)
        self._scheme, self._host, self._port = parsed.scheme, parsed.hostname, parsed.port
        self._path = parsed.path.rstrip("/") + "/metrics"
        self._api_key = api_key
        self._deadline = deadline
        self._request_timeout = request_timeout
        self._base, self._cap = backoff_base, backoff_max
        self._rng = rng or random.Random()
        self._sleep, self._clock = sleep, clock
        self._ssl = ssl_context
        self._connection: Optional[http.client.HTTPConnection] = None
        self.waits: List[float] = []     # every backoff wait taken, in order (for tests and logs)

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        if self._connection is None:
            if self._scheme == "https":
                self._connection = http.client.HTTPSConnection(self._host, self._port, timeout=timeout,
                                                               context=self._ssl)
            else:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        self._connection.timeout = timeout
        if self._connection.sock is not None:
            self._connection.sock.settimeout(timeout)
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _attempt(self, body: bytes, timeout: float) -> Tuple[int, Dict[str, str], bytes]:
        headers = {"Content-Type": "application/json", "Connection": "keep-alive"}
        if self._api_key:
            headers["Authorization"] = "Bearer " + self._api_key
        connection = self._connect(timeout)
        try:
            connection.request("POST", self._path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def post_metrics(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        body = json.dumps(payload, allow_nan=False, default=_json_default).encode()
        end = self._clock() + self._deadline
        attempt = 0
        last = "no attempt"
        status: Optional[int] = None
        while True:
            left = end - self._clock()
            if left <= 0:
                raise QualityServiceError("POST %s: no answer within the %.3g s deadline after %d attempt(s); last: %s"
                                          % (self._path, self._deadline, attempt, last), status, attempt)
            retry_after = 0.0
            try:
                status, headers, data = self._attempt(body, min(self._request_timeout, left))
            except (OSError, http.client.HTTPException) as e:
                status, last = None, "%s: %s" % (type(e).__name__, e)
            else:
                if status == 200:
                    try:
                        return json.loads(data)
                    except ValueError as e:
                        raise QualityServiceError("POST %s: the answer is not JSON: %s" % (self._path, e), status,
                                                  attempt + 1) from e
                last = "HTTP %d %s" % (status, _reason(data))
                if status != 429 and status < 500:
                    raise QualityServiceError("POST %s refused: %s" % (self._path, last), status, attempt + 1)
                retry_after = _retry_after(headers.get("retry-after"))
            wait = self._rng.uniform(0, min(self._cap, self._base * (2 ** attempt)))
            wait = max(wait, retry_after)
            attempt += 1
            wait = min(wait, max(0.0, end - self._clock()))
            self.waits.append(wait)
            self._sleep(wait)


def _reason(data: bytes) -> str:
    try:
        return str(json.loads(data).get("error", ""))[:200]
    except (ValueError, AttributeError):
        return data[:200].decode("utf-8", "replace")


def _retry_after(value: Optional[str]) -> float:
    try:
        return max(0.0, float(value)) if value is not None else 0.0
    except ValueError:
        return 0.0     # an HTTP date: not honoured, the jittered wait applies


def _json_default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (bytes, bytearray)):
        return value.decode("utf-8", "replace")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError("cannot send a %s as JSON" % type(value).__name__)
