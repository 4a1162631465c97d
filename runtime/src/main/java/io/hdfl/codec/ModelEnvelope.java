package io.hdfl.codec;

import java.util.List;
import java.util.Objects;

/**
 * What peers send each other: a model (or an acknowledgement) with everything the receiver must check
 * before it trusts it. Pure data; {@link EnvelopeCodec} turns it into bytes and back.
 *
 * @param kind what the message is
 * @param federation federation id (receivers reject other federations)
 * @param sender peer id of the sender
 * @param round round r (from 1)
 * @param step global step (ring: t = K(r−1)+k; star: the round); dedup key together with sender
 * @param encoder encoder id ({@code cos}, {@code sign}, {@code cos-bias}); peers must agree
 * @param features input features f; peers must agree
 * @param basisSeed the federation's basis seed; peers must agree
 * @param dim hypervector dimension D
 * @param classes classes S
 * @param presentVariance noise variance present in the model (per component), for the next accountant
 * @param samplesAbsorbed samples the model has absorbed (counted as the schedules count them)
 * @param ledgerLines signed ledger lines that travel with the model (exact bytes as stored)
 * @param signature the sender's Ed25519 signature over the envelope's float32 encoding without signature
 *     (broadcast models when hops are encrypted; see {@code io.hdfl.security.BroadcastSignature}), or empty
 * @param prototypes S×D row-major prototypes; empty for {@link Kind#ACK}
 */
public record ModelEnvelope(
    Kind kind,
    String federation,
    String sender,
    int round,
    long step,
    String encoder,
    int features,
    long basisSeed,
    int dim,
    int classes,
    double presentVariance,
    long samplesAbsorbed,
    List<String> ledgerLines,
    byte[] signature,
    float[] prototypes) {

  /** Message kinds. */
  public enum Kind {
    /** Ring: the model handed to the next peer. */
    RING_MODEL,
    /** Ring: application acknowledgement of a handoff (no tensor). */
    ACK,
    /** Star: the aggregator's global model for a round. */
    GLOBAL_MODEL,
    /** Star: a client's noised update. */
    CLIENT_UPDATE,
    /** The federation's final model. */
    FINAL_MODEL
  }

  /** This envelope with {@code signature} (null or empty: unsigned). */
  public ModelEnvelope withSignature(byte[] signature) {
    return new ModelEnvelope(kind, federation, sender, round, step, encoder, features, basisSeed, dim, classes,
        presentVariance, samplesAbsorbed, ledgerLines, signature, prototypes);
  }

  public ModelEnvelope {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(federation, "federation");
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(encoder, "encoder");
    ledgerLines = List.copyOf(ledgerLines);
    signature = signature == null ? new byte[0] : signature;
    prototypes = prototypes == null ? new float[0] : prototypes;
  }
}
