"""The QualityGate's client for the Griffin service's POST /metrics (and
POST /v1/datasets/{dataset}/validate, for files sent as they are): a
persistent HTTP/1.1 connection, a deadline per call, and exponential backoff
with full jitter on 429, 5xx and connection failures (Retry-After, when the
server sends one, is a floor for the next wait).

Wait before retry k (k = 0, 1, ...): uniform(0, min(backoff_max,
backoff_base * 2**k)), raised to Retry-After when that is larger. A wait that
would reach the deadline ends the call at once with QualityServiceError (no try
is sent with no time left); its message names the last failure and the last
HTTP answer. 4xx other than 429 are not retried.
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
    refused the request (the message says which, with the last status).
    `reason` is the service's own one-line message for a refusal, else None."""

    def __init__(self, message: str, status: Optional[int] = None, attempts: int = 0,
                 reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.reason = reason


class MetricsClient:
    def __init__(self, url: str, api_key: Optional[str] = None, *, deadline: float = 5.0,
                 request_timeout: float = 1.0, backoff_base: float = 0.05, backoff_max: float = 2.0,
                 rng: Optional[random.Random] = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("url: expected http://host:port or https://host:port, got %r" % url)
        if not (deadline > 0 and request_timeout > 0):
            raise ValueError("deadline and request_timeout: expected seconds > 0, got %r and %r"
                             % (deadline, request_timeout))
        self._scheme, self._host, self._port = parsed.scheme, parsed.hostname, parsed.port
        self._root = parsed.path.rstrip("/")
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

    def _attempt(self, target: str, body: bytes, content_type: str,
                 timeout: float) -> Tuple[int, Dict[str, str], bytes]:
        headers = {"Content-Type": content_type, "Connection": "keep-alive"}
        if self._api_key:
            headers["Authorization"] = "Bearer " + self._api_key
        connection = self._connect(timeout)
        try:
            connection.request("POST", target, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def post_metrics(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        """POST /metrics with `payload` (JSON numbers must be finite: send NaN
        and infinities as the strings "nan", "inf", "-inf")."""
        body = json.dumps(payload, allow_nan=False, default=_json_default).encode()
        return self.post("/metrics", body, "application/json")

    def validate(self, dataset: str, body: bytes, content_type: str, batch_hash: str) -> Dict[str, Any]:
        """POST /v1/datasets/{dataset}/validate of a file's bytes, remembered
        under `batch_hash` for the next POST /metrics; not recorded as a run
        (store=false), no violations listed. The answer is the JSON report."""
        query = urllib.parse.urlencode({"batch_hash": batch_hash, "store": "false", "max_violations": 0})
        return self.post("/v1/datasets/%s/validate?%s" % (urllib.parse.quote(dataset, safe=""), query), body,
                         content_type)

    def post(self, route: str, body: bytes, content_type: str) -> Dict[str, Any]:
        """POST `route` (under the url's path) with retries until the deadline;
        the JSON answer of a 200, else QualityServiceError."""
        path = self._root + route
        name = path.split("?")[0]     # for messages
        end = self._clock() + self._deadline
        attempt = 0
        last = "no attempt"
        answer: Optional[str] = None      # the last HTTP answer, kept when a later try fails in transport
        status: Optional[int] = None      # the last HTTP status the service answered
        wait = 0.0
        while True:
            left = end - self._clock()
            if attempt > 0 and wait >= left:
                # The next try could not start before the deadline: end now rather
                # than sleep to the deadline and send a request with no time left.
                if answer is not None and answer != last:
                    last += "; last answer: " + answer
                raise QualityServiceError("POST %s: no answer within the %.3g s deadline after %d attempt(s); last: %s"
                                          % (name, self._deadline, attempt, last), status, attempt)
            if wait > 0:
                self.waits.append(wait)
                self._sleep(wait)
                left = end - self._clock()
            retry_after = 0.0
            try:
                code, headers, data = self._attempt(path, body, content_type,
                                                    max(0.001, min(self._request_timeout, left)))
            except (OSError, http.client.HTTPException) as e:
                last = "%s: %s" % (type(e).__name__, e)
            else:
                status = code
                if code == 200:
                    try:
                        return json.loads(data)
                    except ValueError as e:
                        raise QualityServiceError("POST %s: the answer is not JSON: %s" % (name, e), code,
                                                  attempt + 1) from e
                reason = _reason(data)
                last = answer = "HTTP %d %s" % (code, reason)
                if code != 429 and code < 500:
                    raise QualityServiceError("POST %s refused: %s" % (name, last), code, attempt + 1, reason)
                retry_after = _retry_after(headers.get("retry-after"))
            wait = max(self._rng.uniform(0, min(self._cap, self._base * (2 ** attempt))), retry_after)
            attempt += 1


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
