#!/usr/bin/env bash
# A throwaway single-node Apache Kafka broker for the streaming tests.
#
#   scripts/kafka_test_cluster.sh start   # fetches the jars if needed, starts it; prints host:port
#   scripts/kafka_test_cluster.sh uri     # prints host:port of the running broker
#   scripts/kafka_test_cluster.sh restart # stops the broker process and starts it again on the same data and ports
#   scripts/kafka_test_cluster.sh crash   # kills the broker process (SIGKILL), keeps its data and ports; restart brings it back
#   scripts/kafka_test_cluster.sh stop    # stops it (SIGTERM, then SIGKILL after 30 s) and removes its folder
#
#   export GRIFFIN_TEST_KAFKA=$(scripts/kafka_test_cluster.sh start)
#
# Kafka 4.4.0 (scripts/setup_kafka.sh: jars from Maven Central, cached outside the
# clone) in KRaft combined mode (broker and controller in one JVM, Java 17), in a
# fresh temp folder, listening on 127.0.0.1 only: the client listener on the first
# free port from 59092 (or $GRIFFIN_KAFKA_PORT), the controller on the next free one.
# One node, so the internal topics (consumer offsets, transaction state, share
# groups) have replication factor 1 and min ISR 1. Topics are not created on use:
# a test creates its own (a missing topic is an error the tests check).
# `start` returns when the broker answers on its port and has logged that it started
# (60 s at most). State (folder, ports, pid) is kept in $GRIFFIN_KAFKA_STATE
# (default ${TMPDIR:-/tmp}/griffin-kafka-test.state). `start` on a running broker
# prints its address again. The JVM logs its GC pauses to $DIR/gc.log (the stream
# latency bench reads them); $GRIFFIN_KAFKA_JVM_OPTS adds JVM options.
set -euo pipefail
cd "$(dirname "$0")"

STATE=${GRIFFIN_KAFKA_STATE:-${TMPDIR:-/tmp}/griffin-kafka-test.state}
JAVA=${JAVA:-java}
START_TIMEOUT_S=60

