package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.security.SealException.Reason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BroadcastSignatureTest {
  private static final PeerKeys AGG = PeerKeys.generate("aggregator");
  private static final PeerKeys MALLORY = PeerKeys.generate("mallory");
  private static final Roster ROSTER = Roster.of(Map.of(), Map.of("aggregator", AGG.publicKey()));

  private static ModelEnvelope global(String sender, float first) {
    float[] p = new float[2 * 8];
    p[0] = first;
    return new ModelEnvelope(ModelEnvelope.Kind.GLOBAL_MODEL, "plant-7", sender, 3, 3, "cos", 4, 42L, 8, 2, 2.5, 40,
        List.of("{\"v\":1}"), null, p);
  }

  private static ModelEnvelope received(byte[] frame) {
    return EnvelopeCodec.decode(frame, Expectations.defaults());
  }

  private static Reason reason(ModelEnvelope env) {
    return assertThrows(SealException.class, () -> BroadcastSignature.verify(env, ROSTER)).reason();
  }

  @Test
  void aSignedBroadcastVerifiesAndAnyChangeBreaksIt() throws Exception {
    ModelEnvelope ok = received(BroadcastSignature.signedFrame(global("aggregator", 1f), AGG));
    assertEquals(64, ok.signature().length);
    BroadcastSignature.verify(ok, ROSTER);
    float[] altered = ok.prototypes().clone();
    altered[0] = 1.0001f;
    assertEquals(Reason.BAD_SIGNATURE, reason(new ModelEnvelope(ok.kind(), ok.federation(), ok.sender(), ok.round(),
        ok.step(), ok.encoder(), ok.features(), ok.basisSeed(), ok.dim(), ok.classes(), ok.presentVariance(),
        ok.samplesAbsorbed(), ok.ledgerLines(), ok.signature(), altered)));
    assertEquals(Reason.BAD_SIGNATURE, reason(ok.withSignature(null)));
    assertEquals(Reason.BAD_SIGNATURE, reason(new ModelEnvelope(ok.kind(), ok.federation(), ok.sender(), ok.round() + 1,
        ok.step(), ok.encoder(), ok.features(), ok.basisSeed(), ok.dim(), ok.classes(), ok.presentVariance(),
        ok.samplesAbsorbed(), ok.ledgerLines(), ok.signature(), ok.prototypes())), "a replayed model with a new round");
  }

  @Test
  void onlyAdmittedSendersSignedByTheirOwnKeyAreAccepted() {
    assertEquals(Reason.NOT_ADMITTED, reason(received(BroadcastSignature.signedFrame(global("mallory", 1f), MALLORY))));
    // mallory's signature on a model claiming to come from the aggregator
    ModelEnvelope forged = global("aggregator", 9f);
    byte[] sig = MALLORY.signature(EnvelopeCodec.encode(forged));
    assertEquals(Reason.BAD_SIGNATURE, reason(received(EnvelopeCodec.encode(forged.withSignature(sig)))));
    assertThrows(IllegalArgumentException.class, () -> BroadcastSignature.signedFrame(global("aggregator", 1f), MALLORY));
  }

  /** Found by BroadcastSignatureFuzzTest: the claimed sender went into the refusal's log line as it was. */
  @Test
  void aForgedSenderCannotBreakOrForgeLogLines() {
    ModelEnvelope forged = received(EnvelopeCodec.encode(global("x\nhdfl: accepted the global model from aggregator", 1f)
        .withSignature(new byte[64])));
    SealException e = assertThrows(SealException.class, () -> BroadcastSignature.verify(forged, ROSTER));
    assertEquals(Reason.NOT_ADMITTED, e.reason());
    assertEquals("peer 'x\\u000ahdfl: accepted the global model from aggregator' has no signing key in the roster",
        e.getMessage());
    SealException unsigned = assertThrows(SealException.class, () -> BroadcastSignature.verify(
        global("aggregator", 1f).withSignature(null), Roster.of(Map.of(), Map.of("aggregator", AGG.publicKey()))));
    assertEquals("an unsigned GLOBAL_MODEL from 'aggregator'", unsigned.getMessage());
  }
}
