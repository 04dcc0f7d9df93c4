"""The Python peer of griffin stream (bench/run_stream_bench.py): a transactional
consume-validate-produce loop with confluent-kafka, the 13 checks of
bench/stream.rules.yaml as a pydantic model. Clean messages to --to, the others to
--dead-letter with their errors; offsets committed in each transaction. Exits when
it has consumed --count messages.

    python bench/tools/stream_peer.py --broker H:P --from raw --to clean --dead-letter dlq --group g --count N
"""
import argparse
import datetime
import json
import re
from typing import Literal, Optional

from confluent_kafka import Consumer, KafkaException, Producer
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")


class Event(BaseModel):
    txn_id: str = Field(pattern=r"^TX[0-9]{10}$")                      # type, not_null, regex
    account_id: str                                                      # not_null
    amount: Optional[float] = Field(default=None, ge=-1e6, le=1e6)       # type, min, max
    currency: Optional[Literal["USD", "EUR", "GBP", "JPY"]] = None       # in
    email: Optional[str] = None                                          # regex (warn: not rejected)
    label: Optional[Literal[0, 1]] = None                                # type int64, in
    created_at: Optional[datetime.datetime] = None                       # type timestamp
    country: Optional[str] = Field(default=None, min_length=2, max_length=2)  # length
    kind: Optional[str] = None

    @field_validator("email")
    @classmethod
    def email_warns_only(cls, value):
        EMAIL.match(value or "")  # evaluated, never rejects (severity warn)
        return value

    @model_validator(mode="after")
    def refunds_are_negative(self):
        if self.kind == "refund" and self.amount is not None and not self.amount < 0:
            raise ValueError("refunds_are_negative")
        return self


def produce(producer, topic, message, headers):
    while True:
        try:
            producer.produce(topic, value=message.value(), key=message.key(), partition=message.partition(),
                             headers=headers)
            return
        except BufferError:  # the queue is full: let deliveries drain
            producer.poll(0.05)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--broker", "--from", "--to", "--dead-letter", "--group"):
        parser.add_argument(name, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--batch-records", type=int, default=10000)
    parser.add_argument("--batch-ms", type=int, default=100)
    parser.add_argument("--no-validate", action="store_true",
                        help="skip the model: every message is clean (run_stream_bench.py --floor)")
    args = parser.parse_args()
    consumer = Consumer({"bootstrap.servers": args.broker, "group.id": args.group,
                         "isolation.level": "read_committed", "enable.auto.commit": False,
                         "auto.offset.reset": "earliest"})
    producer = Producer({"bootstrap.servers": args.broker, "transactional.id": f"peer.{args.group}",
                         "linger.ms": 5})
    producer.init_transactions(30)
    consumer.subscribe([getattr(args, "from")])
    consumed = 0
    while consumed < args.count:
        messages = consumer.consume(args.batch_records, args.batch_ms / 1000)
        messages = [m for m in messages if m.error() is None]
        if not messages:
            continue
        producer.begin_transaction()
        for message in messages:
            try:
                if not args.no_validate:
                    Event.model_validate_json(message.value())
                produce(producer, args.to, message, None)
            except ValidationError as error:
                produce(producer, args.dead_letter, message,
                        [("griffin-errors", json.dumps([e["msg"] for e in error.errors()]))])
        producer.send_offsets_to_transaction(consumer.position(consumer.assignment()),
                                             consumer.consumer_group_metadata(), 30)
        producer.commit_transaction(60)
        consumed += len(messages)
    consumer.close()


if __name__ == "__main__":
    try:
        main()
    except KafkaException as error:
        raise SystemExit(f"stream_peer: {error}")
