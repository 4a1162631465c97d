package io.hdfl.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.hdfl.codec.EnvelopeException.Reason;
import io.hdfl.codec.ModelEnvelope.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The protobuf message {@code hdfl.codec.v1.EnvelopeHeader} ({@code src/main/proto/hdfl/codec/v1/envelope.proto}),
 * written and read by hand. Writing emits fields in number order and omits zero values, as proto3
 * serializers do. Reading checks every length prefix against the limits before it allocates,
 * rejects repeated singular fields, wrong wire types, out-of-range numbers and invalid UTF-8, and
 * skips unknown fields.
 */
record EnvelopeHeader(
    Kind kind,
    String federation,
    String sender,
    int round,
    long step,
    String encoder,
    int features,
    long basisSeed,
    int dim,
    int classes,
    Dtype dtype,
    double presentVariance,
    long samplesAbsorbed,
    List<String> ledgerLines,
    byte[] signature) {

  // Field numbers of envelope.proto.
  static final int KIND = 1;
  static final int FEDERATION = 2;
  static final int SENDER = 3;
  static final int ROUND = 4;
  static final int STEP = 5;
  static final int ENCODER = 6;
  static final int FEATURES = 7;
  static final int BASIS_SEED = 8;
  static final int DIM = 9;
  static final int CLASSES = 10;
  static final int DTYPE = 11;
  static final int PRESENT_VARIANCE = 12;
  static final int SAMPLES_ABSORBED = 13;
  static final int LEDGER_LINES = 14;
  static final int SIGNATURE = 15;
  /** The tag of a ledger line: field 14, length-delimited. */
  private static final int LEDGER_LINE_TAG = LEDGER_LINES << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

  /** Maximum UTF-8 bytes of federation, sender and encoder ids. */
  static final int MAX_ID_BYTES = 256;
  /** Maximum signature bytes. */
  static final int MAX_SIGNATURE_BYTES = 1024;

  /** The value of the protobuf enum {@code hdfl.codec.v1.Kind} for {@code k}. */
  static int kindCode(Kind k) {
    return switch (k) {
      case RING_MODEL -> 1;
      case ACK -> 2;
      case GLOBAL_MODEL -> 3;
      case CLIENT_UPDATE -> 4;
      case FINAL_MODEL -> 5;
    };
  }

  /** The kind with protobuf enum value {@code code}, or null. */
  static Kind kindFromCode(long code) {
    for (Kind k : Kind.values()) {
      if (kindCode(k) == code) {
        return k;
      }
    }
    return null;
  }

  static EnvelopeHeader of(ModelEnvelope e, Dtype dtype) {
    return new EnvelopeHeader(e.kind(), e.federation(), e.sender(), e.round(), e.step(), e.encoder(), e.features(),
        e.basisSeed(), e.dim(), e.classes(), dtype, e.presentVariance(), e.samplesAbsorbed(), e.ledgerLines(),
        e.signature());
  }

  /** The protobuf encoding. Throws IllegalArgumentException for a string that is not valid Unicode. */
  byte[] toBytes() {
    // Strings to bytes first, so that the header is written once into an array of its exact size
    // (a ring envelope carries up to K ledger lines: tens of kilobytes per hop).
    byte[] fed = utf8(federation, "federation");
    byte[] snd = utf8(sender, "sender");
    byte[] enc = utf8(encoder, "encoder");
    byte[][] lines = new byte[ledgerLines.size()][];
    int size = CodedOutputStream.computeEnumSize(KIND, kindCode(kind)) + stringSize(FEDERATION, fed)
        + stringSize(SENDER, snd) + stringSize(ENCODER, enc);
    for (int i = 0; i < lines.length; i++) {
      lines[i] = utf8(ledgerLines.get(i), "ledger line " + i);
      size += CodedOutputStream.computeByteArraySize(LEDGER_LINES, lines[i]);
    }
    size += (round != 0 ? CodedOutputStream.computeUInt32Size(ROUND, round) : 0)
        + (step != 0 ? CodedOutputStream.computeUInt64Size(STEP, step) : 0)
        + (features != 0 ? CodedOutputStream.computeUInt32Size(FEATURES, features) : 0)
        + (basisSeed != 0 ? CodedOutputStream.computeFixed64Size(BASIS_SEED, basisSeed) : 0)
        + (dim != 0 ? CodedOutputStream.computeUInt32Size(DIM, dim) : 0)
        + (classes != 0 ? CodedOutputStream.computeUInt32Size(CLASSES, classes) : 0)
        + (dtype.code() != 0 ? CodedOutputStream.computeEnumSize(DTYPE, dtype.code()) : 0)
        + (Double.doubleToRawLongBits(presentVariance) != 0 ? CodedOutputStream.computeDoubleSize(PRESENT_VARIANCE, presentVariance) : 0)
        + (samplesAbsorbed != 0 ? CodedOutputStream.computeUInt64Size(SAMPLES_ABSORBED, samplesAbsorbed) : 0)
        + (signature.length != 0 ? CodedOutputStream.computeByteArraySize(SIGNATURE, signature) : 0);
    byte[] bytes = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      out.writeEnum(KIND, kindCode(kind));
      writeString(out, FEDERATION, fed);
      writeString(out, SENDER, snd);
      if (round != 0) {
        out.writeUInt32(ROUND, round);
      }
      if (step != 0) {
        out.writeUInt64(STEP, step);
      }
      writeString(out, ENCODER, enc);
      if (features != 0) {
        out.writeUInt32(FEATURES, features);
      }
      if (basisSeed != 0) {
        out.writeFixed64(BASIS_SEED, basisSeed);
      }
      if (dim != 0) {
        out.writeUInt32(DIM, dim);
      }
      if (classes != 0) {
        out.writeUInt32(CLASSES, classes);
      }
      if (dtype.code() != 0) {
        out.writeEnum(DTYPE, dtype.code());
      }
      if (Double.doubleToRawLongBits(presentVariance) != 0) {
        out.writeDouble(PRESENT_VARIANCE, presentVariance);
      }
      if (samplesAbsorbed != 0) {
        out.writeUInt64(SAMPLES_ABSORBED, samplesAbsorbed);
      }
      for (byte[] line : lines) {
        // Repeated fields are written even when empty: an empty ledger line is still a line.
        out.writeByteArray(LEDGER_LINES, line);
      }
      if (signature.length != 0) {
        out.writeByteArray(SIGNATURE, signature);
      }
      out.checkNoSpaceLeft();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex); // cannot happen: the array has the computed size
    }
    return bytes;
  }

  /** Size of an optional string field: nothing when empty. */
  private static int stringSize(int field, byte[] s) {
    return s.length == 0 ? 0 : CodedOutputStream.computeByteArraySize(field, s);
  }

  private static void writeString(CodedOutputStream out, int field, byte[] s) throws IOException {
    if (s.length != 0) {
      out.writeByteArray(field, s);
    }
  }

  /** Strict UTF-8: an unpaired surrogate is an error, not a silent '?'. ASCII (every ledger line) takes a fast path. */
  private static byte[] utf8(String s, String what) {
    // The JDK's ASCII encoder is vectorized; it writes '?' for anything else, so only a line that
    // holds a '?' needs the character-by-character check.
    byte[] ascii = s.getBytes(StandardCharsets.US_ASCII);
    if (!contains(ascii, (byte) '?') || isAscii(s)) {
      return ascii;
    }
    try {
      ByteBuffer b = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(s));
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } catch (CharacterCodingException ex) {
      throw new IllegalArgumentException(what + " is not valid Unicode (unpaired surrogate)");
    }
  }

  /**
   * Parses {@code len} header bytes at {@code off}. Syntax, ranges and the ledger and signature
   * limits are checked here; D and S against the limits, and everything about the tensor, by the
   * caller.
   */
  static EnvelopeHeader parse(byte[] frame, int off, int len, Expectations limits) {
    CodedInputStream in = CodedInputStream.newInstance(frame, off, len);
    Kind kind = null;
    String federation = "";
    String sender = "";
    long round = 0;
    long step = 0;
    String encoder = "";
    long features = 0;
    long basisSeed = 0;
    long dim = 0;
    long classes = 0;
    Dtype dtype = Dtype.FLOAT32;
    double presentVariance = 0;
    long samplesAbsorbed = 0;
    List<String> ledger = new ArrayList<>();
    byte[] signature = new byte[0];
    int seen = 0; // bit per singular field number
    try {
      in.pushLimit(len);
      int tag = in.readTag();
      while (tag != 0) {
        int field = WireFormat.getTagFieldNumber(tag);
        if (tag == LEDGER_LINE_TAG) {
          // the K ledger lines of a ring model come in a row: read in a loop of their own, so that this
          // method's loop runs over a dozen fields and the JIT does not compile it twice (once on-stack)
          tag = readLedgerLines(in, frame, off, limits, ledger);
          continue;
        }
        int wire = WireFormat.getTagWireType(tag);
        if (field < KIND || field > SIGNATURE) {
          skipUnknown(in, tag, field, wire);
          tag = in.readTag();
          continue;
        }
        if (field != LEDGER_LINES) {
          if ((seen & (1 << field)) != 0) {
            throw malformed("field " + field + " appears twice");
          }
          seen |= 1 << field;
        }
        checkWireType(field, wire);
        switch (field) {
          case KIND -> {
            long code = in.readRawVarint64();
            kind = kindFromCode(code);
            if (kind == null) {
              throw malformed("unknown kind " + code);
            }
          }
          case FEDERATION -> federation = readString(in, frame, off, MAX_ID_BYTES, "federation");
          case SENDER -> sender = readString(in, frame, off, MAX_ID_BYTES, "sender");
          case ROUND -> round = readUInt32(in, "round");
          case STEP -> step = readUInt64(in, "step");
          case ENCODER -> encoder = readString(in, frame, off, MAX_ID_BYTES, "encoder");
          case FEATURES -> features = readUInt32(in, "features");
          case BASIS_SEED -> basisSeed = in.readRawLittleEndian64();
          case DIM -> dim = readUInt32(in, "dim");
          case CLASSES -> classes = readUInt32(in, "classes");
          case DTYPE -> {
            long code = in.readRawVarint64();
            dtype = Dtype.fromCode(code);
            if (dtype == null) {
              throw new EnvelopeException(Reason.UNSUPPORTED_DTYPE, "tensor dtype " + code + " is not known to this build");
            }
          }
          case PRESENT_VARIANCE -> {
            presentVariance = Double.longBitsToDouble(in.readRawLittleEndian64());
            if (!(presentVariance >= 0) || Double.isInfinite(presentVariance)) {
              throw malformed("present variance " + presentVariance + " is not a finite non-negative number");
            }
          }
          case SAMPLES_ABSORBED -> samplesAbsorbed = readUInt64(in, "samples absorbed");
          case SIGNATURE -> {
            int n = readLength(in, MAX_SIGNATURE_BYTES, "signature");
            signature = in.readRawBytes(n);
          }
          default -> throw new AssertionError(field); // LEDGER_LINES with its wire type is read above
        }
        tag = in.readTag();
      }
    } catch (IOException ex) { // InvalidProtocolBufferException: truncated field, bad varint, bad tag
      throw malformed("not a valid protobuf message (" + summary(ex) + ")");
    }
    if (kind == null) {
      throw malformed("kind missing");
    }
    if (federation.isEmpty()) {
      throw malformed("federation missing");
    }
    if (sender.isEmpty()) {
      throw malformed("sender missing");
    }
    if (kind != Kind.ACK) {
      if (encoder.isEmpty()) {
        throw malformed(kind + " without encoder");
      }
      if (features == 0) {
        throw malformed(kind + " without features");
      }
    }
    return new EnvelopeHeader(kind, federation, sender, (int) round, step, encoder, (int) features, basisSeed,
        (int) dim, (int) classes, dtype, presentVariance, samplesAbsorbed, List.copyOf(ledger), signature);
  }

  /**
   * Reads ledger lines into {@code ledger} while the fields are ledger lines (the first one's tag is
   * already read); returns the tag after them (0 at the end).
   */
  private static int readLedgerLines(CodedInputStream in, byte[] frame, int off, Expectations limits,
      List<String> ledger) throws IOException {
    int tag;
    do {
      if (ledger.size() >= limits.maxLedgerLines()) {
        throw new EnvelopeException(Reason.LIMIT_EXCEEDED, "more than " + limits.maxLedgerLines() + " ledger lines");
      }
      ledger.add(readString(in, frame, off, limits.maxLedgerLineBytes(), "ledger line " + ledger.size()));
      tag = in.readTag();
    } while (tag == LEDGER_LINE_TAG);
    return tag;
  }

  private static void checkWireType(int field, int wire) {
    int expected = switch (field) {
      case BASIS_SEED, PRESENT_VARIANCE -> WireFormat.WIRETYPE_FIXED64;
      case FEDERATION, SENDER, ENCODER, LEDGER_LINES, SIGNATURE -> WireFormat.WIRETYPE_LENGTH_DELIMITED;
      default -> WireFormat.WIRETYPE_VARINT;
    };
    if (wire != expected) {
      throw malformed("field " + field + " has wire type " + wire + ", expected " + expected);
    }
  }

  private static void skipUnknown(CodedInputStream in, int tag, int field, int wire) throws IOException {
    switch (wire) {
      case WireFormat.WIRETYPE_VARINT, WireFormat.WIRETYPE_FIXED64, WireFormat.WIRETYPE_FIXED32,
          WireFormat.WIRETYPE_LENGTH_DELIMITED -> in.skipField(tag); // bounds-checked, no allocation
      default -> throw malformed("unknown field " + field + " with wire type " + wire);
    }
  }

  private static long readUInt32(CodedInputStream in, String what) throws IOException {
    long v = in.readRawVarint64();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw malformed(what + " " + Long.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  private static long readUInt64(CodedInputStream in, String what) throws IOException {
    long v = in.readRawVarint64();
    if (v < 0) {
      throw malformed(what + " " + Long.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  /** A length prefix, checked against {@code max} and against the bytes left before anything is allocated. */
  private static int readLength(CodedInputStream in, int max, String what) throws IOException {
    long n = in.readRawVarint64();
    if (n < 0 || n > in.getBytesUntilLimit()) {
      throw malformed(what + " of " + Long.toUnsignedString(n) + " bytes runs past the end of the header");
    }
    if (n > max) {
      throw new EnvelopeException(Reason.LIMIT_EXCEEDED, what + " of " + n + " bytes exceeds the limit of " + max);
    }
    return (int) n;
  }

  private static String readString(CodedInputStream in, byte[] frame, int off, int max, String what)
      throws IOException {
    int n = readLength(in, max, what);
    int at = off + in.getTotalBytesRead();
    // ASCII (every ledger line) fast path: the JDK's vectorized decoder maps any byte above 0x7F
    // to U+FFFD, so a string without U+FFFD was pure ASCII.
    String s = new String(frame, at, n, StandardCharsets.US_ASCII);
    if (s.indexOf('\uFFFD') < 0) {
      in.skipRawBytes(n);
      return s;
    }
    try {
      s = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(frame, at, n))
          .toString();
    } catch (CharacterCodingException ex) {
      throw malformed(what + " is not valid UTF-8");
    }
    in.skipRawBytes(n);
    return s;
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Little-endian longs over a byte array, for {@link #contains}. */
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * Whether {@code b} holds the byte {@code v}, eight bytes at a time: {@code x = word ^ (v in every
   * byte)} has a zero byte exactly where the word holds v, and {@code (x - ONES) & ~x & HIGHS} is
   * non-zero exactly when x has a zero byte. (A byte-by-byte search that stops at the first match is
   * a loop C2 does not vectorize: it took a ring hop's encoding about 15 µs for 100 ledger lines.)
   */
  static boolean contains(byte[] b, byte v) {
    long pattern = (v & 0xFFL) * ONES;
    int i = 0;
    for (; i + Long.BYTES <= b.length; i += Long.BYTES) {
      long x = (long) LONGS.get(b, i) ^ pattern;
      if (((x - ONES) & ~x & HIGHS) != 0) {
        return true;
      }
    }
    for (; i < b.length; i++) {
      if (b[i] == v) {
        return true;
      }
    }
    return false;
  }

  /** protobuf-java's messages, shortened to fit a log line. */
  private static String summary(IOException ex) {
    String s = ex.getMessage() == null ? "no detail" : ex.getMessage();
    if (s.contains("ended unexpectedly")) {
      return "a field runs past the end of the header";
    }
    s = s.replace('\n', ' ').replace('\r', ' ');
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }

  static EnvelopeException malformed(String why) {
    return new EnvelopeException(Reason.MALFORMED_HEADER, why);
  }
}
