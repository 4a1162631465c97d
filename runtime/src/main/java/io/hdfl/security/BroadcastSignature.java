package io.hdfl.security;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.PeerKeys;

/**
 * Signatures of broadcast models (the star's global model, the final model): they go to every
 * subscriber, so they cannot be sealed for one recipient; when hops are encrypted they are signed
 * instead, and receivers accept only those signed by an admitted peer. The Ed25519 signature covers
 * the envelope's float32 encoding with an empty signature field, and travels in that field.
 */
public final class BroadcastSignature {
  private BroadcastSignature() {}

  /** The frame of {@code env} signed by {@code keys} (whose id must be the envelope's sender). */
  public static byte[] signedFrame(ModelEnvelope env, PeerKeys keys) {
    if (!keys.peerId().equals(env.sender())) {
      throw new IllegalArgumentException("'" + keys.peerId() + "' cannot sign a model sent by '" + env.sender() + "'");
    }
    byte[] unsigned = EnvelopeCodec.encode(env.withSignature(null));
    return EnvelopeCodec.encode(env.withSignature(keys.signature(unsigned)));
  }

  /**
   * Checks that {@code env} carries its sender's valid signature and that the sender is admitted.
   *
   * @throws SealException ({@link SealException.Reason#NOT_ADMITTED} or {@link
   *     SealException.Reason#BAD_SIGNATURE}) otherwise
   */
  public static void verify(ModelEnvelope env, Roster roster) throws SealException {
    var key = roster.signingKey(env.sender());
    if (env.signature().length == 0) {
      throw new SealException(SealException.Reason.BAD_SIGNATURE, "an unsigned " + env.kind() + " from "
          + Roster.quoted(env.sender()));
    }
    byte[] unsigned = EnvelopeCodec.encode(env.withSignature(null));
    if (!PeerKeys.verify(key, unsigned, env.signature())) {
      throw new SealException(SealException.Reason.BAD_SIGNATURE, "the " + env.kind() + " from "
          + Roster.quoted(env.sender()) + " does not verify under its roster key (altered, or signed by someone else)");
    }
  }
}
