package io.hdfl.federation;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.security.Roster;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a model a peer refused for its settings (encoder, features, basis seed, D) is one an
 * admitted peer signed: then the federation's peers are configured apart, and waiting cannot help.
 * A star client whose windows have 40 features under an aggregator configured for 900 refused every
 * global model, logged each and waited until its run timeout (an hour by default); a ring device
 * configured apart from the rest refused their final model likewise. Only a broadcast (a global or a
 * final model) signed under the roster counts (hops encrypted): without signatures anyone could send
 * such a model, and it is refused as before. A ring model refused on a device's inbox does not count:
 * there the sender may be the device configured apart, and its successors, stopping one after the
 * other, would end the run; the final model tells, where other peers than its sender took part in it
 * (a ring's first peer configured apart, refused by every other, publishes its own model as final).
 */
public final class SettingsMismatch {
  private SettingsMismatch() {}

  /**
   * What differs, as a sentence for the device's stop, where {@code payload} (refused with {@code e})
   * is a {@code kind} model of this federation signed by an admitted peer, of a round from {@code
   * firstRound} to the run's last (an older one is stale); else null. The caller leaves out models the
   * broker retained from before it subscribed, which may be an earlier run's.
   */
  public static String ofSigned(PeerContext ctx, byte[] payload, EnvelopeException e, ModelEnvelope.Kind kind,
      int firstRound) {
    return ofSigned(ctx, payload, e, kind, firstRound, env -> true);
  }

  /**
   * {@link #ofSigned(PeerContext, byte[], EnvelopeException, ModelEnvelope.Kind, int)} for a model that
   * also passes {@code tells} (whether it speaks for the federation: a ring's final model that other
   * peers took part in, not one a lone peer configured apart published after everyone refused it).
   */
  public static String ofSigned(PeerContext ctx, byte[] payload, EnvelopeException e, ModelEnvelope.Kind kind,
      int firstRound, java.util.function.Predicate<ModelEnvelope> tells) {
    switch (e.reason()) {
      case WRONG_ENCODER, WRONG_FEATURES, WRONG_BASIS_SEED, WRONG_DIMENSION -> { }
      default -> {
        return null;
      }
    }
    if (!ctx.encrypted()) {
      return null;
    }
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(payload, Expectations.builder().federation(ctx.settings().federation()).build());
    } catch (EnvelopeException other) {
      return null;
    }
    if (env.kind() != kind || env.round() < firstRound || env.round() > ctx.settings().rounds()
        || ctx.broadcastProblem(env) != null || !tells.test(env)) {
      return null;
    }
    var mine = ctx.settings().encoder();
    List<String> differ = new ArrayList<>();
    if (!env.encoder().equals(mine.kind().id())) {
      differ.add("encoder " + io.hdfl.codec.EnvelopeException.quoted(env.encoder()) + " (this device: "
          + mine.kind().id() + ")");
    }
    if (env.features() != mine.features()) {
      differ.add("features " + env.features() + " (this device: " + mine.features() + ")");
    }
    if (env.basisSeed() != mine.basisSeed()) {
      differ.add("basis.seed " + env.basisSeed() + " (this device: " + mine.basisSeed() + ")");
    }
    if (env.dim() != mine.dim()) {
      differ.add("dim " + env.dim() + " (this device: " + mine.dim() + ")");
    }
    if (differ.isEmpty()) {
      return null; // refused for something else after all
    }
    return described(env) + ", signed by an admitted peer, has other settings than this "
        + "device's: " + String.join(", ", differ) + ". Every peer of a federation must have the same encoder, "
        + "features (for live data: channels x window.size), basis.seed and dim";
  }

  /**
   * Why a model {@code env} of another class count than this device's {@code classes} is refused: "the
   * global model of round 1 from 'agg' has 4 classes, this device's 'classes' 3".
   */
  public static String ofClasses(ModelEnvelope env, int classes) {
    return described(env) + " has " + env.classes() + " classes, this device's 'classes' " + classes;
  }

  /**
   * The sentence for a device's stop when {@code env}, signed by an admitted peer (checked by the caller)
   * and announced live, has another class count than this device's {@code classes}.
   */
  public static String stopForClasses(ModelEnvelope env, int classes) {
    return ofClasses(env, classes) + ". Every peer of a federation must have the same classes";
  }

  /** "the final model of round 3 from 'press-02'". */
  private static String described(ModelEnvelope env) {
    return "the " + env.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " of round " + env.round()
        + " from " + Roster.quoted(env.sender());
  }
}
