package io.hdfl.device;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.federation.PeerContext;
import io.hdfl.federation.RingPeer;
import io.hdfl.federation.SettingsMismatch;
import io.hdfl.io.Sha256;
import io.hdfl.transport.MessageHandler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Which final model a device takes as its run's (README "Run a peer", "Crash safety"): one of this
 * run's, checked (its kind, the signature of an admitted peer where hops are encrypted, this device's
 * class count) — not one the broker still retains from an earlier run under the same federation id.
 * Those are told apart two ways. Digests remembered in the state directory ({@code
 * previous-final.ckpt}): the finished run's own after {@code --new-run}, and those ignored by an
 * earlier start of this run. And order, on a start with nothing to resume: a final model that arrives
 * before this device's own instance token has come back through the broker ({@link #settle}, called
 * on the thread that handles both) was there before the device subscribed; it is ignored, and its
 * digest is to be remembered ({@link #ignoredNow}). Before the twenty-third session such a device took
 * it at once, saved it and ended, an aggregator with an empty ledger.
 */
final class FinalModelIntake implements MessageHandler {
  /** A final model taken: its envelope and the SHA-256 of its frame. */
  record FinalFrame(ModelEnvelope envelope, String sha256) {}

  private final PeerContext ctx;
  private final int classes;
  private final Set<String> remembered;
  private final Path stateDir;
  private final Consumer<String> log;
  private final AtomicBoolean settled;
  /** Whether this device's own token came back: only then can a model be told live from one held before. */
  private final AtomicBoolean tokenBack = new AtomicBoolean();
  private final List<String> ringOrder;
  private final Set<String> ignored = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final List<String> ignoredInOrder = java.util.Collections.synchronizedList(new ArrayList<>());
  private final AtomicBoolean toldRemembered = new AtomicBoolean();
  private final AtomicBoolean toldEarlier = new AtomicBoolean();
  private final AtomicBoolean toldUnfit = new AtomicBoolean();
  private final AtomicReference<RingPeer> ring = new AtomicReference<>();
  private final CompletableFuture<FinalFrame> taken = new CompletableFuture<>();

  /**
   * @param classes this device's class count ({@code classes})
   * @param remembered the digests in {@code previous-final.ckpt}
   * @param resuming whether this start resumes a run (then order tells nothing: it is settled at once)
   * @param ringOrder a ring device's order (empty for other roles): a ring device configured apart from
   *     the peers that took part in a signed final model stops ({@link #apartFrom})
   */
  FinalModelIntake(PeerContext ctx, int classes, Set<String> remembered, boolean resuming, Path stateDir,
      Consumer<String> log, List<String> ringOrder) {
    this.ctx = ctx;
    this.ringOrder = List.copyOf(ringOrder);
    this.classes = classes;
    this.remembered = Set.copyOf(remembered);
    this.stateDir = stateDir;
    this.log = log;
    this.settled = new AtomicBoolean(resuming);
  }

  /** The final model taken. */
  CompletableFuture<FinalFrame> taken() {
    return taken;
  }

  /** The ring peer told of the final model before this device stops (a hand-off it gives up publishes no final). */
  void ringPeer(RingPeer peer) {
    ring.set(peer);
  }

  /** From now on a final model that passes the checks is taken: this device's own token is back. */
  void settle() {
    settled.set(true);
    tokenBack.set(true);
  }

  /**
   * From now on a final model that passes the checks is taken, although this device's token did not
   * come back: none stops the device as configured apart, since one the broker held before may look live.
   */
  void settleWithoutToken() {
    settled.set(true);
    tokenBack.set(false); // where the broker refused the instance topic, settle() came without a token
  }

  /** The digests of the final models ignored as an earlier run's by order, oldest first. */
  List<String> ignoredNow() {
    synchronized (ignoredInOrder) {
      return List.copyOf(ignoredInOrder);
    }
  }

  @Override
  public void onMessage(String topic, byte[] payload, boolean retained) {
    String digest = Sha256.hex(payload);
    if (ignored.contains(digest)) {
      return; // delivered again (a reconnect): said when it first came
    }
    if (remembered.contains(digest)) {
      if (!toldRemembered.getAndSet(true)) {
        log.accept("ignored an earlier run's final model, which the broker still retains on " + topic
            + " (this device noted it when this run began): this is a new run");
      }
      return;
    }
    boolean before = !settled.get(); // read once: the checks below take time
    // a ring's final model, signed, published while this device listened, under other settings: the run is
    // over for the peers that took part, and this device was configured apart from them
    boolean mayStop = !retained && tokenBack.get() && !ringOrder.isEmpty() && ctx.encrypted();
    String problem;
    ModelEnvelope env = null;
    try {
      env = EnvelopeCodec.decode(payload, ctx.expectations());
      problem = problem(env);
    } catch (EnvelopeException e) {
      problem = e.getMessage();
      String apart = !mayStop ? null
          : SettingsMismatch.ofSigned(ctx, payload, e, ModelEnvelope.Kind.FINAL_MODEL, 1, this::apartFrom);
      if (apart != null) {
        taken.completeExceptionally(new IllegalArgumentException(apart));
        return;
      }
    }
    if (problem == null && env.classes() != classes) {
      if (mayStop && env.round() <= ctx.settings().rounds() && apartFrom(env)) { // signed: checked above
        taken.completeExceptionally(new IllegalArgumentException(SettingsMismatch.stopForClasses(env, classes)));
        return;
      }
      problem = "it has " + env.classes() + " classes, this device's 'classes' " + classes
          + " (do the peers' 'classes' differ?)";
    }
    if (problem != null) {
      if (!before) {
        ctx.refused(ctx.id() + ": rejected a final model: " + problem);
      } else if (ignored.add(digest) && !toldUnfit.getAndSet(true)) {
        // an earlier run's under other settings (dim, classes, roster): no warning, it is nobody's mistake now;
        // not refused either when a reconnect delivers it again
        log.accept("ignored a final model the broker retains on " + topic + " from before this device started, "
            + "which does not fit this run (" + problem + ")");
      }
      return;
    }
    if (before) {
      if (ignored.add(digest)) {
        ignoredInOrder.add(digest);
      }
      if (!toldEarlier.getAndSet(true)) {
        log.accept("ignored the final model the broker retains on " + topic + ": it was there before this device, "
            + "with no run to resume in " + stateDir + ", subscribed, so it is an earlier run's (or this run's, if "
            + "the run ended before this device started); waiting for this run's (mosquitto_pub -t " + topic
            + " -r -n clears it, and each of its " + topic + "/part/<i> if it was kept in parts)");
      }
      return;
    }
    RingPeer peer = ring.get();
    if (peer != null) {
      peer.finalSeen(env); // before this device stops: a hand-off it gives up then publishes no final
    }
    taken.complete(new FinalFrame(env, digest));
  }

  /**
   * Whether {@code env}, a final model of other settings than this device's, shows this device apart
   * from the ring: its sender is of the ring's order, and the updates it carries are of a majority of
   * the other peers of the order, two at least. A ring's first peer configured apart, whose round-1
   * model every other peer refused, skips them all and publishes its own model as final; so may a few
   * peers configured alike but apart from the rest (a configuration rolled out to some devices only):
   * neither must stop the devices configured as most are.
   */
  boolean apartFrom(ModelEnvelope env) {
    if (!ringOrder.contains(env.sender())) {
      return false;
    }
    Set<String> took = new java.util.HashSet<>();
    for (String line : env.ledgerLines()) {
      try {
        took.add(io.hdfl.privacy.ledger.LedgerCodec.parse(line).peer());
      } catch (io.hdfl.privacy.ledger.LedgerFormatException e) {
        // not counted
      }
    }
    took.remove(ctx.id());
    took.retainAll(ringOrder);
    return took.size() >= Math.max(2, (ringOrder.size() - 1) / 2 + 1);
  }

  /** Why {@code env} is no final model of this run (its kind, its signature), or null. */
  private String problem(ModelEnvelope env) {
    if (env.kind() != ModelEnvelope.Kind.FINAL_MODEL) {
      return "it is a " + env.kind() + " envelope";
    }
    String unsigned = ctx.broadcastProblem(env);
    if (unsigned != null) {
      return unsigned;
    }
    return null;
  }
}
