package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Channel names and units, channel lists, and samples. */
class ChannelAndSampleTest {

  @Test
  void channelLabelsAndValidation() {
    assertEquals("S.torque[Nm]", new Channel("S.torque", "Nm").label());
    assertEquals("flag", Channel.of("flag").toString());
    assertEquals("temp[°C]", new Channel("temp", "°C").label());
    assertEquals("channel name is empty", assertThrows(IllegalArgumentException.class, () -> Channel.of("")).getMessage());
    assertEquals("channel name 'a[b' contains '[' at index 1",
        assertThrows(IllegalArgumentException.class, () -> Channel.of("a[b")).getMessage());
    assertEquals("channel name 'a?b' contains a control character at index 1",
        assertThrows(IllegalArgumentException.class, () -> Channel.of("a\tb")).getMessage());
    assertEquals("channel name ' x' has leading or trailing spaces",
        assertThrows(IllegalArgumentException.class, () -> Channel.of(" x")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Channel("x", "m]"));
    Channel.of("é".repeat(127));
    IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> Channel.of("é".repeat(128)));
    assertTrue(tooLong.getMessage().startsWith("channel name is 256 bytes of UTF-8, more than 255"), tooLong.getMessage());
  }

  @Test
  void labelsParseBackToChannels() {
    assertEquals(new Channel("spindle_current", "A"), Channel.parseLabel("spindle_current[A]"));
    assertEquals(new Channel("temp", "°C"), Channel.parseLabel(" temp [ °C ] "));
    assertEquals(Channel.of("flag"), Channel.parseLabel("flag"));
    assertEquals(Channel.of("x"), Channel.parseLabel("x[]"));
    for (Channel c : List.of(new Channel("S.torque", "Nm"), Channel.of("a b"))) {
      assertEquals(c, Channel.parseLabel(c.label()));
    }
    assertEquals("channel 'a[V' is not name or name[unit]",
        assertThrows(IllegalArgumentException.class, () -> Channel.parseLabel("a[V")).getMessage());
    assertEquals("channel 'a[V]x' is not name or name[unit]",
        assertThrows(IllegalArgumentException.class, () -> Channel.parseLabel("a[V]x")).getMessage());
    assertEquals("channel 'aV]' has ']' without '['",
        assertThrows(IllegalArgumentException.class, () -> Channel.parseLabel("aV]")).getMessage());
    assertEquals("channel name is empty",
        assertThrows(IllegalArgumentException.class, () -> Channel.parseLabel("[V]")).getMessage());
  }

  @Test
  void channelListsAreNonEmptyBoundedAndUnique() {
    List<Channel> ok = List.of(Channel.of("a"), new Channel("b", "V"));
    assertEquals(ok, Channel.checkList(ok));
    assertEquals("channel name 'a' appears twice", assertThrows(IllegalArgumentException.class,
        () -> Channel.checkList(List.of(Channel.of("a"), new Channel("a", "V")))).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Channel.checkList(List.of()));
    assertEquals(4096, ListSignalSource.channels(4096).size());
    Channel.checkList(ListSignalSource.channels(4096));
    assertEquals("a signal has 1..4096 channels, got 4097", assertThrows(IllegalArgumentException.class,
        () -> Channel.checkList(Collections.nCopies(4097, Channel.of("x")))).getMessage());
  }

  @Test
  void samplesCopyTheirValuesAndCarryOptionalLabels() {
    float[] v = {1f, 2f, 3f};
    Sample s = new Sample(42, v, 2);
    v[0] = 99f;
    assertEquals(1f, s.value(0));
    float[] out = s.values();
    out[1] = 99f;
    assertEquals(2f, s.value(1));
    assertEquals(3, s.channelCount());
    assertEquals(42, s.timestampNanos());
    assertTrue(s.hasLabel());
    assertEquals(2, s.label());
    float[] dst = new float[5];
    s.copyValues(dst, 2);
    assertArrayEquals(new float[] {0, 0, 1, 2, 3}, dst);

    Sample unlabelled = new Sample(42, new float[] {1, 2, 3});
    assertFalse(unlabelled.hasLabel());
    assertEquals(Sample.NO_LABEL, unlabelled.label());
    assertEquals(s, unlabelled.withLabel(2));
    assertEquals(s.hashCode(), unlabelled.withLabel(2).hashCode());
    assertNotEquals(s, unlabelled);
    assertSame(s, s.withLabel(2));
    assertEquals("Sample[t=42 ns, [1.0, 2.0, 3.0], label 2]", s.toString());
  }

  @Test
  void badSamplesAreRejectedAndNonFiniteOnesRecognised() {
    assertThrows(IllegalArgumentException.class, () -> new Sample(0, new float[0]));
    assertEquals("label must be ≥ 0 or NO_LABEL (-1), got -2",
        assertThrows(IllegalArgumentException.class, () -> new Sample(0, new float[] {1}, -2)).getMessage());
    assertTrue(new Sample(0, new float[] {1, -0f}).isFinite());
    assertFalse(new Sample(0, new float[] {1, Float.NaN}).isFinite());
    assertFalse(new Sample(0, new float[] {Float.NEGATIVE_INFINITY}).isFinite());
  }

  @Test
  void pacingFactors() {
    assertTrue(Pacing.AS_FAST_AS_POSSIBLE.isUnpaced());
    assertEquals(1.0, Pacing.REAL_TIME.factor());
    assertSame(Pacing.REAL_TIME, Pacing.accelerated(1));
    assertEquals(8.0, Pacing.accelerated(8).factor());
    assertEquals("×8.0", Pacing.accelerated(8).toString());
    assertEquals(Pacing.accelerated(0.5), Pacing.accelerated(0.5));
    assertThrows(IllegalArgumentException.class, () -> Pacing.accelerated(0));
    assertThrows(IllegalArgumentException.class, () -> Pacing.accelerated(Double.POSITIVE_INFINITY));
  }
}
