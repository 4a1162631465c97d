package io.hdfl.privacy.schedule.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.FedHdPrivacySchedule;
import io.hdfl.privacy.schedule.NoiseSchedule;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class SchedulePlotTest {
  private static BufferedImage render(NoiseSchedule s, int w, int h) throws Exception {
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(SchedulePlot.png(s, w, h)));
    assertEquals(w, img.getWidth());
    assertEquals(h, img.getHeight());
    return img;
  }

  @Test
  void longSchedulesAreThinnedAndStillDrawn() throws Exception {
    // 200 000 steps: thinned to at most MAX_POINTS per line
    NoiseSchedule s = PrivateDflSchedule.of(PrivacyParameters.withDelta0(2000, 1, 1e-3), 1000, 10, 200);
    long start = System.nanoTime();
    BufferedImage img = render(s, 900, 500);
    assertTrue(System.nanoTime() - start < 20e9, "fast enough");
    assertTrue(distinctColours(img) > 3, "something was drawn");
  }

  @Test
  void starPlotWithServerTopUpAndCustomSize() throws Exception {
    NoiseSchedule s = FedHdPrivacySchedule.of(PrivacyParameters.perSampleDelta(100, 1), 2, 1, 5);
    render(s, 640, 360);
    assertThrows(IllegalArgumentException.class, () -> SchedulePlot.png(s, 10, 10));
  }

  @Test
  void recognisesFontFailuresOnly() {
    assertTrue(SchedulePlot.fontFailure(new UnsatisfiedLinkError("libfontmanager.so: libfreetype.so.6")));
    assertTrue(SchedulePlot.fontFailure(new Error("Probable fatal error: No fonts found.")));
    NullPointerException fromFontCode = new NullPointerException();
    fromFontCode.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("sun.awt.FontConfiguration", "getVersion", "FontConfiguration.java", 1264)});
    assertTrue(SchedulePlot.fontFailure(fromFontCode));
    assertFalse(SchedulePlot.fontFailure(new NullPointerException("x is null")));
    assertFalse(SchedulePlot.fontFailure(new OutOfMemoryError()));
  }

  private static int distinctColours(BufferedImage img) {
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (int y = 0; y < img.getHeight(); y += 3) {
      for (int x = 0; x < img.getWidth(); x += 3) {
        seen.add(img.getRGB(x, y));
      }
    }
    return seen.size();
  }
}
