package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.FrameChannel;
import io.hdfl.federation.PeerContext;
import io.hdfl.federation.Topology;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.io.Sha256;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FinalModelIntakeTest {
  private static final String TOPIC = "hdfl/plant-7/model/final";
  private static final FederationSettings SETTINGS = FederationSettings.builder().topology(Topology.RING)
      .privacy(ScheduleMode.PRIVATEDFL).params(PrivacyParameters.withDelta0(64, 1.0, 1e-3))
      .encoder(new EncoderSpec(EncoderKind.COS, 4, 64, 7L)).rounds(3).retrainEpochs(1).federation("plant-7").seed(11)
      .build();

  private final List<String> said = new ArrayList<>();
  private PeerContext ctx;

  /** A final model frame of the federation's settings with {@code classes} classes; {@code mark} makes it unique. */
  private static byte[] finalFrame(int classes, float mark) {
    FederationSettings s = SETTINGS;
    float[] prototypes = new float[classes * s.encoder().dim()];
    prototypes[0] = mark;
    return EnvelopeCodec.encode(new ModelEnvelope(ModelEnvelope.Kind.FINAL_MODEL, s.federation(), "press-03", 3, 9,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), classes, 0.5, 90,
        List.of(), null, prototypes));
  }

  private FinalModelIntake intake(Set<String> remembered, boolean resuming) throws Exception {
    return intake(remembered, resuming, List.of());
  }

  private FinalModelIntake intake(Set<String> remembered, boolean resuming, List<String> ringOrder) throws Exception {
    Transport t = new LoopbackBroker().connect("press-01");
    ctx = new PeerContext("press-01", SETTINGS, t, null, null, VectorKernelsProvider.scalar(), r -> { },
        new FrameChannel(t, 0));
    return new FinalModelIntake(ctx, 3, remembered, resuming, Path.of("state/press-01"), said::add, ringOrder);
  }

  /** A final model from {@code sender} carrying one signed ledger line of each of {@code took}. */
  private static ModelEnvelope finalOf(String sender, List<String> took) {
    io.hdfl.privacy.ledger.PrivacyLedger signer = io.hdfl.privacy.ledger.PrivacyLedger.inMemory(
        SETTINGS.ledgerSettings());
    List<String> lines = new ArrayList<>();
    String prev = io.hdfl.privacy.ledger.LedgerEntry.GENESIS_HASH;
    long step = 1;
    for (String peer : took) {
      io.hdfl.privacy.ledger.LedgerLine line = signer.sign(io.hdfl.privacy.ledger.PeerKeys.generate(peer),
          io.hdfl.privacy.ledger.NoiseRecord.update(peer, 1, step, 10, 10 * step, 1.0, 0, 1.0, 1.0,
              io.hdfl.privacy.ledger.LedgerEntry.Source.SEEDED, "test"), prev);
      lines.add(line.text());
      prev = io.hdfl.privacy.ledger.LedgerCodec.hash(line.text());
      step++;
    }
    FederationSettings s = SETTINGS;
    return new ModelEnvelope(ModelEnvelope.Kind.FINAL_MODEL, s.federation(), sender, 1, step - 1,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), 3, 0.5, 90,
        lines, null, new float[3 * s.encoder().dim()]);
  }

  /**
   * A final model of other settings shows a ring device apart only where its sender is of the order and
   * a majority of the order's other peers (two at least) took part: a first peer configured apart,
   * refused by all, publishes a final of its own updates only, and a few peers configured alike but
   * apart from the rest one of theirs; neither tells the devices configured as most are to stop.
   */
  @Test
  void aFinalModelShowsADeviceApartOnlyWhereMostOfTheRingTookPart() throws Exception {
    FinalModelIntake three = intake(Set.of(), false, List.of("press-01", "press-02", "press-03"));
    assertTrue(three.apartFrom(finalOf("press-03", List.of("press-02", "press-03"))), "both others took part");
    assertFalse(three.apartFrom(finalOf("press-02", List.of("press-02", "press-02"))), "a lone first peer");
    assertFalse(three.apartFrom(finalOf("press-09", List.of("press-02", "press-03"))), "a sender not of the order");
    assertFalse(three.apartFrom(finalOf("press-03", List.of("press-01", "press-03"))), "this device does not count");
    List<String> five = List.of("press-01", "press-02", "press-03", "press-04", "press-05");
    FinalModelIntake ofFive = intake(Set.of(), false, five);
    assertFalse(ofFive.apartFrom(finalOf("press-03", List.of("press-02", "press-03"))), "two of four others");
    assertTrue(ofFive.apartFrom(finalOf("press-05", List.of("press-02", "press-03", "press-05"))), "three of four");
    assertFalse(ofFive.apartFrom(finalOf("press-05", List.of("press-02", "press-03", "press-07"))), "outsiders");
  }

  /**
   * Before the device's own token is back, a final model is an earlier run's: ignored, said once, its
   * digest given to be remembered, and ignored again when delivered again after that; a new one is
   * taken then.
   */
  @Test
  void aFinalModelHeldBeforeTheStartIsIgnoredAndOneAfterItTaken() throws Exception {
    FinalModelIntake in = intake(Set.of(), false);
    byte[] earlier = finalFrame(3, 1);
    in.onMessage(TOPIC, earlier, true);
    in.onMessage(TOPIC, earlier.clone(), true);
    assertEquals(List.of(Sha256.hex(earlier)), in.ignoredNow());
    assertEquals(1, said.size(), said.toString());
    assertTrue(said.get(0).startsWith("ignored the final model the broker retains on " + TOPIC + ": it was there "
        + "before this device"), said.get(0));
    in.settle();
    in.onMessage(TOPIC, earlier.clone(), true); // a reconnect delivers it again
    assertFalse(in.taken().isDone());
    byte[] ours = finalFrame(3, 2);
    in.onMessage(TOPIC, ours, false);
    assertTrue(in.taken().isDone());
    assertEquals(Sha256.hex(ours), in.taken().get().sha256());
    assertNull(ctx.frames().refusedSummary());
  }

  /** Digests remembered in the state directory are never taken, whether the start resumes or not. */
  @Test
  void aRememberedFinalModelIsNeverTaken() throws Exception {
    byte[] earlier = finalFrame(3, 1);
    FinalModelIntake in = intake(Set.of(Sha256.hex(earlier)), true);
    in.onMessage(TOPIC, earlier, true);
    assertFalse(in.taken().isDone());
    assertTrue(said.get(0).startsWith("ignored an earlier run's final model, which the broker still retains on "),
        said.toString());
    assertEquals(List.of(), in.ignoredNow());
    FinalModelIntake resumed = intake(Set.of(), true); // resuming: settled from the start
    resumed.onMessage(TOPIC, finalFrame(3, 3), true);
    assertTrue(resumed.taken().isDone());
  }

  /**
   * A final model that does not fit this device's settings: before the start it is an earlier run's
   * under other settings, said once and not refused; after it, refused with the reason.
   */
  @Test
  void aFinalModelThatDoesNotFitIsIgnoredBeforeTheStartAndRefusedAfter() throws Exception {
    FinalModelIntake in = intake(Set.of(), false);
    in.onMessage(TOPIC, finalFrame(4, 1), true);
    in.onMessage(TOPIC, "not a frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII), true);
    assertNull(ctx.frames().refusedSummary(), "nothing refused");
    assertEquals(1, said.size(), said.toString());
    assertTrue(said.get(0).contains("from before this device started, which does not fit this run (it has 4 "
        + "classes, this device's 'classes' 3"), said.get(0));
    assertEquals(List.of(), in.ignoredNow(), "only models of this run's settings are remembered");
    in.settle();
    in.onMessage(TOPIC, finalFrame(4, 1), true); // a reconnect delivers it again: still not refused
    assertNull(ctx.frames().refusedSummary(), "the earlier run's model delivered again");
    in.onMessage(TOPIC, finalFrame(4, 2), false);
    String refused = ctx.frames().refusedSummary();
    assertTrue(refused != null && refused.startsWith("1 frame(s) (the last: press-01: rejected a final model: it has "
        + "4 classes"), refused);
    assertFalse(in.taken().isDone());
    assertNull(in.taken().getNow(null));
  }
}
