package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.Classifier;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.Evaluation;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.Predictions;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.local.LocalTraining;
import io.hdfl.local.TrainingConfig;
import io.hdfl.local.TrainingProgress;
import io.hdfl.local.TrainingReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accuracy cost of shipping prototypes as bfloat16: train on the shipped ISOLET split (cos
 * encoder, 20 retraining epochs, seed 42, cosine similarity, as `hdfl train` defaults), send the
 * prototypes through the codec as bfloat16, and classify the test set with both.
 */
class BFloat16IsoletTest {
  private static Dataset train;
  private static Dataset test;

  static Path shipped(String name) {
    Path rel = Path.of("data/isolet").resolve(name);
    Path p = Path.of(System.getProperty("hdfl.repo.root", ".")).resolve(rel);
    return Files.exists(p) ? p : Path.of("..").resolve(rel);
  }

  @BeforeAll
  static void load() throws Exception {
    train = Datasets.load(shipped("isolet5-train.choir_dat.gz"));
    test = Datasets.loadCompatible(shipped("isolet5-test.choir_dat.gz"), train);
  }

  @ParameterizedTest
  @ValueSource(ints = {2000, 10000})
  void bfloat16PrototypesCostLessThanOnePointOfAccuracy(int dim) {
    VectorKernels kernels = VectorKernelsProvider.get();
    LocalTraining lt = new LocalTraining(kernels);
    TrainingReport r = lt.run(train, test,
        TrainingConfig.builder().dim(dim).encoder(EncoderKind.COS).epochs(20).seed(42).threads(2).build(),
        TrainingProgress.NONE);
    HdModel m = r.model();
    int classes = m.prototypes().classes();
    ModelEnvelope sent = new ModelEnvelope(Kind.FINAL_MODEL, "isolet", "trainer", 1, 1, m.encoder().kind().id(),
        m.encoder().features(), m.encoder().basisSeed(), dim, classes, 0, train.size(), List.of(), null,
        m.prototypes().toArray());
    byte[] f32Frame = EnvelopeCodec.encode(sent, Dtype.FLOAT32);
    byte[] bf16Frame = EnvelopeCodec.encode(sent, Dtype.BFLOAT16);
    Expectations expect = Expectations.builder().federation("isolet").encoder(m.encoder().kind().id())
        .features(m.encoder().features()).basisSeed(m.encoder().basisSeed()).dim(dim).classes(classes).build();
    ModelEnvelope received = EnvelopeCodec.decode(bf16Frame, expect);
    ClassPrototypes bf16 = ClassPrototypes.copyOf(classes, dim, received.prototypes());

    double maxRel = 0;
    float[] a = m.prototypes().vectors();
    float[] b = bf16.vectors();
    for (int i = 0; i < a.length; i++) {
      if (a[i] != 0) {
        maxRel = Math.max(maxRel, Math.abs((double) b[i] - a[i]) / Math.abs(a[i]));
      }
    }
    assertTrue(maxRel <= 0x1p-8, "max relative error " + maxRel);

    Encoder encoder = new Encoder(m.encoder(), kernels, 2);
    EncodedSet encoded = EncodedSet.encode(encoder, test.features(), test.size(), test.labels(), classes, 2);
    Classifier classifier = new Classifier(kernels, m.similarity());
    Predictions p32 = classifier.predict(m.prototypes(), encoded, 2);
    Predictions p16 = classifier.predict(bf16, encoded, 2);
    Evaluation e32 = Evaluation.of(test.labels(), p32, classes);
    Evaluation e16 = Evaluation.of(test.labels(), p16, classes);
    assertEquals(r.test().evaluation().accuracy(), e32.accuracy(), 1e-12, "float32 path reproduces the training report");
    int changed = 0;
    for (int i = 0; i < test.size(); i++) {
      if (p32.labels()[i] != p16.labels()[i]) {
        changed++;
      }
    }
    double deltaPoints = 100 * (e16.accuracy() - e32.accuracy());
    System.out.printf(Locale.ROOT,
        "bf16 ISOLET D=%d: float32 %.2f %% -> bfloat16 %.2f %% (%+.2f points), %d of %d predictions changed, "
            + "max relative prototype error %.2e, frame %d -> %d bytes, kernels %s%n",
        dim, 100 * e32.accuracy(), 100 * e16.accuracy(), deltaPoints, changed, test.size(), maxRel, f32Frame.length,
        bf16Frame.length, kernels.name());
    assertTrue(Math.abs(deltaPoints) < 1.0, "bf16 changed accuracy by " + deltaPoints + " points");
  }
}
