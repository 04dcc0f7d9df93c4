#!/usr/bin/env python3
"""Seeded generator of a synthetic payments feed with realistic faults.

    python examples/generate_transactions.py --rows 20000 --seed 42 --out examples/transactions.csv

The output format follows the extension of --out: .csv, .jsonl or .parquet, with an
optional .gz or .zst after .csv/.jsonl. The same --rows/--seed give the same bytes.

Columns and their faults (rates are per row, approximate):
  txn_id      TX + 10 digits; 0.8% repeat an earlier id (a replayed record; half of
              those also repeat its account_id and created_at); 0.01% malformed
  account_id  AC + 6 digits; 0.05% empty
  amount      2-decimal float; refunds negative; 1.5% of refunds positive, 0.3% of
              other kinds negative, 0.05% NaN, 0.01% above 1e6, 0.02% empty,
              0.01% unparseable ("12,50", "N/A")
  currency    USD/EUR/GBP/JPY; 0.5% unknown (XXX, lower case, US$)
  email       2% empty, 1.2% malformed (no @, two @, a space, no TLD)
  kind        purchase/refund/transfer; 0.02% other spellings
  label       0/1, ~2% fraud (1); 0.02% empty, 0.01% other values ("2", "1.0")
  created_at  ISO timestamps in 2024; 0.3% impossible dates or garbage, 0.01% in 2031
  merchant    names, some needing CSV quoting (a comma, quotes) or multi-byte UTF-8
  country     ISO-2 codes; 0.1% three-letter codes
CSV output also holds a few malformed records (a missing or an extra field, ~0.01%,
at least one per 10,000 rows). All work is vectorized (numpy + pyarrow.compute), in
chunks of CHUNK_ROWS rows, so 10M rows (~1 GB of CSV) take seconds, not minutes.
"""
import argparse
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

CHUNK_ROWS = 1_000_000
COLUMNS = ["txn_id", "account_id", "amount", "currency", "email", "kind", "label",
           "created_at", "merchant", "country"]
ID_MULTIPLIER = 2_654_435_761  # odd and not a multiple of 5: a bijection mod 10**10
EPOCH_2024 = 1_704_067_200     # 2024-01-01T00:00:00Z
SECONDS_2024 = 366 * 86_400

MERCHANTS = ["Amazon", "Walmart", "Target", "Costco", "Tesco", "Aldi", "Lidl", "IKEA",
             "Uber", "Lyft", "Netflix", "Spotify", "Apple", "Google", "Shell", "BP",
             "Starbucks", "McDonald's", "Acme, Inc.", 'The "Best" Deli', "Café Müller",
             "Bäckerei Schäfer", "東京ラーメン", "Zara", "H&M", "Decathlon", "Booking.com",
             "Airbnb", "Etsy", "eBay"]
COUNTRIES = ["US", "GB", "DE", "FR", "JP", "ES", "IT", "NL", "CA", "AU"]
BAD_COUNTRIES = ["USA", "GBR", "DEU"]
CURRENCIES = ["USD", "EUR", "GBP", "JPY"]
CURRENCY_WEIGHTS = [0.5, 0.25, 0.15, 0.10]
BAD_CURRENCIES = ["XXX", "usd", "eur", "US$", "gbp"]
KINDS = ["purchase", "refund", "transfer"]
KIND_WEIGHTS = [0.85, 0.08, 0.07]
FIRST = ["john", "mary", "wei", "li", "ana", "jose", "fatima", "olga", "sam", "yuki",
         "amir", "emma", "noah", "mia", "ravi", "zoe"]
LAST = ["smith", "garcia", "chen", "ivanova", "kim", "muller", "rossi", "sato", "khan",
        "brown", "lopez", "novak"]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "shop.example.co.uk"]
BAD_EMAILS = ["john.smith.example.com", "mary@@example.com", "wei chen@example.com",
              "li@example", "ana@example.", "@example.com", "jose@exa mple.com"]
BAD_DATES = ["2024-02-30T10:15:00Z", "2023-13-01T00:00:00Z", "2024-06-31T08:00:00Z",
             "2024-04-31 12:00:00", "31/12/2024", "yesterday", "2024-11-05T25:00:00Z"]
BAD_AMOUNTS = ["12,50", "N/A", "1.2.3"]
BAD_TXN_IDS = ["TX123", "tx0000000001", "TX-000000001", "0000000000"]
BAD_KINDS = ["Purchase", "chargeback", "REFUND"]
BAD_LABELS = ["2", "-1", "1.0", "true"]


def _csv_quote(text):
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _pick(rng, vocab, n, weights=None):
    """n strings drawn from vocab (a pyarrow string array) with numpy weights."""
    idx = rng.choice(len(vocab), size=n, p=weights)
    return vocab.take(pa.array(idx)), idx


