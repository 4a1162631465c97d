package io.hdfl.device;

import io.hdfl.federation.FederationException;
import io.hdfl.federation.Topics;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Tells when two devices run under the same peer id. Each process publishes a retained token on
 * {@code hdfl/F/peers/<id>/instance} ({@link Topics#peerInstance}): the wall-clock time it publishes
 * it (at start and again after every reconnect) and a random number of its own, which it keeps in
 * its state directory for the next start. A token of another process published after this one
 * started (and not more than a day ahead of this clock) can only come from a second device with this
 * id: {@link #twin()} then fails, naming the id. The token of this device's previous process is
 * known by its number, so neither a late delivery of it nor a clock stepped back since (a Pi without
 * a real-time clock after a power cut) is taken for a twin. With duplicate ids both devices take each
 * other's MQTT connection (one client id), forked ledgers follow, and before the twenty-second
 * session both could end "successfully". Tokens that do not parse are ignored (anyone may publish
 * there without a broker ACL; with one, only this id's user may).
 */
final class PeerInstance {
  private static final System.Logger LOG = System.getLogger("io.hdfl.device");

  /** How far ahead of this clock a token may be dated and still count (a forged one: never). */
  private static final long MAX_AHEAD_MS = 24L * 3600 * 1000;
  /** The file in the state directory that keeps the number of this device's last process. */
  static final String FILE = "instance";

  private final String peerId;
  private final long nonce = new java.security.SecureRandom().nextLong();
  private final long previous;
  private final long startedAt;
  private final LongSupplier clock;
  private final CompletableFuture<Void> twin = new CompletableFuture<>();
  /** Completed when this process's own token comes back from the broker (or the check is off). */
  private final CompletableFuture<Void> ownTokenBack = new CompletableFuture<>();
  /** False where the broker refused the subscription to the instance topic: no check, no token back. */
  private volatile boolean watching = true;

  private PeerInstance(String peerId, LongSupplier clock, long previous) {
    this.peerId = peerId;
    this.clock = clock;
    this.previous = previous;
    this.startedAt = clock.getAsLong();
  }

  /**
   * Subscribes to this peer's instance topic and publishes its token (again after each reconnect; a
   * publish lost with the connection is not an error); {@code clock} gives the wall-clock time in
   * milliseconds.
   */
  static PeerInstance watch(Transport t, Topics topics, String peerId, LongSupplier clock, java.nio.file.Path stateDir)
      throws java.io.IOException {
    return watch(t, topics, peerId, clock, stateDir, () -> { });
  }

  /**
   * As {@link #watch(Transport, Topics, String, LongSupplier, java.nio.file.Path)}, running {@code
   * onOwnToken} on the thread that handles this process's token when it comes back from the broker
   * (registered before the token is published; at once, on this thread, where the broker refuses the
   * topic).
   */
  static PeerInstance watch(Transport t, Topics topics, String peerId, LongSupplier clock, java.nio.file.Path stateDir,
      Runnable onOwnToken) throws java.io.IOException {
    java.nio.file.Path file = stateDir.resolve(FILE);
    long previous = 0;
    try {
      previous = Long.parseUnsignedLong(java.nio.file.Files.readString(file, StandardCharsets.US_ASCII).strip(), 16);
    } catch (java.nio.file.NoSuchFileException | NumberFormatException e) {
      // a first start, or a damaged file: no earlier token to know
    }
    PeerInstance p = new PeerInstance(peerId, clock, previous);
    p.ownTokenBack.thenRun(onOwnToken);
    byte[] own = Long.toHexString(p.nonce).getBytes(StandardCharsets.US_ASCII);
    io.hdfl.io.AtomicFile.write(file, out -> out.write(own));
    String topic = topics.peerInstance(peerId);
    try {
      t.subscribe(topic, 1, (top, payload, retained) -> p.onToken(new String(payload, StandardCharsets.US_ASCII)));
    } catch (TransportException e) {
      // a broker whose ACL predates this topic may refuse it: the run goes on without the check
      LOG.log(System.Logger.Level.WARNING, "peer " + peerId + ": cannot watch " + topic + " for a second device "
          + "under this peer id (" + e.getMessage() + "); does the broker's ACL allow it (deploy/mosquitto/acl)?");
      p.watching = false;
      p.ownTokenBack.complete(null); // nothing to wait for
      return p;
    }
    Runnable publish = () -> {
      try {
        p.publish(t, topic);
      } catch (TransportException e) {
        // lost meanwhile (a twin takes this connection, say): the next reconnect publishes it
      }
    };
    t.onReconnected(publish);
    publish.run();
    return p;
  }

  /**
   * Waits up to {@code max} for this process's token to come back from the broker. The broker sends a
   * connection's messages in order, and they are handled in order: once it is back, so are the
   * retained messages of every subscription this connection made before {@link #watch} (MQTT orders
   * messages per topic only; Mosquitto and Moquette send a connection's messages in the order they
   * have them). Returns whether it came back, or at once, true, where the broker refused the topic.
   */
  boolean awaitOwnToken(java.time.Duration max) throws InterruptedException {
    try {
      ownTokenBack.get(max.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      return false; // the publish refused by the broker's ACL, or lost with a reconnect
    }
  }

  /** Whether the broker took the subscription to this peer's instance topic (else the check is off). */
  boolean watching() {
    return watching;
  }

  /** Fails once another device has shown itself under this peer id; never completes otherwise. */
  CompletableFuture<Void> twin() {
    return twin;
  }

  private void publish(Transport t, String topic) throws TransportException {
    t.publish(topic, token(clock.getAsLong()).getBytes(StandardCharsets.US_ASCII), 1, true);
  }

  private String token(long at) {
    return at + " " + Long.toHexString(nonce);
  }

  private void onToken(String text) {
    String[] p = text.split(" ");
    if (p.length != 2 || p[0].length() > 19 || p[1].length() > 16) {
      return;
    }
    long at;
    long other;
    try {
      at = Long.parseLong(p[0]);
      other = Long.parseUnsignedLong(p[1], 16);
    } catch (NumberFormatException e) {
      return;
    }
    if (other == nonce) {
      ownTokenBack.complete(null);
      return;
    }
    if (other == previous || at < startedAt || at > clock.getAsLong() + MAX_AHEAD_MS) {
      return; // this process's own or the previous one's, published before it started, or implausibly late
    }
    if (twin.completeExceptionally(new FederationException("another device runs as peer.id '" + peerId
        + "' (it announced itself at " + java.time.Instant.ofEpochMilli(at) + ", after this one started): two "
        + "devices share this id, take each other's broker connection and fork the ledger; give each device its "
        + "own peer.id and state.dir"))) {
      LOG.log(System.Logger.Level.ERROR, "peer " + peerId + ": another device runs under this peer id");
    }
  }
}
