package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FeatureBufferTest {
  @Test
  void growsAsValuesArriveAndGivesThemBack() {
    FeatureBuffer b = new FeatureBuffer("x.csv");
    float[] row = new float[700];
    for (int i = 0; i < 10; i++) {
      Arrays.fill(row, i);
      b.append(row, 0, row.length);
    }
    float[] all = b.toArray();
    assertTrue(all.length == 7000 && all[0] == 0 && all[6999] == 9);
  }

  /** Data too large for the heap (a gzip bomb, say) are the file's error, not an OutOfMemoryError. */
  @Test
  void runningOutOfHeapIsAnErrorNamingTheFileAndTheRemedy() {
    FeatureBuffer b = new FeatureBuffer("bomb.choir_dat.gz", (values, length) -> {
      if (length > 4096) {
        throw new OutOfMemoryError("Java heap space"); // a heap of 4096 values
      }
      return Arrays.copyOf(values, length);
    });
    float[] row = new float[1000];
    for (int i = 0; i < 4; i++) {
      b.append(row, 0, row.length); // grows to 4096 values: within the heap
    }
    DatasetFormatException e = assertThrows(DatasetFormatException.class, () -> b.append(row, 0, row.length));
    assertTrue(e.getMessage().contains("bomb.choir_dat.gz"), e.getMessage());
    assertTrue(e.getMessage().contains("too much data for this JVM's heap"), e.getMessage());
    assertTrue(e.getMessage().contains("HDFL_JAVA_OPTS=-Xmx4g, or split the file"), e.getMessage());
  }
}