def _replace(rng, base, mask, vocab):
    """base with the masked rows replaced by random picks from vocab."""
    replacement, _ = _pick(rng, pa.array(vocab), len(base))
    return pc.if_else(pa.array(mask), replacement, base)


def _null_where(base, mask):
    return pc.if_else(pa.array(mask), pa.scalar(None, pa.string()), base)


def _digits(values, width):
    return pc.utf8_lpad(pc.cast(pa.array(values), pa.string()), width, "0")


def generate_chunk(seed, chunk_index, start_row, n):
    """One chunk as a dict of columns: text columns (pa.string, null = empty field),
    plus 'amount_value' (float64), 'label_value' (int64), 'merchant_idx' (numpy)."""
    rng = np.random.default_rng([seed, chunk_index])
    local = np.arange(n, dtype=np.int64)
    # Replayed records: row i repeats an earlier row src[i] of the same chunk.
    dup = (rng.random(n) < 0.008) & (local > 0)
    src = np.where(dup, (rng.random(n) * local).astype(np.int64), local)
    full_replay = dup & (rng.random(n) < 0.5)
    row_of = lambda values: np.where(full_replay, values[src], values)  # noqa: E731

    ids = ((start_row + src) * ID_MULTIPLIER + seed * 7_777_777) % 10**10
    txn_id = pc.binary_join_element_wise("TX", _digits(ids, 10), "")
    txn_id = _replace(rng, txn_id, rng.random(n) < 0.0001, BAD_TXN_IDS)

    accounts = max(1000, (start_row + n) // 20)
    account = row_of(rng.integers(0, min(accounts, 10**6), n))
    account_id = pc.binary_join_element_wise("AC", _digits(account, 6), "")
    account_id = _null_where(account_id, rng.random(n) < 0.0005)

    kind, kind_idx = _pick(rng, pa.array(KINDS), n, KIND_WEIGHTS)
    kind = _replace(rng, kind, rng.random(n) < 0.0002, BAD_KINDS)
    amount = np.round(rng.lognormal(3.5, 1.2, n), 2)
    is_refund = kind_idx == 1
    flip = np.where(is_refund, rng.random(n) >= 0.015, rng.random(n) < 0.003)
    amount = np.where(flip, -amount, amount)
    fault = rng.random(n)
    amount = np.where(fault < 0.0005, np.nan, amount)
    huge = (fault >= 0.0005) & (fault < 0.0006)
    amount = np.where(huge, np.round(rng.uniform(1e6, 5e7, n), 2), amount)
    amount_text = pc.if_else(pa.array(np.isnan(amount)), "NaN",
                             pc.cast(pa.array(amount), pa.string()))
    amount_null = (fault >= 0.0006) & (fault < 0.0008)
    amount_bad = (fault >= 0.0008) & (fault < 0.0009)
    amount_text = _replace(rng, _null_where(amount_text, amount_null), amount_bad, BAD_AMOUNTS)
    amount_value = pa.array(np.where(amount_null | amount_bad, np.nan, amount),
                            mask=amount_null | amount_bad)

    currency, _ = _pick(rng, pa.array(CURRENCIES), n, CURRENCY_WEIGHTS)
    currency = _replace(rng, currency, rng.random(n) < 0.005, BAD_CURRENCIES)

    first, _ = _pick(rng, pa.array(FIRST), n)
    last, _ = _pick(rng, pa.array(LAST), n)
    domain, _ = _pick(rng, pa.array(DOMAINS), n)
    number = pc.cast(pa.array(rng.integers(1, 1000, n)), pa.string())
    email = pc.binary_join_element_wise(first, ".", last, number, "@", domain, "")
    fault = rng.random(n)
    email = _replace(rng, email, fault < 0.012, BAD_EMAILS)
    email = _null_where(email, (fault >= 0.012) & (fault < 0.032))

    label = (rng.random(n) < 0.02).astype(np.int64)
    label_null = rng.random(n) < 0.0002
    label_bad = rng.random(n) < 0.0001
    label_text = _replace(rng, pc.cast(pa.array(label), pa.string()), label_bad, BAD_LABELS)
    label_text = _null_where(label_text, label_null)
    label_value = pa.array(label, mask=label_null | label_bad)

    seconds = row_of(EPOCH_2024 + rng.integers(0, SECONDS_2024, n))
    fault = rng.random(n)
    seconds = np.where(fault < 0.0001, seconds + 7 * 365 * 86_400, seconds)  # year 2031
    stamps = pc.cast(pa.array(seconds.astype("datetime64[s]")), pa.string())
    created_at = pc.binary_join_element_wise(pc.utf8_replace_slice(stamps, 10, 11, "T"), "Z", "")
    created_at = _replace(rng, created_at, (fault >= 0.0001) & (fault < 0.0031), BAD_DATES)

    merchant_idx = rng.integers(0, len(MERCHANTS), n)
    country, _ = _pick(rng, pa.array(COUNTRIES), n)
    country = _replace(rng, country, rng.random(n) < 0.001, BAD_COUNTRIES)

    return {"txn_id": txn_id, "account_id": account_id, "amount": amount_text,
            "currency": currency, "email": email, "kind": kind, "label": label_text,
            "created_at": created_at, "country": country, "merchant_idx": merchant_idx,
            "amount_value": amount_value, "label_value": label_value}


def _array_bytes(lines):
    """The concatenated bytes of a string array (each element already ends in \\n)."""
    lines = pc.cast(lines, pa.large_string()) if lines.type != pa.large_string() else lines
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:]
    return lines.buffers()[2][offsets[0]:offsets[len(lines)]]


