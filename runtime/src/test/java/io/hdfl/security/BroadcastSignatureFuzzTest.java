package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeFuzzTest;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Fuzz target of {@link BroadcastSignature#verify} on the envelopes a star client decodes from a
 * broadcast (the roster of {@link FuzzRoster}, keys read from its files). Only the envelope
 * decoder's {@link io.hdfl.codec.EnvelopeException} or a {@link SealException} (not admitted, bad
 * signature) may escape; an accepted broadcast names an admitted, unrevoked sender and carries
 * exactly the signature that sender's key makes (Ed25519 is deterministic): nothing else verifies.
 */
public class BroadcastSignatureFuzzTest {
  private static final Set<String> ADMITTED = Set.of("peer-a", "peer-b", "peer-c");
  private static final Expectations CLIENT = Expectations.builder().federation(FuzzRoster.FEDERATION)
      .maxFrameBytes(1 << 20).maxLedgerLines(64).build();

  @FuzzTest(maxDuration = "60s")
  void verify(byte[] frame) throws Exception {
    byte[] fixed = EnvelopeFuzzTest.withValidCrc(frame); // so that mutations reach the signature check
    Contract.allocatesAtMost((1 << 20) + 64L * frame.length, "verifying " + frame.length + " bytes", () -> {
      check(frame);
      if (fixed != null) {
        check(fixed);
      }
    });
  }

  static void check(byte[] frame) {
    ModelEnvelope env = EnvelopeFuzzTest.check(frame, CLIENT);
    if (env == null) {
      return;
    }
    try {
      BroadcastSignature.verify(env, FuzzRoster.ROSTER);
    } catch (SealException e) {
      Contract.oneLine(e);
      assertTrue(e.reason() == SealException.Reason.NOT_ADMITTED || e.reason() == SealException.Reason.BAD_SIGNATURE,
          e.reason()::toString);
      return;
    }
    assertTrue(ADMITTED.contains(env.sender()), env.sender());
    byte[] unsigned = EnvelopeCodec.encode(env.withSignature(null));
    assertArrayEquals(FuzzRoster.SIGNING.get(env.sender()).signature(unsigned), env.signature());
  }

  /** Broadcasts signed with the fixed keys, and ones refused for each reason. */
  public static List<Seed> seeds() {
    ModelEnvelope global = model(Kind.GLOBAL_MODEL, "peer-b");
    List<Seed> s = new ArrayList<>();
    s.add(seed("global-signed-by-peer-b", BroadcastSignature.signedFrame(global, FuzzRoster.SIGNING.get("peer-b"))));
    s.add(seed("final-signed-by-peer-a", BroadcastSignature.signedFrame(model(Kind.FINAL_MODEL, "peer-a"),
        FuzzRoster.SIGNING.get("peer-a"))));
    s.add(seed("signed-by-revoked-peer-r", BroadcastSignature.signedFrame(model(Kind.GLOBAL_MODEL, "peer-r"),
        FuzzRoster.SIGNING.get("peer-r"))));
    s.add(seed("unsigned", EnvelopeCodec.encode(global)));
    byte[] byOther = FuzzRoster.SIGNING.get("peer-c").signature(EnvelopeCodec.encode(global));
    s.add(seed("peer-b-model-signed-by-peer-c", EnvelopeCodec.encode(global.withSignature(byOther))));
    ModelEnvelope unknown = model(Kind.GLOBAL_MODEL, "peer-x");
    byte[] sig = FuzzRoster.SIGNING.get("peer-a").signature(EnvelopeCodec.encode(unknown));
    s.add(seed("unknown-sender-peer-x", EnvelopeCodec.encode(unknown.withSignature(sig))));
    return s;
  }

  private static ModelEnvelope model(Kind kind, String sender) {
    return new ModelEnvelope(kind, FuzzRoster.FEDERATION, sender, 2, 2, "cos", 617, 42, 3, 2, 0.25, 400,
        List.of(), null, new float[] {0.5f, -1, 2, 0, 3.25f, -0.125f});
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(BroadcastSignatureFuzzTest.class, "verify", name, bytes);
  }
}
