"""Tables: parse, snapshot and query times on a large CSV (the 20 MiB cap).

    .venv/bin/python bench/table_queries.py [--megabytes 20] [--runs 5]

Builds a CSV of about `--megabytes` MiB (an integer id, a zero-padded code, a name, a price, a
boolean, a date, a city and a quoted note per row), then times, median of `--runs`: parse_csv (type
inference included), to_snapshot, from_snapshot (what a query's first read of a table costs), a
two-filter query and a `contains` query over every row, and the formula-safe download.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from docsvc.lookup_tables import download, from_snapshot, parse_csv, query, to_snapshot

CITIES = ["London", "Paris", "Berlin", "Madrid", "Rome", "Vienna", "Oslo", "Lisbon"]


def build_csv(megabytes: float) -> bytes:
    generator, out = random.Random(7), io.StringIO()
    out.write("id,code,name,price,active,since,city,note\n")
    row = 0
    while out.tell() < megabytes * 1024 * 1024 - 200:  # stays under the cap
        row += 1
        out.write(
            f"{row},{row % 100000:05d},Customer {generator.randint(1, 50000)},"
            f"{generator.randint(100, 999999) / 100:.2f},{generator.choice(['true', 'false'])},"
            f"20{generator.randint(10, 25)}-{generator.randint(1, 12):02d}-{generator.randint(1, 28):02d},"
            f'{generator.choice(CITIES)},"note, number {row}"\n'
        )
    return out.getvalue().encode()


def timed(runs: int, action: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--megabytes", type=float, default=20.0, help="at most 20 (the cap)")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    content = build_csv(arguments.megabytes)
    seconds, table = timed(arguments.runs, lambda: parse_csv(content))
    print(
        f"CSV: {len(content) / 1024 / 1024:.1f} MiB, {len(table.rows):,} rows, {len(table.columns)} columns"
    )
    print(f"  parse_csv       {seconds:7.3f} s")
    seconds, snapshot = timed(arguments.runs, lambda: to_snapshot(table))
    print(f"  to_snapshot     {seconds:7.3f} s  ({len(snapshot) / 1024 / 1024:.1f} MiB of JSON)")
    seconds, _ = timed(arguments.runs, lambda: from_snapshot(snapshot))
    print(f"  from_snapshot   {seconds:7.3f} s")
    two = [
        {"column": "city", "operator": "eq", "value": "Oslo"},
        {"column": "price", "operator": "gt", "value": 5000},
    ]
    seconds, (_, total) = timed(arguments.runs, lambda: query(table, two, limit=100))
    print(f"  query eq + gt   {seconds:7.3f} s  ({total:,} matches)")
    like = [{"column": "name", "operator": "contains", "value": "customer 4242"}]
    seconds, (_, total) = timed(arguments.runs, lambda: query(table, like, limit=100))
    print(f"  query contains  {seconds:7.3f} s  ({total:,} matches)")
    seconds, _ = timed(arguments.runs, lambda: download(content))
    print(f"  download (safe) {seconds:7.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
