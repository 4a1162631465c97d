package io.hdfl.federation;

import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.PrototypeTrainer;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.NoiseRecord;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.NoiseDraw;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoiseDecision;
import io.hdfl.privacy.schedule.NoisePolicy;
import io.hdfl.privacy.schedule.ScheduleMode;

/**
 * One peer's update of a model, the same for a ring peer and a star client: learn from local
 * encodings (bundle new samples, then perceptron retraining), add the noise the policy decides, and
 * sign the ledger entry that records it.
 */
final class LocalUpdate {
  /** The outcome: the noise decision, the draw that realised it, and the signed ledger line. */
  record Outcome(NoiseDecision decision, NoiseDraw draw, LedgerLine line) {
    ModelNoiseState after() {
      return decision.after();
    }
  }

  private final PeerContext ctx;
  private final PrivacyLedger signer;
  private final NoisePolicy policy;
  private final PrototypeTrainer trainer;
  /** Thread CPU (ns) of the noise drawn ahead since {@link #takeAheadCpuNanos} was last called. */
  private long aheadCpuNanos;

  LocalUpdate(PeerContext ctx, NoisePolicy policy) {
    this.ctx = ctx;
    this.signer = ctx.signer();
    this.policy = policy;
    this.trainer = new PrototypeTrainer(ctx.kernels(), ctx.settings().similarity());
  }

  /**
   * Trains {@code model} in place on {@code data} (bundling it first when {@code bundle}, then the
   * settings' retraining epochs), adds noise for {@code data.size()} new samples (or {@code
   * countedSamples} when given ≥ 0) on top of {@code before}, and signs the entry chained to {@code
   * prevHash}.
   */
  Outcome apply(ClassPrototypes model, EncodedSet data, boolean bundle, long countedSamples, ModelNoiseState before,
      int round, long step, String prevHash, long shuffleSeed) {
    return apply(model, data, bundle ? data : null, ctx.settings().retrainEpochs(), countedSamples, before, round,
        step, prevHash, shuffleSeed);
  }

  /**
   * As above, bundling {@code toBundle} (null: nothing; e.g. only the windows that arrived since the
   * previous turn) before {@code epochs} retraining passes over all of {@code data} (0: bundling only).
   */
  Outcome apply(ClassPrototypes model, EncodedSet data, EncodedSet toBundle, int epochs, long countedSamples,
      ModelNoiseState before, int round, long step, String prevHash, long shuffleSeed) {
    if (toBundle != null) {
      trainer.bundle(model, toBundle);
    }
    trainer.retrain(model, data, epochs, shuffleSeed, null);
    long newSamples = countedSamples >= 0 ? countedSamples : data.size();
    NoiseDecision d = policy.decide(before, newSamples);
    NoiseDraw draw = ctx.noise().add(model.vectors(), d.added());
    model.recomputeNorms();
    LedgerEntry.Source source = ctx.noise().forDeployment() ? LedgerEntry.Source.SECURE : LedgerEntry.Source.SEEDED;
    long bundled = toBundle == null ? 0 : Math.min(toBundle.size(), d.samplesAdded());
    LedgerLine line = signer.sign(ctx.keys(), NoiseRecord.update(ctx.id(), round, step, d.samplesAdded(),
        d.samplesTotal(), bundled, d.required(), d.presentBefore(), d.added(), d.presentAfter(), source, d.reason()),
        prevHash);
    return new Outcome(d, draw, line);
  }

  /**
   * Draws ahead the randomness of this peer's next noise, for a model of {@code values} values, while
   * it waits for its next turn ({@link io.hdfl.privacy.noise.NoiseSource#prepare}); nothing without
   * privacy. The variance expected is the policy's decision for {@code samples} new samples after
   * {@code others} updates by other peers from {@code from}, absorbing {@code othersSamples} samples
   * between them (split evenly): in a ring that is what the peers absorbed in the last cycle, which
   * foresees the next one as long as every peer takes its turn with the same data. A wrong guess costs
   * only the draws, which a source whose draws depend on the variance (secure) forgets. A negative
   * {@code others}: the noise state of the next model cannot be foreseen (a star's global model), and
   * the variance is given as unknown.
   */
  void prepareNext(int values, ModelNoiseState from, long samples, int others, long othersSamples) {
    if (policy.mode() == ScheduleMode.NONE) {
      return;
    }
    double expected = Double.NaN;
    if (others >= 0) {
      ModelNoiseState s = from;
      for (int i = 0; i < others; i++) {
        s = policy.decide(s, othersSamples / others + (i < othersSamples % others ? 1 : 0)).after();
      }
      expected = policy.decide(s, samples).added();
    }
    long cpu0 = ThreadCpu.nanos();
    ctx.noise().prepare(values, expected);
    aheadCpuNanos += ThreadCpu.nanos() - cpu0;
  }

  /**
   * The thread CPU (ns) of the noise drawn ahead ({@link #prepareNext}) since the last call, and
   * starts counting again: a peer counts it in the report of the turn the noise is for.
   */
  long takeAheadCpuNanos() {
    long n = aheadCpuNanos;
    aheadCpuNanos = 0;
    return n;
  }
}