def csv_lines(chunk, rng):
    n = len(chunk["txn_id"])
    merchants = pa.array([_csv_quote(m) for m in MERCHANTS]).take(pa.array(chunk["merchant_idx"]))
    fields = [pc.fill_null(chunk[c], "") if c != "merchant" else merchants for c in COLUMNS]
    line = pc.binary_join_element_wise(*fields, ",")
    # Malformed records: one field short (currency dropped) or one field extra.
    short = pc.binary_join_element_wise(*(fields[:3] + fields[4:]), ",")
    extra = pc.binary_join_element_wise(*fields, "note: manual entry", ",")
    roll = rng.random(n)
    every = np.zeros(n, dtype=bool)
    every[5000::10_000] = True
    line = pc.if_else(pa.array((roll < 0.00005) | every), short, line)
    line = pc.if_else(pa.array((roll >= 0.00005) & (roll < 0.0001)), extra, line)
    return pc.binary_join_element_wise(line, "", "\n")


def _json_string(values):
    escaped = pc.replace_substring(pc.replace_substring(values, "\\", "\\\\"), '"', '\\"')
    return pc.fill_null(pc.binary_join_element_wise('"', escaped, '"', ""), "null")


def jsonl_lines(chunk):
    merchants = pa.array(MERCHANTS).take(pa.array(chunk["merchant_idx"]))
    parts = []
    for name in COLUMNS:
        if name == "merchant":
            value = _json_string(merchants)
        elif name == "label":
            value = pc.fill_null(chunk["label"], "null")
        elif name == "amount":  # a number when it parses, else the text as a JSON string
            text = chunk["amount"]
            numeric = pc.and_(pc.is_valid(chunk["amount_value"]),
                              pc.invert(pc.is_nan(pc.fill_null(chunk["amount_value"], 0.0))))
            value = pc.if_else(numeric, text, _json_string(text))
        else:
            value = _json_string(chunk[name])
        parts.append(pc.binary_join_element_wise(f'"{name}":', value, ""))
    body = pc.binary_join_element_wise(*parts, ",")
    return pc.binary_join_element_wise("{", body, "}\n", "")


def parquet_table(chunk):
    merchants = pa.array(MERCHANTS).take(pa.array(chunk["merchant_idx"]))
    special = {"amount": chunk["amount_value"], "label": chunk["label_value"], "merchant": merchants}
    return pa.table({c: special.get(c, chunk.get(c)) for c in COLUMNS})


def open_output(path):
    if path.endswith(".gz"):
        return pa.CompressedOutputStream(path, "gzip"), path[:-3]
    if path.endswith(".zst"):
        return pa.CompressedOutputStream(path, "zstd"), path[:-4]
    return pa.OSFile(path, "wb"), path


def write(rows, seed, out):
    """Writes `rows` generated rows to `out`; returns the number of bytes written."""
    if out.endswith(".parquet"):
        writer = None
        for chunk_index, start in enumerate(range(0, rows, CHUNK_ROWS)):
            table = parquet_table(generate_chunk(seed, chunk_index, start, min(CHUNK_ROWS, rows - start)))
            writer = writer or pq.ParquetWriter(out, table.schema)
            writer.write_table(table)
        if writer is None:
            pq.write_table(parquet_table(generate_chunk(seed, 0, 0, 0)), out)
        else:
            writer.close()
        return None
    sink, inner = open_output(out)
    kind = inner.rsplit(".", 1)[-1]
    if kind not in ("csv", "jsonl"):
        raise SystemExit(f"{out}: unsupported extension (.csv .jsonl .parquet, + .gz/.zst)")
    with sink:
        if kind == "csv":
            sink.write(",".join(COLUMNS).encode() + b"\n")
        for chunk_index, start in enumerate(range(0, rows, CHUNK_ROWS)):
            chunk = generate_chunk(seed, chunk_index, start, min(CHUNK_ROWS, rows - start))
            if kind == "csv":
                lines = csv_lines(chunk, np.random.default_rng([seed, chunk_index, 1]))
            else:
                lines = jsonl_lines(chunk)
            sink.write(_array_bytes(lines))
        return sink.tell()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--out", required=True, help=".csv .jsonl .parquet, optionally .gz/.zst")
    args = parser.parse_args(argv)
    write(args.rows, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
