package io.hdfl.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.hd.EncoderKind;
import io.hdfl.kernels.VectorKernelsProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** End to end on the real ISOLET split shipped in the repository. */
class LocalTrainingIsoletTest {
  static Path shipped(String name) {
    Path root = Path.of(System.getProperty("hdfl.repo.root", "."));
    Path p = root.resolve("data/isolet").resolve(name);
    if (!Files.exists(p)) {
      p = Path.of("..").resolve("data/isolet").resolve(name);
    }
    return p;
  }

  @Test
  void learnsIsoletWellAboveChance() throws Exception {
    Dataset train = Datasets.load(shipped("isolet5-train.choir_dat.gz"));
    Dataset test = Datasets.loadCompatible(shipped("isolet5-test.choir_dat.gz"), train);
    assertEquals(617, train.featureCount());
    assertEquals(26, train.numClasses());
    LocalTraining lt = new LocalTraining(VectorKernelsProvider.get());
    TrainingReport r = lt.run(train, test,
        TrainingConfig.builder().dim(2000).encoder(EncoderKind.COS).epochs(10).seed(42).threads(2).build(),
        TrainingProgress.NONE);
    double acc = r.test().evaluation().accuracy();
    // 26 classes: chance is 3.8 %. HD with D=2000 reaches the high 80s to 90s on ISOLET.
    assertTrue(acc > 0.85, "accuracy " + acc);
    assertTrue(r.test().evaluation().macroF1() > 0.85);
    TrainingReport onePass = lt.run(train, test,
        TrainingConfig.builder().dim(2000).epochs(0).seed(42).threads(2).build(), TrainingProgress.NONE);
    assertTrue(onePass.test().evaluation().accuracy() > 0.6, "one-pass accuracy " + onePass.test().evaluation().accuracy());
  }
}
