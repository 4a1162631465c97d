package io.hdfl.sensors.signal.mqtt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Sample;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonSampleDecoderTest {

  private static final List<JsonChannel> MAPPING = List.of(
      JsonChannel.of("spindle.load", "%", "/spindle/load"),
      JsonChannel.of("spindle.speed", "1/s", "/spindle/rpm").scaled(1 / 60.0, 0),
      JsonChannel.of("x.current", "A", "/axes/0/current"),
      JsonChannel.of("temp", "K", "/temp").scaled(1, 273.15));

  private static JsonSampleDecoder decoder(String tsField, TimestampFormat format, String labelField, String... names) {
    return new JsonSampleDecoder(MAPPING, tsField, format, labelField, new ClassLabels(List.of(names)), 65536);
  }

  private static JsonSampleDecoder.Reading decode(JsonSampleDecoder d, String json) throws MalformedPayloadException {
    return d.decode(json.getBytes(StandardCharsets.UTF_8), 42L);
  }

  @Test
  void mapsPointersScalesAndOffsets() throws Exception {
    JsonSampleDecoder d = decoder("/ts", TimestampFormat.EPOCH_MILLIS, "/quality", "nominal", "under", "over");
    JsonSampleDecoder.Reading r = decode(d, "{\"ts\": 1714558530250, \"spindle\": {\"load\": 41.5, \"rpm\": 12000},"
        + " \"axes\": [{\"current\": 3.25}], \"temp\": 20, \"quality\": \"over\", \"extra\": [1,2,3]}");
    assertEquals(1_714_558_530_250_000_000L, r.timestampNanos());
    assertArrayEquals(new float[] {41.5f, 200f, 3.25f, 293.15f}, r.values());
    assertArrayEquals(new boolean[] {true, true, true, true}, r.present());
    assertEquals(2, r.label());
    assertNull(r.problem());
  }

  @Test
  void booleansNumericStringsAndMissingValues() throws Exception {
    JsonSampleDecoder d = decoder(null, null, null);
    JsonSampleDecoder.Reading r = decode(d, "{\"spindle\": {\"load\": true, \"rpm\": \" 600 \"}, \"temp\": null}");
    assertEquals(42L, r.timestampNanos(), "arrival time when no timestamp field is configured");
    assertEquals(1f, r.values()[0]);
    assertEquals(10f, r.values()[1]);
    assertArrayEquals(new boolean[] {true, true, false, false}, r.present());
    assertNull(r.problem(), "absent and null are plain missing values");
    assertEquals(Sample.NO_LABEL, r.label());

    JsonSampleDecoder.Reading bad = decode(d, "{\"spindle\": {\"load\": \"high\", \"rpm\": \"0x10\"}, \"temp\": {}}");
    assertArrayEquals(new boolean[] {false, false, false, false}, bad.present());
    assertTrue(bad.problem().contains("spindle.load") && bad.problem().contains("'high'"), bad.problem());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "EPOCH_SECONDS | 1714558530.25      | 1714558530250000000",
      "EPOCH_SECONDS | \"1714558530\"     | 1714558530000000000",
      "EPOCH_MILLIS  | 1714558530250      | 1714558530250000000",
      "EPOCH_MILLIS  | 1714558530250.5    | 1714558530250500000",
      "EPOCH_MICROS  | 1714558530250001   | 1714558530250001000",
      "EPOCH_NANOS   | 1714558530250000001 | 1714558530250000001",
      "EPOCH_NANOS   | 0                  | 0",
      "ISO_8601      | \"2024-05-01T10:15:30.25Z\" | 1714558530250000000",
      "ISO_8601      | \"2024-05-01T12:15:30.25+02:00\" | 1714558530250000000",
      "ISO_8601      | \"1970-01-01T00:00:00.000000001Z\" | 1"})
  void timestampFormats(TimestampFormat format, String value, long nanos) throws Exception {
    JsonSampleDecoder d = decoder("/t", format, null);
    assertEquals(nanos, decode(d, "{\"t\": " + value + "}").timestampNanos());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "EPOCH_MILLIS  | {}                      | no timestamp at /t",
      "EPOCH_MILLIS  | {\"t\": null}           | no timestamp at /t",
      "EPOCH_MILLIS  | {\"t\": \"yesterday\"}  | not a number",
      "EPOCH_MILLIS  | {\"t\": [1]}            | an array",
      "EPOCH_SECONDS | {\"t\": 1e30}           | outside 1677..2262",
      "EPOCH_NANOS   | {\"t\": 9223372036854775808} | outside 1677..2262",
      "ISO_8601      | {\"t\": \"2024-13-01T00:00:00Z\"} | not ISO-8601",
      "ISO_8601      | {\"t\": 1714558530}     | not ISO-8601 text",
      "ISO_8601      | {\"t\": \"+99999-01-01T00:00:00Z\"} | outside 1677..2262"})
  void badTimestampsAreMalformed(TimestampFormat format, String json, String reason) {
    JsonSampleDecoder d = decoder("/t", format, null);
    MalformedPayloadException e = assertThrows(MalformedPayloadException.class, () -> decode(d, json));
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }

  @Test
  void labels() throws Exception {
    JsonSampleDecoder d = decoder(null, null, "/l", "nominal", "under", "over");
    assertEquals(0, decode(d, "{\"l\": 0}").label());
    assertEquals(7, decode(d, "{\"l\": 7}").label());
    assertEquals(7, decode(d, "{\"l\": 7.0}").label());
    assertEquals(1, decode(d, "{\"l\": \"under\"}").label());
    assertEquals(3, decode(d, "{\"l\": \"3\"}").label());
    assertEquals(Sample.NO_LABEL, decode(d, "{\"l\": -1}").label());
    assertEquals(Sample.NO_LABEL, decode(d, "{\"l\": null}").label());
    assertEquals(Sample.NO_LABEL, decode(d, "{}").label());
    assertEquals(Sample.NO_LABEL, decode(d, "{\"l\": \"\"}").label());
    for (String bad : new String[] {"-2", "1.5", "\"broken\"", "true", "[0]", "1e12"}) {
      MalformedPayloadException e = assertThrows(MalformedPayloadException.class, () -> decode(d, "{\"l\": " + bad + "}"));
      assertTrue(e.getMessage().contains("label at /l"), e.getMessage());
    }
  }

  @Test
  void rejectsBadJsonWithAReason() {
    JsonSampleDecoder d = decoder(null, null, null);
    String deep = "[".repeat(JsonSampleDecoder.MAX_DEPTH + 1) + "]".repeat(JsonSampleDecoder.MAX_DEPTH + 1);
    String[][] cases = {
        {"", "empty payload"},
        {"   ", "empty payload"},
        {"{\"spindle\": ", "not valid JSON"},
        {"{\"a\": 1, \"a\": 2}", "Duplicate field"},
        {"{\"a\": 1} {\"a\": 2}", "not valid JSON"},
        {"{'a': 1}", "not valid JSON"},
        {deep, "nesting depth"},
        {"{\"a\": " + "9".repeat(100) + "}", "Number value length"},
        {"NaN", "not valid JSON"}};
    for (String[] c : cases) {
      MalformedPayloadException e = assertThrows(MalformedPayloadException.class, () -> decode(d, c[0]),
          () -> "accepted " + c[0]);
      assertTrue(e.getMessage().contains(c[1]), () -> c[0] + " -> " + e.getMessage());
    }
    MalformedPayloadException utf = assertThrows(MalformedPayloadException.class,
        () -> d.decode(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, 0));
    assertTrue(utf.getMessage().contains("not valid JSON"), utf.getMessage());
  }

  @Test
  void bareNumberPayloadWithTheEmptyPointer() throws Exception {
    JsonSampleDecoder d = new JsonSampleDecoder(List.of(JsonChannel.of("v", "V", "")), null, null, null,
        new ClassLabels(List.of()), 1024);
    JsonSampleDecoder.Reading r = d.decode("230.5".getBytes(StandardCharsets.UTF_8), 1);
    assertEquals(230.5f, r.values()[0]);
    assertTrue(r.present()[0]);
  }

  @Test
  void badMappingsAreRefusedUpFront() {
    assertThrows(IllegalArgumentException.class, () -> JsonChannel.of("a", "", "spindle/load"));
    assertThrows(IllegalArgumentException.class, () -> JsonChannel.of("a", "", "/a").scaled(0, 0));
    assertThrows(IllegalArgumentException.class, () -> JsonChannel.of("a", "", "/a").scaled(1, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> JsonChannel.of("a[", "", "/a"));
  }

  /** Random mutations of valid payloads never escape as anything but MalformedPayloadException. */
  @Test
  void fuzzedPayloadsAreRejectedOrDecodedNeverThrown() {
    JsonSampleDecoder d = decoder("/ts", TimestampFormat.EPOCH_MILLIS, "/quality", "nominal", "under", "over");
    byte[] seed = ("{\"ts\": 1714558530250, \"spindle\": {\"load\": 41.5, \"rpm\": \"12000\"},"
        + " \"axes\": [{\"current\": 3.25}], \"temp\": 20, \"quality\": \"over\"}").getBytes(StandardCharsets.UTF_8);
    Random rnd = new Random(6);
    int decoded = 0;
    int rejected = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] p = seed.clone();
      int edits = 1 + rnd.nextInt(4);
      for (int e = 0; e < edits; e++) {
        int at = rnd.nextInt(p.length);
        switch (rnd.nextInt(3)) {
          case 0 -> p[at] = (byte) rnd.nextInt(256);
          case 1 -> p[at] = (byte) "{}[]\":,0123456789.-eE tfn\\".charAt(rnd.nextInt(26));
          default -> p = java.util.Arrays.copyOf(p, at);
        }
        if (p.length == 0) {
          break;
        }
      }
      try {
        JsonSampleDecoder.Reading r = d.decode(p, 0);
        assertEquals(4, r.values().length);
        decoded++;
      } catch (MalformedPayloadException e) {
        assertFalse(e.getMessage().isEmpty());
        assertFalse(e.getMessage().contains("\n"), "one-line reason");
        rejected++;
      }
    }
    assertTrue(decoded > 100 && rejected > 100, decoded + " decoded, " + rejected + " rejected");
  }
}