die() { echo "kafka_test_cluster: $*" >&2; exit 1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

next_free_port() {
  local port=$1 tries=0
  while port_in_use "$port"; do
    port=$((port + 1)); tries=$((tries + 1))
    [[ $tries -lt 200 ]] || die "no free port from $1"
  done
  echo "$port"
}

read_state() {
  [[ -f "$STATE" ]] || return 1
  # shellcheck disable=SC1090
  source "$STATE"
  [[ -n "${DIR:-}" && -n "${PORT:-}" && -n "${PID:-}" && -d "$DIR" ]]
}

running() { kill -0 "$PID" 2>/dev/null && port_in_use "$PORT"; }

write_config() {
  cat >"$DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DIR/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.flush.interval.messages=9223372036854775807
message.max.bytes=16777216
PROPS
  cat >"$DIR/log4j2.properties" <<PROPS
rootLogger.level=INFO
rootLogger.appenderRef.file.ref=file
appender.file.type=File
appender.file.name=file
appender.file.fileName=$DIR/server.log
appender.file.layout.type=PatternLayout
appender.file.layout.pattern=[%d] %p %m (%c)%n
PROPS
}

jvm_args() {
  # The GC log (pauses, with wall-clock times) lets a latency run see the broker's stalls;
  # $GRIFFIN_KAFKA_JVM_OPTS (words) come last, so they win (another GC, heap sizes).
  local extra=()
  read -r -a extra <<<"${GRIFFIN_KAFKA_JVM_OPTS:-}"
  JVM=(-Xms256m -Xmx768m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "-Xlog:gc:file=$DIR/gc.log:time"
       "${extra[@]}" "-Dlog4j2.configurationFile=$DIR/log4j2.properties" -cp "$LIBS/*")
}

# Starts the broker on the formatted $DIR and waits until it serves; returns 1
# when it exited (a port taken between the check and the bind, most likely).
launch() {
  # The last runs' logs go to server.earlier.log (a test that crashes and restarts the
  # broker can then be read afterwards); server.log starts empty for the start check.
  [ -s "$DIR/server.log" ] && cat "$DIR/server.log" >>"$DIR/server.earlier.log"
  : >"$DIR/server.log"
  # setsid: the broker outlives this script and is not hit by the caller's Ctrl-C.
  setsid "$JAVA" "${JVM[@]}" kafka.Kafka "$DIR/server.properties" >"$DIR/stdout.log" 2>&1 </dev/null &
  PID=$!
  printf 'DIR=%q\nPORT=%q\nCONTROLLER_PORT=%q\nPID=%q\n' "$DIR" "$PORT" "$CONTROLLER_PORT" "$PID" >"$STATE"
  local waited=0
  while kill -0 "$PID" 2>/dev/null && [[ $waited -lt $((START_TIMEOUT_S * 5)) ]]; do
    if port_in_use "$PORT" && grep -q "Kafka Server started" "$DIR/server.log" 2>/dev/null; then
      return 0
    fi
    sleep 0.2; waited=$((waited + 1))
  done
  if kill -0 "$PID" 2>/dev/null; then
    tail -n 30 "$DIR/server.log" >&2 || true
    stop_broker
    die "the broker did not start within ${START_TIMEOUT_S}s"
  fi
  return 1
}

start() {
  if read_state && running; then echo "127.0.0.1:$PORT"; return; fi
  if read_state; then stop_broker; fi
  LIBS=$(./setup_kafka.sh)
  command -v "$JAVA" >/dev/null || die "java not found (install openjdk-17-jre-headless)"
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/griffin-kafka.XXXXXX")
  jvm_args
  local port=${GRIFFIN_KAFKA_PORT:-59092} attempt
  for attempt in 1 2 3 4 5; do
    PORT=$(next_free_port "$port")
    CONTROLLER_PORT=$(next_free_port $((PORT + 1)))
    write_config
    rm -rf "$DIR/data"
    # Without eligible leader replicas (KIP-966, on by default since Kafka 4.1): with them,
    # a SIGKILLed broker (the tests' broker loss) restarts with its partitions leaderless,
    # the group coordinator's among them, since an unclean election would be needed and
    # internal topics refuse it; the lone replica of this one-node cluster is then never
    # leader again. Without them, the last in-sync replica stays the leader, as before 4.1.
    "$JAVA" "${JVM[@]}" kafka.tools.StorageTool format --standalone \
      --feature eligible.leader.replicas.version=0 \
      -t "$(cat /proc/sys/kernel/random/uuid | tr -d - | head -c 22)" \
      -c "$DIR/server.properties" >"$DIR/format.log" 2>&1 \
      || { cat "$DIR/format.log" >&2; die "formatting the storage failed"; }
    if launch; then echo "127.0.0.1:$PORT"; return; fi
    grep -q "Address already in use" "$DIR/server.log" "$DIR/stdout.log" 2>/dev/null \
      || { tail -n 30 "$DIR/server.log" "$DIR/stdout.log" >&2 || true; stop_broker; die "the broker exited at start"; }
    port=$((CONTROLLER_PORT + 1))
  done
  stop_broker
  die "no free port pair found"
}

restart() {
  read_state || die "no broker to restart (state: $STATE)"
  LIBS=$(./setup_kafka.sh)
  jvm_args
  stop_process
  launch || { tail -n 30 "$DIR/server.log" "$DIR/stdout.log" >&2 || true; die "the broker did not come back"; }
  echo "127.0.0.1:$PORT"
}

stop_process() {
  if kill -0 "$PID" 2>/dev/null; then
    kill -TERM "$PID" 2>/dev/null || true
    local waited=0
    while kill -0 "$PID" 2>/dev/null && [[ $waited -lt 150 ]]; do sleep 0.2; waited=$((waited + 1)); done
    kill -KILL "$PID" 2>/dev/null || true
    while kill -0 "$PID" 2>/dev/null; do sleep 0.1; done
  fi
}

stop_broker() {
  stop_process
  rm -rf "$DIR"
  rm -f "$STATE"
}

case "${1:-}" in
  start) start ;;
  restart) restart ;;
  crash) read_state || die "no broker to crash (state: $STATE)"
         kill -KILL "$PID" 2>/dev/null || true; while kill -0 "$PID" 2>/dev/null; do sleep 0.1; done ;;
  uri) read_state && running || die "no broker running (state: $STATE)"; echo "127.0.0.1:$PORT" ;;
  stop) if read_state; then stop_broker; else rm -f "$STATE"; fi ;;
  *) echo "usage: $0 start|uri|restart|crash|stop" >&2; exit 2 ;;
esac
