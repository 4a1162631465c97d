package io.hdfl.sensors.signal.mqtt;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.hdfl.sensors.signal.Sample;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One JSON payload → one {@link Reading} by a field mapping. Pure: bytes in, values out; the source
 * applies the missing-value policy. Parsing is bounded: at most 64 levels of nesting, numbers of at
 * most 64 digits, duplicate keys rejected (which one would count is ambiguous), nothing after the
 * value; the caller has already checked the payload size.
 */
final class JsonSampleDecoder {

  /** What one payload held: values where {@code present}, the timestamp and the label. */
  record Reading(long timestampNanos, float[] values, boolean[] present, int label, String problem) {}

  static final int MAX_DEPTH = 64;
  private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?");
  private static final BigDecimal MIN_NANOS = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

  private final ObjectReader reader;
  private final List<JsonChannel> channels;
  private final JsonPointer[] pointers;
  private final JsonPointer timestampPointer;
  private final String timestampField;
  private final TimestampFormat timestampFormat;
  private final JsonPointer labelPointer;
  private final String labelField;
  private final ClassLabels labels;

  /**
   * @param timestampField pointer to the timestamp, or null for arrival time
   * @param labelField pointer to the label, or null for none
   */
  JsonSampleDecoder(List<JsonChannel> channels, String timestampField, TimestampFormat timestampFormat,
      String labelField, ClassLabels labels, int maxPayloadBytes) {
    JsonFactory factory = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(MAX_DEPTH)
            .maxNumberLength(64)
            .maxStringLength(Math.max(maxPayloadBytes, 1))
            .build())
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();
    this.reader = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).reader();
    this.channels = List.copyOf(channels);
    this.pointers = new JsonPointer[channels.size()];
    for (int c = 0; c < pointers.length; c++) {
      pointers[c] = JsonChannel.compile(channels.get(c).pointer());
    }
    this.timestampField = timestampField;
    this.timestampPointer = timestampField == null ? null : JsonChannel.compile(timestampField);
    this.timestampFormat = timestampFormat;
    this.labelField = labelField;
    this.labelPointer = labelField == null ? null : JsonChannel.compile(labelField);
    this.labels = labels;
  }

  /**
   * Reads one payload.
   *
   * @param arrivalNanos the arrival time, used when no timestamp field is configured
   * @throws MalformedPayloadException if the payload is not JSON, or the timestamp or label field is
   *     missing or unreadable
   */
  Reading decode(byte[] payload, long arrivalNanos) throws MalformedPayloadException {
    JsonNode root;
    try {
      root = reader.readTree(payload);
    } catch (JsonProcessingException e) {
      throw new MalformedPayloadException("not valid JSON: " + ThrottledLog.printable(e.getOriginalMessage(), 200)
          + location(e));
    } catch (IOException e) {
      throw new MalformedPayloadException("not valid JSON: " + ThrottledLog.printable(e.getMessage(), 200));
    }
    if (root == null || root.isMissingNode()) {
      throw new MalformedPayloadException("empty payload");
    }
    long t = timestampPointer == null ? arrivalNanos : timestamp(root.at(timestampPointer));
    int label = labelPointer == null ? Sample.NO_LABEL : label(root.at(labelPointer));
    float[] values = new float[pointers.length];
    boolean[] present = new boolean[pointers.length];
    String problem = null;
    for (int c = 0; c < pointers.length; c++) {
      JsonNode n = root.at(pointers[c]);
      double raw;
      if (n.isNumber()) {
        raw = n.doubleValue();
      } else if (n.isBoolean()) {
        raw = n.booleanValue() ? 1 : 0;
      } else if (n.isTextual() && n.textValue().length() <= 80 && DECIMAL.matcher(n.textValue().strip()).matches()) {
        raw = Double.parseDouble(n.textValue().strip());
      } else {
        if (problem == null && !n.isMissingNode() && !n.isNull()) {
          problem = "channel " + channels.get(c).channel().name() + ": " + describe(n) + " at "
              + channels.get(c).pointer() + " is not a number";
        }
        continue;
      }
      JsonChannel m = channels.get(c);
      values[c] = (float) (raw * m.scale() + m.offset());
      present[c] = true;
    }
    return new Reading(t, values, present, label, problem);
  }

  private long timestamp(JsonNode n) throws MalformedPayloadException {
    if (n.isMissingNode() || n.isNull()) {
      throw new MalformedPayloadException("no timestamp at " + timestampField);
    }
    if (timestampFormat == TimestampFormat.ISO_8601) {
      if (!n.isTextual() || n.textValue().length() > 64) {
        throw new MalformedPayloadException("timestamp at " + timestampField + " is " + describe(n)
            + ", not ISO-8601 text");
      }
      try {
        Instant i = Instant.parse(n.textValue().strip());
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
      } catch (DateTimeParseException e) {
        throw new MalformedPayloadException("timestamp at " + timestampField + " is not ISO-8601: "
            + ThrottledLog.printable(n.textValue(), 64));
      } catch (ArithmeticException e) {
        throw new MalformedPayloadException("timestamp at " + timestampField + " is outside 1677..2262: "
            + ThrottledLog.printable(n.textValue(), 64));
      }
    }
    BigDecimal v;
    if (n.isIntegralNumber()) {
      v = new BigDecimal(n.bigIntegerValue());
    } else if (n.isBigDecimal()) {
      v = n.decimalValue();
    } else if (n.isNumber()) {
      double d = n.doubleValue();
      if (!Double.isFinite(d)) {
        throw new MalformedPayloadException("timestamp at " + timestampField + " overflows a double");
      }
      v = BigDecimal.valueOf(d);
    } else if (n.isTextual() && n.textValue().length() <= 64 && DECIMAL.matcher(n.textValue().strip()).matches()) {
      v = new BigDecimal(n.textValue().strip());
    } else {
      throw new MalformedPayloadException("timestamp at " + timestampField + " is " + describe(n)
          + ", not a number of " + timestampFormat.name().toLowerCase().replace('_', ' '));
    }
    // range check before rounding: setScale on a value like 1e9999 would build a 10,000-digit integer
    BigDecimal nanos = v.multiply(BigDecimal.valueOf(timestampFormat.nanosPerUnit()));
    if (nanos.compareTo(MIN_NANOS) < 0 || nanos.compareTo(MAX_NANOS) > 0
        || (nanos = nanos.setScale(0, RoundingMode.HALF_EVEN)).compareTo(MAX_NANOS) > 0) {
      throw new MalformedPayloadException("timestamp " + ThrottledLog.printable(v.toString(), 40) + " at "
          + timestampField + " is outside 1677..2262 in " + timestampFormat.name().toLowerCase().replace('_', ' '));
    }
    return nanos.longValueExact();
  }

  private int label(JsonNode n) throws MalformedPayloadException {
    int label;
    if (n.isMissingNode() || n.isNull()) {
      return Sample.NO_LABEL;
    } else if (n.isNumber()) {
      label = labels.fromNumber(n.doubleValue());
    } else if (n.isTextual()) {
      label = labels.fromText(n.textValue());
    } else {
      label = ClassLabels.INVALID;
    }
    if (label == ClassLabels.INVALID) {
      throw new MalformedPayloadException("label at " + labelField + " is " + describe(n)
          + ": not a class index ≥ 0, -1" + (labels.names().isEmpty() ? "" : " or one of " + labels.names()));
    }
    return label;
  }

  private static String describe(JsonNode n) {
    if (n.isTextual()) {
      return "string " + ThrottledLog.printable(n.textValue(), 40);
    }
    if (n.isContainerNode()) {
      return n.isArray() ? "an array" : "an object";
    }
    if (n.isMissingNode()) {
      return "absent";
    }
    return n.getNodeType().name().toLowerCase() + " " + ThrottledLog.printable(n.asText(), 40);
  }

  private static String location(JsonProcessingException e) {
    return e.getLocation() == null ? "" : " at byte " + e.getLocation().getByteOffset();
  }
}
